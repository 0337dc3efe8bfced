"""A match: a series of games at one table (R3.6, R3.7, R16, R17, R18 step 10).

Between games the match asks the 二落/大落 swap (R16.6) and, after a 串三户 where the rules
offer it, the skip-tribute agreement (R16.11); then ``next_game()`` opens the next game with
the right opener and starter, the tribute the last game left, and 会5 for a 串'd team.
A match is its rules, its seed and the sequence of decisions (and the referee's sanctions,
R19.4), like a game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gouji.engine.actions import NOSKIP, NOSWAP, SKIP, SWAP, Action, IllegalAction
from gouji.engine.checks import whole
from gouji.engine.referee.game import (
    AFTER_GAME_SANCTIONS,
    PLACING_SANCTIONS,
    Game,
    SanctionError,
    sanction_problem,
)
from gouji.engine.referee.record import read_sanctions
from gouji.engine.rules import ConfigError, Rules, make_rules
from gouji.engine.tribute import Payment, obligations

FORMAT = "gouji-match/1"
SEATS = 6
P_SWAP = "swap"
P_SKIP = "skip"
_SWAP_ACTIONS = [Action.word(SWAP), Action.word(NOSWAP)]
_SKIP_ACTIONS = [Action.word(SKIP), Action.word(NOSKIP)]


class MatchError(ValueError):
    """A match call out of order (e.g. ``next_game`` before the game ended)."""


class Match:
    """A series of games: openings, tribute, running totals and the match's end.

    ``games`` fixes the match length (``None`` = open-ended, except ``match7``, which plays
    3 games and then one more game after every tie, R17.3).
    """

    def __init__(self, rules: object, seed: object, *, games: object = None) -> None:
        if not isinstance(rules, Rules):
            raise MatchError(f"a match's rules come from make_rules, not {type(rules).__name__}")
        seed = whole(seed, "a match's seed", MatchError)
        length = None if games is None else whole(games, "the number of games", MatchError)
        if length is not None and length < 1:
            raise MatchError("a match has at least one game")
        self.rules = rules
        self.seed = seed
        self.length = 3 if length is None and rules.score_system == "match7" else length
        self._rng = random.Random(seed)
        self.first_opener = self._rng.randrange(SEATS)
        self._results: list[dict[str, Any]] = []
        self._totals = [0, 0]
        self.resets = 0  # R17.3 tie-break resets
        self.games: list[Game] = []
        self.prompt_answers: list[list[str]] = []  # per game, the R18 step 10 answers
        self.replaced: list[int] = []  # per game, players replaced before it
        self._pending: str | None = None  # "swap" / "skip" while a prompt is open
        self.to_ask: list[int] = []
        self._answers: list[bool] = []
        self._skip_all = False
        self._opener = self.first_opener
        self.openings: list[dict[str, Any]] = []
        self._queue: list[dict[str, Any]] = []  # sanctions for the next game's first lead
        self._start({"opener": self.first_opener, "first_taker": None, "first_game": True}, 0)

    @property
    def pending(self) -> str | None:
        """The open between-games prompt ("swap", "skip"), or None."""
        self._settle()
        return self._pending if self.to_ask else None

    @property
    def results(self) -> list[dict[str, Any]]:
        """The ``result()`` of each finished game (places after any R16.6 swap)."""
        self._settle()
        return self._results

    @property
    def totals(self) -> list[int]:
        """[team A, team B]: the scoring system's running totals (R17.5, R17.3)."""
        self._settle()
        return list(self._totals)

    # ------------------------------------------------------------------ driving
    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is: in the game, or in a between-games prompt."""
        if not self.game.is_over:
            return self.game.to_act
        self._settle()
        return self.to_ask[0] if self.to_ask else None

    def legal_actions(self) -> list[Action]:
        """The legal actions of ``to_act`` (empty when ``next_game()`` is due or the match
        is over)."""
        if not self.game.is_over:
            return self.game.legal_actions()
        self._settle()
        if not self.to_ask:
            return []
        return _SWAP_ACTIONS if self._pending == P_SWAP else _SKIP_ACTIONS

    def apply(self, action: object) -> None:
        """Apply the decision of ``to_act`` (in the game or a between-games prompt)."""
        if not self.game.is_over:
            self.game.apply(action)
            return
        self._settle()
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise IllegalAction(f"an action is text or an Action, not {type(action).__name__}")
        if action not in self.legal_actions():
            if not self.to_ask:
                raise IllegalAction("the game is over: call next_game() (R18 step 10)")
            what = "swap / noswap (R16.6)" if self._pending == P_SWAP else "skip / noskip (R16.11)"
            raise IllegalAction(f"P{self.to_ask[0]} answers {what}, not {action.text!r}")
        self.prompt_answers[-1].append(action.text)
        self._answers.append(action.kind in (SWAP, SKIP))
        self.to_ask.pop(0)
        if not self._answers[-1]:
            self.to_ask = []  # one "no" decides: both (R16.6) / all six (R16.11) must agree
        if not self.to_ask:
            self._close_prompt()

    @property
    def is_over(self) -> bool:
        """Whether a fixed-length match is decided (never for an open-ended match)."""
        if self.length is None or not self.game.is_over:
            return False
        self._settle()
        return not self.to_ask and self._decided()

    def _decided(self) -> bool:
        """Whether the finished games decide a fixed-length match (prompts aside)."""
        if self.length is None or len(self._results) < self.length:
            return False
        if self.rules.score_system == "match7":
            return self._totals[0] != self._totals[1]
        return True

    @property
    def winner(self) -> int | None:
        """The winning team (0 = A, 1 = B) of a decided match; None if tied or not over."""
        if not self.is_over or self._totals[0] == self._totals[1]:
            return None
        return 0 if self._totals[0] > self._totals[1] else 1

    def next_game(self, replaced: object = 0) -> Game:
        """Start the next game (R3.6, R3.7, R16). ``replaced`` = players replaced at the
        table since the last game (two or more re-open the game and cancel tribute)."""
        replaced = whole(replaced, "the number of players replaced", MatchError)
        if not 0 <= replaced <= SEATS:
            raise MatchError(f"between 0 and 6 players can be replaced, not {replaced}")
        if not self.game.is_over:
            raise MatchError("the current game is not over")
        self._settle()
        if self.to_ask:
            raise MatchError(f"P{self.to_ask[0]} must answer the {self._pending} prompt first")
        if self.is_over:
            raise MatchError("the match is over")
        prev = self._results[-1]
        index = len(self._results)
        chuan = prev["chuan"]
        reopen = replaced >= 2 or (chuan is not None and self.rules.open_reopen_after_chuan)
        tribute: list[Payment] = []
        if replaced < 2:  # R16.1: nothing is paid after players were replaced
            tribute = obligations(self.rules, prev, skip_all=self._skip_all)
        hui5 = 1 - chuan if chuan is not None else None  # the 串'd team (R13.8)
        self._skip_all = False
        return self._start(self._opening(index, prev, reopen), replaced, tribute, hui5)

    def _start(
        self,
        opening: dict[str, Any],
        replaced: int,
        tribute: list[Payment] | None = None,
        hui5: int | None = None,
    ) -> Game:
        index = len(self.games)
        self.game = Game.new(
            self.rules, self._game_seed(index), tribute=tribute or [], hui5_team=hui5, **opening
        )
        self.games.append(self.game)
        self.openings.append(opening)
        self.prompt_answers.append([])
        self.replaced.append(replaced)
        queue, self._queue = self._queue, []
        for q in queue:  # the game keeps a place sanction for its first lead (R18 step 9)
            self.game.sanction(q["kind"], q["seat"], points=q["points"], article=q["article"])
        return self.game

    # ------------------------------------------------------------------ sanctions
    def sanction(
        self, kind: object, seat: object, *, points: object = -2, article: object = ""
    ) -> None:
        """A referee's sanction (R19.4). During a game it is the game's (``Game.sanction``).
        Between games a penalty or a warning goes to the game just finished: its result and
        the totals follow (R17.6; for ``match7`` the R17.3 tie check counts it); the other
        sanctions wait for the next game's first lead (``queued``). After the match only a
        penalty or a warning can be given. Refused: ``SanctionError`` or ``MatchError``, and
        nothing changes."""
        if not self.game.is_over:
            self.game.sanction(kind, seat, points=points, article=article)
            return
        why = sanction_problem(kind, seat, points, article)
        if why:
            raise SanctionError(why)
        self._settle()
        if kind in AFTER_GAME_SANCTIONS:
            self.game.sanction(kind, seat, points=points, article=article)
            self._settle()
            if self._decided():
                self._queue = []  # no next game (D47)
            return
        if self._decided():
            raise MatchError(f"R19.4: the match is over; only a penalty or a warning, not {kind}")
        placed = [q["seat"] for q in self._queue if q["kind"] in PLACING_SANCTIONS]
        if seat in placed:  # as the game refuses it (Game.sanction)
            raise MatchError(f"R19.4: P{seat} already leaves the next game with the last place")
        self._queue.append({"kind": kind, "seat": seat, "points": -2, "article": article})

    @property
    def queued(self) -> list[dict[str, Any]]:
        """Sanctions given between games, waiting for the next game (kind, seat, points,
        article)."""
        return [dict(q) for q in self._queue]

    def view(self, seat: object) -> dict[str, Any]:
        """The game's view for ``seat`` plus the match's public state."""
        v = self.game.view(seat)
        v["match"] = {
            "game": len(self.games),
            "totals": self.totals,
            "results": [
                {"places": r["places"], "team_scores": r["team_scores"]} for r in self.results
            ],
            "prompt": self._pending if self.to_ask else None,
            "prompt_to": self.to_ask[0] if self.to_ask else None,
            # what a swap of 二落 and 大落 would change (R16.6): the table says no more
            "swap_changes": self.swap_changes() if self._pending == P_SWAP else None,
            "is_over": self.is_over,
            # the settlement of the game just finished: everything, every hand shown (R17)
            "result": self.results[-1] if self.game.is_over else None,
        }
        return v

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """A JSON-serializable record that replays to the same totals and state. A game's
        ``sanctions`` are as in a game record (``gouji.engine.referee.record``); ``queued``
        holds sanctions still waiting for the next game."""
        games: list[dict[str, Any]] = []
        for g, a, k in zip(self.games, self.prompt_answers, self.replaced, strict=True):
            entry: dict[str, Any] = {"replaced": k, "actions": list(g.actions), "prompts": list(a)}
            if g.sanctions:
                entry["sanctions"] = [dict(s) for s in g.sanctions]
            games.append(entry)
        rec = {
            "format": FORMAT,
            "rules": self.rules.spec(),
            "seed": self.seed,
            "length": self.length,
            "games": games,
        }
        if self._queue:
            rec["queued"] = self.queued
        return rec

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Match:
        """Replay a match record; a corrupt record raises ``MatchError`` saying where."""
        if not isinstance(record, Mapping) or record.get("format") != FORMAT:
            raise MatchError(f"not a {FORMAT} record")
        try:
            r = record["rules"]
            rules = make_rules(r["preset"], r.get("overrides") or {})
            m = cls(rules, int(record["seed"]), games=record.get("length"))
            games = list(record["games"])
        except (KeyError, TypeError, ValueError, ConfigError) as e:
            raise MatchError(f"match record: {e}") from None
        for i, entry in enumerate(games):
            try:
                if i:
                    m.next_game(int(entry.get("replaced", 0)))
                actions = [str(text) for text in entry["actions"]]
                sanctions = read_sanctions(entry.get("sanctions"), len(actions))
                for j, text in enumerate([*actions, None]):
                    for s in sanctions:
                        if s.at == j:  # given after j actions, as in a game record
                            m.sanction(s.kind, s.seat, points=s.points, article=s.article)
                    if text is not None:
                        m.apply(text)
                for text in entry["prompts"]:
                    m.apply(str(text))
            except (ValueError, KeyError, TypeError, AttributeError) as bad_game:
                raise MatchError(f"match record, game #{i}: {bad_game}") from None
        try:
            for q in record.get("queued") or []:
                m.sanction(q["kind"], q["seat"], points=q["points"], article=q["article"])
        except (ValueError, KeyError, TypeError) as bad_queue:
            raise MatchError(f"match record, queued sanctions: {bad_queue}") from None
        return m

    # ------------------------------------------------------------------ internals
    def __reduce__(self) -> tuple[object, tuple[Rules, int, dict[str, object]]]:
        """Pickled and deep-copied by its fields (a compiled Match is made only by
        __init__); the server keeps a copy to go back to before a sanction."""
        fields = {name: getattr(self, name) for name in MATCH_FIELDS}
        return (_match_of_fields, (self.rules, self.seed, fields))

    def _game_seed(self, index: int) -> int:
        return random.Random(f"{self.seed}/{index}").randrange(2**63)

    def _settle(self) -> None:
        """Once per finished game: record its result and open the R18 step 10 prompts; and
        a penalty given to a finished game since counts in its result and the totals."""
        if len(self._results) < len(self.games) and self.game.is_over:
            res = self.game.result()
            res["swapped"] = False
            self._results.append(res)
            self._add_scores()
            self._open_swap_prompt(res)
        self._late_penalties()

    def _late_penalties(self) -> None:
        """R17.6: penalties given after a game's result was taken, added to it (its places
        may have been swapped since, so the result is not taken again)."""
        late = False
        for g, res in zip(self.games, self._results, strict=False):
            listed = res.setdefault("penalties", [])
            for seat, points, article in g.penalties[len(listed) :]:
                team_ = seat & 1
                listed.append({"seat": seat, "team": team_, "points": points, "article": article})
                res["team_scores"][team_] += points
                res["team_points"][team_] += points
                late = True
        if late:
            self._add_scores()

    def _add_scores(self) -> None:
        """R17.5 running totals, penalties in; R17.3 resets them after each tie from the
        third game on (match7). Summed again from the results, since a late penalty can
        change an earlier tie (docs/decisions.md D47)."""
        totals, resets = [0, 0], 0
        match7 = self.rules.score_system == "match7" and self.length is not None
        for n, res in enumerate(self._results, 1):
            totals = [totals[t] + res["team_scores"][t] for t in (0, 1)]
            if match7 and self.length is not None and n >= self.length and totals[0] == totals[1]:
                totals = [0, 0]
                resets += 1
        self._totals, self.resets = totals, resets

    def swap_changes(self) -> list[str]:
        """What a swap of the last game's 二落 and 大落 changes besides the two places (R16.6;
        team scores never change): ``"luo"`` — who pays 落贡 to 头科 and to 二科, where it is
        paid after that game (R16.4; none after a 串三户, R16.8); ``"start"`` — who takes first
        and leads the next game, where the 大落 does (R3.6 ``da_luo``) and the next game is not
        re-opened after a 串三户 (R3.7). (A re-open for two replaced players is not known yet.)"""
        if not self._results:
            return []
        chuan = self._results[-1]["chuan"] is not None
        r = self.rules
        out = []
        if r.trib_enabled and "luo" in r.trib_order and not chuan:
            out.append("luo")
        if r.open_later_start == "da_luo" and not (chuan and r.open_reopen_after_chuan):
            out.append("start")
        return out

    def _open_swap_prompt(self, res: Mapping[str, Any]) -> None:
        places: list[int] = res["places"]
        er_luo, da_luo = places.index(5), places.index(6)
        self._answers = []
        if self.rules.end_swap_prompt and er_luo & 1 == da_luo & 1:
            self._pending, self.to_ask = P_SWAP, [er_luo, da_luo]
        else:
            self._open_skip_prompt()

    def _open_skip_prompt(self) -> None:
        self._answers = []
        res = self._results[-1]
        if self.rules.trib_chuan_agree and res["chuan"] is not None:
            self._pending, self.to_ask = P_SKIP, list(range(SEATS))
        else:
            self._pending, self.to_ask = None, []

    def _close_prompt(self) -> None:
        agreed = all(self._answers)
        if self._pending == P_SWAP:
            if agreed:  # R16.6: team scores unchanged, tribute roles and 大落 change
                res = self._results[-1]
                places = res["places"]
                a, b = places.index(5), places.index(6)
                places[a], places[b] = 6, 5
                res["swapped"] = True
            self._open_skip_prompt()
        else:
            self._skip_all = agreed
            self._pending = None

    def _opening(self, index: int, prev: Mapping[str, Any], reopen: bool) -> dict[str, Any]:
        """R3.6 later games, R3.7 re-opening (AMB-68 within a rotation)."""
        if self.rules.open_later_start == "rotate":
            self._opener = (self.first_opener + index) % SEATS
            return {"opener": self._opener, "first_taker": None, "first_game": reopen}
        if reopen:
            opener = (self.first_opener + 1) % SEATS
            return {"opener": opener, "first_taker": None, "first_game": True}
        da_luo = list(prev["places"]).index(6)
        # the opener is ceremonial: the 大落's 对头 [O][L], the 大落 itself in [V4]
        opener = da_luo if self.rules.open_first_start == "liang4" else (da_luo + 3) % SEATS
        return {"opener": opener, "first_taker": da_luo, "first_game": False}


# Every attribute a Match has (tests/engine/test_build.py checks it): what __reduce__ carries.
MATCH_FIELDS = (
    "_answers",
    "_opener",
    "_pending",
    "_queue",
    "_results",
    "_rng",
    "_skip_all",
    "_totals",
    "first_opener",
    "game",
    "games",
    "length",
    "openings",
    "prompt_answers",
    "replaced",
    "resets",
    "rules",
    "seed",
    "to_ask",
)


def _match_of_fields(rules: Rules, seed: int, fields: dict[str, object]) -> Match:
    """``Match.__reduce__``'s other half: a match made anew, then given every field back."""
    m = Match(rules, seed)
    for name, value in fields.items():
        setattr(m, name, value)
    return m
