"""Server limits (docs/security.md): connections, spectators, floods, clients that do not read.

Every figure comes from a real ``gouji serve`` on loopback (a subprocess, SQLite in a temporary
folder) started with the ``--limit`` values printed above it; the clients run in this process.

1. Connections: ``--connections`` websockets from one address (server started with
   ``connections_per_ip`` = that + 10), with permessage-deflate (as browsers ask) and without:
   the server's resident memory (``VmRSS``) before and after, memory per connection, time to
   open them; then, with the default limit, the connection one over it gets ``error``
   ``too_many_connections`` and a close 1008.
2. Spectators: one room of one human and five bots (``bot_delay_ms`` 100); the human answers
   each decision at once and we time ``act`` → ``ack`` with 0 spectators and with each of
   ``--spectators`` joined and reading their states, and the server's CPU share meanwhile
   (``/proc/PID/stat``); spectator ``spectators_per_room + 1`` gets ``room_full``.
3. Flood: a client sends ``--flood`` pings as fast as it can (default limits): pongs, the
   ``rate_limited`` error, the close; it reconnects and floods again while a seated human's
   ``act`` → ``ack`` is timed. Then a client at ``--paced-rate`` messages a second, for contrast.
4. Clients that do not read (raw sockets; message limits raised, ``outbox`` at its default):
   one sends ``--unread-pings`` pings, one sends messages of an unknown 16,000-letter type (each
   answered by a short ``bad_message`` error: errors quote at most 40 characters of the client's
   text); whether and when the server drops and closes each, its memory, and how many more
   connections the address gets.

Parts run one after another (``--only`` picks some); a default run takes about 2.5 minutes on 2
cores, most of it the human's acts (bots at 100 ms) and the 43 s watch of part 4.

    .venv/bin/python benchmarks/server_limits.py
    .venv/bin/python benchmarks/server_limits.py --connections 1000 --spectators 50 200 --json
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import platform
import resource
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from gouji.server.plumbing.limits import Limits
from serverutil import free_port, get_json, pct, post_room

DEFAULTS = Limits()
ROOM = {"bots": 5, "timer_s": None, "next_delay_ms": 0}  # plus bot_delay_ms
PING = '{"type":"ping"}'
TCP_STATES = {
    "01": "ESTABLISHED",
    "02": "SYN_SENT",
    "03": "SYN_RECV",
    "04": "FIN_WAIT1",
    "05": "FIN_WAIT2",
    "06": "TIME_WAIT",
    "07": "CLOSE",
    "08": "CLOSE_WAIT",
    "09": "LAST_ACK",
    "0A": "LISTEN",
    "0B": "CLOSING",
}


# ---------------------------------------------------------------------------- the machine
def machine() -> dict[str, Any]:
    model = "?"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return {
        "nproc": len(os.sched_getaffinity(0)),
        "cpu": model,
        "python": platform.python_version(),
        "loadavg_at_start": load,
    }


def raise_fd_limit(want: int) -> int:
    """Let this process (and the servers it starts) hold ``want`` sockets if the hard limit does."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = new
    return soft


# ---------------------------------------------------------------------------- the server
class Server:
    """``gouji serve`` on a free loopback port with ``--limit`` items; /proc figures of it."""

    def __init__(self, tmp: Path, name: str, limits: list[str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.log_path = tmp / f"{name}.log"
        db = f"sqlite:///{tmp / (name + '.db')}"
        args = ["serve", "--port", str(self.port), "--db", db, "--log-level", "warning"]
        for item in limits:
            args += ["--limit", item]
        self.argv = [sys.executable, "-m", "gouji.cli", *args]
        shown = [a.replace(str(tmp), "$TMP") for a in args]
        self.command = "gouji " + shlex.join(shown)
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(self.argv, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(200):
            try:
                get_json(self.base, "/healthz")
                return self
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError(f"the server did not start: {self.log()}")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss_kib(self) -> int:
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def cpu_s(self) -> float:
        """utime + stime of the server process, in seconds."""
        with open(f"/proc/{self.pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
        # fields 14 and 15 of stat(5); ``rest`` starts at field 3
        return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def drops(self) -> int:
        """Connections the server logged as dropped."""
        return self.log().count("dropped a connection")

    def tcp_state(self, client_port: int) -> tuple[str, int]:
        """The server end of the connection from ``client_port``: its TCP state (``GONE`` when
        the kernel has forgotten it) and the bytes in its send queue."""
        state, sendq, _ = tcp_row(self.port, client_port)
        return state, sendq


def tcp_row(local_port: int, remote_port: int) -> tuple[str, int, int]:
    """The loopback socket ``local_port`` → ``remote_port`` in /proc/net/tcp: its state
    (``GONE`` when the kernel has forgotten it), send-queue and receive-queue bytes."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            for line in f.readlines()[1:]:
                parts = line.split()
                lp = int(parts[1].rsplit(":", 1)[1], 16)
                rp = int(parts[2].rsplit(":", 1)[1], 16)
                if lp == local_port and rp == remote_port:
                    tx, rx = parts[4].split(":")
                    return TCP_STATES.get(parts[3], parts[3]), int(tx, 16), int(rx, 16)
    return "GONE", 0, 0


def ms(xs: list[float]) -> dict[str, float]:
    """Median, 95th percentile and maximum of ``xs`` seconds, in ms (just ``n`` when empty)."""
    if not xs:
        return {"n": 0}
    return {
        "n": len(xs),
        "p50_ms": round(statistics.median(xs) * 1000, 2),
        "p95_ms": round(pct(xs, 0.95) * 1000, 2),
        "max_ms": round(max(xs) * 1000, 2),
    }


async def ws_connect(url: str, deflate: bool = True) -> ClientConnection:
    """A client like a browser's (permessage-deflate unless ``deflate`` is false); no client
    keepalive: the server pings (uvicorn) and the client answers by itself."""
    return await connect(
        url,
        ping_interval=None,
        max_size=None,
        open_timeout=30,
        compression="deflate" if deflate else None,
    )


async def expect_error(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    """The first ``error`` message on ``ws`` (other messages skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            msg: dict[str, Any] = json.loads(await ws.recv())
            if msg["type"] == "error":
                return msg


# ---------------------------------------------------------------------------- 1. connections
async def _open_many(
    url: str, n: int, parallel: int, deflate: bool
) -> tuple[list[ClientConnection], float]:
    sem = asyncio.Semaphore(parallel)

    async def one() -> ClientConnection:
        async with sem:
            return await ws_connect(url, deflate)

    t0 = time.perf_counter()
    conns = await asyncio.gather(*(one() for _ in range(n)))
    return list(conns), time.perf_counter() - t0


async def _ping_all(conns: list[ClientConnection]) -> float:
    """Every connection sends a ping and reads its pong (each handler is running)."""

    async def one(ws: ClientConnection) -> None:
        await ws.send(PING)
        while json.loads(await ws.recv())["type"] != "pong":
            pass

    t0 = time.perf_counter()
    await asyncio.gather(*(one(ws) for ws in conns))
    return time.perf_counter() - t0


async def _close_all(conns: list[ClientConnection]) -> None:
    await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)


def _many(tmp: Path, name: str, n: int, parallel: int, deflate: bool) -> dict[str, Any]:
    """Open ``n`` websockets to a fresh server: its memory and the time it takes."""
    out: dict[str, Any] = {}
    with Server(tmp, name, [f"connections_per_ip={n + 10}"]) as srv:

        async def run() -> None:
            warm = await ws_connect(srv.ws_url, deflate)  # the websocket path's imports
            await _ping_all([warm])
            await warm.close()
            await asyncio.sleep(0.5)
            before = srv.rss_kib()
            fds0 = srv.fds()
            conns, open_s = await _open_many(srv.ws_url, n, parallel, deflate)
            ping_s = await _ping_all(conns)
            await asyncio.sleep(0.5)
            after = srv.rss_kib()
            fds1 = srv.fds()
            await _close_all(conns)
            await asyncio.sleep(1.0)
            closed = srv.rss_kib()
            out.update(
                server=srv.command,
                permessage_deflate=deflate,
                connections=n,
                parallel_opens=parallel,
                open_s=round(open_s, 3),
                open_ms_each=round(open_s / n * 1000, 3),
                ping_all_s=round(ping_s, 3),
                rss_before_kib=before,
                rss_after_kib=after,
                rss_after_close_kib=closed,
                kib_per_connection=round((after - before) / n, 1),
                server_fds_before=fds0,
                server_fds_after=fds1,
            )

        asyncio.run(run())
    return out


def connections(tmp: Path, n: int, parallel: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "runs": [
            _many(tmp, "conns", n, parallel, deflate=True),  # what browsers ask for
            _many(tmp, "conns-plain", n, parallel, deflate=False),
        ]
    }
    most = DEFAULTS.connections_per_ip
    with Server(tmp, "conns-default", []) as srv:

        async def over() -> None:
            conns = [await ws_connect(srv.ws_url) for _ in range(most)]
            await _ping_all(conns)
            extra = await ws_connect(srv.ws_url)
            err = await expect_error(extra)
            close_code: int | None = None
            reason = ""
            try:
                async with asyncio.timeout(10):
                    await extra.recv()
            except ConnectionClosed as e:
                close_code = e.rcvd.code if e.rcvd is not None else None
                reason = e.rcvd.reason if e.rcvd is not None else ""
            # one of the limit goes away: a new one is let in again
            await conns.pop().close()
            again = "refused"
            for _ in range(50):
                await asyncio.sleep(0.05)
                ws = await ws_connect(srv.ws_url)
                await ws.send(PING)
                if json.loads(await ws.recv())["type"] == "pong":
                    again = "accepted"
                    conns.append(ws)
                    break
                await ws.close()
            await _close_all(conns)
            out["over_limit"] = {
                "server": srv.command,
                "limit": most,
                "connection": most + 1,
                "error_code": err.get("code"),
                "error_message": err.get("message"),
                "close_code": close_code,
                "close_reason": reason,
                "after_one_closes": again,
            }

        asyncio.run(over())
    return out


# ---------------------------------------------------------------------------- the human
class Human:
    """One seated human in a room of bots who answers each decision at once; ``samples``
    collects act → ack times (swap it for a new list to start a new window)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.samples: list[float] = []
        self.errors: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def seat(cls, url: str, code: str) -> Human:
        ws = await ws_connect(url)
        await ws.send(json.dumps({"type": "join", "room": code, "name": "human"}))
        await ws.send(json.dumps({"type": "sit", "seat": 0}))
        await ws.send(json.dumps({"type": "start"}))
        h = cls(ws)
        h.task = asyncio.get_running_loop().create_task(h._run())
        return h

    async def _run(self) -> None:
        ws = self.ws
        acted = -1
        n = 0
        sent_at = 0.0
        waiting = False
        while True:
            msg = json.loads(await ws.recv())
            now = time.perf_counter()
            if msg["type"] == "ack":
                self.samples.append(now - sent_at)
                waiting = False
                continue
            if msg["type"] == "error":
                self.errors.append(msg)
                waiting = False
                continue
            if msg["type"] != "state":
                continue
            view = msg["view"]
            if msg["room"]["status"] == "between":
                await ws.send(json.dumps({"type": "next"}))
                continue
            if view and view["legal_actions"] and msg["version"] > acted and not waiting:
                n += 1
                acted = msg["version"]
                waiting = True
                action = view["legal_actions"][0]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "id": f"h{n}", "action": action}))

    async def window(self, acts: int, timeout: float) -> list[float]:
        """The next ``acts`` act → ack times (fewer if ``timeout`` seconds pass)."""
        self.samples = []
        t0 = time.monotonic()
        while len(self.samples) < acts and time.monotonic() - t0 < timeout:
            if self.task is not None and self.task.done():
                self.task.result()  # raises what stopped it
            await asyncio.sleep(0.02)
        return self.samples[:acts]

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        await self.ws.close()


# ---------------------------------------------------------------------------- 2. spectators
class Spectator:
    """A watcher that reads every message and counts the states."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.states = 0
        self.bytes = 0
        self.task: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                if isinstance(raw, str) and raw.startswith('{"type":"state"'):
                    self.states += 1
                    self.bytes += len(raw)


async def _join_spectators(url: str, code: str, k: int, first: int) -> list[Spectator]:
    async def one(i: int) -> Spectator:
        ws = await ws_connect(url)
        await ws.send(json.dumps({"type": "join", "room": code, "name": f"s{i}"}))
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "welcome":
                break
            if msg["type"] == "error":
                raise RuntimeError(f"spectator {i}: {msg}")
        s = Spectator(ws)
        s.task = asyncio.get_running_loop().create_task(s._read())
        return s

    sem = asyncio.Semaphore(20)

    async def limited(i: int) -> Spectator:
        async with sem:
            return await one(i)

    return list(await asyncio.gather(*(limited(first + i) for i in range(k))))


async def _measure_phase(
    srv: Server, human: Human, watchers: list[Spectator], acts: int, code: str
) -> dict[str, Any]:
    v0 = get_json(srv.base, f"/api/rooms/{code}")["version"]
    s0 = [(w.states, w.bytes) for w in watchers]
    cpu0, t0 = srv.cpu_s(), time.perf_counter()
    samples = await human.window(acts, timeout=30 + acts * 3)
    cpu1, t1 = srv.cpu_s(), time.perf_counter()
    v1 = get_json(srv.base, f"/api/rooms/{code}")["version"]
    wall = t1 - t0
    states = [w.states - a for w, (a, _) in zip(watchers, s0, strict=True)]
    sizes = [w.bytes - b for w, (_, b) in zip(watchers, s0, strict=True)]
    return {
        "spectators": len(watchers),
        "act_ack": ms(samples),
        "wall_s": round(wall, 2),
        "server_cpu_pct": round(100 * (cpu1 - cpu0) / wall, 1),
        "room_versions_per_s": round((v1 - v0) / wall, 1),
        "states_per_spectator_per_s": (
            round(statistics.mean(states) / wall, 1) if watchers else None
        ),
        "fewest_states_of_a_spectator": min(states) if watchers else None,
        "spectator_kib_per_s": round(sum(sizes) / wall / 1024, 1) if watchers else None,
        "rss_kib": srv.rss_kib(),
    }


def spectators(tmp: Path, ks: list[int], acts: int, bot_delay_ms: int) -> list[dict[str, Any]]:
    """Phases 0 and each k of ``ks``; one server per spectator limit (max(k, the default))."""
    groups: dict[int, list[int]] = {}
    for k in sorted({0, *ks}):
        groups.setdefault(max(k, DEFAULTS.spectators_per_room), []).append(k)
    out: list[dict[str, Any]] = []
    for limit, phases in groups.items():
        items = [f"connections_per_ip={limit + 20}"]
        if limit != DEFAULTS.spectators_per_room:
            items.append(f"spectators_per_room={limit}")
        with Server(tmp, f"spect-{limit}", items) as srv:

            async def run(srv: Server, limit: int, phases: list[int]) -> None:
                code = post_room(srv.base, {**ROOM, "bot_delay_ms": bot_delay_ms})
                human = await Human.seat(srv.ws_url, code)
                await human.window(3, timeout=30)  # the match is under way
                watchers: list[Spectator] = []
                for k in phases:
                    t0 = time.perf_counter()
                    cpu0 = srv.cpu_s()
                    watchers += await _join_spectators(
                        srv.ws_url, code, k - len(watchers), len(watchers)
                    )
                    join_s = time.perf_counter() - t0
                    join_cpu = srv.cpu_s() - cpu0
                    r = await _measure_phase(srv, human, watchers, acts, code)
                    r["server"] = srv.command
                    r["join_s"] = round(join_s, 2)
                    r["join_server_cpu_s"] = round(join_cpu, 2)
                    out.append(r)
                one_more = await ws_connect(srv.ws_url)
                await one_more.send(json.dumps({"type": "join", "room": code, "name": "late"}))
                err = await expect_error(one_more)
                await one_more.close()
                out[-1]["one_more"] = {
                    "spectator": limit + 1,
                    "error_code": err.get("code"),
                    "error_message": err.get("message"),
                }
                await human.close()
                await _close_all([w.ws for w in watchers])
                for w in watchers:
                    if w.task is not None:
                        w.task.cancel()

            asyncio.run(run(srv, limit, phases))
    return out


# ---------------------------------------------------------------------------- 3. flood
async def _flood_once(url: str, n: int) -> dict[str, Any]:
    """One client sends ``n`` pings as fast as it can, reading meanwhile."""
    ws = await ws_connect(url)
    got: list[tuple[float, dict[str, Any]]] = []
    t0 = time.perf_counter()

    async def reader() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                got.append((time.perf_counter() - t0, json.loads(raw)))

    task = asyncio.get_running_loop().create_task(reader())
    sent = 0
    with contextlib.suppress(ConnectionClosed):
        for _ in range(n):
            await ws.send(PING)
            sent += 1
    sent_s = time.perf_counter() - t0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(10):
            await task
    closed_s = time.perf_counter() - t0
    errors = [(t, m) for t, m in got if m["type"] == "error"]
    rcvd = ws.protocol.close_rcvd
    return {
        "pings_sent": sent,
        "send_s": round(sent_s, 4),
        "pongs": sum(1 for _, m in got if m["type"] == "pong"),
        "rate_limited_at_s": next(
            (round(t, 4) for t, m in errors if m["code"] == "rate_limited"), None
        ),
        "errors": [m.get("code") for _, m in errors],
        "closed_at_s": round(closed_s, 4),
        "close_code": rcvd.code if rcvd is not None else None,
        "close_reason": rcvd.reason if rcvd is not None else None,
    }


async def _paced(url: str, rate: float, seconds: float) -> dict[str, Any]:
    """A client that sends pings at ``rate`` a second and reads: the error, then the close."""
    ws = await ws_connect(url)
    got: list[tuple[float, dict[str, Any]]] = []
    t0 = time.perf_counter()

    async def reader() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                got.append((time.perf_counter() - t0, json.loads(raw)))

    task = asyncio.get_running_loop().create_task(reader())
    sent = 0
    with contextlib.suppress(ConnectionClosed):
        while time.perf_counter() - t0 < seconds and not task.done():
            await ws.send(PING)
            sent += 1
            await asyncio.sleep(max(0.0, t0 + sent / rate - time.perf_counter()))
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(5):
            await task
    end = time.perf_counter() - t0
    rcvd = ws.protocol.close_rcvd
    await ws.close()
    return {
        "rate_per_s": rate,
        "pings_sent": sent,
        "pongs": sum(1 for _, m in got if m["type"] == "pong"),
        "rate_limited_at_s": next(
            (round(t, 3) for t, m in got if m.get("code") == "rate_limited"), None
        ),
        "closed_at_s": round(end, 3) if rcvd is not None else None,
        "close_code": rcvd.code if rcvd is not None else None,
        "close_reason": rcvd.reason if rcvd is not None else None,
    }


def flood(tmp: Path, n: int, acts: int, bot_delay_ms: int, paced_rate: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with Server(tmp, "flood", []) as srv:

        async def run() -> None:
            code = post_room(srv.base, {**ROOM, "bot_delay_ms": bot_delay_ms})
            human = await Human.seat(srv.ws_url, code)
            await human.window(3, timeout=30)
            cpu0, t0 = srv.cpu_s(), time.perf_counter()
            quiet = await human.window(acts, timeout=30 + acts * 3)
            quiet_cpu = (srv.cpu_s() - cpu0) / (time.perf_counter() - t0)
            first = await _flood_once(srv.ws_url, n)
            floods: list[dict[str, Any]] = []
            stop = asyncio.Event()

            async def flooder() -> None:
                while not stop.is_set():
                    floods.append(await _flood_once(srv.ws_url, n))

            drops0 = srv.drops()
            task = asyncio.get_running_loop().create_task(flooder())
            cpu0, t0 = srv.cpu_s(), time.perf_counter()
            during = await human.window(acts, timeout=30 + acts * 3)
            wall = time.perf_counter() - t0
            flood_cpu = (srv.cpu_s() - cpu0) / wall
            stop.set()
            await task
            paced = await _paced(srv.ws_url, paced_rate, 10.0)
            await human.close()
            out.update(
                server=srv.command,
                first_flood=first,
                quiet={"act_ack": ms(quiet), "server_cpu_pct": round(100 * quiet_cpu, 1)},
                during_floods={
                    "act_ack": ms(during),
                    "server_cpu_pct": round(100 * flood_cpu, 1),
                    "wall_s": round(wall, 2),
                    "flood_connections": len(floods),
                    "pings_sent": sum(f["pings_sent"] for f in floods),
                    "pongs": sum(f["pongs"] for f in floods),
                    "rate_limited_errors": sum(f["rate_limited_at_s"] is not None for f in floods),
                    "closes_1008": sum(f["close_code"] == 1008 for f in floods),
                    "server_logged_drops": srv.drops() - drops0,
                    "human_errors": [e.get("code") for e in human.errors],
                },
                paced=paced,
            )

        asyncio.run(run())
    return out


# ---------------------------------------------------------------------------- 4. not reading
class RawClient:
    """A websocket client on a plain socket: it sends masked text frames and never reads."""

    def __init__(self, port: int) -> None:
        self.sock = socket.socket()
        self.sock.connect(("127.0.0.1", port))
        self.port: int = self.sock.getsockname()[1]
        self.server_port = port
        self.t0 = time.monotonic()
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:  # the handshake's answer, byte by byte: nothing more
            byte = self.sock.recv(1)
            if not byte:
                raise RuntimeError("the server closed during the handshake")
            head += byte
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"no websocket: {head[:80]!r}")
        self.sock.settimeout(2.0)
        self.sent = 0
        self.blocked_at: float | None = None  # when a send could not finish in 2 s

    @staticmethod
    def frame(text: str) -> bytes:
        """One masked text frame (one mask for all: the server does not care)."""
        data = text.encode()
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        if len(data) < 126:
            head = bytes([0x81, 0x80 | len(data)])
        else:
            assert len(data) < 1 << 16
            head = bytes([0x81, 0x80 | 126]) + len(data).to_bytes(2, "big")
        return head + mask + masked

    def send(self, frames: bytes, n: int) -> bool:
        """Send ``n`` messages (``frames``); False when the server takes no more."""
        if self.blocked_at is not None:
            return False
        try:
            self.sock.sendall(frames)
            self.sent += n
            return True
        except OSError:  # a timeout (the server reads no more), a reset, a broken pipe
            self.blocked_at = time.monotonic()
            return False

    def unread(self) -> int:
        """Bytes the server sent that wait unread in this socket."""
        return tcp_row(self.port, self.server_port)[2]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def _feed(
    srv: Server, c: RawClient, message: str, most: int, batch: int, pace_s: float
) -> dict[str, Any]:
    """``c`` sends ``message`` ``batch`` at a time every ``pace_s`` seconds (so the server
    writes between batches: only not reading piles messages up) until ``most`` are sent, the
    server drops it or stops reading; it never reads."""
    frames = RawClient.frame(message) * batch
    drops0 = srv.drops()
    dropped_at: float | None = None
    peak = srv.rss_kib()
    while c.sent < most:
        if not c.send(frames, batch):
            break
        time.sleep(pace_s)
        if srv.drops() > drops0:
            dropped_at = time.monotonic() - c.t0
            break
        if c.sent % (batch * 20) == 0:
            peak = max(peak, srv.rss_kib())
    if dropped_at is None and c.blocked_at is not None and srv.drops() > drops0:
        dropped_at = c.blocked_at - c.t0
    state, sendq = srv.tcp_state(c.port)
    lines = [x for x in srv.log().splitlines() if "dropped a connection" in x]
    return {
        "message_bytes": len(message),
        "sent": c.sent,
        "send_s": round(time.monotonic() - c.t0, 2),
        "blocked": c.blocked_at is not None,
        "dropped_at_s": None if dropped_at is None else round(dropped_at, 2),
        "server_log": lines[-1] if dropped_at is not None and lines else "",
        "unread_in_client_bytes": c.unread(),
        "server_send_queue_bytes": sendq,
        "server_tcp_state": state,
        "server_closed_at_s": None,
        "rss_peak_kib": max(peak, srv.rss_kib()),
    }


async def _count_accepted(url: str, most: int) -> int:
    """Open websockets (each pings) until the server refuses one (``most`` at most): how
    many it served."""
    conns: list[ClientConnection] = []
    served = 0
    try:
        for _ in range(most):
            ws = await ws_connect(url)
            conns.append(ws)
            async with asyncio.timeout(5):
                await ws.send(PING)
                if json.loads(await ws.recv())["type"] != "pong":
                    break
            served += 1
    except (ConnectionClosed, TimeoutError):
        pass
    await _close_all(conns)
    return served


def not_reading(
    tmp: Path, pings: int, big: int, batch: int, pace_s: float, wait_s: float
) -> dict[str, Any]:
    """Two raw clients that never read: one sends ``pings`` pings, ``batch`` at a time every
    ``pace_s`` seconds; one sends messages of an unknown 16,000-letter type, each answered by
    a ~16 KB ``bad_message`` error, until the server drops it (``big`` at most). Then we watch
    the server's end of each connection for up to ``wait_s`` seconds from its start."""
    items = ["messages_per_s=100000", "message_burst=100000"]
    out: dict[str, Any] = {}
    with Server(tmp, "unread", items) as srv:
        time.sleep(0.5)
        rss0, fds0 = srv.rss_kib(), srv.fds()
        clients = {"pings": RawClient(srv.port), "16 KB errors": RawClient(srv.port)}
        rows = {
            "pings": _feed(srv, clients["pings"], PING, pings, batch, pace_s),
            "16 KB errors": _feed(
                srv,
                clients["16 KB errors"],
                json.dumps({"type": "x" * 16000}),
                big,
                max(1, batch // 5),
                pace_s,
            ),
        }
        rss1, fds1 = srv.rss_kib(), srv.fds()
        # how many more connections this address may open while the two are there
        most = DEFAULTS.connections_per_ip
        served = asyncio.run(_count_accepted(srv.ws_url, most + 2))
        states_then = {n: srv.tcp_state(c.port)[0] for n, c in clients.items()}
        peak = max(r["rss_peak_kib"] for r in rows.values())
        start = min(c.t0 for c in clients.values())
        while time.monotonic() - start < wait_s:
            for name, c in clients.items():
                row = rows[name]
                if row["server_closed_at_s"] is None:
                    state, _ = srv.tcp_state(c.port)
                    if state not in ("ESTABLISHED", "CLOSE_WAIT"):
                        row["server_closed_at_s"] = round(time.monotonic() - c.t0, 1)
                        row["server_tcp_state_then"] = state
            peak = max(peak, srv.rss_kib())
            if all(r["server_closed_at_s"] is not None for r in rows.values()):
                break
            time.sleep(0.25)
        for name, c in clients.items():
            rows[name]["server_tcp_state_end"] = srv.tcp_state(c.port)[0]
            rows[name]["unread_in_client_bytes_end"] = c.unread()
        fds_end, rss_end = srv.fds(), srv.rss_kib()
        for c in clients.values():
            c.close()
        out.update(
            server=srv.command,
            outbox=DEFAULTS.outbox,
            batch=batch,
            pace_ms=round(pace_s * 1000, 1),
            clients=rows,
            rss_before_kib=rss0,
            rss_after_sending_kib=rss1,
            rss_peak_kib=peak,
            rss_end_kib=rss_end,
            server_fds_before=fds0,
            server_fds_after_sending=fds1,
            server_fds_end=fds_end,
            connections_per_ip=most,
            new_connections_served=served,
            server_ends_then=states_then,
            watched_s=round(time.monotonic() - start, 1),
        )
    return out


# ---------------------------------------------------------------------------- printing
def _kib(x: float) -> str:
    return f"{x / 1024:,.1f} MiB" if abs(x) >= 10240 else f"{x:,.0f} KiB"


def _table(rows: list[tuple[str, str]]) -> None:
    width = max(len(a) for a, _ in rows)
    for a, b in rows:
        print(f"  {a:<{width}}  {b}")


def _lat(d: dict[str, Any]) -> str:
    if not d["n"]:
        return "no acts timed"
    p50, p95, top = d["p50_ms"], d["p95_ms"], d["max_ms"]
    return f"p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {top:.2f} ms (n={d['n']})"


def show(report: dict[str, Any]) -> None:
    m = report["machine"]
    print(f"command: {report['command']}")
    print(
        f"machine: nproc {m['nproc']}, {m['cpu']}, Python {m['python']}, "
        f"loadavg {m['loadavg_at_start']} at start; run {report['run_s']:.0f} s"
    )
    if "connections" in report:
        c = report["connections"]
        for r in c["runs"]:
            deflate = "permessage-deflate" if r["permessage_deflate"] else "no compression"
            print(f"\n1. connections ({deflate})   server: {r['server']}")
            _table(
                [
                    ("websockets open from 127.0.0.1", f"{r['connections']:,}"),
                    (
                        "time to open them",
                        f"{r['open_s']:.2f} s ({r['open_ms_each']:.2f} ms each, "
                        f"{r['parallel_opens']} at a time); a ping on each: "
                        f"{r['ping_all_s']:.2f} s",
                    ),
                    ("server RSS before", _kib(r["rss_before_kib"])),
                    ("server RSS with them open", _kib(r["rss_after_kib"])),
                    ("memory per connection", f"{r['kib_per_connection']:.1f} KiB"),
                    ("server RSS after they close", _kib(r["rss_after_close_kib"])),
                    (
                        "server fds before / open",
                        f"{r['server_fds_before']} / {r['server_fds_after']}",
                    ),
                ]
            )
        o = c["over_limit"]
        print(f"   over the limit   server: {o['server']}")
        _table(
            [
                (
                    f"connection {o['connection']} (limit {o['limit']})",
                    f"error {o['error_code']}: {o['error_message']!r}",
                ),
                ("then", f"close {o['close_code']} {o['close_reason']!r}"),
                ("after one of them closes", f"a new connection is {o['after_one_closes']}"),
            ]
        )
    if "spectators" in report:
        print("\n2. spectators (one human, five bots; act → ack of the human)")
        for r in report["spectators"]:
            print(f"   {r['spectators']} spectators   server: {r['server']}")
            rows = [
                ("act → ack", _lat(r["act_ack"])),
                (
                    "server CPU",
                    f"{r['server_cpu_pct']:.1f} % of one core over {r['wall_s']:.1f} s; "
                    f"RSS {_kib(r['rss_kib'])}",
                ),
                ("room versions/s", f"{r['room_versions_per_s']:.1f}"),
            ]
            if r["spectators"]:
                rows += [
                    (
                        "joining them",
                        f"{r['join_s']:.2f} s, server CPU {r['join_server_cpu_s']:.2f} s",
                    ),
                    (
                        "states to each spectator",
                        f"{r['states_per_spectator_per_s']:.1f}/s (fewest: "
                        f"{r['fewest_states_of_a_spectator']}), all: "
                        f"{r['spectator_kib_per_s']:,.0f} KiB/s",
                    ),
                ]
            if "one_more" in r:
                om = r["one_more"]
                rows.append(
                    (
                        f"spectator {om['spectator']}",
                        f"error {om['error_code']}: {om['error_message']!r}",
                    )
                )
            _table(rows)
    if "flood" in report:
        f = report["flood"]
        ff = f["first_flood"]
        d = f["during_floods"]
        p = f["paced"]
        print(f"\n3. flood   server: {f['server']}")
        _table(
            [
                (
                    "one client, pings as fast as it can",
                    f"{ff['pings_sent']} sent in {ff['send_s'] * 1000:.1f} ms; {ff['pongs']} pongs",
                ),
                (
                    "rate_limited error",
                    "never came"
                    if ff["rate_limited_at_s"] is None
                    else f"at {ff['rate_limited_at_s'] * 1000:.1f} ms",
                ),
                (
                    "close",
                    f"{ff['close_code']} {ff['close_reason']!r} at "
                    f"{ff['closed_at_s'] * 1000:.1f} ms",
                ),
                ("human act → ack, no flood", _lat(f["quiet"]["act_ack"])),
                (
                    "human act → ack, floods going on",
                    _lat(d["act_ack"]) + f"; human errors: {d['human_errors'] or 'none'}",
                ),
                (
                    "the floods meanwhile",
                    f"{d['flood_connections']} connections one after another in "
                    f"{d['wall_s']:.1f} s, {d['pings_sent']:,} pings, {d['pongs']:,} pongs, "
                    f"{d['rate_limited_errors']} rate_limited errors, "
                    f"{d['closes_1008']} closes 1008",
                ),
                (
                    "server CPU, no flood / floods",
                    f"{f['quiet']['server_cpu_pct']:.1f} % / {d['server_cpu_pct']:.1f} %",
                ),
                (
                    f"a client at {p['rate_per_s']:g} pings/s (reads)",
                    f"{p['pings_sent']} sent, {p['pongs']} pongs, rate_limited at "
                    f"{p['rate_limited_at_s']} s, close {p['close_code']} "
                    f"{p['close_reason']!r} at {p['closed_at_s']} s",
                ),
            ]
        )
    if "not_reading" in report:
        u = report["not_reading"]
        print(f"\n4. clients that do not read   server: {u['server']}")
        print(f"   raw sockets that never read (outbox limit {u['outbox']})")
        lines: list[tuple[str, str]] = []
        for name, r in u["clients"].items():
            closed = r["server_closed_at_s"]
            dropped = r["dropped_at_s"]
            lines += [
                (
                    f"{name} ({r['message_bytes']:,} B each)",
                    f"{r['sent']:,} sent in {r['send_s']:.2f} s"
                    + (", then the server read no more" if r.get("blocked") else ""),
                ),
                (
                    "  dropped (outbox limit)",
                    f"at {dropped:.2f} s: {r['server_log']!r}" if dropped is not None else "no",
                ),
                (
                    "  unread in client / server send queue",
                    f"{_kib(r['unread_in_client_bytes'] / 1024)} / "
                    f"{_kib(r['server_send_queue_bytes'] / 1024)} "
                    f"(server end {r['server_tcp_state']})",
                ),
                (
                    "  server closed its end",
                    f"at {closed:.1f} s ({r.get('server_tcp_state_then')})"
                    if closed is not None
                    else f"not within {u['watched_s']:.0f} s (server end "
                    f"{r['server_tcp_state_end']}, "
                    f"{_kib(r['unread_in_client_bytes_end'] / 1024)} unread in the client)",
                ),
            ]
        lines += [
            (
                "server RSS before / after / peak / end",
                f"{_kib(u['rss_before_kib'])} / {_kib(u['rss_after_sending_kib'])} / "
                f"{_kib(u['rss_peak_kib'])} / {_kib(u['rss_end_kib'])}",
            ),
            (
                "server fds before / after / end",
                f"{u['server_fds_before']} / {u['server_fds_after_sending']} / "
                f"{u['server_fds_end']}",
            ),
            (
                "then new connections from 127.0.0.1",
                f"{u['new_connections_served']} served, then too_many_connections "
                f"(limit {u['connections_per_ip']}); the two non-readers' server ends "
                "meanwhile: " + ", ".join(f"{k} {v}" for k, v in u["server_ends_then"].items()),
            ),
        ]
        _table(lines)


def _here(path: str) -> str:
    """``path`` relative to the current folder when it is below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


@contextlib.contextmanager
def _tmpdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="gouji-limits-") as tmp:
        yield Path(tmp)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--connections", type=int, default=1000, help="websockets to open (1.)")
    ap.add_argument("--parallel", type=int, default=50, help="opened at a time (1.)")
    ap.add_argument(
        "--spectators", type=int, nargs="+", default=[50, 200], help="spectator counts (2.)"
    )
    ap.add_argument("--acts", type=int, default=30, help="timed acts of the human a phase")
    ap.add_argument("--bot-delay-ms", type=int, default=100, help="the rooms' bot delay")
    ap.add_argument("--flood", type=int, default=1000, help="pings of one flood (3.)")
    ap.add_argument("--paced-rate", type=float, default=50.0, help="pings/s of the paced client")
    ap.add_argument("--unread-pings", type=int, default=5000, help="pings of a non-reader (4.)")
    ap.add_argument(
        "--unread-big", type=int, default=2000, help="16 KB messages of a non-reader, at most (4.)"
    )
    ap.add_argument("--unread-batch", type=int, default=10, help="pings a batch (4.)")
    ap.add_argument("--unread-pace-ms", type=float, default=5.0, help="ms between batches (4.)")
    ap.add_argument(
        "--unread-wait", type=float, default=43.0, help="seconds to watch the non-readers (4.)"
    )
    ap.add_argument(
        "--only",
        nargs="+",
        choices=["connections", "spectators", "flood", "not_reading"],
        help="run only these parts",
    )
    ap.add_argument("--json", action="store_true", help="one JSON object")
    args = ap.parse_args()
    parts = set(args.only or ["connections", "spectators", "flood", "not_reading"])
    raise_fd_limit(args.connections + max(args.spectators) + 500)
    t0 = time.perf_counter()
    report: dict[str, Any] = {
        "command": shlex.join([_here(sys.executable), *sys.argv]),
        "machine": machine(),
    }
    with _tmpdir() as tmp:
        if "connections" in parts:
            report["connections"] = connections(tmp, args.connections, args.parallel)
        if "spectators" in parts:
            report["spectators"] = spectators(tmp, args.spectators, args.acts, args.bot_delay_ms)
        if "flood" in parts:
            report["flood"] = flood(tmp, args.flood, args.acts, args.bot_delay_ms, args.paced_rate)
        if "not_reading" in parts:
            report["not_reading"] = not_reading(
                tmp,
                args.unread_pings,
                args.unread_big,
                args.unread_batch,
                args.unread_pace_ms / 1000,
                args.unread_wait,
            )
    report["run_s"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        show(report)


if __name__ == "__main__":
    main()
