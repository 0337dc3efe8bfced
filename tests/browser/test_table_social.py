"""The table among people (issue 23, items 5 and 6): 快捷语 and emotes shown by the speaker's
seat in each reader's language, a reader's mute per seat, none at a competition table
(R19.5); the tab's title and icon (and, when asked for, a notification) saying "your turn"
while the page is out of sight; the service worker that keeps the client's files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from gouji.server.plumbing.clock import FastClock

from .webutil import (  # skips this module where Chromium or Playwright is missing
    DESKTOP,
    PHONE,
    LiveServer,
    Page,
    Pages,
    api,
    en_problems,
    expect,
    open_table,
    picture,
    start_seated,
    state,
    wait_js,
    wait_seated,
    zh_problems,
)

if TYPE_CHECKING:
    from playwright.sync_api import Locator

pytestmark = pytest.mark.timeout(120)

SPEED = 20  # table seconds a wall second: the server's 3 s between two 快捷语 take 0.15 s


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path_factory.mktemp("social") / "gouji.db", FastClock(SPEED))
    srv.start()
    yield srv
    srv.stop()


def _bubble(page: Page, seat: int) -> Locator:
    return page.locator(f'#say-bubbles .say-bubble[data-seat="{seat}"]')


def _panel_lines(page: Page) -> list[str]:
    text: str = page.locator("#say-panel").inner_text()
    return [x.strip() for x in text.split("\n") if x.strip()]


def _panel_in_sight(page: Page) -> None:
    """The open list lies wholly on the screen (a phone's sheet at its bottom)."""
    box = page.locator("#say-panel").bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, box


def _hear(page: Page) -> None:
    """Keep every `said` this page gets (window.__said)."""
    page.evaluate(
        "window.__said = []; window.gouji.listeners.push((m) => {"
        " if (m.type === 'said') window.__said.push(m); })"
    )


def test_a_quick_word_reaches_every_seat_in_its_readers_language(
    server: LiveServer, pages: Pages, shots: Path
) -> None:
    code = server.create_room(bots=2, bot_delay_ms=200, timer_s=None, seed=5)
    who = [
        ("张三", "zh", DESKTOP),
        ("李四", "zh", PHONE),
        ("Alice", "en", DESKTOP),
        ("Bob", "en", PHONE),
    ]
    ps: list[Page] = []
    seat: dict[str, int] = {}
    for name, lang, viewport in who:
        page = pages.new(name, viewport, lang)
        open_table(page, server, code)
        seat[name] = wait_seated(page, server, code, name)
        ps.append(page)
    zhang, li, alice, bob = ps
    expect(zhang.locator("#say-open")).to_have_text("快捷语")  # seated, before the start too
    expect(bob.locator("#say-open")).to_have_text("Quick chat")
    zhang.locator("#start").click()
    for page in ps:
        expect(page.locator("#hand .card").first).to_be_visible()
    for page in (zhang, alice, bob):
        page.locator("#say-open").click()
        expect(page.locator("#say-panel")).to_be_visible()
        _panel_in_sight(page)
    # the list in the reader's words only, and every phrase and face of the server's
    for page, lang in ((zhang, "zh"), (bob, "en")):
        lines = [x for x in _panel_lines(page) if x not in seat]  # the mutes' names
        bad = zh_problems(lines, code) if lang == "zh" else en_problems(lines)
        assert not bad, bad
        assert page.locator("#say-panel .say-phrase").count() == 12
        assert page.locator("#say-panel .say-face").count() == 8
    li.locator("#say-open").click()
    li.locator('.say-phrase[data-say="hurry"]').click()
    expect(li.locator("#say-panel")).to_be_hidden()
    expect(li.locator("#say-open")).to_be_disabled()  # it rests as long as the server wants
    words = {"zh": "快点吧，等得花儿都谢了", "en": "Come on, the flowers are wilting while we wait"}
    for page, (_, lang, _) in zip(ps, who, strict=True):
        expect(_bubble(page, seat["李四"])).to_have_text(words[lang])
    picture(zhang, shots / "social-zh-desktop.png")
    picture(alice, shots / "social-en-desktop.png")
    picture(bob, shots / "social-en-phone.png")
    bob.locator('.say-face[data-say="laugh"]').click()  # an emote: the face itself
    for page in ps:
        expect(_bubble(page, seat["Bob"])).to_have_text("😂")
    expect(li.locator("#say-open")).to_be_enabled(timeout=6000)
    li.locator("#say-open").click()
    _panel_in_sight(li)
    alice.locator('.say-phrase[data-say="thanks"]').click()
    expect(_bubble(li, seat["Alice"])).to_have_text("谢谢！")
    expect(_bubble(bob, seat["Alice"])).to_have_text("Thank you!")
    picture(li, shots / "social-zh-phone.png")
    expect(_bubble(zhang, seat["李四"])).to_have_count(0, timeout=8000)  # gone after a while


def test_a_reader_mutes_a_seat_and_the_page_remembers_it(server: LiveServer, pages: Pages) -> None:
    code = server.create_room(bots=4, bot_delay_ms=200, timer_s=None, seed=5)
    zhang = pages.new("张三", DESKTOP, "zh")
    open_table(zhang, server, code)
    zs = wait_seated(zhang, server, code, "张三")
    bob = pages.new("Bob", PHONE, "en")
    open_table(bob, server, code)
    bs = wait_seated(bob, server, code, "Bob")
    zhang.locator("#start").click()
    expect(zhang.locator("#hand .card").first).to_be_visible()
    head = f'#felt .seat[data-seat="{bs}"] .seat-head'
    tag = f"getComputedStyle(document.querySelector('{head}'), '::after').content"
    assert zhang.evaluate(tag) == "none"
    # a tap on one's own name or a bot's offers nothing
    zhang.locator(f'#felt .seat[data-seat="{zs}"] .seat-name').click()
    bot = next(s for s in range(6) if s not in (zs, bs))
    zhang.locator(f'#felt .seat[data-seat="{bot}"] .seat-name').click()
    expect(zhang.locator("#say-menu")).to_be_hidden()
    # a tap on Bob's name: mute him
    zhang.locator(f'#felt .seat[data-seat="{bs}"] .seat-name').click()
    expect(zhang.locator("#say-menu button")).to_have_text("屏蔽 Bob 的快捷语")
    zhang.locator("#say-menu button").click()
    expect(zhang.locator("#say-menu")).to_be_hidden()
    assert zhang.evaluate(tag) == '"已屏蔽"'
    _hear(zhang)
    bob.locator("#say-open").click()
    bob.locator('.say-phrase[data-say="nice_cards"]').click()
    expect(_bubble(bob, bs)).to_have_text("Nice cards!")  # Bob sees his own
    wait_js(zhang, "window.__said.length === 1")  # 张三's page got it, and shows nothing
    assert zhang.locator("#say-bubbles .say-bubble").count() == 0
    # remembered for the room: a reload keeps the mute
    zhang.reload()
    expect(zhang.locator("#hand .card").first).to_be_visible()
    wait_js(zhang, f"{tag} === '\"已屏蔽\"'")
    # unmuted from the list
    zhang.locator("#say-open").click()
    chip = zhang.locator(f'#say-panel .say-mute[data-seat="{bs}"]')
    expect(chip).to_have_attribute("aria-pressed", "true")
    chip.click()
    expect(chip).to_have_attribute("aria-pressed", "false")
    assert zhang.evaluate(tag) == "none"
    expect(bob.locator("#say-open")).to_be_enabled(timeout=6000)
    bob.locator("#say-open").click()
    bob.locator('.say-face[data-say="cool"]').click()
    expect(_bubble(zhang, bs)).to_have_text("😎")


def test_no_quick_chat_at_a_competition_table(server: LiveServer, pages: Pages) -> None:
    """R19.5: an event's table (here with the outline's own scoring) and a room scored as a
    competition (MATCH7) show no 快捷语 button, no bubble and no mute menu."""
    people = {"name": "人", "players": ["Ann", "Ben", "Cai"]}
    bots = {"name": "机", "players": ["B1", "B2", "B3"], "bot": "heuristic"}
    body = {
        "name": "Chat", "preset": "OUTLINE_FULL", "format": "knockout", "mode": "online",
        "teams": [people, bots], "seed": 8, "bot_delay_ms": 200, "timer_s": None,
    }  # fmt: skip
    ev = api(server, "POST", "/api/events", body)
    drawn = api(server, "POST", f"/api/events/{ev['code']}/rounds", {}, ev["key"])
    links = [u for u in next(iter(drawn["seat_links"].values())) if u]
    ann = pages.new("Ann", PHONE, "zh")
    ann.goto(server.url + links[0])
    seated = "(S) => S.room && S.seat !== null && S.room.seats[S.seat].online"
    wait_js(ann, f"({seated})(window.gouji.state)")
    room = state(ann, "room")
    assert room["chat"] is False and room["event"] is not None
    expect(ann.locator("#say-open")).to_be_hidden()
    other = next(s for s in range(6) if s != state(ann, "seat"))
    ann.locator(f'#felt .seat[data-seat="{other}"] .seat-name').click()
    expect(ann.locator("#say-menu")).to_be_hidden()
    code = server.create_room(preset="MATCH7", bots=5, bot_delay_ms=200, timer_s=None)
    page = pages.new("Dee", DESKTOP, "en")
    open_table(page, server, code)
    wait_seated(page, server, code, "Dee")
    assert state(page, "room")["chat"] is False
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#say-open")).to_be_hidden()


MINE = "import('/static/js/your-turn.js').then((m) => m.myDecision(window.gouji.state))"
HIDE = """(hidden) => {
  const state = () => (hidden ? 'hidden' : 'visible');
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
ICON = "document.querySelector('link[rel~=icon]').getAttribute('href')"
# every title the page shows from now on, with the icon beside it (window.__tab)
WATCH_TAB = f"""() => {{
  window.__tab = [];
  new MutationObserver(() => window.__tab.push([document.title, {ICON}]))
    .observe(document.querySelector('title'), {{childList: true, subtree: true}});
}}"""
NOTES = """() => navigator.serviceWorker.ready
  .then((r) => r.getNotifications())
  .then((l) => l.map((n) => [n.title, n.body, n.tag]))"""


def _play_hint(page: Page) -> None:
    """The page's seat plays the hint (as a player clicking it would)."""
    page.evaluate("window.gouji.state.hint = null; window.gouji.send({type: 'hint'})")
    wait_js(page, "window.gouji.state.hint !== null")
    page.evaluate("window.gouji.act(window.gouji.state.hint)")


def test_the_tab_says_your_turn_while_the_page_is_out_of_sight(
    server: LiveServer, pages: Pages
) -> None:
    # bots think 3 table seconds (0.15 s): between two of the player's turns the page is seen
    code = server.create_room(bots=5, bot_delay_ms=3000, timer_s=None, seed=3)
    page = pages.new("Alice", service_workers=True)  # notifications go through the worker
    page.context.grant_permissions(["notifications"], origin=server.url)
    try:
        open_table(page, server, code)
        wait_seated(page, server, code, "Alice")
        page.locator("#start").click()
        wait_js(page, "navigator.serviceWorker.controller !== null")
        expect(page.locator("#notify")).to_have_text("Notify: off")
        page.locator("#notify").click()  # permission given: the switch is on
        expect(page.locator("#notify")).to_have_text("Notify: on")
        base = f"够级 {code}"
        assert page.title() == base and page.evaluate(ICON) == "/static/icons/icon.svg"
        wait_js(page, MINE, timeout=30_000)
        page.evaluate(HIDE, True)  # the player looks elsewhere while it is their turn
        assert page.title() == f"Your turn — {base}"
        assert page.evaluate(ICON) == "/static/icons/icon-turn.svg"
        assert page.evaluate(NOTES) == []  # no news: the turn came while the page was seen
        page.evaluate(WATCH_TAB)
        _play_hint(page)  # played (from another device, say): no longer the player's turn
        wait_js(page, "window.__tab.length >= 2", timeout=30_000)  # … and the turn comes again
        tab = page.evaluate("window.__tab")
        assert tab[:2] == [
            [base, "/static/icons/icon.svg"],  # the decision made: the tab as it was
            [f"Your turn — {base}", "/static/icons/icon-turn.svg"],  # a new one, unseen
        ], tab
        assert page.evaluate(MINE)
        notes = wait_js(page, NOTES)
        assert notes == [["Your turn", f"Gouji room {code}: your decision", f"gouji-turn-{code}"]]
        page.locator("#lang").click()  # the title follows the language
        assert page.title() == f"【轮到你了】{base}"
        page.evaluate(HIDE, False)  # seen again: everything as it was
        assert page.title() == base and page.evaluate(ICON) == "/static/icons/icon.svg"
        wait_js(page, f"({NOTES})().then((l) => l.length === 0)")
        expect(page.locator("#notify")).to_have_text("通知：开")
        page.locator("#notify").click()
        expect(page.locator("#notify")).to_have_text("通知：关")
    finally:
        page.context.clear_permissions()


def test_notifications_stay_off_without_the_browsers_permission(
    server: LiveServer, pages: Pages
) -> None:
    code = server.create_room(bots=5, bot_delay_ms=200, timer_s=None)
    page = start_seated(pages, server, code, "Alice")
    page.locator("#notify").click()  # the browser asks, and (headless) nobody allows it
    expect(page.locator(".toast.error")).to_contain_text("does not allow notifications")
    expect(page.locator("#notify")).to_have_text("Notify: off")
    assert page.evaluate("localStorage.getItem('gouji.notify')") is None


def test_the_service_worker_keeps_the_client_and_never_the_api(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.new("Alice", service_workers=True)
    page.goto(server.url + "/")
    reg = page.evaluate("navigator.serviceWorker.ready.then((r) => [r.scope, r.active.scriptURL])")
    assert reg == [server.url + "/", server.url + "/sw.js"]
    wait_js(page, "navigator.serviceWorker.controller !== null")  # it took the page over
    kept = page.evaluate(
        """async () => {
          const out = {};
          for (const name of await caches.keys()) {
            const kept = await (await caches.open(name)).keys();
            out[name] = kept.map((r) => new URL(r.url).pathname);
          }
          return out;
        }"""
    )
    (name, paths), *more = kept.items()
    assert not more and name.startswith("gouji-") and len(name) == len("gouji-") + 16
    for want in ("/static/table.html", "/static/js/table.js", "/static/js/quick-words.js"):
        assert want in paths, want
    # the API goes to the server, every time, and is never kept
    code = server.create_room(bots=5, bot_delay_ms=200, timer_s=None)
    for _ in range(2):
        status = page.evaluate(f"fetch('/api/rooms/{code}').then((r) => r.status)")
        assert status == 200
    urls = page.evaluate(
        """async () => {
          const all = [];
          for (const name of await caches.keys())
            for (const r of await (await caches.open(name)).keys())
              all.push(new URL(r.url).pathname);
          return all;
        }"""
    )
    assert not [u for u in urls if not u.startswith("/static/")], urls
    # without a network the table's page still opens (its shell, from the cache)
    ctx = page.context
    ctx.set_offline(True)
    try:
        page.goto(f"{server.url}/r/{code}")
        expect(page.locator("#conn.bad")).to_be_visible()  # it says it is reconnecting
        assert page.title() == f"够级 {code}"
    finally:
        ctx.set_offline(False)
    expect(page.locator("#conn.ok")).to_be_visible(timeout=15_000)  # back: it connects
    # the browser said it was offline: those errors are the test's, not the page's
    pages.errors[:] = [e for e in pages.errors if "ERR_INTERNET_DISCONNECTED" not in e]
