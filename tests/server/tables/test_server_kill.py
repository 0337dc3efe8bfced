"""Kill -9 and restart (SQLite and PostgreSQL).

A real ``gouji serve`` subprocess runs two rooms: one human seat (this test's websocket client,
deciding at once) with five bots, and an all-bot table watched by a spectator. At a seeded random
moment — after at least ``MIN_ACKS`` acknowledged decisions since the last start, while the bots
of both rooms play — the server gets SIGKILL and a new one starts on the same database. Each time:

1. every acknowledged ``act`` id is stored exactly once (and no id the client never sent), as the
   decision it was, at the version after the state it was decided on;
2. both rooms' stored sequences have no gap, and the new server's rooms (``GET /api/rooms/…``)
   are at least at the stored version, so at least at every acknowledged action's;
3. the player's token gets its seat back, its first ``state`` is consistent (version at least the
   last acknowledged one, ``legal_actions`` when ``to_act`` is its seat), the decision in flight at
   the kill is applied exactly once when sent again, an old id is answered as a duplicate, and
   the next decisions are acknowledged;
4. the all-bot room plays on (its version grows), and it was playing before the kill.

After the last restart a final kill checks the store once more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
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

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from gouji.server.site.store import Store
from gouji.server.tables.store import StoredRoom

from ..wsutil import free_port

pytestmark = pytest.mark.timeout(180)

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

_BAD_LOG = re.compile(r"traceback|error|exception|refused|failed", re.IGNORECASE)
_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no proxy


def _http(method: str, url: str, body: Message | None = None) -> tuple[int, Any]:
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
                if _http("GET", self.base + "/healthz") == (200, {"ok": True}):
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
        bad = [line for line in self.tail().splitlines() if _BAD_LOG.search(line)]
        assert not bad, f"the server logged errors: {bad}"

    def get(self, path: str) -> tuple[int, Any]:
        return _http("GET", self.base + path)

    def create(self, **body: Any) -> str:
        status, answer = _http("POST", self.base + "/api/rooms", body)
        assert status == 201, answer
        code: str = answer["code"]
        return code


async def _open(url: str) -> ClientConnection:
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
        self.ws = await _open(url)
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
        self.ws = await _open(url)
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


async def kill_and_restart(
    db_url: str, tmp: Path, procs: list[subprocess.Popen[bytes]], rng: random.Random
) -> Tally:
    tally = Tally()
    n_servers = 0

    def start() -> Server:
        nonlocal n_servers
        n_servers += 1
        return Server(db_url, tmp / f"server-{n_servers}.log", procs)

    server = start()
    human = server.create(bots=5, bot_delay_ms=0, timer_s=None, games=3, seed=HUMAN_SEED)
    bots = server.create(bots=6, bot_delay_ms=0, next_delay_ms=0, seed=BOT_SEED)
    watcher = Watcher()
    await watcher.open(server.ws_url, bots)
    player = Player("ann")
    await player.join(server.ws_url, human)
    await player.send(type="sit", seat=HUMAN_SEAT)
    await player.send(type="start")
    stored_bots = 0
    for round_ in range(KILLS + 1):
        # play to a random number of acknowledged decisions, then kill at a random moment:
        # with a decision in flight, or while the bots answer the last one
        if round_ == KILLS:  # the final kill only checks the store once more
            target = rng.randint(0, 4)
        else:
            target = rng.randint(MIN_ACKS, MAX_ACKS) - (AFTER_RESTART if round_ else 0)
        await player.play(target)
        in_flight = rng.random() < 0.5
        if in_flight:
            await player.send_act()
            await asyncio.sleep(rng.uniform(0, 0.004))
        else:
            await asyncio.sleep(rng.uniform(0, 0.02))
        seen = player.state["version"] if player.state is not None else -1
        server.kill()
        tally.kills += 1
        await player.drain()
        await watcher.close()

        # (1), (2): the store holds every acknowledged decision once, with no gap
        stored_human, stored = check_store(db_url, human, bots, player)
        assert stored > stored_bots, "the all-bot room did not play before the kill"
        stored_bots = stored
        tally.acks, tally.stored_human, tally.stored_bots = len(player.acked), stored_human, stored
        flight = "none"
        if in_flight:
            flight = "acked" if player.pending is None else "stored"
            if player.pending is not None and player.pending.version == stored_human:
                flight = "lost"
        tally.events.append(
            f"kill {tally.kills}: {len(player.acked)} acks, in flight {flight}, "
            f"human room seen v{seen} stored v{stored_human}, bot room stored v{stored}"
        )
        if round_ == KILLS:
            return tally

        # (2) the new server rebuilt both rooms at least to the stored versions
        server = start()
        rebuilt: dict[str, int] = {}
        for code, version in ((human, stored_human), (bots, stored_bots)):
            status, summary = server.get(f"/api/rooms/{code.lower()}")  # codes: any case
            assert status == 200, summary
            rebuilt[code] = summary["version"]
            assert rebuilt[code] >= version, f"room {code} rebuilt at v{rebuilt[code]} < v{version}"
        await watcher.open(server.ws_url, bots)

        # (3) the token gets the seat back; the state is consistent; play goes on
        st = await player.join(server.ws_url, human)
        last = max(s.version + 1 for s in player.acked.values())
        assert st["version"] >= max(last, stored_human), (st["version"], last, stored_human)
        room = st["room"]
        mine = room["seats"][HUMAN_SEAT]
        assert (mine["name"], mine["human"], mine["trust"]) == ("ann", True, False), mine
        assert room["status"] in ("playing", "between"), room["status"]
        if room["to_act"] == HUMAN_SEAT:
            assert st["view"]["legal_actions"], st["view"]
        if player.pending is not None:  # the decision in flight: applied once, whatever came
            sent = player.pending
            if sent.version == stored_human:  # it was not stored: the room waits for it (one
                # version later: the join gave the seat a new token, D91)
                assert st["version"] == sent.version + 1
                assert sent.action in st["view"]["legal_actions"]
            await player.send(type="act", id=sent.cid, action=sent.action)
            answer = await player.answer(sent.cid)
            stored_it = sent.version < stored_human
            assert answer == {"type": "ack", "id": sent.cid, "duplicate": stored_it}, (
                f"{sent} sent again (stored: {stored_it}): {answer}"
            )
        old = rng.choice(sorted(player.acked))
        await player.send(type="act", id=old, action=player.acked[old].action)
        answer = await player.answer(old)
        assert answer == {"type": "ack", "id": old, "duplicate": True}, (
            f"the rebuilt room does not remember the applied id {old}: {answer}"
        )
        await player.play(AFTER_RESTART)

        # (4) the all-bot room plays on
        await watcher.grows(rebuilt[bots])
    raise AssertionError("unreachable")


def test_kill_and_restart(db_url: str, tmp_path: Path) -> None:
    procs: list[subprocess.Popen[bytes]] = []
    rng = random.Random(f"{SEED}-{db_url.partition(':')[0]}")
    try:
        tally = asyncio.run(kill_and_restart(db_url, tmp_path, procs, rng))
    except BaseException:
        for log in sorted(tmp_path.glob("server-*.log")):  # shown with the failure
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}")
        raise
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    assert tally.kills == KILLS + 1
    assert tally.acks >= KILLS * MIN_ACKS
    print(f"\n{db_url.partition(':')[0]}: {tally.kills} kills, {tally.acks} acks checked")
    print("\n".join(tally.events))


def test_ctrl_c_stops_the_server_without_a_traceback(sqlite_url: str, tmp_path: Path) -> None:
    """Ctrl-C is how ``make serve`` is stopped: the rooms close, the process exits 0 and the
    terminal shows uvicorn's shutdown lines, not a Python traceback."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        server = Server(sqlite_url, tmp_path / "server-ctrl-c.log", procs)
        assert server.create(bots=6, seed=4) != ""
        server.proc.send_signal(signal.SIGINT)
        assert server.proc.wait(20) == 0, server.tail()
        assert "Traceback" not in server.tail(), server.tail()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
