"""What an event shows a room and the world: the organiser's round clock, the QR code of the
public page (for the wall page, ``/e/{code}/wall``) and the list of the server's events
(docs/protocol.md, "Events").

The clock is event state kept with the server's settings of the event (``Settings.clock``):
``{"round", "started", "minutes"}`` in the server's clock's epoch seconds, stored before it is
answered, so a restart keeps it. The event's JSON carries it (``views.round_clock``) and the
server's ``now``, so that a page counts down right whatever its own clock says.

The QR code encodes the public page on the host the request came to, never a text the client
chose, and is drawn here (segno, pure Python): a projector's wall page needs no network.

The list reads the store, not this process's memory: with several processes (docs/scaling.md)
each event lives in one of them, but every one of them is in the database.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import asdict
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.competition.event import Event, EventError
from gouji.server.events.guard import guard, keyed
from gouji.server.events.live import LiveEvent, Unavailable
from gouji.server.events.service import Events
from gouji.server.events.views import round_clock, status_of
from gouji.server.plumbing.http import ApiError, bad_request, conflict, read_json

log = logging.getLogger("gouji.server")

CLOCK_MINUTES = (1, 300)  # the round clock's bounds
LIST_SIZE = 100  # the public list: the newest events
#: The base of a URL the QR code may encode: this server's scheme and host (a name, IPv4 or
#: IPv6 address and a port), nothing else.
_BASE = re.compile(r"https?://(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?/")


# ---------------------------------------------------------------------------------- clock
def parse_minutes(body: object) -> int | None:
    """``{"minutes": N}`` (1…300) starts a clock, ``{"minutes": null}`` stops it."""
    lo, hi = CLOCK_MINUTES
    if not isinstance(body, dict) or set(body) != {"minutes"}:
        raise bad_request('the body is {"minutes": N} with N from 1 to 300, or {"minutes": null}')
    minutes = body["minutes"]
    if minutes is None:
        return None
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not lo <= minutes <= hi:
        raise bad_request(
            f"'minutes' must be an integer from {lo} to {hi}, or null to stop the clock"
        )
    return minutes


def set_clock(events: Events, live: LiveEvent, minutes: int | None) -> None:
    """Start (``minutes``) or stop (None) the clock of the round drawn last, stored first:
    when the store refuses, the event keeps the clock it had."""
    ev = live.ev
    if minutes is not None:
        if ev.is_over:
            raise conflict("the event is over")
        if not ev.rounds:
            raise conflict("no round has been drawn yet: draw one before starting its clock")
    old = live.settings.clock
    now = round(events.hub.clock.time(), 3)
    live.settings.clock = (
        None if minutes is None else {"round": len(ev.rounds), "started": now, "minutes": minutes}
    )
    try:
        events.store.save_event_settings(
            live.code, asdict(live.settings), events.hub.fence(live.code)
        )
    except Exception as e:
        live.settings.clock = old
        log.error("event %s: the store refused the clock: %s", live.code, e)
        raise Unavailable(f"the store refused the change ({type(e).__name__})") from None


# ---------------------------------------------------------------------------------- QR
def public_url(request: Request, code: str) -> str:
    """The event's public page on the host this request came to (400 for a host that is not
    a plain name or address: nothing else is ever encoded)."""
    base = str(request.base_url)
    if len(base) > 300 or not _BASE.fullmatch(base):
        raise bad_request("this server's address cannot be put in a QR code")
    return f"{base}e/{code}"


def qr_svg(text: str) -> bytes:
    """A QR code of ``text`` as SVG: black on white, the quiet zone of four modules the
    standard asks, sized by its viewBox so that the page scales it."""
    qr = segno.make(text, error="m")
    out = io.BytesIO()
    qr.save(
        out,
        kind="svg",
        xmldecl=False,
        omitsize=True,
        border=4,
        dark="#000",
        light="#fff",
        title=text,
    )
    return out.getvalue()


# ---------------------------------------------------------------------------------- list
class EventList:
    """The public list of events, newest first: what their public pages show already (never
    a key, a seed or a setting). An event's line is made again only when its stored data
    changed, so asking often costs two small queries."""

    def __init__(self, events: Events) -> None:
        self.events = events
        self.lines: dict[str, tuple[float, dict[str, Any] | None]] = {}  # code → (updated, line)

    def newest(self, limit: int | None = None) -> list[dict[str, Any]]:
        heads = self.events.store.event_heads(LIST_SIZE if limit is None else limit)
        stale = [h.code for h in heads if self.lines.get(h.code, (None,))[0] != h.updated]
        for code, (updated, data) in self.events.store.event_data(stale).items():
            self.lines[code] = (updated, self._line(code, data))
        wanted = {h.code for h in heads}
        for code in [c for c in self.lines if c not in wanted]:  # bounded by the list
            del self.lines[code]
        out = []
        for h in heads:
            line = self.lines.get(h.code, (0.0, None))[1]
            if line is not None:
                out.append({**line, "created": round(h.created, 3)})
        return out

    @staticmethod
    def _line(code: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """An event's line, or None for data that no longer loads (logged, left out)."""
        try:
            ev = Event.from_dict(data)
        except (EventError, TypeError, ValueError, KeyError) as e:
            log.error("event %s: not listed: %s", code, e)
            return None
        return {
            "code": code,
            "name": ev.name,
            "format": ev.format,
            "preset": ev.preset,
            "mode": ev.mode,
            "status": status_of(ev),
            "teams": len(ev.teams),
            "round": len(ev.rounds),
            "url": f"/e/{code}",
        }


# ---------------------------------------------------------------------------------- HTTP
def routes(events: Events) -> list[Route]:
    """The round clock, the QR code and the list (the wall and list pages are the app's)."""
    listing = EventList(events)

    async def clock(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        set_clock(events, live, parse_minutes(await read_json(request)))
        now = round(events.hub.clock.time(), 3)
        return JSONResponse({"clock": round_clock(live), "now": now})

    async def qr(request: Request) -> Response:
        live = events.find(request)
        return Response(
            qr_svg(public_url(request, live.code)),
            media_type="image/svg+xml",
            headers={"cache-control": "public, max-age=3600", "vary": "host"},
        )

    async def newest(request: Request) -> Response:
        try:
            lines = listing.newest()
        except Exception:  # the store is away: say so, as the other event routes do
            log.exception("events: the list could not be read")
            raise ApiError(
                503, "unavailable", "the list of events cannot be read now, try again"
            ) from None
        return JSONResponse({"events": lines})

    base = "/api/events/{code}"
    return [
        Route("/api/events", guard(events, newest), methods=["GET"]),
        Route(base + "/clock", keyed(events, clock), methods=["POST"]),
        Route(base + "/qr.svg", guard(events, qr)),
    ]
