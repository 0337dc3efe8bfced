"""Pairing rules of events as properties (Hypothesis): every team plays once a round, byes
rotate, a round robin meets every pair once, Swiss avoids rematches whenever a pairing
without one exists, knockout byes make the second round a power of two.

Hypothesis' 100 examples a property by default and 1,000 in the deep run
(``GOUJI_TEST_PROFILE=deep``, tests/conftest.py); the Swiss rematch property too, 3,000 in the
deep run (with the 300 it had, each of three runs reached the same lines and branches of
src/gouji as each of three with 100: coverage)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gouji.competition import pairing
from support import sized

seeds = st.integers(0, 2**32 - 1)


@given(st.integers(2, 40), seeds)
def test_knockout_first_round_byes_make_a_power_of_two(n: int, seed: int) -> None:
    pairs, byes = pairing.knockout_round(range(n), {}, random.Random(seed), first=True)
    assert pairing.covers((pairs, byes), range(n))
    after = len(pairs) + len(byes)
    assert after & (after - 1) == 0  # 6 teams: 2 byes, 2 pairs → 4 in round 2


@given(st.lists(st.integers(0, 3), min_size=3, max_size=25), seeds)
def test_knockout_byes_go_to_the_teams_with_fewest(past: list[int], seed: int) -> None:
    teams = list(range(len(past)))
    byes = dict(enumerate(past))
    pairs, bye = pairing.knockout_round(teams, byes, random.Random(seed), first=False)
    assert pairing.covers((pairs, bye), teams)
    assert len(bye) == len(teams) % 2
    if bye:
        assert byes[bye[0]] == min(past)


@given(st.integers(2, 16), seeds)
def test_round_robin_meets_every_pair_once(n: int, seed: int) -> None:
    rounds = pairing.round_robin_schedule(range(n), random.Random(seed))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met: list[frozenset[int]] = []
    byes: list[int] = []
    for r in rounds:
        assert pairing.covers(r, range(n))
        met += [frozenset(p) for p in r[0]]
        byes += r[1]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(range(n), 2)), key=sorted
    )
    assert sorted(byes) == (list(range(n)) if n % 2 else [])  # each team one bye when odd


def _rematch_free_exists(teams: list[int], met: set[frozenset[int]]) -> bool:
    if len(teams) < 2:
        return True
    first = teams[0]
    for i, other in enumerate(teams[1:], start=1):
        rest = teams[1:i] + teams[i + 1 :]
        if frozenset((first, other)) not in met and _rematch_free_exists(rest, met):
            return True
    return False


@settings(max_examples=sized(100, 3000))
@given(st.integers(2, 10), st.data(), seeds)
def test_swiss_avoids_rematches_when_it_can(n: int, data: st.DataObject, seed: int) -> None:
    teams = list(range(n))
    all_pairs = [frozenset(p) for p in itertools.combinations(teams, 2)]
    met = set(data.draw(st.lists(st.sampled_from(all_pairs), max_size=len(all_pairs))))
    past_byes = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    byes = dict(enumerate(past_byes))
    ranked = data.draw(st.permutations(teams))
    pairs, bye = pairing.swiss_round(
        ranked, lambda a, b: frozenset((a, b)) in met, byes, random.Random(seed)
    )
    assert pairing.covers((pairs, bye), teams)
    if bye:  # the lowest ranked of the teams with the fewest byes
        fewest = min(past_byes)
        assert byes[bye[0]] == fewest
        below = ranked[ranked.index(bye[0]) + 1 :]
        assert all(byes[t] > fewest for t in below)
    rest = [t for t in ranked if t not in bye]
    if _rematch_free_exists(rest, met):
        assert pairing.rematches(pairs, lambda a, b: frozenset((a, b)) in met) == 0


@given(st.integers(3, 12), seeds)
def test_swiss_byes_rotate_over_rounds(n: int, seed: int) -> None:
    """With an odd count no team has a second bye before every team has had one."""
    teams = list(range(n | 1))
    byes: dict[int, int] = {}
    rng = random.Random(seed)
    for _ in range(len(teams)):
        ranked = teams[:]
        rng.shuffle(ranked)
        _, bye = pairing.swiss_round(ranked, lambda a, b: False, byes, rng)
        byes[bye[0]] = byes.get(bye[0], 0) + 1
        assert max(byes.values()) - min(byes.get(t, 0) for t in teams) <= 1
    assert all(byes.get(t) == 1 for t in teams)
