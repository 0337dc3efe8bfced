"""The Starlette app: HTTP API, the websocket ``/ws`` and the web client's files.

``create_app(db_url)`` opens the database, takes the leases of this process (``worker``:
alone, every room; one of several, its share — docs/scaling.md), rebuilds their rooms and
returns the app; its lifespan starts the rooms' driver tasks, the lease renewal and the
lobby's notifications, and stops them (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from gouji.server.events.routes import routes as event_routes
from gouji.server.events.service import Events
from gouji.server.pages.rules import NoRulesPage, pick_lang, render_rules_page
from gouji.server.pages.webapp import routes as webapp_routes
from gouji.server.players.accounts import NEUTRAL_NAME, Account, Accounts
from gouji.server.players.records import Records
from gouji.server.players.routes import routes as player_routes
from gouji.server.players.sessions import GuestCookie, account_of, guest_of
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.headers import SecurityHeaders
from gouji.server.plumbing.http import MAX_BODY, BadJson, error_response, load_json
from gouji.server.plumbing.http import ApiError as EventApiError
from gouji.server.plumbing.limits import Limits, is_local
from gouji.server.plumbing.origin import OriginCheck
from gouji.server.review.analyses import Analyses
from gouji.server.review.replays import Busy
from gouji.server.site.leases import Site
from gouji.server.site.metrics import CONTENT_TYPE, Metrics
from gouji.server.site.store import Store
from gouji.server.tables.connection import Connection
from gouji.server.tables.hub import SOLO, Hub, Moved
from gouji.server.tables.lobby import Directory
from gouji.server.tables.protocol import (
    RATE_LIMITED,
    TOO_MANY_CONNECTIONS,
    ConfigProblem,
    ProtocolError,
    parse_config,
)
from gouji.server.tables.quickmatch import routes as quick_routes
from gouji.server.tables.room import Room

log = logging.getLogger("gouji.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DEFAULT_DB = "sqlite:///gouji.db"
_STATIC_PATH = re.compile(
    r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9]+)?(?:/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9]+)?){0,3}"
)
_INDEX = re.compile(r"[0-9]{1,9}")
POLICY_VIOLATION = 1008  # websocket close code
SERVICE_RESTART = 1012  # websocket close code: connect again (the room moved)


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _read_json(request: Request) -> Any:
    # ASCII digits only, compared by length first: int() refuses "²" and 4,300 digits
    length = (request.headers.get("content-length") or "").lstrip("0")
    if (
        length.isascii()
        and length.isdigit()
        and (len(length) > len(str(MAX_BODY)) or int(length) > MAX_BODY)
    ):
        raise ApiError(413, f"the body is over {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"the body is over {MAX_BODY} bytes")
    if not body.strip():
        return {}
    try:
        return load_json(body)
    except BadJson as e:
        raise ApiError(400, f"the body is not acceptable JSON: {e}") from None


def client_ip(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else ""


def create_app(
    db_url: str = DEFAULT_DB,
    *,
    web_dir: Path | None = None,
    limits: Limits | None = None,
    worker: str = SOLO,
    clock: Clock = SYSTEM,
    origins: Collection[str] = (),
    password_hasher: PasswordHasher | None = None,
) -> Starlette:
    """The server app on the database ``db_url``, with ``limits`` (docs/security.md;
    defaults when None). ``worker`` names this process among the site's; the rooms and
    events whose leases it takes now are rebuilt now. Every timer, delay, lease and stored
    time reads ``clock`` (the system's; tests run table time faster with ``FastClock``).
    State-changing requests and websockets from another site than the one asked, or than
    ``origins`` (a proxy's public address), are refused (``origin.OriginCheck``).
    ``password_hasher`` is argon2id at the accounts' cost unless given (tests: a lighter one)."""
    store = Store(db_url, clock)
    if not store.shared:  # SQLite is one process's file: that process holds everything
        worker = SOLO
    hub = Hub(store, limits, worker=worker, clock=clock)
    events = Events(store, hub)
    directory = Directory(store, clock)
    hub.on_push = directory.publish
    accounts = Accounts(store, hub.limits, clock, password_hasher)
    records = Records(store, clock)

    hub.on_game_over = records.game_over  # the room tells its finished games as data
    analyses = Analyses(store, hub.limits)  # 复盘, judged in worker processes, stored

    def signed_up(account: Account, guest: str | None) -> None:
        records.adopt(account.id, guest)  # the browser's guest games are the account's now

    def deleted(account: Account) -> None:
        """Its games stay, under a neutral name (D107)."""
        records.forget(account.id)
        store.rename_account(account.id, NEUTRAL_NAME)
        for room in list(hub.rooms.values()):
            for seat in room.seats:
                if seat.account == account.id:
                    seat.name, seat.account = NEUTRAL_NAME, None

    site = Site(store, hub, events)
    site.start()
    metrics = Metrics(hub, site)
    web = web_dir if web_dir is not None else WEB_DIR

    def room_or_404(request: Request) -> Room:
        code = str(request.path_params["code"])
        try:
            room = hub.find(code, client_ip(request))
        except ProtocolError as e:
            raise ApiError(429, e.message) from None
        if room is None:
            raise ApiError(404, f"no room {code!a}")
        return room

    def game_index(request: Request) -> int:
        raw = str(request.path_params["index"])
        if not _INDEX.fullmatch(raw):
            raise ApiError(404, f"no game {raw!a}")
        return int(raw)

    async def healthz(request: Request) -> Response:
        """Liveness: the process answers."""
        return JSONResponse({"ok": True})

    async def readyz(request: Request) -> Response:
        """Readiness: it holds its leases (renewed lately) and hears the lobby's changes."""
        lobby = directory.listening or not store.shared
        ok = site.ready and lobby
        body = {"ok": ok, "worker": hub.worker, "leases": site.ready, "lobby": lobby}
        return JSONResponse(body, status_code=200 if ok else 503)

    async def metrics_page(request: Request) -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE)

    async def list_rooms(request: Request) -> Response:
        """The lobby's list: rooms created with ``listed`` (every process answers the same)."""
        return JSONResponse({"rooms": directory.listed()})

    async def create_room(request: Request) -> Response:
        ip = client_ip(request)
        local = is_local(ip)
        if not local and not hub.created.allow(ip):
            raise ApiError(429, f"at most {hub.limits.rooms_per_ip_per_hour} rooms an hour")
        body = await _read_json(request)
        try:
            config, seed = parse_config(body)
        except ConfigProblem as e:
            raise ApiError(400, str(e)) from None
        room = hub.create(config, seed, local=local)
        return JSONResponse({"code": room.code, "url": f"/r/{room.code}"}, status_code=201)

    def public_game(room: Room, index: int) -> None:
        """403 while a duplicate deal is still being played at another table (D74, D85)."""
        finished = room.match is not None and index < len(room.match.results)
        if finished and not room.deal_public(index):
            raise ApiError(
                403,
                f"game {index + 1} of room {room.code} is a duplicate deal still being played "
                "at another table of its match: its record and replay are shown once every "
                "table has finished it",
            )

    async def room_summary(request: Request) -> Response:
        return JSONResponse(room_or_404(request).public_summary())

    async def room_games(request: Request) -> Response:
        return JSONResponse(room_or_404(request).games())

    async def game_record(request: Request) -> Response:
        room, index = room_or_404(request), game_index(request)
        public_game(room, index)
        rec = room.record(index)
        if rec is None:
            raise ApiError(404, f"room {room.code} has no finished game {index}")
        name = f"gouji-{room.code}-{index}.json"
        return JSONResponse(rec, headers={"content-disposition": f'attachment; filename="{name}"'})

    async def game_replay(request: Request) -> Response:
        room, index = room_or_404(request), game_index(request)
        public_game(room, index)
        try:  # computed in a worker process, or cached (gouji.server.review.replays)
            steps = await hub.replay(room, index, client_ip(request))
        except Busy as e:
            wait = {"retry-after": "1" if e.status == 503 else "60"}
            return JSONResponse({"error": e.message}, status_code=e.status, headers=wait)
        if steps is None:
            raise ApiError(404, f"room {room.code} has no finished game {index}")
        return Response(steps, media_type="application/json")

    async def game_analysis(request: Request) -> Response:
        """复盘: GET where a finished game's analysis stands, POST to have it made (or join
        the one under way, or get the stored one). Shown to whom its replay is shown."""
        room, index = room_or_404(request), game_index(request)
        public_game(room, index)
        rec = room.record(index)
        if rec is None:
            raise ApiError(404, f"room {room.code} has no finished game {index}")
        key = (room.code, index)
        if request.method != "POST":
            answer = analyses.look(key)
        else:
            try:  # judged in worker processes (gouji.server.review.analyses), one game at a time
                answer = analyses.start(key, client_ip(request), rec)
            except Busy as e:
                wait = {"retry-after": "30"}
                return JSONResponse({"error": e.message}, status_code=e.status, headers=wait)
        if isinstance(answer, bytes):  # the stored analysis, as stored
            return Response(answer, media_type="application/json")
        under_way = request.method == "POST" and answer["state"] in ("queued", "running")
        return JSONResponse(answer, status_code=202 if under_way else 200)

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

    def event_page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def serve(request: Request) -> Response:
            return page(name)

        return serve

    async def rules_page(request: Request) -> Response:
        try:
            lang = pick_lang(
                request.query_params.get("lang"), request.headers.get("accept-language", "")
            )
            html = render_rules_page(str(request.path_params["preset"]), lang)
        except NoRulesPage as e:
            raise ApiError(404, str(e)) from None
        return HTMLResponse(html)

    async def static(request: Request) -> Response:
        rel = str(request.path_params["path"])
        if len(rel) > 200 or not _STATIC_PATH.fullmatch(rel):
            return _error(404, f"no file {rel[:200]!a}")
        root = web.resolve()
        path = (root / rel).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            return _error(404, f"no file {rel!a}")
        return FileResponse(path)

    async def websocket(ws: WebSocket) -> None:
        ip = client_ip(ws)
        await ws.accept()
        lim = hub.limits
        if hub.connections[ip] >= lim.connections_per_ip:
            why = f"at most {lim.connections_per_ip} connections from one address"
            await ws.send_json({"type": "error", "code": TOO_MANY_CONNECTIONS, "message": why})
            await ws.close(POLICY_VIOLATION, why)
            return
        hub.connections[ip] += 1
        conn = Connection(ws.send_text, lim, ip, hub.clock)
        conn.asked = ws.query_params.get("w")
        conn.account = account_of(accounts, ws)  # the session cookie's, if any
        conn.guest = guest_of(ws)

        async def close_moved() -> None:
            await ws.close(SERVICE_RESTART, "the room is served by another process")

        conn.closer = close_moved
        writer = asyncio.get_running_loop().create_task(conn.run_writer())
        try:
            while not conn.dropped:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not conn.bucket.take():  # too fast: an error, then (again soon) a close
                    now = hub.clock.monotonic()
                    if now - conn.warned < 5:  # the queued error still goes out first
                        conn.drop(f"more than {lim.messages_per_s:g} messages a second", keep=True)
                        break
                    conn.warned = now
                    why = f"at most {lim.messages_per_s:g} messages a second; slow down"
                    conn.send({"type": "error", "code": RATE_LIMITED, "message": why})
                    continue
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await hub.handle(conn, raw)
                await asyncio.sleep(0)  # let the writer send between messages of one read
        except WebSocketDisconnect:
            pass
        finally:
            await hub.leave(conn)
            if conn.moved:  # the writer sends `moved` and closes: let it finish that
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(1):
                        await asyncio.shield(writer)
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer
            if conn.dropped:
                log.warning("dropped a connection from %s: %s", ip, conn.dropped)
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(1):  # what was queued (a reading client's error)
                        while conn.outbox:
                            await ws.send_text(conn.outbox.popleft())
                with contextlib.suppress(Exception):
                    code = SERVICE_RESTART if conn.moved else POLICY_VIOLATION
                    await ws.close(code, conn.dropped[:120])
            # counted until closed: a client that does not read holds its socket until the
            # close gives up (websockets aborts it after its close timeout)
            hub.connections[ip] -= 1
            if hub.connections[ip] <= 0:
                del hub.connections[ip]

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(exc.status, exc.message)

    async def event_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, EventApiError)
        return error_response(exc)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    async def moved(request: Request, exc: Exception) -> Response:
        """Served by another process: a redirect the proxy routes to it (``?w=``), or, while
        nobody holds it (its process just died), 503 and a second to wait."""
        assert isinstance(exc, Moved)
        if exc.worker is not None and request.query_params.get("w") != exc.worker:
            url = request.url.include_query_params(w=exc.worker)
            return RedirectResponse(f"{url.path}?{url.query}", status_code=307)
        why = "this room is moving to another server process: try again in a second"
        return JSONResponse({"error": why}, status_code=503, headers={"retry-after": "1"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start_all()
        tasks = [
            asyncio.get_running_loop().create_task(site.run(), name="leases"),
            asyncio.get_running_loop().create_task(directory.listen(), name="lobby"),
        ]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            await hub.stop_all()
            await analyses.close()
            site.stop()
            store.close()

    routes = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_page),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms/{code}", room_summary),
        Route("/api/rooms/{code}/games", room_games),
        Route("/api/rooms/{code}/games/{index}/record", game_record),
        Route("/api/rooms/{code}/games/{index}/replay", game_replay),
        Route("/api/rooms/{code}/games/{index}/analysis", game_analysis, methods=["GET", "POST"]),
        Route("/", lobby),
        Route("/r/{code}", table),
        Route("/replay/{code}/{index}", replay_page),
        Route("/rules/{preset}", rules_page),
        *player_routes(accounts, records, clock, on_sign_up=signed_up, on_delete=deleted),
        *quick_routes(hub, directory),
        Route("/account", event_page("account.html")),
        Route("/players/{name}", event_page("player.html")),
        Route("/leaderboard", event_page("leaderboard.html")),
        *event_routes(events),
        Route("/events", event_page("event-list.html")),
        Route("/events/new", event_page("event-new.html")),
        Route("/e/{code}", event_page("event.html")),
        Route("/e/{code}/admin", event_page("event-admin.html")),
        Route("/e/{code}/print", event_page("event-print.html")),
        Route("/e/{code}/wall", event_page("event-wall.html")),
        Route("/static/{path:path}", static),
        *webapp_routes(web, lambda rel: len(rel) <= 200 and bool(_STATIC_PATH.fullmatch(rel))),
        WebSocketRoute("/ws", websocket),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            ApiError: api_error,
            EventApiError: event_error,
            HTTPException: http_error,
            Moved: moved,
        },
        lifespan=lifespan,
        middleware=[
            Middleware(OriginCheck, trusted=origins),
            Middleware(SecurityHeaders),
            Middleware(GuestCookie),
        ],
    )
    app.state.hub = hub
    app.state.store = store
    app.state.events = events
    app.state.site = site
    app.state.directory = directory
    app.state.accounts = accounts
    app.state.analyses = analyses
    return app
