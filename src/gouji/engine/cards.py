"""Ranks, card text and hands as rank-count vectors (R0.3, R2).

The engine never tracks individual cards once they are dealt: a hand is a list of
15 counts, one per rank, because suits matter only for 亮3 (R3.5) during the draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: Rank codes in ascending order (R2.2). The index of a code is its rank index.
RANKS: tuple[str, ...] = (
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "T",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "SJ",
    "LJ",
)
NUM_RANKS = 15

R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA, R2, SJ, LJ = range(NUM_RANKS)

#: Base ranks: the ranks that can be the common rank of a play (3 … A).
BASE_RANKS = range(R3, RA + 1)

#: Packs in the game and cards of each rank in one pack (R2.1).
PACKS = 4
PER_PACK = (4,) * 13 + (1, 1)
FULL_DECK: tuple[int, ...] = tuple(n * PACKS for n in PER_PACK)
SUITS = ("S", "H", "D", "C")

_ALIASES = {"10": RT}
_BY_CODE = {code: i for i, code in enumerate(RANKS)}


class CardError(ValueError):
    """Card text that names no card, or cards that a hand or the packs do not hold."""


class CompositionError(CardError):
    """Known cards that do not form one play (R4.2), or more than the four packs hold."""


def rank_of(token: str) -> int:
    """Rank index of one card code; case-insensitive, '10' is accepted for T (R0.3)."""
    t = token.strip().upper()
    if t in _BY_CODE:
        return _BY_CODE[t]
    if t in _ALIASES:
        return _ALIASES[t]
    raise CardError(f"unknown card {token!r}: cards are 3 4 5 6 7 8 9 T J Q K A 2 SJ LJ")


def tokens(text: str) -> list[str]:
    """Split card text into card codes; brackets and commas are ignored."""
    cleaned = text.replace("[", " ").replace("]", " ").replace(",", " ")
    return cleaned.split()


def parse_counts(text: str) -> list[int]:
    """Card text (e.g. ``"7 7 2 SJ"``) to a rank-count vector."""
    counts = [0] * NUM_RANKS
    for tok in tokens(text):
        counts[rank_of(tok)] += 1
    return counts


def counts_text(counts: Sequence[int]) -> str:
    """Canonical card text of a rank-count vector: ascending by value (R0.3)."""
    parts: list[str] = []
    for r, n in enumerate(counts):
        if n:
            parts.extend([RANKS[r]] * n)
    return " ".join(parts)


def total(counts: Iterable[int]) -> int:
    """Number of cards in a rank-count vector."""
    return sum(counts)


def deck_counts(remove: dict[str, int] | None = None) -> list[int]:
    """Rank counts of the four packs after ``deck.remove`` (R2.1, R2.4)."""
    counts = list(FULL_DECK)
    for code, n in (remove or {}).items():
        counts[rank_of(code)] -= n
    return counts


def deck_cards(remove: dict[str, int] | None = None) -> list[tuple[int, int]]:
    """The packs as (rank, suit) cards; suit 0–3, jokers suit 0. Removal takes the last suits."""
    counts = deck_counts(remove)
    cards: list[tuple[int, int]] = []
    for r in range(NUM_RANKS):
        for i in range(counts[r]):
            cards.append((r, i % 4 if r < SJ else 0))
    return cards
