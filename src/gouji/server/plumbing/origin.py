"""No cross-site request forgery, no cross-site websocket hijacking (docs/security.md).

Once a cookie carries an account, a page on another site could make the browser send it: a
form posted to ``/api/…``, or a websocket opened to ``/ws`` that then plays as the victim. The
browser names the page that asks in ``Origin`` (every websocket handshake, every POST, PUT,
PATCH and DELETE of a current browser), so this middleware refuses those whose ``Origin`` is
not this site — the ``Host`` the request came to, or an origin named with ``gouji serve
--origin`` (a proxy that rewrites Host). Where an old browser sends no ``Origin`` it still sends
``Sec-Fetch-Site``; ``cross-site`` is refused too. A request with neither comes from a program
(curl, a bot's client), which holds no victim's cookie: it passes. A refusal is 403 with the
one error body (``http.error_body``: ``cross_site``, docs/protocol.md "Errors").
"""

from __future__ import annotations

import json
from collections.abc import Collection
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from gouji.server.plumbing.http import error_body

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _host_port(netloc: str, scheme: str) -> str:
    """``host:port`` with the scheme's default port written out (``x.org`` = ``x.org:443``)."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):  # an IPv6 literal
        host, _, rest = netloc.partition("]")
        port = rest[1:] if rest.startswith(":") else ""
        host += "]"
    else:
        host, _, port = netloc.partition(":")
    return f"{host}:{port or _DEFAULT_PORTS.get(scheme, 80)}"


def normal_origin(origin: str) -> str | None:
    """``scheme://host:port`` of an Origin (or of a ``--origin``), None when it is no origin
    (``null``, a path, no host)."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or "@" in parts.netloc:
        return None
    return f"{parts.scheme}://{_host_port(parts.netloc, parts.scheme)}"


def same_site(origin: str, host: str, trusted: Collection[str] = ()) -> bool:
    """Whether a request's ``Origin`` is this site: its host and port are those the request
    was sent to (``Host``; a proxy may end TLS, so the scheme is not compared), or it is one of
    the ``trusted`` origins (normalised by :func:`normal_origin`)."""
    norm = normal_origin(origin)
    if norm is None:
        return False
    if norm in trusted:
        return True
    scheme, _, netloc = norm.partition("://")
    if not host:
        return False
    return netloc in (_host_port(host, "http"), _host_port(host, "https")) or (
        netloc == _host_port(host, scheme)
    )


class OriginCheck:
    """ASGI middleware: 403 for a state-changing request or a websocket handshake from another
    site (before the app sees it)."""

    def __init__(self, app: ASGIApp, trusted: Collection[str] = ()) -> None:
        self.app = app
        self.trusted = frozenset(n for n in (normal_origin(o) for o in trusted) if n is not None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope.get("method") in UNSAFE):
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            why = self._refusal(headers)
            if why is not None:
                await (_close_ws(send) if kind == "websocket" else _forbid(send, why))
                return
        await self.app(scope, receive, send)

    def _refusal(self, headers: dict[str, str]) -> str | None:
        origin = headers.get("origin")
        if origin is not None:
            if same_site(origin, headers.get("host", ""), self.trusted):
                return None
            return f"requests from another site ({origin[:80]!a}) are refused"
        if headers.get("sec-fetch-site", "") == "cross-site":
            return "requests from another site are refused"
        return None


async def _forbid(send: Send, why: str) -> None:
    body = json.dumps(error_body("cross_site", why)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _close_ws(send: Send) -> None:
    """Refuse the handshake: a websocket closed before it is accepted answers HTTP 403."""
    await send({"type": "websocket.close", "code": 1008, "reason": "cross-site"})
