"""The Starlette app: it only wires the server's domains together (docs/design.md §4).

``create_app(db_url)`` opens the database (gouji.server.site.store), builds each domain's
services — the tables' hub and lobby, the players' accounts and records, the events, the
review's replays and analyses, the site's leases and metrics — takes the leases of this
process (``worker``: alone, every room; one of several, its share — docs/scaling.md), and
collects the routes: the rooms' API and the websocket (gouji.server.tables.routes,
.websocket), a finished game's record, replay and analysis (gouji.server.review.routes), the
players' and the events' APIs, ``/healthz`` ``/readyz`` ``/metrics``
(gouji.server.site.routes) and the pages (gouji.server.pages.routes, .webapp). Every error
is one body, ``{"error": code, "message": text}`` (gouji.server.plumbing.errors). The
lifespan starts the rooms' driver tasks, the lease renewal and the lobby's notifications,
and stops them (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Collection
from pathlib import Path

from argon2 import PasswordHasher
from starlette.applications import Starlette
from starlette.middleware import Middleware

from gouji.server.events.routes import routes as event_routes
from gouji.server.events.service import Events
from gouji.server.pages import routes as pages
from gouji.server.pages import webapp
from gouji.server.players.accounts import NEUTRAL_NAME, Account, Accounts
from gouji.server.players.records import Records
from gouji.server.players.routes import routes as player_routes
from gouji.server.players.sessions import GuestCookie
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.errors import handlers
from gouji.server.plumbing.headers import SecurityHeaders
from gouji.server.plumbing.limits import Limits
from gouji.server.plumbing.origin import OriginCheck
from gouji.server.review.analyses import Analyses
from gouji.server.review.replays import Replays
from gouji.server.review.routes import routes as review_routes
from gouji.server.site.leases import Site
from gouji.server.site.metrics import Metrics
from gouji.server.site.routes import moved
from gouji.server.site.routes import routes as site_routes
from gouji.server.site.store import Store
from gouji.server.tables.hub import SOLO, Hub, Moved
from gouji.server.tables.lobby import Lobby
from gouji.server.tables.routes import routes as table_routes
from gouji.server.tables.websocket import websocket_route

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DEFAULT_DB = "sqlite:///gouji.db"


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
    lobby = Lobby(store, clock)
    hub.on_push = lobby.publish
    accounts = Accounts(store, hub.limits, clock, password_hasher)
    records = Records(store, clock)
    hub.on_game_over = records.game_over  # the room tells its finished games as data
    hub.on_replayed = records.recover  # … and a rebuilt room those a crash may have lost
    replays = Replays(hub.limits, clock)  # computed in worker processes, cached
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

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start_all()
        tasks = [
            asyncio.get_running_loop().create_task(site.run(), name="leases"),
            asyncio.get_running_loop().create_task(lobby.listen(), name="lobby"),
        ]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            await hub.stop_all()
            replays.close()
            await analyses.close()
            site.stop()
            store.close()

    routes = [
        *site_routes(site, lobby, metrics),
        *table_routes(hub, lobby),
        *review_routes(hub, replays, analyses),
        *player_routes(accounts, records, clock, on_sign_up=signed_up, on_delete=deleted),
        *event_routes(events),
        *pages.routes(web),
        *webapp.routes(web, pages.servable),
        websocket_route(hub, accounts),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers=handlers({Moved: moved}),
        lifespan=lifespan,
        middleware=[  # the first wraps the rest: every answer, a 403 cross_site too, has the
            Middleware(SecurityHeaders),  # security headers
            Middleware(OriginCheck, trusted=origins),
            Middleware(GuestCookie),
        ],
    )
    app.state.hub = hub
    app.state.store = store
    app.state.events = events
    app.state.site = site
    app.state.lobby = lobby
    app.state.accounts = accounts
    app.state.replays = replays
    app.state.analyses = analyses
    return app
