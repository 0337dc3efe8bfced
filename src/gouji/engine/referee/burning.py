"""Burning (烧牌, R8): the burn window after a protected 够级 play (R8.2–R8.3, in the preset's
priority), each candidate's feasible burning plays (R8.5), and a broken burn (R8.8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gouji.engine.cards import (
    R4,
)
from gouji.engine.plays import (
    Play,
    feasible,
    responses,
)
from gouji.engine.plays import remove as remove_play
from gouji.engine.referee import common, legal, places, rounds
from gouji.engine.referee.common import (
    ACTIVE,
    LIVE,
    P_OFFER,
    SEATS,
)

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


def break_burn(g: Game) -> None:
    """R8.8: the burner's play was beaten; with ``lowest_place`` it is placed last."""
    b = g.burner
    g.broken_burns.append((b, g.victim))
    common.log_public(g, b, "burn_broken")
    g.burner = g.victim = -1
    if g.rules.burn_broken_penalty == "lowest_place" and g.active[b]:
        places.force_place(g, b, "broken_burn")


def open_window(g: Game) -> None:
    """R8.2–R8.3: candidates in priority order, each with its feasible beating plays."""
    gather_offers(g)
    next_offer(g)


def gather_offers(g: Game) -> None:
    """R8.3: the burn window without asking yet: the candidates in the preset's priority
    (``burn.priority``), each with its burning plays; ``Game.from_state`` rebuilds a window
    with it."""
    o = g.owner
    s = g.standing
    assert s is not None
    if g.rules.burn_priority == "team_first":
        order = [(o + 2) % 6, (o + 4) % 6, (o + 1) % 6, (o + 5) % 6]
    else:
        order = [(o + 1) % 6, (o + 2) % 6, (o + 4) % 6, (o + 5) % 6]
    asks: list[int] = []
    offers: list[list[Play]] = []
    for b in order:
        plays = burn_plays(g, b, s)
        if plays:
            asks.append(b)
            offers.append(plays)
    g._ask = asks
    g._offers = offers


def burn_plays(g: Game, b: int, s: Play) -> list[Play]:
    """R8.2, R8.5: the plays with which ``b`` may burn the standing play ``s`` (beating it and
    leaving cards that can still be led out); none for a seat without the right (R8.1)."""
    if not g.active[b] or g.status[b] != ACTIVE or g.head(b) != LIVE:
        return []
    if g.rules.burn_requires_opened and not g.opened[b]:
        return []
    hand = g.hands[b]
    twos, bie3 = g._twos_attach, g._bie3
    out = [p for p in responses(hand, s, twos) if feasible(remove_play(hand, p), twos, bie3)]
    if g._four_rule and legal.four_locked(g, b):  # R13.5: no 4 left after the burn play
        out = [p for p in out if p.base != R4 and hand[R4] == 0]
    return out


def next_offer(g: Game) -> None:
    """Offer the next candidate its burn (R8.3); with none left, the answers go on (R7.2)."""
    if g._ask:
        g.pending = P_OFFER
        g.to_act = g._ask[0]
    else:
        rounds.visit(g, (g.owner + 1) % SEATS)
