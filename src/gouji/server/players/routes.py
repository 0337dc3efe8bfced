"""The accounts' HTTP API and cookies (docs/protocol.md, "Accounts"; docs/security.md).

``POST /api/accounts`` (sign up, 201), ``POST /api/session`` (log in, 200; 401 on a wrong name
or password), ``DELETE /api/session`` (log out), ``GET /api/me`` (401 for a guest),
``PUT /api/me/password`` and ``DELETE /api/me``. The session is the HttpOnly, SameSite=Lax
cookie ``gouji_session``; ``gouji_account`` (not secret, readable by the page) only tells the
pages that somebody is logged in, so a guest's page never asks ``/api/me`` for a 401.

Every browser also gets ``gouji_guest``, a random HttpOnly cookie: a guest's games are kept
under its hash, and an account made from that browser takes them over (``on_sign_up``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gouji.server.players.accounts import SESSION_S, Account, AccountError, Accounts
from gouji.server.plumbing import tokens
from gouji.server.plumbing.clock import Clock
from gouji.server.plumbing.http import read_json as read_body
from gouji.server.plumbing.limits import WindowCounter, is_local

SESSION_COOKIE = "gouji_session"
HINT_COOKIE = "gouji_account"  # "1" while logged in: read by the pages, grants nothing
GUEST_COOKIE = "gouji_guest"
GUEST_S = 400 * 86400  # browsers keep a cookie at most 400 days
HASHES_AT_ONCE = 1  # argon2id takes 64 MiB and a core for ~0.2 s: one at a time per process


def guest_of(conn: HTTPConnection) -> str | None:
    """The hash of the browser's guest cookie (what its games are kept under), if valid."""
    raw = conn.cookies.get(GUEST_COOKIE, "")
    return tokens.token_hash(raw) if 16 <= len(raw) <= 64 and raw.isascii() else None


def account_of(accounts: Accounts, conn: HTTPConnection) -> Account | None:
    """The account of the request's session cookie; None for a guest."""
    return accounts.session(conn.cookies.get(SESSION_COOKIE))


def _secure(conn: HTTPConnection) -> bool:
    return conn.url.scheme in ("https", "wss")


def _with_session(response: Response, conn: HTTPConnection, token: str) -> Response:
    secure = _secure(conn)
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


def _without_session(response: Response) -> Response:
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    response.delete_cookie(HINT_COOKIE, samesite="lax")
    return response


def _refusal(e: AccountError) -> JSONResponse:
    headers = {"retry-after": str(e.retry_after)} if e.retry_after else None
    return JSONResponse(
        {"error": e.code, "message": e.message}, status_code=e.status, headers=headers
    )


def _me(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name}


def routes(
    accounts: Accounts,
    clock: Clock,
    on_sign_up: Callable[[Account, str | None], None] | None = None,
    on_delete: Callable[[Account], None] | None = None,
) -> list[Route]:
    """The routes; ``on_sign_up(account, guest)`` takes over the browser's guest games,
    ``on_delete(account)`` renames the deleted account's games."""
    hashing = asyncio.Semaphore(HASHES_AT_ONCE)
    made = WindowCounter(accounts.limits.accounts_per_ip_per_hour, 3600, clock)

    async def hashed(fn: Callable[..., Any], *args: Any) -> Any:
        """A call that hashes a password: in a thread, one at a time (the event loop keeps
        serving the tables meanwhile, on the other core)."""
        async with hashing:
            return await asyncio.to_thread(fn, *args)

    async def sign_up(request: Request) -> Response:
        body = await read_body(request)
        ip = request.client.host if request.client is not None else ""
        if not isinstance(body, dict):
            return _refusal(AccountError(400, "bad_request", "send {name, password}"))
        if not is_local(ip) and made.full(ip):  # accounts made, not attempts, count
            most = accounts.limits.accounts_per_ip_per_hour
            return _refusal(AccountError(429, "rate_limited", f"at most {most} accounts an hour"))
        try:
            account, token = await hashed(accounts.sign_up, body.get("name"), body.get("password"))
        except AccountError as e:
            return _refusal(e)
        made.allow(ip)
        if on_sign_up is not None:
            on_sign_up(account, guest_of(request))
        return _with_session(JSONResponse(_me(account), status_code=201), request, token)

    async def log_in(request: Request) -> Response:
        body = await read_body(request)
        ip = request.client.host if request.client is not None else ""
        if not isinstance(body, dict):
            return _refusal(AccountError(400, "bad_request", "send {name, password}"))
        try:
            account, token = await hashed(
                accounts.log_in, body.get("name"), body.get("password"), ip
            )
        except AccountError as e:
            return _refusal(e)
        return _with_session(JSONResponse(_me(account)), request, token)

    async def log_out(request: Request) -> Response:
        accounts.log_out(request.cookies.get(SESSION_COOKIE))
        return _without_session(JSONResponse({"ok": True}))

    async def me(request: Request) -> Response:
        account = account_of(accounts, request)
        if account is None:
            response = _refusal(AccountError(401, "not_logged_in", "not logged in"))
            return _without_session(response) if HINT_COOKIE in request.cookies else response
        return JSONResponse(_me(account))

    async def change_password(request: Request) -> Response:
        account = account_of(accounts, request)
        body = await read_body(request)
        if account is None:
            return _refusal(AccountError(401, "not_logged_in", "log in first"))
        if not isinstance(body, dict):
            return _refusal(AccountError(400, "bad_request", "send {old, new}"))
        token = request.cookies.get(SESSION_COOKIE, "")
        try:
            await hashed(accounts.change_password, account, body.get("old"), body.get("new"), token)
        except AccountError as e:
            return _refusal(e)
        return JSONResponse({"ok": True})

    async def delete_account(request: Request) -> Response:
        account = account_of(accounts, request)
        body = await read_body(request)
        if account is None:
            return _refusal(AccountError(401, "not_logged_in", "log in first"))
        if not isinstance(body, dict):
            return _refusal(AccountError(400, "bad_request", "send {password}"))
        try:
            await hashed(accounts.delete, account, body.get("password"))
        except AccountError as e:
            return _refusal(e)
        if on_delete is not None:
            on_delete(account)
        return _without_session(JSONResponse({"ok": True}))

    return [
        Route("/api/accounts", sign_up, methods=["POST"]),
        Route("/api/session", log_in, methods=["POST"]),
        Route("/api/session", log_out, methods=["DELETE"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me/password", change_password, methods=["PUT"]),
        Route("/api/me", delete_account, methods=["DELETE"]),
    ]


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
