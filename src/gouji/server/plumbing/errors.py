"""The app's exception handlers: every error answer of the server is one body,
``{"error": code, "message": text}`` (gouji.server.plumbing.http; docs/protocol.md).

A route raises ``ApiError`` (its status, code, message and headers); Starlette's own
``HTTPException`` (an unknown address: 404, a method a route does not take: 405) gets the
code of its status; anything else is a bug: 500 ``server_error`` (the server logs it; the
client is told nothing of it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from gouji.server.plumbing.http import ApiError, error_response, json_error

#: The code of each status Starlette answers by itself.
STATUS_CODES = {
    400: "bad_request",
    401: "not_logged_in",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    429: "rate_limited",
    503: "unavailable",
}

Handler = Callable[[Request, Exception], Awaitable[Response]]


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = STATUS_CODES.get(exc.status_code, "error")
    return json_error(exc.status_code, code, str(exc.detail), dict(exc.headers or {}) or None)


async def server_error(request: Request, exc: Exception) -> Response:
    return json_error(500, "server_error", "the server failed on this request")


def handlers(
    more: Mapping[type[Exception], Handler] | None = None,
) -> dict[Any, Handler]:
    """The handlers to install (``more``: a domain's own, e.g. the site's ``Moved``)."""
    return {
        ApiError: api_error,
        HTTPException: http_error,
        Exception: server_error,
        **(more or {}),
    }
