"""Server figures (docs/performance.md, "Server"): memory per table and action latency.

Memory: ``tracemalloc`` of one room whose match is half-way through a game (bots), in this
process, after a warm-up room (the engine's interned plays and actions are shared).

Latency: a real ``gouji serve`` on loopback (a subprocess, SQLite in a temporary folder, or
``--db postgresql``: a database of a throwaway cluster) with
``--rooms`` all-bot tables playing non-stop (``bot_delay_ms`` 0, ``next_delay_ms`` 0), plus one
room of one human and five bots (``bot_delay_ms`` 0). The human answers each of its decisions
at once over the websocket; we time ``act`` → ``ack`` and ``act`` → the next ``state``. With
``--as account`` the human's websocket carries an account's session cookie, which the server
checks before each act (D150); ``guest`` has none to check.

    .venv/bin/python benchmarks/server_load.py --rooms 50 --acts 300
    .venv/bin/python benchmarks/server_load.py --skip-memory --rooms 0 --acts 300 \
        --db sqlite postgresql --as guest account
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import time
import tracemalloc
import urllib.request
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect

from gouji import agents
from gouji.server.tables.protocol import RoomConfig
from gouji.server.tables.room import Room, start_match
from serverutil import get_json, pct, post_room, serving


def _half_game(seed: int) -> Room:
    """A room (no database) whose match is half-way through its first game."""
    room = Room(f"M{seed}", RoomConfig(bots=6), seed, time.time(), None)
    start_match(room, "heuristic")
    assert room.match is not None
    bot = agents.get("heuristic", seed=seed)
    while not room.match.game.is_over and room.version < 80:
        seat = room.match.to_act
        assert seat is not None
        view = room.match.view(seat)
        room.commit("bot", seat, bot.act(view, room.match.legal_actions()).text)
    return room


def memory_per_table(tables: int = 20) -> float:
    """Bytes a table with a running match holds, averaged over ``tables`` rooms."""
    _half_game(0)  # warm the shared caches
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    rooms = [_half_game(s + 1) for s in range(tables)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(rooms) == tables
    return (after - before) / tables


async def _probe(
    base: str,
    acts: int,
    owner_of: Callable[[str], str] | None = None,
    cookie: str | None = None,
) -> tuple[list[float], list[float]]:
    """Time one human's acts: to the ack and to the next state. Behind a site's proxy,
    ``owner_of`` names the worker serving the room (the websocket asks for it: ``?w=``).
    ``cookie``: the websocket is an account's (its session is checked before each act, D150);
    None: a guest's."""
    code = post_room(base, {"bots": 5, "bot_delay_ms": 0, "timer_s": None, "next_delay_ms": 0})
    to_ack: list[float] = []
    to_state: list[float] = []
    ws_url = base.replace("http://", "ws://") + "/ws"
    if owner_of is not None:
        ws_url += f"?w={owner_of(code)}"
    headers = {"cookie": cookie} if cookie is not None else None
    async with connect(ws_url, max_size=None, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "join", "room": code, "name": "probe"}))
        await ws.send(json.dumps({"type": "sit", "seat": 0}))
        await ws.send(json.dumps({"type": "start"}))
        acted = -1
        n = 0
        sent_at = 0.0
        waiting_ack = waiting_state = False
        while len(to_state) < acts:
            msg = json.loads(await ws.recv())
            now = time.perf_counter()
            if msg["type"] == "ack":
                to_ack.append(now - sent_at)
                waiting_ack = False
                continue
            if msg["type"] != "state":
                continue
            if waiting_state and msg["version"] > acted:
                to_state.append(now - sent_at)
                waiting_state = False
            view = msg["view"]
            if msg["room"]["status"] == "between":
                await ws.send(json.dumps({"type": "next"}))
                continue
            if msg["room"]["status"] == "over":
                break
            if view and view["legal_actions"] and msg["version"] > acted and not waiting_ack:
                n += 1
                acted = msg["version"]
                sent_at = time.perf_counter()
                waiting_ack = waiting_state = True
                action = view["legal_actions"][0]
                await ws.send(json.dumps({"type": "act", "id": f"p{n}", "action": action}))
    return to_ack, to_state


def account_cookie(base: str) -> str:
    """A new account's session cookie (``gouji_session=…``)."""
    body = json.dumps({"name": "probe", "password": "correct horse battery"}).encode()
    req = urllib.request.Request(
        base + "/api/accounts", data=body, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req) as r:
        cookies = [str(c).split(";")[0] for c in r.headers.get_all("set-cookie") or []]
    session: list[str] = [c for c in cookies if c.startswith("gouji_session=")]
    assert session, "the sign-up set no session cookie"
    return session[0]


def latency(
    rooms: int,
    acts: int,
    warm_s: float,
    delay_ms: int = 0,
    db: str | None = None,
    as_account: bool = False,
) -> dict[str, Any]:
    # the probe answers at machine speed: allow it more messages than a person sends
    with serving(["messages_per_s=10000", "message_burst=10000"], db) as base:
        # fixed-length matches play on with nobody watching (an open-ended one would stop
        # after its game: docs/decisions.md D36)
        table = {"bots": 6, "bot_delay_ms": delay_ms, "next_delay_ms": 0, "games": 1000}
        codes = [post_room(base, {**table, "seed": i}) for i in range(rooms)]
        time.sleep(warm_s)
        v0 = sum(get_json(base, f"/api/rooms/{c}")["version"] for c in codes)
        t0 = time.perf_counter()
        cookie = account_cookie(base) if as_account else None
        to_ack, to_state = asyncio.run(_probe(base, acts, cookie=cookie))
        seconds = time.perf_counter() - t0
        v1 = sum(get_json(base, f"/api/rooms/{c}")["version"] for c in codes)
    ms = 1000.0
    return {
        "rooms": rooms,
        "db": (db or "sqlite").split(":")[0],
        "as": "account" if as_account else "guest",
        "acts": len(to_state),
        "ack_median_ms": statistics.median(to_ack) * ms,
        "ack_p95_ms": pct(to_ack, 0.95) * ms,
        "state_median_ms": statistics.median(to_state) * ms,
        "state_p95_ms": pct(to_state, 0.95) * ms,
        "state_p99_ms": pct(to_state, 0.99) * ms,
        "bot_decisions_per_s": (v1 - v0) / seconds,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rooms", type=int, nargs="+", default=[0, 50], help="bot tables")
    ap.add_argument("--acts", type=int, default=300, help="timed acts of the human")
    ap.add_argument("--bot-delay-ms", type=int, default=0, help="the bot tables' bot delay")
    ap.add_argument("--warm", type=float, default=2.0, help="seconds the tables run first")
    ap.add_argument(
        "--db",
        nargs="+",
        choices=["sqlite", "postgresql"],
        default=["sqlite"],
        help="the store (postgresql: a throwaway cluster on loopback, a database a run)",
    )
    ap.add_argument(
        "--as",
        dest="as_",
        nargs="+",
        choices=["guest", "account"],
        default=["guest"],
        help="the probe's websocket: a guest's, or an account's (its session checked, D150)",
    )
    ap.add_argument("--skip-memory", action="store_true", help="latency only")
    args = ap.parse_args()
    if not args.skip_memory:
        print(f"memory per table (match half-way): {memory_per_table() / 1024:.1f} KiB")
    with contextlib.ExitStack() as stack:
        pg = None
        if "postgresql" in args.db:
            from site_load import new_database, postgres  # site_load imports this module

            pg = stack.enter_context(postgres())
        runs = 0
        for kind in args.db:
            for who in args.as_:
                for n in args.rooms:
                    db = None
                    if kind == "postgresql":
                        assert pg is not None
                        runs += 1
                        db = new_database(pg, f"load{runs}")
                    r = latency(n, args.acts, args.warm, args.bot_delay_ms, db, who == "account")
                    _print(n, args.bot_delay_ms, r)


def _print(n: int, delay_ms: int, r: dict[str, Any]) -> None:
    print(
        f"{r['db']}, {r['as']} probe, "
        f"{n:4d} bot tables ({delay_ms} ms delay): "
        f"act→ack median {r['ack_median_ms']:.2f} ms, "
        f"p95 {r['ack_p95_ms']:.2f} ms; act→state median {r['state_median_ms']:.2f} ms, "
        f"p95 {r['state_p95_ms']:.2f} ms, p99 {r['state_p99_ms']:.2f} ms "
        f"({r['acts']} acts); bot decisions/s {r['bot_decisions_per_s']:,.0f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
