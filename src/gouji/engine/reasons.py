"""Why an action is refused, as data: the rule it breaks, a stable key a front end translates,
its parameters, and the English sentence that ``IllegalAction`` carries.

Front ends show ``key`` and ``params`` in the player's language (docs/engine.md lists the keys);
``str(reason)`` is the engine's message, which always starts with the rule ID.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gouji.engine.pickling import by_fields

_RULE = re.compile(r"(R\d+(?:\.\d+)?(?:\s?\([a-z]\))?(?:/R\d+(?:\.\d+)?)?):\s*(.*)", re.S)

#: The composition messages of ``plays.is_composition_legal`` and their keys.
COMPOSITION_KEYS = {
    "R4.1: the hand does not hold these cards": "not_held",
    "R4.2: 2s cannot be attached in this variant (play.twos_attach = false)": "twos_not_attached",
    "R4.7: nothing may be attached to 3s under 憋3": "bie3_attached",
    "R4.7: the 3s cannot be split under 憋3": "bie3_split",
    "R4.7: 3s may only be the final play under 憋3": "bie3_not_final",
}


@dataclass(frozen=True, slots=True)
class Reason:
    """One refusal: ``rule`` (e.g. "R5.1"), ``key`` (e.g. "not_higher"), ``text`` (English,
    without the rule) and ``params`` (card texts, counts, seats)."""

    rule: str
    key: str
    text: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "key": self.key, "params": dict(self.params), "text": str(self)}

    def __reduce__(self) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
        return by_fields(self)  # a compiled frozen class (gouji.engine.pickling)


def reason(rule: str, key: str, text: str, **params: Any) -> Reason:
    return Reason(rule, key, text, tuple(params.items()))


def from_message(message: str, key: str = "other") -> Reason:
    """A ``Reason`` for a message made as text ("R4.7: …"); known composition messages get
    their own key."""
    m = _RULE.match(message)
    if m is None:
        return Reason("", key, message)
    return Reason(m.group(1), COMPOSITION_KEYS.get(message, key), m.group(2))
