"""The agent interface: choose from ``(view, legal_actions)`` only (issue 4, docs/design.md §4).

An agent never sees the ``Game``: the view is the same per-seat dict the server and the
terminal use, so a bot cannot read hidden cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from gouji.engine.actions import Action

View = dict[str, Any]


class Agent(Protocol):
    """Something that picks one of the legal actions for the seat whose view it gets."""

    name: str

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """Choose one action of ``legal`` (never empty)."""
        ...
