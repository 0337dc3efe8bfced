"""Pass clues: what the others' passes say about their hands, and samples weighted by them."""

from __future__ import annotations

import random

from gouji import Game, make_rules
from gouji.agents.heuristic import HeuristicAgent
from gouji.agents.knowledge import broken_clues, determinize, read


def _heuristic_positions(games: int) -> list[Game]:
    """Play decisions from heuristic games, one in ten."""
    rng = random.Random(2)
    driver = HeuristicAgent()
    out: list[Game] = []
    for seed in range(games):
        g = Game.new(make_rules("OUTLINE_FULL"), 7100 + seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            if g.pending in ("lead", "respond") and rng.random() < 0.1:
                out.append(g.clone())
            g.apply(driver.act(g.view(seat), g.legal_actions()))
    return out


def test_clues_hold_for_the_heuristics_true_hands() -> None:
    """Every clue read from a heuristic game is true of the real hands (the heuristic never
    passes holding a cheap plain answer), and clues come only from opponents' plays."""
    positions = _heuristic_positions(3)
    clues = 0
    for g in positions:
        seat = g.to_act
        assert seat is not None
        k = read(g.view(seat))
        clues += len(k.clues)
        assert broken_clues([list(h) for h in g.hands], k) == 0
        assert all(c.seat != seat for c in k.clues)
    assert clues > 3 * len(positions)


def test_weighted_samples_contradict_fewer_passes() -> None:
    rng = random.Random(4)
    plain = weighted = 0
    for g in _heuristic_positions(2):
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        k = read(view)
        for _ in range(5):
            plain += broken_clues([list(h) for h in determinize(view, rng, k).hands], k)
            hands = determinize(view, rng, k, pass_weight=0.0, tries=30).hands
            weighted += broken_clues([list(h) for h in hands], k)
    assert plain > 0 and weighted < plain / 3
