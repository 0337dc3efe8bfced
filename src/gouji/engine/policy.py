"""Software policies: the action taken when a seat's timer runs out (R19.2, AMB-60).

The autoplay counter (R19.3) belongs to the server; this module only picks the default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gouji.engine.actions import (
    ACCEPT,
    KEEP,
    KOU,
    NOBURN,
    NOGEMING,
    NOHUI,
    NOMINGDIAN,
    NOYUDIAN,
    PASS,
    PLAY,
    Action,
)
from gouji.engine.plays import Play

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game

_DECLINES = {
    "burn_offer": NOBURN,
    "kou": KOU,
    "yudian": NOYUDIAN,
    "mingdian": NOMINGDIAN,
    "geming": NOGEMING,
    "renounce": KEEP,
    "hui": NOHUI,
    "hui5": NOHUI,
    "huan_check": ACCEPT,
}


def lead_key(play: Play) -> tuple[int, int, int, int, int, int]:
    """R19.2 lowest lead: plain before 2s/jokers, then lowest eff, fewest cards, fewest extras."""
    extra = play.n2 + play.nsj + play.nlj if play.base >= 0 else play.nsj + play.nlj
    return (int(extra > 0), play.eff, play.size, play.nlj, play.nsj, play.n2)


def timeout_action(game: Game) -> Action:
    """The default decision of ``game.to_act`` on timeout (table *Timeout defaults*, R19.2)."""
    legal = game.legal_actions()
    if not legal:
        raise ValueError("nobody is to act: the game is over")
    words = {a.kind: a for a in legal if a.play is None}
    if PASS in words:  # a response, including the turn that returns after RANG
        return words[PASS]
    if game.pending == "huan":  # R19.2: the receiver's lowest card not yet refused
        return legal[0]
    kind = _DECLINES.get(game.pending)
    if kind is not None and kind in words:
        return words[kind]
    plays = [a for a in legal if a.kind == PLAY and a.play is not None]
    if plays:  # a lead: R3.8, R4.7, R8.6 are already in the legal list
        return min(plays, key=lambda a: lead_key(a.play))  # type: ignore[arg-type]
    return legal[-1]
