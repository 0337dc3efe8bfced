"""The server's one clock: every timer, bot delay, 托管 and turn timeout, rate window, stored
timestamp, lease and take-over reads it, so that a test can play five minutes of table time
in seconds (``FastClock``) and the server reads the system's clocks otherwise (``Clock``).

A clock has two readings, as the ``time`` module does: ``time()`` (epoch seconds: stored,
shown to clients as deadlines, compared between processes in leases) and ``monotonic()``
(intervals within this process), and it waits with ``sleep`` and ``wait``. Latency metrics
(how long an ``act`` took) are not table time and keep ``time.perf_counter``.
"""

from __future__ import annotations

import asyncio
import time


class Clock:
    """The system's clocks: what a server serves players with."""

    speed = 1.0

    def time(self) -> float:
        """Epoch seconds."""
        return time.time()

    def monotonic(self) -> float:
        """Seconds for intervals (never goes back)."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.speed)

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait for ``event`` at most ``seconds`` of this clock; whether it was set."""
        if event.is_set():
            return True
        try:
            await asyncio.wait_for(event.wait(), max(0.0, seconds) / self.speed)
        except TimeoutError:
            return event.is_set()
        return True

    def wall(self, seconds: float) -> float:
        """How many seconds of the wall clock ``seconds`` of this clock take."""
        return seconds / self.speed

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class FastClock(Clock):
    """Time that runs ``speed`` times as fast as the system's, from ``origin`` (epoch
    seconds; now when None) on. Processes given the same ``speed`` and ``origin`` read the
    same epoch time, so a site of several processes agrees on its leases."""

    def __init__(self, speed: float, origin: float | None = None) -> None:
        if not speed > 0:
            raise ValueError(f"a clock's speed must be positive, not {speed!r}")
        self.speed = float(speed)
        self.origin = time.time() if origin is None else float(origin)
        self._mono_origin = time.monotonic()

    def time(self) -> float:
        return self.origin + (time.time() - self.origin) * self.speed

    def monotonic(self) -> float:
        return self._mono_origin + (time.monotonic() - self._mono_origin) * self.speed

    def __repr__(self) -> str:
        return f"FastClock(speed={self.speed:g}, origin={self.origin:.3f})"


SYSTEM = Clock()
