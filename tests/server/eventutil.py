"""Helpers of the events tests: create an event through the HTTP API, draw its rounds while
the server's bots play, the same event played offline by ``gouji.competition``, a real-card
knockout decided by lot (``lot_event``) and a seat link's parts."""

from __future__ import annotations

import csv
import io
import time
from typing import Any

from starlette.testclient import TestClient

from gouji.competition import Event, play_event
from gouji.competition.report import summary
from gouji.server.tables.room import Room

Json = dict[str, Any]
#: Bots decide at once and games follow each other at once (tiny delays, as the brief asks).
QUICK = {"bot_delay_ms": 0, "next_delay_ms": 0, "timer_s": None}


def bot_teams(n: int, bot: str = "heuristic") -> list[Json]:
    return [
        {"name": f"Team {i}", "players": [f"P{i}-{k}" for k in (1, 2, 3)], "bot": bot}
        for i in range(1, n + 1)
    ]


def create_event(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    """A new event: its code and the organiser's headers."""
    r = client.post("/api/events", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["url"] == f"/e/{data['code']}" and data["admin_url"] == f"/e/{data['code']}/admin"
    return data["code"], {"authorization": f"Bearer {data['key']}"}


def get_event(client: TestClient, code: str) -> Json:
    r = client.get(f"/api/events/{code}")
    assert r.status_code == 200, r.text
    data: Json = r.json()
    return data


def wait_status(client: TestClient, code: str, want: set[str], seconds: float = 50.0) -> Json:
    """Poll the event until its status is one of ``want``."""
    end = time.monotonic() + seconds
    while True:
        ev = get_event(client, code)
        if ev["status"] in want:
            return ev
        assert time.monotonic() < end, f"event {code} stayed {ev['status']}"
        time.sleep(0.05)  # each read builds the whole event's JSON, beside the bots' play


def play_out(client: TestClient, code: str, headers: dict[str, str]) -> Json:
    """Draw every round as soon as the last one is over, until the event is over."""
    while True:
        ev = wait_status(client, code, {"registering", "between_rounds", "over"})
        if ev["status"] == "over":
            return ev
        r = client.post(f"/api/events/{code}/rounds", headers=headers)
        assert r.status_code == 201, r.text


def offline(body: Json) -> Json:
    """The same event played by ``gouji.competition.play_event`` in this process: with the
    deterministic heuristic bot every game is the one the server's rooms play."""
    ev = Event(
        body["name"],
        body["preset"],
        body["format"],
        rounds=body.get("rounds"),
        duplicate=body.get("duplicate", False),
        games=body.get("games"),
        seed=body["seed"],
        mode=body["mode"],
    )
    for t in body["teams"]:
        ev.add_team(t["name"], t["players"], t.get("bot"))
    play_event(ev, "heuristic")
    return summary(ev)


def room(client: TestClient, code: str) -> Room:
    r = client.app.state.hub.get(code)  # type: ignore[attr-defined]
    assert isinstance(r, Room)
    return r


def read_csv(client: TestClient, path: str) -> list[dict[str, str]]:
    """An export's rows by header, its UTF-8 byte-order mark checked and dropped."""
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.content.startswith(b"\xef\xbb\xbf")
    return list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"), newline="")))


def check_against_offline(client: TestClient, code: str, ev: Json, body: Json) -> None:
    """The server's event is the offline one: rounds, standings, winner; every room played
    exactly the games its match needed and shows that its match is decided; the CSV files
    say the same."""
    want = offline(body)
    for key in ("rounds", "standings", "winner", "teams", "format", "preset", "seed"):
        assert ev[key] == want[key], key
    assert ev["status"] == "over" and ev["mode"] == "online"
    for t in ev["tables"]:
        r = room(client, t["room"])
        assert r.match is not None and len(r.match.results) == t["needed"] == len(t["games"])
        assert [g["team_scores"] for g in t["games"]] == [g["team_scores"] for g in r.match.results]
        assert t["url"] == f"/r/{t['room']}"
        s = client.get(f"/api/rooms/{t['room']}").json()
        assert s["status"] == "over" and s["event"]["halted"] == "decided"
        assert s["event"]["code"] == code and s["event"]["table"] == t["id"]
    rows = read_csv(client, f"/api/events/{code}/standings.csv?lang=en")
    assert [(r["Team"], int(r["Match points"]), int(r["Total score"])) for r in rows] == [
        (s["team"], s["points"], s["score"]) for s in want["standings"]
    ]
    assert [int(r["Place"]) for r in rows] == list(range(1, len(rows) + 1))
    games = read_csv(client, f"/api/events/{code}/results.csv?lang=en")
    assert len(games) == sum(len(t["games"]) for t in ev["tables"])
    first = ev["tables"][0]
    assert (games[0]["Round"], games[0]["Match"], games[0]["Table"]) == ("1", "1", "1")
    assert games[0]["Team A (seats 1, 3, 5)"] == first["teams"][0]
    assert [int(games[0]["Score A"]), int(games[0]["Score B"])] == first["games"][0]["team_scores"]
    matches = read_csv(client, f"/api/events/{code}/matches.csv?lang=en")
    assert [(m["Team A"], m["Winner"]) for m in matches] == [
        (m["teams"][0], m["winner"] or (m["teams"][0] if m["bye"] else "draw"))
        for r in want["rounds"]
        for m in r
    ]


def link_parts(url: str) -> tuple[str, int, str]:
    """A seat link's room, seat (0…5; links count 1…6) and invitation."""
    path, _, query = url.partition("?")
    params = dict(p.split("=") for p in query.split("&"))
    return path.removeprefix("/r/"), int(params["seat"]) - 1, params["invite"]


#: Played by ``lot_event``: in MATCH7 seats A 7+4+2 = 13, seats B 5+3+0 = 8 (AB), or the
#: other way round (BA); a sanction's article; a team's name a spreadsheet would run.
AB = [1, 2, 3, 4, 5, 6]
BA = [2, 1, 4, 3, 6, 5]
ARTICLE = "第二十九条（三）"
FORMULA = "=1+2"


def lot_event(client: TestClient) -> tuple[str, dict[str, str]]:
    """A real-card duplicate knockout of four teams of six, one game a match: round 1's first
    match tied at both tables through 1 + 5 games and drawn by lot (its first sheet corrected,
    −2 at each table's seat 2), the second a walkover."""
    names = ["济南队", "烟台队", "青岛队", FORMULA]
    teams = [{"name": n, "players": [f"{n[0]}{k}" for k in range(6)]} for n in names]
    body = {"name": "协会杯", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
    code, org = create_event(client, **body, duplicate=True, games=1, seed=5, teams=teams)

    def ok(method: str, path: str, data: Any = None) -> Any:
        r = client.request(method, f"/api/events/{code}{path}", json=data, headers=org)
        assert r.status_code in (200, 201), r.text
        return r.json()

    ok("POST", "/rounds")
    absent = get_event(client, code)["rounds"][0][1]["teams"][0]
    ok("POST", "/matches/r1m2/walkover", {"absent": [absent]})
    for t in ("r1m1t1", "r1m1t2"):
        ok("POST", f"/tables/{t}/sanctions", {"kind": "penalty", "seat": 1, "article": ARTICLE})
    ok("POST", "/tables/r1m1t1/games", {"game": 0, "places": BA})
    ok("PUT", "/tables/r1m1t1/games/0", {"places": AB})
    for g in range(6):
        for t in ("r1m1t1", "r1m1t2"):
            if (t, g) != ("r1m1t1", 0):
                ok("POST", f"/tables/{t}/games", {"game": g, "places": AB})
    match = get_event(client, code)["rounds"][0][0]
    assert match["by_lot"] and match["extra_games"] == 5
    return code, org
