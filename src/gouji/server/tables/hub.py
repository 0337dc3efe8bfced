"""The hub: every room this process serves — creating and finding rooms, rebuilding them from
the store, their driver tasks, and the websocket messages of their connections.

A room itself is gouji.server.tables.room; a connection gouji.server.tables.connection. With
several processes (docs/scaling.md) the hub serves the rooms of the homes whose lease this
process holds (gouji.server.site.leases); a room served elsewhere raises ``Moved``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Collection
from typing import Any

from gouji.engine.reasons import Reason, reason
from gouji.server.players.records import FinishedGame
from gouji.server.plumbing import tokens
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.fence import Fence
from gouji.server.plumbing.limits import Limits, WindowCounter
from gouji.server.plumbing.probes import UnknownCodes
from gouji.server.tables.connection import Connection
from gouji.server.tables.phrases import SayLimiter, no_chat
from gouji.server.tables.protocol import (
    ACCOUNT_NEEDED,
    ALREADY_SEATED,
    BAD_INVITE,
    BAD_MESSAGE,
    ILLEGAL,
    NO_HINTS,
    NO_ROOM,
    NOT_JOINED,
    NOT_STARTED,
    NOT_YOUR_TURN,
    RATE_LIMITED,
    ROOM_FULL,
    SEAT_TAKEN,
    SEATS,
    SESSION_ENDED,
    STARTED,
    UNAVAILABLE,
    ProtocolError,
    RoomConfig,
    config_from_dict,
    parse_message,
)
from gouji.server.tables.room import Room, RoomLost, StoreFailed, start_match
from gouji.server.tables.store import RoomStore, SeatRow, StoredRoom

log = logging.getLogger("gouji.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8  # 40 bits: guessing a live room's code takes ~10^12 tries / live rooms
SOLO = "solo"  # the worker name of a server that runs alone
LEASE_S = 4.0  # a home's lease lasts this long unless renewed (renewed every second)
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
UNKNOWN_CODES = "too many unknown codes from your address this minute: check the code"
PROBING = "your address asked for far too many unknown codes this minute: wait a minute"
# the messages that act as the connection's account: a seat taken or reclaimed, a seat's move
AS_ACCOUNT = frozenset({"join", "sit", "stand", "start", "act", "trust", "next", "say"})


class Moved(Exception):
    """The room (or event) is served by another process: ``worker`` (None while nobody
    holds it: its process died and the lease has not lapsed yet; try again soon)."""

    def __init__(self, code: str, worker: str | None) -> None:
        super().__init__(f"{code} is served by {worker or 'another process, soon'}")
        self.code = code
        self.worker = worker


class Hub:
    """Every room this process serves, the websocket message handling and the per-address
    limits. ``worker`` names the process among the site's (docs/scaling.md): the rooms it
    serves are those of the homes whose lease it holds (gouji.server.site.leases)."""

    def __init__(
        self,
        store: RoomStore | None,
        limits: Limits | None = None,
        *,
        worker: str = SOLO,
        lease_s: float = LEASE_S,
        clock: Clock = SYSTEM,
    ) -> None:
        self.store = store
        self.clock = clock  # the one every room, lease and limit of this process reads
        self.limits = limits or Limits()
        self.worker = worker
        self.lease_s = lease_s
        self.rooms: dict[str, Room] = {}
        self.retired_decisions = 0  # decisions of rooms no longer served here (/metrics)
        self.on_lost: Callable[[Room], None] | None = None  # the site drops the room's home
        self.locate: Callable[[str], Room | None] | None = None  # the site: a room elsewhere
        self.on_act: Callable[[float], None] | None = None  # seconds from an act to its ack
        self.on_push: Callable[[Room], None] | None = None  # the lobby's list (lobby.py)
        self.on_game_over: Callable[[FinishedGame], object] | None = None  # records.py
        # a rebuilt room's finished games: the records write those not written (a crash, D151)
        self.on_replayed: Callable[[list[FinishedGame]], object] | None = None
        # the events: how many of a competition room's games may be shown (None: all)
        self.deal_public: Callable[[Room], int | None] | None = None
        self.closing = False  # the process is stopping: connections close, nobody left
        self.connections: Counter[str] = Counter()  # open websockets by address
        self.created = WindowCounter(self.limits.rooms_per_ip_per_hour, 3600, clock)
        self.unknown = UnknownCodes(store, self.limits, clock)  # code probing, site-wide
        self.says = SayLimiter(self.limits.say_gap_s, self.limits.says_per_min, clock)

    def find(self, code: str, ip: str) -> Room | None:
        """The room of ``code``. Unknown codes are counted per address across the site, and
        refused (``rate_limited``) past the limit; a real code is found all the same, unless
        the address is far past it and neither reached it before nor sees it in the lobby
        (gouji.server.plumbing.probes, D92, D182). A room another process serves raises the
        site's ``Moved`` (gouji.server.site.leases)."""
        room = self.get(code)
        if self.unknown.refused(ip, code) and (room is None or not room.config.listed):
            raise ProtocolError(RATE_LIMITED, PROBING)
        if room is None and self.locate is not None and _CODE.fullmatch(code.strip().upper()):
            room = self.locate(code.strip().upper())
        if room is None and not self.unknown.count(ip):
            raise ProtocolError(RATE_LIMITED, UNKNOWN_CODES)
        if room is not None:
            self.unknown.found(ip, room.code)  # still found past the ceiling (D182)
        return room

    def fence(self, home: str) -> Fence:
        """What a write of ``home`` checks: this process still holds its lease (renewed)."""
        return Fence(home, self.worker, self.clock.time() + self.lease_s)

    # ------------------------------------------------------------------ rooms
    def load(self, homes: Collection[str] | None = None, seen: float | None = None) -> list[Room]:
        """Rebuild the stored rooms (of ``homes``): a restart or a take-over, with timers
        resumed as they were at ``seen`` (when their last process was last alive)."""
        if self.store is None:
            return []
        loaded = []
        for stored in self.store.load(homes):
            if stored.code in self.rooms:
                continue
            room = self._room_of(stored)
            finished: list[FinishedGame] = []
            try:
                finished = room.replay(stored.actions, seen)
            except Exception:
                log.exception("room %s: replay stopped at version %d", room.code, room.version)
            if finished and self.on_replayed is not None:
                try:
                    self.on_replayed(finished)
                except Exception:  # the records' trouble never stops a room from loading
                    log.exception("room %s: recovering its games' records failed", room.code)
            self.add(room)
            loaded.append(room)
        return loaded

    def drop(self, room: Room, owner: str | None) -> None:
        """Serve ``room`` here no more (another process holds it): its driver stops and its
        clients are told where it went (``moved``: they connect again, to ``owner``)."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        room.lost = True
        room.changed.set()
        if room.task is not None and not room.task.done():
            room.task.cancel()
        self.retired_decisions += room.decisions
        room.decisions = 0
        for conn in list(room.conns):
            conn.send({"type": "moved", "room": room.code, "worker": owner})
            conn.moved = True
            conn.drop("the room moved to another process", keep=True)
        room.conns.clear()

    def _room_of(self, stored: StoredRoom) -> Room:
        cfg = config_from_dict(stored.config)
        return Room(stored.code, cfg, stored.seed, stored.created, self.store, self.clock)

    def create(self, config: RoomConfig, seed: int | None = None, *, local: bool = True) -> Room:
        """A new room. An all-bot room asked for from afar (``local`` false) plays at most
        ``limits.bot_room_games`` games for at most ``limits.bot_room_s`` seconds."""
        code = self._new_code()
        if seed is None:
            seed = secrets.randbelow(2**53)
        if config.bots >= SEATS and not local:
            most = self.limits.bot_room_games
            config.games = min(config.games or most, most)
            config.expires = round(self.clock.time() + self.limits.bot_room_s, 3)
        created = self.clock.time()
        if self.store is not None:
            created = self.store.create_room(code, config.as_dict(), seed, self.fence(code))
        room = Room(code, config, seed, created, self.store, self.clock)
        self.add(room)
        if config.bots >= SEATS:  # an all-bot table starts at once
            start_match(room, config.bot)
        return room

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code.strip().upper())

    def public_games(self, room: Room) -> int | None:
        """What the events say of a competition room's games (``Room.shown_games``); a
        competition room with no events to ask shows none."""
        return self.deal_public(room) if self.deal_public is not None else 0

    def add(self, room: Room) -> None:
        """Serve a room (new, rebuilt, or a competition table made by its event)."""
        # one process alone on its SQLite file needs no fence: nobody else can take its rooms
        room.fence = self.fence if self.store is not None and self.store.shared else None
        room.on_lost = self.on_lost
        room.on_push = self.on_push
        room.public_games = self.public_games
        room.on_game_over = self.on_game_over
        self.rooms[room.code] = room
        if self.on_push is not None:  # a new or taken-over room joins the lobby's list
            self.on_push(room)
        with contextlib.suppress(RuntimeError):  # no running loop: started on first use
            room.ensure_driver()

    def new_code(self) -> str:
        return self._new_code()

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code in self.rooms:
                continue
            if self.store is None or (self.store.home(code) or self.store.lease(code)) is None:
                return code

    def start_all(self) -> None:
        for room in self.rooms.values():
            room.ensure_driver()

    async def stop_all(self) -> None:
        """Stop every room's driver."""
        for room in self.rooms.values():
            await room.stop()

    # ------------------------------------------------------------------ websocket
    async def handle(self, conn: Connection, raw: str | bytes) -> None:
        """One client message: answer it, or answer an ``error``; never raise."""
        msg_id = None
        try:
            msg = parse_message(raw)
            msg_id = msg.get("id")
            began = time.perf_counter()
            await self._dispatch(conn, msg)
            if msg["type"] == "act" and self.on_act is not None:
                self.on_act(time.perf_counter() - began)
        except ProtocolError as e:
            conn.send(e.as_message())
        except Moved as e:  # the client connects again, to the owner (docs/protocol.md);
            # sent here although it asked for the owner: the owner is down, wait for its heir
            worker = None if e.worker == conn.asked else e.worker
            conn.send({"type": "moved", "room": e.code, "worker": worker})
            conn.moved = True
            conn.drop("the room is served by another process", keep=True)
        except RoomLost:
            room = conn.room
            if room is not None and self.on_lost is not None:
                self.on_lost(room)  # drops it: every connection is told where it went
        except StoreFailed as e:
            conn.send(
                ProtocolError(UNAVAILABLE, f"{e}; nothing changed, try again", msg_id).as_message()
            )
        except Exception:  # a bug: this message fails, the room and the connection go on
            log.exception("message %s failed", ascii(raw)[:200])
            conn.send(
                ProtocolError(UNAVAILABLE, "the server failed on this message", msg_id).as_message()
            )

    async def _dispatch(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send({"type": "pong"})
            return
        if kind in AS_ACCOUNT and not self._still_logged_in(conn):
            raise ProtocolError(
                SESSION_ENDED,
                "your session has ended (logged out, or the password changed): log in again",
                msg.get("id"),
            )
        if kind == "join":
            await self._join(conn, msg)
            return
        room = conn.room
        if room is None:
            raise ProtocolError(NOT_JOINED, f"send 'join' before '{kind}'", msg.get("id"))
        room.ensure_driver()
        if kind == "resync":
            conn.mark()
            return
        if kind == "say":  # chat changes nothing of the room: no lock, no version
            self._say(room, conn, msg["id"])
            return
        async with room.lock:
            if kind == "act":
                self._act(room, conn, msg)
            elif kind == "sit":
                if msg.get("invite") is not None:
                    self._claim(room, conn, msg["seat"], msg["invite"])
                else:
                    self._sit(room, conn, msg["seat"])
            elif kind == "stand":
                self._stand(room, conn)
            elif kind == "start":
                self._start(room, conn, msg)
            elif kind == "hint":
                if room.config.rated:  # no 高手 at a rated player's side (D198)
                    raise ProtocolError(
                        NO_HINTS,
                        "a rated room gives no hints: the rating is the player's",
                        msg.get("id"),
                    )
                seat = self._turn_seat(room, conn, None)
                conn.send({"type": "hint", "action": room.hint(seat)})
            elif kind == "check":
                conn.send(self._check(room, conn, msg))
            elif kind == "trust":
                self._trust(room, conn, msg["on"])
            elif kind == "next":
                self._next(room, conn)
            if kind in ("sit", "stand", "start") and self.on_push is not None:
                self.on_push(room)  # the connections moved after the change: count them now

    @staticmethod
    def _still_logged_in(conn: Connection) -> bool:
        """Whether a connection opened with a session cookie may still act as its account:
        its session is live (a log-out, a changed password or a deleted account ends the
        others). One that ended is the account's no more: it is dropped (closed 1008 after
        the error), and a seat it held goes on 托管 like any left seat (D150)."""
        if conn.account is None or conn.logged_in is None or conn.logged_in():
            return True
        conn.account = None
        conn.drop("its session ended", keep=True)
        return False

    async def _join(self, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.room is not None:
            raise ProtocolError(BAD_MESSAGE, f"already in room {conn.room.code}")
        room = self.find(msg["room"], conn.ip)
        if room is None:
            raise ProtocolError(NO_ROOM, f"no room {msg['room']!r}")
        room.ensure_driver()
        token = msg.get("token")
        seat = None
        if token or conn.account is not None:
            async with room.lock:  # of two joins with one token, one gets the seat
                if token:
                    seat = next(
                        (i for i, s in enumerate(room.seats) if tokens.matches(token, s.token)),
                        None,
                    )
                if seat is None and conn.account is not None:  # an account holder's seat
                    seat = room.seat_of(conn.account.id)  # is theirs from any device (D115)
                if seat is not None:  # the seat gets a new token: the one presented is void
                    token = self._new_token(room, seat, conn, "rekey")
                    self._take_over(room, seat, conn)
        if seat is None:
            self._may_watch(room, msg)
            token = tokens.new_token()
        conn.room, conn.seat, conn.token = room, seat, token
        conn.name = conn.account.name if conn.account is not None else msg["name"]
        room.conns.add(conn)
        if seat is None and room.match is not None:
            room.note_presence("watch", conn.name)
        conn.send({"type": "welcome", "token": token, "seat": seat, "room": room.code})
        async with room.lock:
            s = room.seats[seat] if seat is not None else None
            if s is not None and s.trust and room.status in ("playing", "between"):
                room.commit("trust", seat, "off back")  # the player is back: 托管 ends
            else:
                room.push_all()  # presence changed (not a stored change: same version)
                room.changed.set()  # a watcher may let an all-bot table play on

    def _may_watch(self, room: Room, msg: dict[str, Any]) -> None:
        """Whether a ``join`` that takes no seat by its token may come in: up to
        ``spectators_per_room`` watchers; past that an invited player (D88), and while a seat
        is free anyone, up to twice as many — spectators never keep out whoever could sit
        and play (D93). Else ``room_full``."""
        watching = sum(1 for c in room.conns if c.seat is None)
        most = self.limits.spectators_per_room
        if watching < most or room.invited(msg):
            return
        if watching < 2 * most and any(room.seat_free(i) for i in range(SEATS)):
            return
        raise ProtocolError(ROOM_FULL, f"room {room.code} has its {watching} spectators already")

    @staticmethod
    def _new_token(room: Room, seat: int, conn: Connection, kind: str) -> str:
        """A new token for ``seat``, held by ``conn``: whatever token the seat had takes it no
        more, so a copied token is good for one take at most (D91). ``kind`` is the stored
        action that says so: ``rekey`` (the seat's token presented again) or ``claim`` (a
        competition seat taken with its invitation). Stored before it counts (a refused
        write changes nothing); returns the token, which the connection is sent in
        ``welcome``."""
        token = tokens.new_token()
        hashed = tokens.token_hash(token)
        s = room.seats[seat]
        row = SeatRow(seat, s.name, hashed, s.bot)
        room.commit(kind, seat, json.dumps({"token": hashed}), seat_rows=[row])
        conn.token = token
        return token

    @staticmethod
    def _take_over(room: Room, seat: int, conn: Connection) -> None:
        """A seat's token presented again takes the seat from the connections holding it,
        which are told and go on as spectators (a copied token is noticed at once)."""
        for c in room.conns:
            if c.seat == seat and c is not conn:
                c.seat, c.token = None, None
                c.send(
                    {
                        "type": "replaced",
                        "message": "your seat was taken over by another connection with its token",
                    }
                )
                c.mark()

    async def leave(self, conn: Connection) -> None:
        """The connection closed: when a seated human's last connection goes, 托管 — unless
        this process is stopping (``closing``): its players come back to the next one."""
        conn.closed = True
        conn.wake.set()
        room = conn.room
        if room is None:
            return
        room.conns.discard(conn)
        if self.closing or room.lost:
            return
        seat = conn.seat
        async with room.lock:
            if (
                seat is not None
                and room.seats[seat].human
                and not room.seats[seat].trust
                and room.status in ("playing", "between")
                and not room.online(seat)
            ):
                try:
                    room.commit("trust", seat, "on left")
                except StoreFailed:  # logged; the timer will put the seat on 托管 instead
                    room.push_all()
            else:
                room.push_all()

    def _say(self, room: Room, conn: Connection, word: str) -> None:
        """A seated player's 快捷语 or emote, to every connection of the room (spectators
        too); never stored (docs/decisions.md D95-D97)."""
        why = no_chat(room.config, room.rules)
        if why is not None:
            raise ProtocolError(ILLEGAL, why, word)
        if conn.seat is None:
            raise ProtocolError(
                BAD_MESSAGE, "spectators do not speak: 快捷语 are the players'", word
            )
        wait = self.says.take(f"{room.code}#{conn.seat}")
        if wait is not None:
            raise ProtocolError(RATE_LIMITED, wait, word)
        said = {"type": "said", "seat": conn.seat, "id": word}
        for c in room.conns:
            c.send(said)

    def _act(self, room: Room, conn: Connection, msg: dict[str, Any]) -> None:
        cid: str = msg["id"]
        if (conn.seat, cid) in room.applied:  # ids are the seat's own: nobody else's clash
            conn.send({"type": "ack", "id": cid, "duplicate": True})
            return
        seat = self._turn_seat(room, conn, cid)
        kind = "autoact" if msg.get("auto") else "act"  # the page's automatic pass: 托管 stays
        try:
            room.commit(kind, seat, msg["action"], client_id=cid)
        except ValueError as e:  # IllegalAction, MatchError: the room is unchanged
            why = getattr(e, "reason", None)
            data = why.as_dict() if isinstance(why, Reason) else None
            raise ProtocolError(ILLEGAL, str(e), cid, data) from None
        conn.send({"type": "ack", "id": cid, "duplicate": False})

    def _check(self, room: Room, conn: Connection, msg: dict[str, Any]) -> dict[str, Any]:
        """Would this action be taken now? Asks the engine and applies nothing."""
        action: str = msg["action"]
        out: dict[str, Any] = {"type": "check", "action": action}
        if msg.get("id") is not None:
            out["id"] = msg["id"]
        m = room.match
        why: Reason | None
        if m is None or conn.seat is None or m.to_act != conn.seat:
            why = reason("R1.5", "not_your_turn", "it is not your decision")
        elif not m.game.is_over:
            why = m.game.check(action)
        else:
            ok = action.strip().lower() in {a.text for a in m.legal_actions()}
            why = None if ok else reason("R18", "decide_phase", "answer the question asked")
        out["ok"] = why is None
        out["reason"] = why.as_dict() if why is not None else None
        return out

    def _turn_seat(self, room: Room, conn: Connection, cid: str | None) -> int:
        m = room.match
        if m is None:
            raise ProtocolError(NOT_STARTED, "the match has not started", cid)
        if room.halted:
            raise ProtocolError(ILLEGAL, _HALTED[room.halted], cid)
        if conn.seat is None:
            raise ProtocolError(NOT_YOUR_TURN, "spectators do not act", cid)
        if m.to_act != conn.seat:
            if room.private_turn():  # never name the seat of a private decision
                raise ProtocolError(NOT_YOUR_TURN, "it is not your decision", cid)
            who = "nobody's" if m.to_act is None else f"seat {m.to_act + 1}'s"
            raise ProtocolError(
                NOT_YOUR_TURN, f"it is {who} decision, not yours (seat {conn.seat + 1})", cid
            )
        return conn.seat

    def _sit(self, room: Room, conn: Connection, seat: int) -> None:
        if room.config.seating is not None:
            raise ProtocolError(
                BAD_INVITE, "a competition table's seats are taken with their invitation links"
            )
        if room.match is not None and conn.seat is not None:
            raise ProtocolError(STARTED, "the match has started: players keep their seats")
        if conn.seat == seat:
            conn.mark()
            return
        if not room.seat_free(seat):
            raise ProtocolError(SEAT_TAKEN, f"seat {seat + 1} is taken")
        if not room.may_sit(conn.guest, moving=conn.seat is not None):  # 快速开始 holds (D170)
            raise ProtocolError(SEAT_TAKEN, "the free seats are held for players on their way")
        if conn.token is None:  # _take_over gave its seat and token to another connection
            raise ProtocolError(
                BAD_MESSAGE, "another connection took this one's seat and token: connect again"
            )
        if room.config.rated and conn.account is None:
            raise ProtocolError(
                ACCOUNT_NEEDED, "a rated room's seats are for players with an account: log in"
            )
        held = room.seat_of(conn.account.id) if conn.account is not None else None
        if held is not None and held != conn.seat:  # one person, one seat, in every room (D149)
            raise ProtocolError(
                ALREADY_SEATED, f"your account holds seat {held + 1} of this room already"
            )
        old = conn.seat
        hashed = tokens.token_hash(conn.token)
        who: dict[str, Any] = {"name": conn.name, "token": hashed}
        if conn.account is not None:  # the record and the rating are the account's
            who["name"] = conn.name = conn.account.name
            who["account"] = conn.account.id
        elif conn.guest is not None:
            who["guest"] = conn.guest
        text = json.dumps(who, ensure_ascii=False)
        rows = [SeatRow(seat, conn.name, hashed, None)]
        if old is not None:
            rows.append(SeatRow(old, None, None, None))
        room.commit("sit", seat, text, seat_rows=rows)
        room.holds.use(conn.guest)  # its 快速开始 hold, if any, is spent
        for c in room.conns:  # every connection of this token moves with it
            if c.token == conn.token:
                c.seat = seat

    def _claim(self, room: Room, conn: Connection, seat: int, invite: str) -> None:
        """``sit`` with an invitation: the competition seat's player takes it (before or
        during the match, from any device: the seat gets a new token, sent to this
        connection in a second ``welcome``, and a connection that held it is told it was
        replaced)."""
        entry = room.config.seating[seat] if room.config.seating is not None else None
        if entry is None or entry.get("invite") is None:
            raise ProtocolError(
                BAD_INVITE, f"seat {seat + 1} of room {room.code} has no invitation"
            )
        if not tokens.matches(invite, str(entry["invite"])):
            raise ProtocolError(BAD_INVITE, f"this is not the invitation of seat {seat + 1}")
        if room.halted:
            raise ProtocolError(ILLEGAL, _HALTED[room.halted])
        if conn.token is None:
            raise ProtocolError(
                BAD_MESSAGE, "another connection took this one's seat and token: connect again"
            )
        if conn.seat is not None and conn.seat != seat:
            raise ProtocolError(BAD_MESSAGE, f"you hold seat {conn.seat + 1} already")
        name = str(entry["name"])
        if not tokens.matches(conn.token, room.seats[seat].token):  # taken: a new token
            token = self._new_token(room, seat, conn, "claim")
            conn.send({"type": "welcome", "token": token, "seat": seat, "room": room.code})
        for c in room.conns:
            if c.token == conn.token:
                c.seat, c.name = seat, name
            elif c.seat == seat:  # it held the seat with the old token
                c.seat, c.token = None, None
                c.send({"type": "replaced", "message": "your seat was taken with its invitation"})
                c.mark()
        conn.mark()
        if room.seats[seat].trust and room.status in ("playing", "between"):
            room.commit("trust", seat, "off back")  # the player is back: 托管 ends

    def _stand(self, room: Room, conn: Connection) -> None:
        if room.config.seating is not None:
            raise ProtocolError(STARTED, "a competition table's seats are fixed")
        if room.match is not None:
            raise ProtocolError(STARTED, "the match has started: seats are fixed")
        if conn.seat is None:
            raise ProtocolError(BAD_MESSAGE, "you are not seated")
        seat = conn.seat
        room.commit("stand", seat, "", seat_rows=[SeatRow(seat, None, None, None)])
        for c in room.conns:
            if c.token == conn.token:
                c.seat = None

    def _start(self, room: Room, conn: Connection, msg: dict[str, Any]) -> None:
        if room.match is not None:
            raise ProtocolError(STARTED, "the match has already started")
        if room.config.seating is not None:
            raise ProtocolError(
                BAD_MESSAGE, "a competition table starts by itself once every player is seated"
            )
        if conn.seat is None:
            raise ProtocolError(BAD_MESSAGE, "only a seated player starts the match")
        most = room.config.bots  # the room's bots, as created: a start cannot change them
        empty = [i for i, s in enumerate(room.seats) if s.empty]
        if len(empty) > most:
            raise ProtocolError(
                BAD_MESSAGE,
                f"{len(empty)} seats are empty and this room fills at most {most} with bots",
            )
        start_match(room, room.config.bot)

    def _trust(self, room: Room, conn: Connection, on: bool) -> None:
        if room.match is None:
            raise ProtocolError(NOT_STARTED, "the match has not started")
        seat = conn.seat
        if seat is None or not room.seats[seat].human:
            raise ProtocolError(BAD_MESSAGE, "托管 is for a seated player")
        if room.seats[seat].trust == on:
            conn.mark()
            return
        room.commit("trust", seat, "on" if on else "off")

    def _next(self, room: Room, conn: Connection) -> None:
        m = room.match
        if m is None:
            raise ProtocolError(NOT_STARTED, "the match has not started")
        if conn.seat is None:
            raise ProtocolError(NOT_YOUR_TURN, "spectators do not start games")
        if room.halted:
            raise ProtocolError(ILLEGAL, _HALTED[room.halted])
        if room.gated and m.to_act is None:
            raise ProtocolError(
                ILLEGAL, "the event has not asked this table for another game (yet)"
            )
        if room.status != "between":
            why = "the match is over" if m.is_over else "the current game is not over"
            if m.game.is_over and m.to_act is not None:
                why = f"P{m.to_act} must answer the {m.pending} prompt first"
            raise ProtocolError(ILLEGAL, why)
        room.commit("next", conn.seat, "")


_HALTED = {
    "decided": "the event has decided this table's match: it plays no more games",
    "closed": "the event is closed: this table plays no more",
}
