"""R8.5 ``feasible``: the burn condition, checked against a brute-force search of its definition.

Definition (R8.5): the cards ``H`` can be split into plays that are legal in turn (R4.2 with
``play.twos_attach``, R4.7 under 憋3), every one but the last containing a joker.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import pytest

from gouji import make_rules
from gouji.engine.cards import LJ, NUM_RANKS, R2, R3, R4, R5, SJ, parse_counts
from gouji.engine.plays import feasible

#: The ranks of the exhaustive check: 4 and 5 stand for any two of 4…A (interchangeable here).
SMALL = (R3, R4, R5, R2, SJ, LJ)
I3, I2, ISJ, ILJ = 0, 3, 4, 5
SETTINGS = [(t, b) for t in (True, False) for b in (True, False)]


def _legal_lead(play: Sequence[int], hand: Sequence[int], twos_attach: bool, bie3: bool) -> bool:
    """R4.2 and R4.7 on vectors over ``SMALL``."""
    bases = [i for i in (0, 1, 2) if play[i]]
    if len(bases) > 1:
        return False
    if not twos_attach and play[I2] and bases:
        return False
    if bie3 and play[I3]:
        # all the actor's 3s and nothing else, and it empties the hand
        return tuple(play) == tuple(hand) and sum(hand) == hand[I3]
    return True


@cache
def brute_feasible(hand: tuple[int, ...], twos_attach: bool, bie3: bool) -> bool:
    """R8.5 by definition: some legal lead either empties the hand, or carries a joker and
    leaves cards that are themselves feasible."""
    if not any(hand):
        return True
    for play in itertools.product(*(range(n + 1) for n in hand)):
        if not any(play) or not _legal_lead(play, hand, twos_attach, bie3):
            continue
        rest = tuple(h - p for h, p in zip(hand, play, strict=True))
        if not any(rest):
            return True
        if (play[ISJ] or play[ILJ]) and brute_feasible(rest, twos_attach, bie3):
            return True
    return False


def full(small: Sequence[int]) -> list[int]:
    counts = [0] * NUM_RANKS
    for r, n in zip(SMALL, small, strict=True):
        counts[r] = n
    return counts


def small_hands(max_cards: int) -> list[tuple[int, ...]]:
    """Every multiset of 0…max_cards cards over ``SMALL`` (at most 4 of each joker)."""
    out = []
    for h in itertools.product(range(max_cards + 1), repeat=len(SMALL)):
        if sum(h) <= max_cards and h[ISJ] <= 4 and h[ILJ] <= 4:
            out.append(h)
    return out


@pytest.mark.parametrize(("twos_attach", "bie3"), SETTINGS)
def test_feasible_equals_definition_exhaustive(twos_attach: bool, bie3: bool) -> None:
    """Every multiset of 0–8 cards over {3, 4, 5, 2, SJ, LJ}, in each of the four settings."""
    hands = small_hands(8)
    assert len(hands) > 2500
    wrong = [
        h
        for h in hands
        if feasible(full(h), twos_attach, bie3) != brute_feasible(h, twos_attach, bie3)
    ]
    assert not wrong, [(h, brute_feasible(h, twos_attach, bie3)) for h in wrong[:10]]


def test_brute_force_sanity() -> None:
    """The reference itself on hands worked out by hand (R8.5)."""
    h = {"3": 0, "4": 1, "5": 2, "2": 3, "SJ": 4, "LJ": 5}

    def v(text: str) -> tuple[int, ...]:
        c = [0] * 6
        for t in text.split():
            c[h[t]] += 1
        return tuple(c)

    assert brute_feasible(v(""), True, True)
    assert brute_feasible(v("4 4 5 SJ"), True, False)  # [SJ 4 4], then [5]
    assert not brute_feasible(v("4 5"), True, False)  # two groups, no joker
    assert brute_feasible(v("4 3 SJ"), True, True)  # 憋3: [SJ 4], then [3]
    assert not brute_feasible(v("4 3"), True, True)  # 憋3: [4] has no joker
    assert not brute_feasible(v("4 3"), True, False)  # two groups, no joker
    assert brute_feasible(v("2 3"), True, False)  # [2 3] in one play
    assert not brute_feasible(v("2 3"), False, False)  # the 2 cannot attach
    assert brute_feasible(v("3 3 SJ"), True, True)  # 憋3: [SJ], then [3 3]
    assert not brute_feasible(v("3 3 2"), True, True)  # 憋3: [2] has no joker
    assert brute_feasible(v("3 3 SJ"), True, False)  # [SJ 3 3]


def test_TV_E09_two_and_three_without_jokers() -> None:
    """R8.5: {2 3}: 憋3 (OF) infeasible — the 2 needs a jokered lead before the bare 3s;
    OC feasible — [2 3] is one final play (two 3s by effective rank)."""
    hand = parse_counts("2 3")
    of = make_rules("OUTLINE_FULL")
    oc = make_rules("OUTLINE_CLASSIC")
    assert of.bie3_enabled and not oc.bie3_enabled
    assert feasible(hand, of.play_twos_attach, of.bie3_enabled) is False
    assert feasible(hand, oc.play_twos_attach, oc.bie3_enabled) is True


def test_TV_E14_unattachable_two() -> None:
    """R8.5 with ``play.twos_attach = false``: {5 2} infeasible (k = 2, no joker);
    {5 2 SJ} feasible ([SJ 5] then [2], or [SJ 2] then [5])."""
    rules = make_rules("OUTLINE_CLASSIC", {"play.twos_attach": False})
    assert rules.play_twos_attach is False
    args = (rules.play_twos_attach, rules.bie3_enabled)
    assert feasible(parse_counts("5 2"), *args) is False
    assert feasible(parse_counts("5 2 SJ"), *args) is True


@pytest.mark.parametrize(
    ("preset", "remainder", "expected"),
    [
        ("OUTLINE_CLASSIC", "6 6 9 J J SJ", False),  # TV-E02
        ("OUTLINE_CLASSIC", "6 6 J J SJ LJ", True),  # TV-E03
        ("OUTLINE_CLASSIC", "6 J J", False),  # TV-E05
        ("OUTLINE_CLASSIC", "", True),  # TV-E10 (OC)
        ("AUDIT", "3", True),  # TV-E10 (AU)
        ("LAIWU", "5 2 3 SJ", False),  # TV-E13
        ("LAIWU", "A 5 2 3", False),  # TV-E13
        ("LAIWU", "A A 5 3", False),  # TV-E13
        ("LAIWU", "SJ SJ 3", True),  # TV-E16
        ("LAIWU", "2 SJ 3", True),  # TV-E16
        ("OUTLINE_FULL", "J J SJ 3", True),  # TV-E17
    ],
)
def test_feasible_remainders_from_TV_E(preset: str, remainder: str, expected: bool) -> None:
    """The feasibility part of other burning vectors (R8.2, R8.5)."""
    rules = make_rules(preset)
    assert feasible(parse_counts(remainder), rules.play_twos_attach, rules.bie3_enabled) is expected
