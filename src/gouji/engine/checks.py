"""Argument checks at the engine's public edges, the same in the compiled and pure builds.

A compiled function refuses an argument of the wrong type with a bare ``TypeError`` before its
first line runs, so the public methods take ``object`` and check here: a wrong seat, seed or
flag gets the project's own error (``ConfigError``, ``SanctionError``, ``MatchError``…) and a
sentence that says what was expected, in either build.
"""

from __future__ import annotations

from collections.abc import Callable

SEATS = 6

Raise = Callable[[str], Exception]


def whole(value: object, what: str, error: Raise) -> int:
    """``value`` as a whole number (never a bool, a float or digits in a string)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be a whole number, not {value!r}")
    return value


def seat(value: object, what: str, error: Raise) -> int:
    """``value`` as a seat 0…5 (R0.2)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEATS:
        raise error(f"R0.2: {what} must be a seat 0…5, not {value!r}")
    return value


def seat_or_none(value: object, what: str, error: Raise) -> int | None:
    """``value`` as a seat 0…5, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEATS:
        raise error(f"R0.2: {what} must be a seat 0…5 or None, not {value!r}")
    return value


def flag(value: object, what: str, error: Raise) -> bool:
    """``value`` as True or False (not 0, 1 or a string)."""
    if not isinstance(value, bool):
        raise error(f"{what} must be True or False, not {value!r}")
    return value


def text(value: object, what: str, error: Raise) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        raise error(f"{what} must be text, not {type(value).__name__}")
    return value
