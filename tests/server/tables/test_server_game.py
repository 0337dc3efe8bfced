"""Whole games over the websocket: one human and five bots, two humans and a spectator,
reconnecting, the next game, finished games' records and replays."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji import Game, Match

from ..wsutil import LOCAL, app_client, create_room, player, wait_for

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    # from the machine itself, like `make serve` on one's own computer (rooms are not rationed)
    return app_client(tmp_path, client=LOCAL)


def test_one_human_five_bots_to_the_end(client: TestClient) -> None:
    with client:
        code = create_room(client, seed=7, games=1)
        with player(client) as p:
            welcome = p.join(code, "ann")
            assert welcome["seat"] is None
            p.send(type="sit", seat=4)
            p.send(type="start")
            made = p.play_game(use_hint=True)
            assert made > 0
            final = p.reach(lambda m: m["room"]["status"] == "over")
            view = final["view"]
            assert view["is_over"] and view["match"]["is_over"]
            assert sorted(view["places"]) == [1, 2, 3, 4, 5, 6]
            seats = final["room"]["seats"]
            assert [s["bot"] for s in seats] == ["heuristic"] * 4 + [None, "heuristic"]
            assert seats[4]["name"] == "ann" and seats[4]["online"]
            versions = [m["version"] for m in p.seen if m["type"] == "state"]
            assert versions == sorted(versions)  # versions only grow
        games = client.get(f"/api/rooms/{code}/games").json()
        assert len(games) == 1 and games[0]["index"] == 0
        assert sorted(games[0]["places"]) == [1, 2, 3, 4, 5, 6]
        r = client.get(f"/api/rooms/{code}/games/0/record")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        game = Game.from_record(r.json())
        assert game.is_over and game.result()["places"] == games[0]["places"]
        steps = client.get(f"/api/rooms/{code}/games/0/replay").json()["steps"]
        assert len(steps) == len(r.json()["actions"]) + 1
        assert steps[0]["action"] is None and steps[-1]["view"]["is_over"]
        assert all(len(s["view"]["hands"]) == 6 for s in steps)
        assert steps[1]["seat"] is not None and steps[1]["action"] == r.json()["actions"][0]
        assert "hand" not in steps[1]["view"]  # spectator views (plus every hand)


def test_two_humans_and_a_spectator(client: TestClient) -> None:
    with client:
        code = create_room(client, seed=21, games=1, card_counter=True)
        with player(client) as a, player(client) as b, player(client) as s:
            a.join(code, "ann")
            b.join(code, "bob")
            s.join(code, "sue")
            a.send(type="sit", seat=0)
            b.send(type="sit", seat=3)
            a.state_where(lambda m: m["room"]["seats"][3]["name"] == "bob")
            b.send(type="start")
            st = s.state_where(lambda m: m["room"]["status"] == "playing")
            assert st["view"]["seat"] is None and "hand" not in st["view"]
            assert st["room"]["spectators"] == 1
            assert sum(st["view"]["card_counter"].values()) > 0
            humans = {0: a, 3: b}
            acted = 0
            while True:  # the room says whose turn it is; that player reads and acts
                summary = client.get(f"/api/rooms/{code}").json()
                if summary["status"] == "over":
                    break
                version = summary["version"]
                asked = [summary["to_act"]]
                if summary["to_act"] is None:  # a private decision: nobody is named, so
                    asked = list(humans)  # each player looks at its own view
                for seat in asked:
                    p = humans.get(seat)
                    if p is None:
                        continue
                    p.send(type="resync")
                    m = p.at_version(version)
                    view = m["view"]
                    assert view["seat"] == seat and isinstance(view["hand"], str)
                    if m["version"] == version and view["legal_actions"]:
                        ans = p.act(view["legal_actions"][0])
                        assert ans["type"] == "ack", ans
                        acted += 1
            assert acted > 0
            end = s.state_where(lambda m: m["room"]["status"] == "over")
            assert end["view"]["is_over"]


def test_reconnect_with_token_and_next_game(client: TestClient) -> None:
    with client:
        code = create_room(client, seed=5, games=2)
        with player(client) as p:
            token = p.join(code, "ann")["token"]
            p.send(type="sit", seat=1)
            p.send(type="start")
            p.play_game(max_acts=2)
            version = p.my_turn()["version"]
        # the last connection closed: 托管 plays for seat 1
        wait_for(lambda: client.get(f"/api/rooms/{code}").json()["seats"][1]["trust"])
        with player(client) as p:
            w = p.join(code, "ann", token=token)
            assert w == {"type": "welcome", "token": w["token"], "seat": 1, "room": code}
            assert w["token"] != token  # the seat has a new token now (D91)
            st = p.reach(lambda m: not m["room"]["seats"][1]["trust"])
            assert st["version"] > version and st["view"]["seat"] == 1
            p.play_game()
            between = p.reach(lambda m: m["room"]["status"] in ("between", "over"))
            assert between["room"]["status"] == "between"  # the second game waits for `next`
            assert between["view"]["match"]["game"] == 1
            p.send(type="next")
            st = p.state_where(lambda m: m["room"]["game"] == 2)
            assert not st["view"]["is_over"]
            p.send(type="next")
            assert p.next_of("error")["code"] == "illegal"
            p.play_game()
            end = p.reach(lambda m: m["room"]["status"] == "over")
            assert len(end["view"]["match"]["results"]) == 2
        # an unknown token is a spectator with a fresh token
        with player(client) as q:
            w = q.join(code, "zed", token="not-a-token")
            assert w["seat"] is None and w["token"] != "not-a-token"
        rec = client.get(f"/api/rooms/{code}/games/1/record").json()
        assert Game.from_record(rec).is_over
        hub = client.app.state.hub  # type: ignore[attr-defined]
        m: Match = hub.get(code).match
        assert Match.from_record(m.record()).totals == m.totals


def test_all_bot_table_plays_on_by_itself(client: TestClient) -> None:
    with client:
        code = create_room(client, bots=6, seed=2, games=2, next_delay_ms=0)
        wait_for(lambda: client.get(f"/api/rooms/{code}").json()["status"] == "over", 60)
        summary = client.get(f"/api/rooms/{code}").json()
        assert summary["games_finished"] == 2
        assert all(s["bot"] == "heuristic" for s in summary["seats"])
        with player(client) as s:
            s.join(code, "sue")
            assert s.state is not None and s.state["view"]["match"]["is_over"]


def test_the_levels_play_at_the_table(client: TestClient) -> None:
    """A room asks for a level by name (the lobby's 大师 is ``master``, a search that thinks in
    a thread): its bots take their seats as that level and play."""
    with client:
        code = create_room(client, seed=3, games=1, bot="master")
        with player(client) as p:
            p.join(code, "ann")
            p.send(type="sit", seat=0)
            p.send(type="start")
            st = p.reach(lambda m: m["room"]["status"] == "playing")
            assert [s["bot"] for s in st["room"]["seats"]] == [None] + ["master"] * 5
            assert st["view"]["state"]["to_act"] != 0  # seed 3: a bot begins
            played = p.state_where(lambda m: m["version"] > st["version"])
            assert played["view"]["state"]["to_act"] is not None  # a master bot acted
    with client:
        bad = client.post("/api/rooms", json={"bot": "grandmaster"})
        assert bad.status_code == 400 and "master" in bad.text


def test_open_ended_table_everyone_left_waits(client: TestClient) -> None:
    """An open-ended all-bot table plays its game but starts no new one with nobody there."""
    with client:
        code = create_room(client, bots=6, seed=3, games=None, next_delay_ms=0)
        wait_for(lambda: client.get(f"/api/rooms/{code}").json()["status"] == "between", 60)
        time.sleep(0.3)
        assert client.get(f"/api/rooms/{code}").json()["status"] == "between"
        with player(client) as s:  # a spectator arrives: the table plays on
            s.join(code, "sue")
            wait_for(lambda: client.get(f"/api/rooms/{code}").json()["status"] == "playing", 30)
