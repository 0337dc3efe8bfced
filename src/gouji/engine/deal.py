"""Opening and dealing: the first taker (R3.1, R3.2), the simulated draw (R2.3) and the starter
rules that depend on it (亮3 R3.5, 亮4 R3.8). Pure functions of a seeded RNG.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gouji.engine.cards import LJ, NUM_RANKS, R3, R4, RA, RK, SJ, deck_cards
from gouji.engine.pickling import by_fields

SEATS = 6


def natural_value(rank: int) -> int:
    """R3.1 natural value of a drawn card: A = 1, 2…10 face value, J/Q/K = 11/12/13."""
    if rank == RA:
        return 1
    if rank <= RK:
        return rank + 3
    return 2  # the rank '2'


def first_taker(opener: int, rank: int) -> int:
    """R3.1: counting ccw with the opener as 1, the player reached at the card's value."""
    return (opener + natural_value(rank) - 1) % SEATS


@dataclass(frozen=True, slots=True)
class OpeningDraw:
    """What the opening showed: each (opener, drawn rank) in turn, and the first taker."""

    draws: tuple[tuple[int, int], ...]
    first_taker: int

    def __reduce__(self) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
        return by_fields(self)  # a compiled frozen class (gouji.engine.pickling)


def draw_opening(
    rng: random.Random, opener: int, joker_draw: str, remove: dict[str, int]
) -> OpeningDraw:
    """R3.1–R3.2: the opener draws a card (returned, reshuffled); a joker passes the draw on
    (``next_opens``) or makes the drawer the first taker (``drawer_takes``)."""
    deck = deck_cards(remove)
    draws: list[tuple[int, int]] = []
    while True:
        rank = rng.choice(deck)[0]
        draws.append((opener, rank))
        if rank in (SJ, LJ):
            if joker_draw == "drawer_takes":
                return OpeningDraw(tuple(draws), opener)
            opener = (opener + 1) % SEATS
            continue
        return OpeningDraw(tuple(draws), first_taker(opener, rank))


@dataclass(frozen=True, slots=True)
class Deal:
    """Dealt hands (rank counts) and the draw facts the starter rules need."""

    hands: tuple[tuple[int, ...], ...]
    first_taker: int
    liang3: tuple[int, int, int] | None  # (starter, number of same-suit 3s, suit) when M ≥ 2
    liang4: tuple[int, int] | None  # (starter, number of 4s)

    def __reduce__(self) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
        return by_fields(self)  # a compiled frozen class (gouji.engine.pickling)


def deal(rng: random.Random, taker: int, remove: dict[str, int]) -> Deal:
    """R2.3: shuffle and hand out one card at a time ccw from the first taker."""
    deck = deck_cards(remove)
    rng.shuffle(deck)
    return draw(deck, taker)


def draw(deck: Sequence[tuple[int, int]], taker: int) -> Deal:
    """Hand out ``deck`` (in draw order) ccw from ``taker``, recording who first reached each
    count of same-suit 3s (亮3, R3.5) and of 4s (亮4, R3.8)."""
    hands = [[0] * NUM_RANKS for _ in range(SEATS)]
    threes = [[0] * 4 for _ in range(SEATS)]
    best3: tuple[int, int, int] | None = None  # (count, seat, suit): first to reach the max
    best4: tuple[int, int] | None = None
    for i, (rank, suit) in enumerate(deck):
        seat = (taker + i) % SEATS
        hands[seat][rank] += 1
        if rank == R3:
            threes[seat][suit] += 1
            n = threes[seat][suit]
            if best3 is None or n > best3[0]:
                best3 = (n, seat, suit)
        elif rank == R4:
            n = hands[seat][R4]
            if best4 is None or n > best4[0]:
                best4 = (n, seat)
    liang3 = (best3[1], best3[0], best3[2]) if best3 is not None and best3[0] >= 2 else None
    liang4 = (best4[1], best4[0]) if best4 is not None else None
    return Deal(tuple(tuple(h) for h in hands), taker, liang3, liang4)
