"""The lobby's list of open rooms (公开房间, GET /api/rooms) in Chromium against the real server:
a room created with the form's 在大厅公开 box is listed (and only such a room), in the player's
words in Chinese and English, and its button opens its table; every status, the empty list, a
failed fetch and the 5 s refresh (only while the page shows) on a list the test answers itself.

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots (lobby-open-rooms.png at 1280x800 and
lobby-open-rooms-phone.png at 390x844, in Chinese; docs/screenshots has them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Route

from gouji.rulesdoc import NAMES

from .lobbypages import assert_player_words, open_lobby
from .webutil import (  # skips this module where Chromium or Playwright is missing
    DESKTOP,
    PHONE,
    LiveServer,
    Page,
    Pages,
    en_problems,
    expect,
    picture,
    visible_text,
    wait_seated,
    zh_problems,
)

ROOMS = "#open-rooms .open-room"


def list_lines(page: Page) -> list[str]:
    """The lines of the open rooms' panel as a reader sees them."""
    text: str = page.locator("#open-panel").inner_text()
    return [line.strip() for line in text.splitlines() if line.strip()]


def assert_players_words(page: Page, lang: str, codes: tuple[str, ...]) -> None:
    """The whole lobby, and the list line by line, in the player's words (room codes apart)."""
    text = visible_text(page)
    lines = list_lines(page)
    for code in codes:
        text = text.replace(code, "")
        lines = [line.replace(code, "") for line in lines]
    assert_player_words(text, lang, "the lobby with open rooms", lobby=True)
    bad = zh_problems(lines, "\0") if lang == "zh" else en_problems(lines)
    assert not bad, f"the open rooms ({lang}) show {bad}"


def test_a_listed_room_is_in_the_list_and_its_button_opens_the_table(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    # created through the page, with the box ticked: the body says listed
    host = pages.new("高手迷", DESKTOP, "zh")
    open_lobby(host, live_server, "zh")
    expect(host.locator("#listed")).not_to_be_checked()
    expect(host.locator("label:has(#listed)")).to_have_text("在大厅公开（任何人可加入或观战）")
    host.locator("#preset").select_option("AUDIT")
    host.locator("#bot").select_option("master")
    host.locator("#timer").fill("45")
    host.locator("#listed").check()
    with host.expect_request(
        lambda r: r.method == "POST" and r.url.endswith("/api/rooms")
    ) as posted:
        host.locator("#create").click()
    body: dict[str, Any] = posted.value.post_data_json or {}
    assert body["listed"] is True
    host.wait_for_url("**/r/*")
    code = host.url.rstrip("/").split("/")[-1]
    unlisted = live_server.create_room(preset="LAIWU")  # found by its code only
    assert [r["code"] for r in live_server.get_json("/api/rooms")["rooms"]] == [code]
    wait_seated(host, live_server, code, "高手迷")

    # another player's lobby lists that room only, in Chinese…
    page = pages.new("Bo", DESKTOP, "zh")
    open_lobby(page, live_server, "zh")
    rooms = page.locator(ROOMS)
    expect(rooms).to_have_count(1)
    room = rooms.first
    expect(room).to_have_attribute("data-code", code)
    expect(page.locator(f'{ROOMS}[data-code="{unlisted}"]')).to_have_count(0)
    expect(page.locator("#open-count")).to_have_text("1")
    expect(room.locator(".open-preset")).to_have_text(NAMES["AUDIT"]["zh"])
    expect(room.locator(".open-status")).to_have_text("等人")
    # (the server's count of watchers may still hold the host's connection from before it sat
    # down: the list shows what GET /api/rooms says)
    watchers = live_server.get_json("/api/rooms")["rooms"][0]["watchers"]
    seen = {"zh": [f"旁观 {watchers}"], "en": [f"{watchers} watching"]} if watchers else {}
    # the lobby's bots (5 at most) fill the five empty seats at the start (D106)
    facts = ["玩家 1", "开始时电脑补 5 个", "电脑水平：大师", "出牌时限 45 秒", *seen.get("zh", [])]
    expect(room.locator(".open-facts span")).to_have_text([*facts, f"房间 {code}"])
    expect(room.locator(".open-go")).to_have_text("加入")
    expect(room.locator(".open-go")).to_have_attribute("href", f"/r/{code}")
    expect(page.locator("#open-note")).to_be_hidden()
    assert_players_words(page, "zh", (code,))

    # …and in English after the language switch
    page.locator("#lang").click()
    expect(room.locator(".open-status")).to_have_text("Waiting for players")
    expect(room.locator(".open-preset")).to_have_text(NAMES["AUDIT"]["en"])
    facts = ["1 player", "bots fill 5 at the start", "Bot level: Master", "45 s to act"]
    facts += seen.get("en", [])
    expect(room.locator(".open-facts span")).to_have_text([*facts, f"Room {code}"])
    expect(room.locator(".open-go")).to_have_text("Join")
    assert_players_words(page, "en", (code,))
    page.locator("#lang").click()
    expect(room.locator(".open-go")).to_have_text("加入")

    # more listed rooms for the screenshots: a table of bots at play, a people-only one
    playing = live_server.create_room(preset="MATCH7", bots=6, listed=True)
    waiting = live_server.create_room(
        preset="OUTLINE_CLASSIC", bots=0, bot="random", timer_s=None, listed=True
    )
    page.reload()
    expect(rooms).to_have_count(3)
    assert rooms.evaluate_all("els => els.map((e) => e.dataset.code)") == [waiting, playing, code]
    expect(rooms.nth(1).locator(".open-go")).to_have_text("观战")
    assert_players_words(page, "zh", (code, playing, waiting))
    for viewport, name in ((DESKTOP, "lobby-open-rooms"), (PHONE, "lobby-open-rooms-phone")):
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        picture(page, shots / f"{name}.png")
    page.set_viewport_size(DESKTOP)

    # the button opens the room's table, where the player sits down
    page.locator(f'{ROOMS}[data-code="{code}"] .open-go').click()
    page.wait_for_url(f"{live_server.url}/r/{code}")
    expect(page.locator("#conn.ok")).to_be_visible()
    wait_seated(page, live_server, code, "Bo")


def brief(code: str, preset: str, status: str, **fields: Any) -> dict[str, Any]:
    """A line of GET /api/rooms (docs/protocol.md) as the test answers it."""
    room = {"code": code, "preset": preset, "status": status, "players": 1, "bots": 0}
    room |= {"free": 5, "bot": "heuristic", "timer_s": 30, "watchers": 0, "game": 0}
    return room | {"created": 1_700_000_000.0} | fields


#: One room in each state, newest first: a full table waiting to start, a match at play with a
#: bot's seat to take, one between games without a timer (its bots: greedy, no level of the
#: lobby's), one waiting with a seat free (the only one to join).
STATES = [
    brief("FULLWAIT", "LIANG4", "waiting", players=6, free=0, watchers=1),
    brief("PLAYING2", "OUTLINE_FULL", "playing", players=5, bots=1, free=1, game=2, watchers=3),
    brief("BETWEEN3", "LAIWU", "between", players=2, bots=4, free=4, bot="greedy", game=3,
          timer_s=None),
    brief("JOINABLE", "COMP2", "waiting", players=2, free=4, bot="random", timer_s=20),
]  # fmt: skip
#: What each room of STATES says: rule set, status, its facts (joined by " · ") and its button.
WORDS = {
    "zh": [
        ("亮4打法", "等人", "玩家 6 · 没有空位 · 电脑水平：高手 · 出牌时限 30 秒 · 旁观 1", "观战"),
        ("大纲·全套", "对局中",
         "第 2 局 · 玩家 5 · 电脑 1 · 可接手 1 · 电脑水平：高手 · 出牌时限 30 秒 · 旁观 3", "观战"),
        ("莱芜打法", "局间", "第 3 局已结束 · 玩家 2 · 电脑 4 · 可接手 4 · 不限时", "观战"),
        ("大纲·比赛计分", "等人", "玩家 2 · 空位 4 · 电脑水平：新手 · 出牌时限 20 秒", "加入"),
    ],
    "en": [
        ("Show the 4s (亮4)", "Waiting for players",
         "6 players · no free seat · Bot level: Expert · 30 s to act · 1 watching", "Watch"),
        ("Outline, full", "Playing",
         "game 2 · 5 players · 1 bot · 1 seat to take over · Bot level: Expert · 30 s to act"
         " · 3 watching", "Watch"),
        ("Laiwu rules", "Between games",
         "game 3 is over · 2 players · 4 bots · 4 seats to take over · No timer", "Watch"),
        ("Outline, contest scoring", "Waiting for players",
         "2 players · 4 free seats · Bot level: Beginner · 20 s to act", "Join"),
    ],
}  # fmt: skip


def test_every_state_the_empty_list_a_failure_and_the_refresh(
    live_server: LiveServer, pages: Pages
) -> None:
    answer: dict[str, Any] = {"status": 200, "rooms": STATES}
    asked: list[str] = []

    def rooms_api(route: Route) -> None:
        if route.request.method != "GET":
            route.fallback()
            return
        asked.append(route.request.url)
        body = json.dumps({"rooms": answer["rooms"]})
        if answer["status"] != 200:
            body = json.dumps({"error": "the store is away"})
        route.fulfill(status=answer["status"], content_type="application/json", body=body)

    page = pages.new("Ada", DESKTOP, "zh")
    page.clock.install()  # the 5 s refresh runs when the test says
    page.route("**/api/rooms", rooms_api)
    open_lobby(page, live_server, "zh")
    rooms = page.locator(ROOMS)
    codes = tuple(r["code"] for r in STATES)
    for lang in ("zh", "en"):
        if lang == "en":
            page.locator("#lang").click()  # the list speaks the new language at once
        expect(rooms).to_have_count(len(STATES))
        for i, (preset, status, facts, button) in enumerate(WORDS[lang]):
            room = rooms.nth(i)
            expect(room).to_have_attribute("data-code", codes[i])
            expect(room.locator(".open-preset")).to_have_text(preset)
            expect(room.locator(".open-status")).to_have_text(status)
            room_word = "房间" if lang == "zh" else "Room"
            spans = [*facts.split(" · "), f"{room_word} {codes[i]}"]
            expect(room.locator(".open-facts span")).to_have_text(spans)
            expect(room.locator(".open-go")).to_have_text(button)
            expect(room.locator(".open-go")).to_have_attribute("href", f"/r/{codes[i]}")
        assert_players_words(page, lang, codes)
    page.locator("#lang").click()
    assert len(asked) == 1  # once at load; the switch re-renders what it has

    # a failed fetch: the rooms last seen stay, a quiet line says so
    answer["status"] = 503
    page.clock.run_for(5_000)
    expect(page.locator("#open-note")).to_have_text("公开房间暂时读不到，稍后会自动再试。")
    expect(rooms).to_have_count(len(STATES))
    assert len(asked) == 2
    # while the page is hidden nothing is asked; shown again, the list is asked for at once
    hide = """(h) => {
        const value = h ? "hidden" : "visible";
        Object.defineProperty(document, "visibilityState", {value, configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }"""
    page.evaluate(hide, True)
    page.clock.run_for(20_000)
    assert len(asked) == 2
    answer |= {"status": 200, "rooms": []}
    page.evaluate(hide, False)
    expect(page.locator("#open-note")).to_have_text(
        "暂无公开房间。创建房间时勾选「在大厅公开」，别人就能在这里找到它。"
    )
    expect(rooms).to_have_count(0)
    expect(page.locator("#open-count")).to_be_hidden()
    assert len(asked) == 3
    # every 5 s while it shows
    answer["rooms"] = STATES[3:]
    page.clock.run_for(5_000)
    expect(rooms).to_have_count(1)
    expect(page.locator("#open-note")).to_be_hidden()
    assert len(asked) == 4
    page.locator("#lang").click()
    answer["rooms"] = []
    page.clock.run_for(5_000)
    expect(page.locator("#open-note")).to_have_text(
        "No open rooms right now. Tick “List in the lobby” when you create a room and others "
        "will find it here."
    )
    # the browser reports the 503 on its console: the one error this test expects
    assert sum("503" in e for e in pages.errors) == 1, pages.errors
    pages.errors[:] = [e for e in pages.errors if "503" not in e]
