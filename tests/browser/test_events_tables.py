"""An event's online tables in Chromium, in Chinese and in English (issue 22, items 2 and 6):
three seat links of one table opened in one browser each seat their own player (and keep it
through a reload); the table names the event's teams and players, bots by their registered
names with the bot mark; a spectator of a duplicate table sees no cards while the other table
has not played the deal, and a seat's settlement shows only its own cards left, without a
replay link, until then. One game is played in Chinese; the player and the spectator then
switch to English (the page's own switch) and see the same in English words.

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .webutil import (
    LATIN_WORD,
    LiveServer,
    Page,
    Pages,
    api,  # skips this module where Chromium or Playwright is missing
    en_problems,
    expect,
    shoot,
    visible_text,
    zh_problems,
)

PEOPLE = {"name": "青岛队", "players": ["张三", "李四", "王五", "赵六", "钱七", "孙八"]}
BOTS = {"name": "机器队", "players": ["机一", "机二", "机三"], "bot": "greedy"}
NAMES = ("青岛队", "机器队", *PEOPLE["players"], *BOTS["players"])
HIDDEN = {"zh": "另一桌还在打", "en": "the other table is still playing"}
LEFT_HIDDEN = {"zh": "暂不公开", "en": "hidden for now"}
WAITING = {"zh": "另一张桌打完这一局", "en": "other table to finish this game"}


def _summary(server: LiveServer, room: str) -> dict[str, Any]:
    out: dict[str, Any] = server.get_json(f"/api/rooms/{room}")
    return out


def _wait(check: Any, what: str, seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, what
        time.sleep(0.05)


def _in_words(p: Page, lang: str, room: str) -> None:
    """Everything ``p`` shows is in ``lang``'s words."""
    # ">10": a hand's size as MATCH7 lets others see it (R10.1), not an engine arrow
    lines = [x for x in visible_text(p).split("\n") if x.strip() and x.strip() != ">10"]
    if lang == "zh":
        assert not zh_problems(lines, room), zh_problems(lines, room)
        latin = set(LATIN_WORD.findall("\n".join(lines).replace(room, "")))
        assert latin <= {"English", "Gouji", "J", "Q", "K", "A", "H"}, latin
    else:
        assert not en_problems(lines, NAMES), en_problems(lines, NAMES)


def _settled_hidden(tab: Page, lang: str) -> None:
    """A seat's settlement while the other table has not played the deal."""
    expect(tab.locator("#settlement .settle-places")).to_be_visible(timeout=60_000)
    expect(tab.locator("#settlement .hidden-hand")).to_have_count(5)
    expect(tab.locator("#settlement .hidden-hand").first).to_have_text(LEFT_HIDDEN[lang])
    expect(tab.locator("#settlement .replay-link")).to_have_count(0)
    expect(tab.locator("#match-panel .results a")).to_have_count(0)
    # the next game is the event's to start: no 下一局 button, but why it waits
    expect(tab.locator("#settlement .event-hold")).to_contain_text(WAITING[lang])
    expect(tab.locator(".next-btn")).to_have_count(0)


def test_seat_links_in_one_browser_and_a_duplicate_table_in_words(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    lang = "zh"
    made = api(
        live_server, "POST", "/api/events",
        {
            "name": "复式赛", "preset": "MATCH7", "format": "round_robin", "mode": "online",
            "duplicate": True, "games": 1, "seed": 21, "teams": [PEOPLE, BOTS],
            "bot_delay_ms": 0, "next_delay_ms": 0, "timer_s": None,
        },
    )  # fmt: skip
    drawn = api(live_server, "POST", f"/api/events/{made['code']}/rounds", {}, made["key"])
    table = drawn["tables"][0]
    room = table["room"]
    links = [u for u in drawn["seat_links"][table["id"]] if u]
    seats = [int(u.split("seat=")[1].split("&")[0]) - 1 for u in links]

    # three seat links of one table in three tabs of one browser: each its own seat
    first = pages.new(None, lang=lang)
    tabs = [first, first.context.new_page(), first.context.new_page()]
    for tab, url in zip(tabs, links, strict=True):
        if tab is not first:
            tab.on("pageerror", lambda e: pages.error(f"tab: {e}"))
        tab.goto(live_server.url + url)
        expect(tab.locator("#conn.ok")).to_be_visible()
    _wait(lambda: _summary(live_server, room)["status"] == "playing", "the table started")
    for tab, seat in zip(tabs, seats, strict=True):
        expect(tab.locator("#hand .card").first).to_be_visible()
        assert tab.evaluate("window.gouji.state.seat") == seat
    summary = _summary(live_server, room)
    assert all(summary["seats"][s]["online"] for s in seats)
    tabs[0].reload()  # a reload keeps the tab's own seat; the others keep theirs
    expect(tabs[0].locator("#hand .card").first).to_be_visible()
    assert tabs[0].evaluate("window.gouji.state.seat") == seats[0]
    assert [t.evaluate("window.gouji.state.seat") for t in tabs[1:]] == seats[1:]
    expect(tabs[1].locator(".toast.error")).to_have_count(0)  # nobody was replaced

    # the event's names: teams and players, the bots by their registered names
    page = tabs[0]
    expect(page.locator("#score")).to_contain_text("青岛队")
    expect(page.locator("#score")).to_contain_text("机器队")
    for bot in BOTS["players"]:
        box = page.locator("#felt .seat", has_text=bot)
        expect(box).to_have_count(1)
        expect(box.locator(".badge.bot")).to_have_count(1)
    text = visible_text(page)
    for generic in ("甲队", "乙队", "电脑1", "Team A", "Team B", "Bot 1"):
        assert generic not in text, generic
    shoot(page, shots / f"event-table-{lang}.png")

    # a spectator of a duplicate table whose deal the other table has not played
    watcher = pages.new(None, lang=lang)
    watcher.goto(f"{live_server.url}/r/{room}")
    expect(watcher.locator("#conn.ok")).to_be_visible()
    expect(watcher.locator("#felt")).to_contain_text(HIDDEN[lang])
    expect(watcher.locator("#felt .seat", has_text="机一")).to_have_count(1)
    expect(watcher.locator("#match-panel .totals")).to_contain_text("机器队")
    assert watcher.locator("#hand .card").count() == 0
    assert watcher.evaluate("window.gouji.state.view") is None
    shoot(watcher, shots / f"event-table-hidden-{lang}.png")

    # table 1 plays its game (托管): its seats see their own cards left, no replay yet
    for tab in tabs:
        tab.evaluate("window.gouji.send({type: 'trust', on: true})")
    for tab in tabs:
        _settled_hidden(tab, lang)
    expect(watcher.locator("#felt")).to_contain_text(HIDDEN[lang])
    shoot(page, shots / f"event-table-settled-{lang}.png")
    for p in (page, watcher):
        _in_words(p, lang, room)

    # the same in English, by the page's own switch
    for p in (page, watcher):
        p.locator("#lang").click()
    _settled_hidden(page, "en")
    expect(watcher.locator("#felt")).to_contain_text(HIDDEN["en"])
    expect(page.locator("#felt .seat", has_text="机一").locator(".badge.bot")).to_have_count(1)
    shoot(page, shots / "event-table-settled-en.png")
    shoot(watcher, shots / "event-table-hidden-en.png")
    for p in (page, watcher):
        _in_words(p, "en", room)
