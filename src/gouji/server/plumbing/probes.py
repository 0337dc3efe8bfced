"""Unknown room and event codes, counted per address across the site (docs/security.md).

A code is 40 random bits: finding a live room by guessing takes about 10^12 tries divided by
the live rooms, and this count keeps those tries slow. Only unknown codes are counted, and
only they are refused: a real code is found however many unknown ones its address asked for
(one NAT address for a whole club must not lock the club out of its own rooms; D92). Past
``lookups_per_ip_per_min`` an unknown code answers ``rate_limited`` (429); past ``CEILING``
times that, the address is guessing, and a code it has not reached before is refused too,
until its count falls — the rooms it hits are what it guesses for. A code the address has
reached in the last ``KNOWN_S`` (``found``: its club's rooms, made and joined from there, a
page coming back to its table) is still found (D182): a neighbour behind the same NAT keeps
the club's rooms, and the guesser learns nothing it did not know.

The count is the site's: several processes share it through the ``probes`` table of a
PostgreSQL store (address, a 10-second bucket, its count: one upsert an unknown code, nothing
for a real one); one process on SQLite keeps it in memory. A minute is the current bucket
and the six before it, so 60 to 70 seconds: every unknown code of the last minute counts.
"""

from __future__ import annotations

import logging
from collections import Counter

from sqlalchemy import Column, Integer, MetaData, String, Table, delete, text

from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.db import SCHEMA_LOCK, Database
from gouji.server.plumbing.limits import Limits

log = logging.getLogger("gouji.server")

BUCKET_S = 10  # seconds of one bucket
BUCKETS = 6  # earlier buckets that count with the current one (a minute and a bit)
CEILING = 10  # times the limit: then every code is refused but those the address knows
KNOWN_S = 3600.0  # how long a code an address reached stays known to it (this process)
KNOWN_PER_ADDRESS = 64  # codes remembered for one address (the oldest forgotten first)

probe_metadata = MetaData()

probes_table = Table(
    "probes",
    probe_metadata,
    Column("address", String(64), primary_key=True),
    Column("bucket", Integer, primary_key=True),  # epoch seconds // BUCKET_S
    Column("count", Integer, nullable=False),
)

#: Count one more for (address, bucket) and answer the address's count of the last minute, in
#: one round trip (the CTE's insert is not seen by the outer SELECT: the current bucket's
#: count comes from its RETURNING, the earlier buckets' from the table).
_COUNT = text(
    "WITH up AS (INSERT INTO probes (address, bucket, count) VALUES (:address, :bucket, 1)"
    " ON CONFLICT (address, bucket) DO UPDATE SET count = probes.count + 1 RETURNING count)"
    " SELECT (SELECT count FROM up) + COALESCE((SELECT sum(count) FROM probes"
    " WHERE address = :address AND bucket >= :since AND bucket < :bucket), 0)"
)


class UnknownCodes:
    """The unknown codes of each address in the last minute: ``count`` one, ``refused``
    whether a real code is refused now, ``found`` a real one reached."""

    def __init__(self, store: Database | None, limits: Limits, clock: Clock = SYSTEM) -> None:
        self.most = limits.lookups_per_ip_per_min
        self.clock = clock
        self.store = store if store is not None and store.shared else None
        self._memory: dict[str, Counter[int]] = {}  # one process alone: address → buckets
        self._over: dict[str, int] = {}  # addresses past the ceiling → until which bucket
        self._pruned = 0  # the bucket of the last pruning
        self._known: dict[str, dict[str, float]] = {}  # address → codes it reached → when
        if self.store is not None:
            with self.store.engine.begin() as conn:  # several processes: one makes the table
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                probe_metadata.create_all(conn)

    def _bucket(self) -> int:
        return int(self.clock.time() // BUCKET_S)

    def refused(self, address: str, code: str | None = None) -> bool:
        """Whether ``address`` is past the ceiling (as this process last heard) and ``code``
        is not one it reached before: then even a real code is refused. Memory only: a real
        code costs no database round trip."""
        until = self._over.get(address)
        if until is None:
            return False
        if self._bucket() > until:
            del self._over[address]
            return False
        known = self._known.get(address[:64], {})
        reached = known.get(code.strip().upper()) if code is not None else None
        return reached is None or reached <= self.clock.time() - KNOWN_S

    def found(self, address: str, code: str) -> None:
        """``address`` reached the real ``code`` (or made its room): it stays found for the
        address past the ceiling (D182). Memory only, bounded."""
        known = self._known.setdefault(address[:64], {})
        known.pop(code, None)
        known[code] = self.clock.time()
        if len(known) > KNOWN_PER_ADDRESS:
            del known[next(iter(known))]
        if len(self._known) > 10_000:  # forget the addresses whose codes are all old
            old = self.clock.time() - KNOWN_S
            last = {a: max(k.values(), default=0.0) for a, k in self._known.items()}
            kept = sorted((a for a in last if last[a] > old), key=last.__getitem__)[-5_000:]
            self._known = {a: self._known[a] for a in kept}

    def count(self, address: str) -> bool:
        """One more unknown code from ``address``: whether it is still within the limit."""
        address = address[:64]
        bucket = self._bucket()
        n = self._count_shared(address, bucket) if self.store is not None else None
        if n is None:
            n = self._count_here(address, bucket)
        if n > CEILING * self.most:
            self._over[address] = bucket + BUCKETS
            if len(self._over) > 10_000:
                self._over = {a: b for a, b in self._over.items() if b >= bucket}
        return n <= self.most

    def _count_shared(self, address: str, bucket: int) -> int | None:
        """The site's count (None when the database is away: this process counts alone)."""
        assert self.store is not None
        try:
            with self.store.engine.begin() as conn:
                params = {"address": address, "bucket": bucket, "since": bucket - BUCKETS}
                n = int(conn.execute(_COUNT, params).scalar_one())
            if bucket != self._pruned:  # forget old buckets: once a bucket, in a transaction
                self._pruned = bucket  # of its own (a failed one is no matter)
                with self.store.engine.begin() as conn:
                    conn.execute(
                        delete(probes_table).where(probes_table.c.bucket < bucket - BUCKETS)
                    )
        except Exception as e:
            log.warning("unknown codes counted in this process alone: %s", e)
            return None
        return n

    def _count_here(self, address: str, bucket: int) -> int:
        if bucket != self._pruned:
            self._pruned = bucket
            for a in list(self._memory):
                counts = self._memory[a]
                for b in [b for b in counts if b < bucket - BUCKETS]:
                    del counts[b]
                if not counts:
                    del self._memory[a]
        counts = self._memory.setdefault(address, Counter())
        counts[bucket] += 1
        return sum(counts.values())
