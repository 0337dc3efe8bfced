"""Scoring systems (R17) and the result of one game.

Each system turns places plus bonus events (闷, 不开点, successful burns) into the two teams'
scores for the game; ``team_scores`` is what the system *records* (R17.1: the outline keeps
only a positive team sum). A referee's penalty points (R19.4) come last, after the bonuses and
after the system's recording rule (R17.6, docs/decisions.md D41).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gouji.engine.pickling import by_fields

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game

PLACE_POINTS: dict[str, tuple[int, ...]] = {
    "outline": (4, 2, 0, 0, -2, -4),  # R17.1
    "comp2": (2, 1, 0, 0, -1, -2),  # R17.2
    "match7": (7, 5, 4, 3, 2, 0),  # R17.3
    "audit6": (6, 5, 4, 3, 2, 1),  # R17.4
}


@dataclass(frozen=True, slots=True)
class Events:
    """What a game produced for scoring: places by seat and the bonus events."""

    places: tuple[int, ...]
    men: tuple[int, ...] = ()  # 闷'd seats
    not_opened: tuple[int, ...] = ()  # 不开点 seats (only where 打点 is on)
    burns: tuple[tuple[int, int], ...] = ()  # successful burns (burner, victim), opponents

    def __reduce__(self) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
        return by_fields(self)  # a compiled frozen class (gouji.engine.pickling)


def chuan_team(places: tuple[int, ...]) -> int | None:
    """R9.10: the team holding 头科, 二科 and 三科, if one does."""
    top = {seat & 1 for seat, p in enumerate(places) if p in (1, 2, 3)}
    return top.pop() if len(top) == 1 else None


def score(system: str, ev: Events) -> tuple[list[int], list[int], dict[str, list[int]]]:
    """(raw team scores, recorded team scores, bonuses by kind) under one system (R17)."""
    pts = PLACE_POINTS[system]
    sums = [0, 0]
    for seat, p in enumerate(ev.places):
        sums[seat & 1] += pts[p - 1]
    bonus = {"men": [0, 0], "dian": [0, 0], "burn": [0, 0]}
    if system in ("comp2", "audit6"):
        for seat in ev.men:
            bonus["men"][1 - (seat & 1)] += 1  # R17.7: to the opponents
        for seat in ev.not_opened:
            bonus["dian"][1 - (seat & 1)] += 1
        for burner, _victim in ev.burns:
            bonus["burn"][burner & 1] += 1
    winner = chuan_team(ev.places)
    raw = [sums[t] + bonus["men"][t] + bonus["dian"][t] + bonus["burn"][t] for t in (0, 1)]
    if system == "outline":
        if winner is not None:
            rec = [0, 0]
            rec[winner] = 12  # R17.1: 串三户 records double of 6
            return [sums[0], sums[1]], rec, bonus
        return raw, [max(0, raw[0]), max(0, raw[1])], bonus
    if system == "match7" or winner is None:
        return raw, raw[:], bonus
    loser = 1 - winner
    chuan = [0, 0]
    if system == "comp2":  # R17.2 / AMB-46: winners' place sum doubled; 闷/烧 void
        chuan[winner] = 2 * sums[winner] + bonus["dian"][winner]
        chuan[loser] = sums[loser] + bonus["dian"][loser]
    else:  # audit6, R17.4: 30 : 3, 点 bonuses still added
        chuan[winner] = 30 + bonus["dian"][winner]
        chuan[loser] = 3 + bonus["dian"][loser]
    return chuan, chuan[:], bonus


def game_events(game: Game) -> Events:
    """The scoring events of a finished game."""
    places = tuple(p if p is not None else 0 for p in game.places)
    not_opened: tuple[int, ...] = ()
    if game.rules.dian_enabled:
        not_opened = tuple(s for s in range(6) if not game.opened[s])
    return Events(places, tuple(game.men), not_opened, tuple(game.burns))


def game_result(game: Game) -> dict[str, Any]:
    """R17 and R11.8: places, recorded team scores and everything the next game needs;
    R17.6: the referee's penalties added to both the points and the recorded scores."""
    ev = game_events(game)
    system = game.rules.score_system
    raw, recorded, bonus = score(system, ev)
    raw, recorded = raw[:], recorded[:]
    penalties: list[dict[str, Any]] = []
    for seat, points, article in game.penalties:
        raw[seat & 1] += points
        recorded[seat & 1] += points
        penalties.append({"seat": seat, "team": seat & 1, "points": points, "article": article})
    declarations = []
    for declarer, kind in game.declarations:
        target = (declarer + 3) % 6
        succeeded = not game.opened[target]
        base = 2 if kind == "mingdian" else 4
        if not succeeded and game.rules.dian_declare == "ming_yu_double":
            base *= 2
        declarations.append(
            {"by": declarer, "on": target, "kind": kind, "succeeded": succeeded, "cards": base}
        )
    pts = PLACE_POINTS[system]
    chuan = chuan_team(ev.places)
    return {
        "places": list(ev.places),
        "team_scores": recorded,
        "team_points": raw,
        "scoring": system,
        "place_points": [pts[p - 1] for p in ev.places],
        "score_rule": _score_rule(system, chuan),
        "hands": [game.hand(s) if sum(game.hands[s]) else game.dead_hands[s] for s in range(6)],
        "chuan": chuan,
        "bonuses": bonus,
        "opened": list(game.opened) if game.rules.dian_enabled else None,
        "men": list(ev.men),
        "burns": [list(b) for b in ev.burns],
        "revolutionary": game.revolutionary,
        "declarations": declarations,
        "finish_order": list(game.finish_order),
        "penalties": penalties,
        "disqualified": list(game.disqualified),
    }


def _score_rule(system: str, chuan: int | None) -> str:
    """How the recorded scores came from the points (for a settlement screen): ``sum``;
    ``positive_only`` (R17.1); ``chuan_12`` (R17.1); ``chuan_doubled`` (R17.2);
    ``chuan_30_3`` (R17.4)."""
    if system == "outline":
        return "positive_only" if chuan is None else "chuan_12"
    if chuan is None or system == "match7":
        return "sum"
    return "chuan_doubled" if system == "comp2" else "chuan_30_3"
