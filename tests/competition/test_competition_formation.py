"""R1.6 team formation: the seatings the server makes for 抽签组邦 and 自选对头."""

from __future__ import annotations

from collections import Counter

import pytest

from gouji.competition.formation import FORMATIONS, apply_seating, seating

SEEDS = range(400)


def test_seats_moves_nobody() -> None:
    """R1.6 自认联邦: the players' own seats make the teams."""
    assert all(seating("seats", s) == [0, 1, 2, 3, 4, 5] for s in SEEDS)


@pytest.mark.parametrize("formation", FORMATIONS)
def test_a_seating_is_a_permutation_fixed_by_the_seed(formation: str) -> None:
    for s in SEEDS:
        order = seating(formation, s)
        assert sorted(order) == [0, 1, 2, 3, 4, 5]
        assert seating(formation, s) == order  # a restart finds the same seating


def test_draw_is_a_lot_over_every_seating() -> None:
    """R1.6 抽签: each player lands in each team about half the time, and the teams vary."""
    teams: Counter[int] = Counter()
    splits = set()
    for s in SEEDS:
        order = seating("draw", s)
        teams.update(i for i in range(6) if order[i] % 2 == 0)
        splits.add(frozenset(i for i in range(6) if order[i] % 2 == 0))
    assert all(150 < teams[i] < 250 for i in range(6)), teams
    assert len(splits) == 20  # every split of six into two teams of three occurs


def test_opposite_keeps_each_chosen_pair_opposite() -> None:
    """R1.6 自选对头: the players at seats i and i+3 chose each other; they stay 对头 (one in
    each team, across the table) while the lot decides the teams."""
    sides: Counter[int] = Counter()
    teams = set()
    for s in SEEDS:
        order = seating("opposite", s)
        for k in range(3):
            assert (order[k] + 3) % 6 == order[k + 3]  # still each other's 对头
            assert order[k] % 2 != order[k + 3] % 2  # hence in different teams
        sides.update(k for k in range(3) if order[k] % 2 == 0)
        teams.add(frozenset(i for i in range(6) if order[i] % 2 == 0))
    assert all(150 < sides[k] < 250 for k in range(3)), sides
    assert len(teams) == 8  # one of each pair in team A: 2 × 2 × 2 ways


def test_apply_seating_moves_each_player_to_the_new_seat() -> None:
    order = seating("draw", 7)
    moved = apply_seating(order, ["p0", "p1", "p2", "p3", "p4", "p5"])
    assert all(moved[order[i]] == f"p{i}" for i in range(6))
    with pytest.raises(ValueError):
        apply_seating([0, 0, 1, 2, 3, 4], list(range(6)))


def test_unknown_formation_is_refused() -> None:
    with pytest.raises(ValueError, match="formations: seats, draw, opposite"):
        seating("friends", 1)
