"""Opening a running room's link shows the table at once (no waiting room, no blocking name
dialog); a watcher takes a free seat after giving a name; players see who watches; seats taken,
watchers arriving and timeouts are told at the table (room notes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gouji.server.plumbing.clock import FastClock

from .webutil import (  # skips this module where Chromium or Playwright is missing
    PHONE,
    LiveServer,
    Pages,
    expect,
    start_seated,
    state,
)

SEEN_JS = """
window.__seen = new Set();
new MutationObserver(() => {
  const text = document.body ? document.body.innerText : "";
  for (const l of text.split("\\n")) window.__seen.add(l.trim());
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_a_running_room_opens_as_a_table_and_a_seat_is_taken(
    live_server: LiveServer, pages: Pages
) -> None:
    code = live_server.create_room(bots=5, bot_delay_ms=300, timer_s=None, seed=5)
    alice = start_seated(pages, live_server, code, "Alice")

    carol = pages.new(None, PHONE)  # no name stored: the page must not block on one
    carol.add_init_script(SEEN_JS)
    carol.goto(f"{live_server.url}/r/{code}")
    expect(carol.locator("#conn.ok")).to_be_visible()
    expect(carol.locator("#felt .seat")).to_have_count(6)
    expect(carol.locator("#felt .centre .centre-top")).to_contain_text("Game 1")
    expect(carol.locator("#prestart")).to_be_hidden()
    expect(carol.locator("#name-bar")).to_be_hidden()
    expect(carol.locator(".spectator-note")).to_contain_text("Take a free seat")
    seen = carol.evaluate("[...window.__seen]")
    assert "Waiting to start" not in seen and "empty" not in seen  # no empty waiting room
    free = carol.locator("#felt .take-seat")
    expect(free).to_have_count(5)  # the bots' seats; Alice is here

    # the players see who watches, and are told of the arrival
    expect(alice.locator("#match-panel .watchers")).to_have_text("Watching: guest")
    expect(alice.locator("#log li.note").last).to_have_text("guest is watching")

    # taking a seat asks for a name beside the table, then sits
    seat = 2 if state(alice, "seat") != 2 else 3
    carol.locator(f'#felt .take-seat[data-sit="{seat}"]').click()
    expect(carol.locator("#name-bar")).to_be_visible()
    carol.locator("#name-input").fill("Carol")
    carol.locator("#name-bar button[type=submit]").click()
    expect(carol.locator("#felt .seat.rel-me")).to_have_count(1)
    assert state(carol, "seat") == seat
    expect(carol.locator("#hand .card").first).to_be_visible()
    assert live_server.get_json(f"/api/rooms/{code}")["seats"][seat]["name"] == "Carol"
    took = f"Carol takes Seat {seat + 1} from a bot"
    expect(alice.locator("#log li.note").last).to_have_text(took)
    expect(alice.locator("#match-panel .watchers")).to_have_count(0)


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose table time runs ten times as fast: a 1 s turn timer runs out in 0.1 s."""
    server = LiveServer(tmp_path / "gouji.db", FastClock(10))
    server.start()
    yield server
    server.stop()


def test_timeouts_and_trust_are_told(fast_server: LiveServer, pages: Pages) -> None:
    code = fast_server.create_room(bots=5, bot_delay_ms=0, timer_s=1, seed=2)
    page = pages.new("Alice")
    page.add_init_script("localStorage.setItem('gouji.autopass', '0')")
    page.goto(f"{fast_server.url}/r/{code}")
    page.locator("#start").click()
    expect(page.locator("#log li.note").first).to_contain_text(
        "Alice ran out of time:", timeout=15_000
    )
    expect(page.locator("#log")).to_contain_text(
        "Alice timed out twice: 托管 (auto-play) is on", timeout=15_000
    )
    expect(page.locator("#trust")).to_have_text("Stop auto-play")
