"""The event pages (比赛: /events/new, /e/{code}/admin, /e/{code}, /e/{code}/print) in Chromium
against the real server: a real-card knockout run in Chinese through the pages (registration,
抽签, score sheets until a round and then the event is decided, a −2 penalty seen on the public
page and in the standings, printable sheets), an all-bot online event followed on its public
page until its standings, the seat links of an online round, the sheet items of a rule set that
scores them, every refusal the server can give the pages said in words — and every visible
text scanned for engine codes (zh: no Latin word; en: Chinese only as game terms and names).

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots (1280x800 and 390x844).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from gouji.engine.rules import PRESET_NAMES, make_rules

from .eventpages import (
    ENGINE_CODE,
    SAY_REFUSALS_JS,
    assert_en_words,
    assert_zh_words,
    enter_sheet,
    event_json,
    follow,
    forget_refusals,
    match7_scores,
    register,
    wait_status,
)
from .webutil import (
    DESKTOP,
    LATIN_WORD,
    PHONE,
    LiveServer,
    Pages,
    api,  # skips this module where Chromium or Playwright is missing
    expect,
    picture,
    snap,
)

TEAMS = {
    "青岛队": ["张三", "李四", "王五"],
    "济南队": ["赵六", "钱七", "孙八"],
    "烟台队": ["周一", "吴二", "郑九"],
    "潍坊队": ["冯十", "陈十一", "褚十二"],
}
ARTICLE_ZH = "够级比赛 犯规（6）：留牌时一把扔"


def test_sheet_items_agree_with_the_engine(live_server: LiveServer, pages: Pages) -> None:
    """The sheet asks for 不开点, 闷 and burns exactly where the rule set scores them (R17.2,
    R17.4), and only where the rules play 打点 and 憋3."""
    page = pages.new("Ada")
    page.goto(live_server.url + "/events/new")
    items: dict[str, list[str]] = page.evaluate(
        'async () => (await import("/static/js/event-words.js")).SHEET_ITEMS'
    )
    assert list(items) == list(PRESET_NAMES)
    for code, wanted in items.items():
        rules = make_rules(code)
        scored = rules.score_system in ("comp2", "audit6")
        assert wanted == (["not_opened", "men", "burns"] if scored else []), code
        if scored:
            assert rules.dian_enabled and rules.bie3_enabled, code


def test_paper_knockout_in_chinese(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    page = pages.new(None, DESKTOP, lang="zh")
    page.clock.install()  # its toasts go when the test says (before the switch to English)
    page.goto(live_server.url + "/")
    expect(page.locator("#events-link")).to_have_text("组织比赛")
    page.locator("#events-link").click()
    page.wait_for_url("**/events/new")
    expect(page.locator("#new-error")).to_be_empty()
    page.locator("#create").click()  # no name: said in words, nothing sent
    expect(page.locator("#new-error")).to_have_text("请填写比赛名称")
    page.locator("#ev-name").fill("社区够级赛")
    page.locator("#preset").select_option(label="三局比赛")
    page.locator("#format").select_option(label="淘汰赛")
    expect(page.locator("#rounds")).to_be_disabled()
    page.locator("#mode").select_option(label="实体牌")
    expect(page.locator("#online-box")).to_be_hidden()
    assert_zh_words(page, "the new-event page")
    snap(page, shots / "event-new-zh.png", top=True)
    page.locator("#create").click()
    page.wait_for_url("**/e/*/admin")
    code = page.url.split("/e/")[1].split("/")[0]
    key = page.evaluate(f"localStorage.getItem('gouji.event.{code}.key')")
    assert key, "the organiser key is remembered"
    ev = event_json(live_server, code)
    assert (ev["name"], ev["preset"], ev["format"], ev["mode"]) == (
        "社区够级赛",
        "MATCH7",
        "knockout",
        "paper",
    )
    expect(page.locator("#ev-status")).to_have_text("报名中")

    # registration: four teams; a fifth registered and removed; refusals in words
    for name, players in TEAMS.items():
        register(page, name, players)
        expect(page.locator(f'#team-list li[data-team="{name}"]')).to_contain_text(players[0])
    register(page, "青岛队", ["甲", "乙", "丙"])
    expect(page.locator("#admin-error")).to_have_text("已经有一队叫 青岛队。")
    register(page, "日照队", ["张三", "乙", "丙"])
    expect(page.locator("#admin-error")).to_have_text("张三 已经在别的队里了。")
    forget_refusals(pages, 2)
    register(page, "日照队", ["甲", "乙", "丙"])
    expect(page.locator("#team-list li")).to_have_count(5)
    page.locator('#team-list li[data-team="日照队"] button.remove').click()
    expect(page.locator("#team-list li")).to_have_count(4)
    assert_zh_words(page, "the organiser's page (registration)")
    snap(page, shots / "event-admin-teams-zh.png", top=True)

    # 抽签: two matches of one table each
    page.locator("#draw").click()
    expect(page.locator(".ev-tablecard")).to_have_count(2)
    expect(page.locator("#ev-status")).to_have_text("第 1 轮比赛中")
    expect(page.locator("#teams-panel")).to_be_hidden()
    tables = event_json(live_server, code)["tables"]
    first = tables[0]
    card = page.locator(f'.ev-tablecard[data-table="{first["id"]}"]')
    for seat, player in enumerate(first["players"]):
        expect(card.locator("form.sheet tbody tr").nth(seat)).to_contain_text(player)
        expect(card.locator("form.sheet tbody tr").nth(seat)).to_contain_text(str(seat + 1))
    # a sheet that gives a place twice is refused before it is sent
    form = card.locator("form.sheet")
    for seat in range(6):
        form.locator(f'select.place[data-seat="{seat}"]').select_option("1")
    form.locator("button.submit-sheet").click()
    expect(page.locator("#admin-error")).to_have_text("每个名次（头科到大落）要正好给一个人")
    assert event_json(live_server, code)["tables"][0]["games"] == []

    # table 1: team A takes 头科, 三科, 二落 every game; a −2 penalty for its first player
    places = [1, 2, 3, 4, 5, 6]
    a, b = match7_scores(places)
    enter_sheet(page, first["id"], places)
    card.locator("details.sanction-box summary").click()
    sanction = card.locator("form.sanction-form")
    sanction.locator("select.who").select_option("0")
    sanction.locator("select.article").select_option(label=ARTICLE_ZH)
    sanction = card.locator("form.sanction-form")  # redrawn: the article set the kind
    expect(sanction.locator("select.kind")).to_have_value("penalty")
    expect(sanction.locator("input.points")).to_have_value("-2")
    sanction.locator("button.submit-sanction").click()
    expect(page.locator("#sanctions")).to_contain_text(first["players"][0])
    expect(page.locator("#sanctions")).to_contain_text("罚分 −2 分")
    expect(page.locator("#sanctions .when")).to_have_text("下一局")  # counts in game 2
    for _ in range(2):
        enter_sheet(page, first["id"], places)
    expect(page.locator("#sanctions .when")).to_have_text("第 2 局")
    # table 2: team B wins every game
    second = tables[1]
    for _ in range(3):
        enter_sheet(page, second["id"], [2, 1, 4, 3, 6, 5])
    expect(page.locator("#ev-status")).to_have_text("第 1 轮已结束")
    ev = event_json(live_server, code)
    assert [g["team_scores"] for g in ev["tables"][0]["games"]] == [[a, b], [a - 2, b], [a, b]]
    winner_1, winner_2 = first["teams"][0], second["teams"][1]
    assert [m["winner"] for m in ev["rounds"][0]] == [winner_1, winner_2]
    row = next(s for s in ev["standings"] if s["team"] == winner_1)
    assert (row["points"], row["score"]) == (2, 3 * a - 2)
    assert_zh_words(page, "the organiser's page (round over)")
    snap(page, shots / "event-admin-zh.png", top=True)

    # the public page: bracket, the penalty, the standings (名次, 队, 积分, 总分, 胜场, 胜局)
    public = pages.new(None, DESKTOP, lang="zh")
    public.clock.install()
    public.goto(f"{live_server.url}/e/{code}")
    expect(public.locator("#bracket .br-round h3")).to_have_text(["半决赛", "决赛"])
    expect(public.locator("#bracket .br-match.tbd")).to_have_count(1)  # the final, to come
    expect(public.locator("#bracket .br-team.win")).to_have_count(2)
    heads = public.locator("#standings thead th").all_text_contents()
    assert heads == ["名次", "队", "积分", "总分", "胜场", "胜局"]
    cells = public.locator("#standings tbody tr", has_text=winner_1).locator("td")
    expect(cells.nth(2)).to_have_text("2")
    expect(cells.nth(3)).to_have_text(str(3 * a - 2))
    expect(public.locator("#sanctions")).to_contain_text(ARTICLE_ZH)
    expect(public.locator("#sanctions")).to_contain_text("罚分 −2 分")
    expect(public.locator("#results-box")).to_contain_text("罚分 −2")
    expect(public.locator("#live-panel")).to_be_hidden()  # no table playing between rounds
    csv = public.request.get(f"{live_server.url}/api/events/{code}/standings.csv").text()
    assert f"{winner_1},2,{3 * a - 2}" in csv
    assert public.locator("#csv-results").get_attribute("href") == (
        f"/api/events/{code}/results.csv"
    )
    assert_zh_words(public, "the public page")

    # the final; the public page follows by itself
    page.locator("#draw").click()
    expect(page.locator(".ev-tablecard")).to_have_count(1)
    follow(public)
    expect(public.locator("#bracket .br-match.tbd")).to_have_count(0, timeout=15_000)
    expect(public.locator("#live .live-table")).to_have_count(1)
    final = event_json(live_server, code)["tables"][-1]
    for _ in range(3):
        enter_sheet(page, final["id"], places)
    expect(page.locator("#ev-status")).to_have_text("比赛结束")
    champion = final["teams"][0]
    follow(public)
    expect(public.locator("#ev-champion")).to_have_text(f"冠军：{champion}", timeout=15_000)
    expect(public.locator("#standings tbody tr").first).to_contain_text(champion)
    assert_zh_words(public, "the public page (over)")
    snap(public, shots / "event-public-zh.png", top=True)

    # the printable page: standings and a sheet per table, no buttons on paper
    printed = pages.new(None, DESKTOP, lang="zh")
    printed.goto(f"{live_server.url}/e/{code}/print?round=1")
    expect(printed.locator(".sheet-page[data-table]")).to_have_count(2)
    sheet = printed.locator(f'.sheet-page[data-table="{first["id"]}"]')
    expect(sheet.locator(".sheet-table tbody tr.filled")).to_have_count(3)
    expect(sheet.locator(".sheet-table tr.total td").first).to_have_text(str(3 * a - 2))
    expect(sheet.locator(".signatures")).to_contain_text("裁判签字")
    expect(sheet.locator(".signatures")).to_contain_text(f"{first['teams'][0]} 队长签字")
    expect(sheet.locator(".signatures")).to_contain_text(f"{first['teams'][1]} 队长签字")
    expect(sheet.locator(".sheet-sanctions")).to_contain_text(first["players"][0])
    for seat, player in enumerate(first["players"]):
        expect(sheet.locator(".seats-table tbody tr").nth(seat)).to_contain_text(player)
    assert_zh_words(printed, "the print page")
    snap(printed, shots / "event-print-zh.png", top=True)
    printed.emulate_media(media="print")
    expect(printed.locator(".print-bar")).to_be_hidden()
    expect(printed.locator("header.topbar")).to_be_hidden()
    expect(printed.locator(".standings-page #standings")).to_be_visible()
    picture(printed, shots / "event-print-paper-zh.png", full_page=True)

    # the same pages in English show no engine code (the toasts of the Chinese steps gone,
    # as they are a few seconds after the last of them)
    page.clock.fast_forward(60_000)
    page.locator("#lang").click()
    expect(page.locator("#ev-status")).to_have_text("Event over")
    names = ("社区够级赛", *TEAMS, *(p for ps in TEAMS.values() for p in ps))
    names_too = (*names, "日照队", "甲", "乙", "丙")  # the team registered and removed (the log)
    assert_en_words(page, "the organiser's page", names_too)
    public.locator("#lang").click()
    expect(public.locator("#ev-champion")).to_have_text(f"Winner: {champion}")
    expect(public.locator("#sanctions")).to_contain_text(
        "Tournament foul (6): throwing the last cards down at once"
    )
    assert_en_words(public, "the public page", names)


def test_online_bot_event_public_page(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    """Four bot teams online: the public page shows the live tables with a link to watch, and
    the bracket and standings at the end."""
    teams = [
        {"name": f"Bots {i}", "players": [f"B{i}a", f"B{i}b", f"B{i}c"], "bot": "heuristic"}
        for i in (1, 2, 3, 4)
    ]
    body = {
        "name": "Bot Cup",
        "preset": "MATCH7",
        "format": "knockout",
        "mode": "online",
        "games": 1,
        "bot_delay_ms": 10,  # a game lasts a second or two: the page sees it at play
        "next_delay_ms": 0,
        "teams": teams,
    }
    created = api(live_server, "POST", "/api/events", body)
    code, key = created["code"], created["key"]
    page = pages.new("Ada", DESKTOP, lang="en")
    page.clock.install()
    page.goto(f"{live_server.url}/e/{code}")
    expect(page.locator("#ev-status")).to_have_text("Registration")
    drawn = api(live_server, "POST", f"/api/events/{code}/rounds", {}, key)
    rooms = {t["room"] for t in drawn["tables"]}
    follow(page)
    expect(page.locator("#live .live-table")).to_have_count(2, timeout=15_000)
    expect(page.locator("#ev-status")).to_have_text("Round 1 in play")
    hrefs = {a.get_attribute("href") for a in page.locator("#live a.watch").all()}
    assert hrefs == {f"/r/{room}" for room in rooms}
    expect(page.locator("#bracket .br-match.live")).to_have_count(2)
    assert_en_words(page, "the public page (live)")
    snap(page, shots / "event-online-live-en.png", top=True)
    wait_status(live_server, code, "between_rounds")
    api(live_server, "POST", f"/api/events/{code}/rounds", {}, key)
    wait_status(live_server, code, "over")
    winner = event_json(live_server, code)["winner"]
    follow(page)
    expect(page.locator("#ev-champion")).to_have_text(f"Winner: {winner}", timeout=15_000)
    expect(page.locator("#standings tbody tr")).to_have_count(4)
    expect(page.locator("#standings tbody tr").first).to_contain_text(winner)
    expect(page.locator("#live-panel")).to_be_hidden()
    expect(page.locator("#bracket .br-round h3")).to_have_text(["Semi-finals", "Final"])
    assert_en_words(page, "the public page (over)")
    snap(page, shots / "event-online-over-en.png", top=True)


def test_online_round_hands_out_seat_links(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """An online event of people: created on the page (Swiss, two rounds, duplicate), the draw
    gives every player of every table a link; the page without the key asks for it."""
    page = pages.new("Ada", DESKTOP, lang="en")
    page.goto(live_server.url + "/events/new")
    page.locator("#ev-name").fill("Club night")
    page.locator("#format").select_option(label="Swiss")
    page.locator("#rounds").fill("2")
    page.locator("#duplicate").check()
    page.locator("#mode").select_option(label="Online")
    expect(page.locator("#online-box")).to_be_visible()
    page.locator("#bot").select_option(label="Beginner")
    assert_en_words(page, "the new-event page")
    page.locator("#create").click()
    page.wait_for_url("**/e/*/admin")
    code = page.url.split("/e/")[1].split("/")[0]
    ev = event_json(live_server, code)
    assert (ev["format"], ev["mode"], ev["duplicate"], ev["preset"]) == (
        "swiss",
        "online",
        True,
        "MATCH7",
    )
    # a duplicate team of people is six players, two trios (one at each table, both at once)
    expect(page.locator("#six-hint")).to_contain_text("seats 1, 3, 5")
    for name in ("North", "South"):
        register(page, name, [f"{name} {k}" for k in (1, 2, 3, 4, 5, 6)])
        item = page.locator(f'#team-list li[data-team="{name}"]')
        expect(item).to_contain_text("(seats 2, 4, 6)")
    # a bot team: the players named after the team, the bots at the chosen level
    page.locator("#team-name").fill("Robots")
    page.locator("#team-bot").check()
    page.locator("#team-bot-level").select_option(label="Expert")
    page.locator("#team-add").click()
    expect(page.locator('#team-list li[data-team="Robots"]')).to_contain_text("bots (Expert)")
    robots = event_json(live_server, code)["team_list"][2]
    assert (robots["players"], robots["bot"]) == (["Robots 1", "Robots 2", "Robots 3"], "expert")
    page.locator('#team-list li[data-team="Robots"] button.remove').click()
    expect(page.locator("#team-list li")).to_have_count(2)
    page.locator("#draw").click()
    expect(page.locator(".ev-tablecard")).to_have_count(2)  # duplicate: two tables a match
    expect(page.locator("#roster-list li")).to_have_count(2)
    tables = event_json(live_server, code)["tables"]
    for t in tables:
        links = page.locator(f'.ev-tablecard[data-table="{t["id"]}"] .seat-link')
        expect(links).to_have_count(6)
        for seat, player in enumerate(t["players"]):
            expect(links.nth(seat)).to_contain_text(player)
            url = links.nth(seat).locator("input").input_value()
            assert f"/r/{t['room']}?seat={seat + 1}&invite=" in url  # seats 1…6 in links
        watch = page.locator(f'.ev-tablecard[data-table="{t["id"]}"] a.watch')
        expect(watch).to_have_attribute("href", f"/r/{t['room']}")
    assert_en_words(page, "the organiser's page (online)")
    snap(page, shots / "event-links-en.png", top=True)

    # a player opens the link handed out: the table seats that player in that seat by itself;
    # a link with another invitation seats nobody and says why
    t = tables[0]
    seat_link = page.locator(f'.ev-tablecard[data-table="{t["id"]}"] .seat-link').nth(3)
    link = seat_link.locator("input").input_value()
    player = pages.new(None, PHONE, lang="zh")
    player.goto(link if link.startswith("http") else live_server.url + link)
    expect(player.locator("#felt .seat.rel-me")).to_have_count(1)
    expect(player.locator("#felt .seat.rel-me")).to_contain_text(t["players"][3])
    deadline = time.monotonic() + 10
    while live_server.get_json(f"/api/rooms/{t['room']}")["seats"][3]["reserved"]:
        assert time.monotonic() < deadline, "the invited player was not seated"
        time.sleep(0.1)
    assert player.evaluate("window.gouji.state.seat") == 3
    stranger = pages.new(None, PHONE, lang="zh")
    bad = link.rsplit("invite=", 1)[0] + "invite=" + "x" * 43
    bad = bad.replace("seat=4", "seat=5")
    stranger.goto(bad if bad.startswith("http") else live_server.url + bad)
    expect(stranger.locator(".toast.error")).to_contain_text("入座链接不对")
    assert stranger.evaluate("window.gouji.state.seat") is None

    # another browser: no key — the page asks; a wrong key is refused in words
    other = pages.new(None, PHONE, lang="zh")
    other.goto(f"{live_server.url}/e/{code}/admin")
    expect(other.locator("#key-form")).to_be_visible()
    expect(other.locator(".seat-link")).to_have_count(0)
    expect(other.locator(".ev-tablecard")).to_have_count(2)  # the tables, read only
    expect(other.locator("details.sanction-box")).to_have_count(0)
    other.locator("#key-input").fill("not-the-key")
    other.locator("#key-save").click()
    expect(other.locator("#admin-error")).to_have_text(
        "密钥不对：不是这场比赛的组织者或裁判密钥（裁判密钥可能已经收回）。"
    )
    expect(other.locator("#key-form")).to_be_visible()  # asked again
    expect(other.locator("details.sanction-box")).to_have_count(0)
    forget_refusals(pages, 1)  # the wrong key, asked about
    assert other.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_sheet_items_of_a_scoring_rule_set(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """COMP2 with real cards (R17.2): the sheet asks for 不开点, 闷 and burns, the server
    scores them; MATCH7's sheet asks for places only."""
    body = {
        "name": "Contest",
        "preset": "COMP2",
        "format": "round_robin",
        "mode": "paper",
        "games": 2,
        "teams": [
            {"name": "East", "players": ["Ann", "Ben", "Cat"]},
            {"name": "West", "players": ["Dan", "Eve", "Fay"]},
        ],
    }
    created = api(live_server, "POST", "/api/events", body)
    code, key = created["code"], created["key"]
    page = pages.new("Ada", DESKTOP, lang="en")
    page.goto(f"{live_server.url}/e/{code}/admin#key={key}")
    expect(page.locator("#key-known")).to_be_visible()  # taken from the address
    assert page.evaluate("location.hash") == ""
    page.locator("#draw").click()
    card = page.locator(".ev-tablecard")
    expect(card).to_have_count(1)
    table = event_json(live_server, code)["tables"][0]
    form = card.locator("form.sheet")
    expect(form.locator("thead th")).to_have_text(
        ["Seat", "Player", "Place", "Not opened", "闷", "Penalty"]
    )
    for seat, place in enumerate([2, 1, 6, 3, 4, 5]):
        form.locator(f'select.place[data-seat="{seat}"]').select_option(str(place))
    form.locator('input.not_opened[data-seat="2"]').check()
    form.locator('input.men[data-seat="2"]').check()
    form.locator("button.add-burn").click()
    form = card.locator("form.sheet")  # redrawn with the burn: burner seat 1 → victim seat 2
    burn = form.locator("li.burn").first
    burn.locator("select").first.select_option("1")
    burn = card.locator("form.sheet li.burn").first
    burn.locator("select").nth(1).select_option("0")
    assert_en_words(page, "the COMP2 sheet", ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"))
    card.locator("form.sheet").scroll_into_view_if_needed()
    picture(page, shots / "event-sheet-comp2-en.png")
    card.locator("form.sheet button.submit-sheet").click()
    expect(page.locator("dialog#ask .pv-score")).to_contain_text("−1 : 4")  # before it is kept
    page.locator("dialog#ask button.ask-ok").click()
    expect(card.locator("form.sheet h4")).to_have_text("Enter game 2")
    games = event_json(live_server, code)["tables"][0]["games"]
    # places 2,1,6,3,4,5: A 1 − 2 + 0 = −1; B 2 + 0 − 1 = 1, + 闷, 不开点 and the burn = 4
    assert games[0]["team_scores"] == [-1, 4], (table["teams"], games)
    # a burn of a teammate cannot be chosen; the server's refusal of a game twice is in words
    resp = page.request.post(
        f"{live_server.url}/api/events/{code}/tables/{table['id']}/games",
        data=json.dumps({"game": 0, "places": [1, 2, 3, 4, 5, 6]}),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    assert resp.status == 409
    words = page.evaluate(
        """async (msg) => (await import("/static/js/event-words.js")).refusalText(409, msg)""",
        resp.json()["message"],
    )
    assert words == "Match 1 already has a result for game 1."

    # the public page of a round robin: the pairings of each round
    public = pages.new(None, DESKTOP, lang="en")
    public.clock.install()
    public.goto(f"{live_server.url}/e/{code}")
    expect(public.locator("#rounds-h")).to_have_text("Pairings")
    row = public.locator("#pairings tr").first
    expect(row).to_contain_text(table["teams"][0])
    expect(row).to_contain_text("−1 : 4")
    expect(row).to_contain_text("1 of 2 games played")

    # the organiser ends the event: no more sheets; the public page says so by itself
    page.locator("#close").click()
    expect(page.locator("dialog#ask")).to_contain_text("not finished")
    page.locator("dialog#ask button.ask-ok").click()
    expect(page.locator("#ev-status")).to_have_class(re.compile(r"\bst-over\b"))
    expect(page.locator("#ended-note")).to_have_text(
        "The event was ended unfinished: no winner; the standings are as they stood at the end."
    )
    expect(page.locator("form.sheet")).to_have_count(0)
    expect(page.locator("#close-panel")).to_be_hidden()
    ev = event_json(live_server, code)
    assert (ev["status"], ev["unfinished"], ev["winner"]) == ("over", True, None)
    follow(public)
    expect(public.locator("#ev-status")).to_have_class(re.compile(r"\bst-over\b"), timeout=15_000)
    expect(row).to_contain_text("not finished")
    assert_en_words(public, "the public page (round robin)", ("Ann", "Ben", "Cat"))
    snap(public, shots / "event-pairings-en.png", top=True)


def refusal(server: LiveServer, method: str, path: str, body: Any, key: str | None) -> list[Any]:
    """[status, message] of a request the server refuses."""
    try:
        api(server, method, path, body, key)
    except urllib.error.HTTPError as e:
        data = json.load(e)
        return [e.code, data["message"]]
    raise AssertionError(f"{method} {path} {body} was accepted")


def test_every_refusal_is_said_in_words(live_server: LiveServer, pages: Pages) -> None:
    """What the server answers to what the pages can send, in Chinese words (not a generic
    refusal) and in English without engine codes."""
    good = {"name": "Cup", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
    sent: list[tuple[str, str, Any, str | None]] = [
        ("POST", "/api/events", {**good, "name": " "}, None),
        ("POST", "/api/events", {**good, "name": "x" * 41}, None),
        ("POST", "/api/events", {**good, "games": 30}, None),
        ("POST", "/api/events", {**good, "format": "round_robin", "rounds": 99}, None),
        ("POST", "/api/events", {**good, "rounds": 2}, None),
    ]
    created = api(live_server, "POST", "/api/events", good)
    code, key = created["code"], created["key"]
    base = f"/api/events/{code}"
    refusals = [refusal(live_server, *x) for x in sent]
    team = {"name": "A", "players": ["a1", "a2", "a3"]}
    api(live_server, "POST", base + "/teams", team, key)
    for body in (
        team,
        {"name": "B", "players": ["a1", "b2", "b3"]},
        {"name": "B", "players": ["b1", "b1", "b3"]},
        {"name": "B", "players": ["b1", "b2"]},
        {"name": "B", "players": ["b1", "b2", " "]},
        {"name": " ", "players": ["b1", "b2", "b3"]},
    ):
        refusals.append(refusal(live_server, "POST", base + "/teams", body, key))
    refusals.append(refusal(live_server, "POST", base + "/rounds", {}, key))
    refusals.append(refusal(live_server, "POST", base + "/rounds", {}, "wrong-key"))
    refusals.append(refusal(live_server, "POST", base + "/rounds", {}, None))
    refusals.append(refusal(live_server, "GET", "/api/events/NOSUCHEV", None, None))
    api(live_server, "POST", base + "/teams", {"name": "B", "players": ["b1", "b2", "b3"]}, key)
    api(live_server, "POST", base + "/rounds", {}, key)
    table = event_json(live_server, code)["tables"][0]["id"]
    games = f"{base}/tables/{table}/games"
    sanctions = f"{base}/tables/{table}/sanctions"
    places = [1, 2, 3, 4, 5, 6]
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", base + "/teams", {"name": "C", "players": ["c1", "c2", "c3"]}),
        ("POST", base + "/rounds", {}),
        ("POST", games, {"game": 0, "places": places, "not_opened": [1]}),
        ("POST", games, {"game": 0, "places": places, "men": [1]}),
        ("POST", games, {"game": 1, "places": places}),
        ("POST", games, {"game": 0, "places": [1, 1, 3, 4, 5, 6]}),
        ("POST", sanctions, {"kind": "penalty", "seat": 0, "points": 0}),
        ("POST", sanctions, {"kind": "warning", "seat": 0, "article": "x" * 81}),
    ]
    for method, path, data in calls:
        refusals.append(refusal(live_server, method, path, data, key))
    api(live_server, "POST", games, {"game": 0, "places": places}, key)
    refusals.append(refusal(live_server, "POST", games, {"game": 0, "places": places}, key))
    api(live_server, "POST", base + "/close", {}, key)
    refusals.append(refusal(live_server, "POST", base + "/close", {}, key))
    refusals.append(refusal(live_server, "POST", games, {"game": 1, "places": places}, key))

    page = pages.new("Ada", DESKTOP, lang="zh")
    page.goto(f"{live_server.url}/e/{code}")
    said: dict[str, list[str]] = page.evaluate(
        SAY_REFUSALS_JS,
        refusals,
    )
    generic = re.compile(r"服务器没有接受这个操作")
    bad = []
    for (status, message), zh, en in zip(refusals, said["zh"], said["en"], strict=True):
        latin = set(LATIN_WORD.findall(zh)) - {"a1", "b1"}
        if latin or generic.search(zh) or ENGINE_CODE.search(en):
            bad.append(f"{status} {message!r} → {zh!r} / {en!r}")
    assert not bad, "\n".join(bad)
