"""Fenced writes: the ``leases`` table every domain's writes check (docs/scaling.md).

Every room belongs to a *home* (its own code; an event's tables and the event itself share
the event's code) and a home to the one process holding its *lease* (owner and expiry,
renewed every second). A write of a home is fenced: it is made only while its process still
holds the home's lease, in the same transaction, so a process that lost a room can never add
to it. The table lives here, below the domains, because the rooms' and the events' writes
check it; taking, renewing and releasing leases is the site's (gouji.server.site.store).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, Float, String, Table, insert, select, update
from sqlalchemy.engine import Connection

from gouji.server.plumbing.db import Database, metadata

leases_table = Table(
    "leases",
    metadata,
    Column("home", String(16), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("until", Float, nullable=False),  # epoch seconds (the processes' clocks agree: NTP)
    Column("seen", Float, nullable=False, default=0.0),  # the owner's last renewal (or stop)
)


class LeaseLost(Exception):
    """This process no longer holds the home of the room it wrote to (another took it)."""


@dataclass(frozen=True)
class Fence:
    """Write only while ``owner`` holds ``home``'s lease; renew it to ``until``."""

    home: str
    owner: str
    until: float


class LeasedDatabase(Database):
    """The database with the leases' table: who holds a home (``lease``)."""

    def lease(self, home: str) -> tuple[str, float] | None:
        """(owner, until) of ``home``'s lease; None when there is no such home."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(leases_table.c.owner, leases_table.c.until).where(
                    leases_table.c.home == home
                )
            ).first()
        return (str(row.owner), float(row.until)) if row is not None else None


def ensure_lease(conn: Connection, home: str) -> None:
    """A lapsed lease for ``home`` unless it has one (any process may take it)."""
    found = conn.execute(select(leases_table.c.home).where(leases_table.c.home == home)).first()
    if found is None:
        conn.execute(insert(leases_table).values(home=home, owner="", until=0.0, seen=0.0))


def hold_lease(conn: Connection, home: str, fence: Fence, now: float) -> None:
    """A new home's lease, held by the fence's owner from the start (a room or an event
    created here)."""
    conn.execute(
        insert(leases_table).values(home=home, owner=fence.owner, until=fence.until, seen=now)
    )


def check_fence(conn: Connection, fence: Fence, now: float) -> None:
    """Renew the fence's lease, or raise ``LeaseLost`` when its owner no longer holds it
    (the row lock orders this write and another process's take-over)."""
    done = conn.execute(
        update(leases_table)
        .where(leases_table.c.home == fence.home, leases_table.c.owner == fence.owner)
        .values(until=fence.until, seen=now)
    )
    if done.rowcount != 1:
        raise LeaseLost(f"this process no longer holds {fence.home}")
