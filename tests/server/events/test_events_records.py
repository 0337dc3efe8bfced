"""The record of an event over HTTP (issue 22): corrections and voids of sheets until the next
round is drawn, sanctions for a named game, the audit log (organiser only), referee keys for
chosen matches, Idempotency-Key on every organiser and referee write, walkovers,
substitutes, seeds, and an event closed before its end naming no champion."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from gouji.competition.boards import card_code
from gouji.engine.cards import deck_cards
from gouji.engine.rules import make_rules

from ..eventutil import QUICK, bot_teams, create_event, get_event, room
from ..wsutil import app_client

AB = [1, 2, 3, 4, 5, 6]  # MATCH7: seats A 7+4+2 = 13, seats B 5+3+0 = 8
BA = [2, 1, 4, 3, 6, 5]  # A 8, B 13


def people(i: int, n: int = 3) -> list[str]:
    return [f"P{i}-{k}" for k in range(n)]


def teams(n: int, size: int = 3) -> list[dict[str, Any]]:
    return [{"name": f"队{i}", "players": people(i, size)} for i in range(1, n + 1)]


class Api:
    """Calls on one event with one key (or none)."""

    def __init__(self, client: TestClient, code: str, key: dict[str, str] | None) -> None:
        self.client, self.code, self.key = client, code, key or {}

    def __call__(self, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
        r = self.client.request(
            method,
            f"/api/events/{self.code}{path}",
            json=body,
            headers={**self.key, **{k.replace("_", "-"): v for k, v in headers.items()}},
        )
        return r.status_code, r.json()


def paper_event(client: TestClient, n: int = 2, **extra: Any) -> tuple[str, Api]:
    body = {"name": "协会杯", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
    code, org = create_event(client, **{**body, **extra}, teams=teams(n))
    return code, Api(client, code, org)


def test_a_sheet_is_corrected_voided_and_every_change_is_logged(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, org = paper_event(client, 4)
        assert org("POST", "/rounds")[0] == 201
        t = "r1m1t1"
        for g, places in enumerate((AB, AB, BA)):
            assert org("POST", f"/tables/{t}/games", {"game": g, "places": places})[0] == 201
        ev = get_event(client, code)
        match = ev["rounds"][0][0]
        a, b = match["teams"]
        assert match["winner"] == a and match["totals"] == [34, 29]
        # game 2 was typed the wrong way round: corrected, the winner follows
        status, table = org("PUT", f"/tables/{t}/games/1", {"places": BA})
        assert status == 200 and table["games"][1]["team_scores"] == [8, 13]
        assert table["games"][1]["sheet"]["places"] == BA
        match = get_event(client, code)["rounds"][0][0]
        assert match["winner"] == b and match["totals"] == [29, 34]
        assert org("PUT", f"/tables/{t}/games/7", {"places": AB})[0] == 400
        assert org("PUT", f"/tables/{t}/games/x", {"places": AB})[0] == 404
        status, body = org("DELETE", f"/tables/{t}/games/0")
        assert status == 400 and "only its last sheet" in body["message"]
        assert org("DELETE", f"/tables/{t}/games/2")[0] == 200
        assert get_event(client, code)["rounds"][0][0]["done"] is False
        assert org("POST", f"/tables/{t}/games", {"game": 2, "places": AB})[0] == 201
        for g in range(3):
            org("POST", "/tables/r1m2t1/games", {"game": g, "places": AB})
        assert org("POST", "/rounds")[0] == 201
        status, body = org("PUT", f"/tables/{t}/games/0", {"places": BA})
        assert status == 409 and "once the next round is drawn" in body["message"]
        # the log: who, when, what before and after
        status, entries = org("GET", "/log")
        assert status == 200
        actions = [e["action"] for e in entries]
        assert actions[:4] == ["team"] * 4  # registered with the event, by the organiser
        assert {e["by"] for e in entries[:4]} == {"organiser"}
        assert actions[4:12] == [
            "draw", "sheet", "sheet", "sheet", "correct", "void", "sheet", "sheet"
        ]  # fmt: skip
        correct = entries[8]
        assert correct["by"] == "organiser" and isinstance(correct["at"], float)
        assert correct["before"]["places"] == AB and correct["after"]["places"] == BA
        assert Api(client, code, None)("GET", "/log")[0] == 403


def test_a_penalty_for_a_registered_game_and_a_double_click(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, org = paper_event(client)
        org("POST", "/rounds")
        t = "r1m1t1"
        for g, places in enumerate((AB, BA, [1, 2, 3, 4, 6, 5])):  # A 32 : B 31
            org("POST", f"/tables/{t}/games", {"game": g, "places": places})
        a, b = get_event(client, code)["rounds"][0][0]["teams"]
        assert get_event(client, code)["winner"] == a
        body = {"kind": "penalty", "seat": 0, "points": 2, "game": 2}
        status, err = org("POST", f"/tables/{t}/sanctions", body)
        assert status == 400 and "negative" in err["message"]  # no bonus by mistake
        body = {"kind": "penalty", "seat": 0, "game": 2, "article": "第三十条"}
        first = org("POST", f"/tables/{t}/sanctions", body, idempotency_key="click-1")
        again = org("POST", f"/tables/{t}/sanctions", body, idempotency_key="click-1")
        assert first == again and first[0] == 201
        ev = get_event(client, code)
        assert len(ev["sanctions"]) == 1 and ev["winner"] == b  # 30 : 31 now
        status, err = org("POST", "/close", None, idempotency_key="click-1")
        assert status == 422 and "another request" in err["message"]
        assert org("POST", "/close", None, idempotency_key="bad key")[0] == 400
    with app_client(tmp_path) as client:
        # after a restart the same key still answers as the first time
        org = Api(client, code, org.key)
        assert org("POST", f"/tables/{t}/sanctions", body, idempotency_key="click-1") == first
        assert len(get_event(client, code)["sanctions"]) == 1


def test_a_referee_enters_results_at_its_matches_only(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, org = paper_event(client, 4)
        status, ref = org("POST", "/referees", {"name": "王裁判", "matches": [1]})
        assert status == 201 and ref["matches"] == [1] and ref["key"]
        assert ref["url"] == f"/e/{code}/admin#key={ref['key']}"
        wang = Api(client, code, {"authorization": f"Bearer {ref['key']}"})
        assert wang("GET", "/access")[1] == {
            "role": "referee", "name": "王裁判", "id": ref["id"], "matches": [1]
        }  # fmt: skip
        assert wang("POST", "/rounds")[0] == 403  # the organiser draws
        org("POST", "/rounds")
        assert wang("POST", "/tables/r1m1t1/games", {"game": 0, "places": AB})[0] == 201
        status, err = wang("POST", "/tables/r1m2t1/games", {"game": 0, "places": AB})
        assert status == 403 and "does not referee r1m2t1" in err["message"]
        assert wang("POST", "/tables/r1m1t1/sanctions", {"kind": "warning", "seat": 3})[0] == 201
        assert wang("GET", "/log")[0] == 403 and wang("GET", "/referees")[0] == 403
        listed = org("GET", "/referees")[1]
        assert listed == [{k: ref[k] for k in ("id", "name", "matches", "created", "revoked")}]
        assert "hash" not in str(listed)
        assert org("DELETE", f"/referees/{ref['id']}")[0] == 200
        assert wang("POST", "/tables/r1m1t1/games", {"game": 1, "places": AB})[0] == 403
        log = org("GET", "/log")[1]
        by = [(e["action"], e["by"]) for e in log]
        assert ("referee", "organiser") in by and ("revoke_referee", "organiser") in by
        assert ("sheet", "referee 王裁判") in by and ("sanction", "referee 王裁判") in by


def test_closing_an_unfinished_event_names_no_champion(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        _, org = paper_event(client, 4)
        org("POST", "/rounds")
        for g in range(3):
            org("POST", "/tables/r1m1t1/games", {"game": g, "places": AB})
        status, ev = org("POST", "/close")
        assert status == 200 and ev["status"] == "over"
        assert ev["winner"] is None and ev["unfinished"] is True
        assert ev["open_matches"] == ["r1m2"]
        assert ev["standings"][0]["team"] == ev["rounds"][0][0]["winner"]  # as they stand


def test_walkovers_substitutes_and_seeds(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        registered = [
            {"name": "甲", "players": people(1), "subs": ["甲替"], "seed": 1},
            {"name": "乙", "players": people(2), "seed": 2},
            {"name": "丙", "players": people(3)},
            {"name": "丁", "players": people(4)},
        ]
        body = {"name": "杯", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
        code, key = create_event(client, **body, third_place=True, teams=registered)
        org = Api(client, code, key)
        ev = get_event(client, code)
        assert ev["third_place"] is True and ev["team_list"][0]["subs"] == ["甲替"]
        assert [t["seed"] for t in ev["team_list"]] == [1, 2, None, None]
        status, drawn = org("POST", "/rounds")
        pairs = [set(t["teams"]) for t in drawn["tables"]]
        assert all(len(p & {"甲", "乙"}) == 1 for p in pairs)  # the seeds apart
        table = next(t for t in drawn["tables"] if "甲" in t["teams"])
        other = next(t for t in drawn["tables"] if "甲" not in t["teams"])
        status, err = org("POST", "/teams/甲/substitute", {"out": "P1-1", "in": "甲替"})
        assert status == 400 and "between matches" in err["message"]
        foe = next(n for n in table["teams"] if n != "甲")
        status, ev = org("POST", f"/matches/{table['match']}/walkover", {"absent": [foe]})
        assert status == 200
        match = next(m for m in ev["rounds"][0] if m["id"] == table["match"])
        assert match["winner"] == "甲" and match["walkover"] == [foe]
        assert org("POST", "/teams/甲/substitute", {"out": "P1-1", "in": "甲替"})[0] == 200
        for g in range(3):
            org("POST", f"/tables/{other['id']}/games", {"game": g, "places": AB})
        status, final = org("POST", "/rounds")
        assert status == 201 and len(final["tables"]) == 2  # the final and third place
        mine = next(t for t in final["tables"] if "甲" in t["teams"])
        assert "甲替" in mine["players"] and "P1-1" not in mine["players"]
        ev = get_event(client, code)
        assert [m["third_place"] for m in ev["rounds"][1]] == [False, True]


def test_a_duplicate_event_of_people_registers_six_a_team(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        body = {"name": "复式", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
        r = client.post("/api/events", json={**body, "duplicate": True, "teams": teams(2)})
        assert r.status_code == 400 and "exactly 6 players" in r.json()["message"]
        code, key = create_event(client, **body, duplicate=True, teams=teams(2, 6))
        org = Api(client, code, key)
        assert get_event(client, code)["team_size"] == 6
        _, drawn = org("POST", "/rounds")
        t1, t2 = drawn["tables"]
        assert not set(t1["players"]) & set(t2["players"])  # nobody plays a deal twice
        code3, key3 = create_event(client, **body, duplicate=True, sequential=True, teams=teams(2))
        org3 = Api(client, code3, key3)
        _, drawn = org3("POST", "/rounds")
        t1, t2 = drawn["tables"]
        assert [t1["allowed"], t2["allowed"]] == [3, 0]  # table 2 plays after table 1
        status, err = org3("POST", f"/tables/{t2['id']}/games", {"game": 0, "places": AB})
        assert status == 400 and f"after table {t1['id']}" in err["message"]


def test_the_sheets_penalty_column_counts_in_its_game(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, org = paper_event(client)
        org("POST", "/rounds")
        t = "r1m1t1"
        bad = {"game": 0, "places": AB, "penalties": [{"seat": 1, "points": 2}]}
        assert org("POST", f"/tables/{t}/games", bad)[0] == 400  # a bonus is no penalty
        sheet = {"game": 0, "places": AB, "penalties": [{"seat": 1, "article": "一把扔"}]}
        status, table = org("POST", f"/tables/{t}/games", sheet)
        assert status == 201 and table["games"][0]["team_scores"] == [13, 8 - 2]
        (s,) = get_event(client, code)["sanctions"]
        assert (s["kind"], s["seat"], s["game"], s["points"]) == ("penalty", 1, 0, -2)


def test_hand_records_for_real_card_duplicate(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        body = {"name": "复式", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
        code, key = create_event(client, **body, duplicate=True, teams=teams(2, 6))
        org = Api(client, code, key)
        assert org("GET", "/boards")[0] == 400  # no round drawn yet
        org("POST", "/rounds")
        assert Api(client, code, None)("GET", "/boards")[0] == 403  # the deals are secret
        status, got = org("GET", "/boards?round=1")
        assert status == 200 and got["round"] == 1
        (match,) = got["matches"]
        assert match["tables"] == ["r1m1t1", "r1m1t2"]  # one board serves both tables
        boards = match["boards"]
        assert [b["extra"] for b in boards] == [False] * 3 + [True] * 5  # R17.3 ties
        deck = sorted(card_code(c) for c in deck_cards(make_rules("MATCH7").deck_remove))
        for b in boards:
            assert [len(h) for h in b["hands"]] == [36] * 6
            assert sorted(c for h in b["hands"] for c in h) == deck
        assert boards[0]["hands"] != boards[1]["hands"]
        assert org("GET", "/boards")[1] == got  # the same deals every time
        online = {**body, "mode": "online", "teams": teams(2, 6)}
        code2, key2 = create_event(client, **online, duplicate=True)
        Api(client, code2, key2)("POST", "/rounds")
        assert Api(client, code2, key2)("GET", "/boards")[0] == 409


def test_online_duplicate_tables_one_after_the_other(tmp_path: Path) -> None:
    """A sequential duplicate event online: table 2's room starts a game only once table 1
    has finished it (the same bots play both), and the match is played out."""
    with app_client(tmp_path) as client:
        code, key = create_event(
            client, name="接力", preset="MATCH7", format="knockout", mode="online",
            duplicate=True, sequential=True, games=2, teams=bot_teams(2), **QUICK,
        )  # fmt: skip
        org = Api(client, code, key)
        _, drawn = org("POST", "/rounds")
        r1, r2 = (room(client, t["room"]) for t in drawn["tables"])
        end = time.monotonic() + 60
        while not get_event(client, code)["rounds"][0][0]["done"]:
            ev = get_event(client, code)
            t1, t2 = ev["tables"]
            played = [len(r.match.results) if r.match else 0 for r in (r1, r2)]
            assert played[1] <= len(t1["games"]), (played, len(t1["games"]))
            assert t2["allowed"] == min(t2["needed"], len(t1["games"]))
            assert time.monotonic() < end, "the match did not finish"
            time.sleep(0.005)
        t1, t2 = get_event(client, code)["tables"]
        assert len(t1["games"]) == len(t2["games"]) >= 2


def test_a_sheet_is_previewed_before_it_is_registered(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, org = paper_event(client)
        org("POST", "/rounds")
        t = "r1m1t1"
        before = get_event(client, code)
        sheet = {"game": 0, "places": AB, "penalties": [{"seat": 0}]}
        status, seen = org("POST", f"/tables/{t}/games/preview", sheet)
        assert status == 200 and seen["team_scores"] == [13 - 2, 8]
        assert seen["match"]["totals"] == [11, 8] and seen["match"]["done"] is False
        after = get_event(client, code)
        before.pop("now"), after.pop("now")
        assert after == before  # nothing kept
        bad = {"game": 0, "places": [1, 1, 2, 3, 4, 5]}
        assert org("POST", f"/tables/{t}/games/preview", bad)[0] == 400
        assert Api(client, code, None)("POST", f"/tables/{t}/games/preview", sheet)[0] == 403
        for g, places in enumerate((AB, AB, AB)):
            org("POST", f"/tables/{t}/games", {"game": g, "places": places})
        fix = {"game": 1, "places": BA, "correct": True}
        status, seen = org("POST", f"/tables/{t}/games/preview", fix)
        assert status == 200 and seen["team_scores"] == [8, 13]
        assert seen["match"]["totals"] == [34, 29] and seen["match"]["done"] is True
