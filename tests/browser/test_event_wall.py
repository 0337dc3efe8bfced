"""The wall page (/e/{code}/wall, big print for a projector), the organiser's round clock and
the list of events (/events) in Chromium against a real server whose clock runs fast (a
FastClock: the organiser's one-minute clock is up in seconds, and the page, counting on the
server's time, must follow it).

A real-card round in Chinese at 1920x1080 and 1280x720: each table's number, its teams and
players by seat, the standings, a QR code drawn by the server, the clock started on the
organiser's page counting down to 时间到 and stopped again; every print large and of high
contrast, the page no bigger than the screen. An online knockout in English: the team names
at each table, the byes; the list of events reached from the lobby, newest first.

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots (event-wall-*.png, event-list-en.png).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from gouji.server.plumbing.clock import FastClock

from .eventpages import ENGINE_CODE, follow
from .webutil import (
    DESKTOP,
    LATIN_ALLOWED,
    LATIN_WORD,
    LiveServer,
    Page,
    Pages,
    api,  # skips this module where Chromium or Playwright is missing
    en_problems,
    expect,
    picture,
    visible_text,
    wait_js,
)

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

SPEED = 16.0  # the server's seconds a wall second: its one-minute clock is up in 3.75 s
HD: ViewportSize = {"width": 1920, "height": 1080}
SMALL: ViewportSize = {"width": 1280, "height": 720}
TEAMS = {
    "青岛队": ["张三", "李四", "王五"],
    "济南队": ["赵六", "钱七", "孙八"],
    "烟台队": ["周一", "吴二", "郑九"],
    "潍坊队": ["冯十", "陈十一", "褚十二"],
}
CLOCK = re.compile(r"^(\d+):(\d\d)$")

# The contrast ratio of two CSS colours (WCAG 2): the wall must read from the back of a room.
CONTRAST_JS = """([sel, bgSel]) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const fg = getComputedStyle(document.querySelector(sel)).color;
  const bg = getComputedStyle(document.querySelector(bgSel)).backgroundColor;
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("wall") / "gouji.db", clock=FastClock(SPEED))
    server.start()
    yield server
    server.stop()


def create(server: LiveServer, **body: Any) -> tuple[str, str]:
    created = api(server, "POST", "/api/events", body)
    return created["code"], created["key"]


# Every text the wall's clock shows, with how many times the page had read the event then.
WATCH_CLOCK = """() => {
  const box = document.getElementById("clock");
  window.shownClock = [];
  new MutationObserver(() => window.shownClock.push([box.textContent, window.gouji.reads]))
    .observe(box, { childList: true, characterData: true, subtree: true });
}"""


def seconds(text: str) -> int:
    m = CLOCK.match(text)
    assert m, f"the clock shows {text!r}"
    return int(m.group(1)) * 60 + int(m.group(2))


def clock_seconds(page: Page) -> int:
    return seconds(page.locator("#clock").inner_text())


def wall_text(page: Page, code: str) -> str:
    """What a reader sees, the event's address under the QR code left out (a code)."""
    text = visible_text(page)
    return text.replace(page.locator("#qr-url").inner_text(), "").replace(code, "")


def assert_zh(page: Page, code: str, where: str) -> None:
    text = wall_text(page, code)
    latin = sorted(set(LATIN_WORD.findall(text)) - LATIN_ALLOWED)
    codes = sorted(set(m.group(0) for m in ENGINE_CODE.finditer(text)))
    assert not latin and not codes, f"{where} (zh) shows {latin + codes}"


def assert_en(page: Page, code: str, where: str, names: tuple[str, ...]) -> None:
    text = wall_text(page, code)
    codes = sorted(set(m.group(0) for m in ENGINE_CODE.finditer(text)))
    lines = [x for x in text.split("\n") if x.strip()]
    assert not codes, f"{where} (en) shows {codes}"
    assert not en_problems(lines, names), f"{where} (en): {en_problems(lines, names)}"


def assert_big_print(page: Page, viewport: ViewportSize, where: str) -> None:
    """The page fits the screen; names and the clock are large; white on black."""
    page.set_viewport_size(viewport)
    page.wait_for_timeout(300)  # the wall lays itself out again after a resize
    width, height = viewport["width"], viewport["height"]
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= width and size[1] <= height, (
        f"{where}: the page is {size}, not {width}x{height}"
    )

    def px(sel: str) -> float:
        v: str = page.locator(sel).first.evaluate("(e) => getComputedStyle(e).fontSize")
        return float(v.removesuffix("px"))

    assert px("#wall-name") >= 0.05 * height, where
    assert px(".wall-team-name") >= 0.035 * height, where  # 38 px at 1080, 25 px at 720
    assert px(".wall-players") >= 0.02 * height, where
    if page.locator("#clock-panel").is_visible():
        assert px("#clock") >= 0.09 * height, where
    contrast = page.evaluate(CONTRAST_JS, [".wall-team-name", ".wall-row"])
    assert contrast >= 7, f"{where}: the team names' contrast is {contrast:.1f}"
    contrast = page.evaluate(CONTRAST_JS, ["#wall-name", "body"])
    assert contrast >= 7, f"{where}: the name's contrast is {contrast:.1f}"


def test_a_real_card_round_on_the_wall_in_chinese(
    fast_server: LiveServer, pages: Pages, shots: Path
) -> None:
    teams = [{"name": n, "players": p} for n, p in TEAMS.items()]
    code, key = create(
        fast_server, name="社区够级赛", preset="MATCH7", format="swiss", mode="paper", teams=teams
    )
    wall = pages.new(None, HD, lang="zh")
    wall.clock.install()  # time flows; `follow` has the page read the event at once
    wall.goto(f"{fast_server.url}/e/{code}/wall")
    expect(wall.locator("#wall-name")).to_have_text("社区够级赛")
    expect(wall.locator("#wall-status")).to_have_text("报名中")
    expect(wall.locator("#tables-h")).to_have_text("还没有抽签")
    expect(wall.locator(".wall-registered li")).to_have_text(list(TEAMS))
    expect(wall.locator("#clock-panel")).to_be_hidden()
    assert_zh(wall, code, "the wall (registration)")
    picture(wall, shots / "event-wall-registering-zh.png")

    # 抽签: the wall follows by itself, a row per table with its number, teams and players
    drawn = api(fast_server, "POST", f"/api/events/{code}/rounds", {}, key)
    follow(wall)
    rows = wall.locator(".wall-row")
    expect(rows).to_have_count(2, timeout=10_000)
    expect(wall.locator("#wall-status")).to_have_text("第 1 轮比赛中")
    expect(wall.locator("#tables-h")).to_have_text("第 1 轮对阵")
    for k, t in enumerate(drawn["tables"], start=1):
        row = wall.locator(f'.wall-row[data-table="{t["id"]}"]')
        expect(row.locator(".wall-no-big")).to_have_text(str(k))
        expect(row.locator(".wall-no-label")).to_have_text(f"第 {k} 场")
        expect(row.locator(".wall-team-name")).to_have_text(t["teams"])
        seats = row.locator(".wall-seat").all_inner_texts()
        assert sorted(seats) == sorted(f"{s + 1} {p}" for s, p in enumerate(t["players"]))
        expect(row.locator(".wall-score-big")).to_have_text("对")
    expect(wall.locator("#standings tbody tr")).to_have_count(4)
    # the QR code: the server's drawing of this page's public address
    host = fast_server.url.removeprefix("http://")
    expect(wall.locator("#qr-url")).to_have_text(f"{host}/e/{code}")
    wait_js(wall, "document.getElementById('qr').naturalWidth > 0")
    svg = wall.request.get(f"{fast_server.url}/api/events/{code}/qr.svg").body()
    assert f"{fast_server.url}/e/{code}".encode() in svg

    # the organiser starts a one-minute clock; the wall counts down to 时间到
    admin = pages.new(None, DESKTOP, lang="zh")
    admin.goto(f"{fast_server.url}/e/{code}/admin#key={key}")
    expect(admin.locator("#clock-now")).to_have_text("没有在计时。")
    admin.locator("#clock-minutes").fill("0")
    admin.locator("#clock-start").click()
    expect(admin.locator("#admin-error")).to_have_text("计时要填 1 到 300 之间的整分钟数")
    admin.locator("#clock-minutes").fill("1")
    admin.locator("#clock-start").click()
    expect(admin.locator("#clock-stop")).to_be_visible()
    expect(admin.locator("#clock-start")).to_have_text("重新计时")
    expect(admin.locator("#clock-now")).to_have_text(
        re.compile(r"^第 1 轮(剩余 \d:\d\d|：时间到)$")
    )
    wall.evaluate(WATCH_CLOCK)
    follow(wall)  # read at once; from here on the wall's time flows as the machine's
    expect(wall.locator("#clock-panel")).to_be_visible(timeout=10_000)
    expect(wall.locator("#clock-label")).to_have_text("本轮剩余时间")
    first = clock_seconds(wall)
    assert 0 < first <= 60
    expect(wall.locator("#clock")).to_have_text("时间到", timeout=15_000)
    # it counted down by itself, second by second, between two readings of the event
    shown: list[tuple[str, int]] = [tuple(x) for x in wall.evaluate("window.shownClock")]
    ticks = [
        (a, b)
        for (a, reads_a), (b, reads_b) in itertools.pairwise(shown)
        if reads_a == reads_b and CLOCK.match(a) and CLOCK.match(b)
    ]
    assert any(seconds(a) - seconds(b) == 1 for a, b in ticks), shown
    expect(wall.locator("#clock-panel")).to_have_attribute("data-state", "up")
    expect(admin.locator("#clock-now")).to_have_text("第 1 轮：时间到", timeout=10_000)
    assert_zh(wall, code, "the wall (time up)")
    for viewport in (HD, SMALL):
        assert_big_print(wall, viewport, f"the wall at {viewport}")
        picture(wall, shots / f"event-wall-zh-{viewport['width']}.png")

    # a result shows at its table; a new clock starts; stopped, it is gone from the wall
    table = drawn["tables"][0]
    sheet = {"game": 0, "places": [1, 2, 3, 4, 5, 6]}
    api(fast_server, "POST", f"/api/events/{code}/tables/{table['id']}/games", sheet, key)
    follow(wall)
    row = wall.locator(f'.wall-row[data-table="{table["id"]}"]')
    expect(row.locator(".wall-score-big")).to_have_text("13 : 8", timeout=10_000)  # R17.3
    expect(row.locator(".wall-note")).to_have_text("已赛 1 局 / 3 局")
    admin.locator("#clock-minutes").fill("40")
    admin.locator("#clock-start").click()
    expect(admin.locator("#clock-now")).to_have_text(re.compile(r"^第 1 轮剩余 "))
    follow(wall)
    expect(wall.locator("#clock")).to_have_text(re.compile(r"^(40:00|3\d:\d\d)$"), timeout=10_000)
    assert_big_print(wall, HD, "the wall with its clock")
    picture(wall, shots / "event-wall-clock-zh-1920.png")
    admin.locator("#clock-stop").click()
    expect(admin.locator("#clock-now")).to_have_text("没有在计时。")
    follow(wall)
    expect(wall.locator("#clock-panel")).to_be_hidden(timeout=10_000)

    # English: the same wall in the page's other language
    wall.locator("#lang").click()
    expect(wall.locator("#wall-status")).to_have_text("Round 1 in play")
    expect(wall.locator("#tables-h")).to_have_text("Round 1 pairings")
    expect(wall.locator(".wall-row .wall-no-label").first).to_have_text("Match 1")
    expect(wall.locator(".qr-scan")).to_have_text("Scan for live results")
    names = ("社区够级赛", *TEAMS, *(p for ps in TEAMS.values() for p in ps))
    assert_en(wall, code, "the wall", names)
    picture(wall, shots / "event-wall-en-1920.png")


def test_an_online_knockout_on_the_wall_and_the_list_of_events(
    fast_server: LiveServer, pages: Pages, shots: Path
) -> None:
    names = ["Lions", "Tigers", "Bears", "Wolves", "Eagles"]
    teams = [{"name": n, "players": [f"{n[:3]} {k}" for k in (1, 2, 3)]} for n in names]
    older, _ = create(
        fast_server, name="Spring Cup", preset="MATCH7", format="swiss", mode="paper", teams=[]
    )
    code, key = create(
        fast_server, name="Club Cup", preset="MATCH7", format="knockout", mode="online", teams=teams
    )
    drawn = api(fast_server, "POST", f"/api/events/{code}/rounds", {}, key)
    assert len(drawn["tables"]) == 1  # 5 teams: three byes make round 2 a power of two
    wall = pages.new(None, SMALL, lang="en")
    wall.goto(f"{fast_server.url}/e/{code}/wall")
    t = drawn["tables"][0]
    row = wall.locator(f'.wall-row[data-table="{t["id"]}"]')
    expect(row.locator(".wall-team-name")).to_have_text(t["teams"])
    expect(row.locator(".wall-no-big")).to_have_text("1")
    byes = sorted(set(names) - set(t["teams"]))
    expect(wall.locator("#wall-byes")).to_contain_text("Bye: ")
    for name in byes:
        expect(wall.locator("#wall-byes")).to_contain_text(name)
    expect(wall.locator("#clock-panel")).to_be_hidden()
    expect(wall.locator("#standings tbody tr")).to_have_count(5)
    words = ("Club Cup", *names, *(p for team in teams for p in team["players"]))
    assert_en(wall, code, "the online wall", words)
    assert_big_print(wall, SMALL, "the online wall")
    picture(wall, shots / "event-wall-online-en-1280.png")

    # the lobby's link to every event; the newest first, each with its wall
    lobby = pages.new("Ada", DESKTOP, lang="en")
    lobby.goto(fast_server.url + "/")
    expect(lobby.locator("#events-all")).to_have_text("All events")
    lobby.locator("#events-all").click()
    lobby.wait_for_url("**/events")
    listed = lobby.locator("#event-list tbody tr")
    codes = [c for c in (listed.first.get_attribute("data-code"),) if c]
    assert codes == [code]
    order = [r.get_attribute("data-code") for r in listed.all()]
    assert order.index(code) < order.index(older)
    newest = lobby.locator(f'#event-list tr[data-code="{code}"]')
    expect(newest).to_contain_text("Club Cup")
    expect(newest).to_contain_text("Knockout")
    expect(newest).to_contain_text("Online")
    expect(newest).to_contain_text("Round 1 in play")
    expect(lobby.locator(f'#event-list tr[data-code="{older}"]')).to_contain_text("Registration")
    assert newest.locator("a.wall").get_attribute("href") == f"/e/{code}/wall"
    assert newest.locator("td.name a").get_attribute("href") == f"/e/{code}"
    picture(lobby, shots / "event-list-en.png")
    lobby.locator("#lang").click()
    expect(lobby.locator("h2")).to_have_text("所有比赛")
    expect(newest).to_contain_text("淘汰赛")
    newest.locator("a.wall").click()
    lobby.wait_for_url(f"**/e/{code}/wall")
    expect(lobby.locator("#tables-h")).to_have_text("第 1 轮对阵")
