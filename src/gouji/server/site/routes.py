"""The site's own routes: liveness ``/healthz``, readiness ``/readyz`` and the Prometheus
``/metrics`` (docs/scaling.md), and the answer to a request for a room or an
event that another process serves (``moved``: the app installs it for ``Moved``).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from gouji.server.plumbing.http import json_error
from gouji.server.site.leases import Site
from gouji.server.site.metrics import CONTENT_TYPE, Metrics
from gouji.server.tables.hub import Moved
from gouji.server.tables.lobby import Lobby


def routes(site: Site, lobby: Lobby, metrics: Metrics) -> list[BaseRoute]:
    """``/healthz``, ``/readyz`` and ``/metrics`` of this process."""

    async def healthz(request: Request) -> Response:
        """Liveness: the process answers."""
        return JSONResponse({"ok": True})

    async def readyz(request: Request) -> Response:
        """Readiness: it holds its leases (renewed lately) and hears the lobby's changes."""
        listening = lobby.listening or not site.store.shared
        ok = site.ready and listening
        body = {
            "ok": ok,
            "worker": site.hub.worker,
            "leases": site.ready,
            "lobby": listening,
        }
        return JSONResponse(body, status_code=200 if ok else 503)

    async def metrics_page(request: Request) -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE)

    return [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_page),
    ]


async def moved(request: Request, exc: Exception) -> Response:
    """Served by another process: a redirect the proxy routes to it (``?w=``), or, while
    nobody holds it (its process just died), 503 ``unavailable`` and a second to wait."""
    assert isinstance(exc, Moved)
    if exc.worker is not None and request.query_params.get("w") != exc.worker:
        url = request.url.include_query_params(w=exc.worker)
        return RedirectResponse(f"{url.path}?{url.query}", status_code=307)
    why = "this room is moving to another server process: try again in a second"
    return json_error(503, "unavailable", why, {"retry-after": "1"})
