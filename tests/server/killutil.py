"""The helpers of the kill tests (tests/server/tables/test_server_kill.py and
tests/server/site/test_site_kill.py): a real ``gouji serve`` subprocess, a websocket player and a
watcher that speak to it, plain HTTP, and the check of what the store holds after a kill."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from gouji.server.site.store import Store
from gouji.server.tables.store import StoredRoom
from support import free_port

Message = dict[str, Any]

KILLS = 3  # kill-and-restart cycles (a final kill after them checks the store once more)
MIN_ACKS, MAX_ACKS = 20, 26  # acknowledged decisions since the last start before a kill
AFTER_RESTART = 3  # decisions the player makes at once after each restart
#: The human room's seed and seat: with the player's policy (the second legal action, else the
#: first) its 3-game match gives the seat 116 decisions, well over the 90 at most the kills use.
HUMAN_SEED, HUMAN_SEAT = 14, 3
BOT_SEED = 5
SEED = 20260  # the kill moments
RECV_S = 15.0  # the longest wait for one message
START_S = 30.0  # the longest wait for a server's /healthz
GROW_S = 15.0  # the longest wait for the all-bot room to move after a restart
LIMITS = ["--limit", "messages_per_s=1000", "--limit", "message_burst=1000"]

BAD_LOG = re.compile(r"traceback|error|exception|refused|failed", re.IGNORECASE)
_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no proxy


def http(method: str, url: str, body: Message | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("content-type", "application/json")
    try:
        with _HTTP.open(req, timeout=10) as r:
            return int(r.status), json.load(r)
    except urllib.error.HTTPError as e:
        return int(e.code), json.loads(e.read() or b"null")


class Server:
    """One ``gouji serve`` subprocess on a free loopback port, its output in a log file."""

    def __init__(self, db_url: str, log: Path, procs: list[subprocess.Popen[bytes]]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.log = log
        cmd = [sys.executable, "-m", "gouji.cli", "serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(self.port), "--db", db_url, "--log-level", "warning", *LIMITS]
        with log.open("wb") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        procs.append(self.proc)
        end = time.monotonic() + START_S
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited ({self.proc.returncode}):\n{self.tail()}")
            with contextlib.suppress(OSError):
                if http("GET", self.base + "/healthz") == (200, {"ok": True}):
                    return
            if time.monotonic() > end:
                raise AssertionError(f"the server did not answer /healthz:\n{self.tail()}")
            time.sleep(0.05)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-20000:]

    def kill(self) -> None:
        """SIGKILL; then its log must hold no error (a failed step, a refused write…)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        bad = [line for line in self.tail().splitlines() if BAD_LOG.search(line)]
        assert not bad, f"the server logged errors: {bad}"

    def get(self, path: str) -> tuple[int, Any]:
        return http("GET", self.base + path)

    def create(self, **body: Any) -> str:
        status, answer = http("POST", self.base + "/api/rooms", body)
        assert status == 201, answer
        code: str = answer["code"]
        return code


async def open_ws(url: str) -> ClientConnection:
    return await connect(url, max_size=None, proxy=None, close_timeout=1)


@dataclass(frozen=True)
class Sent:
    """An ``act`` the player sent: its id, its action and the version it was decided on."""

    cid: str
    action: str
    version: int


class Player:
    """The human seat's client: decides at once and remembers every acknowledged id (over
    every server it talks to)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.ws: ClientConnection | None = None
        self.token: str | None = None
        self.state: Message | None = None
        self.sent: dict[str, Sent] = {}
        self.acked: dict[str, Sent] = {}  # every id answered by an ack
        self.pending: Sent | None = None  # sent, no ack seen (yet)
        self.acted = -1  # the version of the last state it decided on
        self.next_sent = -1  # the version of the last 'between' state it sent 'next' for
        self.n = 0

    async def send(self, **msg: Any) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(msg))

    async def recv(self, seconds: float = RECV_S, answer_to: str | None = None) -> Message:
        """The next message; an ``error`` fails the test unless it answers ``answer_to``."""
        assert self.ws is not None
        async with asyncio.timeout(seconds):
            raw = await self.ws.recv()
        m: Message = json.loads(raw)
        kind = m["type"]
        if kind == "error" and (answer_to is None or m.get("id") != answer_to):
            raise AssertionError(f"the server answered an error: {m}")
        if kind == "state":
            self.state = m
        elif kind == "ack":
            cid = m["id"]
            sent = self.sent[cid]  # an ack of an id never sent raises here
            if m["duplicate"]:
                assert cid in self.acked or self.pending == sent, f"duplicate ack of {cid}: {m}"
            else:
                assert cid not in self.acked, f"{cid} was applied twice: {m}"
            self.acked[cid] = sent
            if self.pending == sent:
                self.pending = None
        return m

    async def until(self, pred: Callable[[Message], bool], answer_to: str | None = None) -> Message:
        while True:
            m = await self.recv(answer_to=answer_to)
            if pred(m):
                return m

    async def join(self, url: str, code: str) -> Message:
        """Open a websocket and join ``code`` (with the token, once there is one); returns the
        first ``state`` after the ``welcome``."""
        self.ws = await open_ws(url)
        self.state, self.next_sent = None, -1
        msg: Message = {"type": "join", "room": code, "name": self.name}
        if self.token is not None:
            msg["token"] = self.token
        await self.send(**msg)
        welcome = await self.until(lambda m: m["type"] == "welcome")
        if self.token is not None:  # the seat back, with a new token (D91)
            assert welcome["token"] != self.token, welcome
            assert welcome["seat"] == HUMAN_SEAT, f"the token did not get the seat back: {welcome}"
        self.token = welcome["token"]
        return await self.until(lambda m: m["type"] == "state")

    def _my_turn(self, m: Message) -> bool:
        view = m["view"]
        return int(m["version"]) > self.acted and bool(view and view["legal_actions"])

    async def decision(self) -> Message:
        """The next state with a decision of the player (it asks for the next game between
        games)."""
        while True:
            st = self.state
            if st is not None:
                if self._my_turn(st):
                    return st
                status = st["room"]["status"]
                assert status != "over", f"the match ended after {len(self.acked)} decisions"
                if status == "between" and st["version"] > self.next_sent:
                    self.next_sent = st["version"]
                    await self.send(type="next")
            await self.recv()

    async def send_act(self) -> Sent:
        """Decide the next decision and send it (without waiting for the ack)."""
        st = await self.decision()
        legal: list[str] = st["view"]["legal_actions"]
        self.n += 1
        action = legal[1] if len(legal) > 1 else legal[0]  # see HUMAN_SEED
        sent = Sent(f"{self.name}-{self.n}", action, st["version"])
        self.sent[sent.cid] = self.pending = sent
        self.acted = sent.version
        await self.send(type="act", id=sent.cid, action=sent.action)
        return sent

    async def ack(self, cid: str) -> Message:
        return await self.until(lambda m: m["type"] == "ack" and m["id"] == cid)

    async def answer(self, cid: str) -> Message:
        """The server's answer to ``act`` ``cid``: its ack or its error."""
        return await self.until(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == cid, answer_to=cid
        )

    async def play(self, decisions: int) -> None:
        for _ in range(decisions):
            sent = await self.send_act()
            answer = await self.ack(sent.cid)
            assert answer["duplicate"] is False, answer

    async def drain(self) -> None:
        """Read what the killed server had sent (acks included) until the socket closes."""
        with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):
            while True:
                await self.recv(5.0)
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        self.ws = None


class Watcher:
    """A spectator of the all-bot room, reading in the background: the latest version."""

    def __init__(self) -> None:
        self.ws: ClientConnection | None = None
        self.task: asyncio.Task[None] | None = None
        self.version = -1

    async def open(self, url: str, code: str) -> None:
        self.ws = await open_ws(url)
        await self.ws.send(json.dumps({"type": "join", "room": code, "name": "watcher"}))
        self.version = -1
        self.task = asyncio.get_running_loop().create_task(self._read(self.ws))

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            async for raw in ws:
                m = json.loads(raw)
                assert m["type"] != "error", m
                if m["type"] == "state":
                    self.version = int(m["version"])

    async def grows(self, beyond: int) -> int:
        """Wait until the room's version is over ``beyond``."""
        end = time.monotonic() + GROW_S
        while self.version <= beyond:
            assert self.task is not None
            if self.task.done():
                self.task.result()  # an error the reader met
                raise AssertionError("the spectator's connection closed")
            assert time.monotonic() < end, f"the all-bot room stays at {self.version}"
            await asyncio.sleep(0.02)
        return self.version

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed, OSError):
                await self.task
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        self.ws = self.task = None


def check_store(db_url: str, human: str, bots: str, player: Player) -> tuple[int, int]:
    """Checks (1) and (2) on the stored rooms; returns their stored versions."""
    store = Store(db_url)
    try:
        rooms: dict[str, StoredRoom] = {r.code: r for r in store.load()}
    finally:
        store.close()
    for code in (human, bots):
        seqs = [a.seq for a in rooms[code].actions]
        assert seqs == list(range(1, len(seqs) + 1)), f"room {code}'s stored sequence has a gap"
    assert all(a.client_id is None for a in rooms[bots].actions)
    acts = [a for a in rooms[human].actions if a.client_id is not None]
    counts = Counter(a.client_id for a in acts)
    twice = sorted(str(cid) for cid, n in counts.items() if n != 1)
    assert not twice, f"ids stored more than once: {twice}"
    unknown = sorted(str(cid) for cid in counts if cid not in player.sent)
    assert not unknown, f"ids stored that the player never sent: {unknown}"
    missing = sorted(cid for cid in player.acked if cid not in counts)
    assert not missing, f"acknowledged ids not stored: {missing}"
    kinds = {x.seq: x.kind for x in rooms[human].actions}
    for a in acts:  # each as sent, right after the state it was decided on — or after the
        # new token its seat got when the player came back to send it again (D91)
        sent = player.sent[str(a.client_id)]
        assert (a.kind, a.seat, a.text) == ("act", HUMAN_SEAT, sent.action), (a, sent)
        between = [kinds[seq] for seq in range(sent.version + 1, a.seq)]
        assert a.seq > sent.version and set(between) <= {"rekey"}, f"{sent} stored as #{a.seq}"
    return len(rooms[human].actions), len(rooms[bots].actions)


@dataclass
class Tally:
    """What one run checked (printed with ``-s``)."""

    kills: int = 0
    acks: int = 0
    stored_human: int = 0
    stored_bots: int = 0
    events: list[str] = field(default_factory=list)
