"""Persistence (SQLite and PostgreSQL): a new app on the same database rebuilds every room by
replaying its stored actions, with the same state, version and views, and play goes on."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from gouji.server.plumbing.db import engine_url
from gouji.server.site.store import Store
from gouji.server.tables.room import Room

from ..wsutil import create_room, fast_app, player

pytestmark = pytest.mark.timeout(120)


def _room(client: TestClient, code: str) -> Room:
    room = client.app.state.hub.get(code)  # type: ignore[attr-defined]
    assert isinstance(room, Room)
    return room


def _snapshot(room: Room) -> dict[str, Any]:
    summary = room.summary()
    for seat in summary["seats"]:
        seat.pop("online")  # connections are not stored
    summary.pop("spectators")
    return {
        "version": room.version,
        "summary": summary,
        "views": [room.view(s) for s in (None, 0, 1, 2, 3, 4, 5)],
        "applied": sorted(room.applied),
        "seats": [(s.name, s.token, s.bot, s.trust, s.timeouts) for s in room.seats],
    }


def test_engine_url() -> None:
    assert engine_url("postgresql://u@h:5/d") == "postgresql+psycopg://u@h:5/d"
    assert engine_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert engine_url("sqlite:///x.db") == "sqlite:///x.db"


def test_restart_rebuilds_and_resumes(db_url: str) -> None:
    first = TestClient(fast_app(db_url))
    with first:
        code = create_room(first, seed=31, games=2, timer_s=None)
        waiting = create_room(first, seed=1)  # a room that never started
        with player(first) as p:
            token = p.join(code, "ann")["token"]
            p.send(type="sit", seat=2)
            p.send(type="start")
            made = p.play_game(max_acts=4)
            assert made == 4
            m = p.my_turn()
            assert m["room"]["status"] == "playing"  # seat 2's decision: the room is still
            before = _snapshot(_room(first, code))
            assert before["version"] == m["version"]
            # a second server on the same database (the first one "crashed" here)
            second = TestClient(fast_app(db_url))
            assert _snapshot(_room(second, code)) == before
            assert _room(second, waiting).version == 0
            hub = first.app.state.hub  # type: ignore[attr-defined]
            for room in hub.rooms.values():
                room.store = None  # the crashed server writes nothing more
    with second, player(second) as p:
        w = p.join(code, "ann", token=token)
        assert w["seat"] == 2
        st = p.reach(lambda m: True)
        assert st["version"] == before["version"] + 1  # one change: the seat's new token (D91)
        assert st["view"] == before["views"][3]
        # the stored ids are remembered: a replayed id is not applied again
        used = next(cid for seat, cid in before["applied"] if seat == 2)
        p.send(type="act", id=used, action="pass")
        assert p.next_of("ack")["duplicate"] is True
        # play on to the end of the game
        p.play_game()
        assert p.reach(lambda m: m["room"]["status"] in ("between", "over"))
        p.send(type="next")
        p.state_where(lambda m: m["room"]["game"] == 2)
        p.play_game(max_acts=2)
        # the last connection closed: 托管 plays on until the app stops
    after = _snapshot(_room(second, code))
    assert after["seats"][2][3] is True  # seat 2 went on 托管 when ann left
    third = TestClient(fast_app(db_url))
    assert _snapshot(_room(third, code)) == after  # rebuilt before its drivers start
    with third:
        assert len(third.get(f"/api/rooms/{code}/games").json()) >= 1
        record = third.get(f"/api/rooms/{code}/games/0/record")
        assert record.status_code == 200


def test_store_keeps_seats(db_url: str) -> None:
    client = TestClient(fast_app(db_url))
    with client:
        code = create_room(client, seed=2)
        with player(client) as p:
            p.join(code, "ann")
            p.send(type="sit", seat=1)
            p.send(type="sit", seat=4)  # moves
            p.send(type="start")
            p.state_where(lambda m: m["room"]["status"] != "waiting")
    store = Store(db_url)
    try:
        rows = store.seats(code)
        assert [(r.seat, r.bot is None) for r in rows] == [
            (0, False),
            (1, False),
            (2, False),
            (3, False),
            (4, True),
            (5, False),
        ]
        assert rows[4].name == "ann" and rows[4].token
        kinds = [a.kind for a in next(r for r in store.load() if r.code == code).actions]
        assert kinds[:3] == ["sit", "sit", "start"]
    finally:
        store.close()
