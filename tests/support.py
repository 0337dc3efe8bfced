"""Shared test support: rule sets the spec's vectors name by shorthand (GOUJI_RULES.md §TV
preamble) and position drivers."""

from __future__ import annotations

from gouji import Game, timeout_action

#: OD: OUTLINE_CLASSIC with the outline's 打点 and tribute (打点 without 憋3).
OD_OVERRIDES: dict[str, object] = {
    "dian.enabled": True,
    "dian.qualifier": "outline",
    "dian.deadline": "outline",
    "dian.mutual": "exchange",
    "trib.enabled": True,
    "trib.order": ["dian", "luo"],
    "trib.return": True,
    "trib.return_rank_rule": True,
    "trib.shao": False,
}


def end_round(g: Game) -> None:
    """Everybody asked declines (R19.2 defaults) until the current round ends."""
    rounds = g.round_no
    for _ in range(30):
        if g.round_no != rounds or g.is_over:
            return
        g.apply(timeout_action(g))
    raise AssertionError("the round did not end")
