"""挑牌 (R10.2): a leader claims the rest of its hand, a teammate fixes the order of the
plays, and the claimant leads them one by one while the others may still answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gouji.engine.actions import (
    TIAO,
    Action,
)
from gouji.engine.cards import (
    LJ,
    NUM_RANKS,
    R2,
    R3,
    R4,
    SJ,
)
from gouji.engine.plays import (
    NO_BASE,
    Play,
    feasible,
    is_composition_legal,
)
from gouji.engine.plays import remove as remove_play
from gouji.engine.referee import (
    common,
    legal,
    rounds,
)
from gouji.engine.referee.common import (
    P_LEAD,
    P_ORDER,
    SEATS,
)

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


def tiao_allowed(g: Game, seat: int) -> bool:
    """R10.2: a leader may claim where 挑牌 is played, except while the Laiwu 4s lock
    keeps it from leading the 4s it holds (R13.5 a): that claim could never be played."""
    if not g.rules.info_tiao:
        return False
    return not (g._four_rule and g.hands[seat][R4] and legal.four_locked(g, seat))


def claim_hand(g: Game, seat: int) -> None:
    """R10.2 (1): the claim exposes the hand; the first active teammate ccw (the
    claimant itself when none is active) fixes the order ("由本方其他持牌人确定发牌顺序")."""
    g.claimant = seat
    common.log_public(g, seat, TIAO)
    g.pending = P_ORDER
    g.to_act = next((q for q in ((seat + 2) % SEATS, (seat + 4) % SEATS) if g.active[q]), seat)


def order_problem(g: Game, action: Action) -> str:
    """Why ``action`` is not a valid order of the claimed hand now ('' when it is)."""
    if g.pending != P_ORDER:
        return "R10.2: an order follows a claim ('tiao'), given by the claimant's teammate"
    seat = g.claimant
    hand = g.hands[seat][:]
    total = [0] * NUM_RANKS
    for p in action.claim:
        for r, n in enumerate(p.counts()):
            total[r] += n
    if total != hand:
        return "R10.2: the order names every card of the claimed hand exactly once"
    if action.claim[0] not in legal.lead_plays(g, seat):
        return "R10.2: the first play of the order must be a legal lead now"
    burning = g.burner == seat
    locked = g._four_rule and legal.four_locked(g, seat)
    for p in action.claim:
        why = is_composition_legal(p, hand, g._twos_attach, g._bie3)
        if why:
            return f"R10.2: {p.text}: {why}"
        if burning and not (p.has_joker or p.size == sum(hand)):
            return f"R8.6: burn lead {p.text} must carry a joker"
        if locked and p.base == R4:
            return f"R13.5: {p.text}: no 4s may be led before 开壶"
        hand = remove_play(hand, p)
        if burning and not feasible(hand, g._twos_attach, g._bie3):
            return f"R8.6: burn lead {p.text} leaves cards that cannot be led out"
    return ""


def canonical_order(g: Game) -> tuple[Play, ...]:
    """The order ``legal_actions`` lists: a play per rank, low to high (a rank the first
    lead must have first: R3.8, R13.5 b), 2s on the last play where they attach, one
    joker on every play but the last while jokers last (R8.6), the rest on the last."""
    hand = g.hands[g.claimant]
    first = g.must_lead_base
    if g._four_rule and g.four_due[g.claimant] and hand[R4]:
        first = R4
    groups = [[r, hand[r], 0, 0, 0] for r in range(R3, R2) if hand[r]]
    groups.sort(key=lambda group: group[0] != first)
    if hand[R2]:
        if g._twos_attach and groups:
            groups[-1][2] = hand[R2]
        else:
            groups.append([NO_BASE, 0, hand[R2], 0, 0])
    if not groups:
        return (Play.of(NO_BASE, 0, 0, hand[SJ], hand[LJ]),)
    jokers = [3] * hand[SJ] + [4] * hand[LJ]  # index of the SJ / LJ count in a group
    for group in groups[:-1]:
        if jokers:
            group[jokers.pop(0)] += 1
    for j in jokers:
        groups[-1][j] += 1
    return tuple(Play.of(*group) for group in groups)


def start_claim(g: Game, action: Action) -> None:
    """R10.2 (2): the order is given; the claimant leads its plays one by one."""
    assert g.to_act is not None
    common.log_public(g, g.to_act, action.text)
    g.claim = list(action.claim)
    g.pending = P_LEAD
    g.to_act = g.claimant
    next_lead(g)


def next_lead(g: Game) -> None:
    """R10.2 (2): the claimant leads the next play of its claim."""
    seat = g.claimant
    play = g.claim.pop(0)
    g._legal = None
    common.log_public(g, seat, f"play {play.text}")
    rounds.on_play(g, seat, play, burn=False)


def end_claim(g: Game) -> None:
    """The claim is over: played out, beaten, or its claimant out of play (R10.2)."""
    g.claimant = -1
    g.claim = []
