"""The helpers of the site tests (tests/server/site/): real server processes in a log file
each, a site of two workers behind HAProxy on one database (as ``gouji serve --workers 2``
starts it, minus the restarts), the worker holding a room's lease, and the logs shown with a
failure. test_site_kill.py kills a worker of it, test_site_browser.py plays on it in Chromium,
test_site_leases.py reads its leases."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gouji.server.site.store import Store
from gouji.server.site.supervisor import Worker, haproxy_config
from support import free_port

from .killutil import BAD_LOG, LIMITS, http


class Proc:
    """A subprocess with its output in a log file."""

    def __init__(self, cmd: list[str], log: Path) -> None:
        self.log = log
        with log.open("wb") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-20000:]

    def errors(self) -> list[str]:
        return [line for line in self.tail().splitlines() if BAD_LOG.search(line)]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def wait_ready(url: str, proc: Proc, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while True:
        assert proc.proc.poll() is None, f"{proc.log.name} exited:\n{proc.tail()}"
        with contextlib.suppress(OSError):
            if http("GET", url)[0] == 200:
                return
        assert time.monotonic() < end, f"{url} never answered:\n{proc.tail()}"
        time.sleep(0.05)


class SiteUnderTest:
    """Two workers and HAProxy, started by the test."""

    def __init__(self, db_url: str, tmp: Path) -> None:
        self.workers = [Worker(f"w{i}", "127.0.0.1", free_port()) for i in (1, 2)]
        self.procs: dict[str, Proc] = {}
        for w in self.workers:
            cmd = [sys.executable, "-m", "gouji.cli", "serve", "--worker-id", w.name]
            cmd += ["--host", w.host, "--port", str(w.port), "--db", db_url]
            cmd += ["--log-level", "warning", "--log-format", "json", *LIMITS]
            self.procs[w.name] = Proc(cmd, tmp / f"{w.name}.log")
        self.proxy: Proc | None = None
        try:
            for w in self.workers:
                wait_ready(f"http://{w.address}/readyz", self.procs[w.name])
            port = free_port()
            cfg = tmp / "haproxy.cfg"
            cfg.write_text(haproxy_config(self.workers, f"127.0.0.1:{port}"))
            haproxy = shutil.which("haproxy")
            assert haproxy is not None
            self.proxy = Proc([haproxy, "-db", "-f", str(cfg)], tmp / "haproxy.log")
            self.base = f"http://127.0.0.1:{port}"
            self.ws = f"ws://127.0.0.1:{port}/ws"
            wait_ready(self.base + "/readyz", self.proxy)
        except BaseException:  # nothing outlives a failed start
            self.stop()
            raise

    def create(self, **body: Any) -> str:
        status, answer = http("POST", self.base + "/api/rooms", body)
        assert status == 201, answer
        return str(answer["code"])

    def version(self, code: str) -> int:
        """The room's version through the proxy (redirects followed; 503 while it moves)."""
        status, summary = http("GET", f"{self.base}/api/rooms/{code}")
        return int(summary["version"]) if status == 200 else -1

    def stop(self) -> None:
        for p in [*self.procs.values(), self.proxy]:
            if p is not None:
                p.stop()


def owner_of(db_url: str, home: str) -> str:
    """The worker holding ``home``'s lease now."""
    with Store(db_url) as store:
        lease = store.lease(home)
    assert lease is not None
    return lease[0]


def print_logs(folder: Path) -> None:
    """The processes' logs, shown with a failure."""
    for log in sorted(folder.glob("*.log")):
        print(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}")
