"""Persistence through SQLAlchemy 2: rooms, seats, every applied action, and events.

A room is its config, its seed and its ordered actions: replaying the actions rebuilds it
(rooms.Room.replay). An event (competition) is one row: its settings and its
``Event.to_dict()``, rewritten whole on every change. SQLite by default; ``postgresql://``
URLs use psycopg 3.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine

metadata = MetaData()

rooms_table = Table(
    "rooms",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("config", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
)

seats_table = Table(
    "seats",
    metadata,
    Column("room", String(16), ForeignKey("rooms.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(80), nullable=True),
    Column("token", String(64), nullable=True),
    Column("bot", String(40), nullable=True),
    Column("is_bot", Boolean, nullable=False, default=False),
)

actions_table = Table(
    "actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(16), ForeignKey("rooms.code"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("kind", String(16), nullable=False),
    Column("text", Text, nullable=False),
    Column("client_id", String(128), nullable=True),
    Column("created", Float, nullable=False),
    UniqueConstraint("room", "seq", name="uq_actions_room_seq"),
)

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

_INSERT_ACTION = insert(actions_table)
Also = Callable[[Connection], None]  # more writes in the same transaction


def engine_url(url: str) -> str:
    """``postgresql://`` (or ``postgres://``) → SQLAlchemy's psycopg 3 dialect."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass
class StoredAction:
    seq: int
    seat: int | None
    kind: str
    text: str
    client_id: str | None


@dataclass
class StoredRoom:
    code: str
    config: dict[str, Any]
    seed: int
    created: float
    actions: list[StoredAction] = field(default_factory=list)


@dataclass
class StoredEvent:
    code: str
    key: str  # hash
    settings: dict[str, Any]
    data: dict[str, Any]
    created: float


@dataclass
class NewRoom:
    """A room created together with an event's change (one per online table)."""

    code: str
    config: dict[str, Any]
    seed: int


@dataclass
class SeatRow:
    seat: int
    name: str | None
    token: str | None
    bot: str | None


class Store:
    """The database of one server (one engine, short transactions)."""

    def __init__(self, url: str) -> None:
        self.url = engine_url(url)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_room(self, code: str, config: dict[str, Any], seed: int) -> float:
        created = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(rooms_table).values(
                    code=code, config=json.dumps(config), seed=seed, created=created
                )
            )
        return created

    def add_action(
        self,
        room: str,
        action: StoredAction,
        seats: list[SeatRow] | None = None,
        also: Also | None = None,
    ) -> None:
        """Store one applied action (and the seats it changed, and ``also``'s writes: an
        event's change that goes with it) in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(
                _INSERT_ACTION,  # one statement, compiled once: params only
                {
                    "room": room,
                    "seq": action.seq,
                    "seat": action.seat,
                    "kind": action.kind,
                    "text": action.text,
                    "client_id": action.client_id,
                    "created": time.time(),
                },
            )
            for row in seats or []:
                _put_seat(conn, room, row)
            if also is not None:
                also(conn)

    def load(self) -> list[StoredRoom]:
        """Every room with its actions in order."""
        with self.engine.connect() as conn:
            rooms = {
                r.code: StoredRoom(r.code, json.loads(r.config), int(r.seed), float(r.created))
                for r in conn.execute(select(rooms_table).order_by(rooms_table.c.created))
            }
            rows = conn.execute(
                select(actions_table).order_by(actions_table.c.room, actions_table.c.seq)
            )
            for a in rows:
                stored = rooms.get(a.room)
                if stored is not None:
                    stored.actions.append(StoredAction(a.seq, a.seat, a.kind, a.text, a.client_id))
        return list(rooms.values())

    # ------------------------------------------------------------------ events
    def create_event(
        self, code: str, key: str, settings: dict[str, Any], data: dict[str, Any]
    ) -> float:
        created = time.time()
        with self.engine.begin() as conn:
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

    def save_event(self, code: str, data: dict[str, Any], rooms: Sequence[NewRoom] = ()) -> None:
        """Rewrite an event's data, creating the rooms of its new tables in the same
        transaction (a draw is stored whole or not at all)."""
        with self.engine.begin() as conn:
            for r in rooms:
                conn.execute(
                    insert(rooms_table).values(
                        code=r.code, config=json.dumps(r.config), seed=r.seed, created=time.time()
                    )
                )
            put_event(conn, code, data)

    def load_events(self) -> list[StoredEvent]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(events_table).order_by(events_table.c.created))
            return [
                StoredEvent(
                    r.code, r.key, json.loads(r.settings), json.loads(r.data), float(r.created)
                )
                for r in rows
            ]

    def seats(self, room: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats_table).where(seats_table.c.room == room).order_by(seats_table.c.seat)
            )
            return [SeatRow(r.seat, r.name, r.token, r.bot) for r in rows]


def put_event(conn: Connection, code: str, data: dict[str, Any]) -> None:
    """Rewrite an event's data inside a transaction (``Store.add_action``'s ``also``)."""
    done = conn.execute(
        update(events_table)
        .where(events_table.c.code == code)
        .values(data=json.dumps(data), updated=time.time())
    )
    if done.rowcount != 1:
        raise RuntimeError(f"event {code} is not in the store")


def _put_seat(conn: Connection, room: str, row: SeatRow) -> None:
    conn.execute(
        delete(seats_table).where(seats_table.c.room == room, seats_table.c.seat == row.seat)
    )
    if row.name is not None or row.bot is not None:
        conn.execute(
            insert(seats_table).values(
                room=room,
                seat=row.seat,
                name=row.name,
                token=row.token,
                bot=row.bot,
                is_bot=row.bot is not None,
            )
        )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
