"""The organiser's hand on the seats of an event's online tables: a seat link revoked and
reissued (docs/protocol.md, "Events"; docs/decisions.md D86).

A seat's invitation is an HMAC of the organiser key, the room, the seat and the seat's
generation (``live.invite``); reissuing a link stores a ``relink`` action in the room (the
new invitation's hash and generation, folded into the room's seating like every other
change, so a restart replays it). Whoever held the seat by the old link loses it at once.
"""

from __future__ import annotations

import json
from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.server.events.guard import keyed
from gouji.server.events.live import LiveEvent, Unavailable, invite
from gouji.server.events.service import Events
from gouji.server.plumbing import tokens
from gouji.server.plumbing.http import bad_request, conflict, fields, not_found, read_json
from gouji.server.tables.protocol import SEATS
from gouji.server.tables.room import StoreFailed
from gouji.server.tables.store import SeatRow

REPLACED = "the organiser gave this seat a new link: the old one no longer works"


async def relink(events: Events, request: Request, live: LiveEvent) -> Response:
    """``POST /api/events/{code}/tables/{table}/seats/{seat}/link`` (organiser): a new link
    for a player's seat (seats from 0, as everywhere in the API); the old one stops working."""
    key = events.organiser(request, live)
    fields(await read_json(request), (), ())
    m, t = events.table_of(live, request)
    raw = str(request.path_params["seat"])
    if not (raw.isascii() and raw.isdigit() and len(raw) == 1 and int(raw) < SEATS):
        raise not_found(f"no seat {raw[:10]!a}: seats are numbered 0 to {SEATS - 1}")
    seat = int(raw)
    if t.room is None:
        raise conflict(f"table {t.id} is played with real cards: its seats have no links")
    events.check_playing(live, m, t)
    room = events.hub.get(t.room)
    if room is None:
        raise conflict(f"the room of table {t.id} is not served now: try again in a moment")
    async with room.lock:
        seating = room.config.seating or []
        entry = seating[seat] if seat < len(seating) else {}
        if entry.get("invite") is None:
            raise bad_request(f"seat {seat} of table {t.id} is a bot's: it has no link")
        gen = int(entry.get("gen", 0)) + 1
        fresh = invite(key, room.code, seat, gen)
        text = json.dumps({"invite": tokens.token_hash(fresh), "gen": gen})
        row = SeatRow(seat, str(entry["name"]), None, None)
        try:
            room.commit("relink", seat, text, seat_rows=[row])
        except StoreFailed as e:
            raise Unavailable(str(e)) from None
        for c in room.conns:  # whoever sits there by the old link watches from now on
            if c.seat == seat:
                c.seat, c.token = None, None
                c.send({"type": "replaced", "message": REPLACED, "why": "relink"})
                c.mark()
    team = live.ev.teams[t.teams[seat % 2]].name
    url = f"/r/{room.code}?seat={seat + 1}&invite={fresh}"
    body = {"table": t.id, "seat": seat, "team": team, "player": entry["name"], "url": url}
    return JSONResponse(body, status_code=201)


def routes(events: Events) -> list[Route]:
    """The seat-link route; an organiser's write, so it honours an ``Idempotency-Key``."""
    path = "/api/events/{code}/tables/{table}/seats/{seat}/link"
    return [Route(path, keyed(events, partial(relink, events)), methods=["POST"])]
