"""Site figures (docs/performance.md, "Several processes"): what 1, 2 and 4 worker processes
behind HAProxy hold on one machine, and how long a take-over after kill -9 takes.

Everything runs on loopback: a throwaway PostgreSQL cluster (initdb in a temporary folder),
the workers and HAProxy started as ``gouji serve --workers N`` starts them
(``gouji.server.site.supervisor.Supervisor``), the clients in this process.

1. Load: for each worker count and each table count, that many all-bot tables (``bots: 6``,
   heuristic, ``bot_delay_ms`` as given, ``games: 1000``) are created through the proxy (they
   spread over the workers); after a warm-up, the decisions every worker applied over a window
   (``gouji_decisions_total`` of each worker's ``/metrics``), the tables' own (their stored
   actions) and the pace they keep (their decisions/s over tables × the ideal rate at that
   delay: 10 a second each at 100 ms); meanwhile a probe room (one
   human, five bots at 0 ms) times ``act`` → ``ack`` and ``act`` → the next state through the
   proxy: p50, p95, p99.
2. Take-over: with 2 workers and the tables of the last load step, the worker serving the
   probe's room is killed (SIGKILL) ``--kills`` times; we time until the probe's room answers
   again through the proxy and until every home of the dead worker is held by the other; the
   dead worker is then started again (as the supervisor does) before the next kill.

    .venv/bin/python benchmarks/site_load.py
    .venv/bin/python benchmarks/site_load.py --workers 1 2 4 --tables 100 300 --kills 5 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Table, func, select

from gouji.server.plumbing.fence import leases_table
from gouji.server.site.store import Store
from gouji.server.site.supervisor import Supervisor, Worker
from gouji.server.tables.store import actions_table
from server_load import _probe
from serverutil import free_port, get_json, pct, post_room

_DECISIONS = re.compile(r"^gouji_decisions_total ([0-9.e+]+)$", re.MULTILINE)
LIMITS = ["--limit", "messages_per_s=10000", "--limit", "message_burst=10000"]


# ---------------------------------------------------------------------------- PostgreSQL
def _pg_bindir() -> Path:
    root = Path("/usr/lib/postgresql")
    for version in sorted(root.iterdir(), key=lambda p: p.name, reverse=True):
        if (version / "bin" / "initdb").is_file():
            return version / "bin"
    raise SystemExit("PostgreSQL server binaries are not installed (apt-get install postgresql)")


@contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on loopback: the base URL (``/postgres`` database)."""
    bindir = _pg_bindir()
    base = Path(tempfile.mkdtemp(prefix="gouji-bench-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, sock = base / "data", base / "sock"
    subprocess.run([*as_user, "mkdir", str(sock)], check=True)
    subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    port = free_port()
    opts = f"-h 127.0.0.1 -p {port} -k {sock} -c max_connections=300"
    ctl = [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(base / "log")]
    subprocess.run(
        [*ctl, "-o", opts, "-w", "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


def new_database(server: str, name: str) -> str:
    import psycopg

    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return f"{server}/{name}"


# ---------------------------------------------------------------------------- the site
def start_site(workers: int, db: str) -> Supervisor:
    site = Supervisor(workers, "127.0.0.1", free_port(), db, ["--log-level", "warning", *LIMITS])
    site.workers = [Worker(w.name, w.host, free_port()) for w in site.workers]  # free ones
    site.start()
    return site


def decisions(site: Supervisor) -> float:
    total = 0.0
    for w in site.workers:
        if site.procs[w.name].poll() is not None:
            continue
        with urllib_open(f"http://{w.address}/metrics") as text:
            m = _DECISIONS.search(text)
            total += float(m.group(1)) if m else 0.0
    return total


@contextmanager
def urllib_open(url: str) -> Iterator[str]:
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=10) as r:
        yield r.read().decode()


def owner(db: str, home: str) -> str:
    with Store(db) as store:
        lease = store.lease(home)
    assert lease is not None
    return lease[0]


def load_step(
    site: Supervisor, db: str, tables: int, delay_ms: int, warm: float, acts: int
) -> dict[str, Any]:
    base = f"http://{site.bind}"
    table = {"bots": 6, "bot_delay_ms": delay_ms, "next_delay_ms": 0, "games": 1000}
    codes = [post_room(base, {**table, "seed": i}) for i in range(tables)]
    time.sleep(warm)
    d0, a0, t0 = decisions(site), stored(db, codes), time.perf_counter()
    to_ack, to_state = asyncio.run(_probe(base, acts, lambda code: owner(db, code)))
    seconds = time.perf_counter() - t0
    d1, a1 = decisions(site), stored(db, codes)
    per_s = (d1 - d0) / seconds  # every decision of the site, the probe's room's too
    tables_per_s = (a1 - a0) / seconds  # the bot tables' own
    ideal = tables * 1000.0 / max(delay_ms, 1)  # every table deciding once per bot delay
    ms = 1000.0
    return {
        "workers": len(site.workers),
        "tables": tables,
        "codes": codes,
        "bot_delay_ms": delay_ms,
        "decisions_per_s": per_s,
        "tables_decisions_per_s": tables_per_s,
        "pace": tables_per_s / ideal if delay_ms > 0 else None,
        "acts": len(to_ack),
        "ack_p50_ms": statistics.median(to_ack) * ms,
        "ack_p95_ms": pct(to_ack, 0.95) * ms,
        "ack_p99_ms": pct(to_ack, 0.99) * ms,
        "state_p50_ms": statistics.median(to_state) * ms,
        "state_p95_ms": pct(to_state, 0.95) * ms,
        "state_p99_ms": pct(to_state, 0.99) * ms,
    }


def takeovers(site: Supervisor, db: str, kills: int) -> list[dict[str, float]]:
    """Kill the probe room's worker ``kills`` times: seconds until the room answers again
    through the proxy, and until the dead worker holds no home."""
    base = f"http://{site.bind}"
    code = post_room(base, {"bots": 6, "bot_delay_ms": 100, "next_delay_ms": 0, "games": 1000})
    out = []
    for _ in range(kills):
        time.sleep(2.0)
        dead = owner(db, code)
        homes = count_homes(db, dead)
        proc = site.procs[dead]
        t0 = time.monotonic()
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        back = all_moved = None
        while back is None or all_moved is None:
            now = time.monotonic() - t0
            if back is None:
                try:
                    get_json(base, f"/api/rooms/{code}")
                    back = now
                except OSError:
                    pass
            if all_moved is None and count_homes(db, dead) == 0:
                all_moved = now
            if now > 60:
                raise SystemExit("no take-over within 60 s")
            time.sleep(0.05)
        out.append({"room_back_s": back, "all_homes_s": all_moved, "homes": float(homes)})
        w = next(w for w in site.workers if w.name == dead)
        site.start_worker(w)  # as the supervisor does; it serves new rooms from then on
        site.wait_ready()
    return out


def stored(db: str, codes: list[str]) -> int:
    """Actions stored for the rooms ``codes`` (the bot tables' decisions, and a few nexts)."""
    return count(db, actions_table, actions_table.c.room.in_(codes))


def count_homes(db: str, worker: str) -> int:
    """Homes whose lease ``worker`` holds, lapsed or not (not yet taken by another)."""
    return count(db, leases_table, leases_table.c.owner == worker)


def count(db: str, table: Table, where: ColumnElement[bool]) -> int:
    with Store(db) as store, store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table).where(where)).scalar_one())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--tables", type=int, nargs="+", default=[100, 300])
    ap.add_argument("--bot-delay-ms", type=int, default=100)
    ap.add_argument("--acts", type=int, default=150, help="timed acts of the probe")
    ap.add_argument("--warm", type=float, default=3.0)
    ap.add_argument("--kills", type=int, default=5, help="take-overs timed (2 workers)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    kills: list[dict[str, float]] = []
    with postgres() as server:
        for n in args.workers:
            for tables in args.tables:
                db = new_database(server, f"site_{n}_{tables}")
                site = start_site(n, db)
                try:
                    row = load_step(site, db, tables, args.bot_delay_ms, args.warm, args.acts)
                    if n == 2 and tables == args.tables[-1] and args.kills:
                        kills = takeovers(site, db, args.kills)
                finally:
                    site.shutdown()
                row.pop("codes")
                rows.append(row)
                if not args.json:
                    pace = f"{row['pace']:.0%}" if row["pace"] is not None else "—"
                    print(
                        f"{n} worker(s), {tables:4d} tables at {args.bot_delay_ms} ms: "
                        f"{row['decisions_per_s']:7,.0f} decisions/s, the tables "
                        f"{row['tables_decisions_per_s']:7,.0f} (pace {pace}); "
                        f"act→ack p50 {row['ack_p50_ms']:.1f} ms p95 {row['ack_p95_ms']:.1f} "
                        f"p99 {row['ack_p99_ms']:.1f}; act→state p50 {row['state_p50_ms']:.1f} "
                        f"p95 {row['state_p95_ms']:.1f} p99 {row['state_p99_ms']:.1f}",
                        flush=True,
                    )
    if not args.json and kills:
        backs = [k["room_back_s"] for k in kills]
        alls = [k["all_homes_s"] for k in kills]
        print(
            f"take-over after kill -9 (2 workers, {len(kills)} kills): the room back in "
            f"median {statistics.median(backs):.1f} s (max {max(backs):.1f}); every home of "
            f"the dead worker ({statistics.median([k['homes'] for k in kills]):.0f}) held by the "
            f"other in median {statistics.median(alls):.1f} s (max {max(alls):.1f})"
        )
    if args.json:
        print(json.dumps({"load": rows, "takeovers": kills, "cpus": os.cpu_count()}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
