"""Who meets whom in a round: 抽签 (drawing lots) for knockout, the circle method for a round
robin, and Swiss pairings by standing without rematches where avoidable.

Pure functions of team indexes and a ``random.Random``: the event layer keeps the state. A
round is ``(pairs, byes)``: every team still in plays exactly once or has the bye.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence

Pairs = list[tuple[int, int]]
Round = tuple[Pairs, list[int]]


def _bye_takers(
    teams: Sequence[int], count: int, byes: dict[int, int], rng: random.Random
) -> list[int]:
    """``count`` teams for a bye: those with the fewest byes so far, by lot among equals (so
    byes rotate)."""
    order = sorted(teams, key=lambda t: (byes.get(t, 0), rng.random()))
    return sorted(order[:count])


def knockout_round(
    alive: Sequence[int],
    byes: dict[int, int],
    rng: random.Random,
    first: bool,
    seeds: Mapping[int, int] | None = None,
) -> Round:
    """One knockout round drawn by lot. The first round gives as many byes as make the next
    round a power of two (8 → 0, 6 → 2, 5 → 3); a later round with an odd count gives one.

    ``seeds`` (种子: team → rank, 1 the first) are kept apart: the first round's byes go to
    the best seeds, and no two seeds meet while an unseeded team is left to draw against
    them. Everything else is by lot."""
    teams = list(alive)
    if len(teams) < 2:
        raise ValueError("a knockout round needs two teams or more")
    if first:
        size = 1
        while size < len(teams):
            size *= 2
        free = size - len(teams)
    else:
        free = len(teams) % 2
    ranked = sorted((t for t in teams if seeds and t in seeds), key=lambda t: (seeds or {})[t])
    if not ranked:
        bye = _bye_takers(teams, free, byes, rng)
        rest = [t for t in teams if t not in bye]
        rng.shuffle(rest)
        return [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)], bye
    if first:
        bye = sorted(ranked[:free])
        if len(bye) < free:
            others = [t for t in teams if t not in bye]
            bye = sorted(bye + _bye_takers(others, free - len(bye), byes, rng))
    else:
        bye = _bye_takers(teams, free, byes, rng)
    rest = [t for t in teams if t not in bye]
    top = [t for t in ranked if t in rest]
    plain = [t for t in rest if t not in top]
    rng.shuffle(plain)
    rng.shuffle(top)
    pairs: Pairs = []
    while top and plain:  # each seed against an unseeded team drawn by lot
        pairs.append((top.pop(), plain.pop()))
    left = top + plain  # seeds meet only when no unseeded team is left
    pairs += [(left[i], left[i + 1]) for i in range(0, len(left), 2)]
    rng.shuffle(pairs)
    return [p if rng.random() < 0.5 else (p[1], p[0]) for p in pairs], bye


def round_robin_schedule(teams: Sequence[int], rng: random.Random) -> list[Round]:
    """Every team meets every other once (the circle method), the order drawn by lot; with an
    odd count each team has one bye."""
    order = list(teams)
    rng.shuffle(order)
    ghost = -1
    if len(order) % 2:
        order.append(ghost)
    n = len(order)
    rounds: list[Round] = []
    ring = order[:]
    for r in range(n - 1):
        pairs: Pairs = []
        byes: list[int] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if ghost in (a, b):
                byes.append(b if a == ghost else a)
            else:
                pairs.append((a, b) if r % 2 == 0 or i else (b, a))  # the fixed team alternates
        rounds.append((pairs, byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def swiss_round(
    ranked: Sequence[int],
    met: Callable[[int, int], bool],
    byes: dict[int, int],
    rng: random.Random,
) -> Round:
    """Swiss pairings: ``ranked`` is the standing (best first). The bye goes to the lowest
    ranked team with the fewest byes; then teams are paired top-down, each with the best
    ranked team it has not met (backtracking), and only if no pairing without a rematch
    exists, with the fewest rematches."""
    teams = list(ranked)
    bye: list[int] = []
    if len(teams) % 2:
        fewest = min(byes.get(t, 0) for t in teams)
        taker = next(t for t in reversed(teams) if byes.get(t, 0) == fewest)
        bye = [taker]
        teams.remove(taker)
    for allowed in range(len(teams) // 2 + 1):
        pairs = _pair_down(teams, met, allowed)
        if pairs is not None:
            return pairs, bye
    raise AssertionError("unreachable: with every rematch allowed a pairing exists")


def _pair_down(teams: list[int], met: Callable[[int, int], bool], allowed: int) -> Pairs | None:
    """Top-down pairing with at most ``allowed`` rematches (depth-first, best first)."""
    if not teams:
        return []
    first, rest = teams[0], teams[1:]
    for i, other in enumerate(rest):
        cost = 1 if met(first, other) else 0
        if cost > allowed:
            continue
        tail = _pair_down(rest[:i] + rest[i + 1 :], met, allowed - cost)
        if tail is not None:
            return [(first, other), *tail]
    return None


def rematches(pairs: Pairs, met: Callable[[int, int], bool]) -> int:
    return sum(1 for a, b in pairs if met(a, b))


def covers(round_: Round, teams: Collection[int]) -> bool:
    """Every team exactly once: in one pair or with a bye (the property each round keeps)."""
    pairs, byes = round_
    seen = [t for p in pairs for t in p] + list(byes)
    return sorted(seen) == sorted(teams)
