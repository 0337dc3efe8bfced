"""Bad input of every kind gets a clear error; the connection and the game go on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ..wsutil import Player, app_client, create_room, player

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return app_client(tmp_path, web=tmp_path / "web")


def _error(p: Player, code: str) -> dict[str, object]:
    m = p.next_of("error")
    assert m["code"] == code, m
    assert isinstance(m["message"], str) and m["message"]
    return m


def test_http_basics_and_errors(client: TestClient) -> None:
    with client:
        assert client.get("/healthz").json() == {"ok": True}
        r = client.post("/api/rooms", json={"preset": "NOPE"})
        assert r.status_code == 400 and "preset" in r.json()["message"]
        r = client.post("/api/rooms", json={"overrides": {"no.such.key": 1}})
        assert r.status_code == 400 and "no.such.key" in r.json()["message"]
        r = client.post("/api/rooms", json={"colour": "red"})
        assert r.status_code == 400 and "colour" in r.json()["message"]
        r = client.post("/api/rooms", json={"bots": "five"})
        assert r.status_code == 400 and "bots" in r.json()["message"]
        r = client.post("/api/rooms", json={"bot": "nobody"})
        assert r.status_code == 400 and "heuristic" in r.json()["message"]
        r = client.post("/api/rooms", content=b"{not json", headers={"content-type": "x"})
        assert r.status_code == 400 and "JSON" in r.json()["message"]
        r = client.post("/api/rooms", content=b" " * (64 * 1024 + 1))
        assert r.status_code == 413 and "error" in r.json()
        r = client.post("/api/rooms", json={"overrides": {"round.rang": "stay_active"}})
        assert r.status_code == 201
        code = r.json()["code"]
        assert r.json()["url"] == f"/r/{code}"
        summary = client.get(f"/api/rooms/{code.lower()}").json()
        assert summary["code"] == code and summary["status"] == "waiting"
        assert summary["config"]["overrides"] == {"round.rang": "stay_active"}
        for path in ("/api/rooms/ZZZZZZ", "/api/rooms/ZZZZZZ/games", f"/api/rooms/{code}/games/0"):
            r = client.get(path)
            assert r.status_code == 404 and r.json()["error"] == "not_found"
        r = client.get(f"/api/rooms/{code}/games/0/record")
        assert r.status_code == 404 and "finished game" in r.json()["message"]
        assert client.get(f"/api/rooms/{code}/games").json() == []


def test_web_pages_missing_and_present(client: TestClient, tmp_path: Path) -> None:
    with client:
        for path in ("/", "/r/ABCDEF", "/replay/ABCDEF/0", "/static/js/app.js"):
            r = client.get(path)
            assert r.status_code == 404 and r.json()["error"] == "not_found"
        web = tmp_path / "web"
        (web / "js").mkdir(parents=True)
        for name in ("index.html", "table.html", "replay.html"):
            (web / name).write_text(f"<title>{name}</title>")
        (web / "js" / "app.js").write_text("let x = 1;")
        assert "index.html" in client.get("/").text
        assert "table.html" in client.get("/r/ABCDEF").text
        assert "replay.html" in client.get("/replay/ABCDEF/0").text
        assert client.get("/static/js/app.js").text == "let x = 1;"
        assert client.get("/static/../../p.db").status_code == 404
        assert client.get("/static/%2e%2e/p.db").status_code == 404


def test_bad_messages_before_and_after_join(client: TestClient) -> None:
    with client:
        code = create_room(client)
        with player(client) as p:
            p.ws.send_text("{not json")
            _error(p, "bad_json")
            p.ws.send_text("[1, 2]")
            _error(p, "bad_message")
            p.send(type="dance")
            assert "dance" in str(_error(p, "bad_message")["message"])
            p.send(type="sit", seat=0)
            _error(p, "not_joined")
            p.send(type="join")
            assert "room" in str(_error(p, "bad_message")["message"])
            p.send(type="join", room="NOROOM", name="x")
            _error(p, "no_room")
            p.ws.send_text(json.dumps({"type": "ping", "pad": "x" * 17000}))
            _error(p, "too_large")
            p.send(type="ping")
            assert p.next_of("pong") == {"type": "pong"}
            w = p.join(code, "ann")
            assert w["seat"] is None and w["room"] == code and w["token"]
            p.send(type="join", room=code, name="ann")
            _error(p, "bad_message")
            p.send(type="sit", seat="0")
            _error(p, "bad_message")
            p.send(type="sit", seat=9)
            _error(p, "bad_message")
            p.send(type="act", action="pass")
            _error(p, "bad_message")
            p.send(type="act", id="a", action="pass")
            _error(p, "not_started")
            p.send(type="start")
            _error(p, "bad_message")  # a spectator does not start
            p.send(type="trust", on="yes")
            _error(p, "bad_message")
            p.send(type="next")
            _error(p, "not_started")
            p.send(type="sit", seat=2)
            st = p.state_where(lambda m: m["room"]["seats"][2]["name"] == "ann")
            assert st["version"] == 1 and st["view"] is None
            with player(client) as q:
                q.join(code, "bob")
                q.send(type="sit", seat=2)
                _error(q, "seat_taken")
                q.send(type="start")
                _error(q, "bad_message")  # bob is not seated
                # the room's bots are fixed at creation: a start cannot change them
                p.send(type="start", bots=6)
                assert "no field 'bots'" in str(_error(p, "bad_message")["message"])
                p.send(type="start", bot="search")
                assert "no field 'bot'" in str(_error(p, "bad_message")["message"])
                p.send(type="start")
                p.state_where(lambda m: m["room"]["status"] != "waiting")
                q.send(type="sit", seat=2)  # ann's: not free
                _error(q, "seat_taken")
                q.send(type="sit", seat=3)  # a bot's: a watcher may take it over
                q.state_where(lambda m: m["room"]["seats"][3]["name"] == "bob")
                q.send(type="sit", seat=4)  # players keep their seats once the match runs
                _error(q, "started")
                p.send(type="start")
                _error(p, "started")
                p.send(type="stand")
                _error(p, "started")
            # the connection still works after every error
            p.send(type="ping")
            p.next_of("pong")
        few = create_room(client, bots=4)
        with player(client) as r:
            r.join(few, "ann")
            r.send(type="sit", seat=0)
            r.send(type="start")
            assert "5 seats are empty" in str(_error(r, "bad_message")["message"])


def test_turn_errors_and_idempotent_ids(client: TestClient) -> None:
    with client:
        code = create_room(client, seed=11)
        with player(client) as p, player(client) as watcher:
            p.join(code, "ann")
            watcher.join(code, "eve")
            p.send(type="sit", seat=0)
            p.send(type="start")
            m = p.my_turn()
            legal = m["view"]["legal_actions"]
            version = m["version"]
            # a spectator acts: not its turn
            watcher.send(type="act", id="w1", action=legal[0])
            assert watcher.next_of("error")["id"] == "w1"
            # an illegal action: the engine's text, the room unchanged
            answer = p.act("play 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3")
            assert answer["type"] == "error" and answer["code"] == "illegal", answer
            p.send(type="act", id="junk", action="fly to the moon")
            err = p.next_of("error")
            assert err["code"] == "illegal" and err["id"] == "junk"
            p.send(type="resync")
            st = p.next_of("state")
            assert st["version"] == version and st["view"]["legal_actions"] == legal
            # apply once; the same id again is acknowledged as a duplicate, not re-applied
            p.send(type="act", id="once", action=legal[0])
            ack = p.until(lambda m: m["type"] in ("ack", "error"))
            assert ack == {"type": "ack", "id": "once", "duplicate": False}
            p.send(type="act", id="once", action=legal[0])
            dup = p.until(lambda m: m["type"] in ("ack", "error"))
            assert dup == {"type": "ack", "id": "once", "duplicate": True}
            acts = next(
                a
                for a in client.app.state.store.load()  # type: ignore[attr-defined]
                if a.code == code
            ).actions
            assert [a.client_id for a in acts].count("once") == 1
            p.send(type="ping")
            p.next_of("pong")


def test_out_of_turn(client: TestClient) -> None:
    with client:
        code = create_room(client, seed=3, bot_delay_ms=60_000)  # bots wait a minute
        with player(client) as p:
            p.join(code, "ann")
            p.send(type="sit", seat=0)
            p.send(type="start")
            st = p.state_where(lambda m: m["room"]["status"] == "playing")
            while st["room"]["to_act"] == 0:
                assert p.act(st["view"]["legal_actions"][0])["type"] == "ack"
                st = p.next_of("state")
            answer = p.act("pass")
            assert answer["type"] == "error" and answer["code"] == "not_your_turn", answer
            p.send(type="hint")
            assert p.next_of("error")["code"] == "not_your_turn"
            p.send(type="resync")
            assert p.next_of("state")["version"] == st["version"]
