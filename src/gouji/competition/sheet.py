"""Scoring a game played with real cards: the referee's sheet (places and the items the
preset scores) turned into team scores by the preset's scoring system (R17), exactly as an
engine game is scored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gouji.engine.referee.scoring import Events, chuan_team, score
from gouji.engine.rules import Rules


class SheetError(ValueError):
    """A game sheet that cannot be scored: the message says which entry and why."""


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 6:
        raise SheetError(f"{what}: a seat is 1…6 on the sheet (0…5 here), not {value!r}")
    return value


def sheet_events(rules: Rules, entry: Mapping[str, Any]) -> Events:
    """Validate a sheet entry ``{"places": [6 ints by seat], "not_opened": [seats],
    "men": [seats], "burns": [[burner, victim], …]}`` and return its scoring events."""
    places = entry.get("places")
    if (
        not isinstance(places, Sequence)
        or isinstance(places, str)
        or sorted(p for p in places if isinstance(p, int) and not isinstance(p, bool))
        != [1, 2, 3, 4, 5, 6]
        or len(places) != 6
    ):
        raise SheetError(f"places must give each seat one of 1…6 exactly once, not {places!r}")
    not_opened = [_seat(s, "not_opened") for s in entry.get("not_opened") or []]
    if not_opened and not rules.dian_enabled:
        raise SheetError("this rule set plays no 打点: nobody can be 不开点")
    men = [_seat(s, "men") for s in entry.get("men") or []]
    if men and not rules.bie3_enabled:
        raise SheetError("this rule set plays no 憋3: nobody can be 闷")
    burns: list[tuple[int, int]] = []
    for b in entry.get("burns") or []:
        if not isinstance(b, Sequence) or isinstance(b, str) or len(b) != 2:
            raise SheetError(f"a burn is [burner, victim], not {b!r}")
        burner, victim = _seat(b[0], "burn"), _seat(b[1], "burn")
        if (burner - victim) % 2 == 0:
            raise SheetError("a burn that scores is of an opponent's play (R17.7)")
        burns.append((burner, victim))
    for name, seats in (("not_opened", not_opened), ("men", men)):
        if len(set(seats)) != len(seats):
            raise SheetError(f"{name} lists a seat twice")
    return Events(tuple(int(p) for p in places), tuple(men), tuple(not_opened), tuple(burns))


def score_sheet(rules: Rules, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A game result in the shape of ``Game.result()`` (the fields an event reads) from a
    referee's sheet: places, recorded ``team_scores``, ``team_points``, bonuses, 串三户."""
    ev = sheet_events(rules, entry)
    raw, recorded, bonus = score(rules.score_system, ev)
    return {
        "places": list(ev.places),
        "team_scores": recorded,
        "team_points": raw,
        "scoring": rules.score_system,
        "bonuses": bonus,
        "chuan": chuan_team(ev.places),
        "not_opened": list(ev.not_opened),
        "men": list(ev.men),
        "burns": [list(b) for b in ev.burns],
        "penalties": [],
    }


__all__ = ["SheetError", "score_sheet", "sheet_events"]
