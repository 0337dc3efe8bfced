"""A PostgreSQL site under faults (docs/security.md, "Figures"; issue 39): a fuzz through the
proxy, and kill -9 of the worker that owns rated rooms while their games end.

Everything runs on loopback: a throwaway PostgreSQL cluster and a site of two ``gouji serve``
workers behind HAProxy, started as ``gouji serve --workers 2`` starts them (benchmarks/
site_load.py's ``postgres`` and ``start_site``); the workers' output goes to a log file that is
searched afterwards for tracebacks and ``ERROR`` records. Every loop is bounded in count and time.

``fuzz``: ``--sockets`` websockets each sending ``--messages`` random protocol messages in
rooms with free seats and finished all-bot rooms, then ``--requests`` seeded random HTTP
requests (odd methods, paths of every API with real and odd codes, names with NUL and
look-alikes, random JSON and bytes, foreign origins, odd cookies), all through the proxy (the
sockets first: the HTTP fuzz's unknown codes end in the site's per-address limit on them, which
would then refuse the sockets' joins): the answers by status class (a 5xx is a failure), and
the log's tracebacks.

``kills``: one account sits in ``--rooms`` rated rooms of five 新手 (beginner) bots (the
default preset, as a rated room plays it; no bot delay, the next game at once), puts its seat
on 托管 and leaves, so every room plays ``--games`` rated games on its own. ``--kills``
times, at a random moment while games end every fraction of a second, the worker owning a
random one of the rooms gets SIGKILL, the other takes its rooms over, and the dead one is
started again; we count the games that ended within ``WINDOW_S`` of each kill. Once every room
is over: each finished game must have exactly one record row of the account (``plays``, with its
rating after the game) and the account's rating must count every game once (``ratings.games``).

    .venv/bin/python benchmarks/site_faults.py fuzz --requests 20000 --sockets 40 --messages 300
    .venv/bin/python benchmarks/site_faults.py kills --rooms 6 --games 60 --kills 6
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from gouji.server.players.records import plays_table, ratings_table
from gouji.server.site.store import Store
from gouji.server.site.supervisor import Supervisor
from serverutil import get_json, post_room
from site_load import new_database, owner, postgres, start_site

#: a traceback, or a record at ERROR or CRITICAL ("… LEVEL [w1] logger: …"); uvicorn's
#: "Invalid HTTP request received" (a request it refused with 400) is a WARNING, counted apart
BAD_LOG = re.compile(r"Traceback|\b(ERROR|CRITICAL) \[")
PASSWORD = "correct horse battery"
SHORT_GAME: dict[str, Any] = {  # a deck of 36 cards: a game in a second (tests/support.py)
    "preset": "MATCH7",
    "overrides": {
        "deck.remove": {
            **dict.fromkeys("3456789", 16),
            **dict.fromkeys("TJQKA2", 10),
            "SJ": 4,
            "LJ": 4,
        }
    },
}
WINDOW_S = 1.0  # a game "ends in the window" of a kill: this close to it
WAIT_S = 300.0  # the longest wait for anything (rooms over, a take-over)


# ---------------------------------------------------------------------------- the site
@contextlib.contextmanager
def logged_site(workers: int, log: Path) -> Iterator[tuple[Supervisor, str]]:
    """A PostgreSQL site whose processes write to ``log``: the site and its database URL."""
    saved = os.dup(2)
    with postgres() as server:
        db = new_database(server, "faults")
        with log.open("ab") as out:
            os.dup2(out.fileno(), 2)  # the workers and HAProxy inherit stderr
            try:
                site = start_site(workers, db)
            finally:
                os.dup2(saved, 2)
        try:
            yield site, db
        finally:
            site.shutdown()


def bad_lines(log: Path) -> list[str]:
    return [line for line in log.read_text(errors="replace").splitlines() if BAD_LOG.search(line)]


def request(
    address: str,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    host, port = address.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        got: dict[str, str] = {}
        for k, v in r.getheaders():  # a header sent twice (set-cookie): its values joined
            got[k.lower()] = f"{got[k.lower()]}, {v}" if k.lower() in got else v
        return r.status, got, r.read()
    finally:
        conn.close()


def sign_up(address: str, name: str) -> str:
    """A new account: its session cookie (``gouji_session=…``)."""
    body = json.dumps({"name": name, "password": PASSWORD}).encode()
    status, headers, text = request(
        address, "POST", "/api/accounts", body, {"content-type": "application/json"}
    )
    assert status == 201, (status, text)
    cookie = headers.get("set-cookie", "")
    found = re.search(r"gouji_session=[^;,\s]+", cookie)
    assert found, headers
    return found.group(0)


# ---------------------------------------------------------------------------- the fuzz
ODD = [
    "",
    "\x00",
    "%00",
    "аlice",
    "b\u03bfb",
    "\u1160",
    "x" * 5000,
    "../../etc/passwd",
    "<script>",
    "😀",
    "%ZZ",
    "' OR 1=1 --",
    "-1",
    "999999999999999999999",
    "NaN",
]
PATHS = [
    "/api/rooms",
    "/api/rooms/{code}",
    "/api/rooms/{code}/games/{n}/record",
    "/api/rooms/{code}/games/{n}/replay",
    "/api/rooms/{code}/games/{n}/analysis",
    "/api/accounts",
    "/api/session",
    "/api/players/{name}",
    "/api/leaderboard?preset={name}",
    "/api/quick",
    "/api/events",
    "/api/events/{code}",
    "/api/lobby",
    "/healthz",
    "/",
    "/r/{code}",
    "/rules/{name}",
    "/static/{name}",
    "/{name}",
]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "BREW"]
ROOM_KEYS = ["bots", "bot", "preset", "games", "seed", "timer_s", "rated", "bot_delay_ms"]
ROOM_KEYS += ["next_delay_ms", "overrides", "listed", "name", "password", "quick"]


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 6, 2**63, -(2**70), 3.5, 1e308])
    if kind in (2, 3):
        return rng.choice([*ODD, "MATCH7", "random", "expert", "OUTLINE_FULL"])
    if kind == 4:
        return rng.choice(ROOM_KEYS)
    if kind == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = [*ROOM_KEYS, "name", "password", "type", "seat", "action", "id", "on"]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(6))}


def fuzz_request(
    rng: random.Random, codes: list[str]
) -> tuple[str, str, bytes | None, dict[str, str]]:
    code = rng.choice(codes + ODD[:6] + ["ZZZZZZ"])
    name = rng.choice([*ODD, "alice", "OUTLINE_FULL", "index.html"])
    path = rng.choice(PATHS).format(
        code=_quote(code, rng), n=rng.choice(["0", "1", "-1", "99", "x"]), name=_quote(name, rng)
    )
    method = rng.choice(METHODS)
    headers: dict[str, str] = {}
    body: bytes | None = None
    if method in ("POST", "PUT", "PATCH") or rng.random() < 0.1:
        roll = rng.random()
        if roll < 0.6:
            body = json.dumps(random_json(rng)).encode()
        elif roll < 0.8:
            body = rng.randbytes(rng.randrange(200))
        else:
            body = b'{"name": "' + b"a" * rng.randrange(70000) + b'"}'
        headers["content-type"] = rng.choice(
            ["application/json", "text/plain", "application/x-www-form-urlencoded", "x/y"]
        )
    if rng.random() < 0.2:
        headers["origin"] = rng.choice(["http://evil.example", "null", "http://127.0.0.1:1"])
    if rng.random() < 0.2:
        headers["cookie"] = rng.choice(
            ["gouji_session=" + "x" * 64, "gouji_guest=\x7f", "gouji_session=", "a=b; c"]
        )
    return method, path, body, headers


def _quote(text: str, rng: random.Random) -> str:
    from urllib.parse import quote

    return quote(text, safe="/") if rng.random() < 0.2 else quote(text, safe="")


MESSAGE_TYPES = ["join", "sit", "stand", "start", "act", "trust", "next", "say", "ping"]
MESSAGE_TYPES += ["leave", "hello", ""]


async def fuzz_socket(
    ws_url: str, owners: dict[str, str], rng: random.Random, messages: int, tally: Counter[str]
) -> None:
    """One websocket to the worker of a real room (``owners``: room → worker): its join,
    then random messages, reading every answer."""
    code = rng.choice(sorted(owners))
    try:
        url = f"{ws_url}?w={owners[code]}"
        async with connect(url, max_size=None, open_timeout=30, close_timeout=1) as ws:
            await ws.send(json.dumps({"type": "join", "room": code, "name": "fz"}))
            for _ in range(messages):
                msg = random_json(rng)
                if rng.random() < 0.3:  # well formed: the room's own moves
                    msg = rng.choice(
                        [
                            {"type": "sit", "seat": rng.randrange(-1, 7)},
                            {"type": "stand"},
                            {"type": "start"},
                            {"type": "next"},
                            {"type": "trust", "on": rng.random() < 0.5},
                            {"type": "ping"},
                            {"type": "say", "id": rng.choice(["hello", "thanks", "x"])},
                            {"type": "act", "id": str(rng.random()), "action": "pass"},
                        ]
                    )
                elif not isinstance(msg, dict) or rng.random() < 0.7:
                    msg = {"type": rng.choice(MESSAGE_TYPES)}
                    for key in rng.sample(["room", "seat", "action", "id", "on", "name"], 2):
                        msg[key] = random_json(rng)
                text = json.dumps(msg) if rng.random() < 0.9 else rng.choice(ODD)
                await ws.send(text)
                tally["ws sent"] += 1
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.05):
                        while True:
                            answer = json.loads(await ws.recv())
                            kind = answer.get("type")
                            tally[f"ws {kind} {answer.get('code', '')}".strip()] += 1
    except ConnectionClosed as e:
        tally[f"ws closed {e.rcvd.code if e.rcvd else None}"] += 1


def fuzz(requests: int, sockets: int, messages: int, seconds: float, seed: int) -> None:
    log = Path(tempfile.mkdtemp(prefix="gouji-faults-")) / "site.log"
    rng = random.Random(seed)
    with logged_site(2, log) as (site, db):
        base = f"http://{site.bind}"
        codes = [
            post_room(
                base,
                {
                    **SHORT_GAME,
                    "bots": 6,
                    "bot": "random",
                    "bot_delay_ms": 0,
                    "next_delay_ms": 0,
                    "timer_s": None,
                    "seed": i,
                },
            )
            for i in range(3)
        ]  # finished all-bot games (records, replays, analyses) …
        half = {"bots": 3, "bot": "random", "bot_delay_ms": 0, "timer_s": None}
        codes += [post_room(base, {**half, "seed": i}) for i in range(3)]  # … free seats
        tally: Counter[str] = Counter()
        ws_url = base.replace("http://", "ws://") + "/ws"
        owners = {code: owner(db, code) for code in codes}

        async def all_sockets() -> None:
            await asyncio.gather(
                *(
                    fuzz_socket(ws_url, owners, random.Random(seed * 1000 + i), messages, tally)
                    for i in range(sockets)
                )
            )

        t1 = time.monotonic()
        asyncio.run(asyncio.wait_for(all_sockets(), seconds / 2))
        ws_s = time.monotonic() - t1
        sign_up(site.bind, "fuzzer")
        end = time.monotonic() + seconds / 2
        status: Counter[int] = Counter()
        five: list[str] = []
        t0 = time.monotonic()
        sent = 0
        for _ in range(requests):
            if time.monotonic() > end:
                break
            method, path, body, headers = fuzz_request(rng, codes)
            try:
                code, _, text = request(site.bind, method, path, body, headers)
            except ValueError:  # a request http.client will not send (not the server's)
                continue
            except (OSError, http.client.HTTPException) as e:
                status[0] += 1
                five.append(f"{method} {path[:80]}: {type(e).__name__}")
                continue
            sent += 1
            status[code] += 1
            if code >= 500:
                five.append(f"{method} {path[:80]} -> {code} {text[:120]!r}")
        http_s = time.monotonic() - t0
        alive = all(p.poll() is None for p in site.procs.values())
        healthy = get_json(base, "/healthz")
    classes = Counter(f"{c // 100}xx" if c else "no answer" for c in status.elements())
    print(f"HTTP: {sent} requests in {http_s:.0f} s: {dict(sorted(classes.items()))}")
    print(f"  statuses: {dict(sorted(status.items()))}")
    print(f"websockets: {sockets} × {messages} messages in {ws_s:.0f} s: {dict(tally)}")
    print(f"workers alive at the end: {alive}; /healthz {healthy}")
    print(f"5xx or no answer: {len(five)} {five[:10]}")
    bad = bad_lines(log)
    invalid = log.read_text(errors="replace").count("Invalid HTTP request received")
    print(f"log: {len(bad)} tracebacks or ERROR records {bad[:10]}; {invalid} requests uvicorn")
    print(f"  refused as invalid HTTP (400, a WARNING each); the log: {log}")


# ---------------------------------------------------------------------------- the kills
async def leave_on_trust(ws_url: str, code: str, cookie: str) -> None:
    """The account sits at seat 0, starts, puts the seat on 托管 and leaves."""
    async with connect(ws_url, additional_headers={"cookie": cookie}, close_timeout=1) as ws:
        await ws.send(json.dumps({"type": "join", "room": code, "name": "rated"}))
        await ws.send(json.dumps({"type": "sit", "seat": 0}))
        await ws.send(json.dumps({"type": "start"}))
        await ws.send(json.dumps({"type": "trust", "on": True}))
        async with asyncio.timeout(30):
            while True:
                m = json.loads(await ws.recv())
                assert m["type"] != "error", m
                if m["type"] == "state" and m["room"]["status"] != "waiting":
                    seats = m["room"]["seats"]
                    if seats[0].get("trust"):
                        return


def kills(rooms: int, games: int, n_kills: int, seed: int) -> None:
    log = Path(tempfile.mkdtemp(prefix="gouji-faults-")) / "site.log"
    rng = random.Random(seed)
    with logged_site(2, log) as (site, db):
        base = f"http://{site.bind}"
        cookie = sign_up(site.bind, "rated")
        table = {"bots": 5, "bot": "beginner", "rated": True, "games": games}  # preset unchanged
        table |= {"bot_delay_ms": 0, "next_delay_ms": 0, "timer_s": 600}
        codes = []
        for _ in range(rooms):
            status, _, text = request(
                site.bind,
                "POST",
                "/api/rooms",
                json.dumps(table).encode(),
                {"content-type": "application/json", "cookie": cookie},
            )
            assert status == 201, text
            code = json.loads(text)["code"]
            codes.append(code)
            ws_url = base.replace("http://", "ws://") + f"/ws?w={owner(db, code)}"
            asyncio.run(leave_on_trust(ws_url, code, cookie))
        done_at_kill = []
        kill_times: list[float] = []
        for _ in range(n_kills):
            time.sleep(rng.uniform(1.0, 3.0))
            victim = owner(db, rng.choice(codes))
            done_at_kill.append(finished_now(db))
            kill_times.append(time.time())
            proc = site.procs[victim]
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            t0 = time.monotonic()
            for code in codes:  # every room answers again (taken over)
                while True:
                    with contextlib.suppress(OSError):
                        get_json(base, f"/api/rooms/{code}")
                        break
                    assert time.monotonic() - t0 < WAIT_S, "no take-over"
                    time.sleep(0.05)
            w = next(w for w in site.workers if w.name == victim)
            site.start_worker(w)
            site.wait_ready()
            print(
                f"killed {victim} with {done_at_kill[-1]} games recorded; rooms back in "
                f"{time.monotonic() - t0:.1f} s",
                flush=True,
            )
        end = time.monotonic() + WAIT_S
        while not all(get_json(base, f"/api/rooms/{c}")["status"] == "over" for c in codes):
            assert time.monotonic() < end, "the rooms did not finish"
            time.sleep(0.5)
        time.sleep(1.0)
        with Store(db) as store, store.engine.connect() as conn:
            rows = conn.execute(
                select(plays_table.c.room, plays_table.c.game, func.count())
                .where(plays_table.c.room.in_(codes), plays_table.c.account.is_not(None))
                .group_by(plays_table.c.room, plays_table.c.game)
            ).all()
            rated = conn.execute(
                select(func.count())
                .select_from(plays_table)
                .where(plays_table.c.room.in_(codes), plays_table.c.mu.is_not(None))
            ).scalar_one()
            counted = conn.execute(select(func.sum(ratings_table.c.games))).scalar_one()
            ends = [
                float(t)
                for t in conn.execute(
                    select(plays_table.c.finished).where(plays_table.c.room.in_(codes))
                ).scalars()
            ]
    near = [sum(1 for t in ends if abs(t - k) <= WINDOW_S) for k in kill_times]
    print(f"games that ended within {WINDOW_S} s of each kill: {near}")
    per_game = Counter(n for _, _, n in rows)
    finished = rooms * games
    print(
        f"{n_kills} kills of the owner; games finished {finished}; record rows per game "
        f"{dict(per_game)} over {len(rows)} games; rated rows {rated}; ratings.games {counted}"
    )
    missing = finished - len(rows)
    twice = sum(1 for _, _, n in rows if n != 1)
    print(
        f"games without a record: {missing}; recorded more than once: {twice}; "
        f"rating counts every game once: {counted == finished == rated}"
    )
    bad = bad_lines(log)
    print(f"log: {len(bad)} tracebacks or ERROR records {bad[:10]} (the log: {log})")


def finished_now(db: str) -> int:
    with Store(db) as store, store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(plays_table)).scalar_one())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = ap.add_subparsers(dest="what", required=True)
    f = sub.add_parser("fuzz")
    f.add_argument("--requests", type=int, default=3000)
    f.add_argument("--sockets", type=int, default=20)
    f.add_argument("--messages", type=int, default=100)
    f.add_argument("--seconds", type=float, default=240.0, help="the fuzz's longest run")
    f.add_argument("--seed", type=int, default=39)
    k = sub.add_parser("kills")
    k.add_argument("--rooms", type=int, default=6)
    k.add_argument("--games", type=int, default=30)
    k.add_argument("--kills", type=int, default=6)
    k.add_argument("--seed", type=int, default=39)
    args = ap.parse_args()
    if args.what == "fuzz":
        fuzz(args.requests, args.sockets, args.messages, args.seconds, args.seed)
    else:
        kills(args.rooms, args.games, args.kills, args.seed)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
