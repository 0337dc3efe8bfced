"""The real table page on a two-worker site behind HAProxy (PostgreSQL): it reaches the room's
worker by itself (``moved`` → ``/ws?w=…``), and when that worker is killed mid-game it
reconnects by itself, gets its seat back at the worker that took the room over, and the game
goes on — the player asks for the hint (H) and plays it from the keyboard."""

from __future__ import annotations

import json
import shutil
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ..siteutil import SiteUnderTest, owner_of, print_logs

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="HAProxy is not installed"),
]

_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # follows 307s


class ViaProxy:
    """The site as the pages see it: one address."""

    def __init__(self, url: str) -> None:
        self.url = url

    def get_json(self, path: str) -> Any:
        with _HTTP.open(self.url + path, timeout=10) as r:
            return json.load(r)


def test_the_table_page_follows_its_room_across_a_worker_kill(pg_url: str, tmp_path: Path) -> None:
    from browser.webutil import (  # skips this test where Chromium or Playwright is missing
        CHROMIUM,
        CHROMIUM_ARGS,
        Pages,
        expect,
        start_seated,
        state,
        sync_playwright,
        wait_js,
    )

    site = SiteUnderTest(pg_url, tmp_path)
    try:
        code = site.create(bots=5, bot_delay_ms=250, timer_s=None, seed=11)
        proxy = ViaProxy(site.base)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            pages = Pages(browser)
            try:
                page = start_seated(pages, proxy, code, "小明", lang="zh")
                seat = state(page, "seat")
                dead = owner_of(pg_url, code)
                assert state(page, "worker") in (None, dead)  # told where the room is
                before = int(state(page, "version"))
                site.procs[dead].proc.send_signal(signal.SIGKILL)
                site.procs[dead].proc.wait(10)
                killed = time.monotonic()
                # the page notices, reconnects by itself and resyncs at the heir
                wait_js(
                    page,
                    "!document.querySelector('#conn').classList.contains('ok')",
                    timeout=10_000,
                )
                expect(page.locator("#conn.ok")).to_be_visible(timeout=30_000)
                back = time.monotonic() - killed
                heir = owner_of(pg_url, code)
                assert heir != dead
                assert state(page, "seat") == seat
                assert int(state(page, "version")) >= before
                expect(page.locator("#hand .card").first).to_be_visible()
                page.screenshot(path=str(tmp_path / "after-takeover.png"))
                # the game goes on: the player's next decision, by the keyboard
                wait_js(
                    page,
                    "window.gouji.state.view && window.gouji.state.view.to_act"
                    " === window.gouji.state.seat && !window.gouji.state.busy",
                    timeout=30_000,
                )
                at = int(state(page, "version"))
                page.keyboard.press("h")
                wait_js(page, "window.gouji.state.hint !== null")
                hint: str = state(page, "hint")
                if hint.startswith("play "):
                    page.keyboard.press("Enter")
                elif hint == "pass":
                    page.keyboard.press(" ")
                else:  # a decision with its own buttons
                    page.locator(f'button[data-action="{hint}"]').first.click()
                wait_js(page, f"window.gouji.state.version > {at}", timeout=10_000)
                seats = proxy.get_json(f"/api/rooms/{code}")["seats"]
                assert seats[seat]["name"] == "小明" and not seats[seat]["trust"], seats[seat]
            finally:
                pages.close()
                browser.close()
        # a worker dying drops the page's socket: the browser logs that, nothing else
        unexpected = [e for e in pages.errors if "WebSocket" not in e]
        assert not unexpected, unexpected
        print(f"\nthe page was back {back:.1f} s after the kill")
    except BaseException:
        print_logs(tmp_path)
        raise
    finally:
        site.stop()
