"""Replays under load (docs/performance.md, "Replays off the event loop"): does a client that
cycles uncached replays slow another table's players?

A real ``gouji serve`` on loopback (a subprocess, SQLite in a temporary folder) with
``replay_cache=1``, so that every replay asked for is computed anew. One all-bot room plays
``--games`` games to their end first. Then one room of one human and five bots (``bot_delay_ms``
0): the human answers each of its decisions at once over a websocket and we time ``act`` →
``ack`` (as benchmarks/server_load.py does) — first alone, then while ``--cyclers`` clients each
ask for the finished room's replays one after another (game 0, 1, …, 0, …), each waiting for
its answer before asking again. We report the acks' median and p95 and the replays' own times.

    .venv/bin/python benchmarks/replay_load.py
    .venv/bin/python benchmarks/replay_load.py --acts 400 --cyclers 1 2

``--limit NAME=VALUE`` is passed to the server (the script raises the message limit and, where
the server has it, the per-address replay limit: the cyclers ask at machine speed).
"""

from __future__ import annotations

import argparse
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from gouji.server.plumbing.limits import Limits
from serverutil import get_json, post_room, serving, timings, under_load

MS = 1000.0


def _cycle(base: str, code: str, games: int, stop: threading.Event, times: list[float]) -> None:
    """Ask for replays of games 0 … games − 1 in turn until ``stop``; each answer's time."""
    i = 0
    while not stop.is_set():
        t0 = time.perf_counter()
        try:
            with urllib.request.urlopen(f"{base}/api/rooms/{code}/games/{i}/replay") as r:
                r.read()
        except urllib.error.HTTPError as e:
            raise SystemExit(f"replay {i}: HTTP {e.code}: {e.read()[:200]!r}") from None
        times.append(time.perf_counter() - t0)
        i = (i + 1) % games


def run(acts: int, games: int, cyclers: list[int], limits: list[str]) -> list[dict[str, Any]]:
    out = []
    items = ["messages_per_s=10000", "message_burst=10000", "replay_cache=1"]
    if "replays_per_ip_per_min" in Limits.__dataclass_fields__:
        items.append("replays_per_ip_per_min=1000000")
    items += limits
    with serving(items) as base:
        table = {"bots": 6, "bot_delay_ms": 0, "next_delay_ms": 0, "games": games, "seed": 1}
        code = post_room(base, table)
        while get_json(base, f"/api/rooms/{code}")["status"] != "over":
            time.sleep(0.2)
        for n in cyclers:

            def cycle(stop: threading.Event, times: list[float]) -> None:
                _cycle(base, code, games, stop, times)

            found = under_load(base, acts, n, cycle)
            times = found.pop("times")
            out.append({"cyclers": n, **found, **timings("replay", times)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--acts", type=int, default=300, help="timed acts of the human, per run")
    ap.add_argument("--games", type=int, default=6, help="finished games whose replays cycle")
    ap.add_argument(
        "--cyclers", type=int, nargs="+", default=[0, 1], help="replay clients, per run"
    )
    ap.add_argument("--limit", action="append", default=[], help="a server limit NAME=VALUE")
    args = ap.parse_args()
    for r in run(args.acts, args.games, args.cyclers, args.limit):
        line = (
            f"{r['cyclers']} replay clients: act→ack median {r['ack_median_ms']:.2f} ms, "
            f"p95 {r['ack_p95_ms']:.2f} ms ({r['acts']} acts)"
        )
        if r["replays"]:
            line += (
                f"; {r['replays']} replays, median {r['replay_median_ms']:.1f} ms, "
                f"p95 {r['replay_p95_ms']:.1f} ms"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
