"""The seats a waiting room holds for 快速开始 taps on their way (issue 39; docs/decisions.md
D170): a tap answered with a room holds a seat there for ``HOLD_S`` seconds, for the browser
that tapped (the hash of its ``gouji_guest`` cookie), until its page sits down.

Held seats are not open to anybody else: the next taps go to the next room once all six are
taken or held, and a sit from a browser without a hold needs a seat that is neither. A hold
never used lapses by the room's clock (gouji.server.plumbing.clock), so no seat is lost for
good. Holds are the serving process's memory, never stored: they last seconds, and every tap
for a room is answered by the process that serves it (quickmatch.py), one event loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from gouji.server.plumbing.clock import Clock

HOLD_S = 20.0  # a tap's page has this long to sit down (it takes a second or two)


@dataclass
class Hold:
    guest: str  # the hash of the tapping browser's guest cookie
    until: float  # the room's monotonic clock: when the hold lapses


class Holds:
    """The live holds of one room."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._held: dict[str, Hold] = {}

    def live(self) -> list[Hold]:
        """The holds not lapsed (the lapsed ones stay until ``purge``: the room's driver
        forgets them and tells the lobby's list, at ``next_lapse``)."""
        now = self.clock.monotonic()
        return [h for h in self._held.values() if h.until > now]

    def purge(self) -> None:
        """Forget the lapsed holds."""
        now = self.clock.monotonic()
        self._held = {g: h for g, h in self._held.items() if h.until > now}

    def count(self) -> int:
        return len(self.live())

    def held_by(self, guest: str | None) -> bool:
        """Whether this browser holds a seat here now."""
        return guest is not None and any(h.guest == guest for h in self.live())

    def add(self, guest: str, seconds: float = HOLD_S) -> None:
        """Hold a seat for ``guest`` (a browser tapping again keeps its one hold, renewed)."""
        self._held[guest] = Hold(guest, self.clock.monotonic() + seconds)

    def use(self, guest: str | None) -> bool:
        """The browser sat down: its hold is spent. Whether it had one."""
        return guest is not None and self._held.pop(guest, None) is not None

    def next_lapse(self) -> float | None:
        """When the first hold lapses or lapsed, not yet purged (monotonic); None: none."""
        return min((h.until for h in self._held.values()), default=None)

    def last_lapse(self) -> float | None:
        """When the last live hold lapses (monotonic); None when there is none."""
        return max((h.until for h in self.live()), default=None)
