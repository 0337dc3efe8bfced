"""复盘: a finished game's decisions judged afterwards by search (docs/analysis.md).

For every play decision of the chosen seats that had a real choice, the position is taken
*from that seat's information at the time* (its view: its own hand and what was played,
never the other hands), and the same determinized search as 大师 (gouji.agents.search)
estimates the team's expected result of the action taken and of a handful of alternatives:
it samples the hidden hands from what the seat could know, plays every candidate out to the
end with the heuristic in every seat, and compares them on the same samples (paired, so the
samples' luck cancels). A decision is flagged only by the loss beyond its uncertainty: the
best alternative's mean gain over the action taken, less ``Z`` standard errors, against
thresholds counted in the preset's place points (``classify``).

Every decision is judged on its own, with a random generator seeded by the analysis seed and
the decision's index, so the same record, seed and steps give the same analysis with any
number of worker processes (``analyse(jobs=…)``), and the server can judge the decisions of
one game in its own pool of workers (gouji.server.review.analyses) while it counts the progress.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gouji.agents import get
from gouji.agents.knowledge import determinize, read
from gouji.agents.search import PLAY_PHASE, candidates, comparable, paired_gain, rollout
from gouji.engine.actions import Action
from gouji.engine.referee.game import SEATS, Game
from gouji.engine.referee.record import RecordError, give, read_sanctions, replay
from gouji.engine.referee.scoring import PLACE_POINTS, game_events, score
from gouji.tools.cluster import Pool

#: The analysis's work a decision, in simulated decisions (as 大师's ``steps``); D129.
DEFAULT_STEPS = 80000
#: The analysis seed when none is given: the same record always gets the same analysis.
DEFAULT_SEED = 1
#: Alternatives compared with the action taken (the action taken is added when not among them).
WIDTH = 6
#: Samples every decision gets before candidates are dropped, and at most.
MIN_SAMPLES = 16
MAX_SAMPLES = 400
#: Standard errors a loss must stand beyond before it counts (one-sided, about 1 in 160).
Z = 2.5
#: The classes, mildest first, with the loss beyond noise that earns each, in units of the
#: preset's gap between 头科 and 二科 (``unit``: 2 points under the outline's 4, 2, 0, 0, -2, -4).
CLASSES = ("good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = (0.25, 0.5, 1.0)
#: Weight of the others' passes in the samples, as 大师 uses it (gouji.agents.levels).
PASS_WEIGHT = 0.1


class AnalysisError(ValueError):
    """A record or request that cannot be analysed; the message says why."""


@dataclass(frozen=True)
class Task:
    """One decision to judge: the seat's view just before it, its legal actions and the one
    it took. Nothing in it shows the hidden hands (the view is the seat's own)."""

    index: int  # the action's index in the record
    seat: int
    view: dict[str, Any]
    legal: tuple[Action, ...]
    taken: Action
    unit: float  # the preset's gap between 头科 and 二科 (``THRESHOLDS`` count in it)


@dataclass(frozen=True)
class Plan:
    """The decisions of a record to judge, what was left out and why, and the rules."""

    tasks: tuple[Task, ...]
    seats: tuple[int, ...]
    #: "forced": one action to compare; "not_play": before play, 还贡, prompts; "claim": 挑牌
    skipped: dict[str, int]
    rules: dict[str, Any]
    unit: float


def unit_of(score_system: str) -> float:
    """The gap between 头科's and 二科's place points under ``score_system`` (R17)."""
    pts = PLACE_POINTS[score_system]
    return float(pts[0] - pts[1])


def plan(record: object, seats: Sequence[int] | None = None) -> Plan:
    """The decisions of ``seats`` (all six by default) in a finished game's record."""
    chosen = tuple(range(SEATS)) if seats is None else tuple(seats)
    if not chosen or any(
        not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < SEATS for s in chosen
    ):
        raise AnalysisError(f"seats are numbers 0 to 5, not {list(chosen)}")
    try:
        final = replay(record)
    except RecordError as e:
        raise AnalysisError(f"the record cannot be replayed: {e}") from None
    if not final.is_over:
        raise AnalysisError(
            "only a finished game can be analysed (this record stops before its end)"
        )
    assert isinstance(record, Mapping)
    actions: list[str] = record["actions"]
    sanctions = read_sanctions(record.get("sanctions"), len(actions))
    g = Game.from_record({**record, "actions": [], "sanctions": []})
    unit = unit_of(g.rules.score_system)
    tasks: list[Task] = []
    skipped = {"forced": 0, "not_play": 0, "claim": 0}
    given = 0
    for i, text in enumerate(actions):
        while given < len(sanctions) and sanctions[given].at == i:
            give(g, given, sanctions[given])
            given += 1
        seat = g.to_act
        if seat in chosen:
            assert seat is not None
            legal = comparable(g.legal_actions())
            taken = Action.parse(text)
            if g.pending not in PLAY_PHASE:
                skipped["not_play"] += 1
            elif taken not in legal:
                skipped["claim"] += 1
            elif len(legal) < 2:
                skipped["forced"] += 1
            else:
                tasks.append(Task(i, seat, g.view(seat), tuple(legal), taken, unit))
        g.apply(text)
    return Plan(tuple(tasks), chosen, skipped, g.rules.spec(), unit)


def team_value(g: Game, team: int) -> float:
    """What a finished (imagined) game is worth to ``team``: its raw score minus the other
    team's under the preset's system (place points and the system's bonuses, R17), and where
    不开点 is paid in the next game's tribute rather than in points (the outline, match7),
    one point for each player of the other team left 不开点 (R11) less one for each of its own."""
    system = g.rules.score_system
    ev = game_events(g)
    raw, _recorded, _bonus = score(system, ev)
    value = float(raw[team] - raw[1 - team])
    if system not in ("comp2", "audit6"):
        for seat in ev.not_opened:
            value += 1.0 if seat & 1 != team else -1.0
    return value


def _stats(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error (infinite with fewer than two values)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def _contenders(outcomes: list[list[float]], live: list[int], taken: int, unit: float) -> list[int]:
    """The candidates still worth sampling: the action taken, and every alternative that may
    still be the best and may still show the action taken a loss worth flagging."""
    leader = max(live, key=lambda i: _stats(outcomes[i])[0])
    keep = []
    for i in live:
        if i == taken:
            keep.append(i)
            continue
        gain, se = paired_gain(outcomes[i], outcomes[taken])
        if gain + Z * se < THRESHOLDS[0] * unit:
            continue  # even optimistically not worth a flag against the action taken
        if i != leader:
            behind, se_behind = paired_gain(outcomes[leader], outcomes[i])
            if behind - Z * se_behind > 0:
                continue  # clearly not the best
        keep.append(i)
    return keep


def classify(loss_low: float, unit: float) -> str:
    """The class of a decision whose loss beyond noise is ``loss_low`` points."""
    cls = CLASSES[0]
    for name, threshold in zip(CLASSES[1:], THRESHOLDS, strict=True):
        if loss_low >= threshold * unit:
            cls = name
    return cls


def _rng(seed: int, index: int) -> random.Random:
    return random.Random(f"gouji-analysis/{seed}/{index}")


def judge(task: Task, steps: int = DEFAULT_STEPS, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """One decision judged (JSON-ready): every candidate's estimated team value with its 95%
    interval, its gain over the action taken with its interval, the best, the loss, the class."""
    rng = _rng(seed, task.index)
    heuristic = get("heuristic", seed=rng.randrange(2**32))
    favourite = heuristic.act(task.view, task.legal)
    cands = candidates(task.legal, favourite, WIDTH)
    if task.taken not in cands:
        cands.append(task.taken)
    team = task.seat & 1
    knowledge = read(task.view)

    def draw(live: list[int]) -> tuple[list[float], int]:
        """One sample of the hidden hands, every live candidate played out in it."""
        base = determinize(task.view, rng, knowledge, PASS_WEIGHT)
        values, spent = [], 0
        for i in live:
            g = base.clone()
            g.apply(cands[i])
            spent += 1 + rollout(g, heuristic)
            values.append(team_value(g, team))
        return values, spent

    taken = cands.index(task.taken)
    outcomes, n, spent = compare(draw, len(cands), taken, task.unit, steps)
    return _verdict(task, cands, outcomes, taken, n, spent)


def compare(
    draw: Callable[[list[int]], tuple[list[float], int]],
    k: int,
    taken: int,
    unit: float,
    steps: int,
) -> tuple[list[list[float]], int, int]:
    """Sample ``k`` candidates on shared draws until the steps are spent (after
    ``MIN_SAMPLES``), ``MAX_SAMPLES`` are drawn, or only the action taken is left worth
    sampling; ``draw(live)`` gives the live candidates' values in one sample and its steps.
    Returns every candidate's values, the samples drawn and the steps spent."""
    outcomes: list[list[float]] = [[] for _ in range(k)]
    live = list(range(k))
    n = spent = 0
    while n < MAX_SAMPLES and len(live) > 1:
        if n >= MIN_SAMPLES and spent >= steps:
            break
        values, cost = draw(live)
        for i, value in zip(live, values, strict=True):
            outcomes[i].append(value)
        spent += cost
        n += 1
        if n >= MIN_SAMPLES:
            live = _contenders(outcomes, live, taken, unit)
    return outcomes, n, spent


def _interval(mean: float, se: float) -> list[float] | None:
    if not math.isfinite(se):
        return None
    return [round(mean - 1.96 * se, 3), round(mean + 1.96 * se, 3)]


def _verdict(
    task: Task,
    cands: list[Action],
    outcomes: list[list[float]],
    taken: int,
    samples: int,
    spent: int,
) -> dict[str, Any]:
    gains = [
        (0.0, 0.0) if i == taken else paired_gain(o, outcomes[taken])
        for i, o in enumerate(outcomes)
    ]
    rows = []
    for i, a in enumerate(cands):
        value, se = _stats(outcomes[i])
        rows.append(
            {
                "action": a.text,
                "value": round(value, 3),
                "value_ci": _interval(value, se),
                "gain": round(gains[i][0], 3),
                "gain_ci": [0.0, 0.0] if i == taken else _interval(*gains[i]),
                "samples": len(outcomes[i]),
            }
        )
    best = max(range(len(cands)), key=lambda i: (gains[i][0], i == taken))
    gain, se = gains[best]
    loss = max(0.0, gain)
    loss_low = max(0.0, gain - Z * se) if best != taken else 0.0
    order = sorted(range(len(cands)), key=lambda i: -_mean(outcomes[i]))
    return {
        "index": task.index,
        "seat": task.seat,
        "action": task.taken.text,
        "phase": task.view["state"]["pending"],
        "candidates": [rows[i] for i in order],
        "best": cands[best].text,
        "loss": round(loss, 3),
        "loss_low": round(loss_low, 3),
        "class": classify(loss_low, task.unit),
        "samples": samples,
        "steps": spent,
    }


def _mean(values: Sequence[float]) -> float:
    """The mean of a candidate's values (0 with none)."""
    return sum(values) / len(values) if values else 0.0


def summarise(decisions: Sequence[Mapping[str, Any]], seats: Sequence[int]) -> list[dict[str, Any]]:
    """Each seat's summary: decisions judged, the count of each class, the average loss a
    decision (points) and its three costliest moments: the marked decisions with the largest
    loss beyond noise (none where nothing is marked)."""
    out = []
    for seat in seats:
        mine = [d for d in decisions if d["seat"] == seat]
        counts = {c: sum(1 for d in mine if d["class"] == c) for c in CLASSES}
        costly = sorted(
            (d for d in mine if d["class"] != CLASSES[0]),
            key=lambda d: (-d["loss_low"], d["index"]),
        )[:3]
        out.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "classes": counts,
                "average_loss": round(sum(d["loss"] for d in mine) / len(mine), 3) if mine else 0.0,
                "costliest": [d["index"] for d in costly],
            }
        )
    return out


def assemble(
    p: Plan, decisions: Sequence[Mapping[str, Any]], steps: int, seed: int
) -> dict[str, Any]:
    """The whole analysis (JSON-ready, the format ``gouji-analysis/1``)."""
    ordered = sorted(decisions, key=lambda d: d["index"])
    return {
        "format": "gouji-analysis/1",
        "steps": steps,
        "seed": seed,
        "z": Z,
        "unit": p.unit,
        "thresholds": [t * p.unit for t in THRESHOLDS],
        "rules": p.rules,
        "seats": list(p.seats),
        "skipped": dict(p.skipped),
        "decisions": list(ordered),
        "summary": summarise(ordered, p.seats),
    }


def check_work(steps: object, seed: object) -> tuple[int, int]:
    """``steps`` (1 or more) and ``seed`` (a whole number) checked, or AnalysisError."""
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        raise AnalysisError(
            f"steps is a whole number of simulated decisions (1 or more), not {steps!r}"
        )
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise AnalysisError(f"the seed is a whole number, not {seed!r}")
    return steps, seed


def _judge_one(job: tuple[Task, int, int]) -> dict[str, Any]:
    task, steps, seed = job
    return judge(task, steps, seed)


def analyse(
    record: object,
    seats: Sequence[int] | None = None,
    steps: int = DEFAULT_STEPS,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of a finished game's record; ``progress(n)`` is told as decisions end.
    A corrupt record or an unfinished game is an AnalysisError (a ValueError)."""
    steps, seed = check_work(steps, seed)
    return run(plan(record, seats), steps, seed, jobs, progress)


def run(
    p: Plan,
    steps: int = DEFAULT_STEPS,
    seed: int = DEFAULT_SEED,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """``analyse`` of a plan made already (the command line sizes its progress bar by it)."""
    done: list[dict[str, Any]] = []
    with Pool(jobs) as pool:
        for verdict in pool.unordered(_judge_one, [(t, steps, seed) for t in p.tasks]):
            done.append(verdict)
            if progress is not None:
                progress(1)
    return assemble(p, done, steps, seed)
