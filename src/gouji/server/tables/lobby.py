"""The lobby's list of open rooms, the same on every process of a site.

A room created with ``listed`` shows in the lobby until its match is over: one brief each
(rule set, status, seats taken by players and by bots, watchers). The process serving the
room writes its brief to the ``listing`` table whenever it changes and, on PostgreSQL, sends
it with ``NOTIFY`` in the same transaction; every process ``LISTEN``s and keeps the list in
memory, so ``GET /api/rooms`` never waits on the database. Alone on SQLite, the process
keeps its own list the same way without the notifications.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.tables.room import Room
from gouji.server.tables.store import LOBBY_CHANNEL, RoomStore

log = logging.getLogger("gouji.server")

MOST_LISTED = 200  # rooms the lobby's list answers with (the newest first)
RETRY_S = 2.0  # after the LISTEN connection fails


def brief(room: Room) -> dict[str, Any] | None:
    """The room's line of the lobby's list; None when it is not listed (or over)."""
    if not room.config.listed or room.status in ("over", "expired") or room.lost:
        return None
    seats = room.seats
    return {
        "code": room.code,
        "preset": room.config.preset,
        "status": room.status,
        "players": sum(1 for s in seats if s.human),
        "bots": sum(1 for s in seats if s.bot is not None),
        "free": room.open_seats(),  # less the seats held for 快速开始 taps (D170)
        # waiting: how many of the empty seats the bots fill at the start (D106)
        "fill": min(sum(1 for s in seats if s.empty), room.config.bots)
        if room.status == "waiting"
        else 0,
        "bot": room.config.bot,
        "rated": room.config.rated,
        "quick": room.config.fill_after_s is not None,
        "timer_s": room.config.timer_s,
        "watchers": sum(1 for c in room.conns if c.seat is None),
        "game": len(room.match.games) if room.match is not None else 0,
        "created": room.created,
    }


class Lobby:
    """The list as this process knows it; ``publish`` for the rooms it serves."""

    def __init__(self, store: RoomStore, clock: Clock = SYSTEM) -> None:
        self.store = store
        self.clock = clock
        self.rooms: dict[str, dict[str, Any]] = store.listing()
        self.listening = False  # the LISTEN connection is up (readiness, on PostgreSQL)

    def publish(self, room: Room) -> None:
        """Tell every process the room's brief when it changed (a failure is logged: the
        list catches up at the room's next change)."""
        if not room.config.listed:
            return
        now = brief(room)
        if self.rooms.get(room.code) == now:
            return
        try:
            self.store.put_listing(room.code, now)
        except Exception as e:
            log.warning("room %s: the lobby's list was not updated: %s", room.code, e)
            return
        self._apply(room.code, now)

    def listed(self) -> list[dict[str, Any]]:
        """The open rooms, the newest first."""
        rows = sorted(self.rooms.values(), key=lambda b: -float(b.get("created", 0)))
        return rows[:MOST_LISTED]

    def _apply(self, code: str, now: dict[str, Any] | None) -> None:
        if now is None:
            self.rooms.pop(code, None)
        else:
            self.rooms[code] = now

    async def listen(self) -> None:
        """Follow the other processes' changes (PostgreSQL LISTEN) until cancelled."""
        if not self.store.shared:
            return
        import psycopg

        dsn = self.store.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {LOBBY_CHANNEL}")
                    self.rooms = await asyncio.to_thread(self.store.listing)  # what we missed
                    self.listening = True
                    async for note in conn.notifies():
                        try:
                            data = json.loads(note.payload)
                            self._apply(str(data["code"]), data["brief"])
                        except (ValueError, KeyError, TypeError) as e:
                            log.warning("a lobby notification was not understood: %s", e)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("the lobby's LISTEN connection failed: %s", e)
            self.listening = False
            await self.clock.sleep(RETRY_S)
