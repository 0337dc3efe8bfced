"""Pickling frozen dataclasses by value, the same in the compiled build and the pure one.

A process pool or Ray sends rule sets, deals and bot levels to other processes by pickle.
mypyc's compiled classes restore their fields one by one with ``setattr``, which a frozen
dataclass refuses; a class that returns ``by_fields(self)`` from ``__reduce__`` is made
again through its constructor instead.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuild(cls: type[Any], values: dict[str, Any]) -> Any:
    """The instance of ``cls`` with these field values (the other half of ``by_fields``)."""
    return cls(**values)


def by_fields(obj: Any) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
    """``__reduce__`` for a frozen dataclass: its class and its fields by name."""
    return (rebuild, (type(obj), {f.name: getattr(obj, f.name) for f in fields(obj)}))
