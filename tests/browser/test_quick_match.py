"""快速开始 in Chromium (issue 23, item 4): the lobby's button takes the player to a waiting
table of the chosen rule set, the table takes a seat by itself, says when bots will fill the
rest, and starts; a second player's tap joins the same table. The 排位 choices ask a guest to
log in first. Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from gouji.server.plumbing.clock import FastClock

from .webutil import PHONE, LiveServer, Page, Pages, expect, snap, wait_js

SPEED = 3.0  # the 15 s wait takes 5 s: the second player's tap comes well within it


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("quick") / "gouji.db", FastClock(SPEED))
    server.start()
    yield server
    server.stop()


def _lobby(page: Page, server: LiveServer, lang: str) -> None:
    page.goto(server.url + "/")
    if page.evaluate("document.documentElement.lang") != ("zh-CN" if lang == "zh" else "en"):
        page.locator("#lang").click()
    expect(page.locator("#quick-preset option").first).to_be_attached()


def test_quick_match_seats_the_player_and_bots_fill_the_table(
    fast_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """Ann taps in Chinese on a desktop, Bob in English on a phone: one table, in each one's
    words."""
    ann = pages.new("ann", lang="zh")
    bob = pages.new("bob", PHONE, "en")
    _lobby(bob, fast_server, "en")  # ready before the wait starts
    bob.locator("#quick-preset").select_option("LAIWU")
    _lobby(ann, fast_server, "zh")
    ann.locator("#quick-preset").select_option("LAIWU")
    snap(ann, shots / "quick-lobby-zh.png", top=True)
    snap(bob, shots / "quick-lobby-en.png", top=True)
    ann.locator("#quick").click()
    ann.wait_for_url(re.compile(r"/r/[A-Z0-9]{8}$"))
    code = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#fill-note")).to_contain_text("最后一人坐下 15 秒后")
    bob.locator("#quick").click()
    bob.wait_for_url(re.compile(f"/r/{code}$"))  # the same table, not a new one
    expect(bob.locator("#fill-note")).to_contain_text("15 s after the last person sits down")
    snap(bob, shots / "quick-waiting-en.png")
    names = wait_js(
        ann,
        "window.gouji.state.room && window.gouji.state.room.status === 'playing'"
        " && window.gouji.state.room.seats.map((s) => s.name)",
        timeout=30_000,
    )
    assert "ann" in names and "bob" in names
    summary = fast_server.get_json(f"/api/rooms/{code}")
    assert summary["config"]["preset"] == "LAIWU"
    assert sum(1 for s in summary["seats"] if s["bot"]) == 4
    expect(bob.locator("#hand .card").first).to_be_visible()


def test_rated_choices_ask_a_guest_to_log_in(fast_server: LiveServer, pages: Pages) -> None:
    page = pages.new("cai", PHONE, "zh")
    _lobby(page, fast_server, "zh")
    page.locator("#quick-rated").check()
    page.locator("#quick").click()
    link = page.locator("#quick-error a")
    expect(link).to_have_attribute("href", re.compile(r"^/account"))
    expect(page.locator("#quick-error")).to_contain_text("排位赛需要账号")
    assert page.url.endswith("/")  # no table was opened
    page.locator("#rated").check()
    expect(page.locator("#rated-hint")).to_be_visible()
    expect(page.locator("#count_visibility")).to_be_disabled()
    expect(page.locator("#lobby-error a")).to_be_visible()
    page.locator("#lang").click()  # the words follow the language
    expect(page.locator("#rated-hint")).to_contain_text("A rated room plays the rule set")
