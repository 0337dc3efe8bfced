"""What the server benchmarks share: a free loopback port, the HTTP calls they make, and
percentiles."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post_room(base: str, body: dict[str, Any]) -> str:
    """POST /api/rooms; the new room's code."""
    req = urllib.request.Request(base + "/api/rooms", data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(req) as r:
        code: str = json.load(r)["code"]
        return code


def get_json(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:
        return json.load(r)


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def timings(name: str, times: list[float]) -> dict[str, float]:
    """``{name}s`` counted and, when there are any, their median and 95th percentile in ms."""
    out: dict[str, float] = {f"{name}s": len(times)}
    if times:
        out[f"{name}_median_ms"] = statistics.median(times) * 1000.0
        out[f"{name}_p95_ms"] = pct(times, 0.95) * 1000.0
    return out


def under_load(
    base: str,
    acts: int,
    clients: int,
    load: Callable[[threading.Event, list[float]], None],
) -> dict[str, Any]:
    """One human's act → ack (server_load's probe) while ``clients`` threads each run
    ``load(stop, times)`` (appending the time of each of their requests) until it is done:
    the acks' median and p95 in ms, and the load's requests with their times."""
    from server_load import _probe  # server_load imports this module

    stop = threading.Event()
    times: list[float] = []
    threads = [threading.Thread(target=load, args=(stop, times)) for _ in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1.0 if clients else 0.0)  # the load under way
    times.clear()
    to_ack, _ = asyncio.run(_probe(base, acts))
    stop.set()
    for t in threads:
        t.join()
    return {
        "acts": len(to_ack),
        "ack_median_ms": statistics.median(to_ack) * 1000,
        "ack_p95_ms": pct(to_ack, 0.95) * 1000,
        "times": list(times),
    }


@contextlib.contextmanager
def serving(
    limits: list[str], db: str | None = None, env: dict[str, str] | None = None
) -> Iterator[str]:
    """A real ``gouji serve`` on a free loopback port with ``db`` (default: SQLite in a
    temporary folder), ``limits`` (``NAME=VALUE``) and ``env`` added to its environment, up
    and answering: its base URL; stopped on leaving."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        cmd = [sys.executable, "-m", "gouji.cli", "serve", "--port", str(port), "--db", db]
        for item in limits:
            cmd += ["--limit", item]
        proc = subprocess.Popen([*cmd, "--log-level", "warning"], env={**os.environ, **(env or {})})
        try:
            for _ in range(100):
                try:
                    get_json(base, "/healthz")
                    break
                except OSError:
                    time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            proc.wait(10)
