"""The one HTTP layer every route shares: JSON in, errors out (docs/protocol.md, "Errors").

Everything from the network is hostile until validated: ``load_json`` refuses what Python's
parser would choke on or let through, ``read_json`` bounds a request's body before reading
it, and every answer other than 2xx is one shape, ``{"error": code, "message": text}`` —
``code`` a stable word a page translates, ``message`` an English sentence for engineers and
logs. A route raises ``ApiError``; the app turns it into that body (``error_response``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

MAX_BODY = 64 * 1024  # bytes of one HTTP body
MAX_DEPTH = 8  # nesting of a JSON message or body
_SURROGATE = re.compile(r"[\ud800-\udfff\x00]")


class BadJson(ValueError):
    """Text that is not an acceptable JSON document (the message says why)."""


def load_json(raw: str | bytes) -> Any:
    """JSON from the network: refuses what Python's parser would choke on or let through
    (deep nesting, 4,300-digit numbers, NUL and lone surrogates in strings)."""
    try:
        value = json.loads(raw)
    except RecursionError:
        raise BadJson("nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError, huge integers
        raise BadJson(str(e)) from None
    _check_value(value, 0)
    return value


def _check_value(value: object, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise BadJson(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise BadJson("text holds a NUL or a lone surrogate (not valid Unicode text)")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_value(k, depth + 1)
            _check_value(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_value(v, depth + 1)


class ApiError(Exception):
    """An answer other than 2xx: ``{"error": code, "message": text}`` with ``status``;
    ``headers`` (e.g. ``retry-after``) go with it."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def bad_request(message: str) -> ApiError:
    return ApiError(400, "bad_request", message)


def conflict(message: str) -> ApiError:
    return ApiError(409, "conflict", message)


def not_found(message: str) -> ApiError:
    return ApiError(404, "not_found", message)


def error_body(code: str, message: str) -> dict[str, str]:
    """The one error shape, for the places that write it themselves (a middleware)."""
    return {"error": code, "message": message}


def json_error(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status, headers=headers)


def error_response(exc: ApiError) -> JSONResponse:
    return json_error(exc.status, exc.code, exc.message, exc.headers)


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The JSON body, read no further than ``limit`` bytes (413 past it, 400 if not JSON; an
    empty body is ``{}``). The declared length is compared as ASCII digits, by length first:
    ``int()`` would take "²" and spend seconds on 4,300 digits. A client that leaves before
    its whole body came is answered 400 quietly (nobody reads it; no traceback in the log)."""
    length = (request.headers.get("content-length") or "").lstrip("0")
    too_big = ApiError(413, "too_large", f"the body is over {limit} bytes")
    if (
        length.isascii()
        and length.isdigit()
        and (len(length) > len(str(limit)) or int(length) > limit)
    ):
        raise too_big
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise too_big
    except ClientDisconnect:
        raise bad_request("the client left before sending its whole body") from None
    if not body.strip():
        return {}
    try:
        return load_json(body)
    except BadJson as e:
        raise bad_request(f"the body is not acceptable JSON: {e}") from None


# ---------------------------------------------------------------------------- body fields
def fields(body: object, required: Sequence[str], optional: Sequence[str]) -> dict[str, Any]:
    """A JSON object with exactly these fields: unknown ones refused, required ones there
    (not null). Strict bodies: a misspelt field is an error, never silently ignored."""
    if not isinstance(body, dict):
        raise bad_request("the body is a JSON object")
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        known = ", ".join([*required, *optional])
        raise bad_request(
            f"unknown field(s) {', '.join(map(ascii, unknown))[:200]}; fields: {known}"
        )
    for name in required:
        if body.get(name) is None:
            raise bad_request(f"the field '{name}' is needed")
    return body


def integer(value: object, what: str, lo: int, hi: int) -> int:
    """An integer field from ``lo`` to ``hi`` (a JSON ``true`` is not 1)."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise bad_request(f"'{what}' must be an integer from {lo} to {hi}")
    return value
