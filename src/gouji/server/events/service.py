"""The events (competitions) a server holds: each kept in memory as a ``LiveEvent``, stored
first (``Events.change``), played at online tables in rooms of the hub (docs/protocol.md,
"Events"; the HTTP routes are ``events.routes`` and ``events.sheets``).

An event lives in memory as ``gouji.competition.Event`` and in the store as one row (its
``to_dict()``). Every change is made in memory, stored, and only then answered; when the store
refuses, the event is rebuilt from the last stored dict (``LiveEvent.saved``), so memory never
holds what the store does not. An online event plays each table in a room of the hub: the
room tells the event after every change (``Room.listener``), finished games flow into
``Event.record_result``, and the event tells the rooms how many games they may start and when
their match is decided (``Room.allowed_games``, ``Room.halted``).

The organiser holds a bearer key (``tokens.new_token``; only its hash is stored). The seat
invitations of online tables are derived from it (an HMAC of the room and seat, ``invite``),
so the organiser can list them again while the server keeps only their hashes.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any, TypeVar

from starlette.requests import Request

from gouji.competition.event import Event, EventError, Match, Table
from gouji.competition.play import MATCH_GAMES
from gouji.engine.referee.game import AFTER_GAME_SANCTIONS
from gouji.server.events.access import Actor, referee_by_key
from gouji.server.events.bodies import SanctionBody
from gouji.server.events.live import LiveEvent, Settings, Unavailable, invite, rebuild
from gouji.server.events.store import EventStore, NewRoom, StoredEvent, put_event
from gouji.server.events.views import table_json
from gouji.server.plumbing import tokens
from gouji.server.plumbing.http import ApiError, bad_request, conflict, not_found
from gouji.server.plumbing.limits import is_local
from gouji.server.tables.hub import CODE_ALPHABET, CODE_LENGTH, PROBING, UNKNOWN_CODES, Hub
from gouji.server.tables.protocol import SEATS, RoomConfig
from gouji.server.tables.room import Room, StoreFailed

log = logging.getLogger("gouji.server")

T = TypeVar("T")
_CODE = re.compile(r"[A-Za-z0-9]{1,16}")
_TABLE = re.compile(r"r[0-9]{1,3}m[0-9]{1,4}t[12]")
_BEARER = re.compile(r"Bearer ([A-Za-z0-9_-]{1,100})")
RETRY_S = 1.0  # a result the store refused is tried again after this long


class Events:
    """Every event of one server, with the hub whose rooms play the online tables."""

    def __init__(self, store: EventStore, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self.events: dict[str, LiveEvent] = {}
        self.locate: Callable[[str], bool] | None = None  # the site: an event held elsewhere
        hub.deal_public = self.public_games  # a duplicate deal stays with its seats (D74)

    # ------------------------------------------------------------------ store first
    def change(
        self,
        live: LiveEvent,
        fn: Callable[[Event], T],
        rooms: Callable[[Event], Sequence[NewRoom]] | None = None,
        by: str | None = None,
    ) -> T:
        """Apply ``fn`` (and make ``rooms`` for it) as done ``by`` someone (the audit log's
        "who"), store the event with its settings, answer ``fn``'s value; on any failure the
        event and its settings go back to what the store holds."""
        settings = copy.deepcopy(live.settings)
        try:
            with live.ev.acting(by, round(self.hub.clock.time(), 3)):
                out = fn(live.ev)
            new_rooms = rooms(live.ev) if rooms is not None else ()
            data = live.ev.to_dict()
        except BaseException:
            live.ev, live.settings = rebuild(live.saved), settings
            raise
        try:
            self.store.save_event(
                live.code,
                data,
                new_rooms,
                self.hub.fence(live.code),
                asdict(live.settings),
            )
        except Exception as e:
            live.ev, live.settings = rebuild(live.saved), settings
            log.error("event %s: the store refused a change: %s", live.code, e)
            raise Unavailable(f"the store refused the change ({type(e).__name__})") from None
        live.saved = data
        return out

    def act(self, live: LiveEvent, fn: Callable[[Event], T], who: Actor) -> T:
        """A change by the organiser or a referee (``change``); what the event refuses
        (``EventError``) is a 400 with its text."""
        try:
            return self.change(live, fn, by=who.label)
        except EventError as e:
            raise bad_request(str(e)) from None

    # ------------------------------------------------------------------ start-up
    def load(self, homes: Sequence[str] | None = None) -> None:
        """Rebuild the stored events (of ``homes``: a take-over) and reattach their rooms (a
        restart); results played before the restart but not yet in the event are taken in."""
        loaded = []
        for stored in self.store.load_events(homes):
            if stored.code in self.events:
                continue
            try:
                live = self._live(stored)
            except (EventError, TypeError, ValueError, KeyError) as e:
                log.error("event %s: not loaded: %s", stored.code, e)
                continue
            self.events[live.code] = live
            loaded.append(live)
        for live in loaded:
            try:
                self.attach(live)
            except Exception:  # one event's trouble stays with it: the others still load
                log.exception("event %s: its tables could not be reattached", live.code)
        playing = {t.room for live in self.events.values() for t in self._tables(live.ev)}
        for room in self.hub.rooms.values():  # a table whose event is gone plays no more
            if homes is not None and room.home not in homes:
                continue
            if room.config.event is not None and room.code not in playing:
                room.halted = room.halted or "closed"

    @staticmethod
    def _tables(ev: Event) -> list[Table]:
        return [t for m in ev.matches() for t in m.tables]

    @staticmethod
    def _live(stored: StoredEvent) -> LiveEvent:
        known = {k: v for k, v in stored.settings.items() if k in Settings.__dataclass_fields__}
        ev = rebuild(stored.data)
        return LiveEvent(
            stored.code, stored.key, Settings(**known), ev, stored.data, stored.created
        )

    def attach(self, live: LiveEvent) -> None:
        for t in self._tables(live.ev):
            room = self.hub.get(t.room) if t.room else None
            if room is not None:
                room.listener = self._listener(live.code, t.id)
        self.sync(live)

    def _listener(self, code: str, table_id: str) -> Callable[[Room], None]:
        def told(room: Room) -> None:
            live = self.events.get(code)
            if live is not None:
                self.sync(live, only=table_id)

        return told

    def public_games(self, room: Room) -> int | None:
        """How many of a table's games, from the first, anyone outside their seats may see
        (None: all): ``Event.deal_public`` counted — at a duplicate event those every table
        of the match has finished; everything once the match is decided or the event closed
        (nobody plays the deal any more). A table whose event is not here shows none."""
        ref = room.config.event
        if ref is None:
            return None
        live = self.events.get(str(ref["code"]))
        if live is None:
            return 0
        ev, tid = live.ev, str(ref["table"])
        if not ev.duplicate or ev.closed:
            return None
        cur = ev.current.matches if ev.current is not None else []  # where tables play
        m = next((m for m in cur if any(t.id == tid for t in m.tables)), None)
        if m is None:
            try:
                m, _ = ev.table(tid)
            except EventError:
                return 0
        return None if m.done else min(len(t.games) for t in m.tables)

    # ------------------------------------------------------------------ results
    def sync(self, live: LiveEvent, only: str | None = None) -> None:
        """Take the finished games of the event's rooms (``only`` one table's: a room that
        changed) into the event, store first; then, if the event changed or ``only`` is None,
        tell the rooms what the event now wants of them."""
        ev = live.ev
        cur = ev.current
        taken = False
        if cur is not None and not ev.closed:
            for m in cur.matches:
                for t in m.tables:
                    if t.room and (only is None or t.id == only) and not m.done:
                        taken = self._take_results(live, t.id, t.room) or taken
        if taken or only is None:
            self.steer(live, everything=only is None)

    def _take_results(self, live: LiveEvent, table_id: str, code: str) -> bool:
        """Whether the event took new results from the room."""
        room = self.hub.get(code)
        rm = room.match if room is not None else None
        if rm is None:
            return False
        # a game counts once its between-games questions are answered (R16.6 swaps places)
        final = len(rm.results) - (1 if rm.game.is_over and rm.to_act is not None else 0)
        m, t = live.ev.table(table_id)
        upto = min(final, m.needed)
        if upto <= len(t.games):
            return False
        results = [rm.results[i] for i in range(len(t.games), upto)]

        def record(ev: Event) -> None:
            _, table = ev.table(table_id)
            for res in results:
                ev.record_result(table_id, len(table.games), res)

        try:
            self.change(live, record, by="table")
        except EventError as e:  # the engine's result refused: logged, the table waits
            log.error("event %s, table %s: a result was refused: %s", live.code, table_id, e)
        except Unavailable:
            self._retry_later(live)
        else:
            for other in m.tables:  # a duplicate deal may be public now: show it (D74)
                shown = self.hub.get(other.room) if other.room else None
                if shown is not None:
                    shown.push_all()
            return True
        return False

    def _retry_later(self, live: LiveEvent) -> None:
        if live.retry:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # at start-up: the next change of the room tries again
        live.retry = True

        def again() -> None:
            live.retry = False
            if self.events.get(live.code) is live:
                self.sync(live)

        loop.call_later(self.hub.clock.wall(RETRY_S), again)

    def steer(self, live: LiveEvent, everything: bool = False) -> None:
        """Each room of the event learns how many games it may start and whether its match
        is over; a room whose state changed is told at once."""
        ev = live.ev
        rounds = ev.rounds if everything or ev.closed else ev.rounds[-1:]
        for r in rounds:
            for m in r.matches:
                for t in m.tables:
                    room = self.hub.get(t.room) if t.room else None
                    if room is None:
                        continue
                    halted = "decided" if m.done else ("closed" if ev.closed else None)
                    allowed = ev.allowed(m, t)  # sequential duplicate: after table 1's game
                    if (room.allowed_games, room.halted) != (allowed, halted):
                        room.allowed_games, room.halted = allowed, halted
                        room.changed.set()
                        room.push_all()

    # ------------------------------------------------------------------ lookups
    def find(self, request: Request) -> LiveEvent:
        code = str(request.path_params["code"])
        ip = request.client.host if request.client is not None else ""
        if self.hub.unknown.refused(ip, code):  # only unknown codes count (plumbing.probes)
            raise ApiError(429, "rate_limited", PROBING)
        live = self.events.get(code.strip().upper()) if _CODE.fullmatch(code) else None
        if live is None and _CODE.fullmatch(code) and self.locate is not None:
            code = code.strip().upper()
            live = self.events.get(code) if self.locate(code) else None  # or raises Moved
        if live is None:
            if not self.hub.unknown.count(ip):
                raise ApiError(429, "rate_limited", UNKNOWN_CODES)
            raise not_found(f"no event {code[:20]!a}")
        self.hub.unknown.found(ip, live.code)  # still found past the ceiling (D182)
        return live

    @staticmethod
    def organiser(request: Request, live: LiveEvent) -> str:
        """The organiser key of the request (403 unless it is this event's)."""
        m = _BEARER.fullmatch(request.headers.get("authorization", ""))
        if m is None:
            raise ApiError(403, "forbidden", "the organiser key is needed: Bearer <key>")
        if not tokens.matches(m.group(1), live.key):
            raise ApiError(403, "forbidden", "this is not the organiser key of the event")
        return m.group(1)

    @staticmethod
    def actor(request: Request, live: LiveEvent, where: str | None = None) -> Actor:
        """The organiser, or a referee of the event whose matches include ``where`` (a
        table or match id); 403 otherwise."""
        m = _BEARER.fullmatch(request.headers.get("authorization", ""))
        if m is None:
            raise ApiError(
                403,
                "forbidden",
                "the organiser or a referee key is needed: Bearer <key>",
            )
        if tokens.matches(m.group(1), live.key):
            return Actor("organiser")
        who = referee_by_key(live.settings.referees, m.group(1))
        if who is None:
            raise ApiError(403, "forbidden", "this is not a key of the event")
        if where is not None and not who.covers(where):
            raise ApiError(403, "forbidden", f"referee {who.name} does not referee {where}")
        return who

    @staticmethod
    def table_of(live: LiveEvent, request: Request) -> tuple[Match, Table]:
        tid = str(request.path_params["table"])
        if not _TABLE.fullmatch(tid):
            raise not_found(f"no table {tid[:20]!a}")
        try:
            return live.ev.table(tid)
        except EventError:
            raise not_found(f"no table {tid!a} in event {live.code}") from None

    @staticmethod
    def check_playing(live: LiveEvent, m: Match, t: Table, decided_ok: bool = False) -> None:
        """409 unless the table is in the current round (until the next is drawn) and, unless
        ``decided_ok`` (a correction), its match still open."""
        ev = live.ev
        if ev.closed:
            raise conflict("the event is closed")
        cur = ev.current
        if cur is None or m not in cur.matches:
            raise conflict(
                f"table {t.id} belongs to an earlier round: its results stand once the next "
                "round is drawn"
            )
        if m.done and not decided_ok:
            raise conflict(f"the match of table {t.id} is decided")

    # ------------------------------------------------------------------ creation
    def create(self, ev: Event, settings: Settings, local: bool = True) -> tuple[LiveEvent, str]:
        """A new event (``bodies.new_event``), stored; its live state and the organiser key
        (shown once: only its hash is kept). An event made from afar (not ``local``) is
        bounded as all-bot rooms are."""
        if not local:  # bounded as all-bot rooms are: a round must fit an hour's rooms
            bots = sum(1 for t in ev.teams if t.bot is not None)
            most, tables = self.hub.limits.rooms_per_ip_per_hour, 2 if ev.duplicate else 1
            if bots // 2 * tables > most:
                raise bad_request(
                    f"{bots} bot teams could make {bots // 2 * tables} all-bot tables in one "
                    f"round; from another machine than the server's an event starts at most "
                    f"{most} an hour, as all-bot rooms: register fewer bot teams, or create "
                    "the event on the server's machine"
                )
        key = tokens.new_token()
        code = self._new_code()
        data = ev.to_dict()
        try:
            created = self.store.create_event(
                code,
                tokens.token_hash(key),
                asdict(settings),
                data,
                self.hub.fence(code),
            )
        except Exception as e:
            log.error("event %s: the store refused it: %s", code, e)
            raise Unavailable(f"the store refused the event ({type(e).__name__})") from None
        live = LiveEvent(code, tokens.token_hash(key), settings, ev, data, created)
        self.events[code] = live
        return live, key

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.events and self.store.lease(code) is None:
                return code

    # ------------------------------------------------------------------ rounds
    def draw(self, live: LiveEvent, key: str, ip: str | None = None) -> dict[str, Any]:
        """抽签: the next round; an online event gets one room per table, created in the
        same transaction as the round. An event made from afar counts its all-bot tables
        as rooms created from the drawing address ``ip`` (429 when they do not fit)."""
        ev = live.ev
        if ev.is_over:
            raise conflict("the event is over")
        if ev.current is not None and not all(m.done for m in ev.current.matches):
            raise conflict(f"round {ev.current.number} is still being played")
        if len(ev.teams) < 2:
            raise conflict("an event needs two teams or more: register them first")
        configs: dict[str, RoomConfig] = {}

        def rooms(ev: Event) -> list[NewRoom]:
            out = []
            taken = set(self.hub.rooms)
            for t in (t for m in ev.rounds[-1].matches for t in m.tables):
                code = self.hub.new_code()
                while code in taken:
                    code = self.hub.new_code()
                taken.add(code)
                t.room = code
                configs[code] = self._room_config(live, t, key, code)
                out.append(NewRoom(code, configs[code].as_dict(), t.seed))
            bots = sum(1 for c in configs.values() if c.bots >= SEATS)
            far = live.settings.remote and ip is not None and not is_local(ip)
            if bots and far and not self.hub.created.take(str(ip), bots):
                most = self.hub.limits.rooms_per_ip_per_hour
                raise ApiError(
                    429,
                    "rate_limited",
                    f"this round would start {bots} all-bot tables; from your address at most "
                    f"{most} rooms or all-bot tables start an hour: draw it later",
                )
            return out

        try:
            rnd = self.change(
                live,
                lambda ev: ev.draw_round(),
                rooms if ev.mode == "online" else None,
                by="organiser",
            )
        except EventError as e:
            raise bad_request(str(e)) from None
        links: dict[str, list[str | None]] = {}
        for m in rnd.matches:
            for t in m.tables:
                if t.room is None:
                    continue
                now = self.hub.clock.time()
                room = Room(t.room, configs[t.room], t.seed, now, self.store, self.hub.clock)
                room.listener = self._listener(live.code, t.id)
                self.hub.add(room)
                links[t.id] = [
                    self._link(t.room, s, key) if s.get("invite") else None
                    for s in (configs[t.room].seating or [])
                ]
        self.steer(live)
        tables = [table_json(ev, rnd.number, m, t) for m in rnd.matches for t in m.tables]
        return {"round": rnd.number, "tables": tables, "seat_links": links}

    @staticmethod
    def _link(room: str, seat: dict[str, Any], key: str) -> str:
        """A seat link: the seat numbered 1…6 as people count (the API's 0…5 plus one)."""
        n = int(seat["seat"])
        return f"/r/{room}?seat={n + 1}&invite={invite(key, room, n, int(seat.get('gen', 0)))}"

    def _room_config(self, live: LiveEvent, t: Table, key: str, code: str) -> RoomConfig:
        """The room of an online table: the event's rules, its deal seed, its bots and timer;
        team A at seats 0, 2, 4 and team B at 1, 3, 5, each in the order of its players."""
        ev, st = live.ev, live.settings
        seating: list[dict[str, Any]] = []
        for seat in range(SEATS):
            team = ev.teams[t.teams[seat % 2]]
            player = ev.player_at(t, seat)
            if team.bot is not None:
                seating.append({"seat": seat, "name": player, "team": team.name, "bot": team.bot})
            else:
                h = tokens.token_hash(invite(key, code, seat))
                seating.append({"seat": seat, "name": player, "team": team.name, "invite": h})
        all_bots = all("bot" in s for s in seating)  # bounded in time, as all-bot rooms are
        remote_bots = all_bots and st.remote
        expires = self.hub.clock.time() + self.hub.limits.bot_room_s if remote_bots else None
        return RoomConfig(
            preset=ev.rules.preset,
            overrides=dict(ev.overrides),
            bots=sum(1 for s in seating if "bot" in s),
            bot=st.bot,
            timer_s=st.timer_s,
            games=MATCH_GAMES,  # the event decides when the table stops
            bot_delay_ms=st.bot_delay_ms,
            next_delay_ms=st.next_delay_ms,
            seat_takeover=False,
            fixed_deal=st.fixed_deal,
            expires=None if expires is None else round(expires, 3),
            event={"code": live.code, "table": t.id},
            seating=seating,
        )

    def links(self, live: LiveEvent, key: str) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        cur = live.ev.current
        if cur is None:
            return out
        for m in cur.matches:
            for t in m.tables:
                if t.room is None:
                    continue
                room = self.hub.get(t.room)
                seating = room.config.seating if room is not None else None
                out[t.id] = [
                    {
                        "seat": s["seat"],
                        "team": live.ev.teams[t.teams[s["seat"] % 2]].name,
                        "player": s["name"],
                        "url": self._link(t.room, s, key),
                    }
                    for s in seating or []
                    if s.get("invite")
                ]
        return out

    @staticmethod
    def table_now(live: LiveEvent, table_id: str) -> dict[str, Any]:
        """A table's JSON as the event holds it now."""
        for r in live.ev.rounds:
            for m in r.matches:
                for t in m.tables:
                    if t.id == table_id:
                        return table_json(live.ev, r.number, m, t)
        raise not_found(f"no table {table_id!a}")

    # ------------------------------------------------------------------ sanctions
    async def sanction(
        self, live: LiveEvent, m: Match, t: Table, given: SanctionBody, by: str
    ) -> dict[str, Any]:
        """A sanction ``by`` the organiser or a referee: at a real-card table, or for a game
        already in, a change of the event; at a table playing online, through its room's
        engine (stored in the room's transaction, with the event)."""
        kind, seat, points, article, game = (
            given.kind, given.seat, given.points, given.article, given.game
        )  # fmt: skip
        self.check_playing(live, m, t, decided_ok=game is not None)

        def give(ev: Event, engine: bool = False) -> dict[str, Any]:
            return ev.sanction(
                t.id,
                kind,
                seat,
                points=points,
                article=article,
                game=game,
                engine=engine,
            )

        if t.room is None or game is not None:  # a real-card table, or a game already in
            try:
                entry = self.change(live, give, by=by)
            except EventError as e:
                raise bad_request(str(e)) from None
            self.steer(live)
            return entry
        room = self.hub.get(t.room)
        if room is None or room.match is None:
            raise conflict(f"the match of table {t.id} has not started")
        async with room.lock:
            rm = room.match
            if rm is None or room.halted:  # checked again under the room's lock
                raise conflict(f"table {t.id} is not playing now")
            if rm.game.is_over and kind in AFTER_GAME_SANCTIONS and len(rm.games) <= len(t.games):
                # the engine would add it to the game just finished, whose result the event
                # has taken already (the event counts it in the next game): not now
                raise conflict(
                    f"table {t.id} is between games and game {len(t.games)}'s result is in: "
                    f"name the game it counts in (game {len(t.games)}), or give it once the "
                    "next game has started"
                )
            try:
                with live.ev.acting(by, round(self.hub.clock.time(), 3)):
                    entry = give(live.ev, engine=True)
            except EventError as e:
                live.ev = rebuild(live.saved)
                raise bad_request(str(e)) from None
            data, old = live.ev.to_dict(), live.saved
            live.saved = data  # what the room's transaction stores with the sanction
            text = json.dumps({"kind": kind, "points": points, "article": entry["article"]})
            now = self.hub.clock.time()
            try:
                room.commit(
                    "sanction",
                    seat,
                    text,
                    also=lambda conn: put_event(conn, live.code, data, now),
                )
            except StoreFailed as e:
                live.saved, live.ev = old, rebuild(old)
                raise Unavailable(str(e)) from None
            except ValueError as e:  # the room's match refused it (IllegalAction, MatchError)
                live.saved, live.ev = old, rebuild(old)
                raise conflict(f"table {t.id}: {e}") from None
        self.steer(live)
        return entry
