"""A rated room has a turn timer (issue 39; D161): the lobby's 排位 choice takes the "no timer"
box away and sends the timer, so the form cannot ask for what the server refuses — a player who
stops acting would stop a rated game for good."""

from __future__ import annotations

from .webutil import PHONE, LiveServer, Pages, expect


def test_a_rated_room_from_the_lobby_keeps_its_timer(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("cai", PHONE, "en")
    page.goto(live_server.url + "/")
    expect(page.locator("#quick-preset option").first).to_be_attached()
    page.locator("#no_timer").check()
    expect(page.locator("#timer")).to_be_disabled()
    page.locator("#rated").check()
    expect(page.locator("#no_timer")).not_to_be_checked()
    expect(page.locator("#no_timer")).to_be_disabled()
    expect(page.locator("#timer")).to_be_enabled()
    expect(page.locator("#rated-hint")).to_contain_text("with a turn timer")
    body = page.evaluate("import('/static/js/lobby.js').then((m) => m.roomBody())")
    assert body["rated"] is True and body["timer_s"] == 30
    page.locator("#rated").uncheck()
    expect(page.locator("#no_timer")).to_be_enabled()
