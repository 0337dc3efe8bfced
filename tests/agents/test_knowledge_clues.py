"""Pass clues: what the others' passes say about their hands, and samples weighted by them."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from gouji import Game, make_rules
from gouji.agents.heuristic import HeuristicAgent
from gouji.agents.knowledge import (
    Knowledge,
    PlayClue,
    broken_clues,
    broken_plays,
    determinize,
    read,
    refine,
    sample_hands,
)
from gouji.engine.cards import NUM_RANKS, R3, R5, R6, R7, R9, RA, RK


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


@pytest.mark.parametrize(
    ("broken", "weight", "share"),
    [(broken_clues, "pass_weight", 3), (broken_plays, "play_weight", 2)],
    ids=["passes", "plays"],
)
def test_weighted_samples_contradict_fewer_clues(
    broken: Callable[[list[list[int]], Knowledge], int], weight: str, share: int
) -> None:
    """Samples weighted by the others' passes (or plain plays) contradict far fewer of them
    than plain samples of the same positions."""
    rng = random.Random(4)
    plain = weighted = 0
    for g in _heuristic_positions(2):
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        k = read(view)
        for _ in range(5):
            plain += broken([list(h) for h in determinize(view, rng, k).hands], k)
            passes, plays = (0.0, 1.0) if weight == "pass_weight" else (1.0, 0.0)
            hands = determinize(view, rng, k, passes, 30, plays).hands
            weighted += broken([list(h) for h in hands], k)
    assert plain > 0 and weighted < plain / share


def test_play_clues_hold_for_the_heuristics_true_hands() -> None:
    """The heuristic leads its lowest group whole and answers an opponent's plain play with
    its cheapest plain answer: every such clue is true of the real hands, leads and answers
    both, and none is read from our own plays or from a finished seat."""
    positions = _heuristic_positions(3)
    leads = answers = 0
    for g in positions:
        seat = g.to_act
        assert seat is not None
        k = read(g.view(seat))
        leads += sum(c.answered < 0 for c in k.plays)
        answers += sum(c.answered >= 0 for c in k.plays)
        assert broken_plays([list(h) for h in g.hands], k) == 0
        assert all(c.seat != seat and k.counts[c.seat] for c in k.plays)
    assert leads > 2 * len(positions) and answers > 2 * len(positions)


def test_play_clues_read_the_lowest_group_and_the_cheapest_answer() -> None:
    lead = PlayClue(1, R6, 2)  # led 6 6: no 4s or 5s, and no third 6
    lead.since[R6] = 2  # the lead's own cards
    hand = [0] * NUM_RANKS
    hand[RK] = 3
    assert not lead.broken_by(hand, bie3=True)
    assert lead.broken_by([*hand[:R5], 1, *hand[R5 + 1 :]], bie3=True)
    assert lead.broken_by([*hand[:R6], 1, *hand[R6 + 1 :]], bie3=True)
    assert not lead.broken_by([1, *hand[1:]], bie3=True)  # under 憋3 the 3s come last
    assert lead.broken_by([1, *hand[1:]], bie3=False)
    answer = PlayClue(1, RK, 1, answered=R7)  # a lone K on a 7: no lone 8…Q
    answer.since[RK] = 1
    hand = [0] * NUM_RANKS
    hand[RA] = 3
    assert not answer.broken_by(hand, bie3=False)
    single_9 = hand[:]
    single_9[R9] = 1
    assert answer.broken_by(single_9, bie3=False)
    pair_9 = hand[:]
    pair_9[R9] = 2  # splitting a pair of 9s costs more than a whole lone K
    assert not answer.broken_by(pair_9, bie3=False)
    low = hand[:]
    low[R5] = 1  # below the answered rank: no answer
    assert not answer.broken_by(low, bie3=False)


def test_refining_a_sample_keeps_its_sizes_its_cards_and_what_is_known() -> None:
    """The swaps move cards between hidden hands only: every hand keeps its size, the cards
    in all hands stay the same, a known card stays where it is, every seat keeps a 3 under
    憋3, and our own hand is untouched."""
    rng = random.Random(5)
    moved = 0
    for g in _heuristic_positions(2):
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        k = read(view)
        before = sample_hands(view, rng, k)
        after = [h[:] for h in before]
        refine(after, k, rng, 0.1, 0.0, 300, view["state"]["burner"])
        assert [sum(h) for h in after] == [sum(h) for h in before]
        assert [sum(col) for col in zip(*after, strict=True)] == [
            sum(col) for col in zip(*before, strict=True)
        ]
        assert after[seat] == before[seat]
        for s in range(6):
            kept = zip(after[s], before[s], k.known[s], strict=True)
            assert all(a >= min(b, kn) for a, b, kn in kept)
            if k.rules.bie3_enabled and before[s][R3]:
                assert after[s][R3] > 0
        moved += after != before
        assert broken_plays(after, k) <= broken_plays(before, k) + 2
    assert moved > 0
