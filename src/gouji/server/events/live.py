"""An event as the server holds it: the competition (``gouji.competition.Event``), the last
dict the store holds of it, and the server's settings beside it (how its online tables are
played, the round clock, its referees, the answers to keyed requests).

Memory never holds what the store does not: every change is made in memory, stored, and only
then answered; when the store refuses, the event is rebuilt from ``LiveEvent.saved``
(``rebuild``) and ``Unavailable`` says so.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

from gouji.competition.event import Event
from gouji.server.events.access import Replies


class Unavailable(Exception):
    """The store refused an event's change; the event was rebuilt as stored."""


@dataclass
class Settings:
    """What the server keeps beside the event: how its online tables are played."""

    bot: str = "heuristic"  # the agent of a bot team given as ``"bot": true``
    bot_delay_ms: int = 600
    next_delay_ms: int = 3000
    timer_s: float | None = 30.0
    fixed_deal: bool = False  # the organiser chose the seed, hence every deal
    remote: bool = False  # created from another machine: its all-bot tables expire
    clock: dict[str, Any] | None = None  # the organiser's round clock (events/wall.py)
    referees: list[dict[str, Any]] = field(default_factory=list)  # access.new_referee
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)  # by Idempotency-Key


@dataclass
class LiveEvent:
    code: str
    key: str  # the organiser key's hash
    settings: Settings
    ev: Event
    saved: dict[str, Any]  # the last stored ``ev.to_dict()``
    created: float
    retry: bool = False  # a result waits for the store to come back
    running: dict[str, asyncio.Future[None]] = field(default_factory=dict)  # keyed requests

    @property
    def replies(self) -> Replies:
        return Replies(self.settings.replies, self.running)


def rebuild(saved: dict[str, Any]) -> Event:
    """The event as stored. ``Event.from_dict`` keeps the lists it is given (a table's
    games), so it gets a copy: the stored dict must never change with the live event."""
    return Event.from_dict(copy.deepcopy(saved))


def invite(key: str, room: str, seat: int, gen: int = 0) -> str:
    """The invitation of a seat: only the organiser key's holder can make it again. ``gen``
    counts the seat's reissued links (``seat_links.relink``): each makes the last one void."""
    text = f"{room}:{seat}" if gen == 0 else f"{room}:{seat}:{gen}"
    mac = hmac.new(key.encode(), text.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:16]).decode().rstrip("=")
