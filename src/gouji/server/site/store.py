"""The site's database: every domain's tables on one connection pool (``Store``), and the
leases that share the homes out among the site's processes (docs/scaling.md).

``Store`` is what the app opens: the rooms' (gouji.server.tables.store), the events'
(gouji.server.events.store) and the analyses' (gouji.server.review.store) queries on one
``Database`` (gouji.server.plumbing.db). The leases' table is gouji.server.plumbing.fence
(every domain's writes check it); taking, renewing and releasing them is here, for
gouji.server.site.leases.
"""

from __future__ import annotations

import random
from collections.abc import Collection

from sqlalchemy import select, update

from gouji.server.events.store import EventStore
from gouji.server.plumbing.fence import leases_table
from gouji.server.review.store import AnalysisStore


class Store(EventStore, AnalysisStore):
    """The database of one server process: rooms, events, analyses and leases."""

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
