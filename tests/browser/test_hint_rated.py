"""No hints at a rated table (issue 35 item 1, D198): the table page of a rated room offers no
提示 button and its H key asks nothing — the server would refuse it (`no_hints`), since a rating
measures the player's own play. Casual tables keep the button (test_browser_client)."""

from __future__ import annotations

from .webutil import DESKTOP, LiveServer, Pages, expect, open_table, state, wait_js, wait_seated

SIGN_UP_JS = """(name) => fetch('/api/accounts', {
  method: 'POST',
  headers: {'content-type': 'application/json'},
  body: JSON.stringify({name, password: 'hint-free-2026'}),
}).then((r) => r.status)"""


def test_a_rated_table_offers_no_hint(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("Hana", DESKTOP, "en")
    page.goto(live_server.url + "/")
    assert page.evaluate(SIGN_UP_JS, "Hana") == 201  # logged in: the session's cookies
    code = live_server.create_room(
        rated=True, bots=5, bot="beginner", games=1, bot_delay_ms=0, timer_s=600
    )
    open_table(page, live_server, code)
    wait_seated(page, live_server, code, "Hana")
    expect(page.locator("#rated-note")).to_be_visible()
    page.locator("#start").click()
    expect(page.locator("#hand .card").first).to_be_visible()
    # the seat's first real decision (more than one legal action): the room waits for it
    wait_js(page, "(window.gouji.state.view?.legal_actions?.length ?? 0) > 1", timeout=30_000)
    expect(page.locator("#actions .act-buttons button").first).to_be_visible()
    expect(page.locator("#actions .hint-btn")).to_have_count(0)
    page.keyboard.press("h")  # the key asks nothing either
    page.wait_for_timeout(300)
    assert state(page, "hint") is None
    expect(page.get_by_text("no hints")).to_have_count(0)
