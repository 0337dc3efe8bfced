"""An event (比赛): teams of three, rounds of pairings, tables that play matches, results,
sanctions and standings — as the seeds' competitions are run (seed 003's 够级比赛, the audit
association's 积分制 contest).

The event is plain data plus the rules that move it on; it plays nothing itself. Results
come in game by game, from the engine (``record_result`` with ``Game.result()``) or from a
referee's sheet (``record_sheet``), and every call either changes the event completely or
raises ``EventError`` and changes nothing. ``to_dict``/``from_dict`` persist it as JSON.

Mistakes are corrected on the record: a sheet can be replaced or voided, a sanction can name
the game it counts in, until the next round is drawn; every change is written to ``log``
(the audit log) with who did it (``acting``) and what it was before and after.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Any

from gouji.competition import pairing
from gouji.competition.discipline import last_place_problem, next_step, offenders
from gouji.competition.sheet import SheetError, score_sheet
from gouji.engine.referee.game import SANCTIONS as SANCTION_KINDS  # R19.4: the engine's list
from gouji.engine.rules import ConfigError, Rules, make_rules

FORMAT = "gouji-event/1"
FORMATS = ("knockout", "round_robin", "swiss")
TEAM_SIZE = 3
DUPLICATE_TEAM = 6  # a duplicate team of people: two trios, one at each table at once
MAX_SUBS = 3  # 替补 named at registration
MAX_TEAMS = 256
MAX_NAME = 40
WIN, DRAW = 2, 1  # match points (a bye counts as a win)
MAX_TIE_GAMES = 5  # a knockout match still tied after this many more games is drawn by lot
SEATS_OF = ((0, 2, 4), (1, 3, 5))  # the team sitting at seats A / B (R1.1)


class EventError(ValueError):
    """An event call that cannot be done now or with these values; nothing was changed."""


@dataclass
class Team:
    """A team of three (联邦), or of six in a duplicate event: two trios, the first at seats A
    (甲) and the second at seats B (乙) of whichever table the team plays. ``bot`` names the
    agent that plays for an all-bot team; ``subs`` are its 替补; ``seed`` its 种子 rank."""

    name: str
    players: list[str]
    bot: str | None = None
    disqualified: bool = False
    subs: list[str] = field(default_factory=list)
    seed: int | None = None


@dataclass
class Table:
    """One table of a pairing: a match between the team at seats A (0, 2, 4) and the team at
    seats B. Duplicate pairings have two tables with the same deals and the seats swapped."""

    id: str
    teams: tuple[int, int]  # (team at seats A, team at seats B)
    seed: int
    games: list[dict[str, Any]] = field(default_factory=list)  # one result per game
    room: str | None = None  # the server room playing it online
    lineup: list[str] = field(default_factory=list)  # who sits at seats 0…5, as drawn


@dataclass
class Match:
    """A pairing of two teams (or a bye: ``teams[1]`` is None) and how it ended."""

    id: str
    teams: tuple[int, int | None]
    tables: list[Table]
    needed: int  # games each table plays (grows by one after a knockout tie, R17.3)
    reset_at: int = 0  # games before this index no longer count (R17.3: totals reset)
    winner: int | None = None  # a team index; None for a draw, a bye or not yet decided
    done: bool = False
    by_lot: bool = False  # still tied after MAX_TIE_GAMES more games: decided by lot (D55)
    walkover: list[int] = field(default_factory=list)  # teams that did not come (弃权)
    third_place: bool = False  # a knockout's match for third place, beside the final

    @property
    def is_bye(self) -> bool:
        return self.teams[1] is None


@dataclass
class Round:
    number: int
    matches: list[Match]


def _clean(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise EventError(f"{what} must be a non-empty text")
    text = " ".join(value.split())
    if len(text) > MAX_NAME or any(not c.isprintable() for c in text):
        raise EventError(f"{what} must be printable and at most {MAX_NAME} characters")
    return text


class Event:
    """A competition: registration, then rounds until the format's end (see module doc)."""

    def __init__(
        self,
        name: str,
        preset: str,
        fmt: str,
        *,
        rounds: int | None = None,
        duplicate: bool = False,
        sequential: bool = False,
        third_place: bool = False,
        games: int | None = None,
        seed: int = 0,
        mode: str = "online",
        overrides: Mapping[str, object] | None = None,
    ) -> None:
        self.name = _clean(name, "the event's name")
        try:
            self.rules: Rules = make_rules(preset, dict(overrides or {}))
        except ConfigError as e:
            raise EventError(str(e)) from None
        if fmt not in FORMATS:
            raise EventError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
        if mode not in ("online", "paper"):
            raise EventError("mode is 'online' (tables on this server) or 'paper' (real cards)")
        if games is not None and (isinstance(games, bool) or not 1 <= games <= 20):
            raise EventError("games per match must be 1…20")
        if rounds is not None and (isinstance(rounds, bool) or not 1 <= rounds <= 50):
            raise EventError("rounds must be 1…50")
        if fmt == "knockout" and rounds is not None:
            raise EventError("a knockout plays until one team is left: it takes no round count")
        if sequential and not duplicate:
            raise EventError("tables one after the other is a duplicate event's option")
        if third_place and fmt != "knockout":
            raise EventError("a match for third place is a knockout's option")
        self.preset = preset
        self.overrides = dict(overrides or {})
        self.format = fmt
        self.rounds_wanted = rounds
        self.duplicate = bool(duplicate)
        self.sequential = bool(sequential)
        self.third_place = bool(third_place)
        self.games = games if games is not None else 3  # MATCH7's three games (R17.3)
        self.seed = int(seed)
        self.mode = mode
        self.teams: list[Team] = []
        self.rounds: list[Round] = []
        self.sanctions: list[dict[str, Any]] = []
        self.closed = False
        self.log: list[dict[str, Any]] = []  # the audit log: every change, who, before/after
        self._schedule: list[pairing.Round] | None = None
        self._by: str | None = None  # who is acting (``acting``), for the log
        self._at: float | None = None

    # ------------------------------------------------------------------ the record
    @contextmanager
    def acting(self, by: str | None, at: float | None) -> Iterator[None]:
        """Changes made inside are logged as done by ``by`` (e.g. "organiser", "referee 王")
        at ``at`` (epoch seconds): the server says who and when, the event what."""
        old = self._by, self._at
        self._by, self._at = by, at
        try:
            yield
        finally:
            self._by, self._at = old

    def note(self, action: str, **data: Any) -> dict[str, Any]:
        """Log a change the server makes beside the event (a referee's key issued or
        revoked, a seat link reissued), in the same record."""
        return self._note(action, **data)

    def _note(self, action: str, **data: Any) -> dict[str, Any]:
        entry = {"n": len(self.log) + 1, "at": self._at, "by": self._by, "action": action}
        entry.update({k: copy.deepcopy(v) for k, v in data.items()})
        self.log.append(entry)
        return entry

    @contextmanager
    def _all_or_nothing(self) -> Iterator[None]:
        """A change either completes or leaves the event exactly as it was."""
        saved = copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "rules"})
        try:
            yield
        except BaseException:
            for k, v in saved.items():  # into the same objects: callers hold tables, matches
                self.__dict__[k] = _merged(self.__dict__.get(k), v)
            raise

    # ------------------------------------------------------------------ registration
    @property
    def team_size(self) -> int:
        """Players a team of people registers: six (two trios) in a duplicate event whose
        tables play at once, so nobody plays the same deal twice; three otherwise."""
        return DUPLICATE_TEAM if self.duplicate and not self.sequential else TEAM_SIZE

    def add_team(
        self,
        name: str,
        players: Sequence[str],
        bot: str | None = None,
        *,
        subs: Sequence[str] = (),
        seed: int | None = None,
    ) -> Team:
        """Register a team; names are unique across teams, players and substitutes. A team of
        bots registers three names (the same bots play both duplicate tables)."""
        if self.rounds:
            raise EventError("registration is closed: the first round has been drawn")
        team_name = _clean(name, "a team's name")
        sizes = {self.team_size} if bot is None else {TEAM_SIZE, self.team_size}
        if isinstance(players, str) or len(players) not in sizes:
            size = self.team_size if bot is None else TEAM_SIZE
            why = " (two trios: one plays each duplicate table)" if size == DUPLICATE_TEAM else ""
            raise EventError(f"team {team_name}: a team has exactly {size} players{why}")
        if isinstance(subs, str) or len(subs) > MAX_SUBS:
            raise EventError(f"team {team_name}: at most {MAX_SUBS} substitutes")
        names = [_clean(p, f"team {team_name}: a player's name") for p in players]
        bench = [_clean(p, f"team {team_name}: a substitute's name") for p in subs]
        if len(set(names + bench)) != len(names) + len(bench):
            raise EventError(f"team {team_name}: a player is listed twice")
        if any(t.name == team_name for t in self.teams):
            raise EventError(f"there is already a team named {team_name}")
        taken = {p for t in self.teams for p in t.players + t.subs}
        if taken & set(names + bench):
            raise EventError(
                f"{', '.join(sorted(taken & set(names + bench)))} already plays in a team"
            )
        if len(self.teams) >= MAX_TEAMS:
            raise EventError(f"an event has at most {MAX_TEAMS} teams")
        if bot is not None:
            from gouji import agents

            if bot not in agents.names():
                raise EventError(f"unknown bot {bot!r}; bots: {', '.join(agents.names())}")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= MAX_TEAMS:
                raise EventError(f"team {team_name}: a seed (种子) is a rank 1…{MAX_TEAMS}")
            if any(t.seed == seed for t in self.teams):
                raise EventError(f"team {team_name}: another team is seed {seed} already")
        team = Team(team_name, names, bot, subs=bench, seed=seed)
        self.teams.append(team)
        self._note("team", after=asdict(team))
        return team

    def remove_team(self, name: str) -> None:
        if self.rounds:
            raise EventError("registration is closed: the first round has been drawn")
        team = self.team(name)
        self.teams.remove(team)
        self._note("remove_team", before=asdict(team))

    def team(self, name: str) -> Team:
        for t in self.teams:
            if t.name == name:
                return t
        raise EventError(f"no team named {name!r}")

    def substitute(self, team_name: str, out: str, sub: str) -> dict[str, Any]:
        """替补: ``sub`` (named at registration) plays instead of ``out`` from the next
        match on. Between matches only: never while the team's match is being played."""
        team = self.team(team_name)
        if self.closed:
            raise EventError("the event is closed")
        if out not in team.players:
            raise EventError(f"{out!r} does not play for {team.name}")
        if sub not in team.subs:
            raise EventError(f"{sub!r} is not a substitute of {team.name}")
        cur = self.current
        index = self.teams.index(team)
        if cur is not None and any(index in m.teams and not m.done for m in cur.matches):
            raise EventError(f"{team.name} is playing its match: swap players between matches")
        before = list(team.players)
        with self._all_or_nothing():
            team.players[team.players.index(out)] = sub
            team.subs[team.subs.index(sub)] = out
            return self._note(
                "substitute", team=team.name, before=before, after=list(team.players),
                out=out, sub=sub,
            )  # fmt: skip

    # ------------------------------------------------------------------ rounds
    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def played_out(self) -> bool:
        """The format has run its course: the last round is decided and nothing follows."""
        r = self.current
        if r is None or not all(m.done for m in r.matches):
            return False
        if self.format == "knockout":
            return len(self._alive()) <= 1
        return len(self.rounds) >= self._round_count()

    @property
    def is_over(self) -> bool:
        """Finished: closed by the organiser, or the format has played out."""
        return self.closed or self.played_out

    @property
    def unfinished(self) -> bool:
        """Closed by the organiser before the format played out: no champion."""
        return self.closed and not self.played_out

    def _round_count(self) -> int:
        n = len(self.teams)
        if self.format == "round_robin":
            full = n - 1 if n % 2 == 0 else n
            return min(full, self.rounds_wanted) if self.rounds_wanted else full
        if self.rounds_wanted:
            return self.rounds_wanted
        return max(1, (n - 1).bit_length())  # swiss: about log2(n) rounds by default

    def _alive(self) -> list[int]:
        """Knockout: the teams not beaten and not disqualified."""
        out = {i for i, t in enumerate(self.teams) if not t.disqualified}
        for r in self.rounds:
            for m in r.matches:
                if m.is_bye or m.third_place:
                    continue
                if m.done:
                    out -= set(m.teams) - {m.winner}
        return sorted(out)

    def draw_round(self) -> Round:
        """抽签: draw the next round's pairings and set its tables (round 1 by lot in every
        format, seeded by the event)."""
        if len(self.teams) < 2:
            raise EventError("an event needs two teams or more")
        if self.current is not None and not all(m.done for m in self.current.matches):
            raise EventError(f"round {self.current.number} is still being played")
        if self.is_over:
            raise EventError("the event is over")
        number = len(self.rounds) + 1
        rng = random.Random(f"{self.seed}:draw:{number}")
        byes = self._byes()
        third: tuple[int, int] | None = None
        if self.format == "knockout":
            alive = self._alive()
            seeds = {i: t.seed for i, t in enumerate(self.teams) if t.seed is not None}
            pairs, bye = pairing.knockout_round(alive, byes, rng, first=number == 1, seeds=seeds)
            if self.third_place and len(alive) == 2:
                third = self._semi_final_losers()
        elif self.format == "round_robin":
            if self._schedule is None:
                self._schedule = pairing.round_robin_schedule(
                    range(len(self.teams)), random.Random(f"{self.seed}:schedule")
                )
            pairs, bye = self._schedule[number - 1]
        else:
            ranked = [s["index"] for s in self.standings() if not s["disqualified"]]
            if number == 1:  # all level: the order is drawn by lot (抽签)
                rng.shuffle(ranked)
            pairs, bye = pairing.swiss_round(ranked, self.have_met, byes, rng)
        matches: list[Match] = []
        for k, (a, b) in enumerate(pairs, start=1):
            matches.append(self._match(number, k, a, b))
        if third is not None:
            m = self._match(number, len(matches) + 1, *third)
            m.third_place = True
            matches.append(m)
        for k, t in enumerate(bye, start=len(matches) + 1):
            matches.append(Match(f"r{number}m{k}", (t, None), [], 0, winner=t, done=True))
        rnd = Round(number, matches)
        self.rounds.append(rnd)
        for m in matches:  # a disqualified team loses what it would play
            self._forfeit_disqualified(m)
        self._note(
            "draw", round=number,
            after=[[self.teams[i].name if i is not None else None for i in m.teams]
                   for m in matches],
        )  # fmt: skip
        return rnd

    def _semi_final_losers(self) -> tuple[int, int] | None:
        """The two teams beaten in the round before the final, when both played there."""
        if not self.rounds:
            return None
        losers = [
            i
            for m in self.rounds[-1].matches
            if m.done and not m.is_bye and not m.third_place and m.winner is not None
            for i in m.teams
            if i is not None and i != m.winner and not self.teams[i].disqualified
        ]
        return (losers[0], losers[1]) if len(losers) == 2 else None

    def _match(self, number: int, k: int, a: int, b: int) -> Match:
        mid = f"r{number}m{k}"
        seed = random.Random(f"{self.seed}:deal:{number}:{k}").randrange(2**31)
        tables = [Table(f"{mid}t1", (a, b), seed)]
        if self.duplicate:  # the same deals, the seats swapped
            tables.append(Table(f"{mid}t2", (b, a), seed))
        for t in tables:
            t.lineup = [self._player(t.teams[s % 2], s) for s in range(6)]
        return Match(mid, (a, b), tables, self.games)

    def _player(self, team: int, seat: int) -> str:
        """Who of ``team`` sits at ``seat``: its first trio at seats A (0, 2, 4), its second
        (a duplicate team of six) at seats B."""
        players = self.teams[team].players
        trio = seat % 2 if len(players) == DUPLICATE_TEAM else 0
        return players[3 * trio + seat // 2]

    def player_at(self, t: Table, seat: int) -> str:
        """The name at ``seat`` of table ``t`` as drawn (substitutes change later tables)."""
        return t.lineup[seat] if t.lineup else self._player(t.teams[seat % 2], seat)

    def _byes(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for r in self.rounds:
            for m in r.matches:
                if m.is_bye:
                    out[m.teams[0]] = out.get(m.teams[0], 0) + 1
        return out

    def have_met(self, a: int, b: int) -> bool:
        return any(set(m.teams) == {a, b} for r in self.rounds for m in r.matches if not m.is_bye)

    def matches(self) -> Iterator[Match]:
        for r in self.rounds:
            yield from r.matches

    def table(self, table_id: str) -> tuple[Match, Table]:
        for m in self.matches():
            for t in m.tables:
                if t.id == table_id:
                    return m, t
        raise EventError(f"no table {table_id!r} in this event")

    def open_tables(self) -> list[Table]:
        """The tables of the current round that may play a game now."""
        r = self.current
        if r is None:
            return []
        return [
            t
            for m in r.matches
            if not m.done
            for t in m.tables
            if len(t.games) < self.allowed(m, t)
        ]

    def allowed(self, m: Match, t: Table) -> int:
        """Games table ``t`` may have played by now: the match's count, and at a duplicate
        event of teams of three, whose tables play one after the other, never a game the
        first table has not finished (the same trio plays both)."""
        if self.sequential and t is not m.tables[0]:
            return min(m.needed, len(m.tables[0].games))
        return m.needed

    def extra_games(self, m: Match) -> int:
        """Games beyond the event's count that R17.3 ties added to the match."""
        if m.is_bye or m.walkover:
            return 0
        return max(0, max((len(t.games) for t in m.tables), default=0) - self.games)

    def deal_public(self, table_id: str, game: int) -> bool:
        """Whether game ``game`` of a table may be shown to anyone outside its seats: at a
        duplicate event only once every table of the match has finished that game (until
        then the other table may still be playing the same deal)."""
        m, _ = self.table(table_id)
        if not self.duplicate:
            return True
        return m.done or all(len(t.games) > game for t in m.tables)

    # ------------------------------------------------------------------ results
    def _current_match(self, table_id: str) -> tuple[Match, Table]:
        if self.closed:
            raise EventError("the event is closed")
        m, t = self.table(table_id)
        cur = self.current
        assert cur is not None
        if m not in cur.matches:
            raise EventError(f"table {table_id} belongs to an earlier round")
        return m, t

    def _check_open(self, table_id: str, game: int) -> tuple[Match, Table]:
        m, t = self._current_match(table_id)
        if m.done:
            raise EventError(f"the match of table {table_id} is decided")
        if isinstance(game, bool) or not isinstance(game, int):
            raise EventError("a game number is an integer")
        if game < len(t.games):
            raise EventError(f"table {table_id} already has a result for game {game + 1}")
        if game != len(t.games):
            raise EventError(f"table {table_id} plays game {len(t.games) + 1} next, not {game + 1}")
        if game >= m.needed:
            raise EventError(
                f"table {table_id} has played the match's {m.needed} games: the match waits "
                "for its other table"
            )
        if game >= self.allowed(m, t):
            raise EventError(
                f"table {table_id} plays game {game + 1} after table {m.tables[0].id} has"
            )
        return m, t

    def record_result(self, table_id: str, game: int, result: Mapping[str, Any]) -> None:
        """A game played on the server: ``result`` is its ``Game.result()`` (penalties in)."""
        m, t = self._check_open(table_id, game)
        places = list(result.get("places") or [])
        if sorted(places) != [1, 2, 3, 4, 5, 6]:
            raise EventError(f"places must be a permutation of 1…6, not {places!r}")
        scores = result.get("team_scores")
        if not isinstance(scores, Sequence) or len(scores) != 2:
            raise EventError("a result has team_scores [team A, team B]")
        base = [int(scores[0]), int(scores[1])]
        entry = {
            "places": places,
            "team_scores": list(base),
            "base_scores": base,
            "penalties": list(result.get("penalties") or []),
            "base_penalties": list(result.get("penalties") or []),
            "disqualified": list(result.get("disqualified") or []),
            "source": "engine",
        }
        with self._all_or_nothing():
            self._add_game(m, t, entry)
            self._note("result", table=t.id, game=game, after=_brief(entry))

    def record_sheet(self, table_id: str, game: int, sheet: Mapping[str, Any]) -> None:
        """A game played with real cards: the referee's sheet (``sheet.score_sheet``)."""
        m, t = self._check_open(table_id, game)
        entry = self._scored(sheet)
        with self._all_or_nothing():
            self._add_game(m, t, entry)
            self._note("sheet", table=t.id, game=game, after=_brief(entry))

    def _scored(self, sheet: Mapping[str, Any]) -> dict[str, Any]:
        try:
            scored = score_sheet(self.rules, sheet)
        except SheetError as e:
            raise EventError(str(e)) from None
        scored["source"] = "sheet"
        scored["sheet"] = {k: copy.deepcopy(sheet.get(k)) for k in SHEET_FIELDS if k in sheet}
        scored["base_scores"] = list(scored["team_scores"])
        scored["base_penalties"] = []
        return scored

    def _add_game(self, m: Match, t: Table, entry: dict[str, Any]) -> None:
        index = len(t.games)
        for s in self.sanctions:  # given before the game's result was entered (R17.6)
            if s["table"] == t.id and s["game"] is None:
                s["game"] = index
        t.games.append(entry)
        self._rescore(t, index)
        for seat in entry.get("disqualified") or []:
            self.teams[t.teams[seat % 2]].disqualified = True
        self._resettle(m)

    def correct_sheet(self, table_id: str, game: int, sheet: Mapping[str, Any]) -> dict[str, Any]:
        """Replace a registered sheet (a mistyped one): allowed until the next round is
        drawn; the match's totals, winner and the standings follow."""
        m, t = self._registered(table_id, game)
        entry = self._scored(sheet)
        before = _brief(t.games[game])
        with self._all_or_nothing():
            t.games[game] = entry
            self._rescore(t, game)
            self._resettle(m)
            return self._note(
                "correct", table=t.id, game=game, before=before, after=_brief(t.games[game])
            )

    def void_game(self, table_id: str, game: int) -> dict[str, Any]:
        """Void a registered sheet (entered for the wrong table, or twice): the table's last
        one, until the next round is drawn. Sanctions that counted in it wait for the game's
        next sheet."""
        m, t = self._registered(table_id, game)
        if game != len(t.games) - 1:
            raise EventError(
                f"table {table_id}: only its last sheet (game {len(t.games)}) can be voided; "
                f"correct game {game + 1} instead"
            )
        if self.sequential and t is m.tables[0] and len(m.tables[1].games) > game:
            raise EventError(f"table {m.tables[1].id} has played game {game + 1} after it")
        before = _brief(t.games[game])
        with self._all_or_nothing():
            t.games.pop()
            for s in self.sanctions:
                if s["table"] == t.id and s["game"] == game and not s.get("named"):
                    s["game"] = None
            self._resettle(m)
            return self._note("void", table=t.id, game=game, before=before)

    def _registered(self, table_id: str, game: int) -> tuple[Match, Table]:
        """A registered game of a table of the current round, on a sheet (corrections)."""
        m, t = self._current_match(table_id)
        if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < len(t.games):
            raise EventError(f"table {table_id} has no registered game {game!r}")
        if t.games[game].get("source") != "sheet":
            raise EventError(f"table {table_id}: an online game's result comes from its room")
        return m, t

    def _rescore(self, t: Table, game: int) -> None:
        """A game's scores: its own (a sheet's, or the engine's with its penalties) plus the
        event's penalties that count in it (R17.6: after bonuses); 罚为大落 checked."""
        g = t.games[game]
        scores = list(g["base_scores"])
        penalties = list(g["base_penalties"])
        mine = [s for s in self.sanctions if s["table"] == t.id and s["game"] == game]
        for s in mine:
            if s["kind"] == "penalty" and not s.get("engine"):
                side = s["seat"] % 2
                scores[side] += s["points"]
                penalties.append(
                    {
                        "seat": s["seat"],
                        "team": side,
                        "points": s["points"],
                        "article": s["article"],
                    }
                )
        g["team_scores"], g["penalties"] = scores, penalties
        if g.get("source") == "sheet":
            seats = [s["seat"] for s in mine if s["kind"] == "last_place"]
            problem = last_place_problem(g["places"], seats)
            if problem:
                raise EventError(f"table {t.id}, game {game + 1}: {problem}")

    def _resettle(self, m: Match) -> None:
        """The match's state from its games, as if they came in one by one (R17.3 resets,
        D55's lot, forfeits): a correction may change the winner or undo a tie."""
        m.needed, m.reset_at, m.winner, m.done, m.by_lot = self.games, 0, None, False, False
        if m.walkover:
            self._walk(m)
            return
        self._forfeit_disqualified(m)
        while not m.done and all(len(t.games) >= m.needed for t in m.tables):
            needed = m.needed
            self._settle(m)
            if m.needed == needed:
                break
        extra = [t.id for t in m.tables if len(t.games) > m.needed]
        if (
            m.done
            and extra
            and not any(self.teams[i].disqualified for i in m.teams if i is not None)
        ):
            raise EventError(
                f"the match would be decided after game {m.needed}, but table {extra[0]} has "
                "more games: void those first"
            )

    def _settle(self, m: Match) -> None:
        """Decide the match once every table has played what it needs (R17.3 on a tie)."""
        if any(len(t.games) < m.needed for t in m.tables):
            return
        a, b = m.teams
        assert b is not None
        for team in (a, b):
            if self.teams[team].disqualified:
                m.winner, m.done = (b if team == a else a), True
                return
        ta, tb = self.match_totals(m)
        if ta != tb:
            m.winner, m.done = (a if ta > tb else b), True
        elif self.format == "knockout" and m.needed - self.games < MAX_TIE_GAMES:
            m.reset_at = m.needed  # R17.3: totals reset, one more game, until decided
            m.needed += 1
        elif self.format == "knockout":  # D55: mirror tables of equal bots never part
            m.winner = random.Random(f"{self.seed}:lot:{m.id}").choice((a, b))
            m.done = m.by_lot = True
        else:
            m.winner, m.done = None, True

    def match_totals(self, m: Match) -> tuple[int, int]:
        """The two teams' totals in a match, summed over its tables, from the last reset to
        the games it needs (a re-settled match reads its games as they came)."""
        totals = {m.teams[0]: 0, m.teams[1]: 0}
        for t in m.tables:
            for g in t.games[m.reset_at : m.needed]:
                for side in (0, 1):
                    totals[t.teams[side]] += int(g["team_scores"][side])
        return totals[m.teams[0]], totals[m.teams[1]]

    def _forfeit_disqualified(self, m: Match) -> None:
        if m.done or m.is_bye:
            return
        a, b = m.teams
        assert b is not None
        out = [t for t in (a, b) if self.teams[t].disqualified]
        if out:
            m.winner = None if len(out) == 2 else (b if out[0] == a else a)
            m.done = True

    def walkover(self, match_id: str, absent: Sequence[str]) -> dict[str, Any]:
        """弃权: the named team(s) did not come; the other wins without a game (two absent
        teams both lose: a draw of nothing in a league, refused in a knockout, where one
        team must go on). Only before a game of the match is registered."""
        m = next((x for x in self.matches() if x.id == match_id), None)
        if m is None:
            raise EventError(f"no match {match_id!r} in this event")
        if self.closed:
            raise EventError("the event is closed")
        if self.current is None or m not in self.current.matches or m.is_bye:
            raise EventError(f"match {match_id} is not being played now")
        if m.done:
            raise EventError(f"match {match_id} is decided")
        if any(t.games for t in m.tables):
            raise EventError(f"match {match_id} has begun: results or sanctions decide it now")
        names = {self.teams[i].name: i for i in m.teams if i is not None}
        if isinstance(absent, str) or not absent or any(n not in names for n in absent):
            raise EventError(f"name the absent team(s) of match {match_id}: {', '.join(names)}")
        out = sorted({names[n] for n in absent})
        if len(out) == 2 and self.format == "knockout":
            raise EventError("in a knockout one team must go on: name one absent team")
        with self._all_or_nothing():
            m.walkover = out
            self._walk(m)
            return self._note("walkover", match=m.id, after=[self.teams[i].name for i in out])

    def _walk(self, m: Match) -> None:
        a, b = m.teams
        m.done = True
        m.winner = None if len(m.walkover) == 2 else (b if m.walkover == [a] else a)

    # ------------------------------------------------------------------ sanctions
    def sanction(
        self,
        table_id: str,
        kind: str,
        seat: int,
        *,
        points: int = -2,
        article: str = "",
        game: int | None = None,
        engine: bool = False,
    ) -> dict[str, Any]:
        """A referee's sanction at a table (R19.4), recorded with its article. A penalty
        counts in a game's score (R17.6): the game named (``game``, from 0: any registered
        game of the table, until the next round is drawn), or else the current game — on a
        sheet table when its sheet comes, on a server table through the engine (the server
        calls ``Match.sanction`` and passes ``engine``). 罚为大落 is checked on the sheet; a
        disqualification forfeits the team's matches from now on (seed 003: 取消比赛资格).
        The entry says when the player was sanctioned before and the outline's next step."""
        if kind not in SANCTION_KINDS:
            raise EventError(f"unknown sanction {kind!r}; sanctions: {', '.join(SANCTION_KINDS)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 6:
            raise EventError(f"a seat at the table is 0…5, not {seat!r}")
        if kind == "penalty" and (
            isinstance(points, bool) or not isinstance(points, int) or points >= 0
        ):
            raise EventError("a penalty is a negative whole number of points (−2 by default)")
        if not isinstance(article, str) or len(article) > 80:
            raise EventError("the article is a text of at most 80 characters")
        m, t = self._current_match(table_id)
        if game is not None:
            if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < len(t.games):
                raise EventError(f"table {table_id} has no registered game {game!r}")
            if kind not in ("warning", "penalty"):
                raise EventError(
                    "only a warning or a penalty can be given for a registered game; "
                    "correct its sheet for 罚为大落"
                )
        elif m.done:
            raise EventError(f"table {table_id} is not playing now: name the game it counts in")
        team = t.teams[seat % 2]
        player = self.player_at(t, seat)
        before = [
            s["kind"]
            for s in self.sanctions
            if (s["team"], s["player"]) == (self.teams[team].name, player)
        ]
        entry: dict[str, Any] = {
            "table": t.id,
            "game": game,  # the game it counts in (None: the next result's)
            "seat": seat,
            "team": self.teams[team].name,
            "player": player,
            "kind": kind,
            "points": points if kind == "penalty" else 0,
            "article": article.strip(),
            "named": game is not None,
            "engine": engine,
            "repeat": len(before),
            "proposed": next_step(before),
        }
        with self._all_or_nothing():
            if kind == "disqualify":
                self.teams[team].disqualified = True
                entry["game"] = len(t.games)
            self.sanctions.append(entry)
            if game is not None:
                self._rescore(t, game)
            self._resettle(m)
            self._note("sanction", table=t.id, game=entry["game"], after=entry)
        return entry

    def offenders(self) -> list[dict[str, Any]]:
        """Players sanctioned more than once, and the next step of 罚则 proposed."""
        return offenders(self.sanctions)

    def close(self) -> None:
        """The organiser ends the event: standings stand as they are; an event closed before
        its format played out has no champion."""
        if self.closed:
            raise EventError("the event is closed already")
        unfinished = [m.id for m in self.current.matches if not m.done] if self.current else []
        self.closed = True
        self._note("close", after={"unfinished": not self.played_out, "open_matches": unfinished})

    # ------------------------------------------------------------------ standings
    def standings(self) -> list[dict[str, Any]]:
        """Teams in order. Knockout: the round reached first (the match for third place
        between the final's loser and the semi-finals'). Then match points (win 2, draw
        1, bye 2), total score, games won, head-to-head; a disqualified team comes last with
        its results void (seed 003: 取消…全部比赛成绩)."""
        rows: dict[int, dict[str, Any]] = {}
        for i, team in enumerate(self.teams):
            rows[i] = {
                "index": i,
                "team": team.name,
                "points": 0,
                "score": 0,
                "matches_played": 0,
                "matches_won": 0,
                "games_won": 0,
                "byes": 0,
                "walkovers": 0,
                "reached": 0,
                "third": 0,  # knockout: 1 won the match for third place, 0 lost or none
                "disqualified": team.disqualified,
            }
        for r in self.rounds:
            for m in r.matches:
                a, b = m.teams
                if not m.third_place:
                    rows[a]["reached"] = r.number
                    if b is not None:
                        rows[b]["reached"] = r.number
                if m.is_bye:
                    rows[a]["points"] += WIN
                    rows[a]["byes"] += 1
                    continue
                assert b is not None
                for t in m.tables:
                    for g in t.games:
                        s = g["team_scores"]
                        for side in (0, 1):
                            row = rows[t.teams[side]]
                            row["score"] += int(s[side])
                            row["games_won"] += int(s[side] > s[1 - side])
                if not m.done:
                    continue
                for i in m.walkover:
                    rows[i]["walkovers"] += 1
                if m.third_place and m.winner is not None:
                    rows[m.winner]["third"] = 1
                rows[a]["matches_played"] += 1
                rows[b]["matches_played"] += 1
                if m.winner is None:
                    if len(m.walkover) < 2:
                        rows[a]["points"] += DRAW
                        rows[b]["points"] += DRAW
                else:
                    rows[m.winner]["points"] += WIN
                    rows[m.winner]["matches_won"] += 1
        for row in rows.values():
            if row["disqualified"]:
                for key in ("points", "score", "matches_won", "games_won"):
                    row[key] = 0
        alive = set(self._alive()) if self.format == "knockout" else set()
        order = sorted(
            rows.values(),
            key=lambda x: (
                x["disqualified"],
                -(x["reached"] + (1 if x["index"] in alive else 0)) - x["third"] / 2
                if self.format == "knockout"
                else 0,
                -x["points"],
                -x["score"],
                -x["games_won"],
                x["index"],
            ),
        )
        order = self._head_to_head(order)
        for place, row in enumerate(order, start=1):
            row["place"] = place
        return order

    def _head_to_head(self, order: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Between two teams level on every other count, the winner of their match first."""
        out = order[:]
        keys = ("disqualified", "reached", "third", "points", "score", "games_won")
        i = 0
        while i + 1 < len(out):
            x, y = out[i], out[i + 1]
            if all(x[k] == y[k] for k in keys) and self._beat(y["index"], x["index"]):
                out[i], out[i + 1] = y, x
            i += 1
        return out

    def _beat(self, a: int, b: int) -> bool:
        wins = {a: 0, b: 0}
        for m in self.matches():
            if m.done and not m.is_bye and set(m.teams) == {a, b} and m.winner is not None:
                wins[m.winner] += 1
        return wins[a] > wins[b]

    def winner(self) -> str | None:
        """The event's champion once its format has played out; None for an unfinished
        event (closed early: nobody won it) and for one still being played."""
        if not self.played_out:
            return None
        top = self.standings()
        return top[0]["team"] if top and not top[0]["disqualified"] else None

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "name": self.name,
            "preset": self.preset,
            "overrides": self.overrides,
            "event_format": self.format,
            "rounds_wanted": self.rounds_wanted,
            "duplicate": self.duplicate,
            "sequential": self.sequential,
            "third_place": self.third_place,
            "games": self.games,
            "seed": self.seed,
            "mode": self.mode,
            "closed": self.closed,
            "teams": [asdict(t) for t in self.teams],
            "rounds": [asdict(r) for r in self.rounds],
            "sanctions": copy.deepcopy(self.sanctions),
            "log": copy.deepcopy(self.log),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Rebuild an event saved by ``to_dict`` (or by an older version, whose games lack
        what corrections need: it is derived); a corrupt one raises EventError."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise EventError(f"not a saved event ({FORMAT})")
        data = copy.deepcopy(dict(data))  # the event must not share lists with the caller's
        try:
            ev = cls(
                data["name"],
                data["preset"],
                data["event_format"],
                rounds=data["rounds_wanted"],
                duplicate=data["duplicate"],
                sequential=bool(data.get("sequential", False)),
                third_place=bool(data.get("third_place", False)),
                games=data["games"],
                seed=data["seed"],
                mode=data["mode"],
                overrides=data["overrides"],
            )
            ev.closed = bool(data["closed"])
            ev.teams = [Team(**t) for t in data["teams"]]
            for r in data["rounds"]:
                matches = []
                for m in r["matches"]:
                    tables = [
                        Table(t["id"], (t["teams"][0], t["teams"][1]), t["seed"],
                              [_upgraded(g) for g in t["games"]], t["room"],
                              list(t.get("lineup") or []))
                        for t in m["tables"]
                    ]  # fmt: skip
                    matches.append(
                        Match(m["id"], (m["teams"][0], m["teams"][1]), tables, m["needed"],
                              m["reset_at"], m["winner"], m["done"], bool(m.get("by_lot")),
                              list(m.get("walkover") or []), bool(m.get("third_place")))
                    )  # fmt: skip
                ev.rounds.append(Round(r["number"], matches))
            ev.sanctions = [dict(s) for s in data["sanctions"]]
            online = {t.id for m in ev.matches() for t in m.tables if t.room is not None}
            for s in ev.sanctions:  # saved before sanctions said where their points count
                s.setdefault("engine", s["table"] in online)
                s.setdefault("named", False)
            ev.log = [dict(e) for e in data.get("log") or []]
        except (KeyError, TypeError, IndexError) as e:
            raise EventError(f"corrupt saved event: {e!r}") from None
        return ev


SHEET_FIELDS = ("places", "not_opened", "men", "burns")


def _merged(live: Any, saved: Any) -> Any:
    """``saved`` (a deep copy taken earlier) put back into the ``live`` objects where they
    are the same kind (teams, rounds, matches, tables keep their identity)."""
    if is_dataclass(live) and not isinstance(live, type) and type(live) is type(saved):
        for f in fields(live):
            setattr(live, f.name, _merged(getattr(live, f.name), getattr(saved, f.name)))
        return live
    if isinstance(live, list) and isinstance(saved, list):
        return [_merged(live[i], v) if i < len(live) else v for i, v in enumerate(saved)]
    return saved


def _brief(game: Mapping[str, Any]) -> dict[str, Any]:
    """What the audit log keeps of a game: its sheet (or places) and its scores."""
    out: dict[str, Any] = {"places": list(game["places"]), "team_scores": list(game["team_scores"])}
    if "sheet" in game:
        out["sheet"] = copy.deepcopy(game["sheet"])
    if game.get("penalties"):
        out["penalties"] = copy.deepcopy(game["penalties"])
    return out


def _upgraded(game: dict[str, Any]) -> dict[str, Any]:
    """A game saved before corrections: its own scores without the event's penalties (a
    sheet's penalties were all the event's; an engine game's all its own)."""
    if "base_scores" not in game:
        scores = list(game["team_scores"])
        if game.get("source") == "sheet":
            for p in game.get("penalties") or []:
                scores[p["seat"] % 2] -= p["points"]
            game["base_penalties"] = []
        else:
            game["base_penalties"] = list(game.get("penalties") or [])
        game["base_scores"] = scores
    return game


__all__ = [
    "FORMATS",
    "SANCTION_KINDS",
    "Event",
    "EventError",
    "Match",
    "Round",
    "Table",
    "Team",
]
