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
"""

from __future__ import annotations

import argparse
import json
import threading
import time
import urllib.request
from typing import Any

from serverutil import serving, timings, under_load

MS = 1000.0
PASSWORD = "correct horse battery"


def _post(base: str, path: str, body: dict[str, Any]) -> int:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req) as r:
        r.read()
        return int(r.status)


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
    args = ap.parse_args()
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
