"""Log-ins under load (docs/performance.md, "Accounts"): argon2id costs about 0.1 s and 64 MiB a
hash; does a crowd logging in slow another table's players?

A real ``gouji serve`` on loopback (a subprocess, SQLite in a temporary folder) with the log-in
limits raised (the crowd logs in at machine speed from one address). One account is made; then
one room of one human and five bots (``bot_delay_ms`` 0): the human answers each of its
decisions at once over a websocket and we time ``act`` → ``ack`` (benchmarks/server_load.py's
probe) — first alone, then while ``--crowd`` clients each log in again and again (a right
password, each answer awaited before the next). We report the acks' median and p95 and the
log-ins' own times.

    .venv/bin/python benchmarks/accounts_load.py
    .venv/bin/python benchmarks/accounts_load.py --acts 400 --crowd 0 2 8

``--flood N …`` measures instead a legitimate log-in under a sign-up flood (issue 39, D162): the
server believes loopback's ``X-Forwarded-For`` (``FORWARDED_ALLOW_IPS``, as behind a proxy), so
N threads sign up the taken name ``bench`` again and again as one address elsewhere while one
client, at another address, logs in to ``bench`` ``--log-ins`` times (each answer awaited):
the log-ins' median and p95, and what the flood was answered (409 name taken, 429 limited).

    .venv/bin/python benchmarks/accounts_load.py --flood 0 30 --log-ins 30
"""

from __future__ import annotations

import argparse
import json
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

from serverutil import serving, timings, under_load

MS = 1000.0
PASSWORD = "correct horse battery"


FLOODER = "203.0.113.66"  # the flood's address (documentation range) …
PLAYER = "198.51.100.9"  # … and the legitimate player's
FLOOD_S = 120.0  # the longest a flood runs


def _post(base: str, path: str, body: dict[str, Any], address: str | None = None) -> int:
    headers = {"content-type": "application/json"}
    if address is not None:
        headers["x-forwarded-for"] = address
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            r.read()
            return int(r.status)
    except urllib.error.HTTPError as e:
        e.read()
        return int(e.code)


def _sign_up_loop(
    base: str, stop: threading.Event, answers: Counter[int], lock: threading.Lock
) -> None:
    """Sign up the taken name from the flood's address until ``stop`` (or ``FLOOD_S``)."""
    end = time.monotonic() + FLOOD_S
    while not stop.is_set() and time.monotonic() < end:
        body = {"name": "bench", "password": "another password"}
        status = _post(base, "/api/accounts", body, FLOODER)
        with lock:
            answers[status] += 1


def flood(floods: list[int], log_ins: int) -> list[dict[str, Any]]:
    """A legitimate log-in's times while ``n`` threads sign up a taken name, for each ``n``."""
    out = []
    for n in floods:  # a fresh server each: the flood's address starts with no attempts
        with serving(["messages_per_s=10000"], env={"FORWARDED_ALLOW_IPS": "127.0.0.1"}) as base:
            assert _post(base, "/api/accounts", {"name": "bench", "password": PASSWORD}) == 201
            stop = threading.Event()
            answers: Counter[int] = Counter()
            lock = threading.Lock()

            args = (base, stop, answers, lock)
            threads = [threading.Thread(target=_sign_up_loop, args=args) for _ in range(n)]
            for t in threads:
                t.start()
            time.sleep(1.0 if n else 0.0)  # the flood under way
            times = []
            for _ in range(log_ins):
                t0 = time.perf_counter()
                body = {"name": "bench", "password": PASSWORD}
                status = _post(base, "/api/session", body, PLAYER)
                if status != 200:
                    raise SystemExit(f"the legitimate log-in answered {status}")
                times.append(time.perf_counter() - t0)
            stop.set()
            for t in threads:
                t.join()
            out.append({"flood": n, **timings("log_in", times), "answers": dict(answers)})
    return out


def _log_in_loop(base: str, stop: threading.Event, times: list[float]) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        status = _post(base, "/api/session", {"name": "bench", "password": PASSWORD})
        if status != 200:
            raise SystemExit(f"log-in answered {status}")
        times.append(time.perf_counter() - t0)


def run(acts: int, crowds: list[int]) -> list[dict[str, Any]]:
    out = []
    items = [
        "messages_per_s=10000",
        "message_burst=10000",
        "login_failures_per_ip=1000000",
        "login_failures_per_account=1000000",
    ]
    with serving(items) as base:
        _post(base, "/api/accounts", {"name": "bench", "password": PASSWORD})
        for n in crowds:

            def log_in(stop: threading.Event, times: list[float]) -> None:
                _log_in_loop(base, stop, times)

            found = under_load(base, acts, n, log_in)
            times = found.pop("times")
            out.append({"crowd": n, **found, **timings("log_in", times)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--acts", type=int, default=300, help="timed acts of the human, per run")
    ap.add_argument("--crowd", type=int, nargs="+", default=[0, 4], help="clients logging in")
    ap.add_argument("--flood", type=int, nargs="+", help="threads signing up a taken name")
    ap.add_argument("--log-ins", type=int, default=30, help="timed log-ins under each flood")
    args = ap.parse_args()
    if args.flood:
        for f in flood(args.flood, args.log_ins):
            print(
                f"{f['flood']} threads signing up a taken name: {f['log_ins']} log-ins, "
                f"median {f['log_in_median_ms']:.0f} ms, p95 {f['log_in_p95_ms']:.0f} ms; "
                f"the flood answered {f['answers']}",
                flush=True,
            )
        return
    for r in run(args.acts, args.crowd):
        line = (
            f"{r['crowd']} clients logging in: act→ack median {r['ack_median_ms']:.2f} ms, "
            f"p95 {r['ack_p95_ms']:.2f} ms ({r['acts']} acts)"
        )
        if r["log_ins"]:
            line += (
                f"; {r['log_ins']} log-ins, median {r['log_in_median_ms']:.0f} ms, "
                f"p95 {r['log_in_p95_ms']:.0f} ms"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
