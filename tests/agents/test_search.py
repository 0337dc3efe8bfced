"""The search agent's work budget (``steps``: the same choices on any machine) and its pruning
of challengers that cannot beat the heuristic's choice."""

from __future__ import annotations

from gouji import Game, make_rules
from gouji.agents.heuristic import HeuristicAgent
from gouji.agents.search import SearchAgent, rollout_view
from gouji.engine.cards import counts_text

OBJECT_KEYS = ("hand_counts", "resolved_rules", "standing_play")


def _positions(count: int) -> list[Game]:
    """Play decisions with a choice from heuristic games, late enough for short play-outs."""
    out: list[Game] = []
    driver = HeuristicAgent()
    seed = 0
    while len(out) < count:
        g = Game.new(make_rules("OUTLINE_FULL"), 40 + seed)
        seed += 1
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions()
            if g.pending in ("lead", "respond") and len(legal) > 2 and sum(g.hands[seat]) < 14:
                out.append(g.clone())
                break
            g.apply(driver.act(g.view(seat), legal))
    return out


def test_a_step_budget_gives_the_same_choice_whatever_the_clock() -> None:
    for g in _positions(3):
        seat = g.to_act
        assert seat is not None
        choices = []
        for budget_ms in (1e9, 1e12):
            agent = SearchAgent(seed=5, budget_ms=budget_ms, samples=10**6, steps=600)
            choices.append((agent.act(g.view(seat), g.legal_actions()), agent.last))
        assert choices[0] == choices[1]
        info = choices[0][1]
        # it spends the budget, unless every challenger was dropped before
        dropped = all(c < info["samples"] for c in info["counts"][1:])
        assert info["steps"] >= 600 or dropped


def test_hopeless_challengers_are_dropped_and_the_rest_get_the_samples() -> None:
    agent = SearchAgent(seed=3, budget_ms=1e9, samples=24, min_samples=6, prune_z=0.5)
    dropped = 0
    for g in _positions(4):
        seat = g.to_act
        assert seat is not None
        agent.act(g.view(seat), g.legal_actions())
        counts = agent.last["counts"]
        assert counts[0] == agent.last["samples"] == max(counts)
        assert all(c >= 6 for c in counts)  # nobody is dropped before min_samples
        dropped += sum(c < counts[0] for c in counts[1:])
    assert dropped > 0
    # without pruning every candidate sees every sample
    keep = SearchAgent(seed=3, budget_ms=1e9, samples=8, min_samples=10**6)
    g = _positions(1)[0]
    keep.act(g.view(g.to_act or 0), g.legal_actions())
    assert set(keep.last["counts"]) == {8}


def test_the_gate_keeps_the_favourite_where_few_samples_fit() -> None:
    g = Game.new(make_rules("OUTLINE_FULL"), 11)
    driver = HeuristicAgent()
    while not (g.pending in ("lead", "respond") and len(g.legal_actions()) > 2):
        g.apply(driver.act(g.view(g.to_act or 0), g.legal_actions()))
    seat = g.to_act
    assert seat is not None
    view, legal = g.view(seat), g.legal_actions()
    # early: a play-out is ~100 decisions a candidate, so 2,000 steps allow a few samples only
    gated = SearchAgent(seed=1, budget_ms=1e9, steps=2000, gate=10)
    assert gated.act(view, legal) == driver.act(view, legal)
    assert gated.last["samples"] == 1
    free = SearchAgent(seed=1, budget_ms=1e9, steps=2000, gate=0)
    free.act(view, legal)
    assert free.last["samples"] > 1
    # a budget with room for the gate's samples searches on
    roomy = SearchAgent(seed=1, budget_ms=1e9, steps=4000, gate=2, min_samples=10**6)
    roomy.act(view, legal)
    assert roomy.last["samples"] > 1


def test_a_play_out_view_gives_the_heuristic_the_choices_its_text_would() -> None:
    """Play-outs hand the heuristic the hand, rules and standing play as objects; the same
    view written as text (as a seat's view is) must lead to the same choice everywhere."""
    agent = HeuristicAgent()
    rules = make_rules("OUTLINE_FULL")
    spec = rules.spec()
    compared = 0
    for seed in range(3):
        g = Game.new(rules, 70 + seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions()
            fast = rollout_view(g, seat, spec)
            if len(legal) > 1 and g.pending in ("lead", "respond", "rang_return", "burn_offer"):
                text = {k: v for k, v in fast.items() if k not in OBJECT_KEYS}
                text["hand"] = counts_text(g.hands[seat])
                assert agent.act(fast, legal) is agent.act(text, legal), g.actions[-3:]
                compared += 1
            g.apply(agent.act(fast, legal))
    assert compared > 100


def test_an_open_choice_gets_more_steps_up_to_the_cap_and_a_clear_one_does_not() -> None:
    extended = 0
    for g in _positions(4):
        seat = g.to_act
        assert seat is not None
        view, legal = g.view(seat), g.legal_actions()
        base = SearchAgent(seed=7, budget_ms=1e9, samples=10**6, steps=600)
        base.act(view, legal)
        runs = []
        for _ in range(2):  # the same seed, the same choice and the same work
            more = SearchAgent(seed=7, budget_ms=1e9, samples=10**6, steps=600, extend=3.0)
            runs.append((more.act(view, legal), more.last["steps"], more.last["samples"]))
        assert runs[0] == runs[1]
        info = more.last
        last_cost = info["steps"] / max(1, info["samples"]) * len(info["counts"]) + 400
        if info["extra"]:
            extended += 1
            assert base.last["steps"] >= 600 and info["steps"] > base.last["steps"]
            assert info["steps"] <= 1800 + last_cost  # the cap: three times the steps
            assert info["samples"] == base.last["samples"] + info["extra"]
        else:  # settled within the steps: the extension changes nothing
            assert info["outcomes"] == base.last["outcomes"]
    assert extended > 0
    assert SearchAgent(steps=600).extend == 1.0  # off by default


def test_the_new_options_are_checked() -> None:
    for bad in ({"play_weight": 1.5}, {"play_weight": -0.1}, {"extend": 0.5}):
        try:
            SearchAgent(**bad)  # type: ignore[arg-type]
        except ValueError:
            continue
        raise AssertionError(f"{bad} accepted")
