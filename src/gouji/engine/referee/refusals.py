"""Refusals (R19.1): an illegal action forfeits the turn under ``sw.illegal = forfeit_turn``
(``forfeit``), and every refusal names the rule it breaks: ``not_your_turn``, ``explain`` and
``check`` (what ``Game.check`` answers, changing nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gouji.engine.actions import (
    BURN,
    KEEP,
    NOGEMING,
    NOHUI,
    NOMINGDIAN,
    NOYUDIAN,
    ORDER,
    PLAY,
    RANG,
    TIAO,
    Action,
    IllegalAction,
)
from gouji.engine.cards import (
    R4,
)
from gouji.engine.plays import (
    NO_BASE,
    is_composition_legal,
)
from gouji.engine.reasons import Reason, from_message, reason
from gouji.engine.referee import burning, claims, common, legal, places, preplay, rounds
from gouji.engine.referee.common import (
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
    P_OVER,
    P_RANG_RETURN,
    P_RENOUNCE,
    P_RESPOND,
    P_YUDIAN,
    PRIVATE_PENDING,
    SEATS,
    duitou,
)

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


def forfeit(g: Game, why: str) -> None:
    """R19.1 ``forfeit_turn``: the illegal action counts as the decline (AMB-71)."""
    seat = g.to_act
    assert seat is not None
    g.forfeits += 1
    common.log_public(g, seat, f"forfeit ({why})")
    kind = g.pending
    g._legal = None
    if kind in (P_RESPOND, P_RANG_RETURN):
        rounds.on_pass(g, seat)
    elif kind == P_KOU:
        rounds.round_end(g)
    elif kind == P_LEAD:
        g.must_lead_base = NO_BASE
        if g.burner == seat:
            burning.break_burn(g)
            if places.check_end(g):
                return
        rounds.new_round(g, common.next_active(g, seat))
    elif kind == P_OFFER:
        g._ask.pop(0)
        g._offers.pop(0)
        burning.next_offer(g)
    elif kind in (P_HUAN, P_HUAN_CHECK):  # the R19.2 defaults: lowest card / accept
        preplay.decide(g, seat, g.legal_actions()[0])
    elif kind == P_ORDER:  # the claim stands (the hand is shown): the listed order
        claims.start_claim(g, g.legal_actions()[0])
    else:
        decline = {
            P_YUDIAN: NOYUDIAN,
            P_MINGDIAN: NOMINGDIAN,
            P_GEMING: NOGEMING,
            P_RENOUNCE: KEEP,
            P_HUI: NOHUI,
            P_HUI5: NOHUI,
        }[kind]
        preplay.decide(g, seat, Action.word(decline))


def not_your_turn(g: Game, seat: int) -> str:
    """Why ``seat`` may not act now, without revealing a private decision's seat."""
    who = f"P{seat}"
    if not 0 <= seat < SEATS:
        return f"R0.2: seats are 0…5, not {seat}"
    if not g.active[seat]:
        return f"R1.7: {who} has no cards in play"
    if g.pending in PRIVATE_PENDING:
        return f"R1.5: it is not {who}'s turn"
    if g.pending in (P_RESPOND, P_RANG_RETURN) and g.standing is not None:
        o = g.owner
        if seat == o:
            return f"R7.5: {who} owns the standing play; it waits for the others"
        if g.standing_dead_level:
            return f"R6.5: P{o}'s 够死级 play can only be burned, not answered"
        if g.standing_protected and not legal.eligible(g, seat):
            return (
                f"R6.4: only P{duitou(o)} (对头), an active 无头 player or a burner may "
                f"answer P{o}'s protected 够级 play"
            )
        if not legal.eligible(g, seat):
            return f"R7.4: {who} passed in this round and P{o} is not its 对头"
    return f"R1.5: it is P{g.to_act}'s turn, not {who}'s (不得越、抢)"


def explain(g: Game, action: Action) -> Reason:
    """Why the action is illegal now, naming the rule."""
    kind, seat = g.pending, g.to_act
    assert seat is not None
    k = action.kind
    if kind == P_LEAD:
        if k == TIAO:
            if not g.rules.info_tiao:
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
        return explain_play(g, seat, action, lead=True)
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
            return explain_play(g, seat, action, lead=False)
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
            f"P{seat} fixes the order of P{g.claimant}'s claim: "
            "'order <cards> | <cards> …', every claimed card once",
        )
    legal = ", ".join(a.text for a in g.legal_actions())
    return reason("R18", "decide_phase", f"P{seat} decides {kind} now; legal: {legal}", phase=kind)


def explain_play(g: Game, seat: int, action: Action, lead: bool) -> Reason:
    """Why the cards of ``action`` are no legal lead or response of ``seat`` now."""
    play = action.play
    assert play is not None
    hand = g.hands[seat]
    why = is_composition_legal(play, hand, g._twos_attach, g._bie3)
    if why:
        return from_message(why)
    if g._four_rule and play.base == R4 and legal.four_locked(g, seat):
        return reason(
            "R13.5 (a)", "four_locked", "no 4 may be played before 开壶 while there is no 头科"
        )
    if lead:
        if g.burner == seat:
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
        if g.must_lead_base != NO_BASE:
            return reason(
                "R3.8",
                "liang4_first_lead",
                "the 亮4 starter's first lead must have base rank 4",
            )
        if g._four_rule and g.four_due[seat] and hand[R4]:
            return reason("R13.5 (b)", "four_due", "after 开壶 the next lead is the 4s")
        return reason("R4", "not_a_lead", "not a legal lead")
    s = g.standing
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


def check(g: Game, action: Action | str) -> Reason | None:
    """``Game.check``: why ``action`` would be refused now, or None when ``apply`` would take
    it; changes nothing."""
    if isinstance(action, str):
        try:
            action = Action.parse(action)
        except IllegalAction as e:
            return from_message(str(e), "malformed")
    if g.pending == P_OVER:
        return reason("R9.9", "game_over", "the game is over")
    if action.kind == ORDER:
        why = claims.order_problem(g, action)
        return from_message(why) if why else None
    if action in g.legal_actions():
        return None
    return explain(g, action)
