"""What one client may cost the others, as the re-audit found it (issue 23, item 8; D90-D94):
replays are computed off the event loop and rationed, only unknown room codes are counted (a
real code is found) and the count is the site's, a seat token is good for one take, and
spectators never keep out a player. Each test fails on the server as it was before."""

from __future__ import annotations

import dataclasses
import json
import threading
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gouji.server.plumbing.limits import Limits
from gouji.server.plumbing.probes import CEILING
from gouji.server.plumbing.tokens import token_hash
from gouji.server.review.replays import Replays
from gouji.server.site.store import Store
from gouji.server.tables.hub import Hub
from gouji.server.tables.protocol import RATE_LIMITED, ProtocolError, RoomConfig
from gouji.server.tables.room import Room

from ..eventutil import QUICK, create_event
from ..wsutil import (
    FAST,
    REMOTE,
    Held,
    Player,
    create_room,
    local_client,
    player,
    seated_and_started,
    wait_for,
)

pytestmark = pytest.mark.timeout(120)

NOWHERE = "ZZZZZZZZ"  # a well-formed code of no room


def _hub(client: TestClient) -> Hub:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert isinstance(hub, Hub)
    return hub


def _replays(client: TestClient) -> Replays:
    replays = client.app.state.replays  # type: ignore[attr-defined]
    assert isinstance(replays, Replays)
    return replays


def _room(client: TestClient, code: str) -> Room:
    room = _hub(client).get(code)
    assert room is not None
    return room


def _finished(client: TestClient, games: int) -> str:
    """An all-bot room that has played ``games`` games to its end."""
    code = create_room(client, bots=6, games=games, next_delay_ms=0, seed=2)
    wait_for(lambda: client.get(f"/api/rooms/{code}").json()["status"] == "over", 60)
    return code


def _replay_url(code: str, index: int) -> str:
    return f"/api/rooms/{code}/games/{index}/replay"


def _ask(client: TestClient, url: str, answers: list[Any]) -> threading.Thread:
    """GET ``url`` in a thread of its own; its answer goes to ``answers``."""
    asking = threading.Thread(target=lambda: answers.append(client.get(url)))
    asking.start()
    return asking


# ------------------------------------------------------------------ replays (D90)


def test_a_replay_is_computed_off_the_event_loop(tmp_path: Path) -> None:
    """While a replay is being computed (held in its executor), a player at another table
    acts and is answered: the event loop is not the one computing it."""
    client = local_client(tmp_path)
    with client, player(client) as p:
        done = _finished(client, games=1)
        held = Held()
        _replays(client).executor = held
        seated_and_started(p, create_room(client, seed=3))
        answers: list[Any] = []
        asking = _ask(client, _replay_url(done, 0), answers)
        assert held.reached.wait(30), "the replay was not computed by the replays' executor"
        m = p.my_turn()
        assert p.act(m["view"]["legal_actions"][0])["type"] == "ack"  # answered meanwhile
        assert asking.is_alive() and not answers  # the replay is still being computed
        held.open()
        asking.join(30)
        (r,) = answers
        assert r.status_code == 200
        assert r.json() == json.loads(json.dumps(_room(client, done).replay_steps(0)))
        held.shutdown()


def test_replays_come_from_worker_processes_and_are_rationed_per_address(
    tmp_path: Path,
) -> None:
    """A replay is computed in a worker process (the same steps as the room's own); an
    address gets ``replays_per_ip_per_min`` computed, then 429 — and a cached replay is
    answered all the same, counting nothing."""
    limits = dataclasses.replace(FAST, replays_per_ip_per_min=1)
    client = local_client(tmp_path, limits, where=REMOTE)
    with client:
        code = _finished(client, games=2)
        r = client.get(_replay_url(code, 0))
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        assert r.json() == json.loads(json.dumps(_room(client, code).replay_steps(0)))
        assert isinstance(_replays(client).executor, ProcessPoolExecutor)
        assert client.get(_replay_url(code, 0)).status_code == 200  # cached: free
        r = client.get(_replay_url(code, 1))
        assert r.status_code == 429 and r.headers["retry-after"] == "60"
        assert r.json()["error"] == "rate_limited"
        assert "at most 1 replays a minute" in r.json()["message"]
        assert _replays(client).computed == 1
        assert client.get(_replay_url(code, 9)).status_code == 404  # no such game: 404 first


def test_replays_computed_at_once_are_bounded_server_wide(tmp_path: Path) -> None:
    """With ``replays_at_once`` computing, another replay is 503 (retry in a second) until
    one is done; a request for the one being computed waits for it rather than computing it
    again."""
    client = local_client(tmp_path, dataclasses.replace(FAST, replays_at_once=1))
    with client:
        code = _finished(client, games=2)
        held = Held()
        _replays(client).executor = held
        first: list[Any] = []
        asking = _ask(client, _replay_url(code, 0), first)
        assert held.reached.wait(30)
        r = client.get(_replay_url(code, 1))
        assert r.status_code == 503 and r.headers["retry-after"] == "1"
        assert r.json()["error"] == "busy"
        assert "computing 1 replays already" in r.json()["message"]
        again: list[Any] = []
        waiting = _ask(client, _replay_url(code, 0), again)
        wait_for(lambda: _replays(client).shared == 1)  # it waits for the first one's answer
        held.open()
        asking.join(30)
        waiting.join(30)
        assert first[0].status_code == 200 and again[0].status_code == 200
        assert first[0].content == again[0].content
        assert client.get(_replay_url(code, 1)).status_code == 200
        assert _replays(client).computed == 2
        held.shutdown()


# ------------------------------------------------------------------ unknown codes (D92)


def test_a_real_code_is_found_after_many_unknown_ones_until_the_ceiling(tmp_path: Path) -> None:
    """Past ``lookups_per_ip_per_min`` unknown codes an address gets 429 for unknown codes
    only; a real one is found (a club behind one NAT address keeps its rooms) — until the
    address has asked for ``CEILING`` times as many: then every code is refused but those it
    reached before (D182; tests/server/players/test_lockout.py)."""
    client = local_client(tmp_path, dataclasses.replace(FAST, lookups_per_ip_per_min=2), REMOTE)
    with client, player(client) as p:
        code = create_room(client)
        answers = [client.get(f"/api/rooms/{NOWHERE}").status_code for _ in range(3)]
        assert answers == [404, 404, 429]
        assert client.get(f"/api/rooms/{code}").status_code == 200
        p.join(code, "ann")  # the websocket too
        assert client.get(f"/api/events/{NOWHERE}").status_code == 429  # events share it
        for _ in range(2 * CEILING - 4):
            assert client.get(f"/api/rooms/{NOWHERE}").status_code == 429
        assert client.get(f"/api/rooms/{code}").status_code == 200  # at the ceiling: found
        assert client.get(f"/api/rooms/{NOWHERE}").status_code == 429  # one past it
        assert client.get(f"/api/rooms/{code}").status_code == 200  # its own room: still
        other = _hub(client).create(RoomConfig())  # a room it never reached
        r = client.get(f"/api/rooms/{other.code}")
        assert r.status_code == 429 and "far too many unknown codes" in r.json()["message"]


def test_unknown_codes_are_counted_across_the_site(pg_url: str) -> None:
    """Two server processes (two hubs, each on its own connection to one PostgreSQL
    database) count an address's unknown codes together; a real code is found anyway, and
    another address has a count of its own."""
    limits = Limits(lookups_per_ip_per_min=3)
    stores = [Store(pg_url), Store(pg_url)]
    try:
        one, two = (Hub(s, limits, worker=f"w{i}") for i, s in enumerate(stores))
        real = one.create(RoomConfig(), local=True)
        ip = "203.0.113.7"
        assert [one.find(NOWHERE, ip), two.find(NOWHERE, ip), one.find(NOWHERE, ip)] == [None] * 3
        for hub in (two, one):
            with pytest.raises(ProtocolError) as refused:
                hub.find(NOWHERE, ip)
            assert refused.value.code == RATE_LIMITED
        assert one.find(real.code, ip) is real
        assert two.find(NOWHERE, "198.51.100.1") is None
    finally:
        for s in stores:
            s.close()


# ------------------------------------------------------------------ seat tokens (D91)


def _seated(p: Player, code: str, seat: int, name: str = "ann") -> str:
    token: str = p.join(code, name)["token"]
    p.send(type="sit", seat=seat)
    p.state_where(lambda m: m["room"]["seats"][seat]["name"] == name)
    return token


def _enter(p: Player, code: str, name: str) -> dict[str, Any]:
    """``join`` with no token: the welcome (an error fails the test at once)."""
    p.send(type="join", room=code, name=name)
    m = p.until(lambda m: m["type"] in ("welcome", "error"))
    assert m["type"] == "welcome", m
    p.next_of("state")
    return m


def test_a_seat_token_is_good_for_one_take_and_a_restart_keeps_the_new_one(
    tmp_path: Path,
) -> None:
    """A copied token takes the seat once: the seat gets a new token, sent in ``welcome``,
    and the one presented takes it no more — neither the owner's copy nor the copier's; the
    new one holds after a restart, and is itself good for one take."""
    client = local_client(tmp_path, db="t.db")
    with client, player(client) as ann, player(client) as copier, player(client) as late:
        code = create_room(client, bot_delay_ms=60_000, seed=1)
        first = _seated(ann, code, 0)
        w = copier.join(code, "ann", token=first)
        second = w["token"]
        assert w["seat"] == 0 and second != first
        ann.next_of("replaced")
        w = late.join(code, "ann", token=first)  # the owner comes back with its copy: void
        assert w["seat"] is None and w["token"] not in (first, second)
        assert _room(client, code).seats[0].token == token_hash(second)
    client = local_client(tmp_path, db="t.db")  # a restart: the rotation was stored
    with client, player(client) as old, player(client) as back, player(client) as stale:
        assert old.join(code, "ann", token=first)["seat"] is None
        w = back.join(code, "ann", token=second)
        assert w["seat"] == 0 and w["token"] not in (first, second)
        assert stale.join(code, "ann", token=second)["seat"] is None
        store = Store(f"sqlite:///{tmp_path / 't.db'}")
        try:
            assert store.seats(code)[0].token == token_hash(w["token"])
        finally:
            store.close()


def test_a_seat_taken_with_its_invitation_gets_a_new_token(tmp_path: Path) -> None:
    """``sit`` with a seat link's invitation stores a new token for the seat and sends it in
    a second ``welcome``; the spectator token the connection came in with holds no seat."""
    client = local_client(tmp_path, where=REMOTE)
    with client:
        people = {"name": "人", "players": ["Ann", "Bob", "Cai"]}
        bots = {"name": "机", "players": ["B1", "B2", "B3"], "bot": "heuristic"}
        ev, org = create_event(
            client, name="Links", preset="MATCH7", format="knockout", mode="online",
            teams=[people, bots], seed=8, **{**QUICK, "timer_s": 60},
        )  # fmt: skip
        drawn = client.post(f"/api/events/{ev}/rounds", headers=org).json()
        url = next(u for u in next(iter(drawn["seat_links"].values())) if u)
        path, _, query = url.partition("?")
        params = dict(q.split("=") for q in query.split("&"))
        code, seat, invite = path.removeprefix("/r/"), int(params["seat"]) - 1, params["invite"]
        with player(client) as ann, player(client) as other, player(client) as again:
            ann.send(type="join", room=code, name="x", seat=seat, invite=invite)
            watching = ann.next_of("welcome")
            assert watching["seat"] is None
            ann.send(type="sit", seat=seat, invite=invite)
            w = ann.until(  # the welcome comes before the state that seats the player
                lambda m: (
                    m["type"] == "welcome"
                    or (m["type"] == "state" and m["room"]["seats"][seat]["online"])
                )
            )
            assert w["type"] == "welcome", "no new token came"
            assert w["seat"] == seat and w["token"] != watching["token"]
            assert _room(client, code).seats[seat].token == token_hash(w["token"])
            assert other.join(code, "x", token=watching["token"])["seat"] is None
            assert again.join(code, "x", token=w["token"])["seat"] == seat


# ------------------------------------------------------------------ spectators (D93)


def test_watchers_never_keep_out_whoever_could_sit(tmp_path: Path) -> None:
    """At ``spectators_per_room`` watchers a room with a free seat still lets joins in (up
    to twice as many watchers), and the one who came sits; a room with no free seat is
    full at the limit, as before."""
    client = local_client(tmp_path, dataclasses.replace(FAST, spectators_per_room=2))
    with client, ExitStack() as stack:
        ps = [stack.enter_context(player(client)) for _ in range(6)]
        code = create_room(client)  # waiting: six free seats
        ps[0].join(code, "w0")
        ps[1].join(code, "w1")
        assert _enter(ps[2], code, "friend")["seat"] is None  # a third: a seat is free
        ps[2].send(type="sit", seat=0)
        ps[2].state_where(lambda m: m["room"]["seats"][0]["name"] == "friend")
        _enter(ps[3], code, "w3")
        _enter(ps[4], code, "w4")  # four watch: twice the limit
        ps[5].send(type="join", room=code, name="w5")
        m = ps[5].next_of("error")
        assert m["code"] == "room_full" and "4 spectators" in m["message"]
    client = local_client(tmp_path, dataclasses.replace(FAST, spectators_per_room=2), db="g.db")
    with client, ExitStack() as stack:
        ps = [stack.enter_context(player(client)) for _ in range(4)]
        code = create_room(client, seat_takeover=False, bot_delay_ms=60_000)
        seated_and_started(ps[0], code)  # bots in every other seat, none of them free
        ps[1].join(code, "w1")
        ps[2].join(code, "w2")
        ps[3].send(type="join", room=code, name="w3")
        assert ps[3].next_of("error")["code"] == "room_full"
