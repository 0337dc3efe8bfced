"""The room authority: one ``Match`` per room, its seats, tokens, version and timers.

A room is a fold over its stored actions (``Room._fold``): seats taken and left, the start,
every decision (a player's ``act``, a bot's, 托管's, a timeout's), 托管 on/off and ``next``.
Live changes go through ``Room.commit`` (fold, store, version + 1, push); a restart replays
the stored actions through the same fold, so the rebuilt room has the same state and version.

Each room has one driver task (bots, 托管, the turn timer, the automatic next game) and one
lock; every change happens under the lock, synchronously, so a view is never half-updated.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from gouji import agents
from gouji.actions import NOSKIP, NOSWAP, Action, IllegalAction
from gouji.agents.base import Agent
from gouji.cards import NUM_RANKS, RANKS
from gouji.match import Match
from gouji.policy import timeout_action
from gouji.server.protocol import (
    BAD_MESSAGE,
    ILLEGAL,
    NO_ROOM,
    NOT_JOINED,
    NOT_STARTED,
    NOT_YOUR_TURN,
    SEAT_TAKEN,
    SEATS,
    STARTED,
    ProtocolError,
    RoomConfig,
    config_from_dict,
    parse_message,
)
from gouji.server.store import SeatRow, Store, StoredAction, StoredRoom

log = logging.getLogger("gouji.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MOVE_KINDS = ("act", "bot", "auto", "timeout")  # actions applied to the match
TIMEOUTS_TO_TRUST = 2  # R19.3: 托管 after two timeouts in a row


@dataclass
class Seat:
    name: str | None = None
    token: str | None = None
    bot: str | None = None  # agent name of a bot seat
    trust: bool = False  # 托管
    timeouts: int = 0  # timeouts in a row

    @property
    def empty(self) -> bool:
        return self.name is None and self.bot is None

    @property
    def human(self) -> bool:
        return self.name is not None and self.bot is None

    @property
    def automatic(self) -> bool:
        """Decided by software: a bot or a human on 托管."""
        return self.bot is not None or self.trust


class Connection:
    """One websocket: its room, seat and token, and an outbox drained by a writer task.

    States are not queued: ``mark()`` flags the connection and the writer sends the room's
    latest state when it gets to it (so a slow client skips versions, never stalls a room).
    """

    def __init__(self, send_text: Callable[[str], Awaitable[None]]) -> None:
        self._send_text = send_text
        self.room: Room | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.name = "guest"
        self.outbox: deque[str] = deque()
        self.dirty = False
        self.wake = asyncio.Event()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.append(_dumps(message))
        self.wake.set()

    def mark(self) -> None:
        self.dirty = True
        self.wake.set()

    async def run_writer(self) -> None:
        """Send queued messages, then the latest state, until closed."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox:
                await self._send_text(self.outbox.popleft())
            if self.dirty and self.room is not None:
                self.dirty = False
                await self._send_text(_dumps(self.room.state_message(self.seat)))


class Room:
    """The authority of one table (see the module docstring)."""

    def __init__(
        self,
        code: str,
        config: RoomConfig,
        seed: int,
        created: float,
        store: Store | None,
    ) -> None:
        self.code = code
        self.config = config
        self.rules = config.rules()
        self.seed = seed
        self.created = created
        self.store = store
        self.version = 0
        self.seats = [Seat() for _ in range(SEATS)]
        self.match: Match | None = None
        self.applied: set[str] = set()  # client ids of applied actions
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.deadline: float | None = None  # epoch seconds of the turn timer's end
        self._deadline_mono: float | None = None
        self._deadline_key: tuple[int, ...] | None = None
        self._since = time.monotonic()  # when the room last changed
        self._agents: dict[tuple[int, str], Agent] = {}
        self._hinter: Agent | None = None
        self._replay_cache: dict[int, dict[str, Any]] = {}

    # ------------------------------------------------------------------ the fold
    def _fold(self, kind: str, seat: int | None, text: str) -> str:
        """Apply one action to the room's state; returns the text to store. Raises
        ``IllegalAction``/``ValueError`` (state unchanged) for a decision the match refuses."""
        if kind == "sit":
            assert seat is not None
            data = json.loads(text)
            for s in self.seats:
                if s.token is not None and s.token == data["token"]:
                    s.name, s.token = None, None
            self.seats[seat] = Seat(name=str(data["name"]), token=str(data["token"]))
        elif kind == "stand":
            assert seat is not None
            self.seats[seat] = Seat()
        elif kind == "start":
            data = json.loads(text)
            for key, agent in data["bots"].items():
                self.seats[int(key)] = Seat(name=f"{agent} bot", bot=str(agent))
            self.match = Match(self.rules, self.seed, games=self.config.games)
        elif kind in MOVE_KINDS:
            assert seat is not None and self.match is not None
            m = self.match
            if m.to_act != seat:
                raise IllegalAction(f"it is not P{seat}'s decision")
            game = m.game
            in_game = not game.is_over
            m.apply(text)
            text = game.actions[-1] if in_game else m.prompt_answers[-1][-1]
            s = self.seats[seat]
            if kind == "act":
                s.trust, s.timeouts = False, 0
            elif kind == "timeout":
                s.timeouts += 1
                if s.timeouts >= TIMEOUTS_TO_TRUST and s.human:
                    s.trust = True
        elif kind == "trust":
            assert seat is not None
            s = self.seats[seat]
            s.trust = text.split()[0] == "on"
            if not s.trust:
                s.timeouts = 0
        elif kind == "next":
            assert self.match is not None
            self.match.next_game(0)
        else:
            raise ValueError(f"unknown action kind {kind!r}")
        return text

    def commit(
        self,
        kind: str,
        seat: int | None,
        text: str,
        client_id: str | None = None,
        seat_rows: list[SeatRow] | None = None,
    ) -> None:
        """Fold a live action, store it, bump the version and push every connection."""
        stored_text = self._fold(kind, seat, text)
        self.version += 1
        if client_id is not None:
            self.applied.add(client_id)
        if self.store is not None:
            action = StoredAction(self.version, seat, kind, stored_text, client_id)
            self.store.add_action(self.code, action, seat_rows)
        self._after_change()
        for conn in self.conns:
            conn.mark()

    def replay(self, actions: list[StoredAction]) -> None:
        """Rebuild the room from its stored actions (a restart)."""
        for a in actions:
            if a.seq != self.version + 1:
                raise ValueError(f"room {self.code}: action #{a.seq} after #{self.version}")
            self._fold(a.kind, a.seat, a.text)
            self.version = a.seq
            if a.client_id is not None:
                self.applied.add(a.client_id)
        self._after_change()

    def _after_change(self) -> None:
        self._since = time.monotonic()
        self._refresh_deadline()
        self.changed.set()

    def _refresh_deadline(self) -> None:
        m, timer = self.match, self.config.timer_s
        seat = m.to_act if m is not None else None
        if m is None or seat is None or timer is None or self.seats[seat].automatic:
            self.deadline = self._deadline_mono = self._deadline_key = None
            return
        key = (len(m.games), len(m.game.actions), len(m.prompt_answers[-1]), seat)
        if key != self._deadline_key:
            self._deadline_key = key
            self._deadline_mono = time.monotonic() + timer
            self.deadline = round(time.time() + timer, 3)

    # ------------------------------------------------------------------ what clients see
    @property
    def status(self) -> str:
        m = self.match
        if m is None:
            return "waiting"
        if m.is_over:
            return "over"
        if m.to_act is None:
            return "between"  # the game is over, `next` is due
        return "playing"

    def online(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def summary(self) -> dict[str, Any]:
        m = self.match
        return {
            "code": self.code,
            "config": self.config.as_dict(),
            "status": self.status,
            "version": self.version,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "human": s.human,
                    "online": self.online(i),
                    "trust": s.trust,
                    "timeouts": s.timeouts,
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "game": len(m.games) if m is not None else 0,
            "games_finished": len(m.results) if m is not None else 0,
            "totals": m.totals if m is not None else [0, 0],
            "to_act": m.to_act if m is not None else None,
            "next_due": self.status == "between",
        }

    def view(self, seat: int | None) -> dict[str, Any] | None:
        m = self.match
        if m is None:
            return None
        v = m.view(seat)
        if m.to_act is None or m.game.is_over:
            v["legal_actions"] = [a.text for a in m.legal_actions()] if m.to_act == seat else []
        if self.config.card_counter:
            out = [sum(h[r] for h in m.game.hands) for r in range(NUM_RANKS)]
            v["card_counter"] = {RANKS[r]: out[r] for r in range(NUM_RANKS)}
        return v

    def state_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "state",
            "version": self.version,
            "room": self.summary(),
            "view": self.view(seat),
            "deadline": self.deadline,
        }

    def push_all(self) -> None:
        for conn in self.conns:
            conn.mark()

    # ------------------------------------------------------------------ finished games
    def games(self) -> list[dict[str, Any]]:
        m = self.match
        if m is None:
            return []
        return [
            {"index": i, "places": r["places"], "team_scores": r["team_scores"]}
            for i, r in enumerate(m.results)
        ]

    def record(self, index: int) -> dict[str, Any] | None:
        m = self.match
        if m is None or not 0 <= index < len(m.results):
            return None
        return m.games[index].record()

    def replay_steps(self, index: int) -> dict[str, Any] | None:
        """Spectator views with every hand, before the game's first action and after each."""
        if index in self._replay_cache:
            return self._replay_cache[index]
        rec = self.record(index)
        if rec is None:
            return None
        from gouji.game import Game

        g = Game.from_record({**rec, "actions": []})

        def shot() -> dict[str, Any]:
            v = g.view(None)
            v["hands"] = [g.hand(s) for s in range(SEATS)]
            return v

        steps: list[dict[str, Any]] = [{"action": None, "seat": None, "view": shot()}]
        for text in rec["actions"]:
            seat = g.to_act
            g.apply(text)
            steps.append({"action": text, "seat": seat, "view": shot()})
        out = {"index": index, "steps": steps}
        self._replay_cache[index] = out
        return out

    # ------------------------------------------------------------------ the driver
    def ensure_driver(self) -> None:
        """Start (or restart, in a new event loop) the room's driver task."""
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.lock = asyncio.Lock()
            self.changed = asyncio.Event()
            self.task = loop.create_task(self._drive(), name=f"room-{self.code}")

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def _plan(self) -> tuple[float, str] | None:
        m = self.match
        if m is None:
            return None
        seat = m.to_act
        if seat is not None:
            if self.seats[seat].automatic:
                return self._since + self.config.bot_delay_ms / 1000, "bot"
            if self._deadline_mono is not None:
                return self._deadline_mono, "timeout"
            return None
        if m.is_over:
            return None
        if all(s.automatic for s in self.seats) and (self.conns or m.length is not None):
            # nobody needs to act: a fixed-length match plays to its end; an open-ended one
            # only while someone is there to watch (else it would run forever)
            return self._since + self.config.next_delay_ms / 1000, "next"
        return None

    async def _drive(self) -> None:
        while True:
            self.changed.clear()
            plan = self._plan()
            if plan is None:
                await self.changed.wait()
                continue
            at, what = plan
            delay = at - time.monotonic()
            if delay > 0:
                try:
                    await asyncio.wait_for(self.changed.wait(), delay)
                    continue  # something changed first: plan again
                except TimeoutError:
                    pass
            else:
                await asyncio.sleep(0)  # let the other rooms and clients run
                if self.changed.is_set():
                    continue
            try:
                await self._step(what)
            except Exception:  # a bug must not kill the table: log, wait, plan again
                log.exception("room %s: driver step %s failed", self.code, what)
                await asyncio.sleep(1.0)

    async def _step(self, what: str) -> None:
        version = self.version
        m = self.match
        assert m is not None
        if what == "next":
            async with self.lock:
                if self.version == version:
                    self.commit("next", None, "")
            return
        seat = m.to_act
        assert seat is not None
        if what == "timeout":
            async with self.lock:
                if self.version == version and m.to_act == seat:
                    self.commit("timeout", seat, self.timeout_text())
            return
        s = self.seats[seat]
        name = s.bot or "heuristic"
        agent = self._agent(seat, name)
        view, legal = m.view(seat), m.legal_actions()
        if name == "search":  # slow: think in a thread, the loop goes on
            action = await asyncio.to_thread(agent.act, view, legal)
        else:
            action = agent.act(view, legal)
        if action not in legal:
            log.warning("room %s: %s chose %s, not legal", self.code, name, action)
            action = Action.parse(self.timeout_text())
        async with self.lock:
            if self.version == version:
                self.commit("bot" if s.bot else "auto", seat, action.text)

    def _agent(self, seat: int, name: str) -> Agent:
        key = (seat, name)
        if key not in self._agents:
            self._agents[key] = agents.get(name, seed=self.seed + seat)
        return self._agents[key]

    def timeout_text(self) -> str:
        """R19.2's default for ``to_act``; in a between-games prompt, "no"."""
        m = self.match
        assert m is not None
        if not m.game.is_over:
            return timeout_action(m.game).text
        kinds = {a.kind for a in m.legal_actions()}
        return NOSWAP if NOSWAP in kinds else NOSKIP

    def hint(self, seat: int) -> str:
        m = self.match
        assert m is not None
        if self._hinter is None:
            self._hinter = agents.get("heuristic", seed=self.seed)
        return self._hinter.act(m.view(seat), m.legal_actions()).text


class Hub:
    """Every room of one server, and the websocket message handling."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}

    # ------------------------------------------------------------------ rooms
    def load(self) -> None:
        """Rebuild every stored room (a restart)."""
        if self.store is None:
            return
        for stored in self.store.load():
            room = self._room_of(stored)
            try:
                room.replay(stored.actions)
            except Exception:
                log.exception("room %s: replay stopped at version %d", room.code, room.version)
            self.rooms[room.code] = room

    def _room_of(self, stored: StoredRoom) -> Room:
        cfg = config_from_dict(stored.config)
        return Room(stored.code, cfg, stored.seed, stored.created, self.store)

    def create(self, config: RoomConfig, seed: int | None = None) -> Room:
        code = self._new_code()
        if seed is None:
            seed = secrets.randbelow(2**53)
        created = time.time()
        if self.store is not None:
            created = self.store.create_room(code, config.as_dict(), seed)
        room = Room(code, config, seed, created, self.store)
        self.rooms[code] = room
        if config.bots >= SEATS:  # an all-bot table starts at once
            start_match(room, config.bot)
        with contextlib.suppress(RuntimeError):  # no running loop: started on first use
            room.ensure_driver()
        return room

    def get(self, code: str) -> Room | None:
        return self.rooms.get(code.strip().upper())

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def start_all(self) -> None:
        for room in self.rooms.values():
            room.ensure_driver()

    async def stop_all(self) -> None:
        for room in self.rooms.values():
            await room.stop()

    # ------------------------------------------------------------------ websocket
    async def handle(self, conn: Connection, raw: str | bytes) -> None:
        """One client message: answer it, or answer an ``error``; never raise."""
        try:
            msg = parse_message(raw)
            await self._dispatch(conn, msg)
        except ProtocolError as e:
            conn.send(e.as_message())

    async def _dispatch(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send({"type": "pong"})
            return
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
        async with room.lock:
            if kind == "act":
                self._act(room, conn, msg)
            elif kind == "sit":
                self._sit(room, conn, msg["seat"])
            elif kind == "stand":
                self._stand(room, conn)
            elif kind == "start":
                self._start(room, conn, msg)
            elif kind == "hint":
                seat = self._turn_seat(room, conn, None)
                conn.send({"type": "hint", "action": room.hint(seat)})
            elif kind == "trust":
                self._trust(room, conn, msg["on"])
            elif kind == "next":
                self._next(room, conn)

    async def _join(self, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.room is not None:
            raise ProtocolError(BAD_MESSAGE, f"already in room {conn.room.code}")
        room = self.get(msg["room"])
        if room is None:
            raise ProtocolError(NO_ROOM, f"no room {msg['room']!r}")
        room.ensure_driver()
        token = msg.get("token")
        seat = None
        if token:
            seat = next((i for i, s in enumerate(room.seats) if s.token == token), None)
        if seat is None:
            token = secrets.token_urlsafe(16)
        conn.room, conn.seat, conn.token = room, seat, token
        conn.name = (msg.get("name") or "").strip() or "guest"
        room.conns.add(conn)
        conn.send({"type": "welcome", "token": token, "seat": seat, "room": room.code})
        async with room.lock:
            s = room.seats[seat] if seat is not None else None
            if s is not None and s.trust and room.status in ("playing", "between"):
                room.commit("trust", seat, "off back")  # the player is back: 托管 ends
            else:
                room.push_all()  # presence changed (not a stored change: same version)
                room.changed.set()  # a watcher may let an all-bot table play on

    async def leave(self, conn: Connection) -> None:
        """The connection closed: when a seated human's last connection goes, 托管."""
        conn.closed = True
        conn.wake.set()
        room = conn.room
        if room is None:
            return
        room.conns.discard(conn)
        seat = conn.seat
        async with room.lock:
            if (
                seat is not None
                and room.seats[seat].human
                and not room.seats[seat].trust
                and room.status in ("playing", "between")
                and not room.online(seat)
            ):
                room.commit("trust", seat, "on left")
            else:
                room.push_all()

    def _act(self, room: Room, conn: Connection, msg: dict[str, Any]) -> None:
        cid: str = msg["id"]
        if cid in room.applied:
            conn.send({"type": "ack", "id": cid, "duplicate": True})
            return
        seat = self._turn_seat(room, conn, cid)
        try:
            room.commit("act", seat, msg["action"], client_id=cid)
        except ValueError as e:  # IllegalAction, MatchError: the room is unchanged
            raise ProtocolError(ILLEGAL, str(e), cid) from None
        conn.send({"type": "ack", "id": cid, "duplicate": False})

    def _turn_seat(self, room: Room, conn: Connection, cid: str | None) -> int:
        m = room.match
        if m is None:
            raise ProtocolError(NOT_STARTED, "the match has not started", cid)
        if conn.seat is None:
            raise ProtocolError(NOT_YOUR_TURN, "spectators do not act", cid)
        if m.to_act != conn.seat:
            who = "nobody" if m.to_act is None else f"P{m.to_act}"
            raise ProtocolError(
                NOT_YOUR_TURN, f"it is {who}'s decision, not yours (P{conn.seat})", cid
            )
        return conn.seat

    def _sit(self, room: Room, conn: Connection, seat: int) -> None:
        if room.match is not None:
            raise ProtocolError(STARTED, "the match has started: seats are fixed")
        if conn.seat == seat:
            conn.mark()
            return
        if not room.seats[seat].empty:
            raise ProtocolError(SEAT_TAKEN, f"seat {seat} is taken")
        assert conn.token is not None
        old = conn.seat
        text = json.dumps({"name": conn.name, "token": conn.token})
        rows = [SeatRow(seat, conn.name, conn.token, None)]
        if old is not None:
            rows.append(SeatRow(old, None, None, None))
        for c in room.conns:  # every connection of this token moves with it
            if c.token == conn.token:
                c.seat = seat
        room.commit("sit", seat, text, seat_rows=rows)

    def _stand(self, room: Room, conn: Connection) -> None:
        if room.match is not None:
            raise ProtocolError(STARTED, "the match has started: seats are fixed")
        if conn.seat is None:
            raise ProtocolError(BAD_MESSAGE, "you are not seated")
        seat = conn.seat
        for c in room.conns:
            if c.token == conn.token:
                c.seat = None
        room.commit("stand", seat, "", seat_rows=[SeatRow(seat, None, None, None)])

    def _start(self, room: Room, conn: Connection, msg: dict[str, Any]) -> None:
        if room.match is not None:
            raise ProtocolError(STARTED, "the match has already started")
        if conn.seat is None:
            raise ProtocolError(BAD_MESSAGE, "only a seated player starts the match")
        bot = msg.get("bot") or room.config.bot
        if bot not in agents.names():
            raise ProtocolError(BAD_MESSAGE, f"'bot' must be one of {', '.join(agents.names())}")
        most = msg.get("bots")
        most = room.config.bots if most is None else most
        empty = [i for i, s in enumerate(room.seats) if s.empty]
        if len(empty) > most:
            raise ProtocolError(
                BAD_MESSAGE,
                f"{len(empty)} seats are empty and this start fills at most {most} with bots",
            )
        start_match(room, bot)

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
        if room.status != "between":
            why = "the match is over" if m.is_over else "the current game is not over"
            if m.game.is_over and m.to_act is not None:
                why = f"P{m.to_act} must answer the {m.pending} prompt first"
            raise ProtocolError(ILLEGAL, why)
        room.commit("next", conn.seat, "")


def start_match(room: Room, bot: str) -> None:
    """Fill every empty seat with a ``bot`` and start the match (one stored action)."""
    empty = [i for i, s in enumerate(room.seats) if s.empty]
    rows = [SeatRow(i, f"{bot} bot", None, bot) for i in empty]
    room.commit("start", None, json.dumps({"bots": {str(i): bot for i in empty}}), None, rows)


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
