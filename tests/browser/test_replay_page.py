"""The replay page when the server rations replays (D90, docs/security.md): a busy server's
503 is asked again after its Retry-After and the replay shows; past the address's replays of
the minute (429) the page says so, in the reader's language — not that the replay is missing.
The server's answers are replaced in the browser (``page.route``): the limits themselves are
tested in tests/server/tables/test_server_fairness.py."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from .webutil import LiveServer, Page, Pages, expect  # skips where Chromium is missing

if TYPE_CHECKING:
    from playwright.sync_api import Route


def _finished(server: LiveServer) -> str:
    code = server.create_room(bots=6, games=1, bot_delay_ms=0, next_delay_ms=0, timer_s=None)
    deadline = time.monotonic() + 60
    while server.get_json(f"/api/rooms/{code}")["status"] != "over":
        assert time.monotonic() < deadline, "the all-bot room did not finish"
        time.sleep(0.1)
    return code


def _forget(page: Page, pages: Pages, status: int) -> None:
    """Chromium logs the refused request as a console error: drop that one (at most 2 s for
    it to come), so that any other error still fails the test."""
    said = f"status of {status}"
    deadline = time.monotonic() + 2
    while not any(said in e for e in pages.errors) and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    refused = [e for e in pages.errors if said in e]
    assert len(refused) == 1, pages.errors
    pages.errors.remove(refused[0])


def test_the_replay_page_waits_out_a_busy_server_and_says_when_rationed(
    live_server: LiveServer, pages: Pages
) -> None:
    code = _finished(live_server)
    url = f"{live_server.url}/replay/{code}/0"
    api = re.compile(rf".*/api/rooms/{code}/games/0/replay$")
    asked: list[str] = []

    def busy_once(route: Route) -> None:
        asked.append("busy" if not asked else "real")
        if len(asked) == 1:
            headers = {"retry-after": "1", "content-type": "application/json"}
            route.fulfill(status=503, headers=headers, body='{"error": "busy"}')
        else:
            route.continue_()

    page = pages.new("ann")
    page.route(api, busy_once)
    page.goto(url)
    expect(page.locator("#felt .seat-hand").first).to_be_visible()
    assert asked == ["busy", "real"]
    _forget(page, pages, 503)

    for lang, words in (("zh", "一分钟内打开的回放太多"), ("en", "Too many replays")):
        page = pages.new("ann", lang=lang)
        page.route(
            api,
            lambda route: route.fulfill(
                status=429,
                headers={"retry-after": "60", "content-type": "application/json"},
                body='{"error": "at most 30 replays a minute"}',
            ),
        )
        page.goto(url)
        expect(page.locator("#step-action")).to_contain_text(words)
        _forget(page, pages, 429)
