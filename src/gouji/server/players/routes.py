"""The players' HTTP API (docs/protocol.md, "Accounts, records, ratings and quick match";
docs/security.md): accounts and sessions, a player's 战绩 and the leaderboards.

``POST /api/accounts`` (sign up, 201), ``POST /api/session`` (log in, 200; 401 on a wrong name
or password), ``DELETE /api/session`` (log out), ``GET /api/session`` (who is logged in:
``{"account": {id, name}}``, or ``{"account": null}`` for a guest, an answer and not a refusal,
so that a logged-out page logs no error; issue 35), ``GET /api/me`` (401 for a guest),
``PUT /api/me/password`` and ``DELETE /api/me``; ``GET /api/players/{name}`` (the account's
战绩, ``records.Records.player``) and ``GET /api/leaderboard?preset=…`` (the rated players of a
rule set, best first), which the pages ``/players/{name}`` and ``/leaderboard`` read. The
cookies are ``sessions``'s. A refusal is an ``ApiError`` (``AccountError`` for the accounts'):
``{"error": code, "message": text}``, docs/protocol.md "Errors".
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.engine.rules import DEFAULT_PRESET, PRESET_NAMES
from gouji.server.players.accounts import NAME_MAX, Account, AccountError, Accounts
from gouji.server.players.ratings import LISTED_GAMES, PROVISIONAL_GAMES
from gouji.server.players.records import Records
from gouji.server.players.sessions import (
    HINT_COOKIE,
    SESSION_COOKIE,
    account_of,
    guest_of,
    with_session,
    without_session,
)
from gouji.server.plumbing.clock import Clock
from gouji.server.plumbing.http import ApiError, error_response, read_json
from gouji.server.plumbing.limits import AddressGate, WindowCounter, is_local

HASHES_AT_ONCE = 1  # argon2id takes 64 MiB and a core for ~0.2 s: one at a time per process
SLOW_RETRY_S = 5  # a slowed address with a queue of log-ins already: ask again after this


def _me(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name}


def routes(
    accounts: Accounts,
    records: Records,
    clock: Clock,
    on_sign_up: Callable[[Account, str | None], None] | None = None,
    on_delete: Callable[[Account], None] | None = None,
) -> list[Route]:
    """The routes; ``on_sign_up(account, guest)`` takes over the browser's guest games,
    ``on_delete(account)`` renames the deleted account's games."""
    return [
        *account_routes(accounts, clock, on_sign_up, on_delete),
        *record_routes(accounts, records),
    ]


def account_routes(
    accounts: Accounts,
    clock: Clock,
    on_sign_up: Callable[[Account, str | None], None] | None = None,
    on_delete: Callable[[Account], None] | None = None,
) -> list[Route]:
    """Sign up, log in and out, the account itself."""
    hashing = asyncio.Semaphore(HASHES_AT_ONCE)
    made = WindowCounter(accounts.limits.accounts_per_ip_per_hour, 3600, clock)
    slowed = AddressGate()  # the log-ins of addresses past their failures (D180)

    async def hashed(fn: Callable[..., Any], *args: Any) -> Any:
        """A call that hashes a password: in a thread, one at a time (the event loop keeps
        serving the tables meanwhile, on the other core)."""
        async with hashing:
            return await asyncio.to_thread(fn, *args)

    async def sign_up(request: Request) -> Response:
        body = await read_json(request)
        ip = request.client.host if request.client is not None else ""
        if not isinstance(body, dict):
            raise AccountError(400, "bad_request", "send {name, password}")
        if not is_local(ip):
            accounts.count_sign_up(ip)  # every attempt counts, across the site
            if made.full(ip):  # and the accounts made
                most = accounts.limits.accounts_per_ip_per_hour
                raise AccountError(429, "rate_limited", f"at most {most} accounts an hour")
        accounts.check_new(body.get("name"), body.get("password"))  # 400 or 409: no hash
        account, token = await hashed(accounts.sign_up, body.get("name"), body.get("password"))
        made.allow(ip)
        if on_sign_up is not None:
            on_sign_up(account, guest_of(request))
        return with_session(JSONResponse(_me(account), status_code=201), request, token)

    async def log_in(request: Request) -> Response:
        body = await read_json(request)
        ip = request.client.host if request.client is not None else ""
        if not isinstance(body, dict):
            raise AccountError(400, "bad_request", "send {name, password}")
        args = (body.get("name"), body.get("password"), ip)
        if not accounts.suspect(ip):
            account, token = await hashed(accounts.log_in, *args)
            return with_session(JSONResponse(_me(account)), request, token)
        # past its failures the address is slowed, not locked (D180): its log-ins one at a
        # time, a failure holding the next back, a right password let in at once
        async with slowed.enter(ip) as entered:
            if not entered:
                raise AccountError(
                    429,
                    "too_many_attempts",
                    "too many log-ins at once from your address: try again in a few seconds",
                    retry_after=SLOW_RETRY_S,
                )
            try:
                account, token = await hashed(accounts.log_in, *args)
            except AccountError as e:
                if e.status == 401:
                    await clock.sleep(accounts.limits.login_slow_s)
                raise
        return with_session(JSONResponse(_me(account)), request, token)

    async def log_out(request: Request) -> Response:
        accounts.log_out(request.cookies.get(SESSION_COOKIE))
        return without_session(JSONResponse({"ok": True}))

    async def me(request: Request) -> Response:
        account = account_of(accounts, request)
        if account is None:
            response = error_response(AccountError(401, "not_logged_in", "not logged in"))
            return without_session(response) if HINT_COOKIE in request.cookies else response
        return JSONResponse(_me(account))

    async def session(request: Request) -> Response:
        account = account_of(accounts, request)
        if account is None:  # a guest, or a session that ended: the page's hint cookie goes
            response = JSONResponse({"account": None})
            return without_session(response) if HINT_COOKIE in request.cookies else response
        return JSONResponse({"account": _me(account)})

    async def change_password(request: Request) -> Response:
        account = account_of(accounts, request)
        body = await read_json(request)
        if account is None:
            raise AccountError(401, "not_logged_in", "log in first")
        if not isinstance(body, dict):
            raise AccountError(400, "bad_request", "send {old, new}")
        token = request.cookies.get(SESSION_COOKIE, "")
        await hashed(accounts.change_password, account, body.get("old"), body.get("new"), token)
        return JSONResponse({"ok": True})

    async def delete_account(request: Request) -> Response:
        account = account_of(accounts, request)
        body = await read_json(request)
        if account is None:
            raise AccountError(401, "not_logged_in", "log in first")
        if not isinstance(body, dict):
            raise AccountError(400, "bad_request", "send {password}")
        await hashed(accounts.delete, account, body.get("password"))
        if on_delete is not None:
            on_delete(account)
        return without_session(JSONResponse({"ok": True}))

    return [
        Route("/api/accounts", sign_up, methods=["POST"]),
        Route("/api/session", log_in, methods=["POST"]),
        Route("/api/session", log_out, methods=["DELETE"]),
        Route("/api/session", session, methods=["GET"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me/password", change_password, methods=["PUT"]),
        Route("/api/me", delete_account, methods=["DELETE"]),
    ]


def record_routes(accounts: Accounts, records: Records) -> list[Route]:
    """A player's 战绩 and the leaderboards (anyone may read them)."""

    async def player(request: Request) -> Response:
        raw = str(request.path_params["name"])
        if any(unicodedata.category(c) in ("Cc", "Cs") for c in raw):  # NUL: PostgreSQL's
            raise ApiError(404, "no_player", f"no player {raw[:40]!a}")  # text refuses it
        key = unicodedata.normalize("NFKC", raw).strip().casefold()
        row = accounts.db.by_key(key) if 0 < len(key) <= NAME_MAX else None
        if row is None:
            raise ApiError(404, "no_player", f"no player {raw[:40]!a}")
        return JSONResponse({"name": row.name, "since": row.created, **records.player(row.id)})

    async def leaderboard(request: Request) -> Response:
        preset = request.query_params.get("preset") or DEFAULT_PRESET
        if preset not in PRESET_NAMES:
            raise ApiError(
                400, "bad_preset", f"preset is one of {', '.join(PRESET_NAMES)}, not {preset!a}"
            )
        return JSONResponse(
            {
                "preset": preset,
                "min_games": LISTED_GAMES,
                "provisional_below": PROVISIONAL_GAMES,
                "players": records.leaderboard(preset),
            }
        )

    return [
        Route("/api/players/{name}", player),
        Route("/api/leaderboard", leaderboard),
    ]
