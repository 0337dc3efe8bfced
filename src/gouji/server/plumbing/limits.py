"""The server's limits (docs/security.md): what one client, one address and one room may use.

Every limit has a default and is set with ``gouji serve --limit name=value``; an unknown name or
a bad value is refused with a message naming the limits. The counters here are in-memory and
per process; unknown room codes are counted across a site (gouji.server.plumbing.probes).
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, fields
from typing import Any

from gouji.review.analysis import DEFAULT_STEPS
from gouji.server.plumbing.clock import SYSTEM, Clock


@dataclass(frozen=True)
class Limits:
    """Resource limits of one server process (defaults sized for a club's server)."""

    connections_per_ip: int = 32  # open websockets from one address
    spectators_per_room: int = 50  # watchers of one room (seated players are not counted)
    messages_per_s: float = 20.0  # a connection's sustained message rate …
    message_burst: int = 40  # … and the burst it may send at once
    outbox: int = 256  # queued messages to a client that does not read; then it is dropped
    rooms_per_ip_per_hour: int = 30  # rooms created from one address (not the machine itself)
    lookups_per_ip_per_min: int = 30  # unknown room and event codes one address asks for
    bot_room_games: int = 20  # all-bot rooms not made on the machine itself: most games …
    bot_room_s: float = 3600.0  # … and most seconds of play
    replay_cache: int = 16  # finished-game replays kept in memory, server-wide
    replay_workers: int = 2  # processes that compute replays (off the event loop) …
    replays_at_once: int = 8  # … replays computing or waiting for one, server-wide …
    replays_per_ip_per_min: int = 30  # … and computed for one address (cached ones are free)
    analysis_workers: int = 1  # processes that judge finished games' decisions (复盘) …
    analyses_queued: int = 4  # … analyses running or waiting for them, server-wide …
    analyses_per_ip: int = 1  # … and running or waiting for one address (stored ones are free)
    analysis_steps: int = DEFAULT_STEPS  # the work a decision gets (simulated decisions, D129)
    say_gap_s: float = 3.0  # a seat's 快捷语: one every this many seconds …
    says_per_min: int = 8  # … and at most this many a minute (gouji.server.tables.phrases)
    login_failures_per_ip: int = 20  # failed log-ins from one address in 15 minutes: then
    login_slow_s: float = 3.0  # it is slowed (one log-in at a time, a failure waits this) …
    login_failures_per_account: int = 10  # … and of one account (from anywhere): locked
    accounts_per_ip_per_hour: int = 10  # accounts made from one address (not the machine) …
    sign_ups_per_ip: int = 20  # … and sign-up attempts from it in 15 minutes, across the site

    def __post_init__(self) -> None:
        for f in fields(self):
            if getattr(self, f.name) <= 0:
                raise ValueError(f"limit {f.name} must be positive")


class LimitError(ValueError):
    """A ``--limit`` the server refuses."""


def parse_limits(items: list[str] | None, base: Limits | None = None) -> Limits:
    """``["name=value", …]`` over ``base`` (the defaults)."""
    out = base or Limits()
    known = {f.name: f.type for f in fields(Limits)}
    for item in items or []:
        name, sep, raw = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in known:
            raise LimitError(f"unknown limit {item!r}; limits: {', '.join(sorted(known))}")
        try:
            value: Any = float(raw) if known[name] == "float" else int(raw)
            out = dataclasses.replace(out, **{name: value})
        except ValueError as e:
            raise LimitError(f"limit {name}: {e}") from None
    return out


def is_local(host: str | None) -> bool:
    """Whether a client address is this machine (loopback)."""
    if not host:
        return False
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class TokenBucket:
    """``rate`` events a second with bursts of ``burst``: the message limit of a connection."""

    def __init__(self, rate: float, burst: int, clock: Clock = SYSTEM) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock.monotonic()

    def take(self) -> bool:
        now = self.clock.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class WindowCounter:
    """Events per key in a sliding window (rooms created per address, failed lookups)."""

    def __init__(self, most: int, seconds: float, clock: Clock = SYSTEM) -> None:
        self.most = most
        self.seconds = seconds
        self.clock = clock
        self._events: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Count one event for ``key`` if the window has room for it."""
        now = self.clock.monotonic()
        q = self._events.setdefault(key, deque())
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if len(q) >= self.most:
            return False
        q.append(now)
        if len(self._events) > 10_000:  # forget idle addresses
            for k in [k for k, v in self._events.items() if not v]:
                del self._events[k]
        return True

    def take(self, key: str, n: int) -> bool:
        """Count ``n`` events for ``key`` if the window has room for all of them, else none
        (an event's draw starts its all-bot tables together or not at all)."""
        now = self.clock.monotonic()
        q = self._events.setdefault(key, deque())
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if len(q) + n > self.most:
            return False
        q.extend([now] * n)
        return True

    def full(self, key: str) -> bool:
        """Whether ``key`` has no room left, without counting."""
        now = self.clock.monotonic()
        q = self._events.get(key)
        if not q:
            return False
        return sum(t > now - self.seconds for t in q) >= self.most


class AddressGate:
    """One at a time per key, at most ``waiting`` queued behind it (first come, first served):
    the log-ins of an address past its failures (D180). A queue longer than that is refused
    (``enter`` yields False), so a flood from one address costs the server one hash at a time
    and a few waiting requests, never the hashing of everybody else."""

    def __init__(self, waiting: int = 8) -> None:
        self.waiting = waiting
        self._locks: dict[str, asyncio.Lock] = {}
        self._queued: dict[str, int] = {}

    @asynccontextmanager
    async def enter(self, key: str) -> AsyncIterator[bool]:
        if self._queued.get(key, 0) > self.waiting:
            yield False
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._queued[key] = self._queued.get(key, 0) + 1
        try:
            async with lock:
                yield True
        finally:
            self._queued[key] -= 1
            if not self._queued[key]:
                del self._queued[key]
                del self._locks[key]
