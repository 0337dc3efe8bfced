"""A logged-out page logs no error in the console (issue 35): a guest, and a browser whose
session ended (its ``gouji_account`` hint cookie still says logged in), open the lobby, a table,
the leaderboard and an event page; being logged out is an answer (``GET /api/session`` →
``{"account": null}``), never a 401 that the browser would log."""

from __future__ import annotations

import pytest

from .webutil import DESKTOP, LiveServer, Pages, api, expect


def _pages(server: LiveServer) -> list[str]:
    room = server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=3)
    event = api(
        server,
        "POST",
        "/api/events",
        {"name": "Spring Cup", "preset": "MATCH7", "format": "swiss", "mode": "paper", "teams": []},
    )
    return ["/", f"/r/{room}", "/leaderboard", f"/e/{event['code']}"]


@pytest.mark.parametrize("session_ended", [False, True], ids=["guest", "session-ended"])
def test_logged_out_pages_log_no_console_error(
    live_server: LiveServer, pages: Pages, session_ended: bool
) -> None:
    page = pages.new(None, DESKTOP)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    if session_ended:  # the hint cookie outlived the session (expired, or ended elsewhere)
        page.context.add_cookies([{"name": "gouji_account", "value": "1", "url": live_server.url}])
    for path in _pages(live_server):
        errors.clear()
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("body")).to_be_visible()
        assert errors == [], f"{path}: {errors}"
        if session_ended:  # the answer cleared the hint: the next page asks nothing
            page.context.add_cookies(
                [{"name": "gouji_account", "value": "1", "url": live_server.url}]
            )
