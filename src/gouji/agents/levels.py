"""The bot levels players pick: 新手 / 普通 / 高手 / 大师, each a registered agent with options.

A level is an agent name like any other (``get("master")``, ``gouji arena --agents
master,expert``, a room's ``bot``), so the league that orders them (docs/strength.md) plays
exactly what the lobby offers. The order is measured, not assumed: each level is clearly
stronger than the one below it in an openskill league on duplicate deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gouji.agents import get, register
from gouji.agents.base import Agent
from gouji.engine.pickling import by_fields


@dataclass(frozen=True, slots=True)
class Level:
    """A level: its key (the agent name), its names for players, and what plays it."""

    key: str
    zh: str
    en: str
    agent: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __reduce__(self) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
        return by_fields(self)  # a compiled frozen class (gouji.engine.pickling)


#: Weakest first. ``master`` counts its work in simulated decisions (the same choices on any
#: machine, as measured): 36,000 of them now that the engine and bots are compiled (a median
#: decision under 300 ms on two busy cores, docs/strength.md), up to twice that while a
#: challenger leads the heuristic's choice but not yet clearly (``extend``); it weights its
#: samples by the others' passes, and never thinks longer than three seconds (the cap a
#: decision may take, issue 13).
LEVELS: tuple[Level, ...] = (
    Level("beginner", "新手", "Beginner", "heuristic", {"mistakes": 0.5}),
    Level("intermediate", "普通", "Intermediate", "heuristic", {"mistakes": 0.15}),
    Level("expert", "高手", "Expert", "heuristic"),
    Level(
        "master",
        "大师",
        "Master",
        "search",
        {"steps": 36000, "extend": 2.0, "budget_ms": 3000.0, "pass_weight": 0.1},
    ),
)
BY_KEY = {level.key: level for level in LEVELS}


def _build(level: Level, seed: int | None = None, **options: Any) -> Agent:
    """The level's agent; ``options`` override the level's own (for experiments)."""
    return get(level.agent, seed=seed, **{**level.options, **options})


for _level in LEVELS:
    register(_level.key, partial(_build, _level))
