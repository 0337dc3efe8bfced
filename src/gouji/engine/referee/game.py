"""The referee for one game of 够级 (R1–R12, R14, R15, R18 without tribute, R19.1, R19.4).

A ``Game`` is its rules, its seed (or starting hands) and the actions applied to it; every
state change goes through ``apply``. The pre-play phases (R18 steps 1–8) and the rounds
(R7–R9) are one state machine: ``to_act`` is always the seat whose decision it is, and the
engine asks every eligible seat even when ``pass`` is its only legal action (auto-passing is
a front end's choice), except where a rule itself passes for a player (挑牌, R10.2).

This module holds the ``Game`` class: its state, construction, the public contract and the
dispatch of an applied action. The phases are functions of the game in modules of their own:
``preplay`` (R18 steps 1–9), ``legal`` (the legal actions), ``rounds`` (R7), ``burning`` (R8),
``places`` (R9, 开点 R11), ``claims`` (挑牌 R10.2), ``sanctions`` (R19.4) and ``refusals``
(R19.1 and the reasons); ``common`` is their shared vocabulary, re-exported here.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gouji.engine.actions import (
    BURN,
    ORDER,
    PASS,
    RANG,
    TIAO,
    Action,
    IllegalAction,
    IllegalPlay,
)
from gouji.engine.cards import (
    NUM_RANKS,
    RANKS,
    CardError,
    counts_text,
    deck_cards,
    deck_counts,
)
from gouji.engine.cards import parse_counts as _parse_counts
from gouji.engine.checks import flag, seat_or_none, whole
from gouji.engine.checks import seat as check_seat
from gouji.engine.gamelog import LogEvent
from gouji.engine.gamelog import parse as parse_event
from gouji.engine.plays import (
    NO_BASE,
    Play,
    feasible,
    gouji_flag,
)
from gouji.engine.reasons import Reason, from_message
from gouji.engine.referee import (
    burning,
    claims,
    common,
    legal,
    preplay,
    refusals,
    rounds,
    sanctions,
)
from gouji.engine.referee.common import (
    ACTIVE,
    DEAD_LEVEL,
    LIVE,
    NO_HEAD,
    P_KOU,
    P_LEAD,
    P_OFFER,
    P_OVER,
    P_RANG_RETURN,
    P_RESPOND,
    P_YUDIAN,
    PASSED,
    PLACE_NAMES,
    PLAY_PENDING,
    PRIVATE_PENDING,
    RANGED,
    SEATS,
    duitou,
    team,
)
from gouji.engine.referee.places import both_top_placed, check_end
from gouji.engine.referee.sanctions import (
    AFTER_GAME_SANCTIONS,
    PLACING_SANCTIONS,
    SANCTIONS,
    SanctionError,
)
from gouji.engine.referee.sanctions import log_text as sanction_text
from gouji.engine.referee.sanctions import problem as sanction_problem
from gouji.engine.rules import ConfigError, Rules
from gouji.engine.tribute import Payment

#: What other parts import from here: the game, and the referee's vocabulary they need.
__all__ = [
    "ACTIVE",
    "AFTER_GAME_SANCTIONS",
    "DEAD_LEVEL",
    "LIVE",
    "NO_HEAD",
    "PASSED",
    "PLACE_NAMES",
    "PLACING_SANCTIONS",
    "PRIVATE_PENDING",
    "RANGED",
    "SANCTIONS",
    "SEATS",
    "Game",
    "SanctionError",
    "UnsupportedRules",
    "check_supported",
    "duitou",
    "rules_arg",
    "sanction_problem",
    "sanction_text",
    "team",
]

#: Rules the engine does not implement yet, by the key that switches them on.
_UNSUPPORTED: tuple[tuple[str, object, str], ...] = (
    ("end.remaining_order", "team_choice", "the team's choice of the remaining order (R9.9)"),
)


class UnsupportedRules(ValueError):
    """The rules switch on a module this engine does not implement yet."""


def check_supported(rules: Rules) -> None:
    """Refuse rules that need a module not implemented yet, so no preset claims it falsely."""
    missing = [text for key, value, text in _UNSUPPORTED if rules.get(key) == value]
    if missing:
        raise UnsupportedRules(f"preset {rules.preset}: not implemented yet: {'; '.join(missing)}")


def _history_problem(
    rules: Rules,
    places: Mapping[int, int],
    revolutionary: int | None,
    renounced: bool,
    opened: set[int],
) -> str:
    """Why a ``from_hands`` position could not arise in a game ('' when it could).

    Going out takes the best free place (R9.2) and a forced place the worst (R9.11); the
    revolutionary holds 四科 meanwhile (R15.4). So the places held are the best few and the
    worst few of those a game hands out, with nothing free between them.
    """
    order = [p for p in range(1, 7) if revolutionary is None or p != 4]
    held = set(places.values())
    top = 0
    while top < len(order) and order[top] in held:
        top += 1
    bottom = len(order)
    while bottom > top and order[bottom - 1] in held:
        bottom -= 1
    gap = sorted(held.intersection(order[top:bottom]))
    if gap:
        free = [p for p in order if p not in held]
        return (
            f"impossible places: {_place_list(gap)} held while {_place_list(free[:1])} is free; "
            "going out takes the best free place (R9.2), a forced place the worst (R9.11)"
            + (", and the revolutionary holds 四科 (R15.4)" if revolutionary is not None else "")
        )
    if renounced and revolutionary is None:
        return "R15.5: only the revolutionary's 对头 can renounce, and there is no revolutionary"
    if opened and not rules.dian_enabled:
        return "R11.1: 开点 is not played in these rules (dian.enabled is false)"
    if revolutionary in opened and not rules.bie3_enabled:
        return "R11.6: without 憋3 the revolutionary is 不开点 (认点); it cannot have opened"
    bad = sorted(q for q in opened if not 0 <= q < SEATS)
    if bad:
        return f"R0.2: seats are 0…5, not {bad[0]}"
    return ""


def _place_list(places: Iterable[int]) -> str:
    return ", ".join(PLACE_NAMES[p] for p in places)


class Game:
    """One game of 够级 under a rule set. Build with ``Game.new`` or ``Game.from_hands``."""

    rules: Rules

    def __init__(self, rules: Rules) -> None:
        """Use ``Game.new`` or ``Game.from_hands``; this only sets the empty state."""
        check_supported(rules)
        self.rules = rules
        # the rules the hot paths read, copied to native fields: 2s attach (R4.2), 憋3 (R12),
        # 打点 (R11), the Laiwu 4s rule (R13.5) and the 够级 minimum counts (R6.1)
        self._twos_attach = rules.play_twos_attach
        self._bie3 = rules.bie3_enabled
        self._dian = rules.dian_enabled
        self._four_rule = rules.laiwu_four_rule
        self._gouji_min = rules.play_gouji_min
        self._gouji_cache: dict[int, bool] = {}  # is_gouji by play code
        self.seed: int | None = None
        self.start: dict[str, Any] = {}
        self.actions: list[str] = []
        self.log: list[tuple[int, str]] = []  # public events: (seat or -1, text)
        self._private: list[tuple[int, int, str]] = []  # (log index, seat, text) seen by seat
        self._events: list[LogEvent] = []  # the log read as events so far (views share them)
        self.rng = random.Random(0)
        self.hands: list[list[int]] = [[0] * NUM_RANKS for _ in range(SEATS)]
        self.set_aside: list[int] = [0] * NUM_RANKS  # revolution hands and 会'd cards
        self.played: list[int] = [0] * NUM_RANKS
        self._places: list[int | None] = [None] * SEATS
        self.active: list[bool] = [True] * SEATS
        self.revolutionary: int | None = None
        self.renounced = False
        self.rev_chances_used = [0] * SEATS  # 够死级 against the revolutionary (R15.2)
        self.opener = 0
        self.first_taker = -1  # unknown until the opening (R3.1), after 预点 (R18 step 1)
        self.starter = -1
        self.pending = "setup"
        self.to_act: int | None = None
        self._ask: list[int] = []  # seats still to ask in a pre-play phase or burn window
        self._offers: list[list[Play]] = []  # burning plays of each seat in _ask (burn window)
        self._declared: list[int] = []  # seats that declared 预点 (one declaration each)
        self.declarations: list[tuple[int, str]] = []  # (declarer, 'yudian'|'mingdian')
        self._revolutions: list[int] = []  # seats that declared 革命 (R15.1); two void the deal
        self._first_game = True
        self.redeals = 0
        self.hui: str = ""  # the 会 ordered (R14.1, R13.8): "3", "4", "3 4" or "5"
        # round state
        self.standing: Play | None = None
        self.owner = 0
        # the standing play: protected 够级 (R6.4), a 够死级 play (R6.5), and whether it
        # opens its owner (开点) if it wins the round (R11.2, R11.4); ``public_state`` keys
        # them s_protected, s_dead_level, s_qualifies
        self.standing_protected = False
        self.standing_dead_level = False
        self.standing_qualifies = False
        self.status = [ACTIVE] * SEATS
        self.rang_by = -1  # the seat whose 让牌 is running (R7.6), -1: none
        self.chaos = False
        self.round_finishers: list[int] = []
        # 够死级 (R9.4, R9.5): the chance used in this round, by seat; successful ones against a
        # revolutionary, which open after three (R11.6); ``public_state``: gsj_used, gsj_wins
        self.dead_level_used: list[bool] = [False] * SEATS
        self.dead_level_wins = [0] * SEATS
        self.round_no = 0
        self.round_plays: list[tuple[int, str]] = []
        self.must_lead_base = NO_BASE  # 亮4 first lead (R3.8)
        self.burner = -1
        self.victim = -1
        self.burns: list[tuple[int, int]] = []  # successful burns (burner, victim)
        self.broken_burns: list[tuple[int, int]] = []
        self.opened: list[bool] = [False] * SEATS
        self.men: list[int] = []  # seats placed 闷 (left with only 3s, R12.6)
        self.dead = [0] * SEATS  # cards each seat set aside: revolution, 闷, broken burn
        self.dead_hands = [""] * SEATS  # and which, for the settlement (shown after the game)
        self.finish_order: list[int] = []
        self.claimant = -1
        self.claim: list[Play] = []
        self.forfeits = 0
        # tribute (R16) and the Laiwu module (R13)
        self.tribute: list[Payment] = []
        self.tribute_paid: list[tuple[Payment, int]] = []  # (payment, cards actually paid)
        self._returns: list[list[int]] = []  # [receiver, payer, cards still to return]
        self._offered = -1  # rank offered in 还贡, awaiting the payer's check
        self._refused: list[int] = []  # ranks the payer refused in the current return
        self.hui5_team: int | None = None
        self.four_free = [False] * SEATS  # R13.5 (d): the 4s lock lifted for this seat
        self.four_due = [False] * SEATS  # R13.5 (b): next lead must be 4s
        self.no_open = [False] * SEATS  # R13.5 (d): can no longer 开壶
        # the referee's sanctions (R19.4)
        self.sanctions: list[dict[str, Any]] = []  # as recorded: at, kind, seat, points, article
        self.penalties: list[tuple[int, int, str]] = []  # (seat, points, article), R17.6
        self.disqualified: list[int] = []
        self.punished: list[int] = []  # seats placed by last_place / disqualify
        self.cancelled = [0] * SEATS  # turns still to cancel, per seat
        self._cancels = 0  # their sum: ``apply`` checks one number
        self._deferred: list[int] = []  # seats to place at the first lead (sanctioned pre-play)
        self._legal: list[Action] | None = None

    @classmethod
    def new(
        cls,
        rules: object,
        seed: object,
        *,
        opener: object = None,
        first_taker: object = None,
        first_game: object = True,
        tribute: object = (),
        hui5_team: object = None,
        deck: object = None,
    ) -> Game:
        """A game from the shuffle through every pre-play phase of R18.

        ``opener`` defaults to a seeded random seat (R3.1); a match passes the opener of a
        later game, or ``first_taker`` for the 大落 rule (R3.6), and ``first_game=False``
        when the first-game starter rules (亮3 / 亮4) do not apply. ``tribute`` lists what the
        previous game owes (``tribute.obligations``), paid in R18 step 5; ``hui5_team`` is the
        team 串'd in the previous game, which may order 会5 (R13.8). ``deck`` is the cards
        (rank index, suit) in draw order for the first deal instead of the seeded shuffle: a
        deal with real cards entered by hand, or a constructed one; it must be exactly the
        rule set's packs, and the record keeps it. A redeal (R15.3) shuffles as usual.
        Arguments of the wrong kind raise ``ConfigError`` saying what was expected.
        """
        g = cls(rules_arg(rules))
        rules = g.rules
        g.seed = seed_ = whole(seed, "a game's seed", ConfigError)
        opener_ = seat_or_none(opener, "the opener", ConfigError)
        first_taker = seat_or_none(first_taker, "the first taker", ConfigError)
        first_game = flag(first_game, "first_game", ConfigError)
        if hui5_team not in (None, 0, 1) or isinstance(hui5_team, bool):
            raise ConfigError(f"hui5_team is a team 0 or 1 (or None), not {hui5_team!r}")
        if isinstance(tribute, str) or not isinstance(tribute, Sequence):
            raise ConfigError("tribute is a list of payments (gouji.engine.tribute.obligations)")
        if not all(isinstance(p, Payment) for p in tribute):
            raise ConfigError("tribute is a list of payments (gouji.engine.tribute.obligations)")
        g.rng = random.Random(seed_)
        g.tribute = [p for p in tribute if isinstance(p, Payment)]
        g.hui5_team = hui5_team if rules.laiwu_hui5 else None
        g.start = {"seed": seed_, "opener": opener_, "first_taker": first_taker}
        g.start["first_game"] = first_game
        g.start["tribute"] = [p.as_dict() for p in g.tribute]
        g.start["hui5_team"] = g.hui5_team
        if deck is not None:
            g.start["deck"] = _checked_deck(deck, rules.deck_remove)
        g.opener = g.rng.randrange(SEATS) if opener_ is None else opener_
        g._first_game = first_game
        if rules.dian_enabled and rules.dian_declare != "off":
            preplay.begin_ask(
                g, P_YUDIAN, common.ccw_from(g.opener)
            )  # R18 step 1: before the opening
        else:
            preplay.open_and_deal(g)
        return g

    @classmethod
    def from_hands(
        cls,
        rules: object,
        hands: object,
        starter: object = 0,
        *,
        places: object = None,
        revolutionary: object = None,
        renounced: object = False,
        opened: object = (),
    ) -> Game:
        """A game that starts at the first lead from given hands (pre-play phases skipped).

        Hands are card text or rank counts and may be small, so tests can build positions.
        ``places`` gives seats already placed (their hands must be empty); ``revolutionary``
        a seat whose hand was set aside (it holds 四科, R15.4); ``opened`` seats already
        opened (R11). Wrong input raises ``ConfigError`` (a ``ValueError``) saying why.
        """
        g = cls(rules_arg(rules))
        rules = g.rules
        starter = check_seat(starter, "the starter", ConfigError)
        revolutionary = seat_or_none(revolutionary, "the revolutionary", ConfigError)
        renounced = flag(renounced, "renounced", ConfigError)
        if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != SEATS:
            raise ConfigError("six hands are needed, as card text or rank counts")
        if places is not None and not isinstance(places, Mapping):
            raise ConfigError("places map seats to places 1…6")
        placed = {
            check_seat(s, "a placed seat", ConfigError): whole(p, "a place", ConfigError)
            for s, p in (places or {}).items()
        }
        if isinstance(opened, str) or not isinstance(opened, Iterable):
            raise ConfigError("opened lists seats 0…5")
        opened = {check_seat(s, "an opened seat", ConfigError) for s in opened}
        counts: list[list[int]] = []
        for i, h in enumerate(hands):
            try:
                if isinstance(h, str):
                    c = _parse_counts(h)
                elif isinstance(h, Sequence) and all(
                    isinstance(x, int) and not isinstance(x, bool) for x in h
                ):
                    c = [int(x) for x in h]
                else:
                    raise CardError("a hand is card text or 15 rank counts")
            except CardError as e:
                raise ConfigError(f"hand of P{i}: {e}") from None
            if len(c) != NUM_RANKS or min(c) < 0:
                raise ConfigError(f"hand of P{i}: 15 non-negative rank counts are needed")
            counts.append(c)
        deck = deck_counts(rules.deck_remove)
        for r in range(NUM_RANKS):
            held = sum(c[r] for c in counts)
            if held > deck[r]:
                raise ConfigError(
                    f"the hands hold {held} cards of rank {RANKS[r]}, the packs only {deck[r]}"
                )
        if revolutionary is not None:
            if not 0 <= revolutionary < SEATS or revolutionary in placed:
                raise ConfigError("the revolutionary must be a seat without a place")
            if rules.rev_mode == "off":
                raise ConfigError("R15.1: revolution is off in these rules")
        for seat, place in placed.items():
            if not 0 <= seat < SEATS or place not in range(1, 7):
                raise ConfigError(f"bad place {place} for seat {seat}")
        if len(set(placed.values())) != len(placed):
            raise ConfigError("two seats cannot hold the same place")
        if revolutionary is not None and 4 in placed.values():
            raise ConfigError("R15.4: the revolutionary holds 四科")
        why = _history_problem(rules, placed, revolutionary, renounced, set(opened))
        if why:
            raise ConfigError(why)
        for seat in range(SEATS):
            out = seat in placed or seat == revolutionary
            if out != (sum(counts[seat]) == 0):
                raise ConfigError(
                    f"P{seat}: a seat has an empty hand exactly when it is placed or revolted"
                )
        g.start = {
            "hands": [counts_text(c) for c in counts],
            "starter": starter,
            "places": {str(k): v for k, v in placed.items()},
            "revolutionary": revolutionary,
            "renounced": renounced,
            "opened": sorted(set(opened)),
        }
        g.hands = counts
        for seat, place in placed.items():
            g._places[seat] = place
            g.active[seat] = False
        if revolutionary is not None:
            g.revolutionary = revolutionary
            g._places[revolutionary] = 4
            g.active[revolutionary] = False
            g.renounced = renounced
            if g._bie3 and g._dian:
                g.opened[revolutionary] = True
        for seat in opened:
            g.opened[seat] = True
        if not 0 <= starter < SEATS or not g.active[starter]:
            raise ValueError(f"the starter P{starter} must be an active seat")
        g.starter = g.first_taker = g.opener = starter
        g.chaos = both_top_placed(g)  # (``places`` is the argument here)
        if check_end(g):
            raise ValueError("this position is already over (R9.9)")
        rounds.new_round(g, starter)
        return g

    @property
    def places(self) -> list[int | None]:
        """Places by seat (1 = 头科 … 6 = 大落; None = still playing), as a copy."""
        return self._places[:]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R9.9)."""
        return self.pending == P_OVER

    def hand(self, seat: object) -> str:
        """The seat's cards as canonical text."""
        return counts_text(self.hands[check_seat(seat, "a hand's seat", ValueError)])

    def legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act`` (empty when the game is over).

        When a 挑牌 claim's order is due (R10.2) only the canonical order is listed: orders
        number in the thousands; ``apply`` accepts any valid one (``order <cards> | …``).
        """
        if self._legal is None:
            self._legal = legal.compute_legal(self)
        return self._legal

    def apply(self, action: object, seat: object = None) -> None:
        """Apply the decision of ``to_act`` (``seat``, if given, must be that seat).

        Illegal: ``IllegalAction`` citing the rule, the state unchanged (``sw.illegal =
        reject``), or the turn forfeited (``forfeit_turn``, R19.1). A turn the referee
        cancelled (R19.4) is forfeited as soon as it comes.
        """
        if not isinstance(action, Action | str):
            raise IllegalAction(f"an action is text or an Action, not {type(action).__name__}")
        self._apply(action, seat_or_none(seat, "the acting seat", IllegalAction))
        if self._cancels:
            sanctions.run_cancellations(self)

    def _apply(self, action: Action | str, seat: int | None) -> None:
        if isinstance(action, str):
            text = action
            try:
                action = Action.parse(text)
            except IllegalPlay as e:
                if self.rules.sw_illegal != "forfeit_turn" or self.pending == P_OVER:
                    raise
                if seat is not None and seat != self.to_act:
                    raise IllegalAction(refusals.not_your_turn(self, seat)) from None
                self._record(text.strip())
                refusals.forfeit(self, str(e))
                return
        if self.pending == P_OVER:
            raise IllegalAction("the game is over (R9.9)")
        if seat is not None and seat != self.to_act:
            raise IllegalAction(refusals.not_your_turn(self, seat))
        if action.kind == ORDER:
            problem = claims.order_problem(self, action)
            if not problem:
                self._record(action.text)
                claims.start_claim(self, action)
                return
            why = from_message(problem)
        elif action in self.legal_actions():
            self._record(action.text)
            self._dispatch(action)
            return
        else:
            why = refusals.explain(self, action)
        if self.rules.sw_illegal == "forfeit_turn":
            self._record(action.text)
            refusals.forfeit(self, str(why))
            return
        raise IllegalAction(str(why), why)

    def sanction(
        self, kind: object, seat: object, *, points: object = -2, article: object = ""
    ) -> None:
        """A referee's sanction (R19.4; seed 003, O 第二十八–三十条, the 够级比赛 sheet), logged
        as a public event and kept in the record so that the game replays with it.

        ``warning`` changes nothing in play. ``cancel_turn`` forfeits the seat's next turn at
        which it could play cards (a lead, a response, the turn back after 让牌) as R19.1
        does; cancellations stack. ``penalty`` adds ``points`` to the seat's team after the
        scoring system's own rule (R17.6), also after the game. ``last_place`` and
        ``disqualify`` put the seat out of play at once with the worst free place, its cards
        dead (like R9.11); before the first lead they wait for it (R18 step 9).
        ``disqualify`` is also listed in ``disqualified`` for the competition. A sanction
        that cannot be given raises ``SanctionError`` and changes nothing.
        """
        sanctions.give(self, kind, seat, points, article)

    def clone(self) -> Game:
        """An independent copy (cheap: flat lists are copied, plays are shared)."""
        g = Game(self.rules)  # a compiled class has no bare __new__; every field is set below
        for name in _SHARED_FIELDS:
            setattr(g, name, getattr(self, name))
        for name in _LIST_FIELDS:
            setattr(g, name, getattr(self, name)[:])
        g.hands = [h[:] for h in self.hands]
        g._offers = [o[:] for o in self._offers]
        g._returns = [r[:] for r in self._returns]
        g._legal = self._legal
        if self.pending not in PLAY_PENDING:  # a redeal may still draw from the RNG
            g.rng = random.Random()
            g.rng.setstate(self.rng.getstate())
        return g

    def __reduce__(self) -> tuple[object, tuple[Rules, dict[str, object]]]:
        """Pickled and deep-copied by its fields (a compiled Game is made only by __init__)."""
        names = _SHARED_FIELDS + _LIST_FIELDS
        return (_game_of_fields, (self.rules, {name: getattr(self, name) for name in names}))

    def head(self, seat: int) -> int:
        """R9.4 head(p): LIVE, DEAD_LEVEL (够死级 right) or NO_HEAD (无头)."""
        d = (seat + 3) % SEATS
        if self.active[d]:
            return LIVE
        if d in self.round_finishers and not self.dead_level_used[seat]:
            return DEAD_LEVEL
        if (
            d == self.revolutionary
            and not self.renounced
            and self.rev_chances_used[seat] < self.rules.rev_gousiji
        ):
            return DEAD_LEVEL
        return NO_HEAD

    def is_gouji(self, play: Play) -> bool:
        """R6.1 under these rules (cached per play)."""
        f = self._gouji_cache.get(play.code)
        if f is None:
            f = self._gouji_cache[play.code] = gouji_flag(play, self._gouji_min)
        return f

    def count_cards(self) -> int:
        """Cards in hands, played, and set aside: always the deck size (conservation)."""
        return sum(map(sum, self.hands)) + sum(self.played) + sum(self.set_aside)

    def result(self) -> dict[str, Any]:
        """The game's outcome under the preset's scoring system (R17); see ``scoring``."""
        from gouji.engine.referee.scoring import game_result

        if not self.is_over:
            raise ValueError("the game is not over yet")
        return game_result(self)

    def public_state(self) -> dict[str, Any]:
        """Every public field of the engine state (JSON-ready), for ``from_state``.

        ``to_act`` is None during a private decision (a burn or revolution offer); the view
        of the offered seat fills it in. Nothing here depends on a hidden card.
        """
        out: dict[str, Any] = {
            _STATE_KEYS.get(name, name): _jsonable(getattr(self, name)) for name in _PUBLIC_FIELDS
        }
        out["standing"] = self.standing.text if self.standing is not None else None
        out["claim"] = [p.text for p in self.claim]
        # hand sizes: what an attentive player counts from the public record (docs D34)
        out["sizes"] = [sum(h) for h in self.hands]
        if self.pending in PRIVATE_PENDING:
            out["to_act"] = None
        for name in ("first_taker", "starter"):  # None before the opening (R18 step 1)
            if out[name] < 0:
                out[name] = None
        return out

    @classmethod
    def from_state(
        cls, rules: Rules, state: Mapping[str, Any], hands: Sequence[Sequence[int]]
    ) -> Game:
        """A game in a given public state with given hands: the determinization a search
        agent plays out (open_spiel's resampling). Only play-phase states are supported.

        At a burn offer the window is rebuilt from these hands: the candidates after the
        seat to act (in priority order) follow it.
        """
        if state["pending"] not in PLAY_PENDING:
            raise ValueError(f"from_state supports the play phase, not {state['pending']!r}")
        g = cls(rules)
        for name in _PUBLIC_FIELDS:
            value = state[_STATE_KEYS.get(name, name)]
            setattr(g, name, list(value) if isinstance(value, list) else value)
        g.declarations = [(int(s), str(k)) for s, k in state["declarations"]]
        g.burns = [(int(b), int(v)) for b, v in state["burns"]]
        g.broken_burns = [(int(b), int(v)) for b, v in state["broken_burns"]]
        g.round_plays = [(int(p), str(t)) for p, t in state["round_plays"]]
        g.hands = [list(h) for h in hands]
        deck = deck_counts(rules.deck_remove)
        g.set_aside = [deck[r] - g.played[r] - sum(h[r] for h in g.hands) for r in range(NUM_RANKS)]
        g.standing = Play.parse(state["standing"]) if state["standing"] else None
        g.claim = [Play.parse(t) for t in state["claim"]]
        g.start = {"from_state": True}
        g._cancels = sum(g.cancelled)
        b = g.burner
        if b >= 0 and g.active[b] and not feasible(g.hands[b], g._twos_attach, g._bie3):
            g.burner = g.victim = -1  # hands that could not be burning: no burn to keep (R8.5)
        if g.pending == P_OFFER:
            me = g.to_act
            assert me is not None and g.standing is not None
            burning.gather_offers(g)
            while g._ask and g._ask[0] != me:
                g._ask.pop(0)
                g._offers.pop(0)
            if not g._ask:  # the hands given cannot burn: still offer this seat its plays
                g._ask, g._offers = [me], [burning.burn_plays(g, me, g.standing)]
        return g

    def events(self, start: int = 0) -> list[LogEvent]:
        """The public log from index ``start`` as structured events (``gouji.engine.gamelog``).
        The log only grows, so each entry is read once; treat the events as read-only."""
        cache, log = self._events, self.log
        for i in range(len(cache), len(log)):
            seat, text = log[i]
            cache.append({"i": i, **parse_event(seat, text)})
        return cache[start:]

    def view(self, seat: object) -> dict[str, Any]:
        """What ``seat`` may know (None = spectator); see ``gouji.engine.referee.view``."""
        from gouji.engine.referee.view import view

        return view(self, seat_or_none(seat, "a view's seat", ValueError))

    def record(self) -> dict[str, Any]:
        """A JSON-serializable record that replays to this state (gouji.engine.referee.record)."""
        from gouji.engine.referee.record import make_record

        return make_record(self)

    @classmethod
    def from_record(cls, record: object) -> Game:
        """Replay a record made by ``record()``; a corrupt record raises ``RecordError``."""
        from gouji.engine.referee.record import replay

        return replay(record)

    def _record(self, text: str) -> None:
        self.actions.append(text)
        self._legal = None

    def _dispatch(self, action: Action) -> None:
        kind = self.pending
        seat = self.to_act
        assert seat is not None
        k = action.kind
        if kind == P_LEAD:
            if k == TIAO:
                claims.claim_hand(self, seat)
                return
            assert action.play is not None
            common.log_public(self, seat, action.text)
            rounds.on_play(self, seat, action.play, burn=False)
        elif kind in (P_RESPOND, P_RANG_RETURN):
            if k == PASS:
                common.log_public(self, seat, "pass")
                rounds.on_pass(self, seat)
            elif k == RANG:
                common.log_public(self, seat, "rang")
                self.status[seat] = RANGED
                self.rang_by = seat
                rounds.visit(self, (seat + 1) % SEATS)
            else:
                assert action.play is not None
                common.log_public(self, seat, action.text)
                rounds.on_play(self, seat, action.play, burn=False)
        elif kind == P_OFFER:
            if k == BURN:
                assert action.play is not None
                self._ask = []
                self._offers = []
                common.log_public(self, seat, action.text)
                rounds.on_play(self, seat, action.play, burn=True)
            else:
                common.log_private(self, seat, "noburn")
                self._ask.pop(0)
                self._offers.pop(0)
                burning.next_offer(self)
        elif kind == P_KOU:
            common.log_public(self, seat, "kou")
            rounds.round_end(self)
        else:
            preplay.decide(self, seat, action)

    def check(self, action: Action | str) -> Reason | None:
        """Why ``action`` would be refused now, or None when ``apply`` would take it. Changes
        nothing: front ends use it to say why a selection cannot be played."""
        return refusals.check(self, action)


_PUBLIC_FIELDS = (
    "pending",
    "to_act",
    "opener",
    "first_taker",
    "starter",
    "_places",
    "active",
    "revolutionary",
    "renounced",
    "rev_chances_used",
    "chaos",
    "round_no",
    "owner",
    "standing_protected",
    "standing_dead_level",
    "standing_qualifies",
    "status",
    "rang_by",
    "round_finishers",
    "dead_level_used",
    "dead_level_wins",
    "burner",
    "victim",
    "burns",
    "broken_burns",
    "opened",
    "men",
    "finish_order",
    "must_lead_base",
    "claimant",
    "four_free",
    "four_due",
    "no_open",
    "hui",
    "declarations",
    "played",
    "round_plays",
    "dead",
    "cancelled",
    "punished",
)

#: The keys of ``public_state`` that are not the field's name: the state goes on the wire (the
#: views' ``state``, the environment's observation), so its keys stay as they were when the
#: fields had shorter names (``s_`` for the standing play, ``gsj`` for 够死级).
_STATE_KEYS: dict[str, str] = {
    "_places": "places",
    "standing_protected": "s_protected",
    "standing_dead_level": "s_dead_level",
    "standing_qualifies": "s_qualifies",
    "dead_level_used": "gsj_used",
    "dead_level_wins": "gsj_wins",
}


def _game_of_fields(rules: Rules, fields: dict[str, object]) -> Game:
    """``Game.__reduce__``'s other half: an empty game given every field back."""
    g = Game(rules)
    for name, value in fields.items():
        setattr(g, name, value)
    return g


def rules_arg(rules: object) -> Rules:
    """``rules`` if it is a rule set, else a ConfigError (a preset's name is not one)."""
    if not isinstance(rules, Rules):
        raise ConfigError(
            f"rules come from make_rules (e.g. make_rules('OUTLINE_FULL')), "
            f"not {type(rules).__name__}"
        )
    return rules


def _checked_deck(deck: object, remove: dict[str, int]) -> list[list[int]]:
    """``Game.new``'s ``deck`` as JSON-ready pairs, or a ConfigError saying what is wrong."""
    if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
        raise ConfigError("deck: a list of (rank, suit) cards in draw order")
    cards: list[tuple[int, int]] = []
    for card in deck:
        if (
            isinstance(card, str | bytes)
            or not isinstance(card, Sequence)
            or len(card) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in card)
        ):
            raise ConfigError(f"deck: {card!r} is no (rank, suit) card")
        cards.append((card[0], card[1]))
    if sorted(cards) != sorted(deck_cards(remove)):
        raise ConfigError("deck: the cards must be exactly the rule set's packs (R2.1)")
    return [[r, s] for r, s in cards]


def _jsonable(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


# Game.clone's fields: those shared with the clone (numbers, strings, immutable values and
# the RNG, which clone replaces where it may still draw; hands, offers and returns are copied
# there too), then the flat lists it copies. Together they are every attribute a Game has
# (tests/engine/test_engine_surface.py checks it): a compiled Game has no __dict__ to copy.
_SHARED_FIELDS = (
    "_bie3",
    "_cancels",
    "_dian",
    "_first_game",
    "_four_rule",
    "_gouji_min",
    "_gouji_cache",
    "_legal",
    "_offered",
    "_offers",
    "_returns",
    "_twos_attach",
    "burner",
    "chaos",
    "claimant",
    "first_taker",
    "forfeits",
    "hands",
    "hui",
    "hui5_team",
    "must_lead_base",
    "opener",
    "owner",
    "pending",
    "rang_by",
    "redeals",
    "renounced",
    "revolutionary",
    "rng",
    "round_no",
    "rules",
    "standing_dead_level",
    "standing_protected",
    "standing_qualifies",
    "seed",
    "standing",
    "start",
    "starter",
    "to_act",
    "tribute",
    "victim",
)
_LIST_FIELDS = (
    "actions",
    "log",
    "_private",
    "_events",
    "set_aside",
    "played",
    "_places",
    "active",
    "rev_chances_used",
    "_ask",
    "_declared",
    "declarations",
    "_revolutions",
    "status",
    "round_finishers",
    "dead_level_used",
    "dead_level_wins",
    "round_plays",
    "burns",
    "broken_burns",
    "opened",
    "men",
    "finish_order",
    "claim",
    "tribute_paid",
    "_refused",
    "four_free",
    "four_due",
    "no_open",
    "dead",
    "dead_hands",
    "sanctions",
    "penalties",
    "disqualified",
    "punished",
    "cancelled",
    "_deferred",
)
