"""Fixtures of the server tests: SQLite files and a throwaway PostgreSQL cluster."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

START = ["-w", "start"]
INITDB_OPTS = ["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]


def _pg_bindir() -> Path | None:
    root = Path("/usr/lib/postgresql")
    if root.is_dir():
        for version in sorted(root.iterdir(), key=lambda p: p.name, reverse=True):
            if (version / "bin" / "initdb").is_file() and (version / "bin" / "pg_ctl").is_file():
                return version / "bin"
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL cluster on 127.0.0.1 for this test session: its base URL."""
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    base = Path(tempfile.mkdtemp(prefix="gouji-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the cluster as `postgres`
        shutil.chown(base, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, sock, logfile = base / "data", base / "sock", base / "log"
    subprocess.run([*as_user, "mkdir", str(sock)], check=True)
    subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(data), *INITDB_OPTS],
        check=True,
        capture_output=True,
    )
    port = _free_port()
    opts = f"-h 127.0.0.1 -p {port} -k {sock} -F"
    subprocess.run(
        [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(logfile), "-o", opts, *START],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A fresh database in the session's cluster."""
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
