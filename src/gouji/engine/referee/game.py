"""The referee for one game of 够级 (R1–R12, R14, R15, R18 without tribute, R19.1, R19.4).

A ``Game`` is its rules, its seed (or starting hands) and the actions applied to it; every
state change goes through ``apply``. The pre-play phases (R18 steps 1–8) and the rounds
(R7–R9) are one state machine: ``to_act`` is always the seat whose decision it is, and the
engine asks every eligible seat even when ``pass`` is its only legal action (auto-passing is
a front end's choice), except where a rule itself passes for a player (挑牌, R10.2).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from gouji.engine import deal as dealing
from gouji.engine.actions import (
    ACCEPT,
    BURN,
    GEMING,
    HUAN,
    HUI,
    KEEP,
    KOU,
    MINGDIAN,
    NOBURN,
    NOGEMING,
    NOHUI,
    NOMINGDIAN,
    NOYUDIAN,
    ORDER,
    PASS,
    PLAY,
    RANG,
    REFUSE,
    RENOUNCE,
    TIAO,
    YUDIAN,
    Action,
    IllegalAction,
    IllegalPlay,
)
from gouji.engine.cards import (
    LJ,
    NUM_RANKS,
    R2,
    R3,
    R4,
    R5,
    RANKS,
    SJ,
    CardError,
    counts_text,
    deck_cards,
    deck_counts,
)
from gouji.engine.cards import parse_counts as _parse_counts
from gouji.engine.checks import flag, seat_or_none, whole
from gouji.engine.checks import seat as check_seat
from gouji.engine.gamelog import Event
from gouji.engine.gamelog import parse as parse_event
from gouji.engine.plays import (
    NO_BASE,
    Play,
    feasible,
    gouji_flag,
    is_composition_legal,
    leads,
    responses,
)
from gouji.engine.plays import remove as remove_play
from gouji.engine.reasons import Reason, from_message, reason
from gouji.engine.rules import ConfigError, Rules
from gouji.engine.tribute import Payment, tribute_cards

SEATS = 6
PLACE_NAMES = {1: "头科", 2: "二科", 3: "三科", 4: "四科", 5: "二落", 6: "大落"}  # R9.1
ACTIVE, PASSED, RANGED = 0, 1, 2  # per-round status (R7)
LIVE, DEAD_LEVEL, NO_HEAD = 0, 1, 2  # head(p) (R9.4)

# Pending decision kinds.
P_LEAD = "lead"
P_RESPOND = "respond"
P_RANG_RETURN = "rang_return"  # R7.6: the turn returns to the yielder, who must play or pass
P_OFFER = "burn_offer"
P_KOU = "kou"
P_YUDIAN = "yudian"
P_GEMING = "geming"
P_RENOUNCE = "renounce"
P_HUI = "hui"
P_HUI5 = "hui5"
P_HUAN = "huan"  # R16.7: the receiver of 落贡 returns a card
P_HUAN_CHECK = "huan_check"  # R16.7: the payer may refuse a returned card of a rank it lacks
P_MINGDIAN = "mingdian"
P_ORDER = "order"  # R10.2: the claimant's first active teammate fixes the claim's order
P_OVER = "over"

_PLAY_PENDING = frozenset({P_LEAD, P_RESPOND, P_RANG_RETURN, P_OFFER, P_KOU, P_ORDER, P_OVER})

#: Pending kinds whose seat the other players must not learn (it would reveal cards).
PRIVATE_PENDING = frozenset({P_OFFER, P_GEMING, P_HUAN_CHECK})

#: The referee's sanctions (R19.4; seed 003, O 第二十九条 (一)–(五)): 警告, 取消一次发牌权,
#: 罚分, 罚为大落, 取消资格.
SANCTIONS = ("warning", "cancel_turn", "penalty", "last_place", "disqualify")
PLACING_SANCTIONS = frozenset({"last_place", "disqualify"})  # out of play with the last place
AFTER_GAME_SANCTIONS = frozenset({"warning", "penalty"})  # still possible after the game
#: The turns at which a seat could play cards: what a cancelled turn costs (R19.4, R7.6).
_TURNS = frozenset({P_LEAD, P_RESPOND, P_RANG_RETURN})
ARTICLE_MAX = 80  # characters of a sanction's article (a citation, not a report)

_PASS = Action.word(PASS)
_RANG = Action.word(RANG)
_NOBURN = Action.word(NOBURN)
_KOU = Action.word(KOU)
_TIAO = Action.word(TIAO)

#: Rules the engine does not implement yet, by the key that switches them on.
_UNSUPPORTED: tuple[tuple[str, object, str], ...] = (
    ("end.remaining_order", "team_choice", "the team's choice of the remaining order (R9.9)"),
)


class UnsupportedRules(ValueError):
    """The rules switch on a module this engine does not implement yet."""


class SanctionError(ValueError):
    """A sanction the referee cannot give (R19.4); the message says why, nothing changed."""


def sanction_problem(kind: object, seat: object, points: object, article: object) -> str:
    """Why these sanction arguments are malformed in any game ('' when well formed); shared
    with ``Match.sanction``, which must check a sanction it keeps for the next game."""
    if kind not in SANCTIONS:
        return f"R19.4: unknown sanction {kind!r}; sanctions: {', '.join(SANCTIONS)}"
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        return f"R0.2: seats are 0…5, not {seat!r}"
    whole = isinstance(points, int) and not isinstance(points, bool)
    if kind == "penalty" and (not whole or not points):
        return f"R17.6: a penalty is a non-zero whole number of points (default −2), not {points!r}"
    if not isinstance(article, str) or len(article) > ARTICLE_MAX:
        return f"R19.4: the article is a text of at most {ARTICLE_MAX} characters"
    if not article.isprintable():
        return "R19.4: the article is one line of printable text"
    return ""


def sanction_text(kind: str, points: int, article: str) -> str:
    """The log text of a sanction (``gouji.engine.gamelog`` reads it back): ``sanction <kind>``, the
    points of a penalty, then the article in parentheses when one is given."""
    text = f"sanction {kind}"
    if kind == "penalty":
        text += f" {points}"
    return f"{text} ({article})" if article else text


def check_supported(rules: Rules) -> None:
    """Refuse rules that need a module not implemented yet, so no preset claims it falsely."""
    missing = [text for key, value, text in _UNSUPPORTED if rules.get(key) == value]
    if missing:
        raise UnsupportedRules(f"preset {rules.preset}: not implemented yet: {'; '.join(missing)}")


def duitou(seat: int) -> int:
    """R1.2: the opponent sitting opposite."""
    return (seat + 3) % SEATS


def team(seat: int) -> int:
    """R1.1: team A = 0 (seats 0, 2, 4), team B = 1 (seats 1, 3, 5)."""
    return seat & 1


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


def _qualifier(play: Play, qualifier: str) -> bool:
    """R11.2: the preset's extra condition on a 够级 play for 开点."""
    if qualifier == "outline":
        return play.nlj == 0
    if qualifier == "audit":
        if play.has_joker:
            return False
        if play.base != NO_BASE:
            return play.n2 == 0
        return play.n2 >= 2
    if qualifier == "pure":
        return not play.has_joker and play.n2 == 0
    return play.attached == 0 and play.nlj == 0  # no_attach


class Game:
    """One game of 够级 under a rule set. Build with ``Game.new`` or ``Game.from_hands``."""

    rules: Rules

    # ------------------------------------------------------------------ construction
    def __init__(self, rules: Rules) -> None:
        """Use ``Game.new`` or ``Game.from_hands``; this only sets the empty state."""
        check_supported(rules)
        self.rules = rules
        self._twos = rules.play_twos_attach
        self._bie3 = rules.bie3_enabled
        self._dian = rules.dian_enabled
        self._four_rule = rules.laiwu_four_rule
        self._gmin = rules.play_gouji_min
        self._gouji_cache: dict[int, bool] = {}
        self.seed: int | None = None
        self.start: dict[str, Any] = {}
        self.actions: list[str] = []
        self.log: list[tuple[int, str]] = []  # public events: (seat or -1, text)
        self._private: list[tuple[int, int, str]] = []  # (log index, seat, text) seen by seat
        self._events: list[Event] = []  # the log read as events so far (views share them)
        self.rng = random.Random(0)
        self.hands: list[list[int]] = [[0] * NUM_RANKS for _ in range(SEATS)]
        self.set_aside: list[int] = [0] * NUM_RANKS  # revolution hands and 会'd cards
        self.played: list[int] = [0] * NUM_RANKS
        self._places: list[int | None] = [None] * SEATS
        self.active: list[bool] = [True] * SEATS
        self.revolutionary: int | None = None
        self.renounced = False
        self.rev_chances_used = [0] * SEATS
        self.opener = 0
        self.first_taker = -1  # unknown until the opening (R3.1), after 预点 (R18 step 1)
        self.starter = -1
        self.pending = "setup"
        self.to_act: int | None = None
        self._ask: list[int] = []  # seats still to ask in a pre-play phase or burn window
        self._offers: list[list[Play]] = []  # burning plays of each seat in _ask (burn window)
        self._declared: list[int] = []  # seats that declared 预点 (one declaration each)
        self.declarations: list[tuple[int, str]] = []  # (declarer, 'yudian'|'mingdian')
        self._geming: list[int] = []
        self._first_game = True
        self.redeals = 0
        self.hui: str = ""
        # round state
        self.standing: Play | None = None
        self.owner = 0
        self.s_protected = False
        self.s_dead_level = False
        self.s_qualifies = False
        self.status = [ACTIVE] * SEATS
        self.rang_by = -1
        self.chaos = False
        self.round_finishers: list[int] = []
        self.gsj_used: list[bool] = [False] * SEATS
        self.gsj_wins = [0] * SEATS
        self.round_no = 0
        self.round_plays: list[tuple[int, str]] = []
        self.must_lead_base = NO_BASE  # 亮4 first lead (R3.8)
        self.burner = -1
        self.victim = -1
        self.burns: list[tuple[int, int]] = []  # successful burns (burner, victim)
        self.broken_burns: list[tuple[int, int]] = []
        self.opened: list[bool] = [False] * SEATS
        self.men: list[int] = []
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
            g._begin_ask(P_YUDIAN, g._ccw_from(g.opener))  # R18 step 1: before the opening
        else:
            g._open_and_deal()
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
        places = placed
        if revolutionary is not None:
            if not 0 <= revolutionary < SEATS or revolutionary in places:
                raise ConfigError("the revolutionary must be a seat without a place")
            if rules.rev_mode == "off":
                raise ConfigError("R15.1: revolution is off in these rules")
        for seat, place in places.items():
            if not 0 <= seat < SEATS or place not in range(1, 7):
                raise ConfigError(f"bad place {place} for seat {seat}")
        if len(set(places.values())) != len(places):
            raise ConfigError("two seats cannot hold the same place")
        if revolutionary is not None and 4 in places.values():
            raise ConfigError("R15.4: the revolutionary holds 四科")
        why = _history_problem(rules, places, revolutionary, renounced, set(opened))
        if why:
            raise ConfigError(why)
        for seat in range(SEATS):
            out = seat in places or seat == revolutionary
            if out != (sum(counts[seat]) == 0):
                raise ConfigError(
                    f"P{seat}: a seat has an empty hand exactly when it is placed or revolted"
                )
        g.start = {
            "hands": [counts_text(c) for c in counts],
            "starter": starter,
            "places": {str(k): v for k, v in places.items()},
            "revolutionary": revolutionary,
            "renounced": renounced,
            "opened": sorted(set(opened)),
        }
        g.hands = counts
        for seat, place in places.items():
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
        g.chaos = g._both_top_placed()
        if g._check_end():
            raise ValueError("this position is already over (R9.9)")
        g._new_round(starter)
        return g

    # ------------------------------------------------------------------ public contract
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
            self._legal = self._compute_legal()
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
            self._run_cancellations()

    def _apply(self, action: Action | str, seat: int | None) -> None:
        if isinstance(action, str):
            text = action
            try:
                action = Action.parse(text)
            except IllegalPlay as e:
                if self.rules.sw_illegal != "forfeit_turn" or self.pending == P_OVER:
                    raise
                if seat is not None and seat != self.to_act:
                    raise IllegalAction(self._not_your_turn(seat)) from None
                self._record(text.strip())
                self._forfeit(str(e))
                return
        if self.pending == P_OVER:
            raise IllegalAction("the game is over (R9.9)")
        if seat is not None and seat != self.to_act:
            raise IllegalAction(self._not_your_turn(seat))
        if action.kind == ORDER:
            problem = self._order_problem(action)
            if not problem:
                self._record(action.text)
                self._start_claim(action)
                return
            why = from_message(problem)
        elif action in self.legal_actions():
            self._record(action.text)
            self._dispatch(action)
            return
        else:
            why = self._explain(action)
        if self.rules.sw_illegal == "forfeit_turn":
            self._record(action.text)
            self._forfeit(str(why))
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
        why = sanction_problem(kind, seat, points, article)
        if why:
            raise SanctionError(why)
        # well formed now (sanction_problem): only a penalty's points count
        kind, seat, article = cast(str, kind), cast(int, seat), cast(str, article)
        points = cast(int, points) if kind == "penalty" else -2
        why = self._sanction_refused(kind, seat)
        if why:
            raise SanctionError(why)
        self.sanctions.append(
            {
                "at": len(self.actions),
                "kind": kind,
                "seat": seat,
                "points": points if kind == "penalty" else None,
                "article": article,
            }
        )
        self._legal = None
        self._event(seat, sanction_text(kind, points, article))
        if kind == "penalty":
            self.penalties.append((seat, points, article))
        elif kind == "cancel_turn":
            self.cancelled[seat] += 1
            self._cancels += 1
        elif kind in PLACING_SANCTIONS:
            if kind == "disqualify":
                self.disqualified.append(seat)
            if self.pending in _PLAY_PENDING:
                self._punish(seat)
            else:
                self._deferred.append(seat)
        self._run_cancellations()

    def _sanction_refused(self, kind: str, seat: int) -> str:
        """Why this game cannot take the sanction now ('' when it can)."""
        if self.is_over and kind not in AFTER_GAME_SANCTIONS:
            return f"R9.9: the game is over; only a penalty or a warning can be given, not {kind}"
        if kind in AFTER_GAME_SANCTIONS:
            return ""
        place = self._places[seat]
        if place is not None:
            return f"R19.4: P{seat} is out of play already ({PLACE_NAMES[place]}); no {kind}"
        if seat in self._deferred:
            return f"R19.4: P{seat} already leaves play with the last place at the first lead"
        return ""

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
        if self.pending not in _PLAY_PENDING:  # a redeal may still draw from the RNG
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
        if d in self.round_finishers and not self.gsj_used[seat]:
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
            f = self._gouji_cache[play.code] = gouji_flag(play, self._gmin)
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
        out: dict[str, Any] = {name: _jsonable(getattr(self, name)) for name in _PUBLIC_FIELDS}
        out["places"] = out.pop("_places")
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
        if state["pending"] not in _PLAY_PENDING:
            raise ValueError(f"from_state supports the play phase, not {state['pending']!r}")
        g = cls(rules)
        for name in _PUBLIC_FIELDS:
            value = state["places" if name == "_places" else name]
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
        if b >= 0 and g.active[b] and not feasible(g.hands[b], g._twos, g._bie3):
            g.burner = g.victim = -1  # hands that could not be burning: no burn to keep (R8.5)
        if g.pending == P_OFFER:
            me = g.to_act
            assert me is not None and g.standing is not None
            g._open_burn_window_quiet()
            while g._ask and g._ask[0] != me:
                g._ask.pop(0)
                g._offers.pop(0)
            if not g._ask:  # the hands given cannot burn: still offer this seat its plays
                g._ask, g._offers = [me], [g._burn_plays(me, g.standing)]
        return g

    def events(self, start: int = 0) -> list[Event]:
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

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _ccw_from(seat: int) -> list[int]:
        return [(seat + i) % SEATS for i in range(SEATS)]

    def _record(self, text: str) -> None:
        self.actions.append(text)
        self._legal = None

    def _event(self, seat: int, text: str) -> None:
        self.log.append((seat, text))

    def _private_event(self, seat: int, text: str) -> None:
        self._private.append((len(self.log), seat, text))

    def _both_top_placed(self) -> bool:
        return 1 in self._places and 2 in self._places

    def _free_places(self) -> list[int]:
        taken = set(self._places)
        return [p for p in range(1, 7) if p not in taken]

    def _place(self, seat: int, place: int, how: str) -> None:
        self._places[seat] = place
        self.active[seat] = False
        self.finish_order.append(seat)
        self._event(seat, f"{how} {place}")

    # ------------------------------------------------------------------ pre-play phases
    def _begin_ask(self, kind: str, seats: list[int]) -> None:
        self.pending = kind
        self._ask = seats
        self.to_act = seats[0] if seats else None
        if not seats:
            self._after_ask(kind)

    def _next_ask(self) -> None:
        self._ask.pop(0)
        if self._ask:
            self.to_act = self._ask[0]
        else:
            self._after_ask(self.pending)

    def _after_ask(self, kind: str) -> None:
        if kind == P_YUDIAN:
            self._open_and_deal()
        elif kind == P_GEMING:
            self._resolve_revolution()
        elif kind == P_RENOUNCE:
            self._after_revolution()
        elif kind == P_HUI:
            self._begin_hui5()
        elif kind == P_HUI5:
            self._begin_mingdian()
        elif kind == P_MINGDIAN:
            self._begin_play()

    def _open_and_deal(self) -> None:
        """R18 steps 2–3: the opening fixes the first taker (R3.1, R3.2), then the deal."""
        given = self.start["first_taker"]
        if given is None:
            r = self.rules
            od = dealing.draw_opening(self.rng, self.opener, r.open_joker_draw, r.deck_remove)
            for seat, rank in od.draws:
                self._event(seat, f"opening_draw {RANKS[rank]}")
            self.first_taker = od.first_taker
        else:
            self.first_taker = given
        self._event(self.first_taker, "first_taker")
        self._deal_and_continue()

    def _deal_and_continue(self) -> None:
        """R18 steps 3–4: the simulated draw, the starter, then revolution offers."""
        given = self.start.get("deck") if self.redeals == 0 else None
        if given is not None:
            d = dealing.draw([(c[0], c[1]) for c in given], self.first_taker)
        else:
            d = dealing.deal(self.rng, self.first_taker, self.rules.deck_remove)
        self.hands = [list(h) for h in d.hands]
        self.set_aside = [0] * NUM_RANKS
        rules = self.rules
        starter = self.first_taker
        if self._first_game and rules.open_first_start == "liang3" and d.liang3 is not None:
            starter = d.liang3[0]
            self._event(starter, f"liang3 {d.liang3[1]} {'SHDC'[d.liang3[2]]}")
        elif self._first_game and rules.open_first_start == "liang4" and d.liang4 is not None:
            starter = d.liang4[0]
            self.must_lead_base = R4
            self._event(starter, f"liang4 {d.liang4[1]}")
        self.starter = starter
        self._event(starter, "starter")
        mode = rules.rev_mode
        eligible: list[int] = []
        if mode != "off":
            for seat in self._ccw_from(starter):
                h = self.hands[seat]
                if h[R2] or h[SJ] or h[LJ]:
                    continue
                if mode == "bie3_only" and h[R3]:
                    continue
                eligible.append(seat)
        self._geming = []
        self._begin_ask(P_GEMING, eligible)

    def _resolve_revolution(self) -> None:
        """R15.3: two or more revolutions void the game; one sets the hand aside (R15.2)."""
        if len(self._geming) >= 2:
            self.redeals += 1
            self._event(-1, "void_redeal")
            self.must_lead_base = NO_BASE
            self._deal_and_continue()
            return
        if self._geming:
            r = self._geming[0]
            self.revolutionary = r
            self.set_aside = self.hands[r][:]
            self.dead[r] = sum(self.hands[r])
            self.dead_hands[r] = counts_text(self.hands[r])
            self.hands[r] = [0] * NUM_RANKS
            self._places[r] = 4
            self.active[r] = False
            if self._dian and self._bie3:
                self.opened[r] = True  # R11.6 under 憋3: counts as opened
            if self.starter == r:
                self.starter = self._next_active(r)
                self.must_lead_base = NO_BASE  # the 亮4 duty was the revolutionary's
                self._event(self.starter, "starter")
            if self.rules.rev_gousiji > 0 and self.active[duitou(r)]:
                self._begin_ask(P_RENOUNCE, [duitou(r)])
                return
        self._after_revolution()

    def _after_revolution(self) -> None:
        """R18 step 5: tribute in the configured order (R16.4), then the returns (R16.7)."""
        for p in self.tribute:
            if self.revolutionary in (p.payer, p.receiver):  # R15.2, R16.9
                self._event(p.payer, f"tribute {p.kind} {p.payer}>{p.receiver} skipped")
                continue
            ranks = tribute_cards(self.hands[p.payer], p.cards, self.rules.trib_no_card)
            for r in ranks:
                self.hands[p.payer][r] -= 1
                self.hands[p.receiver][r] += 1
            self.tribute_paid.append((p, len(ranks)))
            self._event(p.payer, f"tribute {p.kind} {p.payer}>{p.receiver} {len(ranks)}")
            text = " ".join(RANKS[r] for r in ranks) or "nothing"
            self._private_event(p.payer, f"paid {text} to {p.receiver}")
            self._private_event(p.receiver, f"received {text} from {p.payer}")
            if p.returned and ranks:
                self._returns.append([p.receiver, p.payer, len(ranks)])
        self._next_return()

    def _next_return(self) -> None:
        """R16.7 还贡: each receiver of 落贡 gives back as many cards, one at a time."""
        if self._returns:
            self.pending = P_HUAN
            self.to_act = self._returns[0][0]
            return
        self._after_tribute()

    def _on_huan(self, receiver: int, rank: int) -> None:
        payer = self._returns[0][1]
        if self._may_refuse(payer, receiver, rank):
            self._offered = rank
            self.pending = P_HUAN_CHECK
            self.to_act = payer
            return
        self._give_back(rank)

    def _may_refuse(self, payer: int, receiver: int, rank: int) -> bool:
        """R16.7 ``return_rank_rule``: a card of a rank the payer lacks may be refused,
        unless the receiver has no other card of a rank the payer holds."""
        if not self.rules.trib_return_rank_rule or self.hands[payer][rank]:
            return False
        held = self.hands[payer]
        other = self.hands[receiver]
        return any(other[r] and held[r] and r not in self._refused for r in range(NUM_RANKS))

    def _give_back(self, rank: int) -> None:
        receiver, payer, _left = self._returns[0]
        self.hands[receiver][rank] -= 1
        self.hands[payer][rank] += 1
        self._event(receiver, f"huan {receiver}>{payer}")
        self._private_event(receiver, f"returned {RANKS[rank]} to {payer}")
        self._private_event(payer, f"got back {RANKS[rank]} from {receiver}")
        self._offered = -1
        self._refused = []
        self._returns[0][2] -= 1
        if not self._returns[0][2]:
            self._returns.pop(0)
        self._next_return()

    def _after_tribute(self) -> None:
        """R18 steps 6–7: 买3 / 买4 (R12.3, R13.3), then 会3/会4 (R14) and 会5 (R13.8)."""
        if self._bie3:
            self._buy(R3)
        if self.rules.laiwu_buy4:
            self._buy(R4)
        if self.rules.hui_options and not self._bie3:
            self._begin_ask(P_HUI, [self.starter])
        else:
            self._begin_hui5()

    def _begin_hui5(self) -> None:
        """R13.8: after a 串三户 the 串'd team may order all 5s out; its first active member
        ccw from the starter decides for it."""
        team_ = self.hui5_team
        if team_ is not None:
            seat = next(
                (s for s in self._ccw_from(self.starter) if self.active[s] and s & 1 == team_),
                None,
            )
            if seat is not None:
                self._begin_ask(P_HUI5, [seat])
                return
        self._begin_mingdian()

    def _buy(self, rank: int) -> None:
        """R12.3 / R13.3: every active player without the rank buys one, paying its
        lowest 2/SJ/LJ, or free without one."""
        order = self.rules.bie3_buy_order
        name = RANKS[rank]
        for buyer in self._ccw_from(self.starter):
            if not self.active[buyer] or self.hands[buyer][rank]:
                continue
            d = duitou(buyer)
            opp = [(buyer + i) % SEATS for i in (1, 3, 5)]
            own = [(buyer + i) % SEATS for i in (2, 4)]
            if order == "duitou_then_their_team":
                sellers = [d] + [s for s in opp if s != d] + own
            else:
                sellers = [d, *own] + [s for s in opp if s != d]
            seller = next((s for s in sellers if self.active[s] and self.hands[s][rank] >= 2), None)
            if seller is None:  # cannot happen with R0.8 (f); kept as a clear failure
                raise RuntimeError(f"R12.3: no seller holds two {name}s")
            self.hands[seller][rank] -= 1
            self.hands[buyer][rank] += 1
            pay = next((r for r in (R2, SJ, LJ) if self.hands[buyer][r]), None)
            if pay is not None:
                self.hands[buyer][pay] -= 1
                self.hands[seller][pay] += 1
                self._event(buyer, f"buy{name} from {seller}")
                self._private_event(buyer, f"paid {RANKS[pay]} to {seller}")
                self._private_event(seller, f"received {RANKS[pay]} from {buyer}")
            else:
                self._event(buyer, f"buy{name} from {seller} free")

    def _begin_mingdian(self) -> None:
        if self._dian and self.rules.dian_declare != "off":
            seats = [
                s
                for s in self._ccw_from(self.starter)
                if self.active[s] and s not in self._declared
            ]
            self._begin_ask(P_MINGDIAN, seats)
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        """R18 step 9: the starter makes the first lead. Seats the referee placed last before
        play began leave first (R19.4); a starter among them passes the lead on, as a
        revolutionary starter does (R15.2)."""
        if self._deferred:
            for seat in self._deferred:
                self._leave(seat)
            self._deferred = []
            if self._check_end():
                return
            if not self.active[self.starter]:
                self.starter = self._next_active(self.starter)
                self.must_lead_base = NO_BASE  # the 亮4 duty was the punished seat's
                self._event(self.starter, "starter")
        self._new_round(self.starter)

    def _next_active(self, seat: int) -> int:
        for i in range(1, SEATS + 1):
            q = (seat + i) % SEATS
            if self.active[q]:
                return q
        raise RuntimeError("no active player")

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> list[Action]:
        kind = self.pending
        seat = self.to_act
        if seat is None:
            return []
        if kind == P_LEAD:
            out = [Action.of_play(p) for p in self._leads(seat)]
            if self._tiao_allowed(seat):
                out.append(_TIAO)
            return out
        if kind == P_ORDER:
            return [Action.of_claim(self._canonical_order())]
        if kind in (P_RESPOND, P_RANG_RETURN):
            assert self.standing is not None
            out = [_PASS]
            if kind == P_RESPOND and self._rang_available(seat):
                out.append(_RANG)
            hand = self.hands[seat]
            locked = self._four_rule and self._four_locked(seat)
            for p in responses(hand, self.standing, self._twos):
                if not (locked and p.base == R4):
                    out.append(Action.of_play(p))
            return out
        if kind == P_OFFER:
            return [*(Action.burn(p) for p in self._offers[0]), _NOBURN]
        if kind == P_KOU:
            return [_KOU]
        if kind == P_YUDIAN:
            return [Action.word(YUDIAN), Action.word(NOYUDIAN)]
        if kind == P_MINGDIAN:
            return [Action.word(MINGDIAN), Action.word(NOMINGDIAN)]
        if kind == P_GEMING:
            return [Action.word(GEMING), Action.word(NOGEMING)]
        if kind == P_RENOUNCE:
            return [Action.word(RENOUNCE), Action.word(KEEP)]
        if kind == P_HUI:
            opts = self.rules.hui_options
            choices = ["3"] if tuple(opts) == ("3",) else ["3", "4", "3 4"]
            return [*(Action.of_hui(c) for c in choices), Action.word(NOHUI)]
        if kind == P_HUI5:
            return [Action.of_hui("5"), Action.word(NOHUI)]
        if kind == P_HUAN:
            hand = self.hands[seat]
            return [
                Action.of_play(Play.of_card(r), HUAN)
                for r in range(NUM_RANKS)
                if hand[r] and r not in self._refused
            ]
        if kind == P_HUAN_CHECK:
            return [Action.word(ACCEPT), Action.word(REFUSE)]
        return []

    def _leads(self, seat: int) -> list[Play]:
        """R4, R4.7, R8.6 (burn leads), R3.8 (亮4 first lead)."""
        hand = self.hands[seat]
        out = list(leads(hand, self._twos, self._bie3))
        if self.burner == seat:
            total = sum(hand)
            twos, bie3 = self._twos, self._bie3
            out = [
                p
                for p in out
                if (p.has_joker or p.size == total) and feasible(remove_play(hand, p), twos, bie3)
            ]
        if self.must_lead_base != NO_BASE:
            fours = [p for p in out if p.base == self.must_lead_base]
            if fours:
                out = fours
        if self._four_rule:
            if self._four_locked(seat):  # R13.5 (a)
                out = [p for p in out if p.base != R4]
            elif self.four_due[seat] and hand[R4]:  # R13.5 (b)
                every = self.rules.laiwu_four_lead_all
                fours = [p for p in out if p.base == R4 and (not every or p.nbase == hand[R4])]
                if fours:
                    out = fours
        return out

    def _four_locked(self, seat: int) -> bool:
        """R13.5 (a): no 4s before 开壶 while there is no 头科 (unless (d) lifted the lock)."""
        return (
            self._four_rule
            and not self.opened[seat]
            and not self.four_free[seat]
            and 1 not in self._places
        )

    def _rang_available(self, seat: int) -> bool:
        """R7.6: the 对头 of the owner, on an unprotected play, once, with a 下家 eligible."""
        if self.chaos or self.s_protected or seat != (self.owner + 3) % SEATS:
            return False
        if self.status[seat] == RANGED:
            return False
        return self._eligible((seat + 1) % SEATS) or self._eligible((seat + 2) % SEATS)

    def _eligible(self, q: int) -> bool:
        """R7.3 / R6.4 / R6.5 / R9.7: may ``q`` answer the standing play in its turn?"""
        if not self.active[q] or q == self.owner:
            return False
        if self.chaos:
            return True
        if self.s_dead_level:
            return False
        if self.s_protected:
            return q == (self.owner + 3) % SEATS or (
                self.status[q] == ACTIVE and self._wutou_rights(q)
            )
        return self.status[q] == ACTIVE or q == (self.owner + 3) % SEATS

    def _wutou_rights(self, q: int) -> bool:
        """R9.8 (b): may ``q`` answer protected 够级 plays as a 无头 player? Also in the round
        its 对头 became 头科 or 二科, beside its 够死级 chance (R9.4, AMB-74)."""
        head = self.head(q)
        return head == NO_HEAD or (head == DEAD_LEVEL and (q + 3) % SEATS in self.round_finishers)

    # ------------------------------------------------------------------ dispatch
    def _dispatch(self, action: Action) -> None:
        kind = self.pending
        seat = self.to_act
        assert seat is not None
        k = action.kind
        if kind == P_LEAD:
            if k == TIAO:
                self._claim_hand(seat)
                return
            assert action.play is not None
            self._event(seat, action.text)
            self._on_play(seat, action.play, burn=False)
        elif kind in (P_RESPOND, P_RANG_RETURN):
            if k == PASS:
                self._event(seat, "pass")
                self._on_pass(seat)
            elif k == RANG:
                self._event(seat, "rang")
                self.status[seat] = RANGED
                self.rang_by = seat
                self._visit((seat + 1) % SEATS)
            else:
                assert action.play is not None
                self._event(seat, action.text)
                self._on_play(seat, action.play, burn=False)
        elif kind == P_OFFER:
            if k == BURN:
                assert action.play is not None
                self._ask = []
                self._offers = []
                self._event(seat, action.text)
                self._on_play(seat, action.play, burn=True)
            else:
                self._private_event(seat, "noburn")
                self._ask.pop(0)
                self._offers.pop(0)
                self._next_offer()
        elif kind == P_KOU:
            self._event(seat, "kou")
            self._round_end()
        else:
            self._dispatch_setup(seat, action)

    def _dispatch_setup(self, seat: int, action: Action) -> None:
        k = action.kind
        if k == GEMING:
            self._geming.append(seat)
            self._event(seat, "geming")
        elif k == NOGEMING:
            self._private_event(seat, "nogeming")
        elif k == RENOUNCE:
            self.renounced = True
            self._event(seat, "renounce")
        elif k == HUI:
            self._event(seat, action.text)
            self._apply_hui(action.hui)
        elif k == HUAN:
            assert action.play is not None
            self._on_huan(seat, action.play.eff)
            return
        elif k == ACCEPT:
            self._private_event(seat, "accept")
            self._give_back(self._offered)
            return
        elif k == REFUSE:
            receiver = self._returns[0][0]
            self._private_event(seat, f"refuse {RANKS[self._offered]}")
            self._private_event(receiver, f"refused {RANKS[self._offered]}")
            self._refused.append(self._offered)
            self._offered = -1
            self.pending = P_HUAN
            self.to_act = receiver
            return
        elif k in (YUDIAN, MINGDIAN):
            self._declared.append(seat)
            self.declarations.append((seat, k))
            self._event(seat, k)
        else:
            self._event(seat, action.text)
        self._next_ask()

    def _apply_hui(self, choice: str) -> None:
        """R14.1 / R13.8: all 3s, 4s (or 5s) leave all six hands."""
        ranks = [{"3": R3, "4": R4, "5": R5}[c] for c in choice.split()]
        for seat, h in enumerate(self.hands):
            removed = sum(h[r] for r in ranks)
            for r in ranks:
                self.set_aside[r] += h[r]
                h[r] = 0
            if removed:
                self._event(seat, f"removed {removed}")  # laid out openly on the table
        self.hui = choice

    # ------------------------------------------------------------------ rounds
    def _new_round(self, leader: int) -> None:
        """R7.1: fresh statuses; the leader must lead."""
        self.round_no += 1
        self.standing = None
        self.owner = leader
        self.status = [ACTIVE] * SEATS
        self.rang_by = -1
        self.round_finishers = []
        self.gsj_used = [False] * SEATS
        self.s_protected = self.s_dead_level = self.s_qualifies = False
        self.round_plays = []
        was = self.chaos
        self.chaos = self._both_top_placed()
        if self.chaos and not was:
            self._event(-1, "chaos")  # R9.6 四人乱缠 from this round on
        self.pending = P_LEAD
        self.to_act = leader
        self._legal = None
        if self._four_rule and self._four_locked(leader) and not self._leads(leader):
            self.four_free[leader] = True  # R13.5 (d): the stuck lead lifts the lock …
            self.no_open[leader] = True  # … and the seat can no longer 开壶
            self._event(leader, "four_unlocked")
        if self.claimant == leader and self.claim:
            self._claim_next_lead()

    def _on_play(self, seat: int, play: Play, burn: bool) -> None:
        """A play stands (R4.9): burn bookkeeping, places, then dead / burn window / answers."""
        hand = self.hands[seat]
        if play.base != NO_BASE:
            hand[play.base] -= play.nbase
            self.played[play.base] += play.nbase
        if play.n2:
            hand[R2] -= play.n2
            self.played[R2] += play.n2
        if play.nsj:
            hand[SJ] -= play.nsj
            self.played[SJ] += play.nsj
        if play.nlj:
            hand[LJ] -= play.nlj
            self.played[LJ] += play.nlj
        prev_owner = self.owner if self.standing is not None else -1
        placed_before = len(self.finish_order)
        if prev_owner < 0:
            self.four_due[seat] = False  # R13.5 (b) holds for one lead
        self.round_plays.append((seat, play.text))
        self.must_lead_base = NO_BASE
        if prev_owner >= 0 and prev_owner != seat:
            if self.burner == prev_owner:
                self._break_burn()  # R8.8
            if self.claimant == prev_owner:
                self._end_claim()
        if burn:
            self.burner, self.victim = seat, prev_owner
            self._event(seat, f"burning {prev_owner}")
        if self.rang_by >= 0:
            if self.rang_by != seat:
                lock = self.rules.round_rang == "lock_on_beat"
                self.status[self.rang_by] = PASSED if lock else ACTIVE
            else:
                self.status[seat] = ACTIVE
            self.rang_by = -1
        self.standing = play
        self.owner = seat
        if self.chaos:
            self.status = [ACTIVE] * SEATS
        gouji = self.is_gouji(play)
        head = self.head(seat)
        self.s_protected = gouji and not self.chaos and head != NO_HEAD
        self.s_dead_level = self.s_protected and head == DEAD_LEVEL
        if self.s_dead_level:  # R9.5: uses one 够死级 chance
            if (seat + 3) % SEATS == self.revolutionary:
                self.rev_chances_used[seat] += 1
            else:
                self.gsj_used[seat] = True
        self.s_qualifies = (
            self._dian
            and gouji
            and not self.chaos
            and _qualifier(play, self.rules.dian_qualifier)
            and not self._deadline_closed(seat)
        )
        if not sum(hand):
            self._finish(seat)
        elif len(self.finish_order) != placed_before:
            self._check_end()  # a broken burner was placed last (R8.8, R9.11)
        if self.pending == P_OVER:
            return
        if play.nlj:  # R4.5 dead play, R7.8 扣
            d = (seat + 3) % SEATS
            if self.active[d] and not self.rules.round_auto_kou:
                self.pending = P_KOU
                self.to_act = d
                return
            if self.active[d]:
                self._event(d, "kou")
            self._round_end()
            return
        if self.s_protected:  # the table is told who may answer (R6.4, R6.5)
            if self.s_dead_level:
                self._event(seat, "gousiji")
            else:
                may = [q for q in self._ccw_from(seat + 1) if q != seat and self._eligible(q)]
                self._event(seat, "gouji " + " ".join(map(str, may)))
        if self.s_protected and self.rules.burn_enabled and not self.chaos:
            self._open_burn_window()
            return
        self._visit((seat + 1) % SEATS)

    def _finish(self, seat: int) -> None:
        """R9.2: an emptied hand takes the best free place; burn success (R8.7); R9.9."""
        place = self._free_places()[0]
        self._place(seat, place, "place")
        if place <= 2:
            self.round_finishers.append(seat)
        if self.burner == seat:
            if team(seat) != team(self.victim):
                self.burns.append((seat, self.victim))
            self._event(seat, "burn_success")
            self.burner = self.victim = -1
        if not self._check_end():
            self._headless(seat)

    def _headless(self, seat: int, how: str = "") -> None:
        """Tell the table that ``seat``'s 对头 is now 无头 (R9.8), with one 够死级 chance in
        this round when ``seat`` went out as 头科 or 二科 (R9.4, AMB-74); ``how`` says why
        ``seat`` left play when it did not go out (``men``, ``broken_burn``, ``punished``)."""
        d = (seat + 3) % SEATS
        if self.active[d]:
            self._event(d, f"wutou {how}" if how else "wutou")

    def _break_burn(self) -> None:
        """R8.8: the burner's play was beaten; with ``lowest_place`` it is placed last."""
        b = self.burner
        self.broken_burns.append((b, self.victim))
        self._event(b, "burn_broken")
        self.burner = self.victim = -1
        if self.rules.burn_broken_penalty == "lowest_place" and self.active[b]:
            self._force_place(b, "broken_burn")

    def _force_place(self, seat: int, how: str) -> None:
        """R9.11: out from the bottom, cards dead."""
        h = self.hands[seat]
        for r in range(NUM_RANKS):
            self.set_aside[r] += h[r]
        self.dead[seat] = sum(h)
        self.dead_hands[seat] = counts_text(h)
        self.hands[seat] = [0] * NUM_RANKS
        self._place(seat, self._free_places()[-1], how)
        self._headless(seat, how)

    # ------------------------------------------------------------------ sanctions (R19.4)
    def _punish(self, seat: int) -> None:
        """罚为大落 / 取消资格 in play: the seat leaves at once; R9.9 is tested; when it was
        the seat's decision, play moves on as after a forfeit (R19.1), and a claim it made or
        had to order passes on (R10.2)."""
        kind, turn, claim = self.pending, self.to_act == seat, self.claimant == seat
        self._leave(seat)
        if self._check_end():
            return
        if kind == P_ORDER and claim:  # the claim was a lead: it is void, the lead passes
            self._new_round(self._next_active(seat))
        elif kind == P_ORDER and turn:  # the claimant's next active teammate, or itself
            c = self.claimant
            self.to_act = next((q for q in ((c + 2) % SEATS, (c + 4) % SEATS) if self.active[q]), c)
        elif not turn:
            return
        elif kind == P_LEAD:
            self.must_lead_base = NO_BASE
            self._new_round(self._next_active(seat))
        elif kind == P_RESPOND:
            self._visit((seat + 1) % SEATS)
        elif kind in (P_RANG_RETURN, P_KOU):
            self._round_end()
        elif kind == P_OFFER:
            self._next_offer()

    def _leave(self, seat: int) -> None:
        """Out of play by sanction with the worst free place, cards dead (as R9.11). What
        was the seat's lapses: its burn (neither 烧成 nor 解烧), its claim, its burn offer and
        its cancelled turns. A revolutionary (punished before it revolted) gives up 四科."""
        self.punished.append(seat)
        self._cancels -= self.cancelled[seat]
        self.cancelled[seat] = 0
        if self.burner == seat:
            self.burner = self.victim = -1
        if self.claimant == seat:
            self._end_claim()
        if self.pending == P_OFFER and seat in self._ask:
            i = self._ask.index(seat)
            del self._ask[i], self._offers[i]
        if self.active[seat]:
            self._force_place(seat, "punished")
        else:
            self._places[seat] = None
            self._place(seat, self._free_places()[-1], "punished")
        self._legal = None

    def _run_cancellations(self) -> None:
        """R19.4 取消一次发牌权: a cancelled turn is forfeited as R19.1 forfeits it, one per
        cancellation, as soon as the seat could play cards."""
        while self._cancels and self.pending in _TURNS:
            seat = self.to_act
            assert seat is not None
            if not self.cancelled[seat]:
                return
            self.cancelled[seat] -= 1
            self._cancels -= 1
            self._forfeit("R19.4: turn cancelled")

    def _on_pass(self, seat: int) -> None:
        """R7.4 过牌 (in chaos only the current play is declined, R9.7)."""
        if self.pending == P_RANG_RETURN:
            self._round_end()
            return
        if not self.chaos:
            self.status[seat] = PASSED
        self._visit((seat + 1) % SEATS)

    def _visit(self, q: int) -> None:
        """R7.2: ask the next eligible seat ccw; back at the owner the round ends."""
        owner = self.owner
        while True:
            if q == owner:
                rb = self.rang_by
                if rb >= 0 and self.active[rb]:
                    self.pending = P_RANG_RETURN
                    self.to_act = rb
                    return
                self._round_end()
                return
            if self._eligible(q):
                if self.claimant == owner:
                    assert self.standing is not None
                    if next(responses(self.hands[q], self.standing, self._twos), None) is None:
                        self._event(q, "pass auto")  # R10.2: auto-pass during a claim
                        if not self.chaos:
                            self.status[q] = PASSED
                        q = (q + 1) % SEATS
                        continue
                self.pending = P_RESPOND
                self.to_act = q
                return
            q = (q + 1) % SEATS

    def _open_burn_window(self) -> None:
        """R8.2–R8.3: candidates in priority order, each with its feasible beating plays."""
        self._open_burn_window_quiet()
        self._next_offer()

    def _open_burn_window_quiet(self) -> None:
        o = self.owner
        s = self.standing
        assert s is not None
        if self.rules.burn_priority == "team_first":
            order = [(o + 2) % 6, (o + 4) % 6, (o + 1) % 6, (o + 5) % 6]
        else:
            order = [(o + 1) % 6, (o + 2) % 6, (o + 4) % 6, (o + 5) % 6]
        asks: list[int] = []
        offers: list[list[Play]] = []
        for b in order:
            plays = self._burn_plays(b, s)
            if plays:
                asks.append(b)
                offers.append(plays)
        self._ask = asks
        self._offers = offers

    def _burn_plays(self, b: int, s: Play) -> list[Play]:
        if not self.active[b] or self.status[b] != ACTIVE or self.head(b) != LIVE:
            return []
        if self.rules.burn_requires_opened and not self.opened[b]:
            return []
        hand = self.hands[b]
        twos, bie3 = self._twos, self._bie3
        out = [p for p in responses(hand, s, twos) if feasible(remove_play(hand, p), twos, bie3)]
        if self._four_rule and self._four_locked(b):  # R13.5: no 4 left after the burn play
            out = [p for p in out if p.base != R4 and hand[R4] == 0]
        return out

    def _next_offer(self) -> None:
        if self._ask:
            self.pending = P_OFFER
            self.to_act = self._ask[0]
        else:
            self._visit((self.owner + 1) % SEATS)

    def _deadline_closed(self, seat: int) -> bool:
        """R11.4: has the seat's 开点 deadline passed before this play?"""
        if self.no_open[seat]:
            return True  # R13.5 (d)
        dl = self.rules.dian_deadline
        touke = self._went_out_with(1)
        if dl == "touke":
            return touke >= 0
        if self._went_out_with(2) >= 0:
            return True
        return dl == "outline" and touke >= 0 and (touke + 3) % SEATS == seat

    def _went_out_with(self, place: int) -> int:
        """The seat that took ``place`` with its final play, or -1: a forced place or one
        given at game end makes no final play, so it closes no deadline (R11.4, R9.12 c)."""
        places = self._places
        if place not in places:
            return -1
        seat = places.index(place)
        return -1 if self.dead[seat] else seat

    def _round_end(self) -> None:
        """R7.5, R7.9 接风, R11.3 开点, R12.6 闷, R9.9, R9.6 chaos for the next round."""
        w = self.owner
        if self.claimant == w and not self.claim:
            self._end_claim()  # R10.2: the claim's last play stood
        if self.s_qualifies:
            self._open(w)
            self.s_qualifies = False
        leader = w if self.active[w] else self._next_active_or_none(w)
        self._event(w, "round_won")
        if leader is None:
            self._check_end()
            return
        if leader != w:
            self._event(leader, "jiefeng")
        if self._bie3 and self.rules.bie3_men == "strict":
            for i in range(1, SEATS):
                q = (leader + i) % SEATS
                h = self.hands[q]
                if self.active[q] and h[R3] and h[R3] == sum(h):
                    self.men.append(q)
                    self._force_place(q, "men")
        if self._check_end():
            return
        self._new_round(leader)

    def _open(self, w: int) -> None:
        """R11.3 (and R11.6 without 憋3: three successful 够死级 against a revolutionary)."""
        if (w + 3) % SEATS == self.revolutionary and not self._bie3:
            if self.s_dead_level:
                self.gsj_wins[w] += 1
                if self.gsj_wins[w] >= 3 and not self.opened[w]:
                    self.opened[w] = True
                    self._event(w, "opened")
            return
        if not self.opened[w]:
            self.opened[w] = True
            self._event(w, "opened")
            if self._four_rule:
                self.four_due[w] = True  # R13.5 (b)

    def _next_active_or_none(self, seat: int) -> int | None:
        for i in range(1, SEATS + 1):
            q = (seat + i) % SEATS
            if self.active[q]:
                return q
        return None

    def _check_end(self) -> bool:
        """R9.9 / R9.12 / R15.4: end the game when one player or one team remains."""
        if self.pending == P_OVER:
            return True
        remaining = [q for q in range(SEATS) if self.active[q]]
        if len(remaining) > 1 and len({team(q) for q in remaining}) > 1:
            return False
        if self.standing is not None and self.s_qualifies:
            self._open(self.owner)  # the interrupted round's standing play stands
        self._open_at_early_end(remaining)
        if len(remaining) == 1:  # R9.9 (a): placed holding cards, not gone out
            self._place(remaining[0], self._free_places()[0], "ended")
        elif remaining:
            self._place_remaining(remaining)
        self._revolutionary_third()
        top = {team(q) for q, p in enumerate(self._places) if p is not None and p <= 3}
        if len(top) == 1:
            self._event(-1, f"chuan {top.pop()}")  # R9.10 串三户
        self.pending = P_OVER
        self.to_act = None
        self._legal = None
        self.burner = self.victim = -1
        self._event(-1, "game_over")
        return True

    def _open_at_early_end(self, remaining: list[int]) -> None:
        """R11.5 (AMB-76): a player still holding cards whose 开点 deadline is still open when
        the game ends counts as opened: the early end takes no chance from it. A player left
        with only 3s under lenient 闷 is placed as 闷 (R9.12 b) and judged as usual."""
        if not self._dian:
            return
        for q in remaining:
            if self.opened[q] or self._deadline_closed(q) or self._lenient_men(q):
                continue
            self.opened[q] = True
            self._event(q, "opened_at_end")

    def _lenient_men(self, q: int) -> bool:
        """R9.12 (b): under lenient 闷 a hand of only 3s at game end is placed last."""
        h = self.hands[q]
        return self._bie3 and self.rules.bie3_men == "lenient" and 0 < h[R3] == sum(h)

    def _revolutionary_third(self) -> None:
        """R15.4 (AMB-75), tested after every place is given: when the revolutionary's two
        teammates hold 头科 and 二科 it becomes 三科, and whoever held 三科 (necessarily a
        forced place or one given at game end) moves to 四科; the other team is 串三户."""
        r = self.revolutionary
        if r is None or r in self.punished:  # a punished revolutionary holds no 四科 (R19.4)
            return
        if {self._places[(r + 2) % SEATS], self._places[(r + 4) % SEATS]} != {1, 2}:
            return
        third = self._places.index(3)
        self._places[third] = 4
        self._places[r] = 3
        self._event(r, "place 3")
        self._event(third, "moved 4")

    def _place_remaining(self, remaining: list[int]) -> None:
        """R9.9 (b) ``fewest_cards``; R9.12 (b) lenient 闷: 3-only hands rank last."""
        last = self.finish_order[-1] if self.finish_order else self.starter
        ccw = {(last + i) % SEATS: i for i in range(1, SEATS + 1)}

        def key(q: int) -> tuple[int, int, int]:
            return (int(self._lenient_men(q)), sum(self.hands[q]), ccw[q])

        for q in sorted(remaining, key=key):
            self._place(q, self._free_places()[0], "ended")

    # ------------------------------------------------------------------ 挑牌 (R10.2)
    def _tiao_allowed(self, seat: int) -> bool:
        """R10.2: a leader may claim where 挑牌 is played, except while the Laiwu 4s lock
        keeps it from leading the 4s it holds (R13.5 a): that claim could never be played."""
        if not self.rules.info_tiao:
            return False
        return not (self._four_rule and self.hands[seat][R4] and self._four_locked(seat))

    def _claim_hand(self, seat: int) -> None:
        """R10.2 (1): the claim exposes the hand; the first active teammate ccw (the
        claimant itself when none is active) fixes the order ("由本方其他持牌人确定发牌顺序")."""
        self.claimant = seat
        self._event(seat, TIAO)
        self.pending = P_ORDER
        self.to_act = next(
            (q for q in ((seat + 2) % SEATS, (seat + 4) % SEATS) if self.active[q]), seat
        )

    def _order_problem(self, action: Action) -> str:
        """Why ``action`` is not a valid order of the claimed hand now ('' when it is)."""
        if self.pending != P_ORDER:
            return "R10.2: an order follows a claim ('tiao'), given by the claimant's teammate"
        seat = self.claimant
        hand = self.hands[seat][:]
        total = [0] * NUM_RANKS
        for p in action.claim:
            for r, n in enumerate(p.counts()):
                total[r] += n
        if total != hand:
            return "R10.2: the order names every card of the claimed hand exactly once"
        if action.claim[0] not in self._leads(seat):
            return "R10.2: the first play of the order must be a legal lead now"
        burning = self.burner == seat
        locked = self._four_rule and self._four_locked(seat)
        for p in action.claim:
            why = is_composition_legal(p, hand, self._twos, self._bie3)
            if why:
                return f"R10.2: {p.text}: {why}"
            if burning and not (p.has_joker or p.size == sum(hand)):
                return f"R8.6: burn lead {p.text} must carry a joker"
            if locked and p.base == R4:
                return f"R13.5: {p.text}: no 4s may be led before 开壶"
            hand = remove_play(hand, p)
            if burning and not feasible(hand, self._twos, self._bie3):
                return f"R8.6: burn lead {p.text} leaves cards that cannot be led out"
        return ""

    def _canonical_order(self) -> tuple[Play, ...]:
        """The order ``legal_actions`` lists: a play per rank, low to high (a rank the first
        lead must have first: R3.8, R13.5 b), 2s on the last play where they attach, one
        joker on every play but the last while jokers last (R8.6), the rest on the last."""
        hand = self.hands[self.claimant]
        first = self.must_lead_base
        if self._four_rule and self.four_due[self.claimant] and hand[R4]:
            first = R4
        groups = [[r, hand[r], 0, 0, 0] for r in range(R3, R2) if hand[r]]
        groups.sort(key=lambda g: g[0] != first)
        if hand[R2]:
            if self._twos and groups:
                groups[-1][2] = hand[R2]
            else:
                groups.append([NO_BASE, 0, hand[R2], 0, 0])
        if not groups:
            return (Play.of(NO_BASE, 0, 0, hand[SJ], hand[LJ]),)
        jokers = [3] * hand[SJ] + [4] * hand[LJ]  # index of the SJ / LJ count in a group
        for g in groups[:-1]:
            if jokers:
                g[jokers.pop(0)] += 1
        for j in jokers:
            groups[-1][j] += 1
        return tuple(Play.of(*g) for g in groups)

    def _start_claim(self, action: Action) -> None:
        """R10.2 (2): the order is given; the claimant leads its plays one by one."""
        assert self.to_act is not None
        self._event(self.to_act, action.text)
        self.claim = list(action.claim)
        self.pending = P_LEAD
        self.to_act = self.claimant
        self._claim_next_lead()

    def _claim_next_lead(self) -> None:
        seat = self.claimant
        play = self.claim.pop(0)
        self._legal = None
        self._event(seat, f"play {play.text}")
        self._on_play(seat, play, burn=False)

    def _end_claim(self) -> None:
        self.claimant = -1
        self.claim = []

    # ------------------------------------------------------------------ errors
    def _forfeit(self, why: str) -> None:
        """R19.1 ``forfeit_turn``: the illegal action counts as the decline (AMB-71)."""
        seat = self.to_act
        assert seat is not None
        self.forfeits += 1
        self._event(seat, f"forfeit ({why})")
        kind = self.pending
        self._legal = None
        if kind in (P_RESPOND, P_RANG_RETURN):
            self._on_pass(seat)
        elif kind == P_KOU:
            self._round_end()
        elif kind == P_LEAD:
            self.must_lead_base = NO_BASE
            if self.burner == seat:
                self._break_burn()
                if self._check_end():
                    return
            self._new_round(self._next_active(seat))
        elif kind == P_OFFER:
            self._ask.pop(0)
            self._offers.pop(0)
            self._next_offer()
        elif kind in (P_HUAN, P_HUAN_CHECK):  # the R19.2 defaults: lowest card / accept
            self._dispatch_setup(seat, self.legal_actions()[0])
        elif kind == P_ORDER:  # the claim stands (the hand is shown): the listed order
            self._start_claim(self.legal_actions()[0])
        else:
            decline = {
                P_YUDIAN: NOYUDIAN,
                P_MINGDIAN: NOMINGDIAN,
                P_GEMING: NOGEMING,
                P_RENOUNCE: KEEP,
                P_HUI: NOHUI,
                P_HUI5: NOHUI,
            }[kind]
            self._dispatch_setup(seat, Action.word(decline))

    def _not_your_turn(self, seat: int) -> str:
        """Why ``seat`` may not act now, without revealing a private decision's seat."""
        who = f"P{seat}"
        if not 0 <= seat < SEATS:
            return f"R0.2: seats are 0…5, not {seat}"
        if not self.active[seat]:
            return f"R1.7: {who} has no cards in play"
        if self.pending in PRIVATE_PENDING:
            return f"R1.5: it is not {who}'s turn"
        if self.pending in (P_RESPOND, P_RANG_RETURN) and self.standing is not None:
            o = self.owner
            if seat == o:
                return f"R7.5: {who} owns the standing play; it waits for the others"
            if self.s_dead_level:
                return f"R6.5: P{o}'s 够死级 play can only be burned, not answered"
            if self.s_protected and not self._eligible(seat):
                return (
                    f"R6.4: only P{duitou(o)} (对头), an active 无头 player or a burner may "
                    f"answer P{o}'s protected 够级 play"
                )
            if not self._eligible(seat):
                return f"R7.4: {who} passed in this round and P{o} is not its 对头"
        return f"R1.5: it is P{self.to_act}'s turn, not {who}'s (不得越、抢)"

    def _explain(self, action: Action) -> Reason:
        """Why the action is illegal now, naming the rule."""
        kind, seat = self.pending, self.to_act
        assert seat is not None
        k = action.kind
        if kind == P_LEAD:
            if k == TIAO:
                if not self.rules.info_tiao:
                    return reason(
                        "R10.2",
                        "tiao_off",
                        "挑牌 is not played in these rules (info.tiao is false)",
                    )
                return reason(
                    "R13.5", "tiao_four_lock", "no claim while the 4s may not be led (before 开壶)"
                )
            if k != PLAY:
                return reason(
                    "R4.1",
                    "lead_not_pass",
                    f"P{seat} must lead a play ('{k}' is not a lead; a lead cannot be passed)",
                    word=k,
                )
            return self._explain_play(seat, action, lead=True)
        if kind in (P_RESPOND, P_RANG_RETURN):
            if k == RANG:
                if kind == P_RANG_RETURN:
                    return reason(
                        "R7.6",
                        "rang_returned",
                        "after 让牌 the turn returns once; now play or pass",
                    )
                return reason(
                    "R7.6",
                    "rang_not_available",
                    "让牌 is only for the 对头 of the standing play's owner, on a play that is "
                    "not protected 够级, once, with a 下家 able to answer",
                )
            if k == PLAY:
                return self._explain_play(seat, action, lead=False)
            return reason(
                "R7.2",
                "respond_words",
                f"P{seat} must play a beating play, pass or (where allowed) rang, not '{k}'",
                word=k,
            )
        if kind == P_OFFER:
            if k in (BURN, PLAY):
                cards = action.text.split(None, 1)[-1]
                return reason(
                    "R8.2/R8.5",
                    "burn_not_possible",
                    f"{cards} is not a burn P{seat} can make: it must beat the standing play and "
                    "leave cards that can be led out",
                    cards=cards,
                )
            return reason(
                "R8.3",
                "burn_offer_words",
                f"P{seat} is offered a burn: answer 'burn <cards>' or 'noburn'",
            )
        if kind == P_KOU:
            return reason(
                "R7.8", "kou_only", f"P{seat} must 扣 the dead play ('kou') — its only legal action"
            )
        if kind == P_ORDER:
            return reason(
                "R10.2",
                "order_words",
                f"P{seat} fixes the order of P{self.claimant}'s claim: "
                "'order <cards> | <cards> …', every claimed card once",
            )
        legal = ", ".join(a.text for a in self.legal_actions())
        return reason(
            "R18", "decide_phase", f"P{seat} decides {kind} now; legal: {legal}", phase=kind
        )

    def _explain_play(self, seat: int, action: Action, lead: bool) -> Reason:
        play = action.play
        assert play is not None
        hand = self.hands[seat]
        why = is_composition_legal(play, hand, self._twos, self._bie3)
        if why:
            return from_message(why)
        if self._four_rule and play.base == R4 and self._four_locked(seat):
            return reason(
                "R13.5 (a)", "four_locked", "no 4 may be played before 开壶 while there is no 头科"
            )
        if lead:
            if self.burner == seat:
                if not (play.has_joker or play.size == sum(hand)):
                    return reason(
                        "R8.6",
                        "burn_lead_joker",
                        "a burn lead must carry a joker unless it empties the hand",
                    )
                return reason(
                    "R8.6",
                    "burn_lead_feasible",
                    "a burn lead must leave cards that can still be led out (R8.5)",
                )
            if self.must_lead_base != NO_BASE:
                return reason(
                    "R3.8",
                    "liang4_first_lead",
                    "the 亮4 starter's first lead must have base rank 4",
                )
            if self._four_rule and self.four_due[seat] and hand[R4]:
                return reason("R13.5 (b)", "four_due", "after 开壶 the next lead is the 4s")
            return reason("R4", "not_a_lead", "not a legal lead")
        s = self.standing
        assert s is not None
        if not play.beats(s):
            if play.size != s.size:
                return reason(
                    "R5.1",
                    "same_size",
                    f"a response has the same number of cards as {s.text}",
                    standing=s.text,
                    size=s.size,
                )
            if s.nlj:
                return reason("R4.5", "dead_play", "a play with a big joker cannot be beaten")
            if play.eff <= s.eff:
                return reason(
                    "R5.1",
                    "not_higher",
                    f"{play.text} is not higher than {s.text} (步步高)",
                    play=play.text,
                    standing=s.text,
                )
            return reason(
                "R5.1",
                "needs_lj",
                f"{s.text} carries {s.nsj} SJ; the answer needs as many LJ",
                standing=s.text,
                count=s.nsj,
            )
        return reason("R5", "not_a_response", "not a legal response")

    def check(self, action: Action | str) -> Reason | None:
        """Why ``action`` would be refused now, or None when ``apply`` would take it. Changes
        nothing: front ends use it to say why a selection cannot be played."""
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except IllegalAction as e:
                return from_message(str(e), "malformed")
        if self.pending == P_OVER:
            return reason("R9.9", "game_over", "the game is over")
        if action.kind == ORDER:
            why = self._order_problem(action)
            return from_message(why) if why else None
        if action in self.legal_actions():
            return None
        return self._explain(action)


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
    "s_protected",
    "s_dead_level",
    "s_qualifies",
    "status",
    "rang_by",
    "round_finishers",
    "gsj_used",
    "gsj_wins",
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
    "_gmin",
    "_gouji_cache",
    "_legal",
    "_offered",
    "_offers",
    "_returns",
    "_twos",
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
    "s_dead_level",
    "s_protected",
    "s_qualifies",
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
    "_geming",
    "status",
    "round_finishers",
    "gsj_used",
    "gsj_wins",
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
