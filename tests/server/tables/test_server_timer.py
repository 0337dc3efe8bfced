"""The turn timer (R19.2) and 托管 (R19.3): timeouts, two in a row, trust on and off."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ..wsutil import create_room, fast_app, player

pytestmark = pytest.mark.timeout(60)


def _kinds(client: TestClient, code: str, seat: int) -> list[str]:
    store = client.app.state.store  # type: ignore[attr-defined]
    room = next(r for r in store.load() if r.code == code)
    return [a.kind for a in room.actions if a.seat == seat and a.kind != "sit"]


def test_timeouts_then_trust_then_back(tmp_path: Path) -> None:
    client = TestClient(fast_app(f"sqlite:///{tmp_path / 't.db'}"))
    with client:
        code = create_room(client, seed=9, timer_s=0.5)
        with player(client) as p:
            p.join(code, "ann")
            p.send(type="sit", seat=0)
            p.send(type="start")
            # the first decision of seat 0: a deadline about timer_s ahead
            st = p.state_where(lambda m: m["room"]["to_act"] == 0)
            assert st["deadline"] is not None
            assert -2 < st["deadline"] - time.time() <= 0.55  # about timer_s ahead
            # nobody answers: one timeout, then a second, then 托管
            st = p.state_where(lambda m: m["room"]["seats"][0]["timeouts"] >= 1)
            assert st["room"]["seats"][0]["timeouts"] == 2 or not st["room"]["seats"][0]["trust"]
            st = p.state_where(lambda m: m["room"]["seats"][0]["trust"])
            assert st["room"]["seats"][0]["timeouts"] == 2
            assert _kinds(client, code, 0)[:2] == ["timeout", "timeout"]
            # 托管 decides for seat 0 now, through the same path (stored as "auto")
            p.state_where(lambda m: m["room"]["to_act"] not in (0, None))
            p.state_where(lambda m: "auto" in _kinds(client, code, 0) or m["view"]["is_over"])
            # trust off: the player decides again and the timer runs again
            p.send(type="trust", on=False)
            st = p.state_where(lambda m: not m["room"]["seats"][0]["trust"])
            assert st["room"]["seats"][0]["timeouts"] == 0
            p.send(type="trust", on=True)
            p.state_where(lambda m: m["room"]["seats"][0]["trust"])
            p.send(type="trust", on=False)
            p.state_where(lambda m: not m["room"]["seats"][0]["trust"])
            if p.state is not None and p.state["room"]["status"] == "playing":
                m = p.my_turn()
                if m["room"]["status"] == "playing":
                    assert m["deadline"] is not None
                    assert p.act(m["view"]["legal_actions"][0])["type"] == "ack"
        kinds = _kinds(client, code, 0)
        assert "trust" in kinds and kinds.count("timeout") >= 2


def test_an_action_resets_the_timeout_count(tmp_path: Path) -> None:
    client = TestClient(fast_app(f"sqlite:///{tmp_path / 't.db'}"))
    with client:
        code = create_room(client, seed=4, timer_s=0.5)
        with player(client) as p:
            p.join(code, "ann")
            p.send(type="sit", seat=2)
            p.send(type="start")
            p.state_where(lambda m: m["room"]["seats"][2]["timeouts"] == 1)
            m = p.my_turn()
            if m["room"]["status"] != "playing":
                pytest.skip("the game ended before seat 2 decided again")
            assert p.act(m["view"]["legal_actions"][0])["type"] == "ack"
            st = p.reach(lambda m: m["version"] > p.acted)
            assert st["room"]["seats"][2]["timeouts"] == 0
            assert not st["room"]["seats"][2]["trust"]
