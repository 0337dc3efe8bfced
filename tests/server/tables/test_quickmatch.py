"""快速开始 (issue 23, item 4): one request finds a waiting listed table of the rule set with a
free seat, else makes one whose bots fill the free seats after a short wait."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from starlette.testclient import TestClient

from gouji.server.plumbing.clock import FastClock
from gouji.server.tables.quickmatch import FILL_AFTER_S, QUICK_BOT, pick

from ..accountutil import sign_up
from ..wsutil import Player, fast_app

SPEED = 30.0  # table time 30× as fast: the 15 s wait takes half a second


def _seated(seat: int, m: dict[str, Any]) -> bool:
    return bool(m["room"]["seats"][seat]["name"])


def _quick(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/quick", json=body)
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_quick_table_fills_with_bots_after_the_wait(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url, clock=FastClock(SPEED))) as client:
        first = _quick(client, preset="MATCH7")
        assert first["created"] is True
        again = _quick(client, preset="MATCH7")  # the same table, not a second one
        assert again == {**first, "created": False}
        listed = client.get("/api/rooms").json()["rooms"]
        assert [(b["code"], b["preset"], b["quick"]) for b in listed] == [
            (first["code"], "MATCH7", True)
        ]
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(first["code"], "ann")
            p.send(type="sit", seat=2)
            sat = p.until(lambda m: m["type"] == "state" and m["room"]["seats"][2]["name"])
            assert sat["room"]["status"] == "waiting" and sat["room"]["fill_at"] is not None
            wait = sat["room"]["fill_at"] - client.app.state.hub.clock.time()  # type: ignore[attr-defined]
            assert 0 < wait <= FILL_AFTER_S
            begun = time.monotonic()
            started = p.reach(lambda m: m["room"]["status"] == "playing")
            assert time.monotonic() - begun < 10 * FILL_AFTER_S / SPEED + 5
        seats = started["room"]["seats"]
        assert [s["bot"] for s in seats] == [QUICK_BOT] * 2 + [None] + [QUICK_BOT] * 3
        assert started["room"]["fill_at"] is None


def test_nobody_there_no_fill(sqlite_url: str) -> None:
    """The player sat down and left before the wait was over: the table does not start
    with 托管 playing for them."""
    with TestClient(fast_app(sqlite_url, clock=FastClock(SPEED))) as client:
        code = _quick(client)["code"]
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(code, "ann")
            p.send(type="sit", seat=0)
            p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
        time.sleep(2 * FILL_AFTER_S / SPEED + 0.5)
        summary = client.get(f"/api/rooms/{code}").json()
        assert summary["status"] == "waiting" and summary["fill_at"] is None


def test_quick_match_joins_the_fullest_waiting_table_of_the_rule_set(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        rooms = {}
        for name, preset, sitting in (
            ("one", "MATCH7", 1),
            ("two", "MATCH7", 2),
            ("x", "COMP2", 3),
        ):
            r = client.post("/api/rooms", json={"preset": preset, "bots": 5, "listed": True})
            rooms[name] = r.json()["code"]
            for seat in range(sitting):
                with client.websocket_connect("/ws") as ws:
                    p = Player(ws)
                    p.join(rooms[name], f"p{seat}")
                    p.send(type="sit", seat=seat)
                    p.reach(partial(_seated, seat))
        assert _quick(client, preset="MATCH7")["code"] == rooms["two"]
        assert _quick(client, preset="COMP2")["code"] == rooms["x"]
        assert _quick(client, preset="MATCH7", rated=True)["created"] is True  # none rated


def test_rated_quick_match_needs_an_account_to_sit(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        code = _quick(client, rated=True)["code"]
        assert client.get(f"/api/rooms/{code}").json()["config"]["rated"] is True
        sign_up(client, "Ann")
        with client.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.join(code, "whoever")
            p.send(type="sit", seat=0)
            st = p.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["name"])
            assert st["room"]["seats"][0]["name"] == "Ann"


def test_bad_quick_requests_are_refused(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        for body in ({"preset": "NOPE"}, {"rated": "yes"}, {"colour": "red"}, [1]):
            r = client.post("/api/quick", json=body)
            assert r.status_code == 400 and r.json()["message"], body
        assert client.get("/api/rooms").json()["rooms"] == []


def test_pick_skips_full_started_and_other_tables() -> None:
    base = {"status": "waiting", "preset": "MATCH7", "rated": False, "created": 1.0}
    briefs = [
        {**base, "code": "FULL", "players": 6, "free": 0},
        {**base, "code": "GOING", "status": "playing", "players": 1, "free": 5},
        {**base, "code": "EMPTY", "players": 0, "free": 6},  # nobody, not a quick table
        {**base, "code": "RATED", "rated": True, "players": 3, "free": 3},
        {**base, "code": "OK", "players": 1, "free": 5},
    ]
    assert pick(briefs, "MATCH7", False) == "OK"
    assert pick(briefs, "MATCH7", True) == "RATED"
    assert pick(briefs, "COMP2", False) is None
