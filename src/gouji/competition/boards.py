"""Hand records (牌谱) for real-card duplicate: the deal of every game of a match, prepared in
advance as duplicate bridge prepares its boards, so that both tables of a match play the
same cards.

Who takes cards first is known only at the table (the opening draw, R3.1, or the last
game's places, R3.6), so a record lists the six hands in taking order: hand 1 to the first
taker (首取牌人), hand 2 to the next player counter-clockwise, and so on (R2.3 deals one card
at a time ccw). Suits are kept: the first game's 亮3 looks at same-suit 3s (R3.5). The deal of
game ``g`` is a pure function of the table's seed and ``g``, the same at both tables.
"""

from __future__ import annotations

import random
from typing import Any

from gouji.engine.cards import RANKS, SJ, deck_cards
from gouji.engine.rules import Rules

SEATS = 6


def hands(rules: Rules, seed: int, game: int) -> list[list[tuple[int, int]]]:
    """The six hands of game ``game`` (0-based) in taking order, each sorted by rank."""
    deck = deck_cards(rules.deck_remove)
    random.Random(f"{seed}/board/{game}").shuffle(deck)
    return [sorted(deck[k::SEATS]) for k in range(SEATS)]


def card_code(card: tuple[int, int]) -> str:
    """A card as text: rank code and suit letter ("3S", "TH"); jokers "SJ" and "LJ"."""
    rank, suit = card
    return RANKS[rank] if rank >= SJ else RANKS[rank] + "SHDC"[suit]


def hand_records(rules: Rules, seed: int, games: int) -> list[dict[str, Any]]:
    """``games`` boards: ``{"game": g, "hands": [[card codes] × 6]}`` in taking order."""
    return [
        {"game": g, "hands": [[card_code(c) for c in h] for h in hands(rules, seed, g)]}
        for g in range(games)
    ]


__all__ = ["card_code", "hand_records", "hands"]
