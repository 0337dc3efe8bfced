"""托管 stays on while the page passes by itself (自动过牌 sends `act` with `auto: true`).

The soak test plays five minutes of *table* time (GOUJI_TRUST_SOAK_S seconds, default 300) at the
lobby's fast bot speed (250 ms a decision): the page passes by itself whenever it is quicker than
托管. The server runs on a ``FastClock`` (SOAK_SPEED times the wall's, so the five minutes take
about half a minute); `make test-deep` plays them at the wall's own speed. Marked slow (deselect
with -m 'not slow'). The quick test checks the same in a few seconds.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from gouji.server.plumbing.clock import FastClock
from support import DEEP, sized

from .webutil import (  # skips this module where Chromium or Playwright is missing
    PHONE,
    LiveServer,
    Pages,
    expect,
    start_seated,
    state,
)

SOAK_S = float(os.environ.get("GOUJI_TRUST_SOAK_S", "300"))  # table seconds
SOAK_SPEED = 1.0 if DEEP else 10.0  # table seconds a wall second


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """This module's server: table time SOAK_SPEED times as fast as the wall's."""
    server = LiveServer(tmp_path_factory.mktemp("server") / "gouji.db", FastClock(SOAK_SPEED))
    server.start()
    yield server
    server.stop()


SEED = 1912  # seat 0 has nothing but a pass to choose 18 times in the first game


def trust_through_automatic_passes(
    server: LiveServer, pages: Pages, seconds: float, delay_ms: int, min_passes: int
) -> None:
    code = server.create_room(
        bots=5, bot_delay_ms=delay_ms, timer_s=None, next_delay_ms=300, seed=SEED
    )
    # a phone that asks for no motion: the page's logic runs as always, its drawing costs
    # less over five minutes (the suite shares two cores)
    page = start_seated(pages, server, code, "Alice", PHONE, reduced_motion=True)
    seat: int = state(page, "seat")
    page.locator("#trust").click()
    expect(page.locator("#trust")).to_have_text("Stop auto-play")
    clock = server.clock  # `seconds` are the table's: the server's clock says when they are up
    end = clock.monotonic() + seconds
    while clock.monotonic() < end:
        room = server.get_json(f"/api/rooms/{code}")
        assert room["seats"][seat]["trust"], "托管 went off"
        offs = [n for n in room["notes"] if n["type"] == "trust" and not n["on"]]
        assert not offs, offs
        page.wait_for_timeout(1000 * clock.wall(1.0))  # a look every table second
    passes = page.evaluate("window.gouji.state.autoIds.size")
    games = server.get_json(f"/api/rooms/{code}")["game"]
    assert passes >= min_passes, (passes, games)
    expect(page.locator("#trust")).to_have_text("Stop auto-play")


def test_trust_stays_on_across_automatic_passes(live_server: LiveServer, pages: Pages) -> None:
    # eight seconds of the wall at 20 ms a bot's decision, as before the fast clock
    seconds, delay_ms = 8 * SOAK_SPEED, round(20 * SOAK_SPEED)
    trust_through_automatic_passes(live_server, pages, seconds, delay_ms, 5)


@pytest.mark.slow
@pytest.mark.timeout(SOAK_S / SOAK_SPEED + 120)
def test_trust_stays_on_for_five_minutes_of_bot_play(live_server: LiveServer, pages: Pages) -> None:
    # the five minutes whole; in CI a bot's decision every 500 ms of them (600 decisions the
    # page follows, not 1,200: the page's drawing is most of the soak's cost on two cores)
    trust_through_automatic_passes(live_server, pages, SOAK_S, sized(500, 250), 10)
