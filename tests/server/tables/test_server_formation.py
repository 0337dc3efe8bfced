"""R1.6 team formation in casual rooms: ``formation`` draw (抽签组邦) and opposite (自选对头)
seat the players by lot at the start, every connection follows its player, and a restart
finds the same seating."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji.competition.formation import seating

from ..eventutil import room
from ..wsutil import create_room, fast_app, player

pytestmark = pytest.mark.timeout(60)


def _find_seed(formation: str, moves: int) -> int:
    """A seed whose seating moves the player of seat 0 (so the test sees a move)."""
    return next(s for s in range(100) if seating(formation, s)[0] == moves)


def test_draw_seats_the_players_by_lot(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'f.db'}"
    seed = _find_seed("draw", 3)
    order = seating("draw", seed)
    client = TestClient(fast_app(url))
    with client, player(client) as ann:
        code = create_room(client, formation="draw", seed=seed, bot_delay_ms=60_000)
        assert client.get(f"/api/rooms/{code}").json()["config"]["formation"] == "draw"
        token = ann.join(code, "ann")["token"]
        ann.send(type="sit", seat=0)
        ann.state_where(lambda m: m["room"]["seats"][0]["name"] == "ann")
        ann.send(type="start")
        st = ann.state_where(lambda m: m["view"] is not None)
        assert st["room"]["seats"][3]["name"] == "ann" and st["view"]["seat"] == 3
        note = next(n for n in st["room"]["notes"] if n["type"] == "formation")
        assert note["type"] == "formation" and note["seat"] is None and note["v"] == 2
        assert note["formation"] == "draw" and note["seating"] == order
        assert [s["bot"] is None for s in st["room"]["seats"]] == [i == 3 for i in range(6)]
    again = TestClient(fast_app(url))
    with again, player(again) as ann:
        assert ann.join(code, "ann", token=token)["seat"] == 3  # the same seating after a restart
        assert room(again, code).seats[3].name == "ann"


def test_opposite_keeps_the_chosen_pair_opposite(tmp_path: Path) -> None:
    client = TestClient(fast_app(f"sqlite:///{tmp_path / 'f.db'}"))
    seed = 12
    order = seating("opposite", seed)
    with client, player(client) as ann, player(client) as bob:
        code = create_room(client, formation="opposite", seed=seed, bots=4, bot_delay_ms=60_000)
        ann.join(code, "ann")
        bob.join(code, "bob")
        ann.send(type="sit", seat=1)  # ann and bob choose each other as 对头: seats 1 and 4
        bob.send(type="sit", seat=4)
        ann.state_where(lambda m: m["room"]["seats"][4]["name"] == "bob")
        ann.send(type="start")
        a = ann.state_where(lambda m: m["view"] is not None)["view"]["seat"]
        b = bob.state_where(lambda m: m["view"] is not None)["view"]["seat"]
        assert (a, b) == (order[1], order[4]) and (a + 3) % 6 == b


def test_an_unknown_formation_is_refused(tmp_path: Path) -> None:
    client = TestClient(fast_app(f"sqlite:///{tmp_path / 'f.db'}"))
    with client:
        r = client.post("/api/rooms", json={"formation": "friends"})
        assert r.status_code == 400 and "seats, draw, opposite" in r.json()["message"]
