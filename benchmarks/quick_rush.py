"""快速开始 with 50 simultaneous taps (issue 39, docs/performance.md "Quick match"; D170): is
everyone tapping at once seated, at how many tables, how fast?

A real ``gouji serve`` on loopback (a subprocess, SQLite in a temporary folder; ``--base`` for
a server or site already running). ``--taps`` browsers each open the lobby page first (it
gives them their ``gouji_guest`` cookie, as in a browser), then all tap ``POST /api/quick``
at once; each then does what its table page does: opens a websocket with its cookie, joins
the room it was answered, takes the first empty seat, and the next one when another came
first (``seat_taken``), until seated or out of seats. Reported: seated of taps, the rooms
answered, the taps' answer times and the time from the first tap to the last seat taken.

    .venv/bin/python benchmarks/quick_rush.py
    .venv/bin/python benchmarks/quick_rush.py --taps 12 8 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import Counter
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from serverutil import serving, timings

SEATS = 6
RECV_S = 10.0  # the longest a page waits for an answer


async def _recv(ws: ClientConnection) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), RECV_S))
    return msg


async def _page(
    base: str, code: str, name: str, cookie: str, decided: list[bool], stay: asyncio.Event
) -> float | None:
    """The table page: join, take the first empty seat (the next one on ``seat_taken``), say
    so in ``decided``, and stay open until ``stay`` is set (a player who left a started table
    would free a seat). When it sat down (``perf_counter``); None when it found no seat."""
    url = base.replace("http", "ws", 1) + "/ws"
    headers = {"cookie": f"gouji_guest={cookie}", "origin": base}
    async with connect(url, additional_headers=headers) as ws:
        sat = await _take_a_seat(ws, code, name)
        at = time.perf_counter() if sat else None
        decided.append(sat)
        await stay.wait()
        return at


async def _take_a_seat(ws: ClientConnection, code: str, name: str) -> bool:
    await ws.send(json.dumps({"type": "join", "room": code, "name": name}))
    state: dict[str, Any] | None = None
    while state is None:
        m = await _recv(ws)
        if m["type"] == "state":
            state = m
        elif m["type"] == "error":
            return False
    for _ in range(2 * SEATS):
        seats = state["room"]["seats"]
        free = next((i for i, s in enumerate(seats) if not s["name"] and not s["bot"]), None)
        if free is None:
            return False
        await ws.send(json.dumps({"type": "sit", "seat": free}))
        while True:
            m = await _recv(ws)
            if m["type"] == "state":
                state = m
                if state["room"]["seats"][free]["name"] == name:
                    return True
            elif m["type"] == "error":
                if m.get("code") != "seat_taken":
                    return False
                break
    return False


async def _rush(base: str, taps: int) -> dict[str, Any]:
    browsers = [httpx.AsyncClient(base_url=base, timeout=60) for _ in range(taps)]
    try:
        for b in browsers:  # the lobby page: each browser's guest cookie
            (await b.get("/")).raise_for_status()
        cookies = [str(b.cookies.get("gouji_guest")) for b in browsers]

        async def tap(b: httpx.AsyncClient) -> tuple[str | None, float]:
            began = time.perf_counter()
            r = await b.post("/api/quick", json={}, headers={"origin": base})
            took = time.perf_counter() - began
            return (str(r.json()["code"]) if r.status_code in (200, 201) else None), took

        stay, decided = asyncio.Event(), list[bool]()
        began = time.perf_counter()
        answers = await asyncio.gather(*(tap(b) for b in browsers))
        tapped = time.perf_counter() - began
        pages = [
            asyncio.create_task(_page(base, code, f"p{i}", cookies[i], decided, stay))
            for i, (code, _) in enumerate(answers)
            if code is not None
        ]
        while len(decided) < len(pages) and not any(p.done() for p in pages):
            await asyncio.sleep(0.05)  # every page seated or refused: then they close
        stay.set()
        seated = [at for at in await asyncio.gather(*pages) if at is not None]
    finally:
        for b in browsers:
            await b.aclose()
    rooms = Counter(code for code, _ in answers if code is not None)
    return {
        "taps": taps,
        "answered": sum(rooms.values()),
        "seated": len(seated),
        "rooms": len(rooms),
        "per_room": sorted(rooms.values(), reverse=True),
        **timings("tap", [t for _, t in answers]),
        "all_taps_answered_s": tapped,
        "last_seated_s": max(seated, default=began) - began,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, nargs="+", default=[50])
    ap.add_argument("--base", help="a server already running (default: start one)")
    args = ap.parse_args()
    for taps in args.taps:
        if args.base:
            out = asyncio.run(_rush(args.base, taps))
        else:
            # fifty people are fifty addresses: loopback is one, so its websockets are not capped
            with serving(["connections_per_ip=1000"]) as base:  # a fresh server each run
                out = asyncio.run(_rush(base, taps))
        print(json.dumps(out))


if __name__ == "__main__":
    main()
