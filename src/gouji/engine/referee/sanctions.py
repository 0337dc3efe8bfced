"""The referee's sanctions (R19.4; seed 003, O 第二十八–三十条, the 够级比赛 sheet): what can be
given and when (``problem``, ``refused``), and what each does to a game in progress: a
cancelled turn is forfeited (``run_cancellations``), 罚为大落 / 取消资格 put the seat out of play
(``punish``, ``leave``). ``Game.sanction`` is the entry point; ``Match.sanction`` shares the
checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from gouji.engine.plays import NO_BASE
from gouji.engine.referee import burning, claims, common, places, refusals, rounds
from gouji.engine.referee.common import (
    P_KOU,
    P_LEAD,
    P_OFFER,
    P_ORDER,
    P_RANG_RETURN,
    P_RESPOND,
    PLACE_NAMES,
    PLAY_PENDING,
    SEATS,
)

if TYPE_CHECKING:
    from gouji.engine.referee.game import Game


#: The referee's sanctions (R19.4; seed 003, O 第二十九条 (一)–(五)): 警告, 取消一次发牌权,
#: 罚分, 罚为大落, 取消资格.
SANCTIONS: Final = ("warning", "cancel_turn", "penalty", "last_place", "disqualify")
PLACING_SANCTIONS: Final = frozenset({"last_place", "disqualify"})  # out of play, last place
AFTER_GAME_SANCTIONS: Final = frozenset({"warning", "penalty"})  # still possible after the game
#: The turns at which a seat could play cards: what a cancelled turn costs (R19.4, R7.6).
_TURNS: Final = frozenset({P_LEAD, P_RESPOND, P_RANG_RETURN})
ARTICLE_MAX: Final = 80  # characters of a sanction's article (a citation, not a report)


class SanctionError(ValueError):
    """A sanction the referee cannot give (R19.4); the message says why, nothing changed."""


def problem(kind: object, seat: object, points: object, article: object) -> str:
    """Why these sanction arguments are malformed in any game ('' when well formed); shared
    with ``Match.sanction``, which must check a sanction it keeps for the next game."""
    if kind not in SANCTIONS:
        return f"R19.4: unknown sanction {kind!r}; sanctions: {', '.join(SANCTIONS)}"
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        return f"R0.2: seats are 0…5, not {seat!r}"
    whole = isinstance(points, int) and not isinstance(points, bool)
    if kind == "penalty" and (not whole or not points):
        return f"R17.6: a penalty is a non-zero whole number of points (default −2), not {points!r}"
    if not isinstance(article, str) or len(article) > ARTICLE_MAX:
        return f"R19.4: the article is a text of at most {ARTICLE_MAX} characters"
    if not article.isprintable():
        return "R19.4: the article is one line of printable text"
    return ""


def log_text(kind: str, points: int, article: str) -> str:
    """The log text of a sanction (``gouji.engine.gamelog`` reads it back): ``sanction <kind>``, the
    points of a penalty, then the article in parentheses when one is given."""
    text = f"sanction {kind}"
    if kind == "penalty":
        text += f" {points}"
    return f"{text} ({article})" if article else text


def give(g: Game, kind: object, seat: object, points: object, article: object) -> None:
    """``Game.sanction``: check the sanction, record it, log it, and carry it out."""
    why = problem(kind, seat, points, article)
    if why:
        raise SanctionError(why)
    # well formed now (problem): only a penalty's points count
    kind, seat, article = cast(str, kind), cast(int, seat), cast(str, article)
    points = cast(int, points) if kind == "penalty" else -2
    why = refused(g, kind, seat)
    if why:
        raise SanctionError(why)
    g.sanctions.append(
        {
            "at": len(g.actions),
            "kind": kind,
            "seat": seat,
            "points": points if kind == "penalty" else None,
            "article": article,
        }
    )
    g._legal = None
    common.log_public(g, seat, log_text(kind, points, article))
    if kind == "penalty":
        g.penalties.append((seat, points, article))
    elif kind == "cancel_turn":
        g.cancelled[seat] += 1
        g._cancels += 1
    elif kind in PLACING_SANCTIONS:
        if kind == "disqualify":
            g.disqualified.append(seat)
        if g.pending in PLAY_PENDING:
            punish(g, seat)
        else:
            g._deferred.append(seat)
    run_cancellations(g)


def refused(g: Game, kind: str, seat: int) -> str:
    """Why this game cannot take the sanction now ('' when it can)."""
    if g.is_over and kind not in AFTER_GAME_SANCTIONS:
        return f"R9.9: the game is over; only a penalty or a warning can be given, not {kind}"
    if kind in AFTER_GAME_SANCTIONS:
        return ""
    place = g._places[seat]
    if place is not None:
        return f"R19.4: P{seat} is out of play already ({PLACE_NAMES[place]}); no {kind}"
    if seat in g._deferred:
        return f"R19.4: P{seat} already leaves play with the last place at the first lead"
    return ""


def punish(g: Game, seat: int) -> None:
    """罚为大落 / 取消资格 in play: the seat leaves at once; R9.9 is tested; when it was
    the seat's decision, play moves on as after a forfeit (R19.1), and a claim it made or
    had to order passes on (R10.2)."""
    kind, turn, claim = g.pending, g.to_act == seat, g.claimant == seat
    leave(g, seat)
    if places.check_end(g):
        return
    if kind == P_ORDER and claim:  # the claim was a lead: it is void, the lead passes
        rounds.new_round(g, common.next_active(g, seat))
    elif kind == P_ORDER and turn:  # the claimant's next active teammate, or itself
        c = g.claimant
        g.to_act = next((q for q in ((c + 2) % SEATS, (c + 4) % SEATS) if g.active[q]), c)
    elif not turn:
        return
    elif kind == P_LEAD:
        g.must_lead_base = NO_BASE
        rounds.new_round(g, common.next_active(g, seat))
    elif kind == P_RESPOND:
        rounds.visit(g, (seat + 1) % SEATS)
    elif kind in (P_RANG_RETURN, P_KOU):
        rounds.round_end(g)
    elif kind == P_OFFER:
        burning.next_offer(g)


def leave(g: Game, seat: int) -> None:
    """Out of play by sanction with the worst free place, cards dead (as R9.11). What
    was the seat's lapses: its burn (neither 烧成 nor 解烧), its claim, its burn offer and
    its cancelled turns. A revolutionary (punished before it revolted) gives up 四科."""
    g.punished.append(seat)
    g._cancels -= g.cancelled[seat]
    g.cancelled[seat] = 0
    if g.burner == seat:
        g.burner = g.victim = -1
    if g.claimant == seat:
        claims.end_claim(g)
    if g.pending == P_OFFER and seat in g._ask:
        i = g._ask.index(seat)
        del g._ask[i], g._offers[i]
    if g.active[seat]:
        places.force_place(g, seat, "punished")
    else:
        g._places[seat] = None
        places.take_place(g, seat, places.free_places(g)[-1], "punished")
    g._legal = None


def run_cancellations(g: Game) -> None:
    """R19.4 取消一次发牌权: a cancelled turn is forfeited as R19.1 forfeits it, one per
    cancellation, as soon as the seat could play cards."""
    while g._cancels and g.pending in _TURNS:
        seat = g.to_act
        assert seat is not None
        if not g.cancelled[seat]:
            return
        g.cancelled[seat] -= 1
        g._cancels -= 1
        refusals.forfeit(g, "R19.4: turn cancelled")
