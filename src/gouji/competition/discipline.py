"""罚则 across an event: repeat offences by one player and the next step the outline takes
(O 第二十九–三十条: 警告 → 取消一次发牌权 / 罚分 → 罚为大落 → 取消参赛资格), and the check that a
player 罚为大落 is 大落 on the sheet of the game it counts in.

The referee decides; this module only proposes. Pure functions of the event's sanction list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: The outline's ladder (第二十九条's order). 取消一次发牌权 stands with 罚分 on the second step:
#: the outline gives it for the faults a warning does not cover (第三十条).
LADDER: dict[str, int] = {
    "warning": 0,
    "cancel_turn": 1,
    "penalty": 1,
    "last_place": 2,
    "disqualify": 3,
}
NEXT_STEP = ("penalty", "last_place", "disqualify", "disqualify")  # after step 0, 1, 2, 3


def next_step(kinds: Iterable[str]) -> str:
    """The sanction the outline's escalation proposes after ``kinds`` (one player's so far):
    one step above the most severe of them; a warning for a first offence."""
    steps = [LADDER[k] for k in kinds if k in LADDER]
    return NEXT_STEP[max(steps)] if steps else "warning"


def offenders(sanctions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every player sanctioned more than once (a repeat offence), with their sanctions' kinds
    in order and the next step proposed: the organiser's page flags them."""
    seen: dict[tuple[str, str], list[str]] = {}
    for s in sanctions:
        seen.setdefault((s["team"], s["player"]), []).append(s["kind"])
    return [
        {"team": team, "player": player, "count": len(kinds), "kinds": kinds,
         "next": next_step(kinds)}
        for (team, player), kinds in seen.items()
        if len(kinds) > 1
    ]  # fmt: skip


def last_place_problem(places: Sequence[int], seats: Sequence[int]) -> str | None:
    """罚为大落 (R19.4 ``force_place``): the ``seats`` so sanctioned in a game must hold its last
    places (one: 6th; two: 5th and 6th), as the engine places them. None when they do."""
    if not seats:
        return None
    want = set(range(7 - len(seats), 7))
    got = {places[s] for s in seats}
    if got == want:
        return None
    who = ", ".join(f"seat {s + 1}" for s in sorted(seats))
    return (
        f"罚为大落: {who} must be placed {'/'.join(str(p) for p in sorted(want))} "
        f"(the last place{'s' if len(seats) > 1 else ''}) on this game's sheet"
    )


__all__ = ["LADDER", "last_place_problem", "next_step", "offenders"]
