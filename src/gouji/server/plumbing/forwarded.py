"""Whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` the server believes (docs/security.md).

Behind a proxy the server sees the proxy's address, and plain HTTP where the proxy ended TLS.
The proxy says who the client was and which scheme it used in those two headers, and uvicorn's
``ProxyHeadersMiddleware`` puts them in the request (its client address: the per-address
limits; its scheme: ``Secure`` cookies, the ``https://`` of the wall's QR code) — but only for
a connection that comes from an address it trusts, since any client can send the headers too.

``gouji serve`` hands uvicorn what ``served(...)`` gives: a worker of a site
(``--worker-id``: ``gouji serve --workers``, the compose file, the systemd units) trusts the
addresses in ``FORWARDED_ALLOW_IPS`` (the site's HAProxy), or loopback where HAProxy runs on the
same machine, the supervisor's case. The site's HAProxy sets ``X-Forwarded-Proto`` where it ends
TLS and drops a client's own (gouji.server.site.supervisor.haproxy_config). One process alone
believes nobody's unless ``FORWARDED_ALLOW_IPS`` names its proxy: uvicorn's default, loopback,
would let any program on the machine claim any address. A request that such a process gets from
this machine with ``X-Forwarded-For`` or ``Forwarded`` was relayed for somebody else by a proxy
nobody named: it is not the machine's own (which no limit counts) but comes from ``relayed``, one
address elsewhere whose limits all such clients share — never an escape from the limits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from gouji.server.plumbing.limits import is_local

ENV = "FORWARDED_ALLOW_IPS"  # uvicorn's own variable: the proxy's addresses, comma-separated
LOOPBACK = "127.0.0.1,::1"  # HAProxy on this machine (gouji serve --workers)
RELAYED = "relayed"  # the client address of a request relayed by a proxy nobody named
_FORWARDED = (b"x-forwarded-for", b"forwarded")


def trusted_proxies(site_worker: bool, environ: Mapping[str, str]) -> str | None:
    """The addresses whose forwarded headers are believed (uvicorn's ``forwarded_allow_ips``);
    None: nobody's. ``site_worker``: this process serves behind the site's HAProxy."""
    named = environ.get(ENV, "").strip()
    if named:
        return named
    return LOOPBACK if site_worker else None  # one process alone: nobody's


def served(
    app: ASGIApp, site_worker: bool, environ: Mapping[str, str]
) -> tuple[ASGIApp, dict[str, Any]]:
    """The app as ``gouji serve`` hands it to uvicorn, and ``uvicorn.Config``'s keyword
    arguments for the forwarded headers."""
    trusted = trusted_proxies(site_worker, environ)
    if trusted is None:
        return RelayedIsNotLocal(app), {"proxy_headers": False}
    return app, {"proxy_headers": True, "forwarded_allow_ips": trusted}


class RelayedIsNotLocal:
    """ASGI middleware of a process that believes no proxy: a request from this machine that
    carries ``X-Forwarded-For`` or ``Forwarded`` comes from ``RELAYED``, not from the machine."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if (
            scope["type"] in ("http", "websocket")
            and client
            and is_local(client[0])
            and any(name in _FORWARDED for name, _ in scope["headers"])
        ):
            scope = {**scope, "client": (RELAYED, client[1])}
        await self.app(scope, receive, send)
