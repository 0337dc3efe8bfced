"""How a request of the events API is run: a failure stays in its request (``guard``: the
event goes back to what is stored, the answer is one of docs/protocol.md's "Errors"), and an
organiser's or referee's write with an ``Idempotency-Key`` is answered once (``keyed``: the
same key again gets the first answer and changes nothing, D81).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict

from starlette.requests import Request
from starlette.responses import Response

from gouji.server.events.access import idempotency_key
from gouji.server.events.live import LiveEvent, Unavailable, rebuild
from gouji.server.events.service import Events
from gouji.server.plumbing.http import ApiError, bad_request, error_response
from gouji.server.tables.hub import Moved

log = logging.getLogger("gouji.server")

Handler = Callable[[Request], Awaitable[Response]]
Write = Callable[[Request, LiveEvent], Awaitable[Response]]


def guard(events: Events, fn: Handler) -> Handler:
    """A failure stays in its request: the event goes back to what is stored; the store's
    refusal is 503 ``unavailable``, a bug 500 ``server_error``."""

    async def run(request: Request) -> Response:
        try:
            return await fn(request)
        except (ApiError, Moved):  # Moved: the app redirects to the event's process
            raise
        except Unavailable as e:
            raise ApiError(503, "unavailable", f"{e}; nothing changed, try again") from None
        except Exception:
            log.exception("events: %s %s failed", request.method, request.url.path)
            code = str(request.path_params.get("code", "")).upper()
            live = events.events.get(code)
            if live is not None:
                with contextlib.suppress(Exception):
                    live.ev = rebuild(live.saved)
            raise ApiError(500, "server_error", "the server failed on this request") from None

    return run


def keyed(events: Events, fn: Write) -> Handler:
    """Find the event, then answer a keyed request once (D81): a repeat gets the first answer
    (errors too, but a server failure may be tried again), a repeat sent while the first is
    still being answered waits for it, the key on another request is 422."""

    async def run(request: Request) -> Response:
        live = events.find(request)
        try:
            key = idempotency_key(request)
        except ValueError as e:
            raise bad_request(str(e)) from None
        if key is None:
            return await fn(request, live)
        method, path = request.method, request.url.path
        running = live.running.get(key)
        if running is not None:
            await asyncio.shield(running)
        try:
            reply = live.replies.find(key, method, path)
        except LookupError as e:
            raise ApiError(422, "idempotency_key_reused", str(e)) from None
        if reply is not None:
            return Response(
                reply["body"],
                status_code=reply["status"],
                media_type="application/json",
                headers={"idempotent-replayed": "true"},
            )
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        live.running[key] = done
        try:
            try:
                response = await fn(request, live)
            except ApiError as e:
                if e.status < 500:
                    _keep(events, live, key, method, path, error_response(e))
                raise
            _keep(events, live, key, method, path, response)
            return response
        finally:
            live.running.pop(key, None)
            done.set_result(None)

    return guard(events, run)


def _keep(
    events: Events,
    live: LiveEvent,
    key: str,
    method: str,
    path: str,
    response: Response,
) -> None:
    live.replies.keep(key, method, path, response.status_code, bytes(response.body))
    try:
        events.store.save_event_settings(
            live.code, asdict(live.settings), events.hub.fence(live.code)
        )
    except Exception as e:  # the change itself is stored: only a replay is at stake
        log.warning("event %s: an idempotent answer was not stored: %s", live.code, e)
