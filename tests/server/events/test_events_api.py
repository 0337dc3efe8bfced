"""Events through the HTTP API (/work/notes/events_api.md, docs/protocol.md "Events"):
whole online events of bot teams played by the server's rooms and checked against the same
event played offline, a real-card event entered by hand with every refusal leaving the event
as it was, seat invitations, the organiser key and the limits."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gouji.competition.sheet import score_sheet
from gouji.engine.rules import make_rules
from gouji.server.events.store import NewRoom
from gouji.server.plumbing.limits import Limits
from gouji.server.site.store import Store

from ..eventutil import (
    QUICK,
    bot_teams,
    check_against_offline,
    create_event,
    get_event,
    link_parts,
    play_out,
    read_csv,
    room,
)
from ..wsutil import REMOTE, Player, app_client, player, sqlite_in, wait_for

pytestmark = pytest.mark.timeout(120)


# ------------------------------------------------------------------ whole online events


def test_knockout_of_eight_bot_teams_plays_through(tmp_path: Path) -> None:
    """MATCH7 knockout (seed 003): 8 teams, three rounds of one table a match, three games a
    match; every table a room of the server's heuristic bots, results flowing in by
    themselves; the standings are the offline event's."""
    body = {
        "name": "够级杯",
        "preset": "MATCH7",
        "format": "knockout",
        "mode": "online",
        "seed": 11,
        "teams": bot_teams(8),
        **QUICK,
    }
    client = app_client(tmp_path)
    with client:
        code, org = create_event(client, **body)
        ev = get_event(client, code)
        assert ev["status"] == "registering" and ev["round"] == 0 and ev["seed"] is None
        assert ev["fixed_deal"] is True  # the organiser chose the seed, hence the deals
        ev = play_out(client, code, org)
        assert ev["round"] == 3 and len(ev["tables"]) == 7
        check_against_offline(client, code, ev, body)
        assert ev["winner"] == ev["standings"][0]["team"]


def test_swiss_of_six_bot_teams_plays_through(tmp_path: Path) -> None:
    """COMP2 Swiss, 6 teams, 3 rounds, two games a match: pairings by standing without
    rematches, the standings the offline event's."""
    body = {
        "name": "Swiss",
        "preset": "COMP2",
        "format": "swiss",
        "rounds": 3,
        "games": 2,
        "mode": "online",
        "seed": 5,
        "teams": bot_teams(6),
        **QUICK,
    }
    client = app_client(tmp_path)
    with client:
        code, org = create_event(client, **body)
        ev = play_out(client, code, org)
        assert ev["round"] == 3 and len(ev["tables"]) == 9
        check_against_offline(client, code, ev, body)
        met = [frozenset(t["teams"]) for t in ev["tables"]]
        assert len(set(met)) == len(met)  # no rematch


def test_a_tied_duplicate_match_plays_on_until_the_event_is_closed(tmp_path: Path) -> None:
    """R17.3: a knockout match tied after its games plays one more, totals reset. Two teams
    of the same seat-seeded bot at duplicate tables (the same deals, seats swapped) mirror
    each other exactly, so every game ties: the rooms wait for each other between games
    (never more games than the match needs) and play on; closing the event stops them."""
    body = {
        "name": "Mirror",
        "preset": "MATCH7",
        "format": "knockout",
        "duplicate": True,
        "mode": "online",
        "teams": bot_teams(2, "random"),
        **QUICK,
    }
    client = app_client(tmp_path)
    with client:
        code, org = create_event(client, **body)
        drawn = client.post(f"/api/events/{code}/rounds", headers=org).json()
        assert drawn["seat_links"] == {"r1m1t1": [None] * 6, "r1m1t2": [None] * 6}
        codes = [t["room"] for t in drawn["tables"]]
        end = time.monotonic() + 60
        while True:
            # the games first, then what the event allows: it only grows, so a game started
            # between the two reads cannot look like one over the gate
            matches = [room(client, c).match for c in codes]
            played = [len(m.games) if m is not None else 0 for m in matches]
            ev = get_event(client, code)
            needed = ev["tables"][0]["needed"]
            assert max(played) <= needed, (played, needed)  # the event's gate holds
            if needed >= 5:
                break
            assert time.monotonic() < end
            time.sleep(0.01)
        assert ev["status"] == "playing"
        t1, t2 = ev["tables"]
        assert [g["team_scores"] for g in t1["games"]] == [g["team_scores"] for g in t2["games"]]
        r = client.post(f"/api/events/{code}/close", headers=org)
        assert r.status_code == 200 and r.json()["status"] == "over"
        for c in codes:
            s = client.get(f"/api/rooms/{c}").json()
            assert s["status"] == "over" and s["event"]["halted"] == "closed"
        frozen = [room(client, c).version for c in codes]
        time.sleep(0.2)
        assert [room(client, c).version for c in codes] == frozen  # nothing more is played
        assert client.post(f"/api/events/{code}/close", headers=org).status_code == 409


# ------------------------------------------------------------------ real cards, by hand


class Organiser:
    """The organiser's calls on one event (``/api/events/{code}…`` with the key)."""

    def __init__(self, client: TestClient, code: str, headers: dict[str, str]) -> None:
        self.client, self.code, self.headers = client, code, headers

    def call(self, method: str, path: str, body: Any = None, key: bool = True) -> Any:
        return self.client.request(
            method,
            f"/api/events/{self.code}{path}",
            json=body,
            headers=self.headers if key else {},
        )

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        r = self.call(method, path, body)
        assert r.status_code in (200, 201), r.text
        return r.json()

    def refused(
        self, status: int, method: str, path: str, body: Any = None, key: bool = True
    ) -> str:
        """The call is refused with ``status`` and the event is exactly as it was."""
        before = get_event(self.client, self.code)
        r = self.call(method, path, body, key)
        assert r.status_code == status, r.text
        data = r.json()
        assert set(data) == {"error", "message"} and data["message"]
        after = get_event(self.client, self.code)
        assert after.pop("now") >= before.pop("now")  # the server's time at each answer
        assert after == before
        message: str = data["message"]
        return message


def _team(name: str) -> dict[str, Any]:
    return {"name": name, "players": [f"{name}{k}" for k in "甲乙丙"]}


def test_a_paper_event_entered_by_hand(tmp_path: Path) -> None:
    """A round robin with real cards: teams registered one by one, sheets scored by the
    preset, a penalty counted in the next game entered (R17.6), and every wrong entry
    refused with nothing changed."""
    client = app_client(tmp_path)
    with client:
        code, headers = create_event(
            client,
            name="茶馆赛",
            preset="OUTLINE_FULL",
            format="round_robin",
            mode="paper",
            games=2,
            seed=3,
        )
        org = Organiser(client, code, headers)
        for name in ("东关", "西关", "南关", "北关"):
            assert org.ok("POST", "/teams", _team(name))["players"] == _team(name)["players"]
        dup = {"name": "东关", "players": ["a", "b", "c"]}
        assert "already a team" in org.refused(400, "POST", "/teams", dup)
        two = {"name": "X", "players": ["a", "b"]}
        assert "exactly 3 players" in org.refused(400, "POST", "/teams", two)
        org.refused(400, "POST", "/teams", {**_team("X"), "x": 1})
        org.refused(403, "POST", "/teams", _team("Y"), key=False)
        org.ok("POST", "/teams", _team("Z"))
        assert org.ok("DELETE", "/teams/Z") == {"removed": "Z"}
        org.refused(404, "DELETE", "/teams/Z")
        first = get_event(client, code)["team_list"][0]
        assert first == {
            **_team("东关"), "bot": None, "disqualified": False, "subs": [], "seed": None
        }  # fmt: skip

        drawn = org.ok("POST", "/rounds")
        assert drawn["round"] == 1 and drawn["seat_links"] == {}
        tables = drawn["tables"]
        assert len(tables) == 2 and all(t["room"] is None for t in tables)
        assert "still being played" in org.refused(409, "POST", "/rounds")
        org.refused(409, "POST", "/teams", _team("Late"))
        ev = get_event(client, code)
        assert ev["status"] == "playing" and ev["round"] == 1
        t = tables[0]
        team_a = ev["team_list"][ev["teams"].index(t["teams"][0])]
        assert t["players"][::2] == team_a["players"]
        games = f"/tables/{t['id']}/games"
        rules = make_rules("OUTLINE_FULL")

        sheet0 = {"game": 0, "places": [1, 4, 2, 5, 3, 6], "not_opened": [5], "burns": [[0, 1]]}
        table = org.ok("POST", games, sheet0)
        assert table["games"][0]["team_scores"] == score_sheet(rules, sheet0)["team_scores"]
        again = {**sheet0, "places": [2, 4, 1, 5, 3, 6]}
        assert "already has a result" in org.refused(409, "POST", games, again)
        twice = {"game": 1, "places": [1, 1, 2, 5, 3, 6]}
        assert "1…6" in org.refused(400, "POST", games, twice)
        org.refused(400, "POST", games, {"game": 1, "places": [1, 2, 3]})
        org.refused(400, "POST", games, {"game": 1, "places": [1, 2, 3, 4, 5, 6], "x": []})
        org.refused(404, "POST", "/tables/r9m1t1/games", sheet0)
        org.refused(403, "POST", games, {"game": 1, "places": [1, 2, 3, 4, 5, 6]}, key=False)

        sanctions = f"/tables/{t['id']}/sanctions"
        org.refused(400, "POST", sanctions, {"kind": "penalty", "seat": 7})
        org.refused(400, "POST", sanctions, {"kind": "caning", "seat": 1})
        org.refused(400, "POST", sanctions, {"kind": "penalty", "seat": 1, "points": 0})
        org.refused(400, "POST", sanctions, {"kind": "warning", "seat": 1, "article": "a\nb"})
        org.refused(400, "POST", sanctions, {"kind": "warning", "seat": 1, "article": "x" * 81})
        long = org.ok("POST", sanctions, {"kind": "warning", "seat": 0, "article": "条" * 80})
        assert long["article"] == "条" * 80 and long["points"] == 0
        pen = {"kind": "penalty", "seat": 1, "points": -2, "article": "第二十九条（三）"}
        given = org.ok("POST", sanctions, pen)
        assert given["team"] == t["teams"][1] and given["player"] == t["players"][1]
        sheet1 = {"game": 1, "places": [6, 1, 5, 2, 4, 3]}  # team B wins this one
        table = org.ok("POST", games, sheet1)
        scored = score_sheet(rules, sheet1)["team_scores"]
        game1 = table["games"][1]
        assert game1["team_scores"] == [scored[0], scored[1] - 2]  # the penalty counts (R17.6)
        assert game1["penalties"] == [
            {"seat": 1, "team": 1, "points": -2, "article": "第二十九条（三）"}
        ]
        assert table["done"] is True

        other = f"/tables/{tables[1]['id']}/games"
        org.ok("POST", other, {"game": 0, "places": [1, 2, 3, 4, 5, 6]})
        org.ok("POST", other, {"game": 1, "places": [2, 1, 4, 3, 6, 5]})
        ev = get_event(client, code)
        assert ev["status"] == "between_rounds"
        third = {"game": 2, "places": [1, 2, 3, 4, 5, 6]}
        assert "decided" in org.refused(409, "POST", games, third)
        rows = read_csv(client, f"/api/events/{code}/results.csv")
        assert len(rows) == 4 and rows[1]["罚分"] == "2号位 −2 第二十九条（三）"  # seat 1 from 0
        places = ["大落", "头科", "二落", "二科", "四科", "三科"]  # 6 1 5 2 4 3
        assert [rows[1][f"{n}号位名次"] for n in range(1, 7)] == places and rows[1]["局"] == "2"
        assert [rows[1]["甲队得分"], rows[1]["乙队得分"]] == [str(s) for s in game1["team_scores"]]
        standings = read_csv(client, f"/api/events/{code}/standings.csv")
        assert [r["队"] for r in standings] == [s["team"] for s in ev["standings"]]

        closed = org.ok("POST", "/close")
        assert closed["status"] == "over" and closed["seed"] == 3  # shown once it is over
        org.refused(409, "POST", "/rounds")
        org.refused(409, "POST", sanctions, {"kind": "warning", "seat": 0})


def test_organiser_key_codes_and_bodies(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client:
        base = {"name": "E", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
        code, org = create_event(client, **base)
        other, _ = create_event(client, **base)
        wrong = {"authorization": f"Bearer {org['authorization'][7:][::-1]}"}
        for headers in ({}, wrong, {"authorization": org["authorization"][7:]}):
            r = client.post(f"/api/events/{code}/rounds", headers=headers)
            assert r.status_code == 403 and r.json()["error"] == "forbidden"
        r = client.get(f"/api/events/{code}/links", headers=org)
        assert r.status_code == 200 and r.json() == {}
        assert client.post(f"/api/events/{other}/close", headers=org).status_code == 403
        assert client.get("/api/events/NOSUCHEV").status_code == 404
        assert client.get("/api/events/../etc").status_code == 404
        for bad in (
            {**base, "format": "ladder"},
            {**base, "preset": "NOPE"},
            {**base, "mode": "pigeon"},
            {**base, "rounds": 3},  # a knockout takes no round count
            {**base, "games": 0},
            {**base, "wat": 1},
            {k: v for k, v in base.items() if k != "mode"},
            {**base, "name": "x" * 41},
            {**base, "name": "a\u202eb"},
            {**base, "teams": [{"name": "A", "players": ["1", "2", "3"], "bot": "nobody"}]},
            {**base, "overrides": {"no.such.key": 1}},
            [1, 2],
        ):
            r = client.post("/api/events", json=bad)
            assert r.status_code == 400 and r.json()["error"] == "bad_request", (bad, r.text)
        r = client.post("/api/events", content=b"{" * 20)
        assert r.status_code == 400
        r = client.post(
            "/api/events", content=b" " * 70_000, headers={"content-type": "text/plain"}
        )
        assert r.status_code == 413
        ok = client.post("/api/events", json={**base, "teams": bot_teams(2), "overrides": {}})
        assert ok.status_code == 201
        assert len(get_event(client, ok.json()["code"])["team_list"]) == 2


def test_events_are_rationed_per_address(tmp_path: Path) -> None:
    limits = Limits(rooms_per_ip_per_hour=3, lookups_per_ip_per_min=3)  # all-bot tables count
    client = app_client(tmp_path, limits=limits, client=REMOTE)
    with client:
        body = {"name": "E", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
        assert client.post("/api/events", json=body).status_code == 201
        online = {**body, "mode": "online", "teams": bot_teams(2)}
        code, org = create_event(client, **online)
        (table,) = client.post(f"/api/events/{code}/rounds", headers=org).json()["tables"]
        assert room(client, table["room"]).config.expires is not None  # all bots, from afar
        r = client.post("/api/events", json=body)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        for _ in range(3):
            assert client.get("/api/events/NOSUCHEV").status_code == 404
        assert client.get("/api/events/NOSUCHEV").status_code == 429


def test_a_store_failure_changes_nothing_and_stays_in_its_event(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client:
        body = {"name": "E", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
        code, org = create_event(client, **body, teams=bot_teams(4))
        other, org2 = create_event(client, **body, teams=bot_teams(2))
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        real = store.save_event

        def broken(
            code_: str,
            data: dict[str, Any],
            rooms: Sequence[NewRoom] = (),
            fence: Any = None,
            settings: Any = None,
        ) -> None:
            if code_ == code:
                raise RuntimeError("disk full")
            real(code_, data, rooms, fence, settings)

        store.save_event = broken  # type: ignore[method-assign,assignment]
        message = Organiser(client, code, org).refused(503, "POST", "/rounds")
        assert "nothing changed" in message
        assert client.post(f"/api/events/{other}/rounds", headers=org2).status_code == 201
        store.save_event = real  # type: ignore[method-assign]
        assert client.post(f"/api/events/{code}/rounds", headers=org).status_code == 201
    again = app_client(tmp_path)  # what was answered is what is stored
    with again:
        assert get_event(again, code)["round"] == 1 and get_event(again, other)["round"] == 1


# ------------------------------------------------------------------ seat invitations


def _human_vs_bots(client: TestClient, **extra: Any) -> tuple[str, dict[str, str], Any]:
    teams = [
        {"name": "人", "players": ["Ann", "Bob", "Cai"]},
        {"name": "机", "players": ["B1", "B2", "B3"], "bot": "heuristic"},
    ]
    code, org = create_event(
        client, name="Invite", preset="MATCH7", format="knockout", mode="online", teams=teams,
        seed=8, **{**QUICK, "timer_s": 60}, **extra,
    )  # fmt: skip
    r = client.post(f"/api/events/{code}/rounds", headers=org)
    assert r.status_code == 201, r.text
    return code, org, r.json()


def _claim(p: Player, seat: int, invite: str) -> None:
    p.send(type="sit", seat=seat, invite=invite)


def test_seat_links_seat_their_players_and_nobody_else(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client:
        code, org, drawn = _human_vs_bots(client)
        ((tid, links),) = drawn["seat_links"].items()
        table = drawn["tables"][0]
        human = 0 if table["teams"][0] == "人" else 1  # the team's side: seats 0,2,4 or 1,3,5
        assert [link is None for link in links] == [s % 2 != human for s in range(6)]
        listed = client.get(f"/api/events/{code}/links", headers=org).json()
        assert [x["url"] for x in listed[tid]] == [x for x in links if x]
        assert [x["player"] for x in listed[tid]] == ["Ann", "Bob", "Cai"]
        assert all(x["team"] == "人" for x in listed[tid])
        assert client.get(f"/api/events/{code}/links").status_code == 403
        code_r = table["room"]
        summary = client.get(f"/api/rooms/{code_r}").json()
        assert summary["status"] == "waiting" and summary["config"]["seat_takeover"] is False
        assert "invite" not in json.dumps(summary["config"])  # no hash is shown
        assert [s["reserved"] for s in summary["seats"]] == [s % 2 == human for s in range(6)]
        assert [s["name"] for s in summary["seats"]][human::2] == ["Ann", "Bob", "Cai"]

        parts = [link_parts(x) for x in links if x]
        with (
            player(client) as ann,
            player(client) as eve,
            player(client) as bob,
            player(client) as cai,
        ):
            room_code, seat, inv = parts[0]
            assert room_code == code_r
            eve.join(code_r, "eve")
            eve.send(type="sit", seat=seat)  # no invitation
            assert eve.next_of("error")["code"] == "bad_invite"
            _claim(eve, seat, parts[1][2])  # Bob's invitation for Ann's seat
            assert eve.next_of("error")["code"] == "bad_invite"
            _claim(eve, seat, "A" * 22)
            assert eve.next_of("error")["code"] == "bad_invite"
            _claim(eve, 1 - human, "A" * 22)  # a bot's seat has no invitation
            assert eve.next_of("error")["code"] == "bad_invite"
            ann.join(code_r, "whoever")
            _claim(ann, seat, inv)
            st = ann.state_where(lambda m: m["room"]["seats"][seat]["online"])
            mine = st["room"]["seats"][seat]
            assert mine["name"] == "Ann" and not mine["reserved"]
            assert st["room"]["status"] == "waiting"  # Bob and Cai are still to come
            bob.join(code_r, "b")
            _claim(bob, parts[1][1], parts[1][2])
            cai.join(code_r, "c")
            _claim(cai, parts[2][1], parts[2][2])
            st = ann.state_where(lambda m: m["room"]["status"] == "playing")
            assert st["view"] is not None and st["room"]["seats"][seat]["name"] == "Ann"
            eve.send(type="start")
            assert eve.next_of("error")["code"] == "started"
        # a player's link opened again on another device takes the seat back
        with player(client) as again:
            again.join(code_r, "x")
            _claim(again, seat, inv)
            st = again.state_where(lambda m: m["view"] is not None and m["view"]["seat"] == seat)
            assert "hand" in st["view"] and st["room"]["seats"][seat]["name"] == "Ann"
        stored = Store(sqlite_in(tmp_path))
        try:
            rows = {r.seat: r for r in stored.seats(code_r)}
            assert rows[seat].name == "Ann" and len(rows[seat].token or "") == 64  # hashed
            assert all(inv not in json.dumps(r.config) for r in stored.load())
        finally:
            stored.close()


def test_online_sanctions_reach_the_room_and_the_event(tmp_path: Path) -> None:
    """Sanctions at online tables go through the room's match (Match.sanction, R19.4): a
    penalty is logged in the room's views and counted in the game's result, hence in the
    event (R17.6); a disqualification ends the team's match at once (seed 003). Between
    games, once the game's result is in the event, a penalty must wait for the next game."""
    client = app_client(tmp_path)
    with client:
        body = {"name": "S", "preset": "MATCH7", "format": "knockout", "mode": "online"}
        quick = {**QUICK, "bot_delay_ms": 5, "next_delay_ms": 600_000}  # a pause between games
        code, headers = create_event(client, **body, teams=bot_teams(4), seed=4, **quick)
        org = Organiser(client, code, headers)
        t1, t2 = org.ok("POST", "/rounds")["tables"]
        r1, r2 = room(client, t1["room"]), room(client, t2["room"])
        wait_for(lambda: r1.status == "playing" and r2.status == "playing")
        pen = {"kind": "penalty", "seat": 2, "points": -2, "article": "第二十九条"}
        given = org.ok("POST", f"/tables/{t1['id']}/sanctions", pen)
        assert given["player"] == t1["players"][2] and given["game"] is None
        store = r1.store
        assert store is not None
        kinds = [a.kind for a in next(x for x in store.load() if x.code == r1.code).actions]
        assert "sanction" in kinds  # stored with the room: a restart replays it
        assert "sanction" in json.dumps(r1.view(None), ensure_ascii=False)

        out = org.ok("POST", f"/tables/{t2['id']}/sanctions", {"kind": "disqualify", "seat": 1})
        assert out["team"] == t2["teams"][1]
        ev = get_event(client, code)
        assert ev["tables"][1]["done"] is True and ev["rounds"][0][1]["winner"] == t2["teams"][0]
        assert client.get(f"/api/rooms/{r2.code}").json()["status"] == "over"
        last = ev["standings"][-1]
        assert last["team"] == t2["teams"][1] and last["disqualified"] is True

        wait_for(lambda: bool(get_event(client, code)["tables"][0]["games"]), 60)
        game0 = get_event(client, code)["tables"][0]["games"][0]
        assert game0["penalties"] == [{"seat": 2, "team": 0, "points": -2, "article": "第二十九条"}]
        assert r1.match is not None and game0["team_scores"] == r1.match.results[0]["team_scores"]
        assert get_event(client, code)["sanctions"][0]["game"] == 0
        late = org.refused(409, "POST", f"/tables/{t1['id']}/sanctions", pen)
        assert "between games" in late
        org.ok("POST", f"/tables/{t1['id']}/sanctions", {"kind": "cancel_turn", "seat": 3})
        assert r1.match.queued == [
            {"kind": "cancel_turn", "seat": 3, "points": -2, "article": ""}
        ]  # for the next game's first lead
        org.ok("POST", "/close")


def test_a_sanction_the_store_refuses_is_undone_in_the_room(tmp_path: Path) -> None:
    """Store first (docs/security.md): a sanction whose write fails leaves the room's match
    as it was — no sanction in its game, none queued — and the same sanction given again is
    kept (R19.4)."""
    client = app_client(tmp_path)
    with client:
        body = {"name": "R", "preset": "MATCH7", "format": "knockout", "mode": "online"}
        slow = {**QUICK, "bot_delay_ms": 60_000}  # the game stands still while we sanction
        code, headers = create_event(client, **body, teams=bot_teams(2), seed=5, **slow)
        org = Organiser(client, code, headers)
        (t1,) = org.ok("POST", "/rounds")["tables"]
        r1 = room(client, t1["room"])
        wait_for(lambda: r1.status == "playing" and r1.match is not None)
        assert r1.match is not None
        before = json.dumps(r1.match.record(), sort_keys=True)
        store = r1.store
        assert store is not None
        real = store.add_action

        def broken(*args: Any, **kw: Any) -> None:
            raise RuntimeError("disk full")

        store.add_action = broken  # type: ignore[method-assign,assignment]
        pen = {"kind": "penalty", "seat": 1, "points": -2, "article": "第二十九条"}
        org.refused(503, "POST", f"/tables/{t1['id']}/sanctions", pen)
        assert json.dumps(r1.match.record(), sort_keys=True) == before
        assert r1.match.game.sanctions == [] and get_event(client, code)["sanctions"] == []
        store.add_action = real  # type: ignore[method-assign]
        org.ok("POST", f"/tables/{t1['id']}/sanctions", pen)
        assert [s["kind"] for s in r1.match.game.sanctions] == ["penalty"]
        org.ok("POST", "/close")


# ------------------------------------------------------------------ pages


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/events/new", "event-new.html"),
        ("/e/ABCDEFGH", "event.html"),
        ("/e/ABCDEFGH/admin", "event-admin.html"),
        ("/e/ABCDEFGH/print", "event-print.html"),
    ],
)
def test_the_event_pages_are_served(tmp_path: Path, path: str, page: str) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / page).write_text(f"<p>{page}</p>")
    client = app_client(tmp_path, web=web)
    with client:
        r = client.get(path)
        assert r.status_code == 200 and page in r.text
