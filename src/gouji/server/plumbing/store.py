"""Persistence through SQLAlchemy 2: rooms, seats, every applied action, events, and the
analyses of finished games.

A room is its config, its seed and its ordered actions: replaying the actions rebuilds it
(rooms.Room.replay). An event (competition) is one row: its settings and its
``Event.to_dict()``, rewritten whole on every change. SQLite by default; ``postgresql://``
URLs use psycopg 3.

Several server processes share one PostgreSQL database (docs/scaling.md): every room belongs
to a *home* (its own code; an event's tables and the event itself share the event's code) and
a home to the one process holding its *lease* (``leases``: owner and expiry, renewed every
second). Every stored action is fenced: it is written only while its process still holds the
home's lease, in the same transaction, so a process that lost a room can never add to it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection, Sequence
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
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from gouji.server.plumbing.clock import SYSTEM, Clock

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

homes_table = Table(
    "room_homes",
    metadata,
    Column("room", String(16), ForeignKey("rooms.code"), primary_key=True),
    Column("home", String(16), nullable=False, index=True),
)

leases_table = Table(
    "leases",
    metadata,
    Column("home", String(16), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("until", Float, nullable=False),  # epoch seconds (the processes' clocks agree: NTP)
    Column("seen", Float, nullable=False, default=0.0),  # the owner's last renewal (or stop)
)

listing_table = Table(
    "listing",  # the lobby's list: rooms open to everybody, one brief each (directory.py)
    metadata,
    Column("code", String(16), primary_key=True),
    Column("brief", Text, nullable=False),
    Column("updated", Float, nullable=False),
)

analyses_table = Table(
    "analyses",  # 复盘: a finished game's analysis, computed once (gouji.server.review.analyses)
    metadata,
    Column("room", String(16), ForeignKey("rooms.code"), primary_key=True),
    Column("game", Integer, primary_key=True),  # the game's index in the room's match
    Column("steps", Integer, primary_key=True),  # the work a decision got …
    Column("seed", BigInteger, primary_key=True),  # … and the seed: another gives another one
    Column("data", Text, nullable=False),  # the analysis, JSON ("gouji-analysis/1")
    Column("created", Float, nullable=False),
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
Also = Callable[[Connection], None]  # more writes in the same transaction
SCHEMA_LOCK = 0x60_0C_71  # PostgreSQL advisory lock key: one process creates the schema
LOBBY_CHANNEL = "gouji_lobby"  # PostgreSQL NOTIFY channel of the lobby's list


def engine_url(url: str) -> str:
    """``postgresql://`` (or ``postgres://``) → SQLAlchemy's psycopg 3 dialect."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class LeaseLost(Exception):
    """This process no longer holds the home of the room it wrote to (another took it)."""


@dataclass(frozen=True)
class Fence:
    """Write only while ``owner`` holds ``home``'s lease; renew it to ``until``."""

    home: str
    owner: str
    until: float


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


@dataclass
class SeatRow:
    seat: int
    name: str | None
    token: str | None
    bot: str | None


class Store:
    """The database of one server (one engine, short transactions)."""

    def __init__(self, url: str, clock: Clock = SYSTEM) -> None:
        self.url = engine_url(url)
        self.clock = clock  # the server's: stored times and lease expiries read it
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # PostgreSQL: a single fenced insert needs no transaction of its own (one round trip
        # instead of five); the server's own decisions go through a session that does not
        # wait for the disk at commit (D58)
        self._durable: Engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._eventual: Engine = self._durable
        if self.engine.dialect.name == "postgresql":
            self._eventual = create_engine(
                self.url,
                isolation_level="AUTOCOMMIT",
                connect_args={"options": "-c synchronous_commit=off"},
            )
        with self.engine.begin() as conn:
            if self.shared:  # several processes starting at once: one creates the schema
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            metadata.create_all(conn)
            self._home_old_rooms(conn)

    @property
    def shared(self) -> bool:
        """Whether other processes may use this database (PostgreSQL; SQLite is one
        process's file)."""
        return self.engine.dialect.name == "postgresql"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.engine.dispose()
        if self._eventual is not self._durable:
            self._eventual.dispose()

    @staticmethod
    def _home_old_rooms(conn: Connection) -> None:
        """Rooms stored before homes existed get theirs (and a lapsed lease) once."""
        homed = select(homes_table.c.room)
        rows = conn.execute(
            select(rooms_table.c.code, rooms_table.c.config).where(rooms_table.c.code.not_in(homed))
        ).all()
        for r in rows:
            home = home_of(r.code, json.loads(r.config))
            conn.execute(insert(homes_table).values(room=r.code, home=home))
            _ensure_lease(conn, home)
        events = conn.execute(
            select(events_table.c.code).where(
                events_table.c.code.not_in(select(leases_table.c.home))
            )
        ).all()
        for e in events:
            _ensure_lease(conn, e.code)

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
                conn.execute(
                    insert(leases_table).values(
                        home=home, owner=lease.owner, until=lease.until, seen=self.clock.time()
                    )
                )
            else:
                _ensure_lease(conn, home)
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
                _check_fence(conn, fence, self.clock.time())
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

    # ------------------------------------------------------------------ leases
    def take_leases(
        self,
        owner: str,
        until: float,
        *,
        most: int | None = None,
        homes: Collection[str] = (),
        own: bool = True,
    ) -> dict[str, float]:
        """Take the lapsed leases (and with ``own`` this owner's own: a restart), at most
        ``most`` of them, picked at random so that several processes share a dead one's
        homes; or only ``homes`` (a request for one of them). Returns each home taken with
        when its last owner was last alive (timers resume with the time they had then)."""
        now = self.clock.time()
        free = leases_table.c.until < now
        if own:
            free = free | (leases_table.c.owner == owner)
        with self.engine.begin() as conn:
            query = select(leases_table.c.home, leases_table.c.seen).where(free)
            if homes:
                query = query.where(leases_table.c.home.in_(list(homes)))
            seen = {r.home: float(r.seen) for r in conn.execute(query)}
            wanted = list(seen)
            if most is not None and len(wanted) > most:
                wanted = random.sample(wanted, most)
            if not wanted:
                return {}
            done = conn.execute(
                update(leases_table)
                .where(leases_table.c.home.in_(wanted), free)
                .values(owner=owner, until=until, seen=now)
                .returning(leases_table.c.home)
            )
            return {r.home: seen[r.home] for r in done}

    def renew_leases(self, owner: str, until: float) -> set[str]:
        """Extend every lease of ``owner``: the homes it still holds."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(leases_table)
                .where(leases_table.c.owner == owner)
                .values(until=until, seen=self.clock.time())
                .returning(leases_table.c.home)
            )
            return {r.home for r in done}

    def release_leases(self, owner: str) -> None:
        """Let every lease of ``owner`` lapse now (a clean stop: others take over at once)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(leases_table)
                .where(leases_table.c.owner == owner)
                .values(until=0.0, seen=self.clock.time())
            )

    def lease(self, home: str) -> tuple[str, float] | None:
        """(owner, until) of ``home``'s lease; None when there is no such home."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(leases_table.c.owner, leases_table.c.until).where(
                    leases_table.c.home == home
                )
            ).first()
        return (str(row.owner), float(row.until)) if row is not None else None

    def home(self, room: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(homes_table.c.home).where(homes_table.c.room == room)).first()
        return str(row.home) if row is not None else None

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

    # ------------------------------------------------------------------ analyses
    def analysis(self, room: str, game: int, steps: int, seed: int) -> str | None:
        """The stored analysis of a room's game (JSON text), or None."""
        c = analyses_table.c
        with self.engine.connect() as conn:
            row = conn.execute(
                select(c.data).where(
                    c.room == room, c.game == game, c.steps == steps, c.seed == seed
                )
            ).first()
        return str(row.data) if row is not None else None

    def save_analysis(self, room: str, game: int, steps: int, seed: int, data: str) -> None:
        """Keep an analysis (JSON text); one stored already (another process computed the
        same one: the same steps and seed give the same analysis) stays as it is."""
        values = {"room": room, "game": game, "steps": steps, "seed": seed, "data": data}
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(analyses_table).values(**values, created=self.clock.time()))
        except IntegrityError:
            if self.analysis(room, game, steps, seed) is None:
                raise  # not a duplicate: another fault (no such room)

    # ------------------------------------------------------------------ events
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
                conn.execute(
                    insert(leases_table).values(
                        home=code, owner=lease.owner, until=lease.until, seen=self.clock.time()
                    )
                )
            else:
                _ensure_lease(conn, code)
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
                _check_fence(conn, fence, now)
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
                _check_fence(conn, fence, now)
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


def home_of(code: str, config: dict[str, Any]) -> str:
    """A room's home: its event's code for a competition table, else its own code."""
    ev = config.get("event")
    if isinstance(ev, dict) and isinstance(ev.get("code"), str):
        return str(ev["code"])
    return code


def _ensure_lease(conn: Connection, home: str) -> None:
    """A lapsed lease for ``home`` unless it has one (any process may take it)."""
    found = conn.execute(select(leases_table.c.home).where(leases_table.c.home == home)).first()
    if found is None:
        conn.execute(insert(leases_table).values(home=home, owner="", until=0.0, seen=0.0))


def _check_fence(conn: Connection, fence: Fence, now: float) -> None:
    """Renew the fence's lease, or raise ``LeaseLost`` when its owner no longer holds it
    (the row lock orders this write and another process's take-over)."""
    done = conn.execute(
        update(leases_table)
        .where(leases_table.c.home == fence.home, leases_table.c.owner == fence.owner)
        .values(until=fence.until, seen=now)
    )
    if done.rowcount != 1:
        raise LeaseLost(f"this process no longer holds {fence.home}")


def put_event(
    conn: Connection,
    code: str,
    data: dict[str, Any],
    now: float,
    settings: dict[str, Any] | None = None,
) -> None:
    """Rewrite an event's data (and its settings) inside a transaction (``Store.add_action``'s
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
