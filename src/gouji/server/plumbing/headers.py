"""Security headers on every HTTP answer (issue 23, item 1): what a browser needs to refuse
what the pages never do — run inline or foreign script, be framed by another site, guess a
file's type, tell other sites which page (and which seat link) a player came from.

The pages load their script from /static only (no inline script anywhere), talk to this
origin only (the API and /ws), and show images of their own (the QR code) or drawn in
``data:``. Inline *styles* stay allowed: a few elements are styled by attribute, and a style
cannot run code.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # a seat link's invitation never leaves the site
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
)


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response that has not set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in HEADERS if n not in have]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


__all__ = ["CSP", "HEADERS", "SecurityHeaders"]
