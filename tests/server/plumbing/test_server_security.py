"""The holes the server audit found (issue 9), one test or more per row, and the limits
(docs/security.md). Each test fails on the server as it was before the audit's fixes."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gouji.server.plumbing.limits import LimitError, Limits, parse_limits
from gouji.server.site.store import Store
from gouji.server.tables.connection import Connection
from gouji.server.tables.room import Room

from ..wsutil import (
    LOCAL,
    REMOTE,
    Player,
    create_room,
    local_client,
    player,
    seated_and_started,
    wait_for,
)

pytestmark = pytest.mark.timeout(120)


def _room(client: TestClient, code: str) -> Room:
    room = client.app.state.hub.get(code)  # type: ignore[attr-defined]
    assert isinstance(room, Room)
    return room


def _error(p: Player, code: str) -> dict[str, Any]:
    m = p.next_of("error")
    assert m["code"] == code, m
    return m


def _seated(client: TestClient, p: Player, code: str, seat: int, name: str = "ann") -> str:
    token: str = p.join(code, name)["token"]
    p.send(type="sit", seat=seat)
    p.state_where(lambda m: m["room"]["seats"][seat]["name"] == name)
    return token


# -- critical: a store failure leaves the room as it was -----------------------------------


def test_store_failure_rolls_the_move_back_and_says_so(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    with client, player(client) as p:
        code = create_room(client, seed=4, bot_delay_ms=60_000)
        _seated(client, p, code, 0)
        p.send(type="start")
        m = p.my_turn()
        room = _room(client, code)
        store = room.store
        assert store is not None
        before = (room.version, room.match.record() if room.match else None, room.applied.copy())
        real = store.add_action

        def broken(*args: Any, **kw: Any) -> None:
            raise RuntimeError("disk full")

        store.add_action = broken  # type: ignore[method-assign,assignment]
        legal = m["view"]["legal_actions"]
        p.send(type="act", id="a1", action=legal[0])
        err = _error(p, "unavailable")
        assert "nothing changed" in err["message"] and err["id"] == "a1"
        assert (room.version, room.match.record() if room.match else None) == before[:2]
        assert room.applied == before[2]
        store.add_action = real  # type: ignore[method-assign]
        assert p.act(legal[0])["type"] == "ack"  # the same move, now stored
        stored = next(r for r in store.load() if r.code == code)
        assert [a.seq for a in stored.actions] == list(range(1, room.version + 1))


def test_store_failure_on_sit_keeps_the_seat_free(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    with client, player(client) as p:
        code = create_room(client)
        p.join(code, "ann")
        room = _room(client, code)
        assert room.store is not None

        def broken(*args: Any, **kw: Any) -> None:
            raise RuntimeError("connection lost")

        room.store.add_action = broken  # type: ignore[method-assign,assignment]
        p.send(type="sit", seat=3)
        _error(p, "unavailable")
        assert room.seats[3].empty and room.version == 0
        assert all(c.seat is None for c in room.conns)


# -- high: a name that is not text ---------------------------------------------------------


@pytest.mark.parametrize("name", ["\ud800", "a\x00b", "\u202eevil", "x" * 41, "\x07"])
def test_bad_names_are_refused_and_nothing_breaks(tmp_path: Path, name: str) -> None:
    client = local_client(tmp_path)
    with client, player(client) as other, player(client) as p:
        code = create_room(client)
        _seated(client, other, code, 1, "bob")
        p.ws.send_text(json.dumps({"type": "join", "room": code, "name": name}))
        err = p.next_of("error")
        assert err["code"] in ("bad_message", "bad_json"), err
        assert client.get(f"/api/rooms/{code}").status_code == 200
        other.send(type="resync")
        assert other.next_of("state")["room"]["seats"][1]["name"] == "bob"
        p.join(code, " Ann ")  # the same connection can still join with a good name
        assert _room(client, code).conns


# -- high: private decisions name nobody ----------------------------------------------------


def test_private_decisions_are_private_on_every_channel(tmp_path: Path) -> None:
    """A human with a burn offer: nobody else learns its seat — not from the room summary, the
    state's deadline, an error text or the HTTP summary."""
    client = local_client(tmp_path)
    with client:
        for seed in range(40):  # a deal where seat 0 is offered a burn
            if _offer_checked(client, seed):
                return
    pytest.fail("no burn offer for seat 0 in 40 deals")


def _offer_checked(client: TestClient, seed: int) -> bool:
    code = create_room(client, seed=seed, timer_s=60, bot_delay_ms=0, games=1)
    with player(client) as p, player(client) as watcher:
        _seated(client, p, code, 0)
        watcher.join(code, "eve")
        p.send(type="start")
        offered = _play_until_offer(p)
        if offered is None:
            return False
        version = offered["version"]
        assert offered["room"]["to_act"] is None and offered["deadline"] is not None
        seen = watcher.at_version(version)
        assert seen["version"] == version
        assert seen["room"]["to_act"] is None and seen["deadline"] is None
        assert seen["view"]["to_act"] is None and seen["view"]["waiting"] == "burn_offer"
        assert client.get(f"/api/rooms/{code}").json()["to_act"] is None
        watcher.send(type="act", id="w", action="noburn")
        err = _error(watcher, "not_your_turn")
        assert "seat" not in err["message"] and "P0" not in err["message"]
        return True


def _play_until_offer(p: Player) -> dict[str, Any] | None:
    for _ in range(400):
        m = p.my_turn()
        if m["room"]["status"] != "playing":
            return None
        if m["view"]["phase"] == "burn_offer":
            return m
        p.send(type="hint")  # play as the heuristic bot would: it keeps burns possible
        assert p.act(p.next_of("hint")["action"])["type"] == "ack"
    return None


def test_private_timeouts_are_not_counted() -> None:
    """R19.3's count of timeouts shows in the summary: a private timeout must not move it."""
    from gouji.server.tables.protocol import RoomConfig
    from gouji.server.tables.room import start_match

    for seed in range(300):  # OUTLINE_CLASSIC: a hand without 2s and jokers may revolt
        config = RoomConfig(preset="OUTLINE_CLASSIC", bots=5, timer_s=30)
        room = Room("T", config, seed, time.time(), None)
        start_match(room, "heuristic")
        m = room.match
        assert m is not None
        if m.game.pending == "geming":
            seat = m.to_act
            assert seat is not None
            room.seats[seat].bot = None
            room.seats[seat].name = "ann"
            room.commit("timeout", seat, room.timeout_text())
            assert room.seats[seat].timeouts == 0
            return
    pytest.fail("no revolution offer in 300 deals")


# -- high: the replay cache is bounded ------------------------------------------------------


def test_replay_cache_is_bounded(tmp_path: Path) -> None:
    limits = Limits(messages_per_s=1000, message_burst=1000, replay_cache=2)
    client = local_client(tmp_path, limits)
    with client:
        code = create_room(client, bots=6, games=3, next_delay_ms=0, seed=2)
        wait_for(lambda: client.get(f"/api/rooms/{code}").json()["status"] == "over", 60)
        for _ in range(3):
            for i in range(3):
                r = client.get(f"/api/rooms/{code}/games/{i}/replay")
                assert r.status_code == 200 and r.json()["index"] == i
        replays = client.app.state.replays  # type: ignore[attr-defined]
        assert len(replays.cache) == 2 and replays.computed == 9  # 0 1 2 0 1 2 …
        assert not hasattr(_room(client, code), "_replay_cache")


# -- medium: seeds ----------------------------------------------------------------------------


def test_a_chosen_seed_makes_a_fixed_deal_room_everybody_sees(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    with client, player(client) as p, player(client) as s:
        plain = create_room(client)
        assert client.get(f"/api/rooms/{plain}").json()["config"]["fixed_deal"] is False
        code = create_room(client, seed=99)
        summary = client.get(f"/api/rooms/{code}").json()
        assert summary["config"]["fixed_deal"] is True
        assert "99" not in json.dumps(summary)  # the seed itself is not shown
        _seated(client, p, code, 0)
        s.join(code, "sue")
        assert s.state is not None and s.state["room"]["config"]["fixed_deal"] is True
        assert p.state is not None and p.state["room"]["config"]["fixed_deal"] is True


# -- medium: limits ---------------------------------------------------------------------------


def test_spectators_per_room(tmp_path: Path) -> None:
    client = local_client(tmp_path, Limits(spectators_per_room=2))
    with client, player(client) as a, player(client) as b, player(client) as c:
        code = create_room(client, seat_takeover=False, bot_delay_ms=60_000)
        seated_and_started(a, code)  # no seat is free (a free seat lets more in: D93)
        b.join(code, "b")
        with player(client) as d:
            d.join(code, "d")
            c.send(type="join", room=code, name="c")  # the seated player is not counted
            assert "2 spectators" in _error(c, "room_full")["message"]
        wait_for(lambda: _room(client, code).summary()["spectators"] == 1)
        c.join(code, "c")  # one left: room for one more


def test_connections_per_address(tmp_path: Path) -> None:
    client = local_client(tmp_path, Limits(connections_per_ip=2))
    with client, player(client), player(client), client.websocket_connect("/ws") as ws:
        m = ws.receive_json()
        assert m["code"] == "too_many_connections"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    with client, player(client) as p:  # the count falls when connections close
        p.send(type="ping")
        assert p.next_of("pong")["type"] == "pong"


def test_message_flood_gets_an_error_then_a_close(tmp_path: Path) -> None:
    client = local_client(tmp_path, Limits(messages_per_s=5, message_burst=5))
    with client, player(client) as p:
        for _ in range(5):
            p.send(type="ping")
        for _ in range(5):
            p.next_of("pong")
        p.send(type="ping")
        assert _error(p, "rate_limited")["message"]
        p.send(type="ping")
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(5):
                p.recv()
        assert closed.value.code == 1008


def test_a_client_that_does_not_read_is_dropped() -> None:
    sent: list[str] = []

    async def never(text: str) -> None:  # pragma: no cover - the writer is never run here
        sent.append(text)

    conn = Connection(never, Limits(outbox=3))
    for _ in range(3):
        conn.send({"type": "pong"})
    assert not conn.dropped
    conn.send({"type": "pong"})
    assert "does not read" in conn.dropped and not conn.outbox


def test_rooms_per_address_per_hour(tmp_path: Path) -> None:
    client = local_client(tmp_path, Limits(rooms_per_ip_per_hour=3), where=REMOTE)
    with client:
        for _ in range(3):
            assert client.post("/api/rooms", json={}).status_code == 201
        r = client.post("/api/rooms", json={})
        assert r.status_code == 429 and "3 rooms an hour" in r.json()["message"]
    local = TestClient(client.app, client=LOCAL)
    with local:  # the machine itself is not rationed
        assert local.post("/api/rooms", json={}).status_code == 201


def test_all_bot_rooms_from_afar_are_bounded(tmp_path: Path) -> None:
    limits = Limits(bot_room_games=2, bot_room_s=600)
    far = local_client(tmp_path, limits, where=REMOTE)
    with far:
        r = far.post("/api/rooms", json={"bots": 6, "games": 1000, "bot_delay_ms": 50})
        code = r.json()["code"]
        config = far.get(f"/api/rooms/{code}").json()["config"]
        assert config["games"] == 2 and config["expires"] > time.time() + 500
        open_ended = far.post("/api/rooms", json={"bots": 6}).json()["code"]
        assert far.get(f"/api/rooms/{open_ended}").json()["config"]["games"] == 2
        room = _room(far, code)
        room.config.expires = time.time() - 1  # its time is up
        wait_for(lambda: far.get(f"/api/rooms/{code}").json()["status"] == "expired")
        version = room.version
        time.sleep(0.3)
        assert room.version == version  # an expired table plays no more
    near = TestClient(far.app, client=LOCAL)
    with near:
        r = near.post("/api/rooms", json={"bots": 6, "games": 1000, "bot_delay_ms": 60_000})
        config = near.get(f"/api/rooms/{r.json()['code']}").json()["config"]
        assert config["games"] == 1000 and config["expires"] is None


def test_limits_are_checked_by_name() -> None:
    assert parse_limits(["outbox=9", "bot-room-s=1.5"]) == Limits(outbox=9, bot_room_s=1.5)
    for bad in (["outbox"], ["nonsense=1"], ["outbox=x"], ["outbox=0"]):
        with pytest.raises(LimitError):
            parse_limits(bad)


# -- medium: a start cannot change the room's bots (tested in test_server_protocol) --------
# -- low: action ids belong to their seat ------------------------------------------------------


def test_one_players_id_does_not_swallow_anothers(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    with client, player(client) as a, player(client) as b:
        code = create_room(client, seed=8, bots=4, bot_delay_ms=0)
        _seated(client, a, code, 0, "ann")
        _seated(client, b, code, 1, "bob")
        a.send(type="start")
        answers: dict[int, dict[str, Any]] = {}
        for _ in range(300):
            summary = client.get(f"/api/rooms/{code}").json()
            assert summary["status"] == "playing"
            for seat, p in ((0, a), (1, b)):  # each looks at its own view
                p.send(type="resync")
                m = p.at_version(summary["version"])
                if seat in answers or not m["view"]["legal_actions"]:
                    continue
                p.send(type="act", id="same-id", action=m["view"]["legal_actions"][0])
                answers[seat] = p.until(lambda x: x["type"] in ("ack", "error"))
            if len(answers) == 2:
                break
        assert answers == {s: {"type": "ack", "id": "same-id", "duplicate": False} for s in (0, 1)}


# -- low: odd input closes nothing and answers no 500 -----------------------------------------


def test_deep_nesting_and_huge_numbers_are_bad_json(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    with client, player(client) as p:
        p.ws.send_text('{"type": "ping", "x": ' + "[" * 5000 + "]" * 5000 + "}")
        _error(p, "bad_json")
        p.ws.send_text('{"type": "sit", "seat": ' + "9" * 5000 + "}")
        _error(p, "bad_json")
        p.send(type="ping")
        assert p.next_of("pong")["type"] == "pong"
        r = client.post("/api/rooms", content=b'{"games": ' + b"9" * 5000 + b"}")
        assert r.status_code == 400
        r = client.post("/api/rooms", content=b'{"preset": "' + b"\\ud800" + b'"}')
        assert r.status_code == 400


@pytest.mark.parametrize(
    "path",
    [
        "/api/rooms/{code}/games/²/record",
        "/api/rooms/{code}/games/99999999999999999999/replay",
        "/api/rooms/{code}/games/-1/record",
        "/static/%00",
        "/static/" + "a" * 5000,
        "/static/js/%2e%2e/%2e%2e/s.db",
        "/api/rooms/%ED%A0%80",
    ],
)
def test_odd_paths_are_404_not_500(tmp_path: Path, path: str) -> None:
    client = local_client(tmp_path)
    with client:
        code = create_room(client)
        r = client.get(path.format(code=code))
        assert r.status_code == 404, (path, r.status_code, r.text)
        assert "error" in r.json()


# -- low: tokens --------------------------------------------------------------------------------


def test_tokens_are_stored_hashed(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    with client, player(client) as p:
        code = create_room(client)
        token = _seated(client, p, code, 2)
        store = Store(f"sqlite:///{tmp_path / 's.db'}")
        try:
            row = store.seats(code)[0]
            digest = hashlib.sha256(token.encode()).hexdigest()
            assert row.token == digest
            sit = next(r for r in store.load() if r.code == code).actions[0]
            assert token not in sit.text and digest in sit.text
        finally:
            store.close()
        assert token not in json.dumps(_room(client, code).summary())


def test_a_copied_token_takes_the_seat_and_the_old_connection_is_told(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    with client, player(client) as first, player(client) as second:
        code = create_room(client, bot_delay_ms=60_000, seed=1)
        token = _seated(client, first, code, 0)
        w = second.join(code, "ann", token=token)
        assert w["seat"] == 0
        note = first.next_of("replaced")
        assert "taken over" in note["message"]
        first.send(type="start")
        _error(first, "bad_message")  # it watches now
        second.send(type="start")
        second.state_where(lambda m: m["room"]["status"] == "playing")


def test_room_codes_are_long_and_probing_is_limited(tmp_path: Path) -> None:
    client = local_client(tmp_path, Limits(lookups_per_ip_per_min=3), where=REMOTE)
    with client, player(client) as p:
        code = create_room(client)
        assert len(code) == 8
        for i in range(3):
            p.send(type="join", room=f"NOPE{i}", name="x")
            _error(p, "no_room")
        p.send(type="join", room="NOPE9", name="x")
        _error(p, "rate_limited")
        assert client.get("/api/rooms/NOPE9").status_code == 429
        p.join(code, "x")  # a real code is found all the same (D92)
