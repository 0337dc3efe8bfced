"""Places and 开点: going out with the best free place (R9.2), a forced place from the bottom
(R9.11), 无头 (R9.8), the 开点 qualifier and deadlines (R11.2–R11.5), and the game's end
(R9.9, R9.12, R15.4 the revolutionary's place, R9.10 串三户).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gouji.engine.cards import (
    NUM_RANKS,
    R3,
    counts_text,
)
from gouji.engine.plays import (
    NO_BASE,
    Play,
)
from gouji.engine.referee import common
from gouji.engine.referee.common import (
    P_OVER,
    SEATS,
    team,
)

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


def qualifies(play: Play, qualifier: str) -> bool:
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


def both_top_placed(g: Game) -> bool:
    """R9.6: 头科 and 二科 are given: 四人乱缠 (chaos) from the next round on."""
    return 1 in g._places and 2 in g._places


def free_places(g: Game) -> list[int]:
    """The places not yet given, best first."""
    taken = set(g._places)
    return [p for p in range(1, 7) if p not in taken]


def take_place(g: Game, seat: int, place: int, how: str) -> None:
    """``seat`` leaves play with ``place``; ``how`` names why in the log."""
    g._places[seat] = place
    g.active[seat] = False
    g.finish_order.append(seat)
    common.log_public(g, seat, f"{how} {place}")


def go_out(g: Game, seat: int) -> None:
    """R9.2: an emptied hand takes the best free place; burn success (R8.7); R9.9."""
    place = free_places(g)[0]
    take_place(g, seat, place, "place")
    if place <= 2:
        g.round_finishers.append(seat)
    if g.burner == seat:
        if team(seat) != team(g.victim):
            g.burns.append((seat, g.victim))
        common.log_public(g, seat, "burn_success")
        g.burner = g.victim = -1
    if not check_end(g):
        tell_headless(g, seat)


def tell_headless(g: Game, seat: int, how: str = "") -> None:
    """Tell the table that ``seat``'s 对头 is now 无头 (R9.8), with one 够死级 chance in
    this round when ``seat`` went out as 头科 or 二科 (R9.4, AMB-74); ``how`` says why
    ``seat`` left play when it did not go out (``men``, ``broken_burn``, ``punished``)."""
    d = (seat + 3) % SEATS
    if g.active[d]:
        common.log_public(g, d, f"wutou {how}" if how else "wutou")


def force_place(g: Game, seat: int, how: str) -> None:
    """R9.11: out from the bottom, cards dead."""
    h = g.hands[seat]
    for r in range(NUM_RANKS):
        g.set_aside[r] += h[r]
    g.dead[seat] = sum(h)
    g.dead_hands[seat] = counts_text(h)
    g.hands[seat] = [0] * NUM_RANKS
    take_place(g, seat, free_places(g)[-1], how)
    tell_headless(g, seat, how)


def deadline_closed(g: Game, seat: int) -> bool:
    """R11.4: has the seat's 开点 deadline passed before this play?"""
    if g.no_open[seat]:
        return True  # R13.5 (d)
    dl = g.rules.dian_deadline
    touke = went_out_with(g, 1)
    if dl == "touke":
        return touke >= 0
    if went_out_with(g, 2) >= 0:
        return True
    return dl == "outline" and touke >= 0 and (touke + 3) % SEATS == seat


def went_out_with(g: Game, place: int) -> int:
    """The seat that took ``place`` with its final play, or -1: a forced place or one
    given at game end makes no final play, so it closes no deadline (R11.4, R9.12 c)."""
    places = g._places
    if place not in places:
        return -1
    seat = places.index(place)
    return -1 if g.dead[seat] else seat


def open_dian(g: Game, w: int) -> None:
    """R11.3 (and R11.6 without 憋3: three successful 够死级 against a revolutionary)."""
    if (w + 3) % SEATS == g.revolutionary and not g._bie3:
        if g.standing_dead_level:
            g.dead_level_wins[w] += 1
            if g.dead_level_wins[w] >= 3 and not g.opened[w]:
                g.opened[w] = True
                common.log_public(g, w, "opened")
        return
    if not g.opened[w]:
        g.opened[w] = True
        common.log_public(g, w, "opened")
        if g._four_rule:
            g.four_due[w] = True  # R13.5 (b)


def check_end(g: Game) -> bool:
    """R9.9 / R9.12 / R15.4: end the game when one player or one team remains."""
    if g.pending == P_OVER:
        return True
    remaining = [q for q in range(SEATS) if g.active[q]]
    if len(remaining) > 1 and len({team(q) for q in remaining}) > 1:
        return False
    if g.standing is not None and g.standing_qualifies:
        open_dian(g, g.owner)  # the interrupted round's standing play stands
    open_at_early_end(g, remaining)
    if len(remaining) == 1:  # R9.9 (a): placed holding cards, not gone out
        take_place(g, remaining[0], free_places(g)[0], "ended")
    elif remaining:
        place_remaining(g, remaining)
    revolutionary_third(g)
    top = {team(q) for q, p in enumerate(g._places) if p is not None and p <= 3}
    if len(top) == 1:
        common.log_public(g, -1, f"chuan {top.pop()}")  # R9.10 串三户
    g.pending = P_OVER
    g.to_act = None
    g._legal = None
    g.burner = g.victim = -1
    common.log_public(g, -1, "game_over")
    return True


def open_at_early_end(g: Game, remaining: list[int]) -> None:
    """R11.5 (AMB-76): a player still holding cards whose 开点 deadline is still open when
    the game ends counts as opened: the early end takes no chance from it. A player left
    with only 3s under lenient 闷 is placed as 闷 (R9.12 b) and judged as usual."""
    if not g._dian:
        return
    for q in remaining:
        if g.opened[q] or deadline_closed(g, q) or lenient_men(g, q):
            continue
        g.opened[q] = True
        common.log_public(g, q, "opened_at_end")


def lenient_men(g: Game, q: int) -> bool:
    """R9.12 (b): under lenient 闷 a hand of only 3s at game end is placed last."""
    h = g.hands[q]
    return g._bie3 and g.rules.bie3_men == "lenient" and 0 < h[R3] == sum(h)


def revolutionary_third(g: Game) -> None:
    """R15.4 (AMB-75), tested after every place is given: when the revolutionary's two
    teammates hold 头科 and 二科 it becomes 三科, and whoever held 三科 (necessarily a
    forced place or one given at game end) moves to 四科; the other team is 串三户."""
    r = g.revolutionary
    if r is None or r in g.punished:  # a punished revolutionary holds no 四科 (R19.4)
        return
    if {g._places[(r + 2) % SEATS], g._places[(r + 4) % SEATS]} != {1, 2}:
        return
    third = g._places.index(3)
    g._places[third] = 4
    g._places[r] = 3
    common.log_public(g, r, "place 3")
    common.log_public(g, third, "moved 4")


def place_remaining(g: Game, remaining: list[int]) -> None:
    """R9.9 (b) ``fewest_cards``; R9.12 (b) lenient 闷: 3-only hands rank last."""
    last = g.finish_order[-1] if g.finish_order else g.starter
    ccw = {(last + i) % SEATS: i for i in range(1, SEATS + 1)}

    def key(q: int) -> tuple[int, int, int]:
        return (int(lenient_men(g, q)), sum(g.hands[q]), ccw[q])

    for q in sorted(remaining, key=key):
        take_place(g, q, free_places(g)[0], "ended")
