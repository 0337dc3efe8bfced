"""Which build of the engine runs: compiled by mypyc (hatch_build.py) or pure Python.

The wheel holds both the sources and, where its build had a C compiler, their compiled
modules; Python's importer prefers the compiled ones. ``GOUJI_PURE=1`` (or compiled modules
older than the sources in a checkout, after an edit) turns them all aside together with a
finder that loads the sources instead — all or none, since the compiled modules share one
library and reach into each other's classes. This module is never compiled itself:
``gouji/__init__.py`` runs ``choose()`` before it imports anything else.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# What hatch_build.py compiles (pyproject.toml's hook include; a test keeps the two equal).
COMPILED_MODULES = (
    "gouji.engine.cards",
    "gouji.engine.plays",
    "gouji.engine.actions",
    "gouji.engine.rules",
    "gouji.engine.presets",
    "gouji.engine.deal",
    "gouji.engine.gamelog",
    "gouji.engine.reasons",
    "gouji.engine.referee.view",
    "gouji.engine.referee.record",
    "gouji.engine.referee.scoring",
    "gouji.engine.tribute",
    "gouji.engine.referee.game",
    "gouji.engine.referee.common",
    "gouji.engine.referee.preplay",
    "gouji.engine.referee.legal",
    "gouji.engine.referee.rounds",
    "gouji.engine.referee.burning",
    "gouji.engine.referee.places",
    "gouji.engine.referee.claims",
    "gouji.engine.referee.sanctions",
    "gouji.engine.referee.refusals",
    "gouji.engine.match",
    "gouji.engine.policy",
    "gouji.engine.checks",
    "gouji.agents.base",
    "gouji.agents.simple",
    "gouji.agents.heuristic",
    "gouji.agents.knowledge",
    "gouji.agents.search",
    "gouji.agents.levels",
)

PACKAGE = Path(__file__).resolve().parent
_chosen: tuple[str, str] | None = None


def _source(name: str) -> Path:
    return PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py")


def _compiled(name: str) -> Path | None:
    """The compiled module built for this interpreter, if there is one."""
    source = _source(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = source.with_suffix(suffix)
        if path.exists():
            return path
    return None


def _why_pure() -> tuple[str, bool]:
    """Why the sources must run ('' when the compiled modules can), and whether to warn."""
    if os.environ.get("GOUJI_PURE", "") not in ("", "0"):
        return "GOUJI_PURE is set", False
    built = {name: _compiled(name) for name in COMPILED_MODULES}
    if not any(built.values()):
        return "built without a C compiler", False
    missing = [name for name, path in built.items() if path is None]
    if missing:
        return f"compiled modules missing ({', '.join(missing)}); reinstall gouji", True
    if (PACKAGE.parent.parent / "pyproject.toml").exists():  # a checkout: sources get edited
        older = [
            name
            for name, path in built.items()
            if path is not None and path.stat().st_mtime < _source(name).stat().st_mtime
        ]
        if older:
            return (
                f"the compiled modules are older than the source of {older[0]}; "
                "`make` (or `pip install -e .`) compiles them again",
                True,
            )
    return "", False


class SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the compiled modules' sources, ahead of the importer's compiled-first search."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(fullname))


def choose() -> tuple[str, str]:
    """Decide once, before any engine module is imported: ("compiled" | "pure", why)."""
    global _chosen
    if _chosen is None:
        why, warn = _why_pure()
        if why:
            if not any(isinstance(f, SourceFinder) for f in sys.meta_path):
                sys.meta_path.insert(0, SourceFinder())
            if warn:
                warnings.warn(f"gouji runs pure Python: {why}", RuntimeWarning, stacklevel=2)
            _chosen = ("pure", why)
        else:
            _chosen = ("compiled", "compiled by mypyc")
    return _chosen


def running() -> dict[str, str]:
    """The build that actually runs (``gouji bench --json``, the tests' header): checked on
    the loaded engine itself, not only on what ``choose`` decided."""
    kind, why = choose()
    import gouji.engine.referee.game

    loaded = "pure" if gouji.engine.referee.game.__file__.endswith(".py") else "compiled"
    if loaded != kind:  # pragma: no cover - a module imported before choose()
        why = f"{why}, but gouji.engine.referee.game was loaded {loaded}"
    return {"build": loaded, "why": why}
