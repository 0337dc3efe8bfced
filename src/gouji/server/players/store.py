"""The accounts' tables: accounts, their sessions, and failed log-ins (docs/security.md).

They live in the rooms' database (SQLite or PostgreSQL) but in a schema of their own
(``account_metadata``), created by :class:`AccountStore` — the rooms' store never needs them.
Passwords are kept as argon2id hashes, session tokens as SHA-256 hashes (``tokens.token_hash``):
a copy of the database lets nobody log in. Failed log-ins are rows, so every process of a site
counts them together. Each account keeps its name's skeleton (``names.skeleton``), unique, so
that two accounts never look alike (D181); a database from before gets the column at start,
filled for the accounts it has, which keep their names.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from gouji.server.players.names import SKELETON_MAX, skeleton
from gouji.server.plumbing.db import SCHEMA_LOCK, Database

account_metadata = MetaData()

accounts_table = Table(
    "accounts",
    account_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),  # as shown
    Column("name_key", String(40), nullable=False, unique=True),  # casefolded: one per person
    # its look (names.skeleton): one per person too (null only between an upgrade's steps)
    Column("name_skeleton", String(SKELETON_MAX), nullable=True, unique=True),
    Column("password", Text, nullable=False),  # argon2id, PHC string
    Column("created", Float, nullable=False),
)

sessions_table = Table(
    "sessions",
    account_metadata,
    Column("token", String(64), primary_key=True),  # the cookie's SHA-256
    Column("account", Integer, nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

failures_table = Table(
    "login_failures",
    account_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(80), nullable=False, index=True),  # "ip:…", "account:…", "ip-name:…"
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True)
class AccountRow:
    id: int
    name: str
    password: str
    created: float


class AccountStore:
    """Reads and writes of the accounts' tables, each its own short transaction."""

    def __init__(self, store: Database) -> None:
        self.store = store
        self.engine = store.engine
        with self.engine.begin() as conn:
            if store.shared:  # several processes starting at once: one creates the schema
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            account_metadata.create_all(conn)
            _migrate(conn)

    # ------------------------------------------------------------------ accounts
    def create(self, name: str, key: str, password: str, now: float) -> AccountRow | None:
        """A new account; None when ``key`` (the casefolded name) or the name's skeleton is
        taken — also when another process took it between the check and the insert (the
        unique indexes refuse it)."""
        look = skeleton(name)
        try:
            with self.engine.begin() as conn:
                taken = conn.execute(
                    select(accounts_table.c.id).where(
                        (accounts_table.c.name_key == key)
                        | (accounts_table.c.name_skeleton == look)
                    )
                ).first()
                if taken is not None:
                    return None
                done = conn.execute(
                    insert(accounts_table)
                    .values(
                        name=name, name_key=key, name_skeleton=look, password=password, created=now
                    )
                    .returning(accounts_table.c.id)
                )
                return AccountRow(int(done.scalar_one()), name, password, now)
        except IntegrityError:  # a sign-up of the same name at another worker won the race
            return None

    def look_alike(self, name: str) -> str | None:
        """The name of an account that looks like ``name`` (the same skeleton), if any."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(accounts_table.c.name).where(
                    accounts_table.c.name_skeleton == skeleton(name)
                )
            ).first()
        return str(found.name) if found is not None else None

    def by_key(self, key: str) -> AccountRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(accounts_table).where(accounts_table.c.name_key == key)).first()
        return AccountRow(r.id, r.name, r.password, r.created) if r is not None else None

    def by_id(self, account: int) -> AccountRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(accounts_table).where(accounts_table.c.id == account)).first()
        return AccountRow(r.id, r.name, r.password, r.created) if r is not None else None

    def set_password(self, account: int, password: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts_table)
                .where(accounts_table.c.id == account)
                .values(password=password)
            )

    def delete(self, account: int) -> None:
        """The account and every session of it (its games are anonymised by the caller)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.account == account))
            conn.execute(delete(accounts_table).where(accounts_table.c.id == account))

    # ------------------------------------------------------------------ sessions
    def add_session(self, token_hash: str, account: int, now: float, expires: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.expires < now))
            conn.execute(
                insert(sessions_table).values(
                    token=token_hash, account=account, created=now, expires=expires
                )
            )

    def session(self, token_hash: str, now: float) -> tuple[AccountRow, float] | None:
        """The account of a live session, with when the session ends."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(accounts_table, sessions_table.c.expires)
                .join(sessions_table, sessions_table.c.account == accounts_table.c.id)
                .where(sessions_table.c.token == token_hash, sessions_table.c.expires > now)
            ).first()
        if r is None:
            return None
        return AccountRow(r.id, r.name, r.password, r.created), float(r.expires)

    def extend_session(self, token_hash: str, expires: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(sessions_table)
                .where(sessions_table.c.token == token_hash)
                .values(expires=expires)
            )

    def end_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.token == token_hash))

    def end_other_sessions(self, account: int, keep: str | None) -> None:
        """Every session of ``account`` but ``keep`` (a changed password logs out the rest)."""
        with self.engine.begin() as conn:
            query = delete(sessions_table).where(sessions_table.c.account == account)
            if keep is not None:
                query = query.where(sessions_table.c.token != keep)
            conn.execute(query)

    # ------------------------------------------------------------------ failed log-ins
    def failures(self, key: str, since: float) -> int:
        with self.engine.connect() as conn:
            n = conn.execute(
                select(func.count())
                .select_from(failures_table)
                .where(failures_table.c.key == key, failures_table.c.at > since)
            ).scalar_one()
        return int(n)

    def add_failures(self, keys: list[str], now: float, forget_before: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(failures_table).where(failures_table.c.at < forget_before))
            for key in keys:
                conn.execute(insert(failures_table).values(key=key, at=now))


def _migrate(conn: Connection) -> None:
    """A database from before D181: the skeleton column, filled for its accounts. Two old
    names with one skeleton both stay: the later one's is kept apart with its id (``#id``),
    so a new look-alike of either is still refused."""
    if "name_skeleton" in {c["name"] for c in inspect(conn).get_columns("accounts")}:
        return
    conn.execute(text(f"ALTER TABLE accounts ADD COLUMN name_skeleton VARCHAR({SKELETON_MAX})"))
    conn.execute(text("CREATE UNIQUE INDEX ix_accounts_name_skeleton ON accounts (name_skeleton)"))
    seen: set[str] = set()
    rows = conn.execute(select(accounts_table.c.id, accounts_table.c.name).order_by("id"))
    for row in rows.all():
        look = skeleton(row.name)
        look = look if look not in seen else f"{look}#{row.id}"
        seen.add(look)
        conn.execute(
            update(accounts_table).where(accounts_table.c.id == row.id).values(name_skeleton=look)
        )
