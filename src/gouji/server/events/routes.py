"""The events API's routes of an event and its organiser (docs/protocol.md, "Events"):
creating and showing an event, its seat links, teams, draws, closing, substitutes, the hand
records of a real-card round, the audit log and the referees. ``routes`` gathers the whole
API: these, the sheets (``events.sheets``), the seat links (``events.seat_links``), the wall
(``events.wall``) and the exports (``events.exports``); the pages are the app's.

Every organiser or referee POST/PUT/DELETE honours an ``Idempotency-Key`` (``guard.keyed``).
"""

from __future__ import annotations

from dataclasses import asdict

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.competition.boards import hand_records
from gouji.competition.event import MAX_TIE_GAMES, Event
from gouji.server.events import access as event_access
from gouji.server.events import exports, seat_links, sheets, wall
from gouji.server.events.access import Actor
from gouji.server.events.bodies import name_text, new_event, team_body
from gouji.server.events.guard import guard, keyed
from gouji.server.events.live import LiveEvent
from gouji.server.events.service import Events
from gouji.server.events.views import event_json
from gouji.server.plumbing.http import (
    ApiError,
    bad_request,
    conflict,
    fields,
    integer,
    not_found,
    read_json,
)
from gouji.server.plumbing.limits import is_local


def routes(events: Events) -> list[Route]:
    """Every route of the events API."""
    return [
        *event_routes(events),
        *sheets.routes(events),
        *seat_links.routes(events),
        *wall.routes(events),
        *exports.routes(events),
    ]


def event_routes(events: Events) -> list[Route]:
    """An event, and what its organiser does with it."""

    async def create(request: Request) -> Response:
        ip = request.client.host if request.client is not None else ""
        local = is_local(ip)
        if not local and not events.hub.created.allow(ip):
            most = events.hub.limits.rooms_per_ip_per_hour
            raise ApiError(429, "rate_limited", f"at most {most} rooms or events an hour")
        now = events.hub.clock.time()
        ev, settings = new_event(await read_json(request), local, now)
        live, key = events.create(ev, settings, local)
        code = live.code
        return JSONResponse(
            {"code": code, "url": f"/e/{code}", "admin_url": f"/e/{code}/admin", "key": key},
            status_code=201,
        )

    async def show(request: Request) -> Response:
        now = round(events.hub.clock.time(), 3)  # the pages' countdowns read the server's time
        return JSONResponse({**event_json(events.find(request)), "now": now})

    async def links(request: Request) -> Response:
        live = events.find(request)
        key = events.organiser(request, live)
        return JSONResponse(events.links(live, key))

    # ------------------------------------------------------------------ the organiser's
    async def add_team(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        body = team_body(await read_json(request), live.settings.bot)
        if live.ev.rounds:
            raise conflict("registration is closed: the first round has been drawn")
        team = events.act(live, body.add, Actor("organiser"))
        return JSONResponse(asdict(team), status_code=201)

    async def remove_team(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        name = str(request.path_params["name"])
        if live.ev.rounds:
            raise conflict("registration is closed: the first round has been drawn")
        if not any(t.name == name for t in live.ev.teams):
            raise not_found(f"no team named {name[:40]!a}")
        events.act(live, lambda ev: ev.remove_team(name), Actor("organiser"))
        return JSONResponse({"removed": name})

    async def draw(request: Request, live: LiveEvent) -> Response:
        key = events.organiser(request, live)
        fields(await read_json(request), (), ())
        ip = request.client.host if request.client is not None else None
        return JSONResponse(events.draw(live, key, ip), status_code=201)

    async def close(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        fields(await read_json(request), (), ())
        if live.ev.closed:
            raise conflict("the event is closed already")
        events.act(live, lambda ev: ev.close(), Actor("organiser"))
        events.steer(live, everything=True)
        return JSONResponse(event_json(live))

    async def substitute(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        name = str(request.path_params["name"])
        b = fields(await read_json(request), ("out", "in"), ())
        out, sub = name_text(b["out"], "'out'"), name_text(b["in"], "'in'")
        if not any(t.name == name for t in live.ev.teams):
            raise not_found(f"no team named {name[:40]!a}")
        entry = events.act(live, lambda ev: ev.substitute(name, out, sub), Actor("organiser"))
        return JSONResponse(entry)

    async def boards(request: Request) -> Response:
        """Hand records of a round's matches for real cards (organiser only: they are the
        deals), with boards for the extra games a knockout tie may need (R17.3)."""
        live = events.find(request)
        events.organiser(request, live)
        ev = live.ev
        if ev.mode != "paper":
            raise conflict("an online event's tables are dealt by the server")
        raw = request.query_params.get("round", str(len(ev.rounds)))
        if not raw.isdigit() or not 1 <= int(raw) <= len(ev.rounds):
            raise bad_request(f"'round' is a drawn round, 1…{len(ev.rounds)}")
        rnd = ev.rounds[int(raw) - 1]
        extra = MAX_TIE_GAMES if ev.format == "knockout" else 0
        out = []
        for m in rnd.matches:
            if m.is_bye or m.walkover:  # no game is played there
                continue
            boards = hand_records(ev.rules, m.tables[0].seed, ev.games + extra)
            for b in boards:
                b["extra"] = b["game"] >= ev.games
            out.append({"match": m.id, "tables": [t.id for t in m.tables], "boards": boards})
        return JSONResponse({"round": rnd.number, "matches": out})

    # ------------------------------------------------------------------ the log, referees
    async def audit_log(request: Request) -> Response:
        live = events.find(request)
        events.organiser(request, live)
        return JSONResponse(live.ev.log)

    async def access(request: Request) -> Response:
        live = events.find(request)
        return JSONResponse(events.actor(request, live).as_dict())

    async def referees(request: Request) -> Response:
        live = events.find(request)
        events.organiser(request, live)
        return JSONResponse([event_access.public(r) for r in live.settings.referees])

    async def add_referee(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        b = fields(await read_json(request), ("name",), ("matches",))
        name = name_text(b["name"], "a referee's name")
        matches = b.get("matches")
        if matches is not None:
            if not isinstance(matches, list) or not 1 <= len(matches) <= 64:
                raise bad_request(
                    "'matches' lists match numbers 1… (the same in every round), or null"
                )
            matches = sorted({integer(x, "matches", 1, 9999) for x in matches})
        now = events.hub.clock.time()
        try:
            entry, key = event_access.new_referee(live.settings.referees, name, matches, now)
        except ValueError as e:
            raise conflict(str(e)) from None

        def issue(ev: Event) -> None:
            live.settings.referees.append(entry)
            ev.note("referee", after=event_access.public(entry))

        events.act(live, issue, Actor("organiser"))
        return JSONResponse(
            {
                **event_access.public(entry),
                "key": key,
                "url": f"/e/{live.code}/admin#key={key}",
            },
            status_code=201,
        )

    async def revoke_referee(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        rid = str(request.path_params["id"])
        entry = next((r for r in live.settings.referees if r["id"] == rid), None)
        if entry is None:
            raise not_found(f"no referee {rid[:20]!a}")
        if entry["revoked"]:
            raise conflict(f"referee {entry['name']}'s key is revoked already")
        now = round(events.hub.clock.time(), 3)

        def revoke(ev: Event) -> None:
            assert entry is not None
            entry["revoked"] = now
            ev.note("revoke_referee", after=event_access.public(entry))

        events.act(live, revoke, Actor("organiser"))
        return JSONResponse(event_access.public(entry))

    base = "/api/events/{code}"
    return [
        Route("/api/events", guard(events, create), methods=["POST"]),
        Route(base, guard(events, show)),
        Route(base + "/links", guard(events, links)),
        Route(base + "/teams", keyed(events, add_team), methods=["POST"]),
        Route(base + "/teams/{name}", keyed(events, remove_team), methods=["DELETE"]),
        Route(base + "/rounds", keyed(events, draw), methods=["POST"]),
        Route(base + "/close", keyed(events, close), methods=["POST"]),
        Route(base + "/teams/{name}/substitute", keyed(events, substitute), methods=["POST"]),
        Route(base + "/log", guard(events, audit_log)),
        Route(base + "/boards", guard(events, boards)),
        Route(base + "/access", guard(events, access)),
        Route(base + "/referees", guard(events, referees)),
        Route(base + "/referees", keyed(events, add_referee), methods=["POST"]),
        Route(base + "/referees/{id}", keyed(events, revoke_referee), methods=["DELETE"]),
    ]
