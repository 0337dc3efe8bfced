"""The database itself, shared by every domain of the server: one SQLAlchemy 2 engine,
the dialect's settings, the schema's creation and the ``MetaData`` the domains' tables hang on.

SQLite by default; ``postgresql://`` URLs use psycopg 3. Each domain owns its tables and
queries and builds on :class:`Database`: the rooms (gouji.server.tables.store), the events
(gouji.server.events.store), the analyses (gouji.server.review.store), the leases
(gouji.server.site.store; the fence every write checks is gouji.server.plumbing.fence), the
accounts and records (gouji.server.players). Several server processes share one PostgreSQL
database (docs/scaling.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from sqlalchemy import MetaData, create_engine, event, text
from sqlalchemy.engine import Connection, Engine

from gouji.server.plumbing.clock import SYSTEM, Clock

#: The schema of the rooms' database: every domain's tables but the accounts' hang on it.
metadata = MetaData()
SCHEMA_LOCK = 0x60_0C_71  # PostgreSQL advisory lock key: one process creates the schema
Also = Callable[[Connection], None]  # more writes in the same transaction


def engine_url(url: str) -> str:
    """``postgresql://`` (or ``postgres://``) → SQLAlchemy's psycopg 3 dialect."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class Database:
    """The database of one server (one engine, short transactions). Creating it creates
    the tables of ``metadata`` that are missing, then runs ``_migrate`` (a domain's store
    adds its own upgrades of older databases) in the same transaction."""

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
            self._migrate(conn)

    def _migrate(self, conn: Connection) -> None:
        """Bring an older database up to date (each domain's store adds its part)."""

    @property
    def shared(self) -> bool:
        """Whether other processes may use this database (PostgreSQL; SQLite is one
        process's file)."""
        return self.engine.dialect.name == "postgresql"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.engine.dispose()
        if self._eventual is not self._durable:
            self._eventual.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
