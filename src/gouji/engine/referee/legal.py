"""The legal actions of the seat to act (``Game.legal_actions``): the leads (R4, R3.8, R8.6,
R13.5), the answers to the standing play (R5, R7), who may answer it (R6.4, R6.5, R9.7, R9.8)
and the pre-play choices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from gouji.engine.actions import (
    ACCEPT,
    GEMING,
    HUAN,
    KEEP,
    KOU,
    MINGDIAN,
    NOBURN,
    NOGEMING,
    NOHUI,
    NOMINGDIAN,
    NOYUDIAN,
    PASS,
    RANG,
    REFUSE,
    RENOUNCE,
    TIAO,
    YUDIAN,
    Action,
)
from gouji.engine.cards import (
    NUM_RANKS,
    R4,
)
from gouji.engine.plays import (
    NO_BASE,
    Play,
    feasible,
    leads,
    responses,
)
from gouji.engine.plays import remove as remove_play
from gouji.engine.referee import claims
from gouji.engine.referee.common import (
    ACTIVE,
    DEAD_LEVEL,
    NO_HEAD,
    P_GEMING,
    P_HUAN,
    P_HUAN_CHECK,
    P_HUI,
    P_HUI5,
    P_KOU,
    P_LEAD,
    P_MINGDIAN,
    P_OFFER,
    P_ORDER,
    P_RANG_RETURN,
    P_RENOUNCE,
    P_RESPOND,
    P_YUDIAN,
    RANGED,
    SEATS,
)

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


_PASS: Final = Action.word(PASS)
_RANG: Final = Action.word(RANG)
_NOBURN: Final = Action.word(NOBURN)
_KOU: Final = Action.word(KOU)
_TIAO: Final = Action.word(TIAO)


def compute_legal(g: Game) -> list[Action]:
    """Every legal action of ``to_act`` in the pending decision (``Game.legal_actions``)."""
    kind = g.pending
    seat = g.to_act
    if seat is None:
        return []
    if kind == P_LEAD:
        out = [Action.of_play(p) for p in lead_plays(g, seat)]
        if claims.tiao_allowed(g, seat):
            out.append(_TIAO)
        return out
    if kind == P_ORDER:
        return [Action.of_claim(claims.canonical_order(g))]
    if kind in (P_RESPOND, P_RANG_RETURN):
        assert g.standing is not None
        out = [_PASS]
        if kind == P_RESPOND and rang_available(g, seat):
            out.append(_RANG)
        hand = g.hands[seat]
        locked = g._four_rule and four_locked(g, seat)
        for p in responses(hand, g.standing, g._twos_attach):
            if not (locked and p.base == R4):
                out.append(Action.of_play(p))
        return out
    if kind == P_OFFER:
        return [*(Action.burn(p) for p in g._offers[0]), _NOBURN]
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
        opts = g.rules.hui_options
        choices = ["3"] if tuple(opts) == ("3",) else ["3", "4", "3 4"]
        return [*(Action.of_hui(c) for c in choices), Action.word(NOHUI)]
    if kind == P_HUI5:
        return [Action.of_hui("5"), Action.word(NOHUI)]
    if kind == P_HUAN:
        hand = g.hands[seat]
        return [
            Action.of_play(Play.of_card(r), HUAN)
            for r in range(NUM_RANKS)
            if hand[r] and r not in g._refused
        ]
    if kind == P_HUAN_CHECK:
        return [Action.word(ACCEPT), Action.word(REFUSE)]
    return []


def lead_plays(g: Game, seat: int) -> list[Play]:
    """R4, R4.7, R8.6 (burn leads), R3.8 (亮4 first lead)."""
    hand = g.hands[seat]
    out = list(leads(hand, g._twos_attach, g._bie3))
    if g.burner == seat:
        total = sum(hand)
        twos, bie3 = g._twos_attach, g._bie3
        out = [
            p
            for p in out
            if (p.has_joker or p.size == total) and feasible(remove_play(hand, p), twos, bie3)
        ]
    if g.must_lead_base != NO_BASE:
        fours = [p for p in out if p.base == g.must_lead_base]
        if fours:
            out = fours
    if g._four_rule:
        if four_locked(g, seat):  # R13.5 (a)
            out = [p for p in out if p.base != R4]
        elif g.four_due[seat] and hand[R4]:  # R13.5 (b)
            every = g.rules.laiwu_four_lead_all
            fours = [p for p in out if p.base == R4 and (not every or p.nbase == hand[R4])]
            if fours:
                out = fours
    return out


def four_locked(g: Game, seat: int) -> bool:
    """R13.5 (a): no 4s before 开壶 while there is no 头科 (unless (d) lifted the lock)."""
    return g._four_rule and not g.opened[seat] and not g.four_free[seat] and 1 not in g._places


def rang_available(g: Game, seat: int) -> bool:
    """R7.6: the 对头 of the owner, on an unprotected play, once, with a 下家 eligible."""
    if g.chaos or g.standing_protected or seat != (g.owner + 3) % SEATS:
        return False
    if g.status[seat] == RANGED:
        return False
    return eligible(g, (seat + 1) % SEATS) or eligible(g, (seat + 2) % SEATS)


def eligible(g: Game, q: int) -> bool:
    """R7.3 / R6.4 / R6.5 / R9.7: may ``q`` answer the standing play in its turn?"""
    if not g.active[q] or q == g.owner:
        return False
    if g.chaos:
        return True
    if g.standing_dead_level:
        return False
    if g.standing_protected:
        return q == (g.owner + 3) % SEATS or (g.status[q] == ACTIVE and wutou_rights(g, q))
    return g.status[q] == ACTIVE or q == (g.owner + 3) % SEATS


def wutou_rights(g: Game, q: int) -> bool:
    """R9.8 (b): may ``q`` answer protected 够级 plays as a 无头 player? Also in the round
    its 对头 became 头科 or 二科, beside its 够死级 chance (R9.4, AMB-74)."""
    head = g.head(q)
    return head == NO_HEAD or (head == DEAD_LEVEL and (q + 3) % SEATS in g.round_finishers)
