"""The levels players pick (新手 / 普通 / 高手 / 大师) are agents with options, weakest first,
and the heuristic's ``mistakes`` (the lower levels' slips) behaves as documented."""

from __future__ import annotations

import pytest

from gouji import Game, make_rules
from gouji.agents import get, names
from gouji.agents.heuristic import HeuristicAgent
from gouji.agents.levels import BY_KEY, LEVELS
from gouji.agents.search import SearchAgent


def test_four_levels_by_name_weakest_first() -> None:
    assert [lv.zh for lv in LEVELS] == ["新手", "普通", "高手", "大师"]
    assert [lv.key for lv in LEVELS] == ["beginner", "intermediate", "expert", "master"]
    assert set(BY_KEY) <= set(names())
    master = get("master", seed=1)
    assert isinstance(master, SearchAgent)
    assert master.max_steps == 36000 and master.budget_ms <= 3000 and master.pass_weight < 1
    assert master.extend == 2.0  # close choices get up to twice the steps
    expert = get("expert")
    assert isinstance(expert, HeuristicAgent) and expert.mistakes == 0
    slips = [get(k).mistakes for k in ("beginner", "intermediate")]  # type: ignore[attr-defined]
    assert slips[0] > slips[1] > 0
    # a level's options can be overridden for experiments
    assert get("master", steps=50).max_steps == 50  # type: ignore[attr-defined]


def _decisions(agent_a: HeuristicAgent, agent_b: HeuristicAgent, seed: int) -> tuple[int, int]:
    """(play decisions, how many the two agents chose differently) over one game played by
    the heuristic."""
    g = Game.new(make_rules("OUTLINE_FULL"), seed)
    driver = HeuristicAgent()
    plays = differ = 0
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        legal, view = g.legal_actions(), g.view(seat)
        choice = driver.act(view, legal)
        if len(legal) > 1 and g.pending in ("lead", "respond"):
            plays += 1
            differ += agent_a.act(view, legal) != agent_b.act(view, legal)
        g.apply(choice)
    return plays, differ


def test_mistakes_are_slips_of_the_expert() -> None:
    """At 0 the agent is the heuristic; at 1 every lead and answer is random; a slip rate in
    between changes some choices and is reproducible from the seed."""
    plays, differ = _decisions(HeuristicAgent(mistakes=0.0), HeuristicAgent(), 3)
    assert plays > 20 and differ == 0
    plays, always = _decisions(HeuristicAgent(seed=1, mistakes=1.0), HeuristicAgent(), 3)
    _, some = _decisions(HeuristicAgent(seed=1, mistakes=0.15), HeuristicAgent(), 3)
    assert 0 < some < always
    _, again = _decisions(HeuristicAgent(seed=1, mistakes=0.15), HeuristicAgent(seed=1), 3)
    assert again == some
    with pytest.raises(ValueError, match="probability"):
        get("heuristic", mistakes=1.5)
