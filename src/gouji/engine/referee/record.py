"""Game records: a game is its rules, its start (seed or hands) and its actions (docs/design.md §4).

Format ``gouji-record/1``::

    {"format": "gouji-record/1", "rules": {"preset": ..., "overrides": {...}},
     "start": {"seed": 7, "opener": null, "first_taker": null, "first_game": true}
              | {"hands": [...], "starter": 0, "places": {...}, ...},
     "actions": ["play 7 7", "pass", ...],
     "sanctions": [{"at": 12, "kind": "penalty", "seat": 3, "points": -2, "article": "…"}]}

``sanctions`` (optional, R19.4) lists the referee's sanctions in the order given; ``at`` is the
number of actions applied before each (``points`` is null but for a penalty). Records keep
every seat's cards (through the seed); show them through ``view`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from gouji.engine.actions import IllegalAction
from gouji.engine.rules import ConfigError, make_rules
from gouji.engine.tribute import Payment

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game

FORMAT = "gouji-record/1"


class RecordError(ValueError):
    """A record that cannot be replayed; the message says where and why."""


class Sanction(NamedTuple):
    """One recorded sanction (R19.4): given after ``at`` actions."""

    at: int
    kind: str
    seat: int
    points: int
    article: str


def make_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as it stands (JSON-serializable)."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.spec(),
        "start": dict(game.start),
        "actions": list(game.actions),
    }
    if game.sanctions:
        rec["sanctions"] = [dict(s) for s in game.sanctions]
    return rec


def _whole(value: object) -> int | None:
    """``value`` when it is a whole number (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_sanctions(raw: object, actions: int) -> list[Sanction]:
    """The ``sanctions`` of a record with ``actions`` actions, checked for form and order;
    whether each can be given is for the replay to say (``Game.sanction``)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RecordError("record sanctions must be a list")
    out: list[Sanction] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise RecordError(f"sanction #{i} must be an object")
        at, seat = _whole(entry.get("at")), _whole(entry.get("seat"))
        kind, article = entry.get("kind"), entry.get("article", "")
        if at is None or not 0 <= at <= actions:
            raise RecordError(f"sanction #{i}: 'at' must count the actions before it (0…{actions})")
        if out and at < out[-1].at:
            raise RecordError(f"sanction #{i}: sanctions are listed in the order given ('at')")
        if not isinstance(kind, str) or seat is None:
            raise RecordError(f"sanction #{i}: 'kind' (text) and 'seat' (a number) are needed")
        raw_points = entry.get("points")
        points = -2 if raw_points is None and kind != "penalty" else _whole(raw_points)
        if points is None:
            raise RecordError(f"sanction #{i}: 'points' must be a whole number")
        if not isinstance(article, str):
            raise RecordError(f"sanction #{i}: 'article' must be text")
        out.append(Sanction(at, kind, seat, points, article))
    return out


def give(game: Game, i: int, s: Sanction) -> None:
    """Give a recorded sanction again; one the game refuses is a corrupt record."""
    try:
        game.sanction(s.kind, s.seat, points=s.points, article=s.article)
    except ValueError as e:
        raise RecordError(f"sanction #{i} ({s.kind} P{s.seat}) cannot be replayed: {e}") from None


def replay(record: object) -> Game:
    """Rebuild a game from its record, applying every action again."""
    from gouji.engine.referee.game import Game

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
    except ConfigError as bad_rules:  # one name per exception type (compiled)
        raise RecordError(f"record rules: {bad_rules}") from None
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("record actions must be a list of action texts")
    sanctions = read_sanctions(record.get("sanctions"), len(actions))
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
                deck=start.get("deck"),
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
    except (KeyError, TypeError, ValueError) as bad_start:
        raise RecordError(f"record start: {bad_start}") from None
    given = 0
    for i, text in enumerate(actions):
        while given < len(sanctions) and sanctions[given].at == i:
            give(g, given, sanctions[given])
            given += 1
        try:
            g.apply(text)
        except IllegalAction as refused:
            raise RecordError(f"action #{i} {text!r} cannot be replayed: {refused}") from None
    for i in range(given, len(sanctions)):
        give(g, i, sanctions[i])
    return g
