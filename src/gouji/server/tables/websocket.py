"""The websocket endpoint ``/ws`` (docs/protocol.md): one connection a client, its messages
read and handed to the hub, its answers written by the connection's writer task.

Bounded per address (``connections_per_ip``) and per connection (``messages_per_s``: an
error, then a close; a client that does not read is dropped by its ``Connection``). A
connection whose room moved to another process is closed with 1012 (connect again), one the
server drops with 1008 (docs/security.md): among them one whose session ended while it was
open, at its next message that acts as the account (D150).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from gouji.server.players.accounts import Accounts
from gouji.server.players.sessions import SESSION_COOKIE, account_of, guest_of
from gouji.server.tables.connection import Connection
from gouji.server.tables.hub import Hub
from gouji.server.tables.protocol import RATE_LIMITED, TOO_MANY_CONNECTIONS
from gouji.server.tables.routes import client_ip

log = logging.getLogger("gouji.server")

POLICY_VIOLATION = 1008  # websocket close code
SERVICE_RESTART = 1012  # websocket close code: connect again (the room moved)


def websocket_route(hub: Hub, accounts: Accounts) -> WebSocketRoute:
    """``/ws``: the tables' connections, with the player's account from the session cookie."""

    async def websocket(ws: WebSocket) -> None:
        ip = client_ip(ws)
        await ws.accept()
        lim = hub.limits
        if hub.connections[ip] >= lim.connections_per_ip:
            why = f"at most {lim.connections_per_ip} connections from one address"
            await ws.send_json({"type": "error", "code": TOO_MANY_CONNECTIONS, "message": why})
            await ws.close(POLICY_VIOLATION, why)
            return
        hub.connections[ip] += 1
        conn = Connection(ws.send_text, lim, ip, hub.clock)
        conn.asked = ws.query_params.get("w")
        conn.account = account_of(accounts, ws)  # the session cookie's, if any
        if conn.account is not None:
            cookie = ws.cookies.get(SESSION_COOKIE)
            conn.logged_in = lambda: accounts.session(cookie) is not None
        conn.guest = guest_of(ws)

        async def close_moved() -> None:
            await ws.close(SERVICE_RESTART, "the room is served by another process")

        conn.closer = close_moved
        writer = asyncio.get_running_loop().create_task(conn.run_writer())
        try:
            while not conn.dropped:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not conn.bucket.take():  # too fast: an error, then (again soon) a close
                    now = hub.clock.monotonic()
                    if now - conn.warned < 5:  # the queued error still goes out first
                        conn.drop(
                            f"more than {lim.messages_per_s:g} messages a second",
                            keep=True,
                        )
                        break
                    conn.warned = now
                    why = f"at most {lim.messages_per_s:g} messages a second; slow down"
                    conn.send({"type": "error", "code": RATE_LIMITED, "message": why})
                    continue
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await hub.handle(conn, raw)
                await asyncio.sleep(0)  # let the writer send between messages of one read
        except WebSocketDisconnect:
            pass
        finally:
            await hub.leave(conn)
            if conn.moved:  # the writer sends `moved` and closes: let it finish that
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(1):
                        await asyncio.shield(writer)
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer
            if conn.dropped:
                log.warning("dropped a connection from %s: %s", ip, conn.dropped)
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(1):  # what was queued (a reading client's error)
                        while conn.outbox:
                            await ws.send_text(conn.outbox.popleft())
                with contextlib.suppress(Exception):
                    code = SERVICE_RESTART if conn.moved else POLICY_VIOLATION
                    await ws.close(code, conn.dropped[:120])
            # counted until closed: a client that does not read holds its socket until the
            # close gives up (websockets aborts it after its close timeout)
            hub.connections[ip] -= 1
            if hub.connections[ip] <= 0:
                del hub.connections[ip]

    return WebSocketRoute("/ws", websocket)
