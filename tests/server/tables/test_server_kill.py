"""Kill -9 and restart (SQLite and PostgreSQL).

A real ``gouji serve`` subprocess runs two rooms: one human seat (this test's websocket client,
deciding at once) with five bots, and an all-bot table watched by a spectator. At a seeded random
moment — after at least ``MIN_ACKS`` acknowledged decisions since the last start, while the bots
of both rooms play — the server gets SIGKILL and a new one starts on the same database. Each time:

1. every acknowledged ``act`` id is stored exactly once (and no id the client never sent), as the
   decision it was, at the version after the state it was decided on;
2. both rooms' stored sequences have no gap, and the new server's rooms (``GET /api/rooms/…``)
   are at least at the stored version, so at least at every acknowledged action's;
3. the player's token gets its seat back, its first ``state`` is consistent (version at least the
   last acknowledged one, ``legal_actions`` when ``to_act`` is its seat), the decision in flight at
   the kill is applied exactly once when sent again, an old id is answered as a duplicate, and
   the next decisions are acknowledged;
4. the all-bot room plays on (its version grows), and it was playing before the kill.

After the last restart a final kill checks the store once more.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
from pathlib import Path

import pytest

from ..killutil import (
    AFTER_RESTART,
    BOT_SEED,
    HUMAN_SEAT,
    HUMAN_SEED,
    KILLS,
    MAX_ACKS,
    MIN_ACKS,
    SEED,
    Player,
    Server,
    Tally,
    Watcher,
    check_store,
)

pytestmark = pytest.mark.timeout(180)


async def kill_and_restart(
    db_url: str, tmp: Path, procs: list[subprocess.Popen[bytes]], rng: random.Random
) -> Tally:
    tally = Tally()
    n_servers = 0

    def start() -> Server:
        nonlocal n_servers
        n_servers += 1
        return Server(db_url, tmp / f"server-{n_servers}.log", procs)

    server = start()
    human = server.create(bots=5, bot_delay_ms=0, timer_s=None, games=3, seed=HUMAN_SEED)
    bots = server.create(bots=6, bot_delay_ms=0, next_delay_ms=0, seed=BOT_SEED)
    watcher = Watcher()
    await watcher.open(server.ws_url, bots)
    player = Player("ann")
    await player.join(server.ws_url, human)
    await player.send(type="sit", seat=HUMAN_SEAT)
    await player.send(type="start")
    stored_bots = 0
    for round_ in range(KILLS + 1):
        # play to a random number of acknowledged decisions, then kill at a random moment:
        # with a decision in flight, or while the bots answer the last one
        if round_ == KILLS:  # the final kill only checks the store once more
            target = rng.randint(0, 4)
        else:
            target = rng.randint(MIN_ACKS, MAX_ACKS) - (AFTER_RESTART if round_ else 0)
        await player.play(target)
        in_flight = rng.random() < 0.5
        if in_flight:
            await player.send_act()
            await asyncio.sleep(rng.uniform(0, 0.004))
        else:
            await asyncio.sleep(rng.uniform(0, 0.02))
        seen = player.state["version"] if player.state is not None else -1
        server.kill()
        tally.kills += 1
        await player.drain()
        await watcher.close()

        # (1), (2): the store holds every acknowledged decision once, with no gap
        stored_human, stored = check_store(db_url, human, bots, player)
        assert stored > stored_bots, "the all-bot room did not play before the kill"
        stored_bots = stored
        tally.acks, tally.stored_human, tally.stored_bots = len(player.acked), stored_human, stored
        flight = "none"
        if in_flight:
            flight = "acked" if player.pending is None else "stored"
            if player.pending is not None and player.pending.version == stored_human:
                flight = "lost"
        tally.events.append(
            f"kill {tally.kills}: {len(player.acked)} acks, in flight {flight}, "
            f"human room seen v{seen} stored v{stored_human}, bot room stored v{stored}"
        )
        if round_ == KILLS:
            return tally

        # (2) the new server rebuilt both rooms at least to the stored versions
        server = start()
        rebuilt: dict[str, int] = {}
        for code, version in ((human, stored_human), (bots, stored_bots)):
            status, summary = server.get(f"/api/rooms/{code.lower()}")  # codes: any case
            assert status == 200, summary
            rebuilt[code] = summary["version"]
            assert rebuilt[code] >= version, f"room {code} rebuilt at v{rebuilt[code]} < v{version}"
        await watcher.open(server.ws_url, bots)

        # (3) the token gets the seat back; the state is consistent; play goes on
        st = await player.join(server.ws_url, human)
        last = max(s.version + 1 for s in player.acked.values())
        assert st["version"] >= max(last, stored_human), (st["version"], last, stored_human)
        room = st["room"]
        mine = room["seats"][HUMAN_SEAT]
        assert (mine["name"], mine["human"], mine["trust"]) == ("ann", True, False), mine
        assert room["status"] in ("playing", "between"), room["status"]
        if room["to_act"] == HUMAN_SEAT:
            assert st["view"]["legal_actions"], st["view"]
        if player.pending is not None:  # the decision in flight: applied once, whatever came
            sent = player.pending
            if sent.version == stored_human:  # it was not stored: the room waits for it (one
                # version later: the join gave the seat a new token, D91)
                assert st["version"] == sent.version + 1
                assert sent.action in st["view"]["legal_actions"]
            await player.send(type="act", id=sent.cid, action=sent.action)
            answer = await player.answer(sent.cid)
            stored_it = sent.version < stored_human
            assert answer == {"type": "ack", "id": sent.cid, "duplicate": stored_it}, (
                f"{sent} sent again (stored: {stored_it}): {answer}"
            )
        old = rng.choice(sorted(player.acked))
        await player.send(type="act", id=old, action=player.acked[old].action)
        answer = await player.answer(old)
        assert answer == {"type": "ack", "id": old, "duplicate": True}, (
            f"the rebuilt room does not remember the applied id {old}: {answer}"
        )
        await player.play(AFTER_RESTART)

        # (4) the all-bot room plays on
        await watcher.grows(rebuilt[bots])
    raise AssertionError("unreachable")


def test_kill_and_restart(db_url: str, tmp_path: Path) -> None:
    procs: list[subprocess.Popen[bytes]] = []
    rng = random.Random(f"{SEED}-{db_url.partition(':')[0]}")
    try:
        tally = asyncio.run(kill_and_restart(db_url, tmp_path, procs, rng))
    except BaseException:
        for log in sorted(tmp_path.glob("server-*.log")):  # shown with the failure
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}")
        raise
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    assert tally.kills == KILLS + 1
    assert tally.acks >= KILLS * MIN_ACKS
    print(f"\n{db_url.partition(':')[0]}: {tally.kills} kills, {tally.acks} acks checked")
    print("\n".join(tally.events))


def test_ctrl_c_stops_the_server_without_a_traceback(sqlite_url: str, tmp_path: Path) -> None:
    """Ctrl-C is how ``make serve`` is stopped: the rooms close, the process exits 0 and the
    terminal shows uvicorn's shutdown lines, not a Python traceback."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        server = Server(sqlite_url, tmp_path / "server-ctrl-c.log", procs)
        assert server.create(bots=6, seed=4) != ""
        server.proc.send_signal(signal.SIGINT)
        assert server.proc.wait(20) == 0, server.tail()
        assert "Traceback" not in server.tail(), server.tail()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
