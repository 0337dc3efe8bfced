"""Fixtures of the server tests: SQLite files, and for each test a fresh database in the
throwaway PostgreSQL cluster that the whole test run shares (tests/runservices.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

import runservices
from support import free_port

START = ["-w", "start"]
INITDB_OPTS = ["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]
#: Every xdist worker's tests (and their server processes' pools) share the one cluster.
MAX_CONNECTIONS = 400


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The last xdist worker to finish (or the one process without xdist) stops the run's
    shared services."""
    runservices.finish(session.config)


def _pg_bindir() -> Path | None:
    root = Path("/usr/lib/postgresql")
    if root.is_dir():
        for version in sorted(root.iterdir(), key=lambda p: p.name, reverse=True):
            if (version / "bin" / "initdb").is_file() and (version / "bin" / "pg_ctl").is_file():
                return version / "bin"
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


def _start_cluster(bindir: Path) -> runservices.Service:
    """initdb and start a cluster on a free loopback port (as ``postgres`` when root: initdb
    refuses root), fsync off: a test's database is thrown away with it."""
    base = Path(tempfile.mkdtemp(prefix="gouji-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, sock, logfile = base / "data", base / "sock", base / "log"
    try:
        subprocess.run([*as_user, "mkdir", str(sock)], check=True)
        subprocess.run(
            [*as_user, str(bindir / "initdb"), "-D", str(data), *INITDB_OPTS],
            check=True,
            capture_output=True,
        )
        port = free_port()
        opts = f"-h 127.0.0.1 -p {port} -k {sock} -F -c max_connections={MAX_CONNECTIONS}"
        pg_ctl = [*as_user, str(bindir / "pg_ctl"), "-D", str(data)]
        subprocess.run(
            [*pg_ctl, "-l", str(logfile), "-o", opts, *START], check=True, capture_output=True
        )
        pid = int((data / "postmaster.pid").read_text().split()[0])
    except BaseException:
        shutil.rmtree(base, ignore_errors=True)
        raise
    return {
        "pid": pid,
        "stop": [*pg_ctl, "-m", "immediate", "-w", "stop"],
        "remove": [str(base)],
        "info": {"url": f"postgresql://postgres@127.0.0.1:{port}"},
    }


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The test run's PostgreSQL cluster on 127.0.0.1, one for every xdist worker (started by
    the first test that needs it, stopped at the end of the run): its base URL."""
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    root = runservices.run_dir(tmp_path_factory)
    cluster = runservices.shared("postgresql", root, lambda: _start_cluster(bindir))
    return cluster["info"]["url"]


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A fresh, empty database of this test's own in the run's cluster."""
    import psycopg

    name = "gouji_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_server + "/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{pg_server}/{name}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'gouji.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each persistence test runs on SQLite and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "pg_url"
    url: str = request.getfixturevalue(name)
    return url
