"""Team formation at a casual table (R1.6): who plays with whom is a lobby matter, and the
engine only ever receives a seating. Three customs:

- ``seats`` (自认联邦): players sit where they choose; the seats make the teams (A = 0, 2, 4;
  B = 1, 3, 5). Nobody is moved.
- ``draw`` (抽签组邦): the six are seated by lot, as when 3 red and 3 black cards are drawn: every
  seating is equally likely, whoever sat where.
- ``opposite`` (自选对头): the players choose their 对头 by sitting across from each other (seats
  i and i+3 form a chosen pair); the lot then decides which pair sits at which 对头 position and
  which of each pair is in team A. A chosen pair stays 对头, the teams are drawn.

Pure functions of the room's seed (``random.Random(f"{seed}:formation")``), separate from the
match's deals, so a restart (or anybody with the seed) finds the same seating.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

FORMATIONS = ("seats", "draw", "opposite")
SEATS = 6
T = TypeVar("T")


def _rng(seed: int) -> random.Random:
    return random.Random(f"{seed}:formation")


def seating(formation: str, seed: int) -> list[int]:
    """Where each player goes: ``out[old_seat]`` is that player's new seat (a permutation of
    0…5). Raises ``ValueError`` for an unknown formation."""
    if formation == "seats":
        return list(range(SEATS))
    if formation == "draw":
        return _rng(seed).sample(range(SEATS), SEATS)
    if formation == "opposite":
        rng = _rng(seed)
        positions = [0, 1, 2]  # pair k = the players at seats k and k+3
        rng.shuffle(positions)  # pair k goes to the 对头 seats positions[k] and positions[k]+3
        out = [0] * SEATS
        for k, pos in enumerate(positions):
            first, second = pos, pos + 3  # one seat in each team (i and i+3 differ in parity)
            if rng.random() < 0.5:
                first, second = second, first
            out[k], out[k + 3] = first, second
        return out
    raise ValueError(f"unknown formation {formation!r}; formations: {', '.join(FORMATIONS)}")


def apply_seating(order: Sequence[int], items: Sequence[T]) -> list[T]:
    """The seat contents after ``seating``: ``items[i]`` moves to ``order[i]``."""
    if sorted(order) != list(range(len(items))):
        raise ValueError("a seating is a permutation of the seats")
    out = list(items)
    for old, new in enumerate(order):
        out[new] = items[old]
    return out


__all__ = ["FORMATIONS", "apply_seating", "seating"]
