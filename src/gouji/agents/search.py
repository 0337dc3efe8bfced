"""``search``: determinized Monte Carlo search over a few candidate actions.

For a play decision with a real choice, the agent samples the hidden hands many times from
what its seat knows (``knowledge``), plays every candidate out to the end of the game in
each sample with the heuristic in every seat, and compares each candidate with the
heuristic's own choice (the favourite) by its mean team outcome (its team's place points
minus the other team's). Samples are shared by all candidates (common random numbers), so
their differences are measured, not their noise. A challenger that cannot beat the favourite
even optimistically is dropped, so the samples go to the close comparisons, and a decision
whose challengers are all dropped ends early. Other decisions (pre-play, 还贡, prompts) go to
the heuristic agent.

The work is bounded by time (``budget_ms``), by samples (``samples``) and by simulated
decisions (``steps``, 0 = no bound): ``steps`` makes the agent's choices the same on any
machine under any load, which is how the arena measures it. With ``gate`` a decision whose
budget allows fewer than that many samples (early in a game, when play-outs are long) keeps
the heuristic's choice after the first sample: a handful of samples can never show a
challenger clearly better, so the time goes to the decisions where search can change its mind.
With ``pass_weight`` < 1 the samples are weighted by the others' passes (``knowledge``:
a sample in which a seat passed although it held a cheap plain answer is kept with that
chance), and with ``play_weight`` < 1 by their plain leads and answers as well (a sample in
which a seat's lead was not its lowest group, or its answer not its cheapest, weighs that
much less; ``moves`` card swaps move each sample towards these weights).

With ``extend`` > 1 a decision whose ``steps`` are spent while a challenger is still neither
hopeless nor clearly better than the favourite goes on sampling, up to ``extend`` times the
steps: the close choices get the time, the clear ones stop at the steps or before.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from gouji.agents import register
from gouji.agents.base import Agent, View
from gouji.agents.knowledge import determinize, read
from gouji.engine.actions import BURN, KOU, NOBURN, PASS, PLAY, RANG, Action
from gouji.engine.cards import R2
from gouji.engine.plays import NO_BASE, Play
from gouji.engine.policy import lead_key
from gouji.engine.referee.game import Game
from gouji.engine.referee.scoring import PLACE_POINTS

PLAY_PHASE = ("lead", "respond", "rang_return", "burn_offer")
MAX_ROLLOUT_STEPS = 3000


def _cost(play: Play) -> tuple[int, int, int]:
    """How dear a play is to spend: jokers, then 2s, then rank."""
    return (play.nlj * 3 + play.nsj * 2 + play.n2, play.eff, play.size)


def rollout_action(g: Game) -> Action:
    """A fast, plausible policy for play-outs (it reads the imagined game directly)."""
    legal = g.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = g.to_act
    assert seat is not None
    pending = g.pending
    if pending == "lead":  # a play, never a 挑牌 claim (R10.2) in a play-out
        leads = [a for a in legal if a.play is not None]
        return min(leads, key=lambda a: lead_key(a.play))  # type: ignore[arg-type]
    if pending == "burn_offer":
        burns = [a for a in legal if a.kind == BURN and a.play is not None]
        hand_size = sum(g.hands[seat])
        if burns and (hand_size <= 8 or any(a.play.size == hand_size for a in burns)):  # type: ignore[union-attr]
            return min(burns, key=lambda a: _cost(a.play))  # type: ignore[arg-type]
        return next(a for a in legal if a.kind == NOBURN)
    plays = [a for a in legal if a.kind == PLAY and a.play is not None]
    passing = next((a for a in legal if a.kind == PASS), None)
    if not plays:
        return passing or legal[0]
    teammate = (g.owner - seat) % 2 == 0
    cheapest = min(plays, key=lambda a: _cost(a.play))  # type: ignore[arg-type]
    if teammate and passing is not None and sum(g.hands[g.owner]) > 0:
        return passing
    standing = g.standing
    assert standing is not None and cheapest.play is not None
    dear = cheapest.play.has_joker or (cheapest.play.base != NO_BASE and cheapest.play.n2 > 0)
    dear = dear or cheapest.play.eff >= R2
    if dear and standing.eff < 9 and sum(g.hands[seat]) > 6 and passing is not None:
        return passing
    return cheapest


def rollout_view(g: Game, seat: int, spec: dict[str, Any]) -> View:
    """The few view fields the heuristic reads, built straight from an imagined game (a full
    view copies the whole log: too slow for thousands of play-out decisions). The hand, the
    rules and the standing play come as objects (``hand_counts`` instead of the hand's text,
    ``resolved_rules``, ``standing_play``), so the heuristic parses nothing."""
    sizes = [sum(h) for h in g.hands]
    standing = g.standing
    return {
        "seat": seat,
        "hand_counts": g.hands[seat][:],
        "state": {"active": g.active, "sizes": sizes},
        "counts": sizes,
        "chaos": g.chaos,
        "places": g.places,
        "phase": g.pending,
        "rules": spec,
        "resolved_rules": g.rules,
        "opened": g.opened if g.rules.dian_enabled else None,
        "owner": g.owner if standing is not None else None,
        "standing": standing.text if standing is not None else None,
        "standing_play": standing,
        "log": [],
    }


def rollout(g: Game, policy: Agent | None = None) -> int:
    """Play ``g`` to its end with ``policy`` (through rollout views), or ``rollout_action``;
    the number of decisions played."""
    spec = g.rules.spec()
    for step in range(MAX_ROLLOUT_STEPS):
        if g.is_over:
            return step
        if policy is None:
            g.apply(rollout_action(g))
            continue
        legal = g.legal_actions()
        seat = g.to_act
        assert seat is not None
        g.apply(legal[0] if len(legal) == 1 else policy.act(rollout_view(g, seat, spec), legal))
    raise RuntimeError("a rollout did not end")


def team_outcome(g: Game, team: int) -> float:
    """The team's raw place points minus the other team's (R17, the preset's system)."""
    pts = PLACE_POINTS[g.rules.score_system]
    sums = [0, 0]
    for seat, place in enumerate(g.places):
        if place is not None:
            sums[seat & 1] += pts[place - 1]
    return float(sums[team] - sums[1 - team])


def comparable(legal: Sequence[Action]) -> list[Action]:
    """The actions the play-outs can compare: plays, passes, declines, 让 and 扣 — not a 挑牌
    claim (R10.2), which the play-outs never make (its order is a teammate's decision)."""
    return [a for a in legal if a.play is not None or a.kind in (PASS, NOBURN, RANG, KOU)]


def candidates(legal: Sequence[Action], favourite: Action, limit: int) -> list[Action]:
    """A handful of actions worth comparing: the favourite, pass/decline, the cheapest plays
    and, for leads, one natural play of each rank."""
    out: list[Action] = [favourite]
    pool = comparable(legal)
    words = [a for a in pool if a.play is None]
    plays = sorted(
        (a for a in pool if a.play is not None),
        key=lambda a: lead_key(a.play),  # type: ignore[arg-type]
    )
    natural: dict[int, Action] = {}
    for a in plays:
        p = a.play
        assert p is not None
        key = p.eff
        best = natural.get(key)
        if best is None or (p.attached == 0 and (best.play is None or best.play.attached > 0)):
            natural[key] = a
    for a in [*words, *natural.values(), *plays]:
        if a not in out:
            out.append(a)
        if len(out) >= limit:
            break
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # researchers' bots may build on it
class SearchAgent:
    """Determinized Monte Carlo search bounded by time, samples or simulated decisions."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float = 600.0,
        samples: int = 400,
        steps: int = 0,
        width: int = 6,
        margin: float = 0.3,
        z: float = 2.0,
        prune_z: float = 1.5,
        min_samples: int = 6,
        gate: int = 0,
        pass_weight: float = 1.0,
        play_weight: float = 1.0,
        moves: int = 100,
        extend: float = 1.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget_ms = float(budget_ms)
        self.max_samples = int(samples)
        self.max_steps = int(steps)
        self.width = int(width)
        self.margin = float(margin)
        self.z = float(z)
        self.prune_z = float(prune_z)
        self.min_samples = int(min_samples)
        self.gate = int(gate)
        if not 0.0 <= pass_weight <= 1.0:
            raise ValueError(f"pass_weight is a probability (0 to 1), not {pass_weight}")
        self.pass_weight = float(pass_weight)
        if not 0.0 <= play_weight <= 1.0:
            raise ValueError(f"play_weight is a probability (0 to 1), not {play_weight}")
        self.play_weight = float(play_weight)
        self.moves = int(moves)
        if extend < 1.0:
            raise ValueError(f"extend multiplies the steps (1 or more), not {extend}")
        self.extend = float(extend)
        self.fallback = _fallback(seed)
        self.policy: Agent | None = self.fallback if self.fallback.name == "heuristic" else None
        self.last: dict[str, Any] = {}

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """Search play decisions with a choice; hand the rest to the heuristic."""
        favourite = self.fallback.act(view, legal)
        if len(legal) < 2 or view["state"]["pending"] not in PLAY_PHASE:
            return favourite
        cands = candidates(legal, favourite, self.width)
        if len(cands) < 2:
            return favourite
        team = view["seat"] & 1
        knowledge = read(view)
        outcomes: list[list[float]] = [[] for _ in cands]
        live = list(range(1, len(cands)))  # challengers still compared with the favourite
        start = time.perf_counter()
        deadline = start + self.budget_ms / 1000.0
        cap = self.max_steps * self.extend
        n = steps = extra = 0
        while live and n < self.max_samples:
            if n and time.perf_counter() >= deadline:
                break
            if n and 0 < self.max_steps <= steps:
                if steps >= cap or not self._open(outcomes, live):
                    break  # the steps are spent, and the extension too or the choice is clear
                extra += 1  # a sample beyond the steps: the choice is still open
            base = determinize(
                view,
                self.rng,
                knowledge,
                self.pass_weight,
                play_weight=self.play_weight,
                moves=self.moves,
            )
            for i in (0, *live):
                g = base.clone()
                g.apply(cands[i])
                steps += 1 + rollout(g, self.policy)
                outcomes[i].append(team_outcome(g, team))
            n += 1
            if n == 1 and self.gate and self._room(steps, time.perf_counter() - start) < self.gate:
                live = []  # too few samples to ever find a challenger clearly better: stop
            if n >= self.min_samples:
                live = [i for i in live if not self._hopeless(outcomes[i], outcomes[0])]
        gains = [_mean_gain(o, outcomes[0]) for o in outcomes]
        best = max(range(1, len(cands)), key=lambda i: gains[i])
        self.last = {
            "samples": n,
            "steps": steps,
            "candidates": [a.text for a in cands],
            "gains": gains,
            "counts": [len(o) for o in outcomes],
            "outcomes": outcomes,
            "extra": extra,
        }
        if not self._clearly_better(outcomes[best], outcomes[0]):
            return favourite  # keep the expert's choice unless search clearly disagrees
        return cands[best]

    def _open(self, outcomes: list[list[float]], live: list[int]) -> bool:
        """Whether the choice is still open: a live challenger leads the favourite on the
        mean but not yet clearly (``extend`` spends more steps on it). Where the favourite
        leads every challenger, the search would keep it anyway: that choice is made."""
        return any(
            paired_gain(outcomes[i], outcomes[0])[0] > 0.0
            and not self._hopeless(outcomes[i], outcomes[0])
            and not self._clearly_better(outcomes[i], outcomes[0])
            for i in live
        )

    def _room(self, steps: int, seconds: float) -> float:
        """How many samples the budget allows, judged from the first one's cost."""
        room = float(self.max_samples)
        if self.max_steps:
            room = min(room, self.max_steps / max(1, steps))
        return min(room, self.budget_ms / 1000.0 / max(seconds, 1e-9))

    def _hopeless(self, new: list[float], old: list[float]) -> bool:
        """Even ``prune_z`` standard errors above its mean gain, the challenger does not beat
        the favourite by ``margin``."""
        mean, se = paired_gain(new, old)
        return mean + self.prune_z * se < self.margin

    def _clearly_better(self, new: list[float], old: list[float]) -> bool:
        """Paired over the shared samples: mean gain above ``margin`` and ``z`` standard
        errors above zero."""
        if len(new) < 4:
            return False
        mean, se = paired_gain(new, old)
        return mean > self.margin and (se == 0 or mean / se >= self.z)


def paired_gain(new: list[float], old: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``new - old`` over the samples both have."""
    diffs = [a - b for a, b in zip(new, old, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, float("inf")
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5


def _mean_gain(new: list[float], old: list[float]) -> float:
    """The mean of ``new - old`` over the samples both have (0 with none)."""
    return paired_gain(new, old)[0] if new else 0.0


def _fallback(seed: int | None) -> Agent:
    from gouji.agents import get

    try:
        return get("heuristic", seed=seed)
    except ValueError:
        return get("greedy", seed=seed)


register("search", SearchAgent)
