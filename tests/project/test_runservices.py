"""The services shared by a whole test run (tests/runservices.py): started once however many
processes ask at the same time, stopped when the last xdist worker finishes, and never left
running by a run that dies (its reaper stops them).

A "service" here is a ``sleep`` in a session of its own, stopped by ``kill -9``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import runservices

pytestmark = pytest.mark.timeout(60)

HERE = Path(__file__).resolve().parents[1]  # tests/, where runservices.py lives


@pytest.fixture
def sleepers() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes a test starts: none outlives it."""
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait(10)


def sleeper(procs: list[subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    p = subprocess.Popen(["sleep", "300"], start_new_session=True)
    procs.append(p)
    return p


def service_of(proc: subprocess.Popen[bytes], folder: Path) -> runservices.Service:
    folder.mkdir()
    return {
        "pid": proc.pid,
        "stop": ["kill", "-9", str(proc.pid)],
        "remove": [str(folder)],
        "info": {"url": f"sleep://{proc.pid}"},
    }


def gone(pid: int, seconds: float = 10.0) -> bool:
    return runservices._wait_gone(pid, seconds)


START_ONCE = """
import json, subprocess, sys, time
from pathlib import Path
import runservices
root = Path(sys.argv[1])

def start():
    with (root / "starts").open("a") as f:
        f.write("start\\n")
    time.sleep(0.3)  # the others ask meanwhile
    p = subprocess.Popen(["sleep", "300"], start_new_session=True)
    return {"pid": p.pid, "stop": ["kill", "-9", str(p.pid)], "remove": [], "info": {}}

print(json.dumps(runservices.shared("sleeper", root, start)))
"""


def test_processes_asking_at_once_share_one_start(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env["PYTHONPATH"] = str(HERE)
    askers = [
        subprocess.Popen(
            [sys.executable, "-c", START_ONCE, str(tmp_path)], env=env, stdout=subprocess.PIPE
        )
        for _ in range(4)
    ]
    answers = [json.loads(p.communicate(timeout=30)[0]) for p in askers]
    pid = answers[0]["pid"]
    try:
        assert all(a == answers[0] for a in answers), answers
        assert (tmp_path / "starts").read_text() == "start\n"
        assert json.loads((tmp_path / "sleeper.service.json").read_text()) == answers[0]
        # the askers have exited: their reaper stopped the service
        assert gone(pid)
    finally:
        runservices.stop(answers[0])


def test_the_last_worker_to_finish_stops_the_services(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    proc = sleeper(sleepers)
    service = runservices.shared("sleeper", tmp_path, lambda: service_of(proc, tmp_path / "data"))
    assert runservices.shared("sleeper", tmp_path, lambda: pytest.fail("started twice")) == service
    runservices.finished(tmp_path, "gw0", 3)
    runservices.finished(tmp_path, "gw0", 3)  # a worker counts once
    runservices.finished(tmp_path, "gw2", 3)
    assert proc.poll() is None and (tmp_path / "data").is_dir()
    runservices.finished(tmp_path, "gw1", 3)
    assert proc.wait(10) == -9
    assert not (tmp_path / "data").exists()
    assert not list(tmp_path.glob(runservices.STATE))


def test_a_run_that_dies_leaves_nothing_running(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    """The run's main process killed (kill -9, a crash): its reaper stops the service."""
    run, proc = sleeper(sleepers), sleeper(sleepers)
    reaper = runservices.spawn_reaper(service_of(proc, tmp_path / "data"), run.pid)
    assert not gone(reaper, 0.2) and proc.poll() is None
    run.kill()
    assert proc.wait(10) == -9
    assert gone(reaper)
    assert not (tmp_path / "data").exists()


def test_a_reaper_leaves_when_its_service_stops_first(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    run, proc = sleeper(sleepers), sleeper(sleepers)
    reaper = runservices.spawn_reaper(service_of(proc, tmp_path / "data"), run.pid)
    proc.kill()
    assert gone(reaper)
    assert run.poll() is None
    assert (tmp_path / "data").is_dir()  # the clean stop's to delete, not the reaper's
