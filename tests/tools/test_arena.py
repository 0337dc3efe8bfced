"""The arena (issue 4 item 3): duplicate deals, paired statistics, jobs, the CLI, leagues."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gouji import agents, cli
from gouji.agents.base import View
from gouji.agents.simple import GreedyAgent
from gouji.engine.actions import Action
from gouji.engine.referee.game import Game
from gouji.engine.rules import make_rules
from gouji.tools import arena
from gouji.tools.stats import mean_ci, paired_ci, running_ci, t_quantile, unpaired_ci
from support import sized

PRESET = "OUTLINE_FULL"

#: (agent name, game of the deal, seat) of every decision a probe agent made.
SEEN: list[tuple[str, int, int]] = []
CURRENT_GAME: list[int] = [0]


class ProbeAgent(GreedyAgent):
    """Greedy (deterministic, so both games of a deal see the same decisions), recording
    the seats it plays."""

    def __init__(self, seed: int | None = None, tag: str = "probe_a") -> None:
        super().__init__(seed)
        self.name = tag

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        SEEN.append((self.name, CURRENT_GAME[0], view["seat"]))
        return super().act(view, legal)


def _probe_a(seed: int | None = None) -> ProbeAgent:
    return ProbeAgent(seed, "probe_a")


def _probe_b(seed: int | None = None) -> ProbeAgent:
    return ProbeAgent(seed, "probe_b")


agents.register("probe_a", _probe_a)
agents.register("probe_b", _probe_b)


def test_duplicate_deal_swaps_the_teams_on_the_same_cards() -> None:
    SEEN.clear()
    at_new: dict[int, list[str]] = {}
    at_lead: dict[int, list[str]] = {}

    def watch(game: int, g: Game) -> None:
        CURRENT_GAME[0] = game
        if game not in at_new:
            at_new[game] = [g.hand(s) for s in range(6)]
        if g.pending == "lead" and game not in at_lead:
            at_lead[game] = [g.view(s)["hand"] for s in range(6)]

    seed = arena.deal_seed(7, 3)
    deal = arena.play_deal(PRESET, ["probe_a", "probe_b"], seed, watch=watch)
    assert deal.seed == seed
    assert at_new[0] == at_new[1] == [Game.new(make_rules(PRESET), seed).hand(s) for s in range(6)]
    assert at_lead[0] == at_lead[1]
    g0, g1 = deal.games
    assert g0.deal_key == g1.deal_key
    assert (g0.a_seats, g1.a_seats) == ((0, 2, 4), (1, 3, 5))
    seats: dict[tuple[str, int], set[int]] = {
        (name, game): set() for name in ("probe_a", "probe_b") for game in (0, 1)
    }
    for name, game, seat in SEEN:
        seats[name, game].add(seat)
    assert seats["probe_a", 0] == {0, 2, 4} and seats["probe_b", 0] == {1, 3, 5}
    assert seats["probe_a", 1] == {1, 3, 5} and seats["probe_b", 1] == {0, 2, 4}
    # the same policy on both sides: the second game mirrors the first, with teams swapped
    assert g0.points == (g1.points[1], g1.points[0])
    assert g0.outcome + g1.outcome == 1.0
    # another deal, other cards
    other = arena.play_deal(PRESET, ["probe_a", "probe_b"], seed + 1)
    assert other.games[0].deal_key != g0.deal_key


def test_every_seat_gets_its_own_seeded_agent() -> None:
    seeds = {arena.agent_seed(11, game, seat) for game in (0, 1) for seat in range(6)}
    assert len(seeds) == 12
    assert arena.agent_seed(11, 0, 0) == arena.agent_seed(11, 0, 0)


def test_t_quantiles() -> None:
    for dof, expected in ((1, 12.7062047), (2, 4.3026527), (9, 2.2621572), (29, 2.0452296)):
        assert t_quantile(0.975, dof) == pytest.approx(expected, abs=1e-6)
    assert t_quantile(0.975, 1000) == pytest.approx(1.9623391, abs=1e-6)
    assert t_quantile(0.025, 9) == pytest.approx(-2.2621572, abs=1e-6)


def test_mean_ci_matches_a_hand_computation() -> None:
    xs = [1.0, 0.0, 0.5, 1.0, 0.75]
    mean = sum(xs) / 5
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / 4)
    half = 2.7764451 * sd / math.sqrt(5)  # t(0.975, 4 dof)
    e = mean_ci(xs)
    assert e.mean == pytest.approx(0.65)
    assert e.n == 5 and e.sd == pytest.approx(sd)
    assert e.low == pytest.approx(mean - half)
    assert e.high == pytest.approx(mean + half)
    # paired: the games of a deal are averaged first
    p = paired_ci([[1.0, 1.0], [0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.5, 1.0]])
    assert (p.mean, p.low, p.high) == (e.mean, e.low, e.high)
    assert running_ci(xs)[-1] == pytest.approx(e)


def test_constant_sample_has_a_zero_width_interval() -> None:
    e = paired_ci([[0.5, 0.5]] * 10)
    assert e.low == e.mean == e.high == 0.5
    assert e.half_width == 0.0
    single = mean_ci([3.0])
    assert single.mean == 3.0 and single.interval() == [None, None]


def test_pairing_by_deal_narrows_the_interval_when_the_deal_decides() -> None:
    # the luck of the deal: whoever holds the good cards wins, so agent A wins one game of
    # a deal and loses the other (negatively correlated within the deal), with a few real wins
    groups = [[1.0, 0.0], [0.0, 1.0]] * 8 + [[1.0, 1.0]] * 4
    paired, unpaired = paired_ci(groups), unpaired_ci(groups)
    assert paired.mean == unpaired.mean
    assert paired.half_width < 0.7 * unpaired.half_width


def _essentials(r: arena.ArenaResult) -> list[Any]:
    return [
        [
            (d.deal, d.seed, [(g.outcome, g.points, g.decisions, g.deal_key) for g in d.games])
            for d in pr.deals
        ]
        for pr in r.pairs
    ] + [r.win, r.score_diff, r.ratings, r.games]


def test_jobs_give_the_same_result() -> None:
    one = arena.run(PRESET, ["greedy", "random"], 6, seed=5, jobs=1)
    two = arena.run(PRESET, ["greedy", "random"], 6, seed=5, jobs=2)
    assert _essentials(one) == _essentials(two)
    assert one.as_dict()["ci95"] == two.as_dict()["ci95"]


def test_cli_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(
        ["arena", "--agents", "greedy,random", "--deals", "3", "--preset", PRESET, "--json"]
    )
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    for key in (
        "win_rate",
        "ci95",
        "mean_score_diff",
        "score_diff_ci95",
        "deals",
        "games",
        "agents",
        "preset",
        "decisions_per_s",
        "ms_per_decision",
        "ratings",
        "pairs",
    ):
        assert key in data
    # three seeds by default, pooled: 3 deals each
    assert data["deals"] == 9 and data["games"] == 18 and data["deals_per_seed"] == 3
    assert data["seeds"] == [1, 2, 3] and data["seed"] == 1
    assert [f["seed"] for f in data["per_seed"]] == [1, 2, 3]
    assert all(f["deals"] == 3 for f in data["per_seed"])
    assert data["claim"] is False  # 3 × 3 deals is not 3 × 100
    assert data["agents"] == ["greedy", "random"] and data["preset"] == PRESET
    assert set(data["ms_per_decision"]) == {"greedy", "random"}
    low, high = data["ci95"]
    assert 0.0 <= low <= data["win_rate"] <= high <= 1.0


def test_cli_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "arena.png"
    code = cli.main(
        ["arena", "--agents", "greedy,random", "--deals", "4", "--plot", str(out), "--seed", "2"]
    )
    assert code == 0
    assert "greedy wins" in capsys.readouterr().out
    data = out.read_bytes()
    assert len(data) > 1000 and data[:8] == b"\x89PNG\r\n\x1a\n"


def test_league_rates_every_agent(capsys: pytest.CaptureFixture[str]) -> None:
    r = arena.run(PRESET, ["random", "greedy", "random"], 3, seed=1)
    assert r.agents == ("random", "greedy", "random#3")
    assert set(r.ratings) == set(r.agents)
    assert [pr.agents for pr in r.pairs] == [
        ("random", "greedy"),
        ("random", "random#3"),
        ("greedy", "random#3"),
    ]
    assert r.games == 3 * 3 * 2
    for rating in r.ratings.values():
        assert rating.sigma > 0 and rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
    # the same deals for every pair
    assert {d.seed for pr in r.pairs for d in pr.deals} == {arena.deal_seed(1, i) for i in range(3)}
    # one seed: the default three, pooled, are test_cli_json_line's
    argv = ["arena", "--agents", "random,greedy,random", "--deals", "2", "--seed", "1", "--json"]
    code = cli.main(argv)
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["ratings"]) == {"random", "greedy", "random#3"}
    assert set(data["ratings"]["greedy"]) == {"mu", "sigma", "ordinal"}
    assert len(data["pairs"]) == 3


def test_greedy_against_random_over_many_deals() -> None:
    """The figures of a longer run agree: 8 deals by default, 20 in the deep run (the 8 reach
    every line and branch of src/gouji the 20 do: coverage)."""
    deals = sized(8, 20)
    r = arena.run(PRESET, ["greedy", "random"], deals, seed=0)
    assert r.deals == deals and r.games == 2 * deals
    pr = r.pairs[0]
    assert pr.wins + pr.draws + pr.losses == 2 * deals
    assert r.win_rate == pytest.approx((pr.wins + pr.draws / 2) / (2 * deals))
    low, high = r.ci95
    assert low is not None and high is not None and low <= r.win_rate <= high
    assert r.decisions > 0 and r.decisions_per_s > 0
    assert all(ms > 0 for ms in r.ms_per_decision.values())
    assert r.score_diff.mean == pytest.approx(
        sum(g.score_diff for d in pr.deals for g in d.games) / (2 * deals)
    )


def test_agent_options() -> None:
    assert cli.parse_agent_option("search.budget_ms=200") == ("search", "budget_ms", 200)
    assert cli.parse_agent_option("search.c=1.5") == ("search", "c", 1.5)
    assert cli.parse_agent_option("heuristic.style=bold") == ("heuristic", "style", "bold")
    with pytest.raises(ValueError):
        cli.parse_agent_option("budget_ms=200")
    specs = arena.make_specs(["random", "greedy", "random"], {"random#3": {"x": 1}})
    assert [s.options for s in specs] == [(), (), (("x", 1),)]
    with pytest.raises(ValueError, match="no such agent"):
        arena.make_specs(["random", "greedy"], {"search": {"budget_ms": 5}})
    with pytest.raises(ValueError):  # an option the agent does not take
        arena.run(PRESET, ["random", "greedy"], 1, options={"random": {"bogus": 1}})
    code = cli.main(["arena", "--agents", "random,greedy", "--deals", "1", "--opt", "random.x=1"])
    assert code == 2


def test_arena_without_its_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`make serve` installs no SciPy (issue 12): `gouji arena` then names the missing extra."""
    import sys

    import gouji.tools
    from gouji.cli import main

    # `from gouji.tools import arena` imports again
    monkeypatch.delattr(gouji.tools, "arena", raising=False)
    monkeypatch.delitem(sys.modules, "gouji.tools.arena", raising=False)
    monkeypatch.delitem(sys.modules, "gouji.tools.stats", raising=False)
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    assert main(["arena", "--agents", "random,greedy", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "scipy" in err and "gouji[arena]" in err


def test_seeds_pool_and_each_seed_is_its_own_run() -> None:
    pooled = arena.run(PRESET, ["greedy", "random"], 4, seed=[3, 7])
    alone = [arena.run(PRESET, ["greedy", "random"], 4, seed=s) for s in (3, 7)]
    assert pooled.seeds == (3, 7) and pooled.deals == 8 and pooled.games == 16
    # the pooled deals are exactly both single-seed runs' deals, in seed order
    deals = [_essentials(r)[0] for r in alone]
    assert _essentials(pooled)[0] == deals[0] + deals[1]
    for figures, one in zip(pooled.per_seed, alone, strict=True):
        assert figures.deals == 4
        assert figures.win == one.win and figures.score_diff == one.score_diff
    outcomes = [d.outcome for r in alone for d in r.pairs[0].deals]
    assert pooled.win_rate == pytest.approx(sum(outcomes) / len(outcomes))
    assert not pooled.is_claim
    assert any(line.startswith("not a claim") for line in arena.report(pooled))
    assert any(line.strip().startswith("seed 7") for line in arena.report(pooled))


def test_a_claim_takes_three_seeds_of_a_hundred_deals() -> None:
    r = arena.run(PRESET, ["greedy", "random"], 2, seed=[1, 2, 3])
    assert not r.is_claim
    # the rule itself, on the figures' size (playing 300 deals would only take time)
    for seeds, deals, claim in (
        ((1, 2, 3), 300, True),
        ((1, 2), 300, False),
        ((1, 2, 3), 297, False),
    ):
        sized = dataclasses.replace(r, seeds=seeds, deals=deals)
        assert sized.is_claim is claim and sized.as_dict()["claim"] is claim
        assert any(line.startswith("not a claim") for line in arena.report(sized)) is not claim
    with pytest.raises(ValueError, match="distinct"):
        arena.run(PRESET, ["greedy", "random"], 1, seed=[1, 1])


def test_cli_seed_list_and_bad_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["arena", "--agents", "greedy,random", "--deals", "2", "--seed", "4,5"])
    assert code == 0
    out = capsys.readouterr().out
    assert "2 × seeds 4, 5" in out and "not a claim" in out
    assert cli.main(["arena", "--agents", "greedy,random", "--seed", "one"]) == 2
    assert "--seed takes whole numbers" in capsys.readouterr().err


def test_ladder_league_plays_each_agent_against_the_next() -> None:
    """A ladder plays n − 1 pairs; each pair's deals are those of the same pair alone, and the
    first agent's figures (pooled and each seed's) are its one pair's."""
    r = arena.run(PRESET, ["greedy", "random", "greedy"], 3, seed=[1, 2], schedule="ladder")
    assert r.schedule == "ladder" and r.as_dict()["schedule"] == "ladder"
    assert [pr.agents for pr in r.pairs] == [("greedy", "random"), ("random", "greedy#3")]
    assert r.games == 2 * 6 * 2
    assert set(r.ratings) == {"greedy", "random", "greedy#3"}
    alone = arena.run(PRESET, ["greedy", "random"], 3, seed=[1, 2])
    assert _essentials(r)[0] == _essentials(alone)[0]
    assert r.win == alone.win and [f.deals for f in r.per_seed] == [3, 3]
    assert [f.win for f in r.per_seed] == [f.win for f in alone.per_seed]
    assert "ladder" in arena.report(r)[1]
    with pytest.raises(ValueError, match="schedule"):
        arena.run(PRESET, ["greedy", "random"], 1, schedule="swiss")
