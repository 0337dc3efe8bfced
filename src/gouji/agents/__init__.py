"""Agents (bots): ``get(name, seed=…, **options)`` builds one by name.

Every agent chooses from ``(view, legal_actions)`` only (``gouji.agents.base.Agent``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gouji.agents.base import Agent, View
from gouji.agents.simple import GreedyAgent, RandomAgent

_REGISTRY: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
}


def register(name: str, factory: Callable[..., Agent]) -> None:
    """Make ``get(name)`` build agents with ``factory(seed=…, **options)``."""
    _REGISTRY[name] = factory


def names() -> list[str]:
    """The registered agent names."""
    _load_all()
    return sorted(_REGISTRY)


def get(name: str, seed: int | None = None, **options: Any) -> Agent:
    """An agent by name; unknown names and options raise ValueError naming the choices."""
    _load_all()
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(sorted(_REGISTRY))}")
    try:
        return factory(seed=seed, **options)
    except TypeError as e:
        raise ValueError(f"agent {name!r}: {e}") from None


def _load_all() -> None:
    """Import the stronger agents lazily (they register themselves)."""
    import importlib

    for module in ("gouji.agents.heuristic", "gouji.agents.search", "gouji.agents.levels"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise


__all__ = ["Agent", "View", "get", "names", "register"]
