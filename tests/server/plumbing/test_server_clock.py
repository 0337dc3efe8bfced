"""The server's one clock (gouji.server.plumbing.clock): bot
delays, the turn timer (R19.2), 托管 after
two timeouts (R19.3), stored times and leases all read it, so a table's minutes pass in a
fraction of the wall's time on a ``FastClock`` while keeping every interval the rules set."""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji.server.plumbing.clock import SYSTEM, Clock, FastClock
from gouji.server.site.store import Store
from gouji.server.tables.store import StoredAction

from ..wsutil import create_room, fast_app, player, seated_and_started, wait_for

pytestmark = pytest.mark.timeout(60)

SPEED = 50.0  # table seconds a wall second


def _actions(client: TestClient, code: str) -> list[StoredAction]:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return next(r for r in store.load() if r.code == code).actions


def test_a_fast_clock_runs_at_its_speed_and_processes_agree() -> None:
    origin = time.time() - 10.0  # ten wall seconds ago: 10 × 4 = 40 table seconds since
    a, b = FastClock(4, origin), FastClock(4, origin)
    ta, tb = a.time(), b.time()
    assert abs(ta - tb) < 0.05  # two processes given speed and origin read one time
    assert 40.0 - 0.05 < ta - origin < 40.0 + 1.0
    m0, w0 = a.monotonic(), time.monotonic()
    time.sleep(0.05)
    assert a.monotonic() - m0 >= 4 * (time.monotonic() - w0) - 0.01
    assert a.wall(8.0) == 2.0 and SYSTEM.wall(8.0) == 8.0
    with pytest.raises(ValueError, match="positive"):
        FastClock(0)


def test_sleep_and_wait_take_the_clocks_seconds() -> None:
    async def run(clock: Clock) -> tuple[float, bool, bool]:
        began = time.monotonic()
        await clock.sleep(5.0)  # 0.1 s of the wall at speed 50
        slept = time.monotonic() - began
        event = asyncio.Event()
        timed_out = await clock.wait(event, 2.0)
        asyncio.get_running_loop().call_later(0.01, event.set)
        woken = await clock.wait(event, 3600.0)
        return slept, timed_out, woken

    slept, timed_out, woken = asyncio.run(run(FastClock(SPEED)))
    assert 0.09 <= slept < 5.0
    assert timed_out is False and woken is True


def test_bot_delays_are_table_seconds(tmp_path: Path) -> None:
    """Bots wait their delay of table time between decisions (stored times are the table's),
    and a minute of such play takes about a second of the wall."""
    clock = FastClock(SPEED)
    client = TestClient(fast_app(f"sqlite:///{tmp_path / 'c.db'}", clock=clock))
    with client:
        began = time.monotonic()
        code = create_room(client, seed=3, bots=6, bot_delay_ms=2000, timer_s=None)
        wait_for(lambda: len(_actions(client, code)) >= 12, seconds=30)
        wall = time.monotonic() - began
    moves = [a for a in _actions(client, code) if a.kind == "bot"]
    gaps = [b.created - a.created for a, b in itertools.pairwise(moves)]
    assert len(gaps) >= 10 and min(gaps) >= 2.0 - 0.01, gaps
    table = moves[-1].created - moves[0].created
    assert table >= 2.0 * len(gaps) - 0.1
    assert wall < table  # the table's time ran ahead of the wall's


def test_a_real_turn_timer_times_out_twice_then_trust(tmp_path: Path) -> None:
    """R19.2, R19.3 with the lobby's own timer (30 s): nobody answers, so two timeouts come
    30 table seconds after the decisions began, then 托管 plays for the seat."""
    clock = FastClock(SPEED)
    client = TestClient(fast_app(f"sqlite:///{tmp_path / 't.db'}", clock=clock))
    with client:
        code = create_room(client, seed=9, timer_s=30)
        with player(client) as p:
            seated_and_started(p, code)
            st = p.reach(lambda m: m["room"]["to_act"] == 0)
            assert st["deadline"] is not None
            # the deadline is the table's: at most 30 of its seconds ahead (a loaded machine's
            # latency is 50 times as long in table time, so no lower bound is checked here;
            # the stored gaps below show the whole timer ran)
            assert st["deadline"] - clock.time() <= 30.5
            st = p.state_where(lambda m: m["room"]["seats"][0]["trust"])
            assert st["room"]["seats"][0]["timeouts"] == 2
    actions = _actions(client, code)
    timeouts = [i for i, a in enumerate(actions) if a.kind == "timeout"]
    assert len(timeouts) == 2 and all(actions[i].seat == 0 for i in timeouts)
    for i in timeouts:  # the whole timer ran from the action before: 30 table seconds
        assert actions[i].created - actions[i - 1].created >= 30.0 - 0.01
