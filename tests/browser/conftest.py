"""Fixtures of the browser tests: one live server per module, one Chromium per worker (see
``webutil.WorkerChromium``) whose contexts are kept warm between tests (``webutil.ContextPool``),
a set of pages per test (JS errors fail it), and where screenshots go. ``webutil`` is imported
lazily: it skips the importing module where Chromium or Playwright is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .webutil import Browser, LiveServer, Pages, WorkerChromium


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from .webutil import LiveServer

    server = LiveServer(tmp_path_factory.mktemp("server") / "gouji.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def worker_chromium() -> Iterator[WorkerChromium]:
    from .webutil import WorkerChromium

    chromium = WorkerChromium()
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def browser(worker_chromium: WorkerChromium) -> Iterator[Browser]:
    """The worker's Chromium, for as long as this module's tests run (see WorkerChromium)."""
    yield worker_chromium.use()
    worker_chromium.rest()


@pytest.fixture
def pages(browser: Browser, worker_chromium: WorkerChromium) -> Iterator[Pages]:
    from .webutil import Pages

    p = Pages(browser, worker_chromium.contexts)
    yield p
    p.close()
    assert not p.errors, "errors in the page: " + "; ".join(p.errors)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $GOUJI_SCREENSHOTS if set (to look at them); unset, none are
    taken (webutil.picture) and this is a tmp dir."""
    where = os.environ.get("GOUJI_SCREENSHOTS")
    path = Path(where) if where else tmp_path / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
