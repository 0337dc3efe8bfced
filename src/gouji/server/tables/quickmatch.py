"""快速开始 (quick match): one tap seats the player at a table of the chosen rule set.

``POST /api/quick {"preset", "rated"}`` answers the code of a listed room that is waiting
for players of that preset (rated or not, as asked) with an open seat — a quick-match table
first, then the one with the most seats taken — or, when there is none, of a new listed room
whose bots fill the free seats ``FILL_AFTER_S`` seconds after the last player sat down
(``RoomConfig.fill_after_s``; at once when six players are there). The page then takes the
first free seat (the table's own rule before the start).

The answer holds a seat there for the tapping browser (its ``gouji_guest`` cookie, given with
the answer when it has none) for ``holds.HOLD_S`` seconds, until its page sits down: the
next taps go to the next room once six seats are taken or held, so everyone tapping at once
is seated, and a hold never used lapses (gouji.server.tables.holds; docs/decisions.md D170).
A seat is held only by the process that serves the room, in its one event loop: a tap whose
room another process of the site serves is redirected there (``Moved``: 307 with ``?w=``, the
proxy routes it); a tap redirected here holds only in rooms served here, or makes one. The
list is the lobby's (``lobby.Lobby``): every process of a site answers from the same rooms.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.engine.rules import DEFAULT_PRESET, PRESET_NAMES
from gouji.server.players.sessions import GUEST_COOKIE, GUEST_S, guest_of
from gouji.server.plumbing import tokens
from gouji.server.plumbing.http import ApiError, bad_request, read_json
from gouji.server.plumbing.limits import is_local
from gouji.server.tables.hub import Hub
from gouji.server.tables.lobby import Lobby
from gouji.server.tables.protocol import SEATS, ConfigProblem, parse_config
from gouji.server.tables.room import Room

FILL_AFTER_S = 15.0  # a new quick-match table waits this long for more people
QUICK_BOT = "expert"  # 高手: a rated level (docs/strength.md), the lobby's default strength


def ranked(listed: list[dict[str, Any]], preset: str, rated: bool) -> list[str]:
    """The waiting rooms a tap may go to, best first: of ``preset``, rated as asked, with an
    open seat (``free``: neither taken nor held), and a quick-match table or somebody already
    seated; quick-match tables first, then the one with the most seats taken or held."""
    fits = [
        b
        for b in listed
        if b.get("status") == "waiting"
        and b.get("preset") == preset
        and bool(b.get("rated")) == rated
        and int(b.get("free", 0)) > 0
        and (int(b.get("players", 0)) > 0 or bool(b.get("quick")))
        and int(b.get("players", 0)) < SEATS
    ]
    fits.sort(key=lambda b: (bool(b.get("quick")), -int(b["free"]), -b["created"]), reverse=True)
    return [str(b["code"]) for b in fits]


def pick(listed: list[dict[str, Any]], preset: str, rated: bool) -> str | None:
    """The best of ``ranked`` (None: make a new table)."""
    codes = ranked(listed, preset, rated)
    return codes[0] if codes else None


def _fits(room: Room, preset: str, rated: bool) -> bool:
    return room.config.preset == preset and room.config.rated == rated and room.match is None


def _held(hub: Hub, guest: str, preset: str, rated: bool) -> Room | None:
    """A room served here where this browser holds a seat already (it tapped again)."""
    for room in hub.rooms.values():
        if _fits(room, preset, rated) and room.holds.held_by(guest):
            return room
    return None


def _seat_held(
    hub: Hub, lobby: Lobby, guest: str, preset: str, rated: bool, here: bool
) -> Room | None:
    """The room where ``guest`` now holds a seat, None when no listed room has one open. A
    room served by another process raises ``Moved`` (unless ``here``: redirected here)."""
    room = _held(hub, guest, preset, rated)
    if room is not None:
        room.hold(guest)  # renewed
        return room
    for code in ranked(lobby.listed(), preset, rated):
        room = hub.get(code)
        if room is None and not here and hub.locate is not None:
            room = hub.locate(code)  # raises Moved: the owner holds its seats
        if room is not None and _fits(room, preset, rated) and room.hold(guest):
            return room
    return None


def routes(hub: Hub, lobby: Lobby) -> list[Route]:
    """``POST /api/quick`` (the module docstring)."""

    async def quick_match(request: Request) -> Response:
        body = await read_json(request)
        if not isinstance(body, dict) or set(body) - {"preset", "rated"}:
            raise bad_request('send {"preset": name, "rated": true|false}')
        preset = body.get("preset") or DEFAULT_PRESET
        rated = body.get("rated", False)
        if preset not in PRESET_NAMES:
            raise ApiError(
                400, "bad_preset", f"preset is one of {', '.join(PRESET_NAMES)}, not {preset!a}"
            )
        if not isinstance(rated, bool):
            raise bad_request("'rated' must be true or false")
        guest, cookie = guest_of(request), None
        if guest is None:  # a browser always has one (its first page); a script gets one
            cookie = tokens.new_token()
            guest = tokens.token_hash(cookie)
        here = request.query_params.get("w") == hub.worker  # another process sent it here
        room = _seat_held(hub, lobby, guest, preset, rated, here)
        if room is not None:
            answer = {"code": room.code, "url": f"/r/{room.code}", "created": False}
            return _with_guest(JSONResponse(answer), request, cookie)
        ip = request.client.host if request.client is not None else ""
        local = is_local(ip)
        if not local and not hub.created.allow(ip):
            most = hub.limits.rooms_per_ip_per_hour
            raise ApiError(429, "rate_limited", f"at most {most} rooms an hour")
        try:
            config, _ = parse_config(
                {
                    "preset": preset,
                    "bots": SEATS - 1,
                    "bot": QUICK_BOT,
                    "listed": True,
                    "rated": rated,
                }
            )
        except ConfigProblem as e:  # a preset the server does not play
            raise ApiError(400, "bad_preset", str(e)) from None
        config.fill_after_s = FILL_AFTER_S
        room = hub.create(config, local=local)
        room.hold(guest)
        answer = {"code": room.code, "url": f"/r/{room.code}", "created": True}
        return _with_guest(JSONResponse(answer, status_code=201), request, cookie)

    return [Route("/api/quick", quick_match, methods=["POST"])]


def _with_guest(response: Response, request: Request, cookie: str | None) -> Response:
    """``response`` giving the browser the guest cookie its hold was made for, if new (as
    the pages give it: players.sessions.GuestCookie)."""
    if cookie is not None:
        response.set_cookie(
            GUEST_COOKIE,
            cookie,
            max_age=GUEST_S,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
    return response
