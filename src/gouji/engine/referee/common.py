"""What every phase of the referee shares: the seats and teams (R1), the kinds of pending
decision, the per-round statuses (R7) and head(p) values (R9.4), and the log.

The phase modules (``preplay``, ``legal``, ``rounds``, ``burning``, ``places``, ``claims``,
``sanctions``, ``refusals``) are functions of the ``Game`` they act on; this module is the
vocabulary they have in common, below all of them (``game`` re-exports the public names).
The constants are ``Final``, so that the compiled build inlines them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


SEATS: Final = 6
PLACE_NAMES: Final = {1: "头科", 2: "二科", 3: "三科", 4: "四科", 5: "二落", 6: "大落"}  # R9.1

# Per-round status of a seat (R7).
ACTIVE: Final = 0
PASSED: Final = 1
RANGED: Final = 2

# head(p) (R9.4).
LIVE: Final = 0
DEAD_LEVEL: Final = 1  # 够死级: one chance against the protected play
NO_HEAD: Final = 2  # 无头

# Pending decision kinds (``Game.pending``; the views' ``phase``).
P_LEAD: Final = "lead"
P_RESPOND: Final = "respond"
P_RANG_RETURN: Final = "rang_return"  # R7.6: the turn returns to the yielder, who must play or pass
P_OFFER: Final = "burn_offer"
P_KOU: Final = "kou"
P_YUDIAN: Final = "yudian"
P_GEMING: Final = "geming"
P_RENOUNCE: Final = "renounce"
P_HUI: Final = "hui"
P_HUI5: Final = "hui5"
P_HUAN: Final = "huan"  # R16.7: the receiver of 落贡 returns a card
P_HUAN_CHECK: Final = "huan_check"  # R16.7: the payer may refuse a returned card of a rank it lacks
P_MINGDIAN: Final = "mingdian"
P_ORDER: Final = "order"  # R10.2: the claimant's first active teammate fixes the claim's order
P_OVER: Final = "over"

#: The pending kinds of the play phase (from the first lead on).
PLAY_PENDING: Final = frozenset({P_LEAD, P_RESPOND, P_RANG_RETURN, P_OFFER, P_KOU, P_ORDER, P_OVER})

#: Pending kinds whose seat the other players must not learn (it would reveal cards).
PRIVATE_PENDING: Final = frozenset({P_OFFER, P_GEMING, P_HUAN_CHECK})


def duitou(seat: int) -> int:
    """R1.2: the opponent sitting opposite."""
    return (seat + 3) % SEATS


def team(seat: int) -> int:
    """R1.1: team A = 0 (seats 0, 2, 4), team B = 1 (seats 1, 3, 5)."""
    return seat & 1


def ccw_from(seat: int) -> list[int]:
    """The six seats counter-clockwise, starting with ``seat`` (R1.3)."""
    return [(seat + i) % SEATS for i in range(SEATS)]


def log_public(g: Game, seat: int, text: str) -> None:
    """Log a public event of ``seat`` (-1: the table's): every view shows it."""
    g.log.append((seat, text))


def log_private(g: Game, seat: int, text: str) -> None:
    """Log an event only ``seat`` sees, after the public events so far."""
    g._private.append((len(g.log), seat, text))


def next_active(g: Game, seat: int) -> int:
    """The next active seat counter-clockwise after ``seat`` (there is always one in play)."""
    for i in range(1, SEATS + 1):
        q = (seat + i) % SEATS
        if g.active[q]:
            return q
    raise RuntimeError("no active player")


def next_active_or_none(g: Game, seat: int) -> int | None:
    """The next active seat counter-clockwise after ``seat``, or None when none is left."""
    for i in range(1, SEATS + 1):
        q = (seat + i) % SEATS
        if g.active[q]:
            return q
    return None
