"""The replay and analysis workers die with their server (issue 39; gouji.tools.lifeline).

A real ``gouji serve`` subprocess plays a short game of bots to its end; the game's replay and
its analysis (复盘) are asked for, so that both worker pools and the resource tracker of
multiprocessing start, and the analysis is still being judged when the server gets SIGKILL.
Within a few seconds no process of its tree may be left: neither one it had started (its
children and theirs, read from ``/proc`` before the kill) nor any that carries the environment
variable this test gave the server (what a process started by its children would carry too).
Before the change the analysis worker and the resource tracker slept on, adopted by init.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from support import SHORT_GAME

from ..killutil import Server, http

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

MARK = "GOUJI_TEST_TREE"  # the environment variable that marks the server's tree
GONE_S = 5.0  # how long the tree may take to go after the kill
OVER_S = 60.0  # the longest wait for the bots' game to end


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent id, state, start time) of a live process; None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (name) "
    return int(fields[1]), fields[0], fields[19]


def _pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def _descendants(root: int) -> dict[int, str]:
    """The live descendants of ``root``: their ids and start times (a reused id is not them)."""
    found: dict[int, str] = {}
    parents = {root}
    grew = True
    while grew:
        grew = False
        for pid in _pids():
            st = _stat(pid)
            if st is not None and st[0] in parents and pid not in found and st[1] != "Z":
                found[pid], grew = st[2], True
                parents.add(pid)
    return found


def _marked(mark: str) -> list[int]:
    """The live processes whose environment holds ``MARK=mark``."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for pid in _pids():
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        st = _stat(pid)
        if needle in env.split(b"\0") and st is not None and st[1] != "Z":
            found.append(pid)
    return found


def _left(started: dict[int, str], mark: str) -> list[str]:
    """What of the server's tree still lives, described."""
    alive = set(_marked(mark))
    for pid, start in started.items():
        st = _stat(pid)
        if st is not None and st[1] != "Z" and st[2] == start:
            alive.add(pid)
    return [f"{pid}: {_cmdline(pid)}" for pid in sorted(alive)]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200]
    except OSError:
        return "(gone)"


def test_kill_9_of_the_server_takes_its_workers_and_the_resource_tracker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    procs: list[subprocess.Popen[bytes]] = []
    started: dict[int, str] = {}
    try:
        server = Server(f"sqlite:///{tmp_path / 'app.db'}", tmp_path / "server.log", procs)
        code = server.create(**SHORT_GAME)
        end = time.monotonic() + OVER_S
        while server.get(f"/api/rooms/{code}")[1]["status"] != "over":
            assert time.monotonic() < end, "the bots' game did not end"
            time.sleep(0.05)
        status, _ = server.get(f"/api/rooms/{code}/games/0/replay")
        assert status == 200
        status, answer = http("POST", f"{server.base}/api/rooms/{code}/games/0/analysis")
        assert status == 202 and answer["state"] == "running", answer
        # both pools' workers and the resource tracker: at least three processes
        end = time.monotonic() + OVER_S
        while len(started := _descendants(server.proc.pid)) < 3:
            assert time.monotonic() < end, f"the workers did not start: {started}"
            time.sleep(0.05)
        assert set(_marked(mark)) >= set(started), "the marker did not reach the workers"
        server.kill()
        end = time.monotonic() + GONE_S
        while left := _left(started, mark):
            assert time.monotonic() < end, f"alive {GONE_S} s after the server's kill: {left}"
            time.sleep(0.05)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        for pid in _marked(mark):  # what a failed run left: not for the next tests
            os.kill(pid, signal.SIGKILL)
