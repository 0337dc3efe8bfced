"""``gouji serve --workers N``: a site of N server processes behind HAProxy on one address.

The workers share one PostgreSQL database (rooms, actions, leases: docs/scaling.md) and run
on loopback ports; HAProxy (Debian's ``haproxy``) listens on the public address, checks each
worker's ``/readyz`` every second, sends a request that names a worker (``?w=w2``: a redirect
or a ``moved`` message from a worker that does not serve the room) to that worker while it
is up, and any other request to the worker with the fewest connections. The supervisor
restarts a worker that dies; meanwhile the others take over its rooms when its leases lapse.
Ctrl-C (or SIGTERM) stops HAProxy and the workers cleanly (their leases are released).
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

RESTART_S = 1.0  # a dead worker is started again after this
READY_S = 60.0  # the longest wait for a worker's first /readyz


class SiteError(Exception):
    """The site cannot start (what to install or change is in the message)."""


@dataclass(frozen=True)
class Worker:
    name: str
    host: str
    port: int

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


def haproxy_config(workers: Sequence[Worker], bind: str) -> str:
    """HAProxy's configuration for ``workers`` behind ``bind`` (``HOST:PORT``, with HAProxy's
    TLS options where it ends TLS): requests with ``w=NAME`` go to that worker while it is up;
    others to the least loaded. Each carries ``X-Forwarded-For`` and, over TLS,
    ``X-Forwarded-Proto: https`` (gouji.server.plumbing.forwarded: what the workers believe)."""
    lines = [
        "# gouji: one address in front of the site's worker processes (docs/scaling.md).",
        "# Made by gouji.server.site.supervisor.haproxy_config; check with: haproxy -c -f FILE",
        "global",
        "    # maxconn follows the file descriptor limit (ulimit -n); raise both for big sites",
        "",
        "defaults",
        "    mode http",
        "    retries 2",
        "    option redispatch  # a worker that just died: try another (it redirects)",
        "    option forwardfor",
        "    timeout connect 5s",
        "    timeout client 75s",
        "    timeout server 75s",
        "    timeout tunnel 2h  # websockets: the client pings every 25 s",
        "    timeout http-request 10s",
        "",
        "frontend gouji",
        f"    bind {bind}",
        "    # the scheme the client used, for the workers' Secure cookies and https:// links:",
        "    # https where this proxy ends TLS (bind ... ssl crt ...); a client's own never passes",
        "    http-request set-header X-Forwarded-Proto https if { ssl_fc }",
        "    http-request del-header X-Forwarded-Proto if !{ ssl_fc }",
        "    default_backend workers",
        "",
        "backend workers",
        "    balance leastconn",
        "    option httpchk GET /readyz",
        "    http-check expect status 200",
    ]
    for w in workers:  # the owner, when a redirect or a `moved` named it (if it is up)
        lines.append(f"    use-server {w.name} if {{ url_param(w) -m str {w.name} }}")
    for w in workers:
        lines.append(f"    server {w.name} {w.address} check inter 1s fall 2 rise 1")
    return "\n".join(lines) + "\n"


class Supervisor:
    """The worker processes and the proxy of one ``gouji serve --workers N``."""

    def __init__(
        self,
        workers: int,
        host: str,
        port: int,
        db: str,
        extra: Sequence[str] = (),
        first_port: int | None = None,
    ) -> None:
        if not db.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
            raise SiteError(
                "several workers share one PostgreSQL database: give --db postgresql://… "
                "(SQLite is one process's file)"
            )
        proxy = shutil.which("haproxy") or (
            "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").is_file() else None
        )
        if proxy is None:
            raise SiteError("several workers need HAProxy in front: apt-get install haproxy")
        self.proxy_bin = proxy
        start = first_port if first_port is not None else port + 1
        self.workers = [Worker(f"w{i + 1}", "127.0.0.1", start + i) for i in range(workers)]
        self.bind = f"{host}:{port}"
        self.db = db
        self.extra = list(extra)
        self.dir = Path(tempfile.mkdtemp(prefix="gouji-site-"))
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.proxy: subprocess.Popen[bytes] | None = None
        self.stopping = False

    def _worker_cmd(self, w: Worker) -> list[str]:
        return [
            sys.executable,
            "-m",
            "gouji.cli",
            "serve",
            "--worker-id",
            w.name,
            "--host",
            w.host,
            "--port",
            str(w.port),
            "--db",
            self.db,
            *self.extra,
        ]

    def start_worker(self, w: Worker) -> None:
        self.procs[w.name] = subprocess.Popen(self._worker_cmd(w))

    def start(self) -> None:
        cfg = self.dir / "haproxy.cfg"
        cfg.write_text(haproxy_config(self.workers, self.bind))
        check = subprocess.run([self.proxy_bin, "-c", "-q", "-f", str(cfg)], capture_output=True)
        if check.returncode != 0:
            raise SiteError(f"HAProxy refused its configuration: {check.stderr.decode()[:500]}")
        for w in self.workers:
            self.start_worker(w)
        self.wait_ready()
        self.proxy = subprocess.Popen([self.proxy_bin, "-db", "-f", str(cfg)])
        host, _, port = self.bind.rpartition(":")
        self._wait_ready_at(
            f"{'127.0.0.1' if host in ('', '0.0.0.0') else host}:{port}", self.proxy
        )
        print(
            f"gouji: {len(self.workers)} workers "
            f"({', '.join(w.name + '=' + w.address for w in self.workers)}) "
            f"behind HAProxy on http://{self.bind}",
            file=sys.stderr,
            flush=True,
        )

    def wait_ready(self) -> None:
        """Until every worker answers ``/readyz`` (the proxy then starts with all of them up)."""
        for w in self.workers:
            self._wait_ready_at(w.address, self.procs[w.name], f"worker {w.name}")

    def _wait_ready_at(
        self, address: str, proc: subprocess.Popen[bytes], what: str = "HAProxy"
    ) -> None:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        end = time.monotonic() + READY_S
        while not self.stopping:
            if proc.poll() is not None:
                raise SiteError(f"{what} exited at start: see its messages above")
            url = f"http://{address}/readyz"
            with contextlib.suppress(OSError), opener.open(url, timeout=2) as r:
                if r.status == 200:
                    return
            if time.monotonic() > end:
                raise SiteError(f"{what} was not ready in {READY_S:g} s")
            time.sleep(0.1)

    def watch(self) -> int:
        """Restart dead workers until stopped; the exit status."""
        while not self.stopping:
            time.sleep(0.2)
            if self.proxy is not None and self.proxy.poll() is not None:
                print(f"gouji: HAProxy exited ({self.proxy.returncode})", file=sys.stderr)
                return 1
            for w in self.workers:
                p = self.procs[w.name]
                if p.poll() is not None and not self.stopping:
                    print(
                        f"gouji: worker {w.name} exited ({p.returncode}); restarting it",
                        file=sys.stderr,
                        flush=True,
                    )
                    time.sleep(RESTART_S)
                    if not self.stopping:
                        self.start_worker(w)
        return 0

    def stop(self, *_: object) -> None:
        self.stopping = True

    def shutdown(self) -> None:
        """SIGTERM everything (workers release their leases), then wait; kill stragglers."""
        procs = [p for p in self.procs.values() if p.poll() is None]
        if self.proxy is not None and self.proxy.poll() is None:
            procs.append(self.proxy)
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                p.send_signal(signal.SIGTERM)
        end = time.monotonic() + 15
        for p in procs:
            try:
                p.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def run_site(site: Supervisor) -> int:
    """Start the site and supervise it until Ctrl-C or SIGTERM."""

    def on_signal(signum: int, frame: FrameType | None) -> None:
        site.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        site.start()
        return site.watch()
    finally:
        site.shutdown()
