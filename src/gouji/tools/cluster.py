"""Where independent pieces of work run: this process, a pool of processes (``--jobs``) or a
Ray cluster (``--ray``), behind one small interface (issue 12, bots at scale).

The arena's deals and a tournament's tables are independent and seeded, so a result does not
depend on where a piece ran; ``Pool`` lets their callers submit work and collect results in
one way for the three cases. Ray is an optional extra (``pip install 'gouji[cluster]'``) and
is imported only when asked for: playing and serving never need it.

A Ray cluster runs the same code, so every node needs this version of gouji installed (Ray
ships the work as pickled calls of ``gouji`` functions, not the package itself).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")
R = TypeVar("R")

#: What to do when Ray is asked for and not installed.
RAY_MISSING = "--ray needs Ray: pip install 'gouji[cluster]' (make test installs it)"

#: Ray replaces a loopback node address with the machine's routable one unless this is off;
#: ``loopback_head`` turns it off so a throwaway cluster listens on 127.0.0.1 only.
LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster cannot be reached: the message says which."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a ClusterError that says what to install."""
    try:
        import ray
    except ImportError as e:
        raise ClusterError(RAY_MISSING) from e
    module: ModuleType = ray  # Any to mypy (pyproject: follow_imports = "skip")
    return module


def _call(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Ray's task body: one remote function runs any picklable call, so plain functions and
    ``functools.partial`` objects need no ``@ray.remote`` of their own."""
    return fn(*args, **kwargs)


def _probe(address: str) -> None:
    """Fail in a second, not after Ray's minutes of retries, when nothing listens at a
    ``host:port`` address (``auto``, ``local`` and ``ray://`` addresses are Ray's to resolve)."""
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=3).close()
    except OSError as e:
        raise ClusterError(f"no Ray cluster at {address}: {e}") from e


class RayExecutor(Executor):
    """Ray tasks behind ``concurrent.futures.Executor``, so code written for a process pool
    (``submit``/``map``/``as_completed``) runs on a cluster unchanged.

    ``address`` as ``ray.init``: None finds a running cluster (RAY_ADDRESS, or the latest
    ``ray start`` on this machine) or starts a local one; ``host:port``, ``auto``, ``ray://…``
    connect. A Ray already initialized by the caller is used as it is and left running.
    """

    def __init__(self, address: str | None = None) -> None:
        ray = import_ray()
        self._ray = ray
        self._owner = not ray.is_initialized()
        if self._owner:
            if address is not None:
                _probe(address)
            try:
                ray.init(address=address, logging_level="warning", include_dashboard=False)
            except Exception as e:  # ConnectionError, a version mismatch, …: say where
                where = address or "auto/local"
                raise ClusterError(f"cannot connect to the Ray cluster at {where}: {e}") from e
        self._task = ray.remote(_call)
        self._pending: list[Any] = []
        #: The GCS address of the cluster, as a run records it.
        self.address: str = str(ray.get_runtime_context().gcs_address)
        #: CPUs in the cluster now: how many tasks run at once.
        self.workers: int = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; its future resolves with the result (a
        task that raises re-raises here, as a RayTaskError that is also the original type)."""
        ref = self._task.remote(fn, *args, **kwargs)
        self._pending.append(ref)
        future: Future[T] = ref.future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Disconnect (a cluster this executor started stops with it); ``cancel_futures``
        cancels the tasks not finished yet."""
        if cancel_futures:
            for ref in self._pending:
                self._ray.cancel(ref)
        self._pending.clear()
        if self._owner and self._ray.is_initialized():
            self._ray.shutdown()


class Pool:
    """This process (``jobs`` 1), ``jobs`` processes, or a Ray cluster (``ray``: True for
    ``ray.init()``'s own choice, a string for an address); use it as a context manager.

    ``workers`` is how many pieces run at once (for sizing chunks); ``ray_address`` is the
    cluster's address, or None off Ray.
    """

    def __init__(self, jobs: int = 1, ray: str | bool = False) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        if ray is not False and jobs != 1:
            raise ValueError("jobs and ray: one or the other (Ray uses every CPU it has)")
        self._executor: Executor | None = None
        self.workers = jobs
        self.ray_address: str | None = None
        if ray is not False:
            ex = RayExecutor(None if ray is True else ray)
            self._executor, self.workers, self.ray_address = ex, ex.workers, ex.address
        elif jobs > 1:
            self._executor = ProcessPoolExecutor(max_workers=jobs)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn`` of every item, results in the items' order."""
        if self._executor is None:
            return map(fn, items)
        return self._executor.map(fn, items)

    def unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn`` of every item, each result as soon as it is ready (in this process: one at
        a time, in order, as the caller asks)."""
        if self._executor is None:
            yield from map(fn, items)
            return
        futures = [self._executor.submit(fn, item) for item in items]
        for future in as_completed(futures):
            yield future.result()

    def close(self, cancel: bool = False) -> None:
        """Stop the processes, or leave the cluster; ``cancel`` drops work not started."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=cancel)
            self._executor = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close(cancel=exc_type is not None)


def chunk_size(items: int, workers: int) -> int:
    """Items a piece of work: about eight pieces a worker (so a slow piece does not leave the
    others idle at the end), at most 16 items (so progress moves), one when there is one worker
    (nothing to balance)."""
    if workers <= 1:
        return 1
    return max(1, min(16, items // (workers * 8)))


def chunks(items: list[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter)."""
    return [items[i : i + size] for i in range(0, len(items), size)]


# ---------------------------------------------------------------- a throwaway local cluster


def _free_port() -> int:
    """A port nothing listens on now (the OS's pick)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def loopback_head(num_cpus: int = 2, temp_dir: str | Path | None = None) -> Iterator[str]:
    """A single-node Ray cluster on 127.0.0.1 for tests and benchmarks; yields its address.

    It runs as ``ray start --head --block`` in a process group of its own and is stopped by
    signalling that group, never with ``ray stop`` (which stops every Ray of the machine).
    It takes a token of its own (an earlier ``ray.init()`` may have left ``~/.ray/auth_token``,
    which would turn a plain ``ray start`` to token mode with a token the caller lacks).
    Ray reads its settings from the environment, some when it is imported, so this sets them
    in ``os.environ`` for this process and its children and leaves them there; a Ray imported
    before without them could not reach the cluster, which is a RuntimeError.
    """
    settings = {
        LOOPBACK_ENV: "0",
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": os.environ.get("RAY_AUTH_TOKEN") or secrets.token_hex(32),
    }
    if "ray" in sys.modules and any(os.environ.get(k) != v for k, v in settings.items()):
        raise RuntimeError("ray was imported before loopback_head set its environment")
    os.environ.update(settings)
    exe = Path(sys.executable).with_name("ray")
    if not exe.exists():
        found = shutil.which("ray")
        if found is None:
            raise ClusterError(RAY_MISSING)
        exe = Path(found)
    port = _free_port()
    # Ray's unix sockets live under the temp dir and their paths are limited to ~107 bytes
    tmp = (
        Path(temp_dir) if temp_dir is not None else Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    )
    tmp.mkdir(parents=True, exist_ok=True)
    log = tmp / "ray-start.log"
    cmd = [
        str(exe), "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
        f"--num-cpus={num_cpus}", "--include-dashboard=false", "--disable-usage-stats",
        "--object-store-memory=100000000", f"--temp-dir={tmp}",
    ]  # fmt: skip
    with log.open("w") as out:
        proc = subprocess.Popen(
            cmd,
            env=os.environ.copy(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_started(proc, log)
        yield f"127.0.0.1:{port}"
    finally:
        _stop_group(proc)
        if temp_dir is None:
            shutil.rmtree(tmp, ignore_errors=True)


def _wait_started(proc: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> None:
    """Until ``ray start`` says the runtime started; its output in the error if it dies or
    takes over ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if "Ray runtime started" in text:
            return
        if proc.poll() is not None:
            raise ClusterError(f"ray start exited with {proc.returncode}:\n{text[-2000:]}")
        time.sleep(0.2)
    raise ClusterError(f"ray start did not start in {timeout:.0f} s:\n{text[-2000:]}")


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the head's process group (a SIGTERM'd head takes over ten seconds to go, and
    there is nothing of a throwaway cluster to save); its workers die with their raylet."""
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
