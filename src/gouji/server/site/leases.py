"""This process's share of a site of several server processes (docs/scaling.md).

Every room and event has a *home* (its own code; an event's tables share the event's), and
a home belongs to the one process holding its lease in the shared database. ``Site`` keeps
this process's leases: it renews them every ``tick``, serves the homes it takes (rebuilt from
their stored actions, timers resumed), takes lapsed ones — a dead process's — a batch at a
time, and stops serving a home whose lease another process took (its clients are told where
the room went). A request for a home held elsewhere raises ``Moved``: the app answers with a
redirect (HTTP) or a ``moved`` message (websocket) naming the owner, which the proxy in front
routes to (deploy/haproxy.cfg).

One process alone is the same code with the worker name ``solo``: it holds every home.
"""

from __future__ import annotations

import logging

from gouji.server.events.service import Events
from gouji.server.site.store import Store
from gouji.server.tables.hub import Hub, Moved
from gouji.server.tables.room import Room

log = logging.getLogger("gouji.server")

TICK_S = 1.0  # lease renewal and take-over period
TAKE_BATCH = 64  # lapsed homes one process takes a tick (several share a dead one's)


class Site:
    """The leases of this process (its ``hub.worker``) and the homes it serves."""

    def __init__(self, store: Store, hub: Hub, events: Events, *, tick_s: float = TICK_S) -> None:
        self.store = store
        self.hub = hub
        self.events = events
        self.tick_s = tick_s
        self.worker = hub.worker
        self.clock = hub.clock  # leases and take-overs: the process's one clock
        self.last_tick = 0.0  # monotonic time of the last successful renewal
        self.takeovers = 0  # homes taken from a lapsed lease (a dead or stopped process)
        self.failures = 0  # ticks the database refused
        hub.on_lost = self._lost
        hub.locate = self.locate_room
        events.locate = self.locate_event

    # ------------------------------------------------------------------ start and stop
    def start(self) -> None:
        """Take this process's own leases (a restart) and every lapsed one; serve them."""
        taken = self.store.take_leases(self.worker, self._until())
        self._adopt(taken)
        self.last_tick = self.clock.monotonic()

    def stop(self) -> None:
        """A clean stop: let every lease lapse now so that another process takes over at once."""
        try:
            self.store.release_leases(self.worker)
        except Exception as e:  # the database is gone: the leases lapse by themselves
            log.warning("could not release the leases: %s", e)

    async def run(self) -> None:
        """Renew, drop what was lost, take what lapsed: every ``tick_s`` until cancelled."""
        while True:
            await self.clock.sleep(self.tick_s)
            try:
                self.tick()
            except Exception as e:  # the database is away: retried next tick
                self.failures += 1
                log.warning("lease renewal failed: %s", e)

    @property
    def ready(self) -> bool:
        """Renewed recently: this process's leases are alive and it can serve."""
        return self.clock.monotonic() - self.last_tick < 3 * self.tick_s + 1

    def tick(self) -> None:
        held = self.store.renew_leases(self.worker, self._until())
        self.last_tick = self.clock.monotonic()
        lost = self.served() - held
        for home in lost:
            self._drop(home)
        taken = self.store.take_leases(self.worker, self._until(), most=TAKE_BATCH, own=False)
        fresh = {h: seen for h, seen in taken.items() if h not in held}
        if fresh:
            self.takeovers += len(fresh)
            log.info("took over %d homes", len(fresh), extra={"homes": sorted(fresh)[:20]})
            self._adopt(fresh)

    # ------------------------------------------------------------------ homes
    def served(self) -> set[str]:
        return {r.home for r in self.hub.rooms.values()} | set(self.events.events)

    def _until(self) -> float:
        return self.clock.time() + self.hub.lease_s

    def _adopt(self, taken: dict[str, float]) -> None:
        """Serve the homes just taken: their rooms rebuilt, then their events."""
        for home, seen in taken.items():
            try:
                self.hub.load([home], seen or None)
            except Exception:
                log.exception("home %s: its rooms could not be rebuilt", home)
        homes = list(taken)
        if homes:
            self.events.load(homes)

    def _drop(self, home: str, owner: str | None = None) -> None:
        if owner is None:
            lease = self.store.lease(home)
            owner = lease[0] if lease is not None and lease[1] > self.clock.time() else None
        log.warning("home %s is served by %s now", home, owner or "nobody yet")
        for room in [r for r in self.hub.rooms.values() if r.home == home]:
            self.hub.drop(room, owner)
        self.events.events.pop(home, None)

    def _lost(self, room: Room) -> None:
        """A write found the room's home held by another process: serve it no more."""
        try:
            self._drop(room.home)
        except Exception:  # the database is away: drop the room alone
            self.hub.drop(room, None)

    # ------------------------------------------------------------------ requests
    def locate_room(self, code: str) -> Room | None:
        """A room not served here: take its home if its lease lapsed (its process died and
        nobody took it yet); raise ``Moved`` when another process holds it; None when
        there is no such room."""
        home = self.store.home(code)
        if home is None:
            return None
        self._locate(code, home)
        return self.hub.rooms.get(code)

    def locate_event(self, code: str) -> bool:
        """As ``locate_room`` for an event: whether it is served here now."""
        if self.store.lease(code) is None:
            return False
        self._locate(code, code)
        return code in self.events.events

    def _locate(self, code: str, home: str) -> None:
        lease = self.store.lease(home)
        if lease is None:
            return
        owner, until = lease
        if owner == self.worker or until < self.clock.time():
            taken = self.store.take_leases(self.worker, self._until(), homes=[home])
            if home in taken:
                if owner != self.worker:
                    self.takeovers += 1
                if home not in self.served():
                    self._adopt(taken)
                return
            lease = self.store.lease(home)  # another process took it first
            owner = lease[0] if lease is not None else ""
        raise Moved(code, owner or None)
