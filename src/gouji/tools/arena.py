"""The arena: agents against each other on duplicate deals (issue 4 item 3).

Deal ``i`` of a run with seed ``S`` is ``Game.new(rules, S * 1_000_000 + i)``, played twice:
game 0 with the first agent in team A's seats (0, 2, 4) and the second in team B's (1, 3, 5),
game 1 swapped. The seed fixes the shuffle and the opening, so both games start from the same
cards; the luck of the deal cancels out of the pair. Every seat gets its own agent instance,
seeded from the deal seed, the game and the seat, so no state is shared across seats and a
deal's result does not depend on which process or Ray node plays it (``jobs``, ``ray``).

A game is won by the team with the higher raw place-point sum (``result()["team_points"]``),
a draw counts half; the score difference is the first agent's team points minus the other's.
Confidence intervals are paired by deal (``gouji.tools.stats.paired_ci``): the two games of a deal
are averaged first. A run may have several seeds (``seed=[1, 2, 3]``): every seed plays its own
``deals`` deals, the figures pool them all, and ``per_seed`` gives each seed's. A figure is a
*claim* only from three seeds or more of a hundred deals or more each (``CLAIM_SEEDS``,
``CLAIM_DEALS``): one lucky seed is not evidence. With three or more agents every pair plays
the same deals (a league) and openskill's Plackett-Luce model rates every game as a match of
two one-player teams. A *ladder* league (``schedule="ladder"``) plays only each agent against
the next in the order given: enough to order levels, and the pairs with a slow agent are
played once.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gouji import agents as agent_registry
from gouji.agents.base import Agent
from gouji.engine.referee.game import Game
from gouji.engine.rules import Rules, make_rules
from gouji.tools.cluster import Pool, chunk_size, chunks
from gouji.tools.progress import progress_bar
from gouji.tools.stats import Estimate, paired_ci, running_ci

#: A game that runs longer than this many decisions is a bug (an agent or the engine).
MAX_DECISIONS = 50_000
#: What a claim about strength takes (docs/strength.md): seeds, and deals a seed.
CLAIM_SEEDS, CLAIM_DEALS = 3, 100
#: Who plays whom in a league.
SCHEDULES = ("all", "ladder")
TEAM_SEATS = ((0, 2, 4), (1, 3, 5))

Watch = Callable[[int, Game], None]


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """An agent by registry name, with its options; ``label`` names it in reports (unique
    within a run: ``random``, ``greedy``, ``random#3`` for a name that comes back)."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    label: str = ""

    @property
    def title(self) -> str:
        """The label, or the name when there is none."""
        return self.label or self.name

    def build(self, seed: int) -> Agent:
        """A fresh agent instance."""
        return agent_registry.get(self.name, seed=seed, **dict(self.options))


def as_spec(agent: str | AgentSpec) -> AgentSpec:
    """``agent`` as a spec (a bare name has no options)."""
    return agent if isinstance(agent, AgentSpec) else AgentSpec(agent)


def deal_seed(seed: int, deal: int) -> int:
    """The ``Game.new`` seed of deal ``deal`` of a run with seed ``seed``."""
    return seed * 1_000_000 + deal


def run_seed(deal_seed: int) -> int:
    """The run seed a deal seed belongs to (``deal_seed``'s inverse)."""
    return deal_seed // 1_000_000


def agent_seed(deal_seed: int, game: int, seat: int) -> int:
    """The seed of the agent in ``seat`` in game ``game`` (0 or 1) of a deal (32 bits)."""
    digest = hashlib.blake2b(f"{deal_seed}:{game}:{seat}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def deal_key(game: Game) -> str:
    """A short fingerprint of the six hands (equal hands, equal key)."""
    text = "|".join(game.hand(seat) for seat in range(6))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a deal, seen from the first agent of the pair."""

    game: int  # 0: the first agent holds seats 0, 2, 4; 1: seats 1, 3, 5
    a_seats: tuple[int, ...]
    deal_key: str  # fingerprint of the hands as dealt
    points: tuple[int, int]  # team points of (first agent's team, second agent's team)
    outcome: float  # 1 win, 0.5 draw, 0 loss for the first agent
    decisions: int
    seconds: float  # the whole game, engine included
    act_seconds: tuple[float, float]  # time inside ``act``: (first agent, second agent)
    act_calls: tuple[int, int]

    @property
    def score_diff(self) -> int:
        """The first agent's team points minus the other team's."""
        return self.points[0] - self.points[1]


@dataclass(frozen=True, slots=True)
class DealResult:
    """Both games of one duplicate deal."""

    deal: int
    seed: int
    agents: tuple[str, str]
    games: tuple[GameOutcome, GameOutcome]

    @property
    def outcome(self) -> float:
        """The first agent's mean outcome over the two games."""
        return (self.games[0].outcome + self.games[1].outcome) / 2

    @property
    def score_diff(self) -> float:
        """The first agent's mean score difference over the two games."""
        return (self.games[0].score_diff + self.games[1].score_diff) / 2


_RULES_CACHE: dict[tuple[str, str], Rules] = {}


def _rules(preset: str | Rules, overrides: Mapping[str, object] | None) -> Rules:
    if isinstance(preset, Rules):
        if overrides:
            raise ValueError("overrides go with a preset name, not a Rules object")
        return preset
    key = (preset, repr(sorted((overrides or {}).items())))
    if key not in _RULES_CACHE:
        _RULES_CACHE[key] = make_rules(preset, overrides)
    return _RULES_CACHE[key]


def play_game(
    rules: Rules,
    specs: tuple[AgentSpec, AgentSpec],
    seed: int,
    game: int,
    watch: Watch | None = None,
) -> GameOutcome:
    """Game ``game`` (0 or 1) of the deal ``seed``: ``specs[game % 2]`` in seats 0, 2, 4."""
    g = Game.new(rules, seed)
    key = deal_key(g)
    a_team = game % 2
    owner = [0 if seat % 2 == a_team else 1 for seat in range(6)]  # 0: first agent
    players = [specs[owner[seat]].build(agent_seed(seed, game, seat)) for seat in range(6)]
    act_seconds = [0.0, 0.0]
    act_calls = [0, 0]
    decisions = 0
    clock = time.perf_counter
    start = clock()
    while not g.is_over:
        if watch is not None:
            watch(game, g)
        seat = g.to_act
        if seat is None:
            raise RuntimeError(f"deal seed {seed}, game {game}: nobody to act at {g.pending!r}")
        legal = g.legal_actions()
        view = g.view(seat)
        t0 = clock()
        action = players[seat].act(view, legal)
        act_seconds[owner[seat]] += clock() - t0
        act_calls[owner[seat]] += 1
        try:
            g.apply(action, seat)
        except ValueError as e:
            who = specs[owner[seat]].title
            raise RuntimeError(f"deal seed {seed}, game {game}: {who} at P{seat}: {e}") from e
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"deal seed {seed}, game {game}: over {MAX_DECISIONS} decisions")
    seconds = clock() - start
    raw = g.result()["team_points"]
    mine, theirs = int(raw[a_team]), int(raw[1 - a_team])
    outcome = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return GameOutcome(
        game=game,
        a_seats=TEAM_SEATS[a_team],
        deal_key=key,
        points=(mine, theirs),
        outcome=outcome,
        decisions=decisions,
        seconds=seconds,
        act_seconds=(act_seconds[0], act_seconds[1]),
        act_calls=(act_calls[0], act_calls[1]),
    )


def play_deal(
    preset: str | Rules,
    agents_spec: Sequence[str | AgentSpec],
    seed: int,
    *,
    overrides: Mapping[str, object] | None = None,
    deal: int = 0,
    watch: Watch | None = None,
) -> DealResult:
    """Both games of the duplicate deal ``Game.new(rules, seed)`` between two agents.

    ``watch(game, g)``, if given, is called before every decision (for tests and tools).
    """
    if len(agents_spec) != 2:
        raise ValueError(f"a deal is played by two agents, not {len(agents_spec)}")
    specs = (as_spec(agents_spec[0]), as_spec(agents_spec[1]))
    rules = _rules(preset, overrides)
    games = (play_game(rules, specs, seed, 0, watch), play_game(rules, specs, seed, 1, watch))
    return DealResult(deal, seed, (specs[0].title, specs[1].title), games)


# ---------------------------------------------------------------------------- a whole run


@dataclass(frozen=True, slots=True)
class PairResult:
    """Every deal of one pair of agents, with the paired figures of the first."""

    agents: tuple[str, str]
    deals: tuple[DealResult, ...]
    win: Estimate
    score_diff: Estimate
    wins: int
    draws: int
    losses: int

    @classmethod
    def of(cls, agents: tuple[str, str], deals: Sequence[DealResult]) -> PairResult:
        """The figures of ``deals``."""
        outcomes = [g.outcome for d in deals for g in d.games]
        return cls(
            agents=agents,
            deals=tuple(deals),
            win=paired_ci([g.outcome for g in d.games] for d in deals),
            score_diff=paired_ci([g.score_diff for g in d.games] for d in deals),
            wins=outcomes.count(1.0),
            draws=outcomes.count(0.5),
            losses=outcomes.count(0.0),
        )

    def as_dict(self) -> dict[str, object]:
        """The figures as a JSON-ready dict (no per-deal detail)."""
        return {
            "agents": list(self.agents),
            "win_rate": _round(self.win.mean),
            "ci95": _clip01(self.win),
            "mean_score_diff": _round(self.score_diff.mean),
            "score_diff_ci95": [_round(x) for x in self.score_diff.interval()],
            "deals": len(self.deals),
            "games": 2 * len(self.deals),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }


@dataclass(frozen=True, slots=True)
class SeedFigures:
    """The first agent's figures on the deals of one seed of a run."""

    seed: int
    deals: int
    win: Estimate
    score_diff: Estimate

    def as_dict(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "deals": self.deals,
            "win_rate": _round(self.win.mean),
            "ci95": _clip01(self.win),
            "mean_score_diff": _round(self.score_diff.mean),
            "score_diff_ci95": [_round(x) for x in self.score_diff.interval()],
        }


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating: ``ordinal`` = mu − 3·sigma."""

    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """The figures of an arena run.

    ``win_rate``/``ci95`` and ``mean_score_diff``/``score_diff_ci95`` are the first agent's
    (draws half, intervals paired by deal); in a league they pool every pair the first agent
    plays (each deal of each pair one sample). ``decisions_per_s`` is over the run's wall
    time (every process together); ``ms_per_decision`` is the mean time inside ``act`` per
    agent. ``jobs`` is how many deals were played at once: the processes, or on Ray the
    cluster's CPUs; ``ray`` is the Ray cluster's address (None: not on Ray).
    """

    preset: str
    agents: tuple[str, ...]
    seed: int  # the first seed
    jobs: int
    deals: int  # deals per pair, every seed together
    games: int  # games in all
    win: Estimate
    score_diff: Estimate
    decisions: int
    seconds: float
    decisions_per_s: float
    ms_per_decision: dict[str, float]
    ratings: dict[str, Rating]
    pairs: tuple[PairResult, ...]
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    ray: str | None = None
    seeds: tuple[int, ...] = ()  # every seed of the run (``seed`` is the first)
    per_seed: tuple[SeedFigures, ...] = ()
    schedule: str = "all"  # every pair, or "ladder": each agent against the next

    @property
    def deals_per_seed(self) -> int:
        return self.deals // max(1, len(self.seeds))

    @property
    def is_claim(self) -> bool:
        """Enough deals from enough seeds to state the figures (CLAIM_SEEDS × CLAIM_DEALS)."""
        return len(self.seeds) >= CLAIM_SEEDS and self.deals_per_seed >= CLAIM_DEALS

    @property
    def win_rate(self) -> float:
        """The first agent's win rate (draws half)."""
        return self.win.mean

    @property
    def ci95(self) -> list[float | None]:
        """The 95% interval of the win rate, clipped to [0, 1]."""
        return _clip01(self.win)

    @property
    def mean_score_diff(self) -> float:
        """The first agent's mean team score difference per game."""
        return self.score_diff.mean

    @property
    def is_league(self) -> bool:
        """Three agents or more."""
        return len(self.agents) > 2

    def as_dict(self) -> dict[str, object]:
        """The figures as a JSON-ready dict (one line of ``gouji arena --json``)."""
        return {
            "agents": list(self.agents),
            "preset": self.preset,
            "seed": self.seed,
            "seeds": list(self.seeds),
            "schedule": self.schedule,
            "deals_per_seed": self.deals_per_seed,
            "claim": self.is_claim,
            "per_seed": [f.as_dict() for f in self.per_seed],
            "jobs": self.jobs,
            "ray": self.ray,
            "deals": self.deals,
            "games": self.games,
            "win_rate": _round(self.win.mean),
            "ci95": self.ci95,
            "mean_score_diff": _round(self.score_diff.mean),
            "score_diff_ci95": [_round(x) for x in self.score_diff.interval()],
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "decisions_per_s": round(self.decisions_per_s, 1),
            "ms_per_decision": {k: round(v, 4) for k, v in self.ms_per_decision.items()},
            "ratings": {
                k: {"mu": _round(r.mu), "sigma": _round(r.sigma), "ordinal": _round(r.ordinal)}
                for k, r in self.ratings.items()
            },
            "pairs": [p.as_dict() for p in self.pairs],
            "options": self.options,
        }


def _round(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, digits)


def _clip01(e: Estimate) -> list[float | None]:
    return [None if x is None else _round(min(1.0, max(0.0, x))) for x in e.interval()]


def make_specs(
    names: Sequence[str], options: Mapping[str, Mapping[str, Any]] | None = None
) -> list[AgentSpec]:
    """Specs for ``names`` with unique labels (``random``, ``greedy``, ``random#3``).

    ``options`` maps an agent name (every agent of that name) or a label (that one) to its
    options; a label's options override its name's. A key naming no agent is a ValueError.
    """
    options = options or {}
    labels = [name if names.index(name) == i else f"{name}#{i + 1}" for i, name in enumerate(names)]
    unknown = set(options) - set(names) - set(labels)
    if unknown:
        raise ValueError(
            f"options for {', '.join(sorted(unknown))}: no such agent in {', '.join(labels)}"
        )
    specs = []
    for name, label in zip(names, labels, strict=True):
        opts = {**options.get(name, {}), **(options.get(label, {}) if label != name else {})}
        specs.append(AgentSpec(name, tuple(sorted(opts.items())), label))
    return specs


def _play_chunk(
    rules: Rules, tasks: Sequence[tuple[int, AgentSpec, AgentSpec, int, int]]
) -> list[tuple[int, DealResult]]:
    """Worker: (pair index, deal result) for each (pair, a, b, deal, seed) task."""
    return [(pair, play_deal(rules, (a, b), seed, deal=deal)) for pair, a, b, deal, seed in tasks]


def run(
    preset: str | Rules,
    agents: Sequence[str | AgentSpec],
    deals: int,
    *,
    seed: int | Sequence[int] = 0,
    jobs: int = 1,
    ray: str | bool = False,
    overrides: Mapping[str, object] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: bool = False,
    schedule: str = "all",
) -> ArenaResult:
    """Play ``deals`` duplicate deals for every pair of ``agents`` (two: one pair), for the
    seed ``seed`` or for each of several (pooled, with each seed's figures too).

    ``options`` as in ``make_specs`` (for agents given by name). ``jobs`` > 1 splits the
    deals over that many processes; ``ray`` over a Ray cluster instead (True: ``ray.init()``
    finds or starts one; a string: its address; ``gouji.tools.cluster.Pool``). The result (timings
    aside) is the same either way. ``progress`` shows a tqdm bar on stderr. ``schedule``:
    ``"all"`` pairs, or ``"ladder"`` (each agent against the next in the order given).
    """
    if len(agents) < 2:
        raise ValueError("the arena needs two agents or more")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    seeds = [seed] if isinstance(seed, int) else list(seed)
    if not seeds or len(set(seeds)) != len(seeds) or any(x < 0 for x in seeds):
        raise ValueError(f"seeds must be distinct integers of 0 or more, not {seeds}")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule is one of {', '.join(SCHEDULES)}, not {schedule!r}")
    if ray is not False and jobs != 1:
        raise ValueError("jobs and ray: one or the other (Ray uses every CPU it has)")
    if all(isinstance(a, str) for a in agents):
        specs = make_specs([str(a) for a in agents], options)
    else:
        if options:
            raise ValueError("options go with agent names; put them in the AgentSpec")
        specs = [as_spec(a) for a in agents]
    titles = tuple(s.title for s in specs)
    if len(set(titles)) != len(titles):
        raise ValueError(f"agent labels must be unique: {', '.join(titles)}")
    for s in specs:  # fail fast on unknown agents or options, before any process starts
        s.build(0)
    rules = _rules(preset, overrides)
    pairs = (
        list(itertools.combinations(range(len(specs)), 2))
        if schedule == "all"
        else [(i, i + 1) for i in range(len(specs) - 1)]
    )
    tasks = [
        (p, specs[i], specs[j], d, deal_seed(s, d))
        for s in seeds
        for d in range(deals)
        for p, (i, j) in enumerate(pairs)
    ]
    by_pair: list[list[DealResult]] = [[] for _ in pairs]
    with Pool(jobs, ray) as pool:  # Ray: connected (or a clear error) before the bar shows
        bar = progress_bar(len(tasks), progress, "deal")
        start = time.perf_counter()
        try:
            pieces = chunks(tasks, chunk_size(len(tasks), pool.workers))
            for done in pool.unordered(partial(_play_chunk, rules), pieces):
                for p, res in done:
                    by_pair[p].append(res)
                bar(len(done))
            seconds = time.perf_counter() - start
        finally:
            bar(-1)
    for results in by_pair:
        results.sort(key=lambda r: (seeds.index(run_seed(r.seed)), r.deal))
    pair_results = tuple(
        PairResult.of((titles[i], titles[j]), by_pair[p]) for p, (i, j) in enumerate(pairs)
    )
    return _summarize(
        rules.preset, specs, seeds, pool.workers, pair_results, seconds, pool.ray_address, schedule
    )


def _summarize(
    preset: str,
    specs: Sequence[AgentSpec],
    seeds: Sequence[int],
    jobs: int,
    pairs: tuple[PairResult, ...],
    seconds: float,
    ray: str | None = None,
    schedule: str = "all",
) -> ArenaResult:
    titles = tuple(s.title for s in specs)
    first = titles[0]
    first_pairs = sum(1 for pr in pairs if first in pr.agents)
    act_s = dict.fromkeys(titles, 0.0)
    calls = dict.fromkeys(titles, 0)
    decisions = 0
    first_outcomes: list[list[float]] = []
    first_diffs: list[list[float]] = []
    first_seeds: list[int] = []
    for pr in pairs:
        sign = 1 if pr.agents[0] == first else -1
        for d in pr.deals:
            for g in d.games:
                decisions += g.decisions
                for k in (0, 1):
                    act_s[pr.agents[k]] += g.act_seconds[k]
                    calls[pr.agents[k]] += g.act_calls[k]
            if first in pr.agents:
                first_outcomes.append([g.outcome if sign > 0 else 1 - g.outcome for g in d.games])
                first_diffs.append([sign * g.score_diff for g in d.games])
                first_seeds.append(run_seed(d.seed))
    per_seed = []
    for s in seeds:
        mine = [i for i, x in enumerate(first_seeds) if x == s]
        per_seed.append(
            SeedFigures(
                seed=s,
                deals=len(mine) // max(1, first_pairs),
                win=paired_ci(first_outcomes[i] for i in mine),
                score_diff=paired_ci(first_diffs[i] for i in mine),
            )
        )
    return ArenaResult(
        preset=preset,
        agents=titles,
        seed=seeds[0],
        jobs=jobs,
        deals=len(pairs[0].deals),
        games=sum(2 * len(pr.deals) for pr in pairs),
        win=paired_ci(first_outcomes),
        score_diff=paired_ci(first_diffs),
        decisions=decisions,
        seconds=seconds,
        decisions_per_s=decisions / seconds if seconds > 0 else 0.0,
        ms_per_decision={t: 1000 * act_s[t] / calls[t] if calls[t] else 0.0 for t in titles},
        ratings=rate(titles, pairs),
        pairs=pairs,
        options={s.title: dict(s.options) for s in specs if s.options},
        ray=ray,
        seeds=tuple(seeds),
        per_seed=tuple(per_seed),
        schedule=schedule,
    )


def rate(titles: Sequence[str], pairs: Iterable[PairResult]) -> dict[str, Rating]:
    """openskill Plackett-Luce ratings: every game, in (pair, deal, game) order, is a match of
    two one-player teams ranked by their team points (equal points, equal ranks)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {t: model.rating(name=t) for t in titles}
    for pr in pairs:
        a, b = pr.agents
        for d in pr.deals:
            for g in d.games:
                ranks = [1.0, 1.0] if g.outcome == 0.5 else [1.0, 2.0] if g.outcome else [2.0, 1.0]
                [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
                ratings[a], ratings[b] = ra, rb
    return {t: Rating(r.mu, r.sigma, r.ordinal()) for t, r in ratings.items()}


# ---------------------------------------------------------------------------- text and plot


def pair_table(result: ArenaResult) -> list[str]:
    """The pairwise table: row agent's win rate (± the 95% half-width) against each column."""
    titles = result.agents
    cell: dict[tuple[str, str], str] = {}
    for pr in result.pairs:
        a, b = pr.agents
        hw = pr.win.half_width
        pm = f"±{100 * hw:.0f}" if math.isfinite(hw) else ""
        cell[a, b] = f"{100 * pr.win.mean:.1f}{pm}"
        cell[b, a] = f"{100 * (1 - pr.win.mean):.1f}{pm}"
    width = max(10, *(len(t) + 1 for t in titles))
    lines = [" " * width + "".join(t.rjust(width) for t in titles)]
    for row in titles:
        lines.append(
            row.ljust(width) + "".join(cell.get((row, col), "-").rjust(width) for col in titles)
        )
    return lines


def report(result: ArenaResult) -> list[str]:
    """The text report of ``gouji arena``."""
    r = result
    lines = [f"preset          {r.preset}"]
    pct = [f"{100 * x:.1f}%" if x is not None else "?" for x in r.ci95]
    sd = [f"{x:+.2f}" if x is not None else "?" for x in r.score_diff.interval()]
    seeds = ", ".join(str(x) for x in r.seeds)
    each = f"{r.deals_per_seed} × seeds {seeds}" if len(r.seeds) > 1 else f"seed {seeds}"
    if r.is_league:
        kind = "every pair" if r.schedule == "all" else "ladder: each against the next"
        lines.append(f"agents          {', '.join(r.agents)} (league, {kind})")
        lines.append(f"deals           {r.deals} per pair ({r.games} games), {each}")
    else:
        a, b = r.agents
        pr = r.pairs[0]
        lines.append(f"agents          {a} vs {b}")
        lines.append(f"deals           {r.deals} duplicate ({r.games} games), {each}")
        lines.append(
            f"{a} wins".ljust(16)
            + f"{100 * r.win_rate:.1f}%  95% CI [{pct[0]}, {pct[1]}]"
            + f"  (W {pr.wins} D {pr.draws} L {pr.losses})"
        )
        lines.append(
            f"score diff      {r.mean_score_diff:+.2f}  95% CI [{sd[0]}, {sd[1]}]"
            f"  ({a}'s team points minus {b}'s, per game)"
        )
    if len(r.seeds) > 1:
        for f in r.per_seed:
            fp = [f"{100 * x:.1f}%" if x is not None else "?" for x in _clip01(f.win)]
            lines.append(
                f"  seed {f.seed}".ljust(16)
                + f"{100 * f.win.mean:.1f}%  [{fp[0]}, {fp[1]}]"
                + f"  score diff {f.score_diff.mean:+.2f}  ({f.deals} deals)"
            )
    if not r.is_claim:
        lines.append(
            f"not a claim     a claim takes {CLAIM_SEEDS} seeds × {CLAIM_DEALS} deals or more; "
            f"this run has {len(r.seeds)} × {r.deals_per_seed}"
        )
    where = (
        f"on Ray at {r.ray}, {r.jobs} CPU{'s' if r.jobs > 1 else ''}"
        if r.ray
        else f"{r.jobs} job{'s' if r.jobs > 1 else ''}"
    )
    lines.append(
        f"decisions/s     {r.decisions_per_s:,.0f}  ({r.decisions:,} decisions, "
        f"{r.seconds:.2f} s, {where})"
    )
    lines.append(
        "ms/decision     " + ", ".join(f"{k} {v:.3f}" for k, v in r.ms_per_decision.items())
    )
    if r.is_league:
        lines.append("ratings         (openskill Plackett-Luce; ordinal = mu - 3 sigma)")
        ranked = sorted(r.ratings.items(), key=lambda kv: -kv[1].ordinal)
        for name, rt in ranked:
            lines.append(
                f"  {name:<14}mu {rt.mu:6.2f}  sigma {rt.sigma:5.2f}  ordinal {rt.ordinal:6.2f}"
            )
        lines.append(
            f"{r.agents[0]} vs the field: {100 * r.win_rate:.1f}%  95% CI [{pct[0]}, "
            f"{pct[1]}], score diff {r.mean_score_diff:+.2f} [{sd[0]}, {sd[1]}]"
        )
        lines.append("win % of the row agent against the column agent (± 95% half-width):")
        lines.extend("  " + line for line in pair_table(r))
    return lines


def plot(result: ArenaResult, path: str) -> None:
    """A PNG: the first pair's running win rate with its 95% band and the histogram of its
    per-deal score differences; a league adds the ratings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pr = result.pairs[0]
    a, b = pr.agents
    panels = 3 if result.is_league else 2
    fig, axes = plt.subplots(1, panels, figsize=(6 * panels, 4.5), layout="constrained")
    ax = axes[0]
    running = running_ci([d.outcome for d in pr.deals])
    xs = list(range(1, len(running) + 1))
    ax.plot(xs, [e.mean for e in running], color="C0", label=f"{a} win rate")
    band = [(x, e) for x, e in zip(xs, running, strict=True) if e.n >= 2]
    if band:
        ax.fill_between(
            [x for x, _ in band],
            [max(0.0, e.low) for _, e in band],
            [min(1.0, e.high) for _, e in band],
            color="C0",
            alpha=0.25,
            label="95% CI (paired by deal)",
        )
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(-0.03, 1.03)  # a rate of 0 or 1 stays visible off the frame
    ax.set_xlabel("deals")
    ax.set_ylabel("win rate (draws half)")
    ax.set_title(f"{a} vs {b}: running win rate")
    ax.legend(loc="best")

    ax = axes[1]
    diffs = [d.score_diff for d in pr.deals]
    lo, hi = min(diffs), max(diffs)
    width = max(0.5, math.ceil((hi - lo) / 30))  # per-deal means are multiples of 0.5
    bins = [lo - width / 2 + width * k for k in range(int((hi - lo) / width) + 2)]
    ax.hist(diffs, bins=bins, color="C1", edgecolor="white")
    ax.axvline(0, color="grey", linestyle="--", linewidth=1)
    ax.axvline(pr.score_diff.mean, color="C3", label=f"mean {pr.score_diff.mean:+.2f}")
    ax.set_xlabel(f"score difference per deal ({a} minus {b}, mean of 2 games)")
    ax.set_ylabel("deals")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_title("per-deal score difference")
    ax.legend(loc="upper right")

    if result.is_league:
        ax = axes[2]
        names = sorted(result.ratings, key=lambda t: result.ratings[t].mu)
        mus = [result.ratings[t].mu for t in names]
        sig = [3 * result.ratings[t].sigma for t in names]
        ax.barh(names, mus, xerr=sig, color="C2", alpha=0.8, capsize=4)
        ax.set_xlabel("openskill mu (bars: ± 3 sigma)")
        ax.set_title("league ratings")
    seeds = result.seeds or (result.seed,)
    which = f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {', '.join(map(str, seeds))}"
    league = "" if not result.is_league else f", {result.schedule} league"
    fig.suptitle(
        f"gouji arena — {result.preset}, {result.deals} deals a pair{league}, {which}",
        fontsize=11,
    )
    fig.savefig(path, dpi=110)
    plt.close(fig)
