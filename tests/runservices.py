"""Services started once per test run and shared by every pytest-xdist worker (the server
tests' PostgreSQL cluster, test_ray's Ray head): a ``scope="session"`` fixture runs once per
*worker*, and each start costs seconds of CPU.

The first process that asks starts the service, holding a lock in the run's base temp dir
(the pattern pytest-xdist documents for "session-scoped fixtures once"), and writes its state
there; the others read it. ``finish`` (pytest_sessionfinish of tests/server/conftest.py)
stops every service of the run when the last xdist worker ends its session (or, without
xdist, when the one process does). A run that never gets there (killed, crashed, a Ctrl-C
that tore the workers down, a run without tests/server) is covered by a *reaper*: a
detached process per service that waits for the run's main process (the xdist controller,
or pytest itself) to exit and then stops the service; it leaves by itself when the service
stops first. Run as a script, this module is that reaper (the standard library only).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    import pytest

LOCK = "services.lock"
FINISHED = "finished-workers"  # the xdist workers whose session ended, one id a line
STATE = "*.service.json"

_roots: set[Path] = set()  # where this process started or found a service


class Service(TypedDict):
    """A started service, as its state file keeps it."""

    pid: int  # the process whose exit means the service is gone
    stop: list[str]  # the command that stops it
    remove: list[str]  # directories to delete once it is stopped
    info: dict[str, str]  # what the tests need of it (a URL, an address)


def run_dir(factory: pytest.TempPathFactory) -> Path:
    """The directory every process of this run shares: under xdist, the parent of the
    workers' base temp dirs (the controller's); without, this process's base temp dir."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _run_pid() -> int:
    """The run's main process: the xdist controller (every worker's parent) or pytest."""
    return os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    """The run's lock (flock: released by the kernel if its holder dies)."""
    with (root / LOCK).open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def shared(name: str, root: Path, start: Callable[[], Service]) -> Service:
    """The ``name`` service of the run whose directory is ``root``: started by ``start`` in
    the first process that asks (a reaper then watches over it), read by the others."""
    state = root / f"{name}.service.json"
    with _locked(root):
        _roots.add(root)
        if state.is_file():
            found: Service = json.loads(state.read_text())
            return found
        service = start()
        try:
            spawn_reaper(service, _run_pid())
        except BaseException:
            stop(service)
            raise
        state.write_text(json.dumps(service))
        return service


def finish(config: pytest.Config) -> None:
    """At the end of a session: an xdist worker says that it finished (the last one stops
    the run's services); without xdist all tests have run."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:  # one process: the services it started
        for root in _roots:
            finished(root)
    else:  # every worker counts, whether it used a service or not
        factory: pytest.TempPathFactory = config._tmp_path_factory  # type: ignore[attr-defined]
        workers = int(workerinput["workercount"])
        finished(run_dir(factory), str(workerinput["workerid"]), workers)


def finished(root: Path, worker: str | None = None, workers: int = 1) -> None:
    """``worker`` (of ``workers``; None: the only process) is done with the run's services
    in ``root``: once every worker is, stop them all."""
    with _locked(root):
        if worker is not None:
            done = root / FINISHED
            with done.open("a") as f:
                f.write(f"{worker}\n")
            if len(set(done.read_text().split())) < workers:
                return
        for state in sorted(root.glob(STATE)):
            stop(json.loads(state.read_text()))
            state.unlink()


def stop(service: Service) -> None:
    """Stop the service and delete its directories: nothing left running, nothing left."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(service["stop"], capture_output=True, timeout=60)
    _wait_gone(service["pid"], 30.0)
    for path in service["remove"]:
        shutil.rmtree(path, ignore_errors=True)


def spawn_reaper(service: Service, run_pid: int) -> int:
    """Start this file as the reaper of ``service`` for the run ``run_pid``, detached (it
    forks away at once: nothing to wait for, no child left here); its process id."""
    cmd = [sys.executable, __file__, str(run_pid), json.dumps(service)]
    null = subprocess.DEVNULL
    out = subprocess.run(cmd, check=True, stdin=null, capture_output=True, timeout=30).stdout
    return int(out)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's: it exists
        return True
    return True


def _wait_gone(pid: int, seconds: float) -> bool:
    """Wait at most ``seconds`` until ``pid`` has exited: whether it has."""
    end = time.monotonic() + seconds
    while _alive(pid) and not _is_zombie(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _is_zombie(pid: int) -> bool:
    """Exited but not reaped yet (its parent, or init, will): as good as gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] == "Z"


def _reap(run_pid: int, service: Service) -> None:
    """The reaper: stop the service once the run's main process is gone; leave as soon as
    the service stops by itself."""
    child = os.fork()
    if child:  # the starter waits for this one only
        print(child, flush=True)
        os._exit(0)
    os.setsid()  # out of the run's process group: a Ctrl-C of the run does not stop it here
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # let go of the starter's pipes
        os.dup2(null, fd)
    try:
        fds = [os.pidfd_open(run_pid), os.pidfd_open(service["pid"])]
    except ProcessLookupError:  # the run (or the service) is already gone
        stop(service)
        return
    except OSError:  # no pidfd (Linux before 5.3): poll
        while _alive(run_pid):
            if _wait_gone(service["pid"], 0.5):
                return
        stop(service)
        return
    ready, _, _ = select.select(fds, [], [])
    if fds[1] not in ready:
        stop(service)


if __name__ == "__main__":
    _reap(int(sys.argv[1]), json.loads(sys.argv[2]))
