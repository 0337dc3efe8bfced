"""Helpers of the browser tests: the real server in-process and Debian's Chromium driven by
Playwright. Importing this skips the importing test module where Chromium or Playwright is
missing (CI installs Chromium)."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip(
        "browser tests need Debian's Chromium on PATH (apt-get install chromium)",
        allow_module_level=True,
    )
pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("uvicorn", reason="browser tests need the server's dependencies")

import uvicorn  # noqa: E402
from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)

from gouji.server import create_app  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """The gouji server on a loopback port, in a background thread."""

    def __init__(self, db: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(f"sqlite:///{db}")
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="gouji-server", daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the gouji server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def create_room(self, **body: Any) -> str:
        """POST /api/rooms; returns the room code."""
        req = urllib.request.Request(
            self.url + "/api/rooms",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            code: str = json.load(r)["code"]
        return code

    def get_json(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.load(r)


def _set_once(key: str, value: str) -> str:
    k, v = json.dumps(key), json.dumps(value)
    return f"if (!localStorage.getItem({k})) localStorage.setItem({k}, {v});"


class Pages:
    """Browser contexts of one test (one per player), closed at its end; JS errors fail it."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def new(self, name: str | None, viewport: ViewportSize = DESKTOP) -> Page:
        ctx = self.browser.new_context(viewport=viewport, locale="en-US")
        # English unless the page switched; the name as the lobby would have stored it
        script = _set_once("gouji.lang", "en")
        if name is not None:
            script += _set_once("gouji.name", name)
        ctx.add_init_script(script)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{name}: {e}"))
        page.on(
            "console",
            lambda m: self.errors.append(f"{name}: {m.text}") if m.type == "error" else None,
        )
        page.set_default_timeout(10_000)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DESKTOP",
    "PHONE",
    "Browser",
    "LiveServer",
    "Page",
    "Pages",
    "expect",
    "sync_playwright",
]
