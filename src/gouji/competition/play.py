"""Playing an event's tables with bots, in this process, in several (``--jobs``) or on a Ray
cluster (``--ray``): a table's games depend only on its seed and record, not on where they run.

A table is one ``gouji.Match`` (openings, tribute and the 大落 swap carry from game to game);
its record travels between calls, so a table that must play one more game after a knockout
tie (R17.3) continues the same match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gouji import agents
from gouji.competition.event import Event, EventError, Table
from gouji.engine.match import Match
from gouji.engine.rules import make_rules
from gouji.tools.cluster import Pool

MATCH_GAMES = 1000  # the event decides when a table stops; the match never stops by itself
MAX_DECISIONS = 20_000  # per game: a bot that loops is a bug, not a long game


@dataclass(frozen=True)
class TableTask:
    """What a worker needs to play ``count`` more games at one table."""

    table: str
    preset: str
    overrides: Mapping[str, object]
    seed: int
    bots: tuple[str, str]  # the agent of the team at seats A, at seats B
    record: Mapping[str, Any] | None  # the table's match so far (None: not started)
    count: int


def play_games(task: TableTask) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """Play ``task.count`` games at a table: (table id, match record, the new results)."""
    if task.record is None:
        m = Match(make_rules(task.preset, dict(task.overrides)), task.seed, games=MATCH_GAMES)
        start = 0
    else:
        m = Match.from_record(task.record)
        start = len(m.results)
    players = [agents.get(task.bots[s % 2], seed=task.seed * 6 + s) for s in range(6)]
    for i in range(task.count):
        if i or start:
            m.next_game()
        decisions = 0
        while m.to_act is not None:
            seat = m.to_act
            m.apply(players[seat].act(m.view(seat), m.legal_actions()))
            decisions += 1
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"table {task.table}: over {MAX_DECISIONS} decisions")
    return task.table, m.record(), m.results[start:]


def play_event(
    ev: Event,
    bot: str | None = None,
    *,
    jobs: int = 1,
    ray: str | bool = False,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Draw and play rounds until the event is over; every table's seats are played by its
    team's bot (``Team.bot``: teams may differ, so a duplicate match has something to decide)
    or else by ``bot``; a team with neither raises EventError before anything is played.
    ``progress(n)`` is told of every n games played. ``jobs`` > 1 plays tables in that many
    processes, ``ray`` on a Ray cluster instead (``gouji.tools.cluster.Pool``); the event comes out
    the same."""
    unplayed = [t.name for t in ev.teams if not (t.bot or bot)]
    if unplayed:
        raise EventError(
            f"no bot plays for {', '.join(unplayed)}: give the team a bot or a default"
        )
    records: dict[str, dict[str, Any]] = {}
    with Pool(jobs, ray) as pool:
        while not ev.is_over:
            ev.draw_round()
            while True:
                tasks = _tasks(ev, bot, records)
                if not tasks:
                    break
                done = pool.map(play_games, tasks)  # in the tables' order, as one process records
                for table_id, record, results in done:
                    records[table_id] = record
                    _, table = ev.table(table_id)
                    for res in results:
                        ev.record_result(table_id, len(table.games), res)
                    if progress is not None:
                        progress(len(results))


def _tasks(ev: Event, bot: str | None, records: Mapping[str, dict[str, Any]]) -> list[TableTask]:
    out = []
    cur = ev.current
    assert cur is not None
    for m in cur.matches:
        if m.done:
            continue
        for t in m.tables:
            missing = ev.allowed(m, t) - len(t.games)  # a sequential table 2 waits
            if missing > 0:
                out.append(_task(ev, t, bot, records.get(t.id), missing))
    return out


def _task(
    ev: Event, t: Table, bot: str | None, record: Mapping[str, Any] | None, count: int
) -> TableTask:
    a, b = (ev.teams[i].bot or bot or "" for i in t.teams)  # checked by play_event
    return TableTask(t.id, ev.preset, ev.overrides, t.seed, (a, b), record, count)
