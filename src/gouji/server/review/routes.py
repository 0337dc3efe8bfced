"""A finished game's record, replay and analysis (复盘) over HTTP (docs/protocol.md):
``/api/rooms/{code}/games/{index}/record``, ``…/replay`` and ``…/analysis``.

Shown to whom the game is shown (a duplicate deal still being played elsewhere is not:
``tables.routes.shown_game``). Replays are computed in worker processes and cached
(gouji.server.review.replays), analyses judged in worker processes and stored
(gouji.server.review.analyses); past their limits both answer ``Busy`` (429
``rate_limited`` or 503 ``busy``, with ``Retry-After``).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gouji.server.plumbing.http import not_found
from gouji.server.review.analyses import Analyses
from gouji.server.review.replays import Replays
from gouji.server.tables.hub import Hub
from gouji.server.tables.routes import client_ip, game_index, room_of, shown_game


def routes(hub: Hub, replays: Replays, analyses: Analyses) -> list[BaseRoute]:
    """The record, the replay and the analysis of a room's finished game."""

    async def game_record(request: Request) -> Response:
        room, index = room_of(hub, request), game_index(request)
        shown_game(room, index)
        rec = room.record(index)
        if rec is None:
            raise not_found(f"room {room.code} has no finished game {index}")
        name = f"gouji-{room.code}-{index}.json"
        return JSONResponse(rec, headers={"content-disposition": f'attachment; filename="{name}"'})

    async def game_replay(request: Request) -> Response:
        room, index = room_of(hub, request), game_index(request)
        shown_game(room, index)
        # computed in a worker process, or cached; raises Busy past the limits
        steps = await replays.get(
            (room.code, index), client_ip(request), lambda: room.record(index)
        )
        if steps is None:
            raise not_found(f"room {room.code} has no finished game {index}")
        return Response(steps, media_type="application/json")

    async def game_analysis(request: Request) -> Response:
        """GET where a finished game's analysis stands, POST to have it made (or join the
        one under way, or get the stored one)."""
        room, index = room_of(hub, request), game_index(request)
        shown_game(room, index)
        rec = room.record(index)
        if rec is None:
            raise not_found(f"room {room.code} has no finished game {index}")
        key = (room.code, index)
        if request.method != "POST":
            answer = analyses.look(key)
        else:  # judged in worker processes, one game at a time; raises Busy past the limits
            answer = analyses.start(key, client_ip(request), rec)
        if isinstance(answer, bytes):  # the stored analysis, as stored
            return Response(answer, media_type="application/json")
        under_way = request.method == "POST" and answer["state"] in (
            "queued",
            "running",
        )
        return JSONResponse(answer, status_code=202 if under_way else 200)

    return [
        Route("/api/rooms/{code}/games/{index}/record", game_record),
        Route("/api/rooms/{code}/games/{index}/replay", game_replay),
        Route(
            "/api/rooms/{code}/games/{index}/analysis",
            game_analysis,
            methods=["GET", "POST"],
        ),
    ]
