"""The organiser's and referees' changes to an event over HTTP: teams, draws, sheets entered,
corrected and voided, sanctions (for a named game too), walkovers, substitutes, closing, the
audit log, and the referees who may enter results at their matches (``event_access``). Every
organiser or referee POST/PUT/DELETE here honours an ``Idempotency-Key``: the same key again
answers as the first time and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.competition.boards import hand_records
from gouji.competition.event import MAX_TIE_GAMES, Event, EventError
from gouji.server.events import access as event_access
from gouji.server.events.access import Actor, idempotency_key
from gouji.server.events.service import (
    MAX_BURNS,
    EventApiError,
    Events,
    LiveEvent,
    _article,
    _fields,
    _int,
    _seats,
    _team_body,
    _text,
    bad,
    conflict,
    error_response,
    event_json,
    guard,
    not_found,
    read_body,
    rebuild,
)
from gouji.server.tables.protocol import SEATS

log = logging.getLogger("gouji.server")

_MATCH = re.compile(r"r[0-9]{1,3}m[0-9]{1,4}")
Write = Callable[[Request, LiveEvent], Awaitable[Response]]


def sheet_body(b: dict[str, Any]) -> dict[str, Any]:
    """A referee's sheet: places by seat (0…5), 不开点, 闷 and burns, checked as the
    network's input (the event scores and checks it against the rules)."""
    places = b["places"]
    if not isinstance(places, list) or len(places) != SEATS:
        raise bad("'places' gives each seat (0…5) its place 1…6")
    for p in places:
        _int(p, "places", 1, SEATS)
    burns = b.get("burns") or []
    if not isinstance(burns, list) or len(burns) > MAX_BURNS:
        raise bad(f"'burns' is a list of at most {MAX_BURNS} [burner, victim] pairs")
    for pair in burns:
        if not isinstance(pair, list) or len(_seats(pair, "burns", 2)) != 2:
            raise bad("a burn is [burner, victim]")
    return {
        "places": places,
        "not_opened": _seats(b.get("not_opened"), "not_opened"),
        "men": _seats(b.get("men"), "men"),
        "burns": burns,
    }


def penalties_body(value: object) -> list[dict[str, Any]]:
    """The sheet's 罚分 column: ``[{"seat", "points" (negative), "article"}]``, each a penalty
    sanction counted in the sheet's game (R17.6)."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > SEATS:
        raise bad(f"'penalties' is a list of at most {SEATS} penalties")
    out = []
    for p in value:
        b = _fields(p, ("seat",), ("points", "article"))
        points = -2 if b.get("points") is None else _int(b["points"], "points", -100, -1)
        out.append(
            {"seat": _int(b["seat"], "seat", 0, SEATS - 1), "points": points,
             "article": _article(b.get("article"))}
        )  # fmt: skip
    return out


def keyed(events: Events, fn: Write) -> Callable[[Request], Awaitable[Response]]:
    """Find the event, then answer a keyed request once (D81): a repeat gets the first answer
    (errors too, but a server failure may be tried again), a repeat sent while the first is
    still being answered waits for it, the key on another request is 422."""

    async def run(request: Request) -> Response:
        live = events.find(request)
        try:
            key = idempotency_key(request)
        except ValueError as e:
            raise bad(str(e)) from None
        if key is None:
            return await fn(request, live)
        method, path = request.method, request.url.path
        running = live.running.get(key)
        if running is not None:
            await asyncio.shield(running)
        try:
            reply = live.replies.find(key, method, path)
        except LookupError as e:
            raise EventApiError(422, "idempotency_key_reused", str(e)) from None
        if reply is not None:
            return Response(
                reply["body"],
                status_code=reply["status"],
                media_type="application/json",
                headers={"idempotent-replayed": "true"},
            )
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        live.running[key] = done
        try:
            try:
                response = await fn(request, live)
            except EventApiError as e:
                if e.status < 500:
                    _keep(events, live, key, method, path, error_response(e))
                raise
            _keep(events, live, key, method, path, response)
            return response
        finally:
            live.running.pop(key, None)
            done.set_result(None)

    return guard(events, run)


def _keep(
    events: Events, live: LiveEvent, key: str, method: str, path: str, response: Response
) -> None:
    live.replies.keep(key, method, path, response.status_code, bytes(response.body))
    try:
        events.store.save_event_settings(
            live.code, asdict(live.settings), events.hub.fence(live.code)
        )
    except Exception as e:  # the change itself is stored: only a replay is at stake
        log.warning("event %s: an idempotent answer was not stored: %s", live.code, e)


def routes(events: Events) -> list[Route]:
    """Routes of the event's record (docs/protocol.md, "Events")."""

    def game_of(request: Request) -> int:
        raw = str(request.path_params["game"])
        if not raw.isdigit() or len(raw) > 4:
            raise not_found(f"no game {raw[:10]!a}: games are numbered from 0")
        return int(raw)

    def changed(live: LiveEvent, fn: Callable[[Event], Any], who: Actor) -> Any:
        try:
            return events.change(live, fn, by=who.label)
        except EventError as e:
            raise bad(str(e)) from None

    # ------------------------------------------------------------------ the organiser's
    async def add_team(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        body = _team_body(await read_body(request), live.settings.bot)
        if live.ev.rounds:
            raise conflict("registration is closed: the first round has been drawn")
        team = changed(live, body.add, Actor("organiser"))
        return JSONResponse(asdict(team), status_code=201)

    async def remove_team(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        name = str(request.path_params["name"])
        if live.ev.rounds:
            raise conflict("registration is closed: the first round has been drawn")
        if not any(t.name == name for t in live.ev.teams):
            raise not_found(f"no team named {name[:40]!a}")
        changed(live, lambda ev: ev.remove_team(name), Actor("organiser"))
        return JSONResponse({"removed": name})

    async def draw(request: Request, live: LiveEvent) -> Response:
        key = events.organiser(request, live)
        _fields(await read_body(request), (), ())
        ip = request.client.host if request.client is not None else None
        return JSONResponse(events.draw(live, key, ip), status_code=201)

    async def close(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        _fields(await read_body(request), (), ())
        if live.ev.closed:
            raise conflict("the event is closed already")
        changed(live, lambda ev: ev.close(), Actor("organiser"))
        events.steer(live, everything=True)
        return JSONResponse(event_json(live))

    # ------------------------------------------------------------------ sheets
    async def sheet(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        b = _fields(
            await read_body(request),
            ("game", "places"),
            ("not_opened", "men", "burns", "penalties"),
        )
        game = _int(b["game"], "game", 0, 1000)
        entry = sheet_body(b)
        penalties = penalties_body(b.get("penalties"))
        if live.ev.mode != "paper":
            raise conflict("an online table's results come from its room")
        events.check_playing(live, m, t)
        if game < len(t.games):
            raise conflict(f"table {t.id} already has a result for game {game + 1}")

        def register(ev: Event) -> None:
            ev.record_sheet(t.id, game, entry)
            for p in penalties:  # the sheet's 罚分 column, in the same change
                ev.sanction(t.id, "penalty", p["seat"], points=p["points"],
                            article=p["article"], game=game)  # fmt: skip

        changed(live, register, who)
        events.steer(live)
        return JSONResponse(events.table_now(live, t.id), status_code=201)

    async def preview(request: Request) -> Response:
        """What a sheet would give, before it is registered (or a correction, with
        ``"correct": true``): the page shows it and asks to confirm. Computed on a copy of the
        event as stored, with the very checks the real call makes; nothing is kept."""
        live = events.find(request)
        m, t = events.table_of(live, request)
        events.actor(request, live, t.id)
        b = _fields(
            await read_body(request),
            ("game", "places"),
            ("not_opened", "men", "burns", "penalties", "correct"),
        )
        game = _int(b["game"], "game", 0, 1000)
        entry = sheet_body(b)
        penalties = penalties_body(b.get("penalties"))
        correcting = b.get("correct") is True
        events.check_playing(live, m, t, decided_ok=correcting)
        ev = rebuild(live.saved)
        try:
            if correcting:
                ev.correct_sheet(t.id, game, entry)
            else:
                ev.record_sheet(t.id, game, entry)
                for p in penalties:
                    ev.sanction(t.id, "penalty", p["seat"], points=p["points"],
                                article=p["article"], game=game)  # fmt: skip
        except EventError as e:
            raise bad(str(e)) from None
        pm, pt = ev.table(t.id)
        g = pt.games[game]
        a, b_ = (ev.teams[i].name if i is not None else None for i in pm.teams)
        return JSONResponse(
            {
                "game": game,
                "places": g["places"],
                "team_scores": g["team_scores"],
                "penalties": g["penalties"],
                "match": {
                    "teams": [a, b_],
                    "totals": list(ev.match_totals(pm)),
                    "done": pm.done,
                    "winner": None if pm.winner is None else ev.teams[pm.winner].name,
                    "by_lot": pm.by_lot,
                    "needed": pm.needed,
                },
            }
        )

    async def correct(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        game = game_of(request)
        entry = sheet_body(
            _fields(await read_body(request), ("places",), ("not_opened", "men", "burns"))
        )
        events.check_playing(live, m, t, decided_ok=True)
        changed(live, lambda ev: ev.correct_sheet(t.id, game, entry), who)
        events.steer(live)
        return JSONResponse(events.table_now(live, t.id))

    async def void(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        game = game_of(request)
        events.check_playing(live, m, t, decided_ok=True)
        changed(live, lambda ev: ev.void_game(t.id, game), who)
        events.steer(live)
        return JSONResponse(events.table_now(live, t.id))

    # ------------------------------------------------------------------ sanctions and more
    async def sanction(request: Request, live: LiveEvent) -> Response:
        m, t = events.table_of(live, request)
        who = events.actor(request, live, t.id)
        entry = await events.sanction(live, m, t, await read_body(request), who.label)
        return JSONResponse(entry, status_code=201)

    async def walkover(request: Request, live: LiveEvent) -> Response:
        mid = str(request.path_params["match"])
        if not _MATCH.fullmatch(mid):
            raise not_found(f"no match {mid[:20]!a}")
        who = events.actor(request, live, mid)
        b = _fields(await read_body(request), ("absent",), ())
        absent = b["absent"]
        if not isinstance(absent, list) or not 1 <= len(absent) <= 2:
            raise bad("'absent' names the team (or both teams) that did not come")
        names = [_text(n, "an absent team") for n in absent]
        changed(live, lambda ev: ev.walkover(mid, names), who)
        events.steer(live)
        return JSONResponse(event_json(live))

    async def substitute(request: Request, live: LiveEvent) -> Response:
        events.organiser(request, live)
        name = str(request.path_params["name"])
        b = _fields(await read_body(request), ("out", "in"), ())
        out, sub = _text(b["out"], "'out'"), _text(b["in"], "'in'")
        if not any(t.name == name for t in live.ev.teams):
            raise not_found(f"no team named {name[:40]!a}")
        entry = changed(live, lambda ev: ev.substitute(name, out, sub), Actor("organiser"))
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
            raise bad(f"'round' is a drawn round, 1…{len(ev.rounds)}")
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
        b = _fields(await read_body(request), ("name",), ("matches",))
        name = _text(b["name"], "a referee's name")
        matches = b.get("matches")
        if matches is not None:
            if not isinstance(matches, list) or not 1 <= len(matches) <= 64:
                raise bad("'matches' lists match numbers 1… (the same in every round), or null")
            matches = sorted({_int(x, "matches", 1, 9999) for x in matches})
        now = events.hub.clock.time()
        try:
            entry, key = event_access.new_referee(live.settings.referees, name, matches, now)
        except ValueError as e:
            raise conflict(str(e)) from None

        def issue(ev: Event) -> None:
            live.settings.referees.append(entry)
            ev.note("referee", after=event_access.public(entry))

        changed(live, issue, Actor("organiser"))
        return JSONResponse(
            {**event_access.public(entry), "key": key, "url": f"/e/{live.code}/admin#key={key}"},
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

        changed(live, revoke, Actor("organiser"))
        return JSONResponse(event_access.public(entry))

    base = "/api/events/{code}"
    table = base + "/tables/{table}"
    return [
        Route(base + "/teams", keyed(events, add_team), methods=["POST"]),
        Route(base + "/teams/{name}", keyed(events, remove_team), methods=["DELETE"]),
        Route(base + "/rounds", keyed(events, draw), methods=["POST"]),
        Route(base + "/close", keyed(events, close), methods=["POST"]),
        Route(table + "/games", keyed(events, sheet), methods=["POST"]),
        Route(table + "/games/preview", guard(events, preview), methods=["POST"]),
        Route(table + "/games/{game}", keyed(events, correct), methods=["PUT"]),
        Route(table + "/games/{game}", keyed(events, void), methods=["DELETE"]),
        Route(table + "/sanctions", keyed(events, sanction), methods=["POST"]),
        Route(base + "/matches/{match}/walkover", keyed(events, walkover), methods=["POST"]),
        Route(base + "/teams/{name}/substitute", keyed(events, substitute), methods=["POST"]),
        Route(base + "/log", guard(events, audit_log)),
        Route(base + "/boards", guard(events, boards)),
        Route(base + "/access", guard(events, access)),
        Route(base + "/referees", guard(events, referees)),
        Route(base + "/referees", keyed(events, add_referee), methods=["POST"]),
        Route(base + "/referees/{id}", keyed(events, revoke_referee), methods=["DELETE"]),
    ]


__all__ = ["routes", "sheet_body"]
