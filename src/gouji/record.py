"""Game records: a game is its rules, its start (seed or hands) and its actions (DESIGN §4).

Format ``gouji-record/1``::

    {"format": "gouji-record/1", "rules": {"preset": ..., "overrides": {...}},
     "start": {"seed": 7, "opener": null, "first_taker": null, "first_game": true}
              | {"hands": [...], "starter": 0, "places": {...}, ...},
     "actions": ["play 7 7", "pass", ...]}

Records keep every seat's cards (through the seed); show them through ``view`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gouji.actions import IllegalAction
from gouji.rules import ConfigError, make_rules
from gouji.tribute import Payment

if TYPE_CHECKING:
    from gouji.game import Game

FORMAT = "gouji-record/1"


class RecordError(ValueError):
    """A record that cannot be replayed; the message says where and why."""


def make_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as it stands (JSON-serializable)."""
    return {
        "format": FORMAT,
        "rules": game.rules.spec(),
        "start": dict(game.start),
        "actions": list(game.actions),
    }


def replay(record: Mapping[str, Any]) -> Game:
    """Rebuild a game from its record, applying every action again."""
    from gouji.game import Game

    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"unknown record format {record.get('format')!r}; expected {FORMAT}")
    try:
        r = record["rules"]
        rules = make_rules(r["preset"], r.get("overrides") or {})
        start = record["start"]
        actions = record["actions"]
    except (KeyError, TypeError) as e:
        raise RecordError(f"record is missing a field: {e}") from None
    except ConfigError as e:
        raise RecordError(f"record rules: {e}") from None
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("record actions must be a list of action texts")
    try:
        if "seed" in start:
            g = Game.new(
                rules,
                int(start["seed"]),
                opener=start.get("opener"),
                first_taker=start.get("first_taker"),
                first_game=bool(start.get("first_game", True)),
                tribute=[Payment.from_dict(d) for d in start.get("tribute") or []],
                hui5_team=start.get("hui5_team"),
            )
        else:
            g = Game.from_hands(
                rules,
                start["hands"],
                int(start.get("starter", 0)),
                places={int(k): int(v) for k, v in (start.get("places") or {}).items()},
                revolutionary=start.get("revolutionary"),
                renounced=bool(start.get("renounced", False)),
                opened=start.get("opened") or (),
            )
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"record start: {e}") from None
    for i, text in enumerate(actions):
        try:
            g.apply(text)
        except IllegalAction as e:
            raise RecordError(f"action #{i} {text!r} cannot be replayed: {e}") from None
    return g
