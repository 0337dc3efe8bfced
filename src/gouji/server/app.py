"""The Starlette app: HTTP API, the websocket ``/ws`` and the web client's files.

``create_app(db_url)`` opens the database, rebuilds every stored room and returns the app;
its lifespan starts the rooms' driver tasks and stops them (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from gouji.server.protocol import MAX_BODY, ConfigProblem, parse_config
from gouji.server.rooms import Connection, Hub, Room
from gouji.server.store import Store

log = logging.getLogger("gouji.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DEFAULT_DB = "sqlite:///gouji.db"


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _read_json(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, f"the body is over {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"the body is over {MAX_BODY} bytes")
    if not body.strip():
        return {}
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ApiError(400, f"the body is not JSON: {e}") from None


def create_app(db_url: str = DEFAULT_DB, *, web_dir: Path | None = None) -> Starlette:
    """The server app on the database ``db_url`` (every stored room is rebuilt now)."""
    store = Store(db_url)
    hub = Hub(store)
    hub.load()
    web = web_dir if web_dir is not None else WEB_DIR

    def room_or_404(request: Request) -> Room:
        room = hub.get(str(request.path_params["code"]))
        if room is None:
            raise ApiError(404, f"no room {request.path_params['code']!r}")
        return room

    def game_index(request: Request) -> int:
        raw = str(request.path_params["index"])
        if not raw.isdigit():
            raise ApiError(404, f"no game {raw!r}")
        return int(raw)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def create_room(request: Request) -> Response:
        body = await _read_json(request)
        try:
            config, seed = parse_config(body)
        except ConfigProblem as e:
            raise ApiError(400, str(e)) from None
        room = hub.create(config, seed)
        return JSONResponse({"code": room.code, "url": f"/r/{room.code}"}, status_code=201)

    async def room_summary(request: Request) -> Response:
        return JSONResponse(room_or_404(request).summary())

    async def room_games(request: Request) -> Response:
        return JSONResponse(room_or_404(request).games())

    async def game_record(request: Request) -> Response:
        room, index = room_or_404(request), game_index(request)
        rec = room.record(index)
        if rec is None:
            raise ApiError(404, f"room {room.code} has no finished game {index}")
        name = f"gouji-{room.code}-{index}.json"
        return JSONResponse(rec, headers={"content-disposition": f'attachment; filename="{name}"'})

    async def game_replay(request: Request) -> Response:
        room, index = room_or_404(request), game_index(request)
        steps = room.replay_steps(index)
        if steps is None:
            raise ApiError(404, f"room {room.code} has no finished game {index}")
        return JSONResponse(steps)

    def page(name: str) -> Response:
        path = web / name
        if not path.is_file():
            return _error(404, f"the web client's {name} is not there (src/gouji/web/{name})")
        return FileResponse(path)

    async def lobby(request: Request) -> Response:
        return page("index.html")

    async def table(request: Request) -> Response:
        return page("table.html")

    async def replay_page(request: Request) -> Response:
        return page("replay.html")

    async def static(request: Request) -> Response:
        rel = str(request.path_params["path"])
        root = web.resolve()
        path = (root / rel).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            return _error(404, f"no file {rel!r}")
        return FileResponse(path)

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws.send_text)
        writer = asyncio.get_running_loop().create_task(conn.run_writer())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await hub.handle(conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            await hub.leave(conn)
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(exc.status, exc.message)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start_all()
        try:
            yield
        finally:
            await hub.stop_all()
            store.close()

    routes = [
        Route("/healthz", healthz),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_summary),
        Route("/api/rooms/{code}/games", room_games),
        Route("/api/rooms/{code}/games/{index}/record", game_record),
        Route("/api/rooms/{code}/games/{index}/replay", game_replay),
        Route("/", lobby),
        Route("/r/{code}", table),
        Route("/replay/{code}/{index}", replay_page),
        Route("/static/{path:path}", static),
        WebSocketRoute("/ws", websocket),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: api_error, HTTPException: http_error},
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.store = store
    return app
