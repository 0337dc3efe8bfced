"""Events survive a restart (SQLite and PostgreSQL): a new app on the same database rebuilds
every event and its rooms; a round in play continues and finishes as if nothing happened;
results the store refused before the restart are taken in at start-up; seat invitations
and claimed seats still hold."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from gouji.server.plumbing.clock import FastClock
from gouji.server.site.store import Store

from ..eventutil import (
    QUICK,
    bot_teams,
    check_against_offline,
    create_event,
    get_event,
    play_out,
    room,
)
from ..wsutil import fast_app, player, wait_for

pytestmark = pytest.mark.timeout(150)

KNOCKOUT = {
    "name": "Restart Cup",
    "preset": "MATCH7",
    "format": "knockout",
    "mode": "online",
    "seed": 11,
    "teams": bot_teams(4),
    **QUICK,
    "bot_delay_ms": 2,  # slow enough to stop the server in the middle of round 1
}
AFTER_SPEED = 50.0  # the restarted server's table seconds a wall second


def test_a_round_in_play_continues_after_a_restart(db_url: str) -> None:
    first = TestClient(fast_app(db_url))
    with first:
        code, org = create_event(first, **KNOCKOUT)
        drawn = first.post(f"/api/events/{code}/rounds", headers=org).json()
        codes = [t["room"] for t in drawn["tables"]]

        def some_played() -> bool:
            ev = get_event(first, code)
            return any(t["games"] for t in ev["tables"])

        wait_for(some_played, 60)
        before = get_event(first, code)
        versions = {c: room(first, c).version for c in codes}
    assert before["status"] == "playing", "round 1 ended before the restart: slow the bots"
    after_stop = {c: room(first, c).version for c in codes}
    assert after_stop == versions or all(after_stop[c] >= versions[c] for c in codes)

    # rebuilt before its rooms' drivers start; then the rest of the event on a fast clock (the
    # bots' 2 ms were only there to stop the first server in the middle of round 1)
    second = TestClient(fast_app(db_url, clock=FastClock(AFTER_SPEED)))
    ev = get_event(second, code)
    assert ev["tables"] == get_event(first, code)["tables"]
    assert {c: room(second, c).version for c in codes} == after_stop
    with second:
        ev = play_out(second, code, org)
        check_against_offline(second, code, ev, KNOCKOUT)
        assert second.post(f"/api/events/{code}/rounds", headers=org).status_code == 409


def test_results_the_store_refused_are_taken_in_at_start_up(sqlite_url: str) -> None:
    """The store refuses every write of the event while its rooms play on: the results wait
    in the rooms (each room's games are stored with the room) and the next server takes them
    in when it starts."""
    body = {**KNOCKOUT, "teams": bot_teams(2), "bot_delay_ms": 0}
    first = TestClient(fast_app(sqlite_url))
    with first:
        code, org = create_event(first, **body)
        drawn = first.post(f"/api/events/{code}/rounds", headers=org).json()
        r0 = room(first, drawn["tables"][0]["room"])
        store: Store = first.app.state.store  # type: ignore[attr-defined]

        def broken(*args: Any, **kw: Any) -> None:
            raise RuntimeError("disk full")

        store.save_event = broken  # type: ignore[method-assign]
        wait_for(lambda: r0.match is not None and len(r0.match.results) >= 3, 60)
        assert get_event(first, code)["tables"][0]["games"] == []  # nothing stored, nothing shown
        assert r0.status == "between" and r0.gated  # the event's gate: 3 games, then wait
    second = TestClient(fast_app(sqlite_url))
    ev = get_event(second, code)
    assert len(ev["tables"][0]["games"]) == 3 and ev["status"] == "over"
    with second:
        check_against_offline(second, code, get_event(second, code), body)


def test_invitations_and_claimed_seats_survive_a_restart(db_url: str) -> None:
    teams = [
        {"name": "People", "players": ["Ann", "Bob", "Cai"]},
        {"name": "Bots", "players": ["B1", "B2", "B3"], "bot": "heuristic"},
    ]
    first = TestClient(fast_app(db_url))
    with first:
        code, org = create_event(
            first, name="Club night", preset="MATCH7", format="knockout", mode="online",
            teams=teams, **QUICK,
        )  # fmt: skip
        first.post(f"/api/events/{code}/rounds", headers=org)
        links = first.get(f"/api/events/{code}/links", headers=org).json()
        ((_, seats),) = links.items()
        ann = seats[0]
        room_code = ann["url"].split("?")[0].removeprefix("/r/")
        seat = int(ann["seat"])
        invite = ann["url"].split("invite=")[1]
        with player(first) as p:
            p.join(room_code, "x")
            p.send(type="sit", seat=seat, invite=invite)
            token = p.next_of("welcome")["token"]  # the claimed seat's own token (D91)
            p.state_where(lambda m: m["room"]["seats"][seat]["online"])
    second = TestClient(fast_app(db_url))
    with second:
        assert second.get(f"/api/events/{code}/links", headers=org).json() == links
        with player(second) as p, player(second) as bob:
            assert p.join(room_code, "x", token=token)["seat"] == seat  # the token holds
            b = seats[1]
            bob.join(room_code, "b")
            bob.send(type="sit", seat=int(b["seat"]), invite=b["url"].split("invite=")[1])
            st = bob.state_where(lambda m: m["room"]["seats"][int(b["seat"])]["online"])
            assert st["room"]["seats"][int(b["seat"])]["name"] == "Bob"
            assert st["room"]["status"] == "waiting"  # Cai is still to come
        time.sleep(0.05)
        assert room(second, room_code).match is None
