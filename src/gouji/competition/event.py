"""An event (比赛): teams of three, rounds of pairings, tables that play matches, results,
sanctions and standings — as the seeds' competitions are run (seed 003's 够级比赛, the audit
association's 积分制 contest).

The event is plain data plus the rules that move it on; it plays nothing itself. Results
come in game by game, from the engine (``record_result`` with ``Game.result()``) or from a
referee's sheet (``record_sheet``), and every call either changes the event completely or
raises ``EventError`` and changes nothing. ``to_dict``/``from_dict`` persist it as JSON.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from gouji.competition import pairing
from gouji.competition.sheet import SheetError, score_sheet
from gouji.game import SANCTIONS as SANCTION_KINDS  # R19.4: the engine's list
from gouji.rules import ConfigError, Rules, make_rules

FORMAT = "gouji-event/1"
FORMATS = ("knockout", "round_robin", "swiss")
TEAM_SIZE = 3
MAX_TEAMS = 256
MAX_NAME = 40
WIN, DRAW = 2, 1  # match points (a bye counts as a win)
MAX_TIE_GAMES = 5  # a knockout match still tied after this many more games is drawn by lot
SEATS_OF = ((0, 2, 4), (1, 3, 5))  # the team sitting at seats A / B (R1.1)


class EventError(ValueError):
    """An event call that cannot be done now or with these values; nothing was changed."""


@dataclass
class Team:
    """A team of three (联邦). ``bot`` names the agent that plays for an all-bot team."""

    name: str
    players: list[str]
    bot: str | None = None
    disqualified: bool = False


@dataclass
class Table:
    """One table of a pairing: a match between the team at seats A (0, 2, 4) and the team at
    seats B. Duplicate pairings have two tables with the same deals and the seats swapped."""

    id: str
    teams: tuple[int, int]  # (team at seats A, team at seats B)
    seed: int
    games: list[dict[str, Any]] = field(default_factory=list)  # one result per game
    room: str | None = None  # the server room playing it online


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
        self.preset = preset
        self.overrides = dict(overrides or {})
        self.format = fmt
        self.rounds_wanted = rounds
        self.duplicate = bool(duplicate)
        self.games = games if games is not None else 3  # MATCH7's three games (R17.3)
        self.seed = int(seed)
        self.mode = mode
        self.teams: list[Team] = []
        self.rounds: list[Round] = []
        self.sanctions: list[dict[str, Any]] = []
        self.closed = False
        self._schedule: list[pairing.Round] | None = None

    # ------------------------------------------------------------------ registration
    def add_team(self, name: str, players: Sequence[str], bot: str | None = None) -> Team:
        """Register a team of three; names are unique across teams and players."""
        if self.rounds:
            raise EventError("registration is closed: the first round has been drawn")
        team_name = _clean(name, "a team's name")
        if isinstance(players, str) or len(players) != TEAM_SIZE:
            raise EventError(f"team {team_name}: a team has exactly {TEAM_SIZE} players")
        names = [_clean(p, f"team {team_name}: a player's name") for p in players]
        if len(set(names)) != TEAM_SIZE:
            raise EventError(f"team {team_name}: a player is listed twice")
        if any(t.name == team_name for t in self.teams):
            raise EventError(f"there is already a team named {team_name}")
        taken = {p for t in self.teams for p in t.players}
        if taken & set(names):
            raise EventError(f"{', '.join(sorted(taken & set(names)))} already plays in a team")
        if len(self.teams) >= MAX_TEAMS:
            raise EventError(f"an event has at most {MAX_TEAMS} teams")
        if bot is not None:
            from gouji import agents

            if bot not in agents.names():
                raise EventError(f"unknown bot {bot!r}; bots: {', '.join(agents.names())}")
        team = Team(team_name, names, bot)
        self.teams.append(team)
        return team

    def remove_team(self, name: str) -> None:
        if self.rounds:
            raise EventError("registration is closed: the first round has been drawn")
        self.teams.remove(self.team(name))

    def team(self, name: str) -> Team:
        for t in self.teams:
            if t.name == name:
                return t
        raise EventError(f"no team named {name!r}")

    # ------------------------------------------------------------------ rounds
    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def is_over(self) -> bool:
        """Finished: closed by the organiser, or the format has played out."""
        if self.closed:
            return True
        r = self.current
        if r is None or not all(m.done for m in r.matches):
            return False
        if self.format == "knockout":
            return len(self._alive()) <= 1
        return len(self.rounds) >= self._round_count()

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
                if m.done and not m.is_bye:
                    b = m.teams[1]
                    assert b is not None
                    loser = b if m.winner == m.teams[0] else m.teams[0]
                    out.discard(loser)
        return sorted(out)

    def draw_round(self) -> Round:
        """抽签: draw the next round's pairings and set its tables."""
        if len(self.teams) < 2:
            raise EventError("an event needs two teams or more")
        if self.current is not None and not all(m.done for m in self.current.matches):
            raise EventError(f"round {self.current.number} is still being played")
        if self.is_over:
            raise EventError("the event is over")
        number = len(self.rounds) + 1
        rng = random.Random(f"{self.seed}:draw:{number}")
        byes = self._byes()
        if self.format == "knockout":
            pairs, bye = pairing.knockout_round(self._alive(), byes, rng, first=number == 1)
        elif self.format == "round_robin":
            if self._schedule is None:
                self._schedule = pairing.round_robin_schedule(
                    range(len(self.teams)), random.Random(f"{self.seed}:schedule")
                )
            pairs, bye = self._schedule[number - 1]
        else:
            ranked = [s["index"] for s in self.standings() if not s["disqualified"]]
            pairs, bye = pairing.swiss_round(ranked, self.have_met, byes, rng)
        matches: list[Match] = []
        for k, (a, b) in enumerate(pairs, start=1):
            matches.append(self._match(number, k, a, b))
        for k, t in enumerate(bye, start=len(pairs) + 1):
            matches.append(Match(f"r{number}m{k}", (t, None), [], 0, winner=t, done=True))
        rnd = Round(number, matches)
        self.rounds.append(rnd)
        for m in matches:  # a disqualified team loses what it would play
            self._forfeit_disqualified(m)
        return rnd

    def _match(self, number: int, k: int, a: int, b: int) -> Match:
        mid = f"r{number}m{k}"
        seed = random.Random(f"{self.seed}:deal:{number}:{k}").randrange(2**31)
        tables = [Table(f"{mid}t1", (a, b), seed)]
        if self.duplicate:  # the same deals, the seats swapped
            tables.append(Table(f"{mid}t2", (b, a), seed))
        return Match(mid, (a, b), tables, self.games)

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
        """The tables of the current round that still have games to play."""
        r = self.current
        if r is None:
            return []
        return [t for m in r.matches if not m.done for t in m.tables if len(t.games) < m.needed]

    # ------------------------------------------------------------------ results
    def _check_open(self, table_id: str, game: int) -> tuple[Match, Table]:
        if self.closed:
            raise EventError("the event is closed")
        m, t = self.table(table_id)
        cur = self.current
        assert cur is not None
        if m not in cur.matches:
            raise EventError(f"table {table_id} belongs to an earlier round")
        if m.done:
            raise EventError(f"the match of table {table_id} is decided")
        if isinstance(game, bool) or not isinstance(game, int):
            raise EventError("a game number is an integer")
        if game < len(t.games):
            raise EventError(f"table {table_id} already has a result for game {game + 1}")
        if game != len(t.games):
            raise EventError(f"table {table_id} plays game {len(t.games) + 1} next, not {game + 1}")
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
        entry = {
            "places": places,
            "team_scores": [int(scores[0]), int(scores[1])],
            "penalties": list(result.get("penalties") or []),
            "disqualified": list(result.get("disqualified") or []),
            "source": "engine",
        }
        self._add_game(m, t, entry)

    def record_sheet(self, table_id: str, game: int, sheet: Mapping[str, Any]) -> None:
        """A game played with real cards: the referee's sheet (``sheet.score_sheet``)."""
        m, t = self._check_open(table_id, game)
        try:
            scored = score_sheet(self.rules, sheet)
        except SheetError as e:
            raise EventError(str(e)) from None
        scored["source"] = "sheet"
        self._add_game(m, t, scored)

    def _add_game(self, m: Match, t: Table, entry: dict[str, Any]) -> None:
        pending = [s for s in self.sanctions if s["table"] == t.id and s["game"] is None]
        for s in pending:  # penalties given before the game's result was entered (R17.6)
            s["game"] = len(t.games)
            if s["kind"] == "penalty" and entry["source"] == "sheet":
                self._apply_penalty(entry, s)
        t.games.append(entry)
        for seat in entry.get("disqualified") or []:
            self.teams[t.teams[seat % 2]].disqualified = True
        self._settle(m)

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
        """The two teams' totals in a match, summed over its tables, from the last reset."""
        totals = {m.teams[0]: 0, m.teams[1]: 0}
        for t in m.tables:
            for g in t.games[m.reset_at :]:
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

    # ------------------------------------------------------------------ sanctions
    def sanction(
        self, table_id: str, kind: str, seat: int, *, points: int = -2, article: str = ""
    ) -> dict[str, Any]:
        """A referee's sanction at a table (R19.4): recorded with its article; a penalty
        counts in the current game's score (R17.6) — on a sheet table at once, on a server
        table through the engine (the server calls ``Match.sanction``); a disqualification
        forfeits the team's matches from now on (seed 003: 取消比赛资格)."""
        if kind not in SANCTION_KINDS:
            raise EventError(f"unknown sanction {kind!r}; sanctions: {', '.join(SANCTION_KINDS)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 6:
            raise EventError(f"a seat at the table is 0…5, not {seat!r}")
        if kind == "penalty" and (
            isinstance(points, bool) or not isinstance(points, int) or points == 0
        ):
            raise EventError("a penalty is a non-zero whole number of points (−2 by default)")
        if not isinstance(article, str) or len(article) > 80:
            raise EventError("the article is a text of at most 80 characters")
        if self.closed:
            raise EventError("the event is closed")
        m, t = self.table(table_id)
        cur = self.current
        if cur is None or m not in cur.matches or m.done:
            raise EventError(f"table {table_id} is not playing now")
        team = t.teams[seat % 2]
        entry = {
            "table": t.id,
            "game": None,  # the game it counts in, once that game's result is in
            "seat": seat,
            "team": self.teams[team].name,
            "player": self.teams[team].players[seat // 2],
            "kind": kind,
            "points": points if kind == "penalty" else 0,
            "article": article.strip(),
        }
        if kind == "disqualify":
            self.teams[team].disqualified = True
            entry["game"] = len(t.games)
            self._forfeit_disqualified(m)
        self.sanctions.append(entry)
        return entry

    @staticmethod
    def _apply_penalty(game: dict[str, Any], s: Mapping[str, Any]) -> None:
        side = s["seat"] % 2
        game["team_scores"][side] += s["points"]
        game["penalties"].append(
            {"seat": s["seat"], "team": side, "points": s["points"], "article": s["article"]}
        )

    def close(self) -> None:
        """The organiser ends the event (standings stand as they are)."""
        self.closed = True

    # ------------------------------------------------------------------ standings
    def standings(self) -> list[dict[str, Any]]:
        """Teams in order. Knockout: the round reached first. Then match points (win 2, draw
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
                "reached": 0,
                "disqualified": team.disqualified,
            }
        for r in self.rounds:
            for m in r.matches:
                a, b = m.teams
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
                rows[a]["matches_played"] += 1
                rows[b]["matches_played"] += 1
                if m.winner is None:
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
                -(x["reached"] + (1 if x["index"] in alive else 0))
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
        keys = ("disqualified", "reached", "points", "score", "games_won")
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
        """The event's winner once it is over (None for an unfinished event)."""
        if not self.is_over:
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
            "games": self.games,
            "seed": self.seed,
            "mode": self.mode,
            "closed": self.closed,
            "teams": [asdict(t) for t in self.teams],
            "rounds": [asdict(r) for r in self.rounds],
            "sanctions": copy.deepcopy(self.sanctions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Rebuild an event saved by ``to_dict``; a corrupt one raises EventError."""
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
                        Table(t["id"], (t["teams"][0], t["teams"][1]), t["seed"], t["games"],
                              t["room"])
                        for t in m["tables"]
                    ]  # fmt: skip
                    matches.append(
                        Match(m["id"], (m["teams"][0], m["teams"][1]), tables, m["needed"],
                              m["reset_at"], m["winner"], m["done"], bool(m.get("by_lot")))
                    )  # fmt: skip
                ev.rounds.append(Round(r["number"], matches))
            ev.sanctions = [dict(s) for s in data["sanctions"]]
        except (KeyError, TypeError, IndexError) as e:
            raise EventError(f"corrupt saved event: {e!r}") from None
        return ev


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
