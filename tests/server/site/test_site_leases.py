"""Two server processes on one PostgreSQL database (two apps in this process, each with its
own event loop): a room belongs to exactly one of them; the other redirects to it (HTTP) or
sends its clients there (``moved``); a process whose lease was taken cannot write to the room
any more; the lobby's list is the same on both; a room's turn timer resumes with the time it
had left (docs/scaling.md, D56)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gouji.server.plumbing.fence import leases_table
from gouji.server.site.store import Store
from gouji.server.tables.room import RESUME_MIN_S, Room
from gouji.server.tables.store import actions_table

from ..eventutil import QUICK, bot_teams, create_event
from ..siteutil import owner_of
from ..wsutil import Player, create_room, fast_app, seated_and_started, wait_for

pytestmark = pytest.mark.timeout(120)


@contextmanager
def site(pg_url: str, *names: str) -> Iterator[list[TestClient]]:
    with ExitStack() as stack:
        clients = []
        for name in names:
            client = TestClient(fast_app(pg_url, worker=name), follow_redirects=False)
            clients.append(stack.enter_context(client))
        yield clients


@contextmanager
def stalled(client: TestClient) -> Iterator[None]:
    """``client``'s process renews nothing while inside (as a process paused by the OS): a
    lease made to lapse stays lapsed until another process takes it, whatever the timing."""
    site = client.app.state.site  # type: ignore[attr-defined]
    site.tick = lambda: None
    assert client.portal is not None
    client.portal.call(asyncio.sleep, 0)  # a tick already running on its loop has ended
    try:
        yield
    finally:
        del site.tick


def lapse(pg_url: str, home: str, seen: float | None = None) -> None:
    """Make ``home``'s lease lapse now (as if its process had stopped renewing it)."""
    with Store(pg_url) as store, store.engine.begin() as conn:
        values = {"until": 0.0} if seen is None else {"until": 0.0, "seen": seen}
        conn.execute(update(leases_table).where(leases_table.c.home == home).values(**values))


def test_one_owner_redirects_and_moved(pg_url: str) -> None:
    with site(pg_url, "w1", "w2") as (one, two):
        code = create_room(one, seed=3, bot_delay_ms=60_000)
        assert owner_of(pg_url, code) == "w1"
        assert code in one.app.state.hub.rooms  # type: ignore[attr-defined]
        assert code not in two.app.state.hub.rooms  # type: ignore[attr-defined]
        r = two.get(f"/api/rooms/{code}")
        assert r.status_code == 307 and r.headers["location"] == f"/api/rooms/{code}?w=w1"
        r = two.get(f"/api/rooms/{code}?w=w1")  # the proxy sent it here although it names w1
        assert r.status_code == 503 and r.headers["retry-after"] == "1", r.text
        assert r.json()["error"] == "unavailable"
        assert one.get(f"/api/rooms/{code}").json()["code"] == code
        assert two.get("/api/rooms/NOSUCHRM").status_code == 404
        with two.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.send(type="join", room=code, name="ann")
            assert p.recv() == {"type": "moved", "room": code, "worker": "w1"}
        r = two.get(f"/api/rooms/{code}/games")
        assert r.status_code == 307


def test_a_lost_lease_stops_the_old_owner_writing(pg_url: str) -> None:
    with site(pg_url, "w1", "w2") as (one, two):
        code = create_room(one, seed=4, bots=5, bot_delay_ms=60_000)
        with one.websocket_connect("/ws") as ws:
            p = Player(ws)
            st = seated_and_started(p, code)
            version = st["version"]
            # w1 pauses (its lease lapses); w2 gets a request for the room and takes it over
            with stalled(one):
                lapse(pg_url, code)
                r = two.get(f"/api/rooms/{code}")
            assert r.status_code == 200 and r.json()["version"] == version, r.text
            assert owner_of(pg_url, code) == "w2"
            # w1 wakes up and its player acts: refused by the fence, the client is sent on
            if st["view"]["to_act"] == 0:
                p.send(type="act", id="a1", action=st["view"]["legal_actions"][0])
            else:
                p.send(type="trust", on=True)
            m = p.until(lambda m: m["type"] == "moved")
            assert m == {"type": "moved", "room": code, "worker": "w2"}
        assert code not in one.app.state.hub.rooms  # type: ignore[attr-defined]
        with Store(pg_url) as store:
            stored = next(r for r in store.load() if r.code == code)
        assert len(stored.actions) == version  # nothing written by w1 after the take-over
        r = one.get(f"/api/rooms/{code}")
        assert r.status_code == 307 and r.headers["location"].endswith("?w=w2")


def test_a_dead_owners_rooms_are_taken_over_by_the_renewal(pg_url: str) -> None:
    with site(pg_url, "w1") as (one,):
        codes = [create_room(one, seed=s, bots=6, bot_delay_ms=20) for s in (1, 2, 3)]
        hub = one.app.state.hub  # type: ignore[attr-defined]
        wait_for(lambda: all(hub.rooms[c].version > 5 for c in codes))
    # w1 stopped cleanly (its leases released): w2 takes every room at once, at start
    with site(pg_url, "w2") as (two,):
        hub = two.app.state.hub  # type: ignore[attr-defined]
        assert set(codes) <= set(hub.rooms)
        before = {c: hub.rooms[c].version for c in codes}
        wait_for(lambda: all(hub.rooms[c].version > before[c] for c in codes))
        # a third process's room whose lease lapses is taken by w2's renewal loop
        with site(pg_url, "w3") as (three,):
            code = create_room(three, seed=9, bots=6, bot_delay_ms=20)
        lapse(pg_url, code)  # w3 gone without releasing: as after kill -9, once it lapsed
        wait_for(lambda: code in hub.rooms, 5.0)
        assert two.app.state.site.takeovers >= 1  # type: ignore[attr-defined]
        metrics = two.get("/metrics").text
        assert 'gouji_worker_info{worker="w2"} 1.0' in metrics
        assert "gouji_takeovers_total" in metrics and "gouji_act_seconds_bucket" in metrics
        assert two.get("/readyz").json() == {
            "ok": True,
            "worker": "w2",
            "leases": True,
            "lobby": True,
        }


def test_the_lobby_list_is_the_same_on_every_process(pg_url: str) -> None:
    with site(pg_url, "w1", "w2") as (one, two):
        listed = create_room(one, seed=5, listed=True, bot_delay_ms=60_000)
        create_room(one, seed=6, bot_delay_ms=60_000)  # found by its code only
        wait_for(lambda: [r["code"] for r in two.get("/api/rooms").json()["rooms"]] == [listed])
        row = two.get("/api/rooms").json()["rooms"][0]
        assert (row["status"], row["players"], row["free"]) == ("waiting", 0, 6)
        with one.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(listed, "ann")
            p.send(type="sit", seat=2)

            def seated() -> bool:
                rows = two.get("/api/rooms").json()["rooms"]
                return bool(rows) and rows[0]["players"] == 1 and rows[0]["free"] == 5

            wait_for(seated)
        # ann has gone again: each process learns it at its own moment (the other through the
        # database), and then both list the same
        wait_for(lambda: one.get("/api/rooms").json() == two.get("/api/rooms").json())


def test_the_turn_timer_resumes_with_the_time_left(pg_url: str) -> None:
    timer = 30.0
    with site(pg_url, "w1") as (one,):
        code = create_room(one, seed=8, bots=5, timer_s=timer, bot_delay_ms=0)
        with one.websocket_connect("/ws") as ws:
            p = Player(ws)
            seated_and_started(p, code)
            st = p.reach(
                lambda m: (
                    m["type"] == "state" and m["room"]["to_act"] == 0 and m["deadline"] is not None
                )
            )
            deadline = float(st["deadline"])
            time.sleep(2.0)  # two seconds of the player's time pass; then the process stops
            one.app.state.hub.closing = True  # type: ignore[attr-defined]  # as on SIGTERM
    stopped = time.time()
    time.sleep(1.5)  # the site is down: this time is not the player's
    # the rebuild sets the deadline at some moment between entering the site and having it: a
    # slow machine widens that window, it does not change the time the player is given
    rebuilding = time.time()
    with site(pg_url, "w2") as (two,):
        rebuilt = time.time()
        room: Room = two.app.state.hub.rooms[code]  # type: ignore[attr-defined]
        assert room.deadline is not None
        want = deadline - stopped  # what was left when the process stopped (about 28 s)
        low, high = rebuilding + want - 1.0, rebuilt + want + 0.5
        assert low <= room.deadline <= high, (room.deadline - rebuilding, want)
        assert room.deadline - rebuilt < timer - 1.5, "the timer started again from zero"
        assert not room.seats[0].trust, "a stopping process put its player on 托管"
    # a turn whose time had run out when its process stopped still leaves a moment: the
    # decision began 100 s ago and the process was alive 50 s ago
    with Store(pg_url) as store, store.engine.begin() as conn:
        conn.execute(
            update(actions_table)
            .where(actions_table.c.room == code)
            .values(created=actions_table.c.created - 100)
        )
    lapse(pg_url, code, seen=time.time() - 50)
    rebuilding = time.time()
    with site(pg_url, "w3") as (three,):
        rebuilt = time.time()
        room = three.app.state.hub.rooms[code]  # type: ignore[attr-defined]
        assert room.deadline is not None
        low, high = rebuilding + RESUME_MIN_S - 0.5, rebuilt + RESUME_MIN_S + 0.1
        assert low <= room.deadline <= high, (room.deadline - rebuilding, rebuilt - rebuilding)


def test_an_idle_client_is_sent_on_when_its_room_moves(pg_url: str) -> None:
    with site(pg_url, "w1", "w2") as (one, two):
        code = create_room(one, seed=12, bot_delay_ms=60_000)
        with one.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(code, "ann")
            with stalled(one):  # w1 stalls; its lease lapses; w2 gets a request and takes it
                lapse(pg_url, code)
                assert two.get(f"/api/rooms/{code}").status_code == 200
            # w1's next renewal finds the lease gone: the client, sending nothing, is told
            assert p.until(lambda m: m["type"] == "moved") == {
                "type": "moved",
                "room": code,
                "worker": "w2",
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1012


def test_an_event_and_its_tables_live_in_one_process(pg_url: str) -> None:
    body = {"name": "Site Cup", "preset": "MATCH7", "format": "knockout", "mode": "online"}
    with site(pg_url, "w1", "w2") as (one, two):
        code, org = create_event(one, **body, teams=bot_teams(4), **QUICK)
        r = two.get(f"/api/events/{code}")
        assert r.status_code == 307 and r.headers["location"] == f"/api/events/{code}?w=w1"
        r = two.post(f"/api/events/{code}/rounds", headers=org)  # a POST is redirected too
        assert r.status_code == 307 and r.headers["location"].endswith("?w=w1")
        r = one.post(f"/api/events/{code}/rounds", headers=org)
        assert r.status_code == 201, r.text
        tables = [t["room"] for t in r.json()["tables"]]
        with Store(pg_url) as store:  # every table's home is the event, held by w1
            assert tables and all(store.home(t) == code for t in tables)
        assert owner_of(pg_url, code) == "w1"
        assert all(two.get(f"/api/rooms/{t}").status_code == 307 for t in tables)
        # w1 stops: w2 takes the event and every one of its tables together
    with site(pg_url, "w2") as (two,):
        assert two.get(f"/api/events/{code}").status_code == 200
        assert set(tables) <= set(two.app.state.hub.rooms)  # type: ignore[attr-defined]
        assert code in two.app.state.events.events  # type: ignore[attr-defined]
