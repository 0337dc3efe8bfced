"""The online tables of events (issue 22, items 2, 5 and 6): a duplicate deal stays with its
seats until every table of its match has finished it (D74, D85), an event's all-bot tables
are bounded as all-bot rooms are (D87), an invited player is never turned away by spectators
(D88), the organiser revokes and reissues a seat link (D86), and the tables name the event's
teams and players (D89)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ..eventutil import QUICK, bot_teams, create_event, get_event, link_parts, room, wait_status
from ..wsutil import FAST, LOCAL, REMOTE, Message, Player, app_client, player, wait_for

pytestmark = pytest.mark.timeout(120)

HUMANS = {"name": "人队", "players": ["甲一", "甲二", "甲三", "甲四", "甲五", "甲六"]}
BOTS = {"name": "机队", "players": ["乙一", "乙二", "乙三"], "bot": "greedy"}


def _claim(p: Player, url: str) -> int:
    """Open a seat link as the table page does: join with the invitation, then sit."""
    code, seat, invite = link_parts(url)
    p.send(type="join", room=code, name="x", seat=seat, invite=invite)
    p.next_of("welcome")
    p.send(type="sit", seat=seat, invite=invite)
    p.state_where(lambda m: m["view"] is None or m["view"].get("seat") == seat)
    return seat


def _drain(p: Player) -> None:
    """Read everything sent so far (a ping's pong comes after it)."""
    p.send(type="ping")
    p.next_of("pong")


def _duplicate_event(client: TestClient, **extra: Any) -> tuple[str, dict[str, str], Any]:
    """A duplicate round robin of one game: people against greedy bots, two tables."""
    code, org = create_event(
        client, name="复式", preset="MATCH7", format="round_robin", mode="online",
        duplicate=True, games=1, seed=11, teams=[HUMANS, BOTS], **QUICK, **extra,
    )  # fmt: skip
    r = client.post(f"/api/events/{code}/rounds", headers=org)
    assert r.status_code == 201, r.text
    return code, org, r.json()


def _hands_shown(messages: list[Message], hands: list[str], own: int | None) -> list[int]:
    """The seats (other than ``own``) whose dealt hand is written in any message."""
    text = json.dumps(messages, ensure_ascii=False)
    return [s for s, h in enumerate(hands) if s != own and h in text]


# ------------------------------------------------------------------ duplicate deals


def test_a_duplicate_deal_is_shown_to_nobody_but_its_seats_until_both_tables_played_it(
    tmp_path: Path,
) -> None:
    """Table 1 (its people on 托管, bots) finishes game 0 while table 2's people do not act:
    until table 2 has finished the same deal no endpoint and no websocket message to a
    spectator, to table 2's seats or to anybody holds table 1's hands (a seat sees its own
    cards left in the settlement); then the record, the replay and the views show them."""
    client = app_client(tmp_path, client=REMOTE)
    with client:
        code, _, drawn = _duplicate_event(client)
        t1, t2 = drawn["tables"]
        links1 = [u for u in drawn["seat_links"][t1["id"]] if u]
        links2 = [u for u in drawn["seat_links"][t2["id"]] if u]
        r1, r2 = t1["room"], t2["room"]
        with (
            player(client) as watch1,
            player(client) as watch2,
            player(client) as a1, player(client) as a2, player(client) as a3,
            player(client) as b1, player(client) as b2, player(client) as b3,
        ):  # fmt: skip
            watch1.join(r1, "看客")
            watch2.join(r2, "看客")
            seated1 = [(p, _claim(p, u)) for p, u in zip((a1, a2, a3), links1, strict=True)]
            seated2 = [(p, _claim(p, u)) for p, u in zip((b1, b2, b3), links2, strict=True)]
            for p, _ in seated1 + seated2:
                p.reach(lambda m: m["room"]["status"] == "playing")
            for p, _ in seated1:  # table 1 plays itself; table 2's people sit and wait
                p.send(type="trust", on=True)
            state = a1.state_where(
                lambda m: m["room"]["status"] == "between" and m["room"]["event"]["waiting"]
            )
            wait_for(lambda: len(get_event(client, code)["tables"][0]["games"]) == 1)
            assert len(get_event(client, code)["tables"][1]["games"]) == 0
            table1 = room(client, r1)
            hands = table1.replay_steps(0)["steps"][0]["view"]["hands"]  # type: ignore[index]
            assert room(client, r2).replay_steps(0) is None  # table 2 is still at game 0

            # the table's own seat: its settlement shows its own cards left, nobody else's
            own = state["view"]["seat"]
            result = state["view"]["match"]["result"]
            assert result["hands_hidden"] is True and result["places"]
            assert [h is not None for h in result["hands"]] == [s == own for s in range(6)]
            assert state["room"]["event"]["hidden"] is True
            assert state["room"]["event"]["public_games"] == 0

            # HTTP, anonymous: no record, no replay, no analysis (复盘, D133), no hand in the
            # summary or the games
            for what in ("GET record", "GET replay", "GET analysis", "POST analysis"):
                method, name = what.split()
                r = client.request(method, f"/api/rooms/{r1}/games/0/{name}")
                assert r.status_code == 403 and r.json()["error"] == "forbidden", what
                assert "another table" in r.json()["message"], what
            games = client.get(f"/api/rooms/{r1}/games").json()
            assert [g["public"] for g in games] == [False]
            summary = client.get(f"/api/rooms/{r1}").json()
            assert summary["event"]["hidden"] is True
            assert all("action" not in n for n in summary["notes"])
            assert _hands_shown([summary, games], hands, None) == []
            lobby = client.get("/api/rooms").json()["rooms"]
            assert {r1, r2}.isdisjoint(x["code"] for x in lobby)
            assert client.get(f"/api/rooms/{r2}/games/0/record").status_code == 404

            # websocket: spectators see no view at all; table 2's seats only their own hand
            for p, own_seat in [(watch1, None), (watch2, None), *seated2]:
                _drain(p)
                assert _hands_shown(p.seen, hands, own_seat) == [], own_seat
            for w in (watch1, watch2):
                states = [m for m in w.seen if m["type"] == "state"]
                assert states and all(m["view"] is None for m in states)
                assert any(m["room"]["status"] == "playing" for m in states)
                assert all(
                    "action" not in n for m in states for n in m["room"]["notes"]
                )  # a timeout's play is a card too
            for p, own_seat in seated1:
                _drain(p)
                assert _hands_shown(p.seen, hands, own_seat) == []
                last = p.state
                assert last is not None
                res = last["view"]["match"]["result"]
                assert [h is not None for h in res["hands"]] == [s == own_seat for s in range(6)]
            for p, _ in seated2:
                assert all(
                    m["view"]["match"]["result"] is None
                    for m in p.seen
                    if m["type"] == "state" and m["view"]
                )

            # table 2 plays its game: the deal is public, shown everywhere
            for p, _ in seated2:
                p.send(type="trust", on=True)
            ev = wait_status(client, code, {"over"})
            assert [len(t["games"]) for t in ev["tables"]] == [1, 1]
            seen = watch1.state_where(lambda m: m["view"] is not None)
            res = seen["view"]["match"]["result"]
            assert res["hands"] == table1.match.results[0]["hands"]  # type: ignore[union-attr]
            assert "hands_hidden" not in res and seen["room"]["event"]["hidden"] is False
            back = a1.state_where(lambda m: "hands_hidden" not in m["view"]["match"]["result"])
            assert None not in back["view"]["match"]["result"]["hands"]
            watch2.state_where(lambda m: m["view"] is not None)
        rec = client.get(f"/api/rooms/{r1}/games/0/record")
        assert rec.status_code == 200 and rec.json() == table1.record(0)
        replay = client.get(f"/api/rooms/{r1}/games/0/replay").json()
        assert replay["steps"][0]["view"]["hands"] == hands
        assert [g["public"] for g in client.get(f"/api/rooms/{r1}/games").json()] == [True]


# ------------------------------------------------------------------ seat links


def _people_vs_bots(client: TestClient) -> tuple[str, dict[str, str], Any]:
    """A knockout of two teams of three, people against bots: one table, three links."""
    people = {"name": "人", "players": ["Ann", "Bob", "Cai"]}
    bots = {"name": "机", "players": ["B1", "B2", "B3"], "bot": "heuristic"}
    code, org = create_event(
        client, name="Links", preset="MATCH7", format="knockout", mode="online",
        teams=[people, bots], seed=8, **{**QUICK, "timer_s": 60},
    )  # fmt: skip
    r = client.post(f"/api/events/{code}/rounds", headers=org)
    assert r.status_code == 201, r.text
    return code, org, r.json()


def test_an_invited_player_gets_the_seat_however_many_watch(tmp_path: Path) -> None:
    """Spectators fill the room (room_full for the next one); the invited player's join
    carries the invitation and is let in, and the seat is taken."""
    client = app_client(
        tmp_path, limits=dataclasses.replace(FAST, spectators_per_room=2), client=REMOTE
    )
    with client:
        _, _, drawn = _people_vs_bots(client)
        url = next(u for u in next(iter(drawn["seat_links"].values())) if u)
        code, seat, _ = link_parts(url)
        with player(client) as w1, player(client) as w2, player(client) as w3:
            w1.join(code, "w1")
            w2.join(code, "w2")
            w3.send(type="join", room=code, name="w3")
            assert w3.next_of("error")["code"] == "room_full"
            w3.send(type="join", room=code, name="w3", seat=seat, invite="A" * 22)
            assert w3.next_of("error")["code"] == "room_full"  # not this seat's invitation
            with player(client) as ann:
                assert _claim(ann, url) == seat
                st = ann.reach(lambda m: m["room"]["seats"][seat]["online"])
                assert st["room"]["seats"][seat]["name"] == "Ann"
                assert st["room"]["spectators"] == 2
        with player(client) as odd:
            odd.send(type="join", room=code, name="x", seat=seat)  # an invitation is needed
            assert odd.next_of("error")["code"] == "bad_message"


def test_the_organiser_reissues_a_seat_link_and_the_old_one_stops_working(
    tmp_path: Path,
) -> None:
    """POST …/tables/{table}/seats/{seat}/link (organiser): a new link; the player who sat by
    the old one watches from then on (托管 plays the seat), the old link is bad_invite, the
    new one seats the player again; the links list and a restart agree."""
    client = app_client(tmp_path, client=REMOTE)
    with client:
        code, org, drawn = _people_vs_bots(client)
        ((tid, links),) = drawn["seat_links"].items()
        urls = [u for u in links if u]
        path = f"/api/events/{code}/tables/{tid}/seats/{{}}/link"
        with (
            player(client) as ann, player(client) as bob, player(client) as cai,
        ):  # fmt: skip
            seat = _claim(ann, urls[0])
            _claim(bob, urls[1])
            _claim(cai, urls[2])
            ann.reach(lambda m: m["room"]["status"] == "playing")
            assert client.post(path.format(seat)).status_code == 403  # the organiser's
            bot_seat = next(i for i, u in enumerate(links) if u is None)
            r = client.post(path.format(bot_seat), headers=org)
            assert r.status_code == 400 and "bot" in r.json()["message"]
            assert client.post(path.format(7), headers=org).status_code == 404
            once = {**org, "idempotency-key": "relink-ann-1"}
            r = client.post(path.format(seat), headers=once)
            assert r.status_code == 201, r.text
            new = r.json()
            assert new["player"] == "Ann" and new["team"] == "人" and new["seat"] == seat
            assert new["url"] != urls[0] and link_parts(new["url"])[1] == seat
            again = client.post(path.format(seat), headers=once)  # a double click: one link
            assert again.json() == new and again.headers.get("idempotent-replayed") == "true"
            told = ann.next_of("replaced")
            assert told["why"] == "relink" and "new link" in told["message"]
            st = bob.reach(lambda m: m["room"]["seats"][seat]["reserved"])
            assert st["room"]["seats"][seat]["trust"] is True  # 托管 plays for the seat
            listed = client.get(f"/api/events/{code}/links", headers=org).json()[tid]
            assert [x["url"] for x in listed] == [new["url"], urls[1], urls[2]]
        with player(client) as old, player(client) as back:
            room_code, _, invite = link_parts(urls[0])
            old.join(room_code, "old")
            old.send(type="sit", seat=seat, invite=invite)
            assert old.next_of("error")["code"] == "bad_invite"
            assert _claim(back, new["url"]) == seat
            st = back.reach(lambda m: m["view"] is not None and m["view"]["seat"] == seat)
            assert st["room"]["seats"][seat]["trust"] is False and "hand" in st["view"]
    again_app = app_client(tmp_path)
    with again_app, player(again_app) as later, player(again_app) as stale:
        stale.join(room_code, "stale")
        stale.send(type="sit", seat=seat, invite=invite)
        assert stale.next_of("error")["code"] == "bad_invite"  # still void after a restart
        # the new link still seats its player — unless 托管 and the bots, alone at the table
        # since the first server stopped, have played the match to its end: then the table
        # refuses every seat for that reason, never for the link (a loaded run's timing)
        _, _, new_invite = link_parts(new["url"])
        later.send(type="join", room=room_code, name="x", seat=seat, invite=new_invite)
        later.next_of("welcome")
        later.send(type="sit", seat=seat, invite=new_invite)
        answer = later.until(
            lambda m: (
                m["type"] == "error"
                or (m["type"] == "state" and (m["view"] or {}).get("seat") == seat)
            )
        )
        if answer["type"] == "error":
            assert answer["code"] == "illegal" and "decided" in answer["message"], answer
        listed = again_app.get(f"/api/events/{code}/links", headers=org).json()[tid]
        assert listed[0]["url"] == new["url"]


# ------------------------------------------------------------------ bounded


def test_an_event_from_afar_cannot_start_more_all_bot_tables_than_rooms(tmp_path: Path) -> None:
    """An event made from another machine counts its all-bot tables as all-bot rooms: 256
    bot teams at duplicate tables are refused at creation; a round whose all-bot tables do
    not fit the address's hour is refused at the draw (nothing drawn); from the machine
    itself neither is bounded."""
    limits = dataclasses.replace(FAST, rooms_per_ip_per_hour=4)
    client = app_client(tmp_path, limits=limits, client=REMOTE)
    with client:
        body: dict[str, Any] = {
            "name": "Flood", "preset": "MATCH7", "format": "swiss", "rounds": 50,
            "mode": "online", "duplicate": True, **QUICK,
        }  # fmt: skip
        r = client.post("/api/events", json={**body, "teams": bot_teams(256)})
        assert r.status_code == 400, r.text
        assert "256 all-bot tables" in r.json()["message"] and "at most 4" in r.json()["message"]
        code, org = create_event(client, **body, teams=bot_teams(4))  # 4 tables fit 4 …
        r = client.post(f"/api/events/{code}/rounds", headers=org)  # … but 1 went on the event
        assert r.status_code == 429 and "4 all-bot tables" in r.json()["message"], r.text
        assert get_event(client, code)["round"] == 0 and not client.app.state.hub.rooms  # type: ignore[attr-defined]
        near = TestClient(client.app, client=LOCAL)
        assert near.post(f"/api/events/{code}/rounds", headers=org).status_code == 201
        assert len(get_event(client, code)["tables"]) == 4
        made = near.post("/api/events", json={**body, "teams": bot_teams(256)})
        assert made.status_code == 201, made.text  # the server's own machine


# ------------------------------------------------------------------ names


def test_a_table_names_the_events_teams_and_players(tmp_path: Path) -> None:
    """The room's summary names the event's teams (A at seats 0, 2, 4) and every seat by its
    registered player, bots too."""
    client = app_client(tmp_path, client=REMOTE)
    with client:
        code, _, drawn = _people_vs_bots(client)
        table = drawn["tables"][0]
        summary = client.get(f"/api/rooms/{table['room']}").json()
        assert summary["event"]["teams"] == table["teams"]
        assert [s["name"] for s in summary["seats"]] == table["players"]
        bots = [s["name"] for s in summary["seats"] if s["bot"]]
        assert sorted(bots) == ["B1", "B2", "B3"]
        assert [s["team"] for s in summary["config"]["seating"]] == [
            table["teams"][s % 2] for s in range(6)
        ]
        assert get_event(client, code)["tables"][0]["players"] == table["players"]
