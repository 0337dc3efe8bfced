"""The pages of the site: which HTML file each address serves (``PAGES``), the client's
files under ``/static/…`` and the rules pages ``/rules/{preset}``.

``PAGES`` is the one table of addresses and their pages: the routes are built from it, and
the service worker gets it too (gouji.server.pages.webapp fills ``shells_js()`` into
web/sw.js), so that a page opened offline is the very file the server would send. A page is
a static shell whatever the code or name in its address: its scripts ask the API.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from gouji.server.pages.rules import NoRulesPage, pick_lang, render_rules_page
from gouji.server.plumbing.http import not_found

#: Every page's address (a Starlette path: ``{name}`` is one path segment) and its file in
#: the web client (src/gouji/web).
PAGES: tuple[tuple[str, str], ...] = (
    ("/", "index.html"),
    ("/r/{code}", "table.html"),
    ("/replay/{code}/{index}", "replay.html"),
    ("/events", "event-list.html"),
    ("/events/new", "event-new.html"),
    ("/e/{code}", "event.html"),
    ("/e/{code}/admin", "event-admin.html"),
    ("/e/{code}/print", "event-print.html"),
    ("/e/{code}/wall", "event-wall.html"),
    ("/account", "account.html"),
    ("/players/{name}", "player.html"),
    ("/leaderboard", "leaderboard.html"),
)
_STATIC_PATH = re.compile(
    r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9]+)?(?:/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9]+)?){0,3}"
)
_PARAM = re.compile(r"\{[a-z_]+\}")


def servable(rel: str) -> bool:
    """Whether ``/static/{rel}`` may be served: at most four plain names, nothing else."""
    return len(rel) <= 200 and bool(_STATIC_PATH.fullmatch(rel))


def shells_js() -> str:
    """``PAGES`` as the service worker's ``SHELLS``: a JavaScript array of
    ``[/^address$/, "/static/file"]``, a path parameter matching one segment."""
    lines = []
    for path, name in PAGES:
        pattern = "^" + _PARAM.sub("[^/]+", path).replace("/", r"\/") + "$"
        lines.append(f"  [/{pattern}/, {json.dumps('/static/' + name)}],")
    return "[\n" + "\n".join(lines) + "\n]"


def page(web: Path, name: str) -> Response:
    """The web client's file ``name``: 404 ``not_found`` when it is not there."""
    path = web / name
    if not path.is_file():
        raise not_found(f"the web client's {name} is not there (src/gouji/web/{name})")
    return FileResponse(path)


def routes(web: Path) -> list[BaseRoute]:
    """Every page of ``PAGES``, ``/rules/{preset}`` and ``/static/{path}``, from ``web``."""

    def serve(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return page(web, name)

        return endpoint

    async def rules_page(request: Request) -> Response:
        try:
            lang = pick_lang(
                request.query_params.get("lang"),
                request.headers.get("accept-language", ""),
            )
            html = render_rules_page(str(request.path_params["preset"]), lang)
        except NoRulesPage as e:
            raise not_found(str(e)) from None
        return HTMLResponse(html)

    async def static(request: Request) -> Response:
        rel = str(request.path_params["path"])
        if not servable(rel):
            raise not_found(f"no file {rel[:200]!a}")
        root = web.resolve()
        path = (root / rel).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise not_found(f"no file {rel!a}")
        return FileResponse(path)

    return [
        *(Route(path, serve(name)) for path, name in PAGES),
        Route("/rules/{preset}", rules_page),
        Route("/static/{path:path}", static),
    ]
