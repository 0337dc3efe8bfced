"""The players' cookies (docs/protocol.md, "Accounts"; docs/security.md): the session, the hint
that somebody is logged in, and the browser's guest id.

The session is the HttpOnly, SameSite=Lax cookie ``gouji_session``; ``gouji_account`` (not
secret, readable by the page) only tells the pages that somebody is logged in, so a guest's
page never asks ``/api/me`` for a 401. Every browser also gets ``gouji_guest``, a random
HttpOnly cookie given by the first page it opens (``GuestCookie``): a guest's games are kept
under its hash, and an account made from that browser takes them over.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gouji.server.players.accounts import SESSION_S, Account, Accounts
from gouji.server.plumbing import tokens

SESSION_COOKIE = "gouji_session"
HINT_COOKIE = "gouji_account"  # "1" while logged in: read by the pages, grants nothing
GUEST_COOKIE = "gouji_guest"
GUEST_S = 400 * 86400  # browsers keep a cookie at most 400 days


def guest_of(conn: HTTPConnection) -> str | None:
    """The hash of the browser's guest cookie (what its games are kept under), if valid."""
    raw = conn.cookies.get(GUEST_COOKIE, "")
    return tokens.token_hash(raw) if 16 <= len(raw) <= 64 and raw.isascii() else None


def account_of(accounts: Accounts, conn: HTTPConnection) -> Account | None:
    """The account of the request's session cookie; None for a guest."""
    return accounts.session(conn.cookies.get(SESSION_COOKIE))


def with_session(response: Response, conn: HTTPConnection, token: str) -> Response:
    """``response`` with the session's cookies (``Secure`` over HTTPS)."""
    secure = conn.url.scheme in ("https", "wss")
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_S),
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    response.set_cookie(HINT_COOKIE, "1", max_age=int(SESSION_S), samesite="lax", secure=secure)
    return response


def without_session(response: Response) -> Response:
    """``response`` clearing the session's cookies."""
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    response.delete_cookie(HINT_COOKIE, samesite="lax")
    return response


class GuestCookie:
    """ASGI middleware: a page (GET of an HTML path: not ``/api``, ``/static``, ``/ws``)
    asked without ``gouji_guest`` answers with a new one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or path.startswith(("/api/", "/static/", "/metrics", "/healthz", "/readyz"))
            or GUEST_COOKIE in HTTPConnection(scope).cookies
        ):
            await self.app(scope, receive, send)
            return
        secure = "; Secure" if scope.get("scheme") == "https" else ""
        cookie = (
            f"{GUEST_COOKIE}={tokens.new_token()}; Max-Age={GUEST_S}; Path=/; HttpOnly; "
            f"SameSite=Lax{secure}"
        ).encode("latin-1")

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message["headers"], (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)
