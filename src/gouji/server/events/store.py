"""The events' table and queries: one row an event (competition), its settings and its
``Event.to_dict()``, rewritten whole on every change (SQLAlchemy 2, on the rooms' database).

An event is a home of its own (docs/scaling.md): its tables' rooms share its code, and its
writes are fenced like theirs (gouji.server.plumbing.fence). A draw stores the event and the
rooms of its new tables in one transaction (``save_event``).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, String, Table, Text, insert, select, update
from sqlalchemy.engine import Connection

from gouji.server.plumbing.db import metadata
from gouji.server.plumbing.fence import Fence, check_fence, ensure_lease, hold_lease, leases_table
from gouji.server.tables.store import RoomStore, homes_table, rooms_table

events_table = Table(
    "events",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("key", String(64), nullable=False),  # the organiser key's SHA-256 (tokens.py)
    Column("settings", Text, nullable=False),  # the server's own: bots, delays, timer
    Column("data", Text, nullable=False),  # Event.to_dict()
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


@dataclass
class StoredEvent:
    code: str
    key: str  # hash
    settings: dict[str, Any]
    data: dict[str, Any]
    created: float


@dataclass
class EventHead:
    """An event's row without its data: enough to order a list and to see what changed."""

    code: str
    created: float
    updated: float


@dataclass
class NewRoom:
    """A room created together with an event's change (one per online table)."""

    code: str
    config: dict[str, Any]
    seed: int


class EventStore(RoomStore):
    """The events of the database, beside their tables' rooms."""

    def _migrate(self, conn: Connection) -> None:
        """Events stored before leases existed get a lapsed lease once."""
        super()._migrate(conn)
        events = conn.execute(
            select(events_table.c.code).where(
                events_table.c.code.not_in(select(leases_table.c.home))
            )
        ).all()
        for e in events:
            ensure_lease(conn, e.code)

    def create_event(
        self,
        code: str,
        key: str,
        settings: dict[str, Any],
        data: dict[str, Any],
        lease: Fence | None = None,
    ) -> float:
        created = self.clock.time()
        with self.engine.begin() as conn:
            if lease is not None:
                hold_lease(conn, code, lease, self.clock.time())
            else:
                ensure_lease(conn, code)
            conn.execute(
                insert(events_table).values(
                    code=code,
                    key=key,
                    settings=json.dumps(settings),
                    data=json.dumps(data),
                    created=created,
                    updated=created,
                )
            )
        return created

    def save_event(
        self,
        code: str,
        data: dict[str, Any],
        rooms: Sequence[NewRoom] = (),
        fence: Fence | None = None,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """Rewrite an event's data (and its server-side ``settings``: referees, replies),
        creating the rooms of its new tables in the same transaction (a draw is stored whole
        or not at all); ``fence`` as ``add_action``."""
        now = self.clock.time()
        with self.engine.begin() as conn:
            if fence is not None:
                check_fence(conn, fence, now)
            for r in rooms:
                conn.execute(
                    insert(rooms_table).values(
                        code=r.code, config=json.dumps(r.config), seed=r.seed, created=now
                    )
                )
                conn.execute(insert(homes_table).values(room=r.code, home=code))
            put_event(conn, code, data, now, settings)

    def save_event_settings(
        self, code: str, settings: dict[str, Any], fence: Fence | None = None
    ) -> None:
        """Rewrite an event's server-side settings (the round clock); ``fence`` as
        ``add_action``: only the process holding the event writes it."""
        now = self.clock.time()
        with self.engine.begin() as conn:
            if fence is not None:
                check_fence(conn, fence, now)
            _update_event(conn, code, now, settings=json.dumps(settings))

    def event_heads(self, limit: int) -> list[EventHead]:
        """The newest ``limit`` events, without their data: the public list reads these and
        parses an event's data again only when it changed (``updated``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events_table.c.code, events_table.c.created, events_table.c.updated)
                .order_by(events_table.c.created.desc(), events_table.c.code)
                .limit(limit)
            )
            return [EventHead(r.code, float(r.created), float(r.updated)) for r in rows]

    def event_data(self, codes: Collection[str]) -> dict[str, tuple[float, dict[str, Any]]]:
        """The stored data of these events, each with when it was last written."""
        if not codes:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events_table.c.code, events_table.c.updated, events_table.c.data).where(
                    events_table.c.code.in_(list(codes))
                )
            )
            return {r.code: (float(r.updated), json.loads(r.data)) for r in rows}

    def load_events(self, homes: Collection[str] | None = None) -> list[StoredEvent]:
        """Every event (of ``homes``: those a process holds)."""
        with self.engine.connect() as conn:
            query = select(events_table).order_by(events_table.c.created)
            if homes is not None:
                if not homes:
                    return []
                query = query.where(events_table.c.code.in_(list(homes)))
            rows = conn.execute(query)
            return [
                StoredEvent(
                    r.code, r.key, json.loads(r.settings), json.loads(r.data), float(r.created)
                )
                for r in rows
            ]


def put_event(
    conn: Connection,
    code: str,
    data: dict[str, Any],
    now: float,
    settings: dict[str, Any] | None = None,
) -> None:
    """Rewrite an event's data (and its settings) inside a transaction (``add_action``'s
    ``also``)."""
    values = {"data": json.dumps(data)}
    if settings is not None:
        values["settings"] = json.dumps(settings)
    _update_event(conn, code, now, **values)


def _update_event(conn: Connection, code: str, now: float, **values: str) -> None:
    done = conn.execute(
        update(events_table).where(events_table.c.code == code).values(updated=now, **values)
    )
    if done.rowcount != 1:
        raise RuntimeError(f"event {code} is not in the store")
