"""The rooms' tables and queries: rooms, seats, every applied action, each room's home and
the lobby's list (SQLAlchemy 2, on the database of gouji.server.plumbing.db).

A room is its config, its seed and its ordered actions: replaying the actions rebuilds it
(``Room.replay``, gouji.server.tables.room). Every stored action of a shared database is
fenced (gouji.server.plumbing.fence): it is written only while its process still holds the
home's lease, in the same transaction, so a process that lost a room can never add to it.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

from gouji.server.plumbing.db import Also, metadata
from gouji.server.plumbing.fence import (
    Fence,
    LeasedDatabase,
    LeaseLost,
    check_fence,
    ensure_lease,
    hold_lease,
)

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

homes_table = Table(
    "room_homes",
    metadata,
    Column("room", String(16), ForeignKey("rooms.code"), primary_key=True),
    Column("home", String(16), nullable=False, index=True),
)

listing_table = Table(
    "listing",  # the lobby's list: rooms open to everybody, one brief each (lobby.py)
    metadata,
    Column("code", String(16), primary_key=True),
    Column("brief", Text, nullable=False),
    Column("updated", Float, nullable=False),
)

_INSERT_ACTION = insert(actions_table)
_ASYNC_COMMIT = text("SET LOCAL synchronous_commit TO OFF")
#: The lease check and the insert in one statement: no row when the lease is not ours.
_FENCED_INSERT = text(
    "WITH lease AS (UPDATE leases SET until = :until, seen = :created"
    " WHERE home = :home AND owner = :owner RETURNING home)"
    " INSERT INTO actions (room, seq, seat, kind, text, client_id, created)"
    " SELECT :room, :seq, :seat, :kind, :text, :client_id, :created FROM lease"
)
LOBBY_CHANNEL = "gouji_lobby"  # PostgreSQL NOTIFY channel of the lobby's list


@dataclass
class StoredAction:
    seq: int
    seat: int | None
    kind: str
    text: str
    client_id: str | None
    created: float = 0.0  # when it was stored (epoch seconds): timers resume from it


@dataclass
class StoredRoom:
    code: str
    config: dict[str, Any]
    seed: int
    created: float
    actions: list[StoredAction] = field(default_factory=list)


@dataclass
class SeatRow:
    seat: int
    name: str | None
    token: str | None
    bot: str | None


class RoomStore(LeasedDatabase):
    """The rooms of the database: created, their actions added (fenced) and loaded back."""

    def _migrate(self, conn: Connection) -> None:
        """Rooms stored before homes existed get theirs (and a lapsed lease) once."""
        super()._migrate(conn)
        homed = select(homes_table.c.room)
        rows = conn.execute(
            select(rooms_table.c.code, rooms_table.c.config).where(rooms_table.c.code.not_in(homed))
        ).all()
        for r in rows:
            home = home_of(r.code, json.loads(r.config))
            conn.execute(insert(homes_table).values(room=r.code, home=home))
            ensure_lease(conn, home)

    def create_room(
        self, code: str, config: dict[str, Any], seed: int, lease: Fence | None = None
    ) -> float:
        """Store a new room (its home, and with ``lease`` the home's lease for this process)."""
        created = self.clock.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(rooms_table).values(
                    code=code, config=json.dumps(config), seed=seed, created=created
                )
            )
            home = home_of(code, config)
            conn.execute(insert(homes_table).values(room=code, home=home))
            if lease is not None and home == code:
                hold_lease(conn, home, lease, self.clock.time())
            else:
                ensure_lease(conn, home)
        return created

    def add_action(
        self,
        room: str,
        action: StoredAction,
        seats: list[SeatRow] | None = None,
        also: Also | None = None,
        fence: Fence | None = None,
        durable: bool = True,
    ) -> float:
        """Store one applied action (and the seats it changed, and ``also``'s writes: an
        event's change that goes with it) in one transaction; with ``fence`` only while the
        fence's owner holds the home (else ``LeaseLost``). Returns when it was stored.

        ``durable`` False (the server's own decisions: bots, 托管, timeouts — nobody is
        acknowledged) lets PostgreSQL commit without waiting for the disk: a crash of the
        database itself may lose the last fraction of a second of them, never a player's
        acknowledged action (its commit waits, and flushes every earlier one; D58)."""
        created = self.clock.time()
        values = {
            "room": room,
            "seq": action.seq,
            "seat": action.seat,
            "kind": action.kind,
            "text": action.text,
            "client_id": action.client_id,
            "created": created,
        }
        if self.shared and fence is not None and not seats and also is None:
            # the common case (a decision) on PostgreSQL: one statement, one round trip
            engine = self._durable if durable else self._eventual
            with engine.connect() as conn:
                done = conn.execute(
                    _FENCED_INSERT,
                    {**values, "home": fence.home, "owner": fence.owner, "until": fence.until},
                )
            if done.rowcount != 1:
                raise LeaseLost(f"this process no longer holds {fence.home}")
            return created
        with self.engine.begin() as conn:
            if not durable and self.shared:
                conn.execute(_ASYNC_COMMIT)
            if fence is not None:
                check_fence(conn, fence, self.clock.time())
            conn.execute(_INSERT_ACTION, values)  # one statement, compiled once: params only
            for row in seats or []:
                _put_seat(conn, room, row)
            if also is not None:
                also(conn)
        return created

    def load(self, homes: Collection[str] | None = None) -> list[StoredRoom]:
        """Every room (of ``homes``: those a process holds) with its actions in order."""
        with self.engine.connect() as conn:
            query = select(rooms_table).order_by(rooms_table.c.created)
            if homes is not None:
                if not homes:
                    return []
                mine = select(homes_table.c.room).where(homes_table.c.home.in_(list(homes)))
                query = query.where(rooms_table.c.code.in_(mine))
            rooms = {
                r.code: StoredRoom(r.code, json.loads(r.config), int(r.seed), float(r.created))
                for r in conn.execute(query)
            }
            if not rooms:
                return []
            actions = select(actions_table).order_by(actions_table.c.room, actions_table.c.seq)
            if homes is not None:
                actions = actions.where(actions_table.c.room.in_(list(rooms)))
            for a in conn.execute(actions):
                stored = rooms.get(a.room)
                if stored is not None:
                    stored.actions.append(
                        StoredAction(a.seq, a.seat, a.kind, a.text, a.client_id, float(a.created))
                    )
        return list(rooms.values())

    def home(self, room: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(homes_table.c.home).where(homes_table.c.room == room)).first()
        return str(row.home) if row is not None else None

    def seats(self, room: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats_table).where(seats_table.c.room == room).order_by(seats_table.c.seat)
            )
            return [SeatRow(r.seat, r.name, r.token, r.bot) for r in rows]

    def rename_account(self, account: int, name: str) -> list[tuple[str, int]]:
        """Every seat an account took (its stored ``sit``) shows ``name`` instead, without the
        account: a deleted account's games stay, under a neutral name. Returns (room, seat)."""
        done = []
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(
                    actions_table.c.id,
                    actions_table.c.room,
                    actions_table.c.seat,
                    actions_table.c.text,
                )
                .where(actions_table.c.kind == "sit")
                .where(actions_table.c.text.like(f'%"account": {int(account)}%'))
            ).all()
            for r in rows:
                data = json.loads(r.text)
                if data.get("account") != account:
                    continue
                data.pop("account")
                data["name"] = name
                conn.execute(
                    update(actions_table)
                    .where(actions_table.c.id == r.id)
                    .values(text=json.dumps(data, ensure_ascii=False))
                )
                conn.execute(
                    update(seats_table)
                    .where(seats_table.c.room == r.room, seats_table.c.seat == r.seat)
                    .where(seats_table.c.token == data.get("token"))
                    .values(name=name)
                )
                done.append((str(r.room), int(r.seat)))
        return done

    # ------------------------------------------------------------------ the lobby's list
    def put_listing(self, code: str, brief: dict[str, Any] | None) -> None:
        """Write (or with None remove) a room's line of the lobby's list and tell every
        process (PostgreSQL NOTIFY on ``LOBBY_CHANNEL``, delivered at commit)."""
        payload = json.dumps({"code": code, "brief": brief}, ensure_ascii=False)
        with self.engine.begin() as conn:
            conn.execute(delete(listing_table).where(listing_table.c.code == code))
            if brief is not None:
                conn.execute(
                    insert(listing_table).values(
                        code=code, brief=json.dumps(brief), updated=self.clock.time()
                    )
                )
            if self.shared and len(payload.encode()) < 7900:  # NOTIFY's payload limit
                conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": LOBBY_CHANNEL, "payload": payload},
                )

    def listing(self) -> dict[str, dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(listing_table.c.code, listing_table.c.brief))
            return {r.code: json.loads(r.brief) for r in rows}


def home_of(code: str, config: dict[str, Any]) -> str:
    """A room's home: its event's code for a competition table, else its own code."""
    ev = config.get("event")
    if isinstance(ev, dict) and isinstance(ev.get("code"), str):
        return str(ev["code"])
    return code


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
