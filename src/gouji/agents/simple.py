"""Baseline agents: ``random`` (uniform) and ``greedy`` (lowest legal play, pass when it can)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from gouji.agents.base import View
from gouji.engine.actions import BURN, NOBURN, PASS, PLAY, Action
from gouji.engine.policy import lead_key


@mypyc_attr(allow_interpreted_subclasses=True)  # researchers' bots may build on it
class RandomAgent:
    """Uniformly random legal actions (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """Any legal action, uniformly."""
        return legal[self.rng.randrange(len(legal))]


@mypyc_attr(allow_interpreted_subclasses=True)  # researchers' bots may build on it
class GreedyAgent:
    """The lowest legal play; passes whenever it may; declines every offer."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """Pass if allowed, else the lowest play (R19.2 order), else the first decline."""
        kinds = {a.kind: a for a in legal}
        for word in (PASS, NOBURN):
            if word in kinds:
                return kinds[word]
        plays = [a for a in legal if a.kind in (PLAY, BURN) and a.play is not None]
        if plays:
            return min(plays, key=lambda a: lead_key(a.play))  # type: ignore[arg-type]
        declines = [a for a in legal if a.kind.startswith("no") or a.kind == "keep"]
        return declines[0] if declines else legal[0]
