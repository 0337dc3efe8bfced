"""The per-seat view: the ONE place where hidden information is filtered (docs/design.md §4).

A view holds what the seat may know: its own cards, everybody's public actions, the
standing play, places, and other seats' card counts as ``info.count_visibility`` allows
(R10.1). Burn offers and revolution offers are private (the offered seat alone learns it
is being asked, since being asked reveals cards); declines of them are never shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gouji.engine.cards import RANKS, counts_text
from gouji.engine.gamelog import private_events
from gouji.engine.referee.common import P_HUAN_CHECK, PRIVATE_PENDING, SEATS

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game

STATUS_NAMES = ("active", "passed", "rang")
HEAD_NAMES = ("live", "dead_level", "none")


def card_count(game: Game, seat: int, viewer: int | None) -> int | str:
    """R10.1: a count, '>10' or 'playing', as the rules let ``viewer`` see ``seat``'s hand."""
    n = sum(game.hands[seat])
    if viewer == seat or n == 0:
        return n
    vis = game.rules.info_count_visibility
    if vis == "always":
        return n
    if vis == "le10":
        return n if n <= 10 else ">10"
    return "playing"


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """JSON-serializable view of ``game`` for ``seat`` (None = spectator)."""
    if seat is not None and not 0 <= seat < SEATS:
        raise ValueError(f"seats are 0…5 (or None for a spectator), not {seat}")
    private = game.pending in PRIVATE_PENDING
    to_act = game.to_act if (not private or seat == game.to_act) else None
    state = game.public_state()
    v: dict[str, Any] = {
        "preset": game.rules.preset,
        "rules": game.rules.spec(),
        "seat": seat,
        "phase": game.pending,
        "to_act": to_act,
        "waiting": game.pending if private and to_act is None else None,
        "is_over": game.is_over,
        "starter": state["starter"],
        "first_taker": state["first_taker"],
        "places": list(game.places),
        "revolutionary": game.revolutionary,
        "counts": [card_count(game, s, seat) for s in range(SEATS)],
        "round": game.round_no,
        "chaos": game.chaos,
        "standing": game.standing.text if game.standing is not None else None,
        "owner": game.owner if game.standing is not None else None,
        "protected": game.standing_protected,
        "statuses": [STATUS_NAMES[s] for s in game.status],
        "heads": [HEAD_NAMES[game.head(s)] for s in range(SEATS)],
        "burner": game.burner if game.burner >= 0 else None,
        "burns": [list(b) for b in game.burns],
        "opened": list(game.opened) if game.rules.dian_enabled else None,
        "men": list(game.men),
        "hui": game.hui or None,
        "declarations": [[s, k] for s, k in game.declarations],
        "round_plays": [[s, t] for s, t in game.round_plays],
    }
    if seat is not None and seat == game.to_act:
        state["to_act"] = seat
    v["state"] = state
    if game.claimant >= 0:  # R10.2: a claim exposes the claimant's cards
        v["claim"] = {"seat": game.claimant, "cards": game.hand(game.claimant)}
    if seat is not None:
        v["hand"] = counts_text(game.hands[seat])
        v["legal_actions"] = [a.text for a in game.legal_actions()] if game.to_act == seat else []
    if seat is not None and seat == game.to_act and game.pending == P_HUAN_CHECK:
        # R16.7: the returned card the payer may refuse, and who returns it
        v["huan_offer"] = {"card": RANKS[game._offered], "by": game._returns[0][0]}
    start = 0
    if not game.rules.info_show_closed_rounds and not game.is_over:
        start = _current_round_start(game.log)
    v["events"] = game.events(start)
    if seat is not None:
        v["private_events"] = private_events(game._private, seat)
    return v


def _current_round_start(log: list[tuple[int, str]]) -> int:
    """R10.3: without ``show_closed_rounds`` only the current round's events are shown."""
    for i in range(len(log) - 1, -1, -1):
        if log[i][1] == "round_won":
            return i + 1
    return 0
