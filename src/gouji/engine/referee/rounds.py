"""Rounds and plays (R7): a new round, a play that stands (R4.9) and what follows it (dead
plays and 扣 R7.8, the burn window R8, the next seat to answer R7.2), passes, and the round's end
(R7.5, 接风 R7.9, 开点 R11.3, 闷 R12.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gouji.engine.cards import (
    LJ,
    R2,
    R3,
    SJ,
)
from gouji.engine.plays import (
    NO_BASE,
    Play,
    responses,
)
from gouji.engine.referee import (
    burning,
    claims,
    common,
    legal,
    places,
)
from gouji.engine.referee.common import (
    ACTIVE,
    DEAD_LEVEL,
    NO_HEAD,
    P_KOU,
    P_LEAD,
    P_OVER,
    P_RANG_RETURN,
    P_RESPOND,
    PASSED,
    SEATS,
)

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


def new_round(g: Game, leader: int) -> None:
    """R7.1: fresh statuses; the leader must lead."""
    g.round_no += 1
    g.standing = None
    g.owner = leader
    g.status = [ACTIVE] * SEATS
    g.rang_by = -1
    g.round_finishers = []
    g.dead_level_used = [False] * SEATS
    g.standing_protected = g.standing_dead_level = g.standing_qualifies = False
    g.round_plays = []
    was = g.chaos
    g.chaos = places.both_top_placed(g)
    if g.chaos and not was:
        common.log_public(g, -1, "chaos")  # R9.6 四人乱缠 from this round on
    g.pending = P_LEAD
    g.to_act = leader
    g._legal = None
    if g._four_rule and legal.four_locked(g, leader) and not legal.lead_plays(g, leader):
        g.four_free[leader] = True  # R13.5 (d): the stuck lead lifts the lock …
        g.no_open[leader] = True  # … and the seat can no longer 开壶
        common.log_public(g, leader, "four_unlocked")
    if g.claimant == leader and g.claim:
        claims.next_lead(g)


def on_play(g: Game, seat: int, play: Play, burn: bool) -> None:
    """A play stands (R4.9): burn bookkeeping, places, then dead / burn window / answers."""
    hand = g.hands[seat]
    if play.base != NO_BASE:
        hand[play.base] -= play.nbase
        g.played[play.base] += play.nbase
    if play.n2:
        hand[R2] -= play.n2
        g.played[R2] += play.n2
    if play.nsj:
        hand[SJ] -= play.nsj
        g.played[SJ] += play.nsj
    if play.nlj:
        hand[LJ] -= play.nlj
        g.played[LJ] += play.nlj
    prev_owner = g.owner if g.standing is not None else -1
    placed_before = len(g.finish_order)
    if prev_owner < 0:
        g.four_due[seat] = False  # R13.5 (b) holds for one lead
    g.round_plays.append((seat, play.text))
    g.must_lead_base = NO_BASE
    if prev_owner >= 0 and prev_owner != seat:
        if g.burner == prev_owner:
            burning.break_burn(g)  # R8.8
        if g.claimant == prev_owner:
            claims.end_claim(g)
    if burn:
        g.burner, g.victim = seat, prev_owner
        common.log_public(g, seat, f"burning {prev_owner}")
    if g.rang_by >= 0:
        if g.rang_by != seat:
            lock = g.rules.round_rang == "lock_on_beat"
            g.status[g.rang_by] = PASSED if lock else ACTIVE
        else:
            g.status[seat] = ACTIVE
        g.rang_by = -1
    g.standing = play
    g.owner = seat
    if g.chaos:
        g.status = [ACTIVE] * SEATS
    gouji = g.is_gouji(play)
    head = g.head(seat)
    g.standing_protected = gouji and not g.chaos and head != NO_HEAD
    g.standing_dead_level = g.standing_protected and head == DEAD_LEVEL
    if g.standing_dead_level:  # R9.5: uses one 够死级 chance
        if (seat + 3) % SEATS == g.revolutionary:
            g.rev_chances_used[seat] += 1
        else:
            g.dead_level_used[seat] = True
    g.standing_qualifies = (
        g._dian
        and gouji
        and not g.chaos
        and places.qualifies(play, g.rules.dian_qualifier)
        and not places.deadline_closed(g, seat)
    )
    if not sum(hand):
        places.go_out(g, seat)
    elif len(g.finish_order) != placed_before:
        places.check_end(g)  # a broken burner was placed last (R8.8, R9.11)
    if g.pending == P_OVER:
        return
    if play.nlj:  # R4.5 dead play, R7.8 扣
        d = (seat + 3) % SEATS
        if g.active[d] and not g.rules.round_auto_kou:
            g.pending = P_KOU
            g.to_act = d
            return
        if g.active[d]:
            common.log_public(g, d, "kou")
        round_end(g)
        return
    if g.standing_protected:  # the table is told who may answer (R6.4, R6.5)
        if g.standing_dead_level:
            common.log_public(g, seat, "gousiji")
        else:
            may = [q for q in common.ccw_from(seat + 1) if q != seat and legal.eligible(g, q)]
            common.log_public(g, seat, "gouji " + " ".join(map(str, may)))
    if g.standing_protected and g.rules.burn_enabled and not g.chaos:
        burning.open_window(g)
        return
    visit(g, (seat + 1) % SEATS)


def on_pass(g: Game, seat: int) -> None:
    """R7.4 过牌 (in chaos only the current play is declined, R9.7)."""
    if g.pending == P_RANG_RETURN:
        round_end(g)
        return
    if not g.chaos:
        g.status[seat] = PASSED
    visit(g, (seat + 1) % SEATS)


def visit(g: Game, q: int) -> None:
    """R7.2: ask the next eligible seat ccw; back at the owner the round ends."""
    owner = g.owner
    while True:
        if q == owner:
            rb = g.rang_by
            if rb >= 0 and g.active[rb]:
                g.pending = P_RANG_RETURN
                g.to_act = rb
                return
            round_end(g)
            return
        if legal.eligible(g, q):
            if g.claimant == owner:
                assert g.standing is not None
                if next(responses(g.hands[q], g.standing, g._twos_attach), None) is None:
                    common.log_public(g, q, "pass auto")  # R10.2: auto-pass during a claim
                    if not g.chaos:
                        g.status[q] = PASSED
                    q = (q + 1) % SEATS
                    continue
            g.pending = P_RESPOND
            g.to_act = q
            return
        q = (q + 1) % SEATS


def round_end(g: Game) -> None:
    """R7.5, R7.9 接风, R11.3 开点, R12.6 闷, R9.9, R9.6 chaos for the next round."""
    w = g.owner
    if g.claimant == w and not g.claim:
        claims.end_claim(g)  # R10.2: the claim's last play stood
    if g.standing_qualifies:
        places.open_dian(g, w)
        g.standing_qualifies = False
    leader = w if g.active[w] else common.next_active_or_none(g, w)
    common.log_public(g, w, "round_won")
    if leader is None:
        places.check_end(g)
        return
    if leader != w:
        common.log_public(g, leader, "jiefeng")
    if g._bie3 and g.rules.bie3_men == "strict":
        for i in range(1, SEATS):
            q = (leader + i) % SEATS
            h = g.hands[q]
            if g.active[q] and h[R3] and h[R3] == sum(h):
                g.men.append(q)
                places.force_place(g, q, "men")
    if places.check_end(g):
        return
    new_round(g, leader)
