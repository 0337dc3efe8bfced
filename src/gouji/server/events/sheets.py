"""Results, sanctions and corrections over HTTP: a referee's sheet entered (previewed first),
corrected or voided, a sanction (for a named game too), a walkover (docs/protocol.md,
"Events"). The organiser and the referees of the table's match (``access``) may make them;
each honours an ``Idempotency-Key`` (``guard.keyed``).
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.competition.event import Event, EventError
from gouji.server.events.bodies import name_text, penalties_body, sanction_body, sheet_body
from gouji.server.events.guard import guard, keyed
from gouji.server.events.live import LiveEvent, rebuild
from gouji.server.events.service import Events
from gouji.server.events.views import event_json
from gouji.server.plumbing.http import bad_request, conflict, fields, integer, not_found, read_json

_MATCH = re.compile(r"r[0-9]{1,3}m[0-9]{1,4}")


def game_of(request: Request) -> int:
    """The game of the path (``…/games/{game}``, from 0; 404 for anything else)."""
    raw = str(request.path_params["game"])
    if not raw.isdigit() or len(raw) > 4:
        raise not_found(f"no game {raw[:10]!a}: games are numbered from 0")
    return int(raw)


def routes(events: Events) -> list[Route]:
    """Routes of the event's record (docs/protocol.md, "Events")."""

    async def sheet(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        b = fields(
            await read_json(request),
            ("game", "places"),
            ("not_opened", "men", "burns", "penalties"),
        )
        game = integer(b["game"], "game", 0, 1000)
        entry = sheet_body(b)
        penalties = penalties_body(b.get("penalties"))
        if live.ev.mode != "paper":
            raise conflict("an online table's results come from its room")
        events.check_playing(live, m, t)
        if game < len(t.games):
            raise conflict(f"table {t.id} already has a result for game {game + 1}")

        def register(ev: Event) -> None:
            ev.record_sheet(t.id, game, entry)
            for p in penalties:  # the sheet's 罚分 column, in the same change
                ev.sanction(t.id, "penalty", p["seat"], points=p["points"],
                            article=p["article"], game=game)  # fmt: skip

        events.act(live, register, who)
        events.steer(live)
        return JSONResponse(events.table_now(live, t.id), status_code=201)

    async def preview(request: Request) -> Response:
        """What a sheet would give, before it is registered (or a correction, with
        ``"correct": true``): the page shows it and asks to confirm. Computed on a copy of the
        event as stored, with the very checks the real call makes; nothing is kept."""
        live = events.find(request)
        m, t = events.table_of(live, request)
        events.actor(request, live, t.id)
        b = fields(
            await read_json(request),
            ("game", "places"),
            ("not_opened", "men", "burns", "penalties", "correct"),
        )
        game = integer(b["game"], "game", 0, 1000)
        entry = sheet_body(b)
        penalties = penalties_body(b.get("penalties"))
        correcting = b.get("correct") is True
        events.check_playing(live, m, t, decided_ok=correcting)
        ev = rebuild(live.saved)
        try:
            if correcting:
                ev.correct_sheet(t.id, game, entry)
            else:
                ev.record_sheet(t.id, game, entry)
                for p in penalties:
                    ev.sanction(t.id, "penalty", p["seat"], points=p["points"],
                                article=p["article"], game=game)  # fmt: skip
        except EventError as e:
            raise bad_request(str(e)) from None
        pm, pt = ev.table(t.id)
        g = pt.games[game]
        a, b_ = (ev.teams[i].name if i is not None else None for i in pm.teams)
        return JSONResponse(
            {
                "game": game,
                "places": g["places"],
                "team_scores": g["team_scores"],
                "penalties": g["penalties"],
                "match": {
                    "teams": [a, b_],
                    "totals": list(ev.match_totals(pm)),
                    "done": pm.done,
                    "winner": None if pm.winner is None else ev.teams[pm.winner].name,
                    "by_lot": pm.by_lot,
                    "needed": pm.needed,
                },
            }
        )

    async def correct(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        game = game_of(request)
        entry = sheet_body(
            fields(await read_json(request), ("places",), ("not_opened", "men", "burns"))
        )
        events.check_playing(live, m, t, decided_ok=True)
        events.act(live, lambda ev: ev.correct_sheet(t.id, game, entry), who)
        events.steer(live)
        return JSONResponse(events.table_now(live, t.id))

    async def void(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        game = game_of(request)
        events.check_playing(live, m, t, decided_ok=True)
        events.act(live, lambda ev: ev.void_game(t.id, game), who)
        events.steer(live)
        return JSONResponse(events.table_now(live, t.id))

    # ------------------------------------------------------------------ sanctions and more
    async def sanction(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        given = sanction_body(await read_json(request))
        entry = await events.sanction(live, m, t, given, who.label)
        return JSONResponse(entry, status_code=201)

    async def walkover(request: Request, live: LiveEvent) -> Response:
        mid = str(request.path_params["match"])
        if not _MATCH.fullmatch(mid):
            raise not_found(f"no match {mid[:20]!a}")
        who = events.actor(request, live, mid)
        b = fields(await read_json(request), ("absent",), ())
        absent = b["absent"]
        if not isinstance(absent, list) or not 1 <= len(absent) <= 2:
            raise bad_request("'absent' names the team (or both teams) that did not come")
        names = [name_text(n, "an absent team") for n in absent]
        events.act(live, lambda ev: ev.walkover(mid, names), who)
        events.steer(live)
        return JSONResponse(event_json(live))

    table = "/api/events/{code}/tables/{table}"
    return [
        Route(table + "/games", keyed(events, sheet), methods=["POST"]),
        Route(table + "/games/preview", guard(events, preview), methods=["POST"]),
        Route(table + "/games/{game}", keyed(events, correct), methods=["PUT"]),
        Route(table + "/games/{game}", keyed(events, void), methods=["DELETE"]),
        Route(table + "/sanctions", keyed(events, sanction), methods=["POST"]),
        Route(
            "/api/events/{code}/matches/{match}/walkover",
            keyed(events, walkover),
            methods=["POST"],
        ),
    ]
