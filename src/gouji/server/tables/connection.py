"""One websocket connection of a table: its room, seat and token, and the outbox a writer task
drains (``Connection``), so a slow or silent client never stalls a room
(docs/security.md). The websocket endpoint itself is gouji.server.tables.websocket.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocketDisconnect

from gouji.server.players.accounts import Account
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.limits import Limits, TokenBucket

if TYPE_CHECKING:
    from gouji.server.tables.room import Room


class Connection:
    """One websocket: its room, seat and token, and an outbox drained by a writer task.

    States are not queued: ``mark()`` flags the connection and the writer sends the room's
    latest state when it gets to it (so a slow client skips versions, never stalls a room).
    Other messages queue up to ``limits.outbox``; a client that lets more pile up (it sends
    but does not read) is dropped, and so is one whose messages cannot be sent.
    """

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        limits: Limits | None = None,
        ip: str = "",
        clock: Clock = SYSTEM,
    ) -> None:
        self._send_text = send_text
        self.clock = clock
        self.limits = limits or Limits()
        self.ip = ip
        self.room: Room | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.name = "guest"
        self.outbox: deque[str] = deque()
        self.dirty = False
        self.wake = asyncio.Event()
        self.closed = False
        self.dropped = ""  # why the server drops this connection ('' while it is fine)
        self.bucket = TokenBucket(self.limits.messages_per_s, self.limits.message_burst, clock)
        self.warned = 0.0  # when it was last told it sends too fast
        self.asked: str | None = None  # the worker its URL asked for (?w=: a `moved` named it)
        self.moved = False  # told `moved`: closed once that is sent
        self.closer: Callable[[], Awaitable[None]] | None = None  # closes the websocket
        self.account: Account | None = None  # the session cookie's account (None: a guest)
        # whether that session is still live (log-out, a changed password or a deleted account
        # end it): asked before the connection acts as the account (D150)
        self.logged_in: Callable[[], bool] | None = None
        self.guest: str | None = None  # the hash of the browser's guest cookie

    def send(self, message: dict[str, Any]) -> None:
        if len(self.outbox) >= self.limits.outbox:
            self.drop(f"more than {self.limits.outbox} messages waiting: the client does not read")
            return
        self.outbox.append(dumps(message))
        self.wake.set()

    def mark(self) -> None:
        self.dirty = True
        self.wake.set()

    def drop(self, why: str, keep: bool = False) -> None:
        """Stop serving this connection; ``keep`` the queued messages for a last flush (a
        reading client's rate_limited error), else drop them (a client that does not read)."""
        if not self.dropped:
            self.dropped = why
            if not keep:
                self.outbox.clear()
        self.wake.set()

    async def run_writer(self) -> None:
        """Send queued messages, then the latest state, until closed or dropped. A connection
        whose room moved to another process gets its ``moved`` and is closed at once (its
        reader may be waiting for a message that an idle client sends only every 25 s)."""
        try:
            while not self.closed and not self.dropped:
                await self.wake.wait()
                self.wake.clear()
                while self.outbox and not self.dropped:
                    await self._send_text(self.outbox.popleft())
                if self.dirty and self.room is not None and not self.dropped:
                    self.dirty = False
                    await self._send_text(self.room.state_text(self.seat))
            if self.moved and self.closer is not None and not self.closed:
                while self.outbox:
                    await self._send_text(self.outbox.popleft())
                await self.closer()
        except asyncio.CancelledError:
            raise
        except (WebSocketDisconnect, OSError):  # the client went away: its reader sees it too
            self.closed = True
        except Exception as e:  # a broken socket: this connection only, never the room
            self.drop(f"send failed: {type(e).__name__}")


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
