"""The wall page's server side (gouji.server.events.wall): the organiser's round clock (event
state, the server's time, stored so that a restart keeps it), the QR code of the public page
(exactly that page's address, drawn as SVG) and the public list of events (read from the
store, newest first, bounded, nothing secret)."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import segno
from sqlalchemy import text
from starlette.testclient import TestClient

from gouji.competition import Event
from gouji.server.events import wall as event_wall
from gouji.server.plumbing.clock import Clock
from gouji.server.site.store import Store

from ..eventutil import create_event, get_event
from ..wsutil import app_client, fast_app

pytestmark = pytest.mark.timeout(60)

SKEW = 86_400.0  # the server's clock a day ahead of the machine's: the pages must follow it
TEAMS = [
    {"name": "青岛队", "players": ["张三", "李四", "王五"]},
    {"name": "济南队", "players": ["赵六", "钱七", "孙八"]},
]
PAPER = {"name": "社区够级赛", "preset": "MATCH7", "format": "knockout", "mode": "paper"}


class Ahead(Clock):
    """The system's clock, its epoch time a day ahead (intervals as the system's)."""

    def time(self) -> float:
        return time.time() + SKEW


def _clock(client: TestClient, code: str, body: Any, headers: dict[str, str]) -> Any:
    return client.post(f"/api/events/{code}/clock", json=body, headers=headers)


# ------------------------------------------------------------------ the round clock


def test_the_round_clock_runs_on_the_servers_time(tmp_path: Path) -> None:
    client = app_client(tmp_path, clock=Ahead())
    with client:
        code, org = create_event(client, **PAPER, teams=TEAMS)
        ev = get_event(client, code)
        assert ev["clock"] is None
        assert abs(ev["now"] - (time.time() + SKEW)) < 5  # the server's time, not the machine's
        r = _clock(client, code, {"minutes": 40}, org)
        assert r.status_code == 409 and "no round" in r.json()["message"]  # nothing drawn yet
        assert client.post(f"/api/events/{code}/rounds", headers=org).status_code == 201
        before = time.time() + SKEW
        r = _clock(client, code, {"minutes": 40}, org)
        assert r.status_code == 200, r.text
        clock = r.json()["clock"]
        assert clock["round"] == 1 and clock["minutes"] == 40
        assert before - 1 <= clock["started"] <= time.time() + SKEW + 1
        ev = get_event(client, code)
        assert ev["clock"] == clock and ev["now"] >= clock["started"]
        # started again: the clock starts over with the new length
        again = _clock(client, code, {"minutes": 1}, org).json()["clock"]
        assert again["minutes"] == 1 and again["started"] >= clock["started"]
        r = _clock(client, code, {"minutes": None}, org)
        assert r.status_code == 200 and r.json()["clock"] is None
        assert get_event(client, code)["clock"] is None
        assert _clock(client, code, {"minutes": None}, org).status_code == 200  # stopped twice


def test_only_the_organiser_sets_the_clock_and_bad_minutes_are_refused(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client:
        code, org = create_event(client, **PAPER, teams=TEAMS)
        client.post(f"/api/events/{code}/rounds", headers=org)
        assert _clock(client, code, {"minutes": 30}, org).status_code == 200
        running = get_event(client, code)["clock"]
        for headers in ({}, {"authorization": "Bearer not-the-key"}, {"authorization": "key"}):
            r = _clock(client, code, {"minutes": 5}, headers)
            assert r.status_code == 403 and r.json()["error"] == "forbidden"
            r = _clock(client, code, {"minutes": None}, headers)  # nor stop it
            assert r.status_code == 403
        for body in (
            {"minutes": 0},
            {"minutes": 301},
            {"minutes": -5},
            {"minutes": 40.5},
            {"minutes": "40"},
            {"minutes": True},
            {},
            {"minutes": 5, "round": 1},
            [40],
            40,
        ):
            r = _clock(client, code, body, org)
            assert r.status_code == 400, body
            assert r.json()["error"] == "bad_request" and "minutes" in r.json()["message"]
        r = client.post(f"/api/events/{code}/clock", content=b"{not json", headers=org)
        assert r.status_code == 400
        assert _clock(client, code, {"minutes": 300}, org).status_code == 200  # the bounds
        assert _clock(client, code, {"minutes": 1}, org).status_code == 200
        assert _clock(client, "NOSUCH", {"minutes": 5}, org).status_code == 404
        assert running is not None


def test_a_clock_sent_again_with_its_idempotency_key_is_not_started_over(tmp_path: Path) -> None:
    """D81, as every organiser write: a retry after a lost answer gets the first answer."""
    client = app_client(tmp_path)
    with client:
        code, org = create_event(client, **PAPER, teams=TEAMS)
        client.post(f"/api/events/{code}/rounds", headers=org)
        keyed = {**org, "idempotency-key": "clock-1"}
        first = _clock(client, code, {"minutes": 40}, keyed)
        assert first.status_code == 200 and "idempotent-replayed" not in first.headers
        time.sleep(0.01)
        again = _clock(client, code, {"minutes": 40}, keyed)
        assert again.headers["idempotent-replayed"] == "true"
        assert again.json() == first.json()
        assert get_event(client, code)["clock"] == first.json()["clock"]  # not started over
        r = client.post(f"/api/events/{code}/close", headers=keyed)  # another request
        assert r.status_code == 422 and r.json()["error"] == "idempotency_key_reused"
        refused = _clock(client, code, {"minutes": 0}, {**org, "idempotency-key": "clock-2"})
        assert refused.status_code == 400
        r = _clock(client, code, {"minutes": 0}, {**org, "idempotency-key": "clock-2"})
        assert r.status_code == 400 and r.headers["idempotent-replayed"] == "true"
        r = _clock(client, code, {"minutes": 5}, {**org, "idempotency-key": "bad key"})
        assert r.status_code == 400


def test_the_clock_ends_with_its_round_and_with_the_event(tmp_path: Path) -> None:
    """A clock belongs to its round: once the event is over (here a two-team knockout's only
    round decided) it is gone, and no clock starts any more; stopping is still harmless."""
    client = app_client(tmp_path)
    with client:
        code, org = create_event(client, **PAPER, teams=TEAMS, games=1)
        client.post(f"/api/events/{code}/rounds", headers=org)
        assert _clock(client, code, {"minutes": 40}, org).json()["clock"]["round"] == 1
        table = get_event(client, code)["tables"][0]["id"]
        sheet = {"game": 0, "places": [1, 2, 3, 4, 5, 6]}
        r = client.post(f"/api/events/{code}/tables/{table}/games", json=sheet, headers=org)
        assert r.status_code == 201, r.text
        ev = get_event(client, code)
        assert ev["status"] == "over" and ev["clock"] is None
        r = _clock(client, code, {"minutes": 40}, org)
        assert r.status_code == 409 and "over" in r.json()["message"]
        assert _clock(client, code, {"minutes": None}, org).status_code == 200


def test_a_clock_the_store_refuses_is_not_started(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client:
        code, org = create_event(client, **PAPER, teams=TEAMS)
        client.post(f"/api/events/{code}/rounds", headers=org)
        store: Store = client.app.state.store  # type: ignore[attr-defined]

        def refuse(*args: Any, **kw: Any) -> None:
            raise OSError("disk full")

        store.save_event_settings = refuse  # type: ignore[method-assign]
        r = _clock(client, code, {"minutes": 40}, org)
        assert r.status_code == 503 and r.json()["error"] == "unavailable"
        assert get_event(client, code)["clock"] is None


def test_the_clock_survives_a_restart(db_url: str) -> None:
    first = TestClient(fast_app(db_url))
    with first:
        code, org = create_event(first, **PAPER, teams=TEAMS)
        first.post(f"/api/events/{code}/rounds", headers=org)
        clock = _clock(first, code, {"minutes": 45}, org).json()["clock"]
    second = TestClient(fast_app(db_url))
    with second:
        ev = get_event(second, code)
        assert ev["clock"] == clock
        assert ev["name"] == PAPER["name"] and ev["round"] == 1  # the rest as it was
        assert _clock(second, code, {"minutes": None}, org).json()["clock"] is None
    third = TestClient(fast_app(db_url))
    with third:
        assert get_event(third, code)["clock"] is None  # the stop was stored too


# ------------------------------------------------------------------ the QR code


def qr_modules(svg: bytes) -> list[list[bool]]:
    """The dark modules a segno SVG draws: its path is runs of ``h`` (dark) and moves ``m``
    from the first module's row middle (``M x y.5``); the quiet zone (border) cut off."""
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    size = int(root.attrib["viewBox"].split()[2])
    path = next(p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("stroke"))
    grid = [[False] * size for _ in range(size)]
    x = y = 0.0
    for op, args in re.findall(r"([MmHh])([-0-9. ]+)", path.attrib["d"]):
        nums = [float(v) for v in args.split()]
        if op == "M":
            x, y = nums
        elif op == "m":
            x, y = x + nums[0], y + nums[1]
        else:
            for k in range(int(nums[0])):
                grid[int(y)][int(x) + k] = True
            x += nums[0]
    border = 4
    return [row[border : size - border] for row in grid[border : size - border]]


def segno_modules(text: str) -> list[list[bool]]:
    return [[bool(v) for v in row] for row in segno.make(text, error="m").matrix]


def test_the_qr_code_is_the_public_page_of_the_host_asked(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client:
        code, _ = create_event(client, **PAPER, teams=TEAMS)
        r = client.get(f"/api/events/{code.lower()}/qr.svg")
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
        page = f"http://testserver/e/{code}"
        assert qr_modules(r.content) == segno_modules(page)
        assert qr_modules(r.content) != segno_modules(page + "x")  # the decoding can fail
        assert page in r.text  # its title says what it encodes
        # another host (as a proxy passes it): that host's page; no query chooses the text
        r = client.get(
            f"/api/events/{code}/qr.svg?url=https://evil.example/",
            headers={"host": "gouji.example.org:8443"},
        )
        assert qr_modules(r.content) == segno_modules(f"http://gouji.example.org:8443/e/{code}")
        assert "evil" not in r.text
        r = client.get(f"/api/events/{code}/qr.svg", headers={"host": "[::1]:8000"})
        assert qr_modules(r.content) == segno_modules(f"http://[::1]:8000/e/{code}")
        for host in ("user@evil.example", "a b", "x" * 300):
            r = client.get(f"/api/events/{code}/qr.svg", headers={"host": host})
            assert r.status_code == 400 and r.json()["error"] == "bad_request", host
        assert client.get("/api/events/NOSUCH/qr.svg").status_code == 404


# ------------------------------------------------------------------ the list


LINE = {"code", "name", "format", "preset", "mode", "status", "teams", "round", "created", "url"}


def _list(client: TestClient) -> list[dict[str, Any]]:
    r = client.get("/api/events")
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def test_the_list_is_newest_first_and_tells_nothing_secret(tmp_path: Path) -> None:
    client = app_client(tmp_path)
    with client:
        assert _list(client) == []
        codes = []
        for k in range(3):
            body = {**PAPER, "name": f"Cup {k}", "teams": TEAMS, "seed": 1234567 + k}
            code, org = create_event(client, **body)
            codes.append(code)
        listed = _list(client)
        assert [e["code"] for e in listed] == codes[::-1]
        assert all(set(e) == LINE for e in listed)
        first = listed[-1]
        assert first == {
            "code": codes[0],
            "name": "Cup 0",
            "format": "knockout",
            "preset": "MATCH7",
            "mode": "paper",
            "status": "registering",
            "teams": 2,
            "round": 0,
            "created": first["created"],
            "url": f"/e/{codes[0]}",
        }
        assert listed[0]["created"] >= listed[1]["created"] >= listed[2]["created"]
        text = client.get("/api/events").text
        assert "1234567" not in text and "key" not in text and "Bearer" not in text
        # a change shows at once (the line is made again when the stored event changed)
        client.post(f"/api/events/{codes[-1]}/rounds", headers=org)
        assert _list(client)[0] | {"created": 0} == listed[0] | {
            "status": "playing",
            "round": 1,
            "created": 0,
        }


def test_the_list_is_bounded_and_reads_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Events of other processes are in the store, not in this one's memory: listed too; an
    event whose data no longer loads is left out, the others still listed."""
    monkeypatch.setattr(event_wall, "LIST_SIZE", 3)
    client = app_client(tmp_path)
    with client:
        mine = [
            create_event(client, **{**PAPER, "name": f"Mine {k}"}, teams=TEAMS)[0] for k in range(4)
        ]
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        other = Event("Elsewhere", "MATCH7", "swiss", mode="online")
        store.create_event("OTHER1", "0" * 64, {}, other.to_dict())
        listed = _list(client)
        assert [e["code"] for e in listed] == ["OTHER1", mine[3], mine[2]]
        assert listed[0]["format"] == "swiss" and listed[0]["mode"] == "online"
        assert "OTHER1" not in client.app.state.events.events  # type: ignore[attr-defined]
        with store.engine.begin() as conn:
            broken = text("UPDATE events SET data = '{}', updated = 1 WHERE code = :c")
            conn.execute(broken, {"c": mine[3]})
        assert [e["code"] for e in _list(client)] == ["OTHER1", mine[2]]
