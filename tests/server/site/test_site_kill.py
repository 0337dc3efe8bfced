"""A site of two real server processes behind HAProxy on one PostgreSQL database; kill -9
the process serving a player's room in the middle of the game.

The test starts the workers and the proxy itself (as ``gouji serve --workers 2`` does, minus
the restart, so that the *other* worker must take the rooms over) and checks:

1. every acknowledged ``act`` is stored exactly once, and nothing the player never sent;
2. the surviving worker takes the dead one's rooms over by itself, within seconds: the player,
   reconnecting through the proxy (``moved`` → ``?w=``), gets its seat back with the state at
   least at every acknowledged version; an old id is answered as a duplicate; play goes on;
3. the turn timer resumes with the time it had left when the worker died (not from zero);
4. the all-bot rooms the dead worker served play on;
5. neither worker logged an error.

``gouji serve --workers 2`` itself (the supervisor) is tested at the end: it serves through its
proxy, restarts a killed worker, and stops cleanly on SIGINT with its leases released.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from gouji.server.site.store import Store
from support import free_port

from ..killutil import (
    HUMAN_SEAT,
    HUMAN_SEED,
    Message,
    Player,
    check_store,
    http,
    open_ws,
)
from ..siteutil import Proc, SiteUnderTest, owner_of, print_logs, wait_ready

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="HAProxy is not installed"),
]

TIMER_S = 60.0
BEFORE_KILL = 12  # acknowledged decisions before the kill
AFTER = 3  # decisions after the take-over
TAKEOVER_S = 30.0  # the longest wait for the room to come back (it takes ~5 s: docs/scaling.md)


async def join_site(player: Player, site: SiteUnderTest, code: str, hint: str | None) -> Message:
    """Join through the proxy as the page does: follow ``moved`` to the worker it names (or
    wait a moment when it names nobody) until welcomed; the first ``state``."""
    end = time.monotonic() + TAKEOVER_S
    while True:
        assert time.monotonic() < end, f"room {code} was not served again"
        try:
            player.ws = await open_ws(site.ws + (f"?w={hint}" if hint else ""))
            msg: Message = {"type": "join", "room": code, "name": player.name}
            if player.token is not None:
                msg["token"] = player.token
            await player.send(**msg)
            first = await player.recv()
            if first["type"] == "moved":
                assert first["room"] == code, first
                hint = first["worker"]
                with contextlib.suppress(Exception):
                    await player.ws.close()
                if hint is None:
                    await asyncio.sleep(0.3)
                continue
            assert first["type"] == "welcome", first
            if player.token is not None:  # the seat back, with a new token (D91)
                assert first["token"] != player.token and first["seat"] == HUMAN_SEAT, first
            player.token = first["token"]
            player.state, player.next_sent = None, -1
            return await player.until(lambda m: m["type"] == "state")
        except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
            await asyncio.sleep(0.3)


async def kill_mid_game(site: SiteUnderTest, db_url: str) -> dict[str, float]:
    human = site.create(
        bots=5, bot_delay_ms=0, timer_s=TIMER_S, games=3, seed=HUMAN_SEED, listed=True
    )
    bots = [site.create(bots=6, bot_delay_ms=30, next_delay_ms=0, seed=s) for s in range(4)]
    player = Player("ann")
    await join_site(player, site, human, None)
    await player.send(type="sit", seat=HUMAN_SEAT)
    await player.send(type="start")
    await player.play(BEFORE_KILL)
    st = await player.decision()  # the player's turn, nothing in flight: its timer runs
    deadline = float(st["deadline"])
    dead = owner_of(db_url, human)
    dead_bots = [b for b in bots if owner_of(db_url, b) == dead]
    before = {b: site.version(b) for b in dead_bots}
    await asyncio.sleep(2.5)  # the player thinks: 2.5 s of the timer pass before the kill
    killed = time.time()
    site.procs[dead].proc.send_signal(signal.SIGKILL)
    site.procs[dead].proc.wait(10)
    await player.drain()

    stored_human, _ = check_store(db_url, human, bots[0], player)  # (1)
    st = await join_site(player, site, human, dead)  # (2): through the proxy, to the heir
    back = time.time()
    heir = owner_of(db_url, human)
    assert heir != dead, f"{heir} serves the room, and it is the dead one"
    assert st["version"] >= max(stored_human, max(s.version + 1 for s in player.acked.values()))
    mine = st["room"]["seats"][HUMAN_SEAT]
    assert (mine["name"], mine["human"]) == ("ann", True), mine
    # (3) the timer: what was left when the worker was last alive (at most 1 s before the kill)
    left_at_kill = deadline - killed
    left_now = float(st["deadline"]) - back
    assert left_at_kill - 1.0 <= left_now <= left_at_kill + 1.5, (left_at_kill, left_now)
    assert left_now < TIMER_S - 1.5, "the turn timer started again from zero"
    old = sorted(player.acked)[0]
    await player.send(type="act", id=old, action=player.acked[old].action)
    assert await player.answer(old) == {"type": "ack", "id": old, "duplicate": True}
    await player.play(AFTER)
    check_store(db_url, human, bots[0], player)
    # (4) the dead worker's all-bot rooms play on at the heir
    for code, version in before.items():
        end = time.monotonic() + TAKEOVER_S
        while site.version(code) <= version:
            assert time.monotonic() < end, f"bot room {code} did not play on"
            await asyncio.sleep(0.1)
    # the lobby's list, from the heir, still shows the player's room
    status, listing = http("GET", site.base + "/api/rooms")
    assert status == 200 and human in [r["code"] for r in listing["rooms"]], listing
    if player.ws is not None:
        await player.ws.close()
    return {"takeover_s": back - killed, "left_at_kill": left_at_kill, "left_now": left_now}


def test_kill_a_worker_mid_game(pg_url: str, tmp_path: Path) -> None:
    site = SiteUnderTest(pg_url, tmp_path)
    try:
        figures = asyncio.run(kill_mid_game(site, pg_url))
        heirs = [p for p in site.procs.values() if p.proc.poll() is None]
        assert len(heirs) == 1
        assert not heirs[0].errors(), heirs[0].errors()  # (5)
        for p in site.procs.values():  # JSON log lines with the worker's name
            for line in p.tail().splitlines():
                if line.startswith("{"):
                    assert json.loads(line)["worker"] in ("w1", "w2"), line
    except BaseException:
        print_logs(tmp_path)
        raise
    finally:
        site.stop()
    print(f"\ntake-over: {figures}")


def test_gouji_serve_workers_supervises_and_stops_cleanly(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    first = free_port()
    cmd = [sys.executable, "-m", "gouji.cli", "serve", "--workers", "2", "--port", str(port)]
    cmd += ["--worker-port", str(first), "--db", pg_url, "--log-level", "warning"]
    site = Proc(cmd, tmp_path / "site.log")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base + "/readyz", site, 60)
        status, made = http("POST", base + "/api/rooms", {"bots": 6, "bot_delay_ms": 20})
        assert status == 201, made
        code = made["code"]
        assert http("GET", f"{base}/api/rooms/{code}")[0] == 200  # wherever it landed
        # kill -9 one worker: the supervisor starts it again
        worker = subprocess.run(
            ["pgrep", "-f", "--", f"--worker-id w1 --host 127.0.0.1 --port {first}"],
            capture_output=True,
            text=True,
        ).stdout.split()
        assert worker, site.tail()
        subprocess.run(["kill", "-9", worker[0]], check=True)
        end = time.monotonic() + 30
        while "worker w1 exited (-9); restarting it" not in site.tail():
            assert time.monotonic() < end, site.tail()
            time.sleep(0.1)
        wait_ready(f"http://127.0.0.1:{first}/readyz", site, 60)
        site.proc.send_signal(signal.SIGINT)
        assert site.proc.wait(30) == 0, site.tail()
        with Store(pg_url) as store:
            lease = store.lease(code)
        assert lease is not None and lease[1] == 0.0, f"the lease was not released: {lease}"
        left = subprocess.run(["pgrep", "-f", pg_url], capture_output=True).stdout
        assert not left, "a worker outlived the supervisor"
    finally:
        site.stop()
        subprocess.run(["pkill", "-9", "-f", pg_url], capture_output=True)
