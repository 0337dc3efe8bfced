"""快速开始 when many tap at once (issue 39, "Quick match reserves nothing"; D170): each tap
answered with a room holds a seat there for its browser until its page sits down, the next
taps go to the next room once six are held, and a hold never used lapses. 50 simultaneous
taps are all seated, on one process and on a site of two processes on PostgreSQL."""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from functools import partial
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from gouji.server.players.sessions import GUEST_COOKIE
from gouji.server.plumbing import tokens
from gouji.server.plumbing.clock import FastClock
from gouji.server.tables.holds import HOLD_S, Holds
from gouji.server.tables.protocol import SEATS
from gouji.server.tables.quickmatch import FILL_AFTER_S

from ..wsutil import Player, fast_app, wait_for

pytestmark = pytest.mark.timeout(180)

TAPS = 50
SPEED = 30.0  # table time 30× as fast: a hold lapses in under a second


def _browser() -> dict[str, str]:
    """A browser's headers: its own guest cookie (what its hold is made for)."""
    return {"cookie": f"{GUEST_COOKIE}={tokens.new_token()}"}


def _sat_or_refused(seat: int, name: str, m: dict[str, Any]) -> bool:
    """The answer to a ``sit``: a refusal, or the state with ``name`` at ``seat``."""
    if m["type"] == "error":
        return True
    return m["type"] == "state" and bool(m["room"]["seats"][seat]["name"] == name)


def _sit_as_the_page(client: TestClient, code: str, name: str, headers: dict[str, str]) -> int:
    """What the table page does: join, take the first empty seat, the next one when another
    came first (``seat_taken``). The seat taken (the socket closes: the seat stays, as
    before the start)."""
    with client.websocket_connect("/ws", headers=headers) as ws:
        p = Player(ws)
        p.join(code, name)
        for _ in range(2 * SEATS):
            assert p.state is not None
            seats = p.state["room"]["seats"]
            free = next((i for i, s in enumerate(seats) if not s["name"] and not s["bot"]), None)
            assert free is not None, f"{name}: no empty seat in {code}"
            p.send(type="sit", seat=free)
            m = p.until(partial(_sat_or_refused, free, name))
            if m["type"] == "state":
                return free
            assert m["code"] == "seat_taken", m
            p.next_of("state")
        raise AssertionError(f"{name} never sat at {code}")


def _seated_everyone(rooms: dict[str, Any]) -> Counter[str]:
    """The players seated in each room (its summary's human seats)."""
    return Counter({code: sum(1 for s in r["seats"] if s["human"]) for code, r in rooms.items()})


def test_fifty_simultaneous_taps_are_all_seated(sqlite_url: str) -> None:
    app = fast_app(sqlite_url)
    browsers = [_browser() for _ in range(TAPS)]

    async def rush() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            return await asyncio.gather(
                *(http.post("/api/quick", json={}, headers=h) for h in browsers)
            )

    with TestClient(app) as client:
        assert client.portal is not None
        answers = client.portal.call(rush)  # in the app's own event loop, all at once
        assert all(r.status_code in (200, 201) for r in answers), [r.text for r in answers]
        codes = [str(r.json()["code"]) for r in answers]
        assert all(GUEST_COOKIE not in r.headers.get("set-cookie", "") for r in answers)
        per_room = Counter(codes)
        assert max(per_room.values()) <= SEATS
        assert len(per_room) == math.ceil(TAPS / SEATS), per_room  # full tables, one partial
        listed = {b["code"]: b for b in client.get("/api/rooms").json()["rooms"]}
        assert all(listed[c]["free"] == SEATS - n for c, n in per_room.items())
        for i, (code, headers) in enumerate(zip(codes, browsers, strict=True)):
            _sit_as_the_page(client, code, f"p{i}", headers)
        rooms = {c: client.get(f"/api/rooms/{c}").json() for c in per_room}
        assert _seated_everyone(rooms) == per_room  # every one of the 50 seated
        assert sum(_seated_everyone(rooms).values()) == TAPS


def test_a_browser_tapping_again_keeps_its_one_hold(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        me = _browser()
        first = client.post("/api/quick", json={}, headers=me).json()
        for _ in range(SEATS):
            again = client.post("/api/quick", json={}, headers=me).json()
            assert again == {**first, "created": False}
        other = client.post("/api/quick", json={}, headers=_browser()).json()
        assert other["code"] == first["code"]  # five seats are still open there
        listed = client.get("/api/rooms").json()["rooms"]
        assert [(b["code"], b["free"]) for b in listed] == [(first["code"], SEATS - 2)]


def test_a_hold_never_used_lapses_and_frees_its_seat(sqlite_url: str) -> None:
    clock = FastClock(SPEED)
    with TestClient(fast_app(sqlite_url, clock=clock)) as client:
        taps = [_browser() for _ in range(SEATS)]
        codes = {client.post("/api/quick", json={}, headers=h).json()["code"] for h in taps}
        assert len(codes) == 1
        (code,) = codes
        nxt = client.post("/api/quick", json={}, headers=_browser()).json()
        assert nxt["created"] is True and nxt["code"] != code  # six held: the next room
        brief = {b["code"]: b for b in client.get("/api/rooms").json()["rooms"]}[code]
        assert brief["free"] == 0 and brief["players"] == 0
        with client.websocket_connect("/ws", headers=_browser()) as ws:  # no hold of its own
            p = Player(ws)
            p.join(code, "late")
            p.send(type="sit", seat=0)
            refused = p.next_of("error")
            assert refused["code"] == "seat_taken"
            wait_for(  # nobody came: the holds lapse and the lobby's list says so
                lambda: (
                    {b["code"]: b for b in client.get("/api/rooms").json()["rooms"]}[code]["free"]
                    == SEATS
                ),
                seconds=10 * HOLD_S / SPEED + 5,
            )
            p.send(type="sit", seat=0)
            sat = p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            assert sat["room"]["seats"][0]["name"] == "late"
        # a page that comes after its hold lapsed still sits while a seat is open
        assert _sit_as_the_page(client, code, "slow", taps[0]) == 1


def test_a_tap_without_a_guest_cookie_gets_one_for_its_hold(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        r = client.post("/api/quick", json={})
        assert r.status_code == 201
        cookie = r.cookies.get(GUEST_COOKIE)
        assert cookie is not None and "httponly" in r.headers["set-cookie"].lower()
        again = client.post("/api/quick", json={})  # the jar sends it: the same hold
        assert again.json()["code"] == r.json()["code"] and GUEST_COOKIE not in again.cookies


@contextmanager
def _site(pg_url: str) -> Iterator[dict[str, TestClient]]:
    with ExitStack() as stack:
        clients = {}
        for name in ("w1", "w2"):
            client = TestClient(fast_app(pg_url, worker=name), follow_redirects=False)
            clients[name] = stack.enter_context(client)
        yield clients


def test_fifty_taps_at_two_processes_are_all_seated(pg_url: str) -> None:
    """Half the taps at each process, at once; a tap for a room the other serves is sent
    there (307 ``?w=``, as the proxy routes it), which holds the seat."""
    with _site(pg_url) as site:
        browsers = [_browser() for _ in range(TAPS)]
        names = sorted(site)

        def tap(i: int) -> tuple[str, str]:
            worker = names[i % 2]
            r = site[worker].post("/api/quick", json={}, headers=browsers[i])
            for _ in range(3):
                if r.status_code != 307:
                    break
                worker = r.headers["location"].split("w=")[1]  # the proxy's use-server
                r = site[worker].post(r.headers["location"], json={}, headers=browsers[i])
            assert r.status_code in (200, 201), r.text
            return str(r.json()["code"]), worker

        with ThreadPoolExecutor(TAPS) as pool:
            answers = list(pool.map(tap, range(TAPS)))
        owners = {code: worker for code, worker in answers}
        for code, worker in owners.items():
            assert code in site[worker].app.state.hub.rooms  # type: ignore[attr-defined]
        per_room = Counter(code for code, _ in answers)
        assert max(per_room.values()) <= SEATS
        assert len(per_room) <= math.ceil(TAPS / SEATS) + len(site), per_room
        for i, ((code, worker), headers) in enumerate(zip(answers, browsers, strict=True)):
            _sit_as_the_page(site[worker], code, f"p{i}", headers)
        rooms = {c: site[owners[c]].get(f"/api/rooms/{c}").json() for c in per_room}
        assert _seated_everyone(rooms) == per_room
        assert sum(_seated_everyone(rooms).values()) == TAPS


class _Manual(FastClock):
    """A clock that moves only when told."""

    def __init__(self) -> None:
        super().__init__(1.0)
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


def test_a_lapsed_hold_is_kept_until_the_driver_tells_the_list() -> None:
    """However late the room's driver wakes, a lapsed hold is still there for it to forget
    and push (else the lobby's list would go on counting the seat held)."""
    clock = _Manual()
    holds = Holds(clock)
    holds.add("a", 5.0)
    holds.add("b", 6.0)
    holds.add("a", 7.0)  # the same browser again: one hold, renewed
    assert holds.count() == 2 and holds.next_lapse() == 106.0 and holds.last_lapse() == 107.0
    clock.now = 200.0  # the driver wakes late: both lapsed at once
    assert holds.count() == 0 and not holds.held_by("a")
    assert holds.next_lapse() == 106.0  # still due: the driver's step purges and pushes
    holds.purge()
    assert holds.next_lapse() is None and holds.last_lapse() is None
    holds.add("c", 1.0)
    assert holds.use("c") and not holds.use("c") and holds.next_lapse() is None


def test_bots_never_fill_a_seat_held_for_a_tap_on_its_way(sqlite_url: str) -> None:
    """Ann sits; Bob's tap holds a seat: the bots wait for Bob past the 15 s (until his hold
    would lapse), and he is seated when he comes."""
    clock = FastClock(10.0)  # between the fill's 15 s and the hold's 20 s: half a second
    with TestClient(fast_app(sqlite_url, clock=clock)) as client:
        ann, bob = _browser(), _browser()
        code = client.post("/api/quick", json={}, headers=ann).json()["code"]
        with client.websocket_connect("/ws", headers=ann) as ws:
            p = Player(ws)
            p.join(code, "ann")
            p.send(type="sit", seat=0)
            p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"] == "ann")
            tapped = clock.time()
            assert client.post("/api/quick", json={}, headers=bob).json()["code"] == code
            p.state_where(lambda m: (m["room"]["fill_at"] or 0) >= tapped + HOLD_S - 0.5)
            time.sleep(clock.wall(FILL_AFTER_S + (HOLD_S - FILL_AFTER_S) / 2))
            assert client.get(f"/api/rooms/{code}").json()["status"] == "waiting"
            assert _sit_as_the_page(client, code, "bob", bob) == 1  # the bots waited for him
            started = p.reach(lambda m: m["room"]["status"] == "playing")
        seats = started["room"]["seats"]
        assert [s["name"] for s in seats[:2]] == ["ann", "bob"]
        assert all(s["bot"] for s in seats[2:])
