"""Every agent returns a legal action in every phase of every preset, chooses from its view
alone (hidden cards do not change its choice), and is reproducible from its seed.

The search agent is slow (each decision plays its candidates out): the deep run
(``GOUJI_TEST_PROFILE=deep``) plays two matches of two games in each preset with it, six
candidates a decision, and checks its blindness to hidden cards in six games; the default run
plays one match of one game, two of two where the second match and game reach paths the first
do not, three candidates a decision, and checks blindness in three games. Coverage of src/gouji
by this file: the default run reaches every line and branch the deep run does (the other
agents, fast, play the deep run's size in both).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gouji import Match, make_rules
from gouji.agents import get, names
from gouji.engine.rules import PRESET_NAMES
from support import DEEP, hide_and_shuffle, sized

#: One sample a decision: every search step runs (sampling, play-outs) without the time;
#: with fewer than four samples it never overrides the heuristic (its z-test needs four). By
#: default three candidates a decision are played out (the deep run: all six of its width).
FAST = {"search": {"budget_ms": 5.0, "samples": 1, "width": sized(3, 6)}}


#: the search agent's matches in each preset, and the games of each: 2 in the deep run; by
#: default 1, and 2 where the second match and game reach paths the first do not
SEARCH_SIZE = {p: 2 if DEEP or p in ("OUTLINE_CLASSIC", "LAIWU") else 1 for p in PRESET_NAMES}


def options(name: str) -> dict[str, float]:
    return FAST.get(name, {})


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "search"])
def test_agent_is_legal_everywhere(name: str, preset: str) -> None:
    """Matches with the agent in two seats and random elsewhere; every decision is checked."""
    if name not in names():
        pytest.skip(f"{name} is not built")
    rules = make_rules(preset)
    seen: Counter[str] = Counter()
    for seed in range(SEARCH_SIZE[preset] if name == "search" else 4):
        m = Match(rules, seed, games=SEARCH_SIZE[preset] if name == "search" else 2)
        bots = [
            get(name, seed=seed, **options(name))
            if seat in (seed % 6, (seed + 3) % 6)
            else get("random", seed=seed * 6 + seat)
            for seat in range(6)
        ]
        while True:
            while (seat := m.to_act) is not None:
                legal = m.legal_actions()
                action = bots[seat].act(m.view(seat), legal)
                assert action in legal, (name, preset, action)
                seen[m.game.pending if not m.game.is_over else str(m.pending)] += 1
                m.apply(action)
            if m.is_over:
                break
            m.next_game()
    assert seen["lead"] and seen["respond"]


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "search"])
def test_agent_ignores_hidden_cards(name: str) -> None:
    """The same view gives the same choice when the other seats' cards are reshuffled."""
    if name not in names():
        pytest.skip(f"{name} is not built")
    rules = make_rules("OUTLINE_FULL")
    rng = random.Random(7)
    checked = 0
    for seed in range(sized(3, 6) if name == "search" else 6):
        m = Match(rules, seed, games=1)
        g = m.game
        driver = get("random", seed=seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            if rng.random() < 0.08 and g.pending in ("lead", "respond"):
                twin = hide_and_shuffle(g, seat, rng)
                a = get(name, seed=99, **options(name)).act(g.view(seat), g.legal_actions())
                b = get(name, seed=99, **options(name)).act(twin.view(seat), twin.legal_actions())
                assert a.text == b.text
                checked += 1
            g.apply(driver.act(g.view(seat), g.legal_actions()))
    assert checked >= 5


def test_unknown_agent_and_option() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        get("nobody")
    with pytest.raises(ValueError, match="greedy"):
        get("greedy", speed=3)
