"""Fixtures of the browser tests: one live server and one Chromium per module, a set of pages
per test (JS errors fail it), and where screenshots go. ``webutil`` is imported lazily: it skips
the importing module where Chromium or Playwright is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .webutil import Browser, LiveServer, Pages


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from .webutil import LiveServer

    server = LiveServer(tmp_path_factory.mktemp("server") / "gouji.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from .webutil import CHROMIUM, CHROMIUM_ARGS, sync_playwright

    assert CHROMIUM is not None
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    from .webutil import Pages

    p = Pages(browser)
    yield p
    p.close()
    assert not p.errors, "errors in the page: " + "; ".join(p.errors)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $GOUJI_SCREENSHOTS if set (to look at them), else a tmp dir."""
    where = os.environ.get("GOUJI_SCREENSHOTS")
    path = Path(where) if where else tmp_path / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
