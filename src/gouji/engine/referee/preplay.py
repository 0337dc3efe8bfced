"""The pre-play phases of R18 (steps 1–9): 预点 and the opening, the deal, 革命 (R15), tribute
and its returns (R16.7 还贡), 买3 / 买4 (R12.3, R13.3), 会3/会4 (R14) and 会5 (R13.8), 明点
(R11.8), up to the first lead.

A phase asks its seats one by one (``begin_ask`` / ``next_ask``); ``after_ask`` moves on to
the next phase when the last has answered. ``decide`` applies a pre-play decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gouji.engine import deal as dealing
from gouji.engine.actions import (
    ACCEPT,
    GEMING,
    HUAN,
    HUI,
    MINGDIAN,
    NOGEMING,
    REFUSE,
    RENOUNCE,
    YUDIAN,
    Action,
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
    counts_text,
)
from gouji.engine.plays import NO_BASE
from gouji.engine.referee import common, places, rounds, sanctions
from gouji.engine.referee.common import (
    P_GEMING,
    P_HUAN,
    P_HUAN_CHECK,
    P_HUI,
    P_HUI5,
    P_MINGDIAN,
    P_RENOUNCE,
    P_YUDIAN,
    SEATS,
    duitou,
)
from gouji.engine.tribute import tribute_cards

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


def begin_ask(g: Game, kind: str, seats: list[int]) -> None:
    """Start a pre-play phase that asks ``seats`` in turn (none: it ends at once)."""
    g.pending = kind
    g._ask = seats
    g.to_act = seats[0] if seats else None
    if not seats:
        after_ask(g, kind)


def next_ask(g: Game) -> None:
    """The current seat has answered: ask the next, or end the phase."""
    g._ask.pop(0)
    if g._ask:
        g.to_act = g._ask[0]
    else:
        after_ask(g, g.pending)


def after_ask(g: Game, kind: str) -> None:
    """The phase ``kind`` has asked every seat: on to the next phase of R18."""
    if kind == P_YUDIAN:
        open_and_deal(g)
    elif kind == P_GEMING:
        resolve_revolution(g)
    elif kind == P_RENOUNCE:
        after_revolution(g)
    elif kind == P_HUI:
        begin_hui5(g)
    elif kind == P_HUI5:
        begin_mingdian(g)
    elif kind == P_MINGDIAN:
        begin_play(g)


def open_and_deal(g: Game) -> None:
    """R18 steps 2–3: the opening fixes the first taker (R3.1, R3.2), then the deal."""
    given = g.start["first_taker"]
    if given is None:
        r = g.rules
        od = dealing.draw_opening(g.rng, g.opener, r.open_joker_draw, r.deck_remove)
        for seat, rank in od.draws:
            common.log_public(g, seat, f"opening_draw {RANKS[rank]}")
        g.first_taker = od.first_taker
    else:
        g.first_taker = given
    common.log_public(g, g.first_taker, "first_taker")
    deal_and_continue(g)


def deal_and_continue(g: Game) -> None:
    """R18 steps 3–4: the simulated draw, the starter, then revolution offers."""
    given = g.start.get("deck") if g.redeals == 0 else None
    if given is not None:
        d = dealing.draw([(c[0], c[1]) for c in given], g.first_taker)
    else:
        d = dealing.deal(g.rng, g.first_taker, g.rules.deck_remove)
    g.hands = [list(h) for h in d.hands]
    g.set_aside = [0] * NUM_RANKS
    rules = g.rules
    starter = g.first_taker
    if g._first_game and rules.open_first_start == "liang3" and d.liang3 is not None:
        starter = d.liang3[0]
        common.log_public(g, starter, f"liang3 {d.liang3[1]} {'SHDC'[d.liang3[2]]}")
    elif g._first_game and rules.open_first_start == "liang4" and d.liang4 is not None:
        starter = d.liang4[0]
        g.must_lead_base = R4
        common.log_public(g, starter, f"liang4 {d.liang4[1]}")
    g.starter = starter
    common.log_public(g, starter, "starter")
    mode = rules.rev_mode
    eligible: list[int] = []
    if mode != "off":
        for seat in common.ccw_from(starter):
            h = g.hands[seat]
            if h[R2] or h[SJ] or h[LJ]:
                continue
            if mode == "bie3_only" and h[R3]:
                continue
            eligible.append(seat)
    g._revolutions = []
    begin_ask(g, P_GEMING, eligible)


def resolve_revolution(g: Game) -> None:
    """R15.3: two or more revolutions void the game; one sets the hand aside (R15.2)."""
    if len(g._revolutions) >= 2:
        g.redeals += 1
        common.log_public(g, -1, "void_redeal")
        g.must_lead_base = NO_BASE
        deal_and_continue(g)
        return
    if g._revolutions:
        r = g._revolutions[0]
        g.revolutionary = r
        g.set_aside = g.hands[r][:]
        g.dead[r] = sum(g.hands[r])
        g.dead_hands[r] = counts_text(g.hands[r])
        g.hands[r] = [0] * NUM_RANKS
        g._places[r] = 4
        g.active[r] = False
        if g._dian and g._bie3:
            g.opened[r] = True  # R11.6 under 憋3: counts as opened
        if g.starter == r:
            g.starter = common.next_active(g, r)
            g.must_lead_base = NO_BASE  # the 亮4 duty was the revolutionary's
            common.log_public(g, g.starter, "starter")
        if g.rules.rev_gousiji > 0 and g.active[duitou(r)]:
            begin_ask(g, P_RENOUNCE, [duitou(r)])
            return
    after_revolution(g)


def after_revolution(g: Game) -> None:
    """R18 step 5: tribute in the configured order (R16.4), then the returns (R16.7)."""
    for p in g.tribute:
        if g.revolutionary in (p.payer, p.receiver):  # R15.2, R16.9
            common.log_public(g, p.payer, f"tribute {p.kind} {p.payer}>{p.receiver} skipped")
            continue
        ranks = tribute_cards(g.hands[p.payer], p.cards, g.rules.trib_no_card)
        for r in ranks:
            g.hands[p.payer][r] -= 1
            g.hands[p.receiver][r] += 1
        g.tribute_paid.append((p, len(ranks)))
        common.log_public(g, p.payer, f"tribute {p.kind} {p.payer}>{p.receiver} {len(ranks)}")
        text = " ".join(RANKS[r] for r in ranks) or "nothing"
        common.log_private(g, p.payer, f"paid {text} to {p.receiver}")
        common.log_private(g, p.receiver, f"received {text} from {p.payer}")
        if p.returned and ranks:
            g._returns.append([p.receiver, p.payer, len(ranks)])
    next_return(g)


def next_return(g: Game) -> None:
    """R16.7 还贡: each receiver of 落贡 gives back as many cards, one at a time."""
    if g._returns:
        g.pending = P_HUAN
        g.to_act = g._returns[0][0]
        return
    after_tribute(g)


def on_huan(g: Game, receiver: int, rank: int) -> None:
    """R16.7: ``receiver`` returns a card of ``rank``; the payer may refuse it (P_HUAN_CHECK)."""
    payer = g._returns[0][1]
    if may_refuse(g, payer, receiver, rank):
        g._offered = rank
        g.pending = P_HUAN_CHECK
        g.to_act = payer
        return
    give_back(g, rank)


def may_refuse(g: Game, payer: int, receiver: int, rank: int) -> bool:
    """R16.7 ``return_rank_rule``: a card of a rank the payer lacks may be refused,
    unless the receiver has no other card of a rank the payer holds."""
    if not g.rules.trib_return_rank_rule or g.hands[payer][rank]:
        return False
    held = g.hands[payer]
    other = g.hands[receiver]
    return any(other[r] and held[r] and r not in g._refused for r in range(NUM_RANKS))


def give_back(g: Game, rank: int) -> None:
    """R16.7: the returned card goes to the payer; the next return follows."""
    receiver, payer, _left = g._returns[0]
    g.hands[receiver][rank] -= 1
    g.hands[payer][rank] += 1
    common.log_public(g, receiver, f"huan {receiver}>{payer}")
    common.log_private(g, receiver, f"returned {RANKS[rank]} to {payer}")
    common.log_private(g, payer, f"got back {RANKS[rank]} from {receiver}")
    g._offered = -1
    g._refused = []
    g._returns[0][2] -= 1
    if not g._returns[0][2]:
        g._returns.pop(0)
    next_return(g)


def after_tribute(g: Game) -> None:
    """R18 steps 6–7: 买3 / 买4 (R12.3, R13.3), then 会3/会4 (R14) and 会5 (R13.8)."""
    if g._bie3:
        buy(g, R3)
    if g.rules.laiwu_buy4:
        buy(g, R4)
    if g.rules.hui_options and not g._bie3:
        begin_ask(g, P_HUI, [g.starter])
    else:
        begin_hui5(g)


def begin_hui5(g: Game) -> None:
    """R13.8: after a 串三户 the 串'd team may order all 5s out; its first active member
    ccw from the starter decides for it."""
    team_ = g.hui5_team
    if team_ is not None:
        seat = next(
            (s for s in common.ccw_from(g.starter) if g.active[s] and s & 1 == team_),
            None,
        )
        if seat is not None:
            begin_ask(g, P_HUI5, [seat])
            return
    begin_mingdian(g)


def buy(g: Game, rank: int) -> None:
    """R12.3 / R13.3: every active player without the rank buys one, paying its
    lowest 2/SJ/LJ, or free without one."""
    order = g.rules.bie3_buy_order
    name = RANKS[rank]
    for buyer in common.ccw_from(g.starter):
        if not g.active[buyer] or g.hands[buyer][rank]:
            continue
        d = duitou(buyer)
        opp = [(buyer + i) % SEATS for i in (1, 3, 5)]
        own = [(buyer + i) % SEATS for i in (2, 4)]
        if order == "duitou_then_their_team":
            sellers = [d] + [s for s in opp if s != d] + own
        else:
            sellers = [d, *own] + [s for s in opp if s != d]
        seller = next((s for s in sellers if g.active[s] and g.hands[s][rank] >= 2), None)
        if seller is None:  # cannot happen with R0.8 (f); kept as a clear failure
            raise RuntimeError(f"R12.3: no seller holds two {name}s")
        g.hands[seller][rank] -= 1
        g.hands[buyer][rank] += 1
        pay = next((r for r in (R2, SJ, LJ) if g.hands[buyer][r]), None)
        if pay is not None:
            g.hands[buyer][pay] -= 1
            g.hands[seller][pay] += 1
            common.log_public(g, buyer, f"buy{name} from {seller}")
            common.log_private(g, buyer, f"paid {RANKS[pay]} to {seller}")
            common.log_private(g, seller, f"received {RANKS[pay]} from {buyer}")
        else:
            common.log_public(g, buyer, f"buy{name} from {seller} free")


def begin_mingdian(g: Game) -> None:
    """R11.8 明点: every active seat that did not declare 预点 may declare, ccw from the
    starter."""
    if g._dian and g.rules.dian_declare != "off":
        seats = [s for s in common.ccw_from(g.starter) if g.active[s] and s not in g._declared]
        begin_ask(g, P_MINGDIAN, seats)
    else:
        begin_play(g)


def begin_play(g: Game) -> None:
    """R18 step 9: the starter makes the first lead. Seats the referee placed last before
    play began leave first (R19.4); a starter among them passes the lead on, as a
    revolutionary starter does (R15.2)."""
    if g._deferred:
        for seat in g._deferred:
            sanctions.leave(g, seat)
        g._deferred = []
        if places.check_end(g):
            return
        if not g.active[g.starter]:
            g.starter = common.next_active(g, g.starter)
            g.must_lead_base = NO_BASE  # the 亮4 duty was the punished seat's
            common.log_public(g, g.starter, "starter")
    rounds.new_round(g, g.starter)


def decide(g: Game, seat: int, action: Action) -> None:
    """Apply a pre-play decision of ``seat`` (or a forfeit's default one, R19.2)."""
    k = action.kind
    if k == GEMING:
        g._revolutions.append(seat)
        common.log_public(g, seat, "geming")
    elif k == NOGEMING:
        common.log_private(g, seat, "nogeming")
    elif k == RENOUNCE:
        g.renounced = True
        common.log_public(g, seat, "renounce")
    elif k == HUI:
        common.log_public(g, seat, action.text)
        apply_hui(g, action.hui)
    elif k == HUAN:
        assert action.play is not None
        on_huan(g, seat, action.play.eff)
        return
    elif k == ACCEPT:
        common.log_private(g, seat, "accept")
        give_back(g, g._offered)
        return
    elif k == REFUSE:
        receiver = g._returns[0][0]
        common.log_private(g, seat, f"refuse {RANKS[g._offered]}")
        common.log_private(g, receiver, f"refused {RANKS[g._offered]}")
        g._refused.append(g._offered)
        g._offered = -1
        g.pending = P_HUAN
        g.to_act = receiver
        return
    elif k in (YUDIAN, MINGDIAN):
        g._declared.append(seat)
        g.declarations.append((seat, k))
        common.log_public(g, seat, k)
    else:
        common.log_public(g, seat, action.text)
    next_ask(g)


def apply_hui(g: Game, choice: str) -> None:
    """R14.1 / R13.8: all 3s, 4s (or 5s) leave all six hands."""
    ranks = [{"3": R3, "4": R4, "5": R5}[c] for c in choice.split()]
    for seat, h in enumerate(g.hands):
        removed = sum(h[r] for r in ranks)
        for r in ranks:
            g.set_aside[r] += h[r]
            h[r] = 0
        if removed:
            common.log_public(g, seat, f"removed {removed}")  # laid out openly on the table
    g.hui = choice
