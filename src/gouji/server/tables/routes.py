"""The rooms' HTTP API (docs/protocol.md): create a room, the lobby's list, a room's
summary and its finished games; and quick match (gouji.server.tables.quickmatch).

``room_of``, ``game_index`` and ``shown_game`` are also what the finished games' record,
replay and analysis routes (gouji.server.review.routes) look a game up with. Every error is
an ``ApiError`` (gouji.server.plumbing.http): ``{"error": code, "message": text}``.
"""

from __future__ import annotations

import re

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gouji.server.plumbing.http import ApiError, bad_request, not_found, read_json
from gouji.server.plumbing.limits import is_local
from gouji.server.tables import quickmatch
from gouji.server.tables.hub import Hub
from gouji.server.tables.lobby import Lobby
from gouji.server.tables.protocol import (
    RATE_LIMITED,
    ConfigProblem,
    ProtocolError,
    parse_config,
)
from gouji.server.tables.room import Room

_INDEX = re.compile(r"[0-9]{1,9}")


def client_ip(conn: HTTPConnection) -> str:
    """The address a request or a websocket came from ('' when unknown)."""
    return conn.client.host if conn.client is not None else ""


def room_of(hub: Hub, request: Request) -> Room:
    """The room of the path's ``{code}``: 404 ``not_found``, 429 ``rate_limited`` for an
    address that asked for too many unknown codes (``Hub.find``)."""
    code = str(request.path_params["code"])
    try:
        room = hub.find(code, client_ip(request))
    except ProtocolError as e:
        raise ApiError(429, RATE_LIMITED, e.message) from None
    if room is None:
        raise not_found(f"no room {code!a}")
    return room


def game_index(request: Request) -> int:
    """The path's ``{index}`` of a game (from 0): 404 unless 1–9 ASCII digits."""
    raw = str(request.path_params["index"])
    if not _INDEX.fullmatch(raw):
        raise not_found(f"no game {raw!a}")
    return int(raw)


def shown_game(room: Room, index: int) -> None:
    """403 ``forbidden`` while a duplicate deal is still being played at another table
    (D74, D85)."""
    finished = room.match is not None and index < len(room.match.results)
    if finished and not room.deal_public(index):
        raise ApiError(
            403,
            "forbidden",
            f"game {index + 1} of room {room.code} is a duplicate deal still being played "
            "at another table of its match: its record and replay are shown once every "
            "table has finished it",
        )


def routes(hub: Hub, lobby: Lobby) -> list[BaseRoute]:
    """``/api/rooms…`` and ``/api/quick``."""

    async def list_rooms(request: Request) -> Response:
        """The lobby's list: rooms created with ``listed`` (every process answers the same)."""
        return JSONResponse({"rooms": lobby.listed()})

    async def create_room(request: Request) -> Response:
        ip = client_ip(request)
        local = is_local(ip)
        if not local and not hub.created.allow(ip):
            most = hub.limits.rooms_per_ip_per_hour
            raise ApiError(429, RATE_LIMITED, f"at most {most} rooms an hour")
        body = await read_json(request)
        try:
            config, seed = parse_config(body)
        except ConfigProblem as e:
            raise bad_request(str(e)) from None
        room = hub.create(config, seed, local=local)
        hub.unknown.found(ip, room.code)  # its maker's address finds it, guessers or not (D182)
        return JSONResponse({"code": room.code, "url": f"/r/{room.code}"}, status_code=201)

    async def room_summary(request: Request) -> Response:
        return JSONResponse(room_of(hub, request).public_summary())

    async def room_games(request: Request) -> Response:
        return JSONResponse(room_of(hub, request).games())

    return [
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms/{code}", room_summary),
        Route("/api/rooms/{code}/games", room_games),
        *quickmatch.routes(hub, lobby),
    ]
