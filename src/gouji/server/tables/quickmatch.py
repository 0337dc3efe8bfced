"""快速开始 (quick match): one tap seats the player at a table of the chosen rule set.

``POST /api/quick {"preset", "rated"}`` answers the code of a listed room that is waiting
for players of that preset (rated or not, as asked) with a free seat — the one with the most
players already seated, so tables fill — or, when there is none, of a new listed room whose
bots fill the free seats ``FILL_AFTER_S`` seconds after the last player sat down
(``RoomConfig.fill_after_s``; at once when six players are there). The page then takes the
first free seat (the table's own rule before the start). The list is the lobby's
(``lobby.Lobby``): every process of a site answers from the same rooms.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.engine.rules import DEFAULT_PRESET, PRESET_NAMES
from gouji.server.plumbing.http import ApiError, bad_request, read_json
from gouji.server.plumbing.limits import is_local
from gouji.server.tables.hub import Hub
from gouji.server.tables.lobby import Lobby
from gouji.server.tables.protocol import SEATS, ConfigProblem, parse_config

FILL_AFTER_S = 15.0  # a new quick-match table waits this long for more people
QUICK_BOT = "expert"  # 高手: a rated level (docs/strength.md), the lobby's default strength


def pick(listed: list[dict[str, Any]], preset: str, rated: bool) -> str | None:
    """The waiting room to join: of ``preset``, rated as asked, with a free seat, and a
    quick-match table or somebody already seated; quick-match tables first, then the one
    with the most players."""
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
    if not fits:
        return None
    best = max(fits, key=lambda b: (bool(b.get("quick")), int(b["players"]), -b["created"]))
    return str(best["code"])


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
        code = pick(lobby.listed(), preset, rated)
        if code is not None:
            return JSONResponse({"code": code, "url": f"/r/{code}", "created": False})
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
        return JSONResponse(
            {"code": room.code, "url": f"/r/{room.code}", "created": True}, status_code=201
        )

    return [Route("/api/quick", quick_match, methods=["POST"])]
