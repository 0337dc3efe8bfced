"""An event as JSON: what ``GET /api/events/{code}`` answers and the pages read (docs/protocol.md,
"Events"): ``report.summary`` plus the server's own fields, each table with its games, the
round clock. Nothing here changes an event.
"""

from __future__ import annotations

from typing import Any

from gouji.competition.event import Event, Match, Table
from gouji.competition.report import summary
from gouji.server.events.live import LiveEvent
from gouji.server.tables.protocol import SEATS


def status_of(ev: Event) -> str:
    if ev.is_over:
        return "over"
    cur = ev.current
    if cur is None:
        return "registering"
    return "playing" if not all(m.done for m in cur.matches) else "between_rounds"


def table_json(ev: Event, number: int, m: Match, t: Table) -> dict[str, Any]:
    a, b = (ev.teams[i] for i in t.teams)
    return {
        "id": t.id,
        "round": number,
        "match": m.id,
        "teams": [a.name, b.name],
        "players": [ev.player_at(t, s) for s in range(SEATS)],
        "room": t.room,
        "url": f"/r/{t.room}" if t.room else None,
        "games": [
            {
                "places": g["places"],
                "team_scores": g["team_scores"],
                "penalties": g.get("penalties") or [],
                "source": g.get("source"),
                "sheet": g.get("sheet"),  # what the referee entered (a correction starts there)
                "extra": i >= ev.games,  # played after a knockout tie (R17.3)
            }
            for i, g in enumerate(t.games)
        ],
        "allowed": ev.allowed(m, t),
        "needed": m.needed,
        "done": m.done,
    }


def event_json(live: LiveEvent) -> dict[str, Any]:
    """``report.summary`` plus what the pages need (events_api.md). The seed stays hidden
    until the event is over: it makes every deal of every table."""
    ev = live.ev
    out = summary(ev)
    if not ev.is_over:
        out["seed"] = None
    out.update(
        {
            "code": live.code,
            "mode": ev.mode,
            "status": status_of(ev),
            "round": len(ev.rounds),
            "games": ev.games,
            "fixed_deal": live.settings.fixed_deal,
            "team_list": [
                {
                    "name": t.name,
                    "players": t.players,
                    "bot": t.bot,
                    "disqualified": t.disqualified,
                    "subs": t.subs,
                    "seed": t.seed,
                }
                for t in ev.teams
            ],
            "team_size": ev.team_size,
            "sequential": ev.sequential,
            "third_place": ev.third_place,
            "offenders": ev.offenders(),
            "open_matches": [
                m.id for m in (ev.current.matches if ev.current else []) if not m.done
            ],
            "tables": [
                table_json(ev, r.number, m, t)
                for r in ev.rounds
                for m in r.matches
                for t in m.tables
            ],
            "clock": round_clock(live),
        }
    )
    return out


def round_clock(live: LiveEvent) -> dict[str, Any] | None:
    """The organiser's round clock while its round is the last drawn and the event goes on
    (a draw or the end leaves an older clock behind: the pages show none)."""
    clock = live.settings.clock
    if not isinstance(clock, dict) or live.ev.is_over or clock.get("round") != len(live.ev.rounds):
        return None
    return dict(clock)
