"""A rated room needs a turn timer (issue 39; D161): without one a player who stops acting
stops the game for good and it is never rated, so ``timer_s: null`` is refused where the room's
config is parsed (gouji.server.tables.protocol), with a message that says why."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from gouji.server.tables.protocol import ConfigProblem, parse_config

from ..wsutil import fast_app


def test_a_rated_config_without_a_timer_is_refused() -> None:
    with pytest.raises(ConfigProblem, match="a rated room needs a turn timer"):
        parse_config({"rated": True, "timer_s": None})
    assert parse_config({"rated": True})[0].timer_s == 30.0  # the default timer
    assert parse_config({"rated": True, "timer_s": 5})[0].timer_s == 5.0
    assert parse_config({"timer_s": None})[0].timer_s is None  # unrated: a table's own choice


def test_creating_a_rated_room_without_a_timer_is_a_400(sqlite_url: str) -> None:
    with TestClient(fast_app(sqlite_url)) as client:
        r = client.post("/api/rooms", json={"rated": True, "bots": 5, "timer_s": None})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_request" and "turn timer" in r.json()["message"]
        assert client.get("/api/rooms").json()["rooms"] == []
        ok = client.post("/api/rooms", json={"rated": True, "bots": 5, "timer_s": 20})
        assert ok.status_code == 201
        config = client.get(f"/api/rooms/{ok.json()['code']}").json()["config"]
        assert config["rated"] is True and config["timer_s"] == 20
        quick = client.post("/api/quick", json={"rated": True})  # quick match: its default
        code = quick.json()["code"]
        assert client.get(f"/api/rooms/{code}").json()["config"]["timer_s"] == 30
