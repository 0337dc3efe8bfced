"""Helpers of the events tests: create an event through the HTTP API, draw its rounds while
the server's bots play, and the same event played offline by ``gouji.competition``."""

from __future__ import annotations

import csv
import io
import time
from typing import Any

from starlette.testclient import TestClient

from gouji.competition import Event, play_event
from gouji.competition.report import summary
from gouji.server.tables.rooms import Room

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
