"""The organiser's and referees' page (/e/{code}/admin) in Chromium against the real server,
in Chinese and English: a real-card sheet with its 罚分 column previewed and confirmed, refused
in words, corrected (the winner changes on the page) and voided, the audit log saying who did
what, a lost answer retried under the same Idempotency-Key and a double click recorded once; a
sanction for a registered game with the repeat flag and the outline's next step proposed,
closing an unfinished event; a referee's key issued, used in another browser (its tables only)
and revoked; a duplicate team of six with substitutes and a seed, a walkover, a 换人 between
matches, the new-event page's third-place and sequential options; and every new refusal of
the server in words.

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots (1280x800 and 390x844).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gouji.competition.discipline import next_step

from .eventpages import (
    ENGINE_CODE,
    SAY_REFUSALS_JS,
    assert_en_words,
    assert_zh_words,
    event_json,
    forget_refusals,
    match7_scores,
)
from .webutil import (
    DESKTOP,
    LATIN_WORD,
    PHONE,
    LiveServer,
    Page,
    Pages,
    api,  # skips this module where Chromium or Playwright is missing
    en_problems,
    expect,
    picture,
    snap,
)

if TYPE_CHECKING:
    from playwright.sync_api import Request, Route

TEAMS = {
    "青岛队": ["张三", "李四", "王五"],
    "济南队": ["赵六", "钱七", "孙八"],
    "烟台队": ["周一", "吴二", "郑九"],
    "潍坊队": ["冯十", "陈十一", "褚十二"],
}
NAMES = ("够级公开赛", *TEAMS, *(p for ps in TEAMS.values() for p in ps))
ARTICLE_ZH = "够级比赛 犯规（6）：留牌时一把扔"
WRITES = ("POST", "PUT", "DELETE")
ASK = "dialog#ask"


def paper_event(server: LiveServer, **more: Any) -> tuple[str, str]:
    """A real-card MATCH7 event of the four teams, created through the API: (code, key)."""
    body = {
        "name": "够级公开赛",
        "preset": "MATCH7",
        "format": "knockout",
        "mode": "paper",
        "teams": [{"name": n, "players": p} for n, p in TEAMS.items()],
        **more,
    }
    created = api(server, "POST", "/api/events", body)
    return created["code"], created["key"]


def admin(
    pages: Pages, server: LiveServer, code: str, key: str, lang: str, size: Any = DESKTOP
) -> Page:
    """The organiser's page opened with its key in the address (as the creation leaves it)."""
    page = pages.new(None, size, lang=lang)
    page.goto(f"{server.url}/e/{code}/admin#key={key}")
    expect(page.locator("#key-known")).to_be_visible()
    return page


def card(page: Page, table: str) -> Any:
    return page.locator(f'.ev-tablecard[data-table="{table}"]')


def fill_places(page: Page, table: str, places: list[int], mode: str = "next") -> None:
    form = card(page, table).locator(f'form.sheet[data-mode="{mode}"]')
    for seat, place in enumerate(places):
        form.locator(f'select.place[data-seat="{seat}"]').select_option(str(place))


def writes_of(page: Page) -> list[tuple[str, str, str | None]]:
    """Every change the page sends to the events API: (method, path, Idempotency-Key)."""
    sent: list[tuple[str, str, str | None]] = []

    def seen(request: Request) -> None:
        if request.method in WRITES and "/api/events/" in request.url:
            path = re.sub(r"^https?://[^/]+", "", request.url)
            sent.append((request.method, path, request.headers.get("idempotency-key")))

    page.on("request", seen)
    return sent


def refused(server: LiveServer, method: str, path: str, body: Any, key: str | None) -> list[Any]:
    """[status, message] of a request the server refuses."""
    try:
        api(server, method, path, body, key)
    except urllib.error.HTTPError as e:
        return [e.code, json.load(e)["message"]]
    raise AssertionError(f"{method} {path} {body} was accepted")


def keyed(server: LiveServer, method: str, path: str, body: Any, key: str, idem: str) -> int:
    """The status of a change sent with an Idempotency-Key."""
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
    headers["Idempotency-Key"] = idem
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(server.url + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status: int = r.status
            return status
    except urllib.error.HTTPError as e:
        return e.code


def test_sheet_preview_correction_void_and_the_log(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """A sheet with a −2 in its 罚分 column is previewed (the scores it gives) and confirmed; a
    sheet against a 罚为大落 is refused in words before anything is kept; a correction turns
    the match's winner around on the page; the table's last sheet is voided; the log says who
    did what; a lost answer is retried under the same Idempotency-Key and a double click on the
    confirmation registers once; once the next round is drawn the results stand."""
    code, key = paper_event(live_server, games=1)
    page = admin(pages, live_server, code, key, "zh")
    sent = writes_of(page)
    page.locator("#draw").click()
    expect(page.locator(".ev-tablecard")).to_have_count(2)
    ev = event_json(live_server, code)
    first, second = ev["tables"]
    names = first["players"]
    a, b = first["teams"]

    # 罚为大落 for the player at seat 3, then a sheet that places him first: refused in words
    box = card(page, first["id"])
    box.locator("details.sanction-box summary").click()
    sanction = box.locator("form.sanction-form")
    sanction.locator("select.who").select_option("2")
    expect(box.locator("form.sanction-form .history")).to_have_text(
        f"{names[2]} 之前没有受过处罚。"
    )
    box.locator("form.sanction-form select.kind").select_option("last_place")
    box.locator("form.sanction-form button.submit-sanction").click()
    expect(page.locator("#sanctions")).to_contain_text("罚为大落")
    fill_places(page, first["id"], [2, 3, 1, 4, 5, 6])
    box.locator("button.submit-sheet").click()
    expect(page.locator("#admin-error")).to_have_text(
        "第 1 场 第 1 局：3号位 被罚为大落，计分表上必须排在最后（大落）。"
    )
    expect(page.locator(ASK)).to_be_hidden()
    forget_refusals(pages, 1)
    assert event_json(live_server, code)["tables"][0]["games"] == []

    # the sheet with a −2 for the player at seat 1 (the article chosen): the confirmation
    places = [1, 3, 6, 4, 2, 5]  # seat 3 is 大落, as sanctioned; the first team ahead
    sa, sb = match7_scores(places)
    fill_places(page, first["id"], places)
    box.locator('input.pen[data-seat="0"]').check()
    pen = box.locator('tr.pen-row[data-seat="0"]')
    expect(pen.locator("input.pen-points")).to_have_value("-2")
    pen.locator("select.pen-article").select_option(label=ARTICLE_ZH)
    box.locator("button.submit-sheet").click()
    ask = page.locator(ASK)
    expect(ask.locator(".ask-title")).to_have_text("登记 第 1 场 第 1 局？")
    expect(ask.locator(".pv-score")).to_have_text(f"这一局： {a} {sa - 2} : {sb} {b}")
    expect(ask.locator(".pv-pens")).to_contain_text(f"{names[0]}（{a}） −2 分")
    expect(ask.locator(".pv-match")).to_contain_text(f"{a} 赢得本场")
    assert event_json(live_server, code)["tables"][0]["games"] == []  # nothing kept yet
    assert_zh_words(page, "the sheet's confirmation")
    picture(page, shots / "event-admin-confirm-zh.png")
    page.set_viewport_size(PHONE)
    picture(page, shots / "event-admin-confirm-zh-phone.png")
    page.set_viewport_size(DESKTOP)
    ask.locator("button.ask-cancel").click()  # 返回修改: the form as it was
    expect(ask).to_be_hidden()
    expect(box.locator('select.place[data-seat="2"]')).to_have_value("6")

    # a lost answer: the server registered the sheet, the page never heard; 确认登记 again
    # sends the same Idempotency-Key, and the server answers as the first time
    lost: list[str | None] = []

    def lose_first(route: Route, request: Request) -> None:
        lost.append(request.headers.get("idempotency-key"))
        if len(lost) == 1:
            route.fetch()
            route.abort()
        else:
            route.continue_()

    page.route(f"**/api/events/{code}/tables/{first['id']}/games", lose_first)
    box.locator("button.submit-sheet").click()
    ask.locator("button.ask-ok").click()
    expect(ask.locator(".ask-error")).to_have_text("连不上服务器，请稍后再试。")
    forget_lost = [e for e in pages.errors if "ERR_FAILED" in e]
    for e in forget_lost:
        pages.errors.remove(e)
    ask.locator("button.ask-ok").click()
    expect(ask).to_be_hidden()
    page.unroute(f"**/api/events/{code}/tables/{first['id']}/games")
    assert len(lost) == 2 and lost[0] and lost[0] == lost[1]
    game = event_json(live_server, code)["tables"][0]["games"]
    assert [g["team_scores"] for g in game] == [[sa - 2, sb]]
    assert game[0]["penalties"][0]["article"] == ARTICLE_ZH
    row = box.locator("table.games tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(7)).to_contain_text(str(sa - 2))
    expect(box.locator(".tc-head .outcome")).to_have_text(f"{a} 胜")

    # 改正: the form prefilled from the sheet; the corrected scores hand the match to B
    box.locator("button.correct-game").click()
    fix = box.locator('form.sheet[data-mode="fix"]')
    expect(fix.locator("h4")).to_have_text("改正第 1 局")
    expect(fix.locator('select.place[data-seat="2"]')).to_have_value("6")
    expect(fix.locator('select.place[data-seat="5"]')).to_have_value("5")
    corrected = [2, 1, 6, 3, 5, 4]  # the second team ahead
    ca, cb = match7_scores(corrected)
    fill_places(page, first["id"], corrected, "fix")
    fix.locator("button.submit-sheet").click()
    expect(ask.locator(".pv-was")).to_have_text(f"原来： {a} {sa - 2} : {sb} {b}")
    expect(ask.locator(".pv-score")).to_have_text(f"改正后： {a} {ca - 2} : {cb} {b}")
    expect(ask.locator(".pv-change")).to_have_text(f"本场胜方改变：{a} → {b}")
    expect(ask.locator(".pv-places tr.changed")).to_have_count(6 - 1)  # seat 3 stays 大落
    picture(page, shots / "event-admin-correct-zh.png")
    ask.locator("button.ask-ok").click()
    expect(box.locator(".tc-head .outcome")).to_have_text(f"{b} 胜")
    expect(box.locator('form.sheet[data-mode="fix"]')).to_have_count(0)
    assert event_json(live_server, code)["rounds"][0][0]["winner"] == b

    # 作废: the last sheet goes, the match is open again and its sheet is back
    box.locator("button.void-game").click()
    expect(ask.locator(".ask-title")).to_have_text("作废 第 1 场 第 1 局？")
    ask.locator("button.ask-ok").click()
    expect(box.locator("table.games")).to_have_count(0)
    expect(box.locator('form.sheet[data-mode="next"] h4')).to_have_text("登记第 1 局")
    assert event_json(live_server, code)["tables"][0]["games"] == []

    # the −2 of the voided sheet still counts in game 1: the blank sheet says so
    expect(box.locator("p.sheet-pending")).to_have_text(
        f"已经算在这一局的处罚（不用再填）：{names[2]} 罚为大落、{names[0]} −2 分"
    )
    expect(box.locator('input.pen[data-seat="0"]')).not_to_be_checked()
    # a double click on 确认登记 registers the sheet once
    fill_places(page, first["id"], places)
    box.locator("button.submit-sheet").click()
    ask.locator("button.ask-ok").dblclick()
    expect(box.locator("table.games tbody tr")).to_have_count(1)
    expect(ask).to_be_hidden()
    game = event_json(live_server, code)["tables"][0]["games"]
    assert [(g["team_scores"], len(g["penalties"])) for g in game] == [([sa - 2, sb], 1)]
    # the other match: B wins it
    fill_places(page, second["id"], [2, 1, 4, 3, 6, 5])
    card(page, second["id"]).locator("button.submit-sheet").click()
    ask.locator("button.ask-ok").click()
    expect(page.locator("#ev-status")).to_have_text("第 1 轮已结束")
    log = api(live_server, "GET", f"/api/events/{code}/log", key=key)
    assert [e["action"] for e in log if e["action"] in ("sheet", "correct", "void")] == [
        "sheet",
        "correct",
        "void",
        "sheet",
        "sheet",
    ]

    # the log panel: who, what, where, before → after
    rows = page.locator("#log tbody tr")
    expect(rows.first).to_contain_text("组织者")
    correct = page.locator("#log tr.a-correct")
    expect(correct).to_contain_text("改正成绩")
    expect(correct.locator("td.where")).to_have_text("第 1 轮 · 第 1 场 · 第 1 局")
    expect(correct.locator("td.change")).to_have_text(
        f"{a} {sa - 2} : {sb} {b}（罚分 −2） → {a} {ca - 2} : {cb} {b}（罚分 −2）"
    )
    expect(page.locator("#log tr.a-void td.change")).to_contain_text("作废")
    expect(page.locator("#log tr.a-sanction td.change").last).to_contain_text(
        f"{names[2]}（{a}） 罚为大落"
    )
    expect(page.locator("#log tr.a-draw td.change")).to_contain_text(" 对 ")
    assert_zh_words(page, "the organiser's page (log)")
    page.locator("#log-panel").scroll_into_view_if_needed()
    picture(page, shots / "event-admin-log-zh.png")

    # every change the page sent carried an Idempotency-Key (the preview changes nothing)
    changes = [(m, p, k) for m, p, k in sent if not p.endswith("/preview")]
    assert changes and all(k for _, _, k in changes), changes
    assert len({k for _, _, k in changes}) == len(changes) - 1  # the retried one, twice

    # the next round is drawn: round 1's results stand (no 改正 on the page; the API says 409)
    page.locator("#draw").click()
    expect(page.locator(".ev-tablecard")).to_have_count(1)
    expect(page.locator("button.correct-game")).to_have_count(0)
    status, message = refused(
        live_server,
        "PUT",
        f"/api/events/{code}/tables/{first['id']}/games/0",
        {"places": places},
        key,
    )
    assert status == 409
    words = page.evaluate(
        'async (m) => (await import("/static/js/event-words.js")).refusalText(409, m)', message
    )
    assert words == "第 1 场 是前一轮的桌：下一轮已经抽签，前一轮的成绩不能再改。"
    snap(page, shots / "event-admin-round2-zh.png")


def test_sanction_for_a_registered_game_and_closing_unfinished(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """A warning, then a −2 for game 1 already entered: the form says the player was
    sanctioned before and proposes the outline's next step (pre-selected); the game's score
    changes; the repeat offender is flagged. Closing the event while round 1 is open names
    the open matches and says it ended unfinished, with no winner."""
    code, key = paper_event(live_server, games=2, format="round_robin")
    page = admin(pages, live_server, code, key, "en")
    page.locator("#draw").click()
    expect(page.locator(".ev-tablecard")).to_have_count(2)
    first = event_json(live_server, code)["tables"][0]
    tid, names = first["id"], first["players"]
    a, b = first["teams"]
    box = card(page, tid)
    box.locator("details.sanction-box summary").click()
    box.locator("form.sanction-form select.who").select_option("1")
    box.locator("form.sanction-form select.article").select_option(
        label="Art. 30: passing information between partners"
    )
    expect(box.locator("form.sanction-form select.kind")).to_have_value("warning")
    box.locator("form.sanction-form button.submit-sanction").click()
    expect(page.locator("#sanctions")).to_contain_text(names[1])
    places = [2, 1, 4, 3, 6, 5]
    sa, sb = match7_scores(places)
    fill_places(page, tid, places)
    box.locator("button.submit-sheet").click()
    page.locator(f"{ASK} button.ask-ok").click()
    expect(box.locator("table.games tbody tr")).to_have_count(1)

    # the same player again, for game 1 (entered): earlier sanctions said, 罚分 proposed
    form = box.locator("form.sanction-form")
    form.locator("select.game").select_option("0")
    expect(box.locator("form.sanction-form select.kind option[value=last_place]")).to_be_disabled()
    box.locator("form.sanction-form select.who").select_option("1")
    history = box.locator("form.sanction-form .history")
    expect(history).to_have_text(
        f"Repeat offence. Earlier sanctions of {names[1]}: 1 (Warning). "
        "The rules propose: Penalty points."
    )
    expect(box.locator("form.sanction-form select.kind")).to_have_value("penalty")
    points = box.locator("form.sanction-form input.points")
    expect(points).to_have_value("-2")
    points.fill("2")  # a bonus is no penalty: said before anything is sent
    box.locator("form.sanction-form button.submit-sanction").click()
    expect(page.locator("#admin-error")).to_have_text(
        "Penalty points are a negative whole number from −1 to −100."
    )
    points.fill("-2")
    box.locator("form.sanction-form button.submit-sanction").click()
    expect(page.locator(".toast").last).to_contain_text("this player's sanction no. 2")
    expect(box.locator("table.games tbody tr td").nth(8)).to_have_text(f"{sb - 2}*")
    ev = event_json(live_server, code)
    assert ev["tables"][0]["games"][0]["team_scores"] == [sa, sb - 2]
    assert ev["sanctions"][-1]["game"] == 0 and ev["sanctions"][-1]["repeat"] == 1
    offender = page.locator("#offenders li.offender")
    expect(offender).to_have_count(1)
    expect(offender).to_contain_text(f"{names[1]} ({b}) 2 sanctions: Warning, Penalty points")
    expect(offender.locator(".proposal")).to_have_text("next step proposed: Placed last (大落)")
    # choosing him once more proposes 罚为大落: for the next game (a registered one takes
    # only a warning or points)
    box.locator("form.sanction-form select.game").select_option("")
    box.locator("form.sanction-form select.who").select_option("1")
    expect(box.locator("form.sanction-form select.kind")).to_have_value("last_place")
    assert_en_words(page, "the sanctions", NAMES)
    box.locator("form.sanction-form").scroll_into_view_if_needed()
    picture(page, shots / "event-admin-sanction-en.png")

    # the end before round 1 is over: the open matches named, then no winner
    page.locator("#close").click()
    ask = page.locator(ASK)
    expect(ask.locator(".close-open li")).to_have_count(2)
    expect(ask.locator(".close-open li").first).to_have_text(f"Match 1 ({a} vs {b})")
    expect(ask).to_contain_text("Ending now leaves the event unfinished: no winner")
    picture(page, shots / "event-admin-close-en.png")
    ask.locator("button.ask-ok").click()
    expect(page.locator("#ended-note")).to_have_text(
        "The event was ended unfinished: no winner; the standings are as they stood at the end."
    )
    ev = event_json(live_server, code)
    assert (ev["status"], ev["unfinished"], ev["winner"]) == ("over", True, None)
    expect(page.locator("#log tr.a-close td.change")).to_have_text(
        "ended unfinished: Match 1, Match 2 not finished"
    )
    assert_en_words(page, "the organiser's page (closed)", NAMES)


def test_a_referee_key_issued_used_and_revoked(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """The organiser issues 王's key for match 2: shown once with its link; in another browser
    the link opens a referee's page with match 2's table only (no draw, close, teams,
    referees, clock, log, seat links), where a sheet is entered; the log names 裁判 王; once
    revoked, the key is refused in words and asked for again."""
    code, key = paper_event(live_server, games=1)
    api(live_server, "POST", f"/api/events/{code}/rounds", {}, key)
    page = admin(pages, live_server, code, key, "zh")
    page.locator("#ref-name").fill("王")
    page.locator("#ref-matches").fill("2")
    page.locator("#ref-add").click()
    issued = page.locator("#ref-issued")
    expect(issued).to_contain_text("裁判 王 的密钥（第 2 场）")
    link = issued.locator("input.ref-url").input_value()
    assert link.startswith(live_server.url + f"/e/{code}/admin#key=")
    expect(page.locator(".ref-list li.referee")).to_have_count(1)
    expect(page.locator(".ref-list li.referee")).to_contain_text("王 第 2 场")
    assert_zh_words(page, "the referees panel")
    page.locator("#referees-panel").scroll_into_view_if_needed()
    picture(page, shots / "event-admin-referee-key-zh.png")
    page.locator("button.ref-done").click()
    expect(page.locator("#ref-issued")).to_have_count(0)  # shown once
    # the key is not in the organiser's list, nor anywhere the server answers again
    listed = api(live_server, "GET", f"/api/events/{code}/referees", key=key)
    assert "key" not in listed[0] and "hash" not in listed[0]

    referee = pages.new(None, PHONE, lang="zh")
    referee.goto(link)
    expect(referee.locator("#page-title")).to_have_text("裁判页面")
    expect(referee.locator("#key-title")).to_have_text("裁判密钥：王（第 2 场）")
    assert referee.evaluate("location.hash") == ""
    second = event_json(live_server, code)["tables"][1]
    expect(referee.locator(".ev-tablecard")).to_have_count(1)
    expect(referee.locator(f'.ev-tablecard[data-table="{second["id"]}"]')).to_be_visible()
    for hidden in (
        "#draw-panel",
        "#close-panel",
        "#teams-panel",
        "#roster-panel",
        "#referees-panel",
        "#clock-panel",
        "#log-panel",
    ):
        expect(referee.locator(hidden)).to_be_hidden()
    expect(referee.locator(".seat-links")).to_have_count(0)
    expect(referee.locator("#tables-h")).to_have_text("第 1 轮 · 你管的桌")
    places = [1, 2, 3, 4, 5, 6]
    fill_places(referee, second["id"], places)
    card(referee, second["id"]).locator("button.submit-sheet").click()
    referee.locator(f"{ASK} button.ask-ok").click()
    expect(card(referee, second["id"]).locator("table.games tbody tr")).to_have_count(1)
    assert_zh_words(referee, "the referee's page")
    snap(referee, shots / "event-referee-zh.png")
    # the referee's key does nothing at another match (the server says why)
    first = event_json(live_server, code)["tables"][0]
    status, message = refused(
        live_server,
        "POST",
        f"/api/events/{code}/tables/{first['id']}/games",
        {"game": 0, "places": places},
        link.split("#key=")[1],
    )
    assert status == 403
    words = referee.evaluate(
        'async (m) => (await import("/static/js/event-words.js")).refusalText(403, m)', message
    )
    assert words == "裁判 王 不管第 1 场。"

    # the organiser's log: 裁判 王 entered the sheet
    page.reload()
    entry = page.locator("#log tr.a-sheet")
    expect(entry.locator("td.who")).to_have_text("裁判 王")
    expect(entry.locator("td.where")).to_have_text("第 1 轮 · 第 2 场 · 第 1 局")
    expect(page.locator("#log tr.a-referee td.change")).to_have_text("王（第 2 场）")

    # revoked: the referee's next step is refused in words, and the page asks for a key
    page.locator(".ref-list li.referee button.revoke").click()
    ask = page.locator(ASK)
    expect(ask.locator(".ask-title")).to_have_text("收回裁判 王 的密钥？")
    ask.locator("button.ask-ok").click()
    expect(page.locator(".ref-list li.referee.revoked")).to_contain_text("已收回")
    expect(page.locator("#log tr.a-revoke_referee td.what")).to_have_text("收回裁判密钥")
    box = card(referee, second["id"])
    box.locator("details.sanction-box summary").click()
    box.locator("form.sanction-form select.who").select_option("0")
    box.locator("form.sanction-form button.submit-sanction").click()
    expect(referee.locator("#admin-error")).to_have_text(
        "密钥不对：不是这场比赛的组织者或裁判密钥（裁判密钥可能已经收回）。"
    )
    expect(referee.locator("#key-form")).to_be_visible()
    expect(referee.locator("details.sanction-box")).to_have_count(0)
    forget_refusals(pages, 1)
    assert len(event_json(live_server, code)["sanctions"]) == 0


def test_duplicate_teams_of_six_substitutes_and_a_walkover(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """The new-event page: 季军赛 for a knockout only, 两桌先后打 with duplicate only (said
    what it is for). A duplicate knockout registers six players a team (two trios, said so),
    with substitutes and a seed; a double click registers once; a walkover ends a match before
    any game; between matches a substitute is swapped in."""
    page = pages.new(None, DESKTOP, lang="zh")
    page.goto(live_server.url + "/events/new")
    page.locator("#ev-name").fill("复式邀请赛")
    page.locator("#format").select_option(label="循环赛")
    expect(page.locator("#third-place-box")).to_be_hidden()
    page.locator("#format").select_option(label="淘汰赛")
    expect(page.locator("#third-place-box")).to_be_visible()
    expect(page.locator("#sequential-box")).to_be_hidden()
    page.locator("#duplicate").check()
    expect(page.locator("#sequential-box")).to_contain_text("三人的队也能打复式")
    page.locator("#third_place").check()
    page.locator("#mode").select_option(label="实体牌")
    assert_zh_words(page, "the new-event page")
    snap(page, shots / "event-new-options-zh.png")
    page.locator("#create").click()
    page.wait_for_url("**/e/*/admin")
    code = page.url.split("/e/")[1].split("/")[0]
    ev = event_json(live_server, code)
    assert (ev["duplicate"], ev["sequential"], ev["third_place"], ev["team_size"]) == (
        True,
        False,
        True,
        6,
    )

    # six players, the two trios explained; substitutes and a seed; a double click: one team
    expect(page.locator("#six-hint")).to_have_text(
        "复式每队六人，分两组：前三人坐甲方座位（1、3、5 号位），后三人坐乙方座位（2、4、6 号位）；"
        "两桌同时打，每人只打一桌。"
    )
    expect(page.locator("#player-6")).to_be_visible()
    page.locator("#team-name").fill("青岛队")
    six = ["张三", "李四", "王五", "赵六", "钱七", "孙八"]
    for k, player in enumerate(six, start=1):
        page.locator(f"#player-{k}").fill(player)
    page.locator("details.subs-box summary").click()
    page.locator("#sub-1").fill("小明")
    page.locator("#sub-2").fill("小红")
    page.locator("#team-seed").fill("1")
    page.locator("#team-add").dblclick()
    item = page.locator('#team-list li[data-team="青岛队"]')
    expect(item).to_contain_text(
        "张三、李四、王五（1、3、5 号位）；赵六、钱七、孙八（2、4、6 号位）"
    )
    expect(item.locator(".subs")).to_have_text("替补：小明、小红")
    expect(item.locator(".seed-tag")).to_have_text("种子 1")
    expect(page.locator("#team-list li")).to_have_count(1)
    assert_zh_words(page, "registration of six")
    page.locator("#teams-panel").scroll_into_view_if_needed()
    picture(page, shots / "event-admin-six-zh.png")
    organiser_key = page.evaluate(f"localStorage.getItem('gouji.event.{code}.key')")
    team = event_json(live_server, code)["team_list"][0]
    assert (team["players"], team["subs"], team["seed"]) == (six, ["小明", "小红"], 1)
    others = {"济南队": "甲乙丙丁戊己", "烟台队": "庚辛壬癸子丑", "潍坊队": "寅卯辰巳午未"}
    for name, players in others.items():
        body = {"name": name, "players": list(players)}
        api(live_server, "POST", f"/api/events/{code}/teams", body, organiser_key)

    # round 1: 青岛队 plays — no 换人 until its match is over; the other team does not come
    page.locator("#draw").click()
    expect(page.locator(".ev-match")).to_have_count(2)
    row = page.locator('#roster-list li[data-team="青岛队"]')
    expect(row.locator("button.swap-go")).to_be_disabled()
    expect(row).to_contain_text("本场打完才能换人")
    match = next(m for m in event_json(live_server, code)["rounds"][0] if "青岛队" in m["teams"])
    other = next(t for t in match["teams"] if t != "青岛队")
    box = page.locator(f'.ev-match[data-match="{match["id"]}"]')
    box.locator("button.walkover").click()
    ask = page.locator(ASK)
    expect(ask.locator("input[type=radio]")).to_have_count(2)  # a knockout: one team absent
    ask.locator("button.ask-ok").click()
    expect(ask.locator(".ask-error")).to_have_text("请选择哪一队没有来。")
    ask.locator(f'input[type=radio][value="{other}"]').check()
    picture(page, shots / "event-admin-walkover-zh.png")
    ask.locator("button.ask-ok").click()
    expect(box.locator("h3")).to_contain_text(f"弃权：{other} 未到")
    expect(box.locator("button.walkover")).to_have_count(0)
    decided = next(m for m in event_json(live_server, code)["rounds"][0] if m["id"] == match["id"])
    assert (decided["winner"], decided["walkover"]) == ("青岛队", [other])

    # between matches: 小明 in for 王五
    expect(row.locator("button.swap-go")).to_be_enabled()
    row.locator("select.swap-out").select_option("王五")
    row.locator("select.swap-in").select_option("小明")
    row.locator("button.swap-go").click()
    expect(row.locator(".subs")).to_have_text("替补：王五、小红")
    expect(row).to_contain_text("张三、李四、小明（1、3、5 号位）")
    team = event_json(live_server, code)["team_list"][0]
    assert (team["players"][:3], team["subs"]) == (["张三", "李四", "小明"], ["王五", "小红"])
    expect(page.locator("#log tr.a-substitute td.change")).to_have_text("换下 王五，换上 小明")
    expect(page.locator("#log tr.a-walkover td.change")).to_have_text(f"{other} 未到")
    assert_zh_words(page, "the organiser's page (duplicate)")
    page.locator("#roster-panel").scroll_into_view_if_needed()
    snap(page, shots / "event-admin-roster-zh.png")


def test_every_new_refusal_is_said_in_words(live_server: LiveServer, pages: Pages) -> None:
    """What the server now refuses (corrections, named games, negative points, walkovers,
    substitutes, referees, duplicate teams of six, sequential tables, idempotency keys) in
    Chinese words — no generic refusal, no Latin word — and in English without engine codes;
    and the page's ladder of sanctions is the outline's (discipline.next_step)."""
    places = [1, 2, 3, 4, 5, 6]
    good = {"name": "Cup", "preset": "MATCH7", "format": "knockout", "mode": "paper"}
    msgs: list[list[Any]] = [
        refused(live_server, "POST", "/api/events", {**good, "sequential": True}, None),
        refused(
            live_server,
            "POST",
            "/api/events",
            {**good, "format": "swiss", "third_place": True},
            None,
        ),
    ]

    # duplicate: six players a team; a table that has played the match's games waits
    dup = api(live_server, "POST", "/api/events", {**good, "duplicate": True, "games": 1})
    dbase = f"/api/events/{dup['code']}"
    msgs.append(
        refused(
            live_server,
            "POST",
            dbase + "/teams",
            {"name": "A", "players": ["a1", "a2", "a3"]},
            dup["key"],
        )
    )
    for team in ("A", "B"):
        body = {"name": team, "players": [f"{team.lower()}{k}" for k in range(1, 7)]}
        api(live_server, "POST", dbase + "/teams", body, dup["key"])
    api(live_server, "POST", dbase + "/rounds", {}, dup["key"])
    d1 = event_json(live_server, dup["code"])["tables"][0]["id"]
    api(
        live_server, "POST", f"{dbase}/tables/{d1}/games", {"game": 0, "places": places}, dup["key"]
    )
    msgs.append(
        refused(
            live_server,
            "POST",
            f"{dbase}/tables/{d1}/games",
            {"game": 1, "places": places},
            dup["key"],
        )
    )

    # sequential: table 2 after table 1, game by game
    seq = api(live_server, "POST", "/api/events", {**good, "duplicate": True, "sequential": True})
    sbase = f"/api/events/{seq['code']}"
    for team in ("A", "B"):
        body = {"name": team, "players": [f"{team.lower()}{k}" for k in range(1, 4)]}
        api(live_server, "POST", sbase + "/teams", body, seq["key"])
    api(live_server, "POST", sbase + "/rounds", {}, seq["key"])
    s1, s2 = (t["id"] for t in event_json(live_server, seq["code"])["tables"])
    msgs.append(
        refused(
            live_server,
            "POST",
            f"{sbase}/tables/{s2}/games",
            {"game": 0, "places": places},
            seq["key"],
        )
    )
    api(
        live_server, "POST", f"{sbase}/tables/{s1}/games", {"game": 0, "places": places}, seq["key"]
    )
    api(
        live_server, "POST", f"{sbase}/tables/{s2}/games", {"game": 0, "places": places}, seq["key"]
    )
    msgs.append(refused(live_server, "DELETE", f"{sbase}/tables/{s1}/games/0", None, seq["key"]))

    # substitutes, referees, before the draw
    open_teams: list[dict[str, Any]] = [{"name": n, "players": p} for n, p in TEAMS.items()]
    open_teams[0]["subs"] = ["小明"]
    open_body: dict[str, Any] = {
        "name": "Open",
        "preset": "MATCH7",
        "format": "knockout",
        "mode": "paper",
        "games": 2,
        "teams": open_teams,
    }
    created = api(live_server, "POST", "/api/events", open_body)
    code, key = created["code"], created["key"]
    base = f"/api/events/{code}"
    swap = base + "/teams/" + urllib.parse.quote("青岛队") + "/substitute"
    msgs += [
        refused(live_server, "POST", swap, {"out": "张三", "in": "小红"}, key),
        refused(live_server, "POST", swap, {"out": "甲", "in": "小明"}, key),
        refused(live_server, "POST", swap, {"out": " ", "in": "小明"}, key),
        refused(
            live_server,
            "POST",
            base + "/teams",
            {"name": "X", "players": ["x1", "x2", "x3"], "subs": ["s1", "s2", "s3", "s4"]},
            key,
        ),
        refused(live_server, "POST", base + "/referees", {"name": "王", "matches": [0]}, key),
        refused(live_server, "POST", base + "/referees", {"name": " "}, key),
        refused(live_server, "DELETE", base + "/referees/nope", None, key),
    ]
    ref = api(live_server, "POST", base + "/referees", {"name": "王", "matches": [2]}, key)
    api(live_server, "POST", base + "/rounds", {}, key)
    ev = event_json(live_server, code)
    t1, t2 = ev["tables"][0]["id"], ev["tables"][1]["id"]
    m1, teams1 = ev["rounds"][0][0]["id"], ev["rounds"][0][0]["teams"]
    games, sanctions = f"{base}/tables/{t1}/games", f"{base}/tables/{t1}/sanctions"
    walkover = f"{base}/matches/{m1}/walkover"
    msgs += [
        refused(live_server, "POST", swap, {"out": "张三", "in": "小明"}, key),
        refused(live_server, "POST", games, {"game": 0, "places": places}, ref["key"]),
        refused(live_server, "POST", games, {"game": 0, "places": places}, None),
        refused(live_server, "POST", base + "/rounds", {}, ref["key"]),
        refused(live_server, "POST", base + "/close", {}, None),
        refused(live_server, "POST", sanctions, {"kind": "penalty", "seat": 0, "points": 2}, key),
        refused(live_server, "POST", walkover, {"absent": ["nobody"]}, key),
        refused(live_server, "POST", walkover, {"absent": teams1}, key),
        refused(live_server, "POST", games, {"game": 0, "places": [1, 2, 3, 4, 5]}, key),
        refused(
            live_server,
            "POST",
            games,
            {"game": 0, "places": places, "penalties": [{"seat": 0}] * 7},
            key,
        ),
        refused(live_server, "PUT", games + "/abc", {"places": places}, key),
        refused(live_server, "PUT", games + "/0", {"places": places}, key),
    ]
    api(live_server, "POST", sanctions, {"kind": "last_place", "seat": 2}, key)
    msgs.append(refused(live_server, "POST", games, {"game": 0, "places": places}, key))
    api(live_server, "POST", games, {"game": 0, "places": [2, 1, 6, 3, 4, 5]}, key)  # 8 : 13
    msgs += [
        refused(live_server, "POST", sanctions, {"kind": "last_place", "seat": 0, "game": 0}, key),
        refused(live_server, "POST", walkover, {"absent": [teams1[0]]}, key),
    ]
    api(live_server, "POST", games, {"game": 1, "places": places}, key)  # 13 : 8, a tie
    api(live_server, "POST", games, {"game": 2, "places": places}, key)  # the extra game
    msgs += [
        refused(live_server, "DELETE", games + "/0", None, key),
        refused(live_server, "PUT", games + "/0", {"places": [1, 2, 6, 3, 4, 5]}, key),
        refused(live_server, "POST", sanctions, {"kind": "warning", "seat": 0}, key),
        refused(live_server, "POST", walkover, {"absent": [teams1[0]]}, key),
    ]
    api(live_server, "DELETE", f"{base}/referees/{ref['id']}", None, key)
    msgs += [
        refused(live_server, "DELETE", f"{base}/referees/{ref['id']}", None, key),
        refused(live_server, "POST", sanctions, {"kind": "warning", "seat": 0}, ref["key"]),
    ]
    # the same Idempotency-Key again: the first answer, nothing changed; on another request: 422
    warn = {"kind": "warning", "seat": 1}
    other = f"{base}/tables/{t2}/sanctions"
    assert keyed(live_server, "POST", other, warn, key, "k-1") == 201
    assert keyed(live_server, "POST", other, warn, key, "k-1") == 201
    assert len(event_json(live_server, code)["sanctions"]) == 2
    assert keyed(live_server, "POST", base + "/close", {}, key, "k-1") == 422
    req = urllib.request.Request(
        live_server.url + base + "/close",
        data=b"{}",
        method="POST",
        headers={
            "Authorization": f"Bearer {key}",
            "Idempotency-Key": "k-1",
            "Content-Type": "application/json",
        },
    )
    try:
        urllib.request.urlopen(req, timeout=10)
    except urllib.error.HTTPError as e:
        msgs.append([e.code, json.load(e)["message"]])
    for m in msgs:
        assert m[0] in (400, 403, 404, 409, 422), m

    page = pages.new("Ada", DESKTOP, lang="zh")
    page.goto(f"{live_server.url}/e/{code}")
    said: dict[str, list[str]] = page.evaluate(
        SAY_REFUSALS_JS,
        msgs,
    )
    generic = re.compile(r"服务器没有接受|组织者密钥不对，或者没有填")
    names = (*NAMES, "小明", "小红", "甲", "王")
    bad = []
    for (status, message), zh, en in zip(msgs, said["zh"], said["en"], strict=True):
        latin = set(LATIN_WORD.findall(zh)) - {"a1", "a2", "a3"}
        if latin or generic.search(zh) or ENGINE_CODE.search(en) or en_problems([en], names):
            bad.append(f"{status} {message!r} → {zh!r} / {en!r}")
    assert not bad, "\n".join(bad)

    # the page proposes the outline's next step as discipline.next_step does
    ladders = [
        [],
        ["warning"],
        ["cancel_turn"],
        ["penalty", "warning"],
        ["last_place"],
        ["disqualify"],
        ["warning", "penalty", "penalty"],
        ["warning", "last_place"],
    ]
    js = page.evaluate(
        'async (ls) => { const m = await import("/static/js/event-desk.js"); '
        "return ls.map((l) => m.nextStep(l)); }",
        ladders,
    )
    assert js == [next_step(k) for k in ladders]


def test_the_match_header_names_both_totals_after_a_tie(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    """R17.3 on the organiser's page: a duplicate knockout match tied at both tables through
    its game and five extra ones (decided by lot, D55) shows the totals since the restart and
    the whole match's, so the header agrees with the table cards (it showed 19:23 beside cards
    of 63:42)."""
    six = {n: [f"{n[0]}{k}" for k in "一二三四五六"] for n in ("青岛队", "济南队")}
    teams = [{"name": n, "players": p} for n, p in six.items()]
    created = api(
        live_server, "POST", "/api/events",
        {"name": "平局杯", "preset": "MATCH7", "format": "knockout", "mode": "paper",
         "duplicate": True, "games": 1, "teams": teams},
    )  # fmt: skip
    code, key = created["code"], created["key"]
    api(live_server, "POST", f"/api/events/{code}/rounds", {}, key)
    for g in range(6):
        for t in ("r1m1t1", "r1m1t2"):
            body = {"game": g, "places": [1, 2, 3, 4, 5, 6]}
            api(live_server, "POST", f"/api/events/{code}/tables/{t}/games", body, key)
    match = event_json(live_server, code)["rounds"][0][0]
    assert match["by_lot"] and match["extra_games"] == 5
    page = admin(pages, live_server, code, key, "zh")
    head = page.locator('.ev-match[data-match="r1m1"] h3')
    expect(head).to_contain_text("加赛")
    expect(head).to_contain_text("全场 126 : 126")  # 6 games of 13 + 8 at two tables a side
    expect(head).to_contain_text("抽签决定")
    picture(page, shots / "event-admin-tie-zh.png")


def test_a_late_second_click_while_the_page_redraws_sends_nothing(
    live_server: LiveServer, pages: Pages
) -> None:
    """Under load the second click of a double click can come after the first answer but
    before the page has read the event again and cleared its form: it must not send the same
    team again (a 400, 'there is already a team')."""
    code, key = paper_event(live_server)
    page = admin(pages, live_server, code, key, "zh")
    sent = writes_of(page)
    page.locator("#team-name").fill("威海队")
    for k, player in enumerate(["一", "二", "三"], start=1):
        page.locator(f"#player-{k}").fill(f"威海{player}")

    def slow_read(route: Route) -> None:  # the event read after the answer comes late
        if route.request.method == "GET":
            time.sleep(0.6)
        route.continue_()

    page.route(f"**/api/events/{code}", slow_read)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#team-add").click()
    page.locator("#team-add").click(force=True)  # the late second click
    expect(page.locator('#team-list li[data-team="威海队"]')).to_have_count(1)
    expect(page.locator("#team-name")).to_have_value("")
    page.unroute(f"**/api/events/{code}")
    assert [m for m, _, _ in sent] == ["POST"], sent
    expect(page.locator("#team-add")).to_be_enabled()  # ready for the next team


def test_a_team_typed_while_the_page_reads_the_event_is_kept(
    live_server: LiveServer, pages: Pages
) -> None:
    """The form is cleared when a team is registered, not after the page has read the event
    again: the next team's name, typed meanwhile (a fast organiser, a slow server), stays."""
    code, key = paper_event(live_server)
    page = admin(pages, live_server, code, key, "zh")
    page.locator("#team-name").fill("威海队")
    for k, player in enumerate(["一", "二", "三"], start=1):
        page.locator(f"#player-{k}").fill(f"威海{player}")

    def slow_read(route: Route) -> None:  # the event read after the answer comes late
        if route.request.method == "GET":
            time.sleep(3)
        route.continue_()

    page.route(f"**/api/events/{code}", slow_read)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#team-add").click()
    # cleared at once, long before the 3 s read is back (cleared after it, the next team
    # typed meanwhile was wiped)
    expect(page.locator("#team-name")).to_have_value("", timeout=1500)
    page.locator("#team-name").fill("烟台队")  # the next team, during the read
    expect(page.locator('#team-list li[data-team="威海队"]')).to_have_count(1)
    page.unroute(f"**/api/events/{code}")
    expect(page.locator("#team-name")).to_have_value("烟台队")
