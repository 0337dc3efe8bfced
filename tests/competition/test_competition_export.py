"""The exports' rows and words (``gouji.competition.export``, issue 22): a real-card duplicate
knockout with a corrected sheet, penalties at both tables, a tie decided by lot after five
extra games (R17.3, D55) and a walkover; every sheet in Chinese and English, seats numbered
1…6 as printed, and no engine code anywhere a person reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gouji.competition import Event
from gouji.competition import export as x
from gouji.competition.export import ExportError, Sheet
from gouji.rulesdoc.webwords import read_word_file

AB = {"places": [1, 2, 3, 4, 5, 6]}  # MATCH7: seats A 7+4+2 = 13, seats B 5+3+0 = 8
BA = {"places": [2, 1, 4, 3, 6, 5]}  # A 8, B 13
T0 = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC
ARTICLE = "第二十九条（三）"

#: What a person must never read: table ids, rule keys and codes, preset codes, Python values.
CODES = re.compile(
    r"\br[0-9]+m[0-9]+|_|[a-z0-9]\.[a-z]|MATCH7|OUTLINE|COMP2|\bNone\b|\bTrue\b|\bFalse\b"
)
#: The API's words, which an English cell must not be alone (a Chinese one has no Latin word).
API_WORDS = {"knockout", "swiss", "paper", "engine", "sheet", "penalty", "warning",
             "disqualify", "organiser", "referee", "draw", "correct", "void", "close", "team",
             "table"}  # fmt: skip


def people(i: int) -> list[str]:
    return [f"p{i}-{k}" for k in range(6)]


def lot_event() -> Event:
    """Round 1 of a duplicate knockout, one game a match: match 1 is tied at both tables
    (the same sheet, the seats swapped, −2 at each table's seat 2) through 1 + 5 games and
    drawn by lot, after a referee corrected its first sheet; match 2 is a walkover."""
    ev = Event("协会杯", "MATCH7", "knockout", mode="paper", duplicate=True, games=1, seed=5)
    for i in range(4):
        ev.add_team(f"队{i + 1}", people(i))
    with ev.acting("organiser", T0):
        r = ev.draw_round()
        m1, m2 = r.matches
        ev.walkover(m2.id, [ev.teams[m2.teams[0]].name])
        t1, t2 = m1.tables
        ev.sanction(t1.id, "penalty", 1, article=ARTICLE)
        ev.sanction(t2.id, "penalty", 1, article=ARTICLE)
        ev.sanction(t1.id, "warning", 1)  # the same player again: a repeat offence
        ev.record_sheet(t1.id, 0, BA)  # mistyped
    with ev.acting("referee 王", T0 + 60):
        ev.correct_sheet(t1.id, 0, AB)
    with ev.acting("organiser", T0 + 120):
        ev.record_sheet(t2.id, 0, AB)
        for g in range(1, 6):
            ev.record_sheet(t1.id, g, AB)
            ev.record_sheet(t2.id, g, AB)
    assert m1.done and m1.by_lot and ev.extra_games(m1) == 5 and m2.done
    return ev


def texts(sheets: list[Sheet]) -> list[str]:
    out = []
    for s in sheets:
        out += [s.title, *s.headers]
        out += [v for row in s.rows for v in row if isinstance(v, str)]
    return out


def column(sheet: Sheet, header: str) -> list[object]:
    i = sheet.headers.index(header)
    return [row[i] for row in sheet.rows]


def items(sheet: Sheet) -> dict[str, object]:
    """The overview's lines by label."""
    return {str(row[0]): row[1] for row in sheet.rows}


# ---------------------------------------------------------------------- languages
def test_languages_zh_by_default_en_on_request_and_nothing_else() -> None:
    assert x.check_lang(None) == "zh" and x.check_lang("") == "zh"
    assert x.check_lang("en") == "en"
    for bad in ("fr", "ZH", "zh-CN", "../x"):
        with pytest.raises(ExportError, match="unknown language"):
            x.check_lang(bad)
    with pytest.raises(ExportError):
        x.standings(lot_event(), "de")


def test_every_sheet_speaks_its_language_and_shows_no_code() -> None:
    ev = lot_event()
    zh = x.workbook(ev, "zh", with_log=True, created=T0, exported=T0 + 600)
    en = x.workbook(ev, "en", with_log=True, created=T0, exported=T0 + 600)
    assert [s.key for s in zh] == ["event", "standings", "matches", "games", "sanctions", "log"]
    assert [s.title for s in zh] == ["概况", "积分榜", "各场", "各局", "处罚", "操作记录"]
    assert [s.title for s in en] == [
        "Event", "Standings", "Matches", "Games", "Sanctions", "Audit log"
    ]  # fmt: skip
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for a, b in zip(zh, en, strict=True):
        assert len(a.headers) == len(b.headers) and len(a.rows) == len(b.rows), a.key
        assert all(cjk.search(h) for h in a.headers), a.key
        assert not any(cjk.search(h) for h in b.headers), b.key
    for lang, sheets in (("zh", zh), ("en", en)):
        found = [t for t in texts(sheets) if CODES.search(t) or t in API_WORDS]
        assert found == [], (lang, found[:5])
    latin = [t for t in texts(zh) if re.search("[A-Za-z]{2,}", t.replace("UTC", ""))]
    assert latin == []  # the Chinese workbook: player names "p0-1" and "UTC" only
    assert "log" not in {s.key for s in x.workbook(ev, "zh")}  # the organiser's only


# ---------------------------------------------------------------------- the sheets
def test_standings_are_the_events() -> None:
    ev = lot_event()
    sheet = x.standings(ev, "zh")
    assert sheet.headers == [
        "名次", "队", "积分", "总分", "胜场", "胜局", "轮空", "弃权", "取消资格"
    ]  # fmt: skip
    want = ev.standings()
    assert [r[:8] for r in sheet.rows] == [
        [s["place"], s["team"], s["points"], s["score"], s["matches_won"], s["games_won"],
         s["byes"], s["walkovers"]]
        for s in want
    ]  # fmt: skip
    assert column(sheet, "弃权").count(1) == 1 and set(column(sheet, "取消资格")) == {"否"}
    assert x.standings(ev, "en").headers[2:4] == ["Match points", "Total score"]


def test_matches_mark_the_lot_the_extra_games_and_the_walkover() -> None:
    ev = lot_event()
    m1, m2 = ev.rounds[0].matches
    a, b = (ev.teams[i].name if i is not None else "" for i in m1.teams)
    assert m1.winner is not None and m2.winner is not None
    zh = x.matches(ev, "zh")
    assert zh.headers == [
        "轮次", "场次", "甲队", "乙队", "甲队总分", "乙队总分", "胜者", "说明", "已赛局数",
        "加赛局数", "总分起算局", "季军赛",
    ]  # fmt: skip
    lot, walk = zh.rows
    # R17.3: the totals are the last extra game's, 13 + 8 at both tables
    assert lot == [1, 1, a, b, 21, 21, ev.teams[m1.winner].name,
                   "抽签决定；平局加赛，总分从第 6 局算起", 6, 5, 6, ""]  # fmt: skip
    absent = ev.teams[m2.teams[0]].name
    assert walk[4:10] == [None, None, ev.teams[m2.winner].name, f"弃权：{absent} 未到", 0, 0]
    en = x.matches(ev, "en").rows
    assert en[0][7] == "decided by lot; tied: totals from game 6"
    assert en[1][7] == f"walkover: {absent} absent"


def test_games_name_the_seats_1_to_6_their_players_places_and_penalties() -> None:
    ev = lot_event()
    m1 = ev.rounds[0].matches[0]
    t1, t2 = m1.tables
    sheet = x.games(ev, "zh")
    assert sheet.headers[:7] == ["轮次", "场次", "桌号", "局", "加赛", "甲队（1、3、5号位）",
                                 "乙队（2、4、6号位）"]  # fmt: skip
    assert sheet.headers[7:19:2] == [f"{n}号位" for n in range(1, 7)]
    assert sheet.headers[8:19:2] == [f"{n}号位名次" for n in range(1, 7)]
    assert sheet.headers[19:] == ["甲队得分", "乙队得分", "罚分", "来源"]
    assert len(sheet.rows) == 12  # 1 + 5 games at each of the two tables
    first = sheet.rows[0]
    assert first[:7] == [1, 1, 1, 1, "", ev.teams[t1.teams[0]].name, ev.teams[t1.teams[1]].name]
    assert first[7:19:2] == [ev.player_at(t1, s) for s in range(6)]
    assert first[8:19:2] == ["头科", "二科", "三科", "四科", "二落", "大落"]
    assert first[19:] == [13, 6, f"2号位 −2 {ARTICLE}", "计分表"]  # the corrected sheet
    assert [r[3] for r in sheet.rows[:6]] == [1, 2, 3, 4, 5, 6]  # games from 1
    assert [r[4] for r in sheet.rows[:6]] == ["", "加赛", "加赛", "加赛", "加赛", "加赛"]
    second = sheet.rows[6]
    assert second[2] == 2 and second[7:19:2] == [ev.player_at(t2, s) for s in range(6)]
    assert not set(second[7:19:2]) & set(first[7:19:2])  # two trios: nobody plays it twice
    en = x.games(ev, "en")
    assert en.rows[0][8] == "1st 头科"
    assert en.rows[0][21:] == [f"seat 2 −2 {ARTICLE}", "score sheet"]
    assert en.rows[1][4] == "Extra"
    assert en.headers[7:9] == ["Seat 1", "Seat 1 place"]


def test_an_online_game_says_so() -> None:
    ev = Event("网赛", "MATCH7", "knockout", mode="online", games=1)
    for i in range(2):
        ev.add_team(f"T{i}", people(i)[:3])
    ev.draw_round()
    t = ev.rounds[0].matches[0].tables[0]
    ev.record_result(t.id, 0, {"places": [2, 1, 4, 3, 6, 5], "team_scores": [8, 13]})
    (row,) = x.games(ev, "zh").rows
    assert row[8:19:2] == ["二科", "头科", "四科", "三科", "大落", "二落"]
    assert row[19:] == [8, 13, "", "线上"]
    assert x.games(ev, "en").rows[0][-1] == "online"


def test_sanctions_number_seats_from_1_and_count_repeat_offences() -> None:
    ev = lot_event()
    t1, t2 = ev.rounds[0].matches[0].tables
    sheet = x.sanctions(ev, "zh")
    assert sheet.headers == [
        "轮次", "桌", "局", "座位", "队", "队员", "处罚", "分数", "依据", "此前已受处罚次数"
    ]  # fmt: skip
    b1, b2 = ev.teams[t1.teams[1]], ev.teams[t2.teams[1]]
    assert sheet.rows == [
        [1, "第 1 轮第 1 场 1号桌", 1, 2, b1.name, ev.player_at(t1, 1), "罚分", -2, ARTICLE, 0],
        [1, "第 1 轮第 1 场 2号桌", 1, 2, b2.name, ev.player_at(t2, 1), "罚分", -2, ARTICLE, 0],
        [1, "第 1 轮第 1 场 1号桌", 1, 2, b1.name, ev.player_at(t1, 1), "警告", 0, "", 1],
    ]
    en = x.sanctions(ev, "en").rows
    assert [r[6] for r in en] == ["Penalty points", "Penalty points", "Warning"]
    assert en[0][1] == "Round 1, match 1, table 1"
    # every seat a person reads is 1…6: a sanction at the API's seat 0 reads seat 1
    fresh = Event("座位", "MATCH7", "knockout", mode="paper", games=1)
    for i in range(2):
        fresh.add_team(f"T{i}", people(i)[:3])
    fresh.draw_round()
    t = fresh.rounds[0].matches[0].tables[0]
    for seat, kind in enumerate(("warning", "cancel_turn", "penalty", "last_place", "warning")):
        fresh.sanction(t.id, kind, seat, article="第三十条")
    fresh.sanction(t.id, "disqualify", 5)
    rows = x.sanctions(fresh, "zh").rows
    assert [r[3] for r in rows] == [1, 2, 3, 4, 5, 6]
    kinds = ["警告", "取消一次出牌权", "罚分", "罚为大落", "警告", "取消资格"]
    assert [r[6] for r in rows] == kinds
    assert [r[2] for r in rows][:5] == ["下一局"] * 5  # counted in the next sheet entered
    assert [r[6] for r in x.sanctions(fresh, "en").rows] == [
        "Warning", "Loses one lead", "Penalty points", "Placed last (大落)", "Warning",
        "Disqualified",
    ]  # fmt: skip


def test_the_audit_log_says_who_when_what_and_before_after() -> None:
    ev = lot_event()
    zh = x.audit_log(ev, "zh")
    assert zh.headers == ["序号", "时间（UTC）", "操作人", "操作", "桌", "局", "原来", "改为"]
    by_action = {r[3]: r for r in zh.rows}
    assert [r[0] for r in zh.rows] == list(range(1, len(ev.log) + 1))
    assert {"报名", "抽签", "弃权", "处罚", "登记成绩", "更正成绩"} <= set(by_action)
    fix = by_action["更正成绩"]
    assert fix[1:6] == ["2023-11-14 22:14:20", "裁判 王", "更正成绩", "第 1 轮第 1 场 1号桌", 1]
    assert fix[6] == "名次（1–6号位）2 1 4 3 6 5，得分 8 : 11；罚分 2号位 −2"
    assert fix[7] == "名次（1–6号位）1 2 3 4 5 6，得分 13 : 6；罚分 2号位 −2"
    draw = by_action["抽签"]
    assert draw[2:5] == ["组织者", "抽签", "第 1 轮"] and " 对 " in str(draw[7])
    t1, t2 = ev.rounds[0].matches[0].tables
    b1, b2 = (ev.teams[t.teams[1]].name for t in (t1, t2))
    p1, p2 = ev.player_at(t1, 1), ev.player_at(t2, 1)
    assert [r[4:] for r in zh.rows if r[3] == "处罚"] == [
        ["第 1 轮第 1 场 1号桌", None, "", f"2号位 {p1}（{b1}）罚分 −2 {ARTICLE}"],
        ["第 1 轮第 1 场 2号桌", None, "", f"2号位 {p2}（{b2}）罚分 −2 {ARTICLE}"],
        ["第 1 轮第 1 场 1号桌", None, "", f"2号位 {p1}（{b1}）警告"],
    ]
    en = {r[3]: r for r in x.audit_log(ev, "en").rows}
    assert en["Sheet corrected"][2] == "Referee 王"
    assert en["Sheet corrected"][7] == "places (seats 1–6) 1 2 3 4 5 6, scores 13 : 6; " \
        "penalties seat 2 −2"  # fmt: skip
    assert en["Walkover"][4] == "Round 1, match 2"
    ev.draw_round()
    ev.close()  # the final drawn, not played
    closed = x.audit_log(ev, "zh").rows[-1]
    assert closed[2:] == ["", "结束比赛", "", None, "", "未赛完即结束：第 2 轮第 1 场"]


def test_every_logged_action_has_words() -> None:
    """Whatever the event or the server writes to the log (``_note``/``note`` calls) reads
    as words in both languages, never as its code."""
    src = Path(__file__).resolve().parents[2] / "src" / "gouji"
    found: set[str] = set()
    server = sorted((src / "server" / "events").glob("*.py"))
    for path in [src / "competition" / "event.py", *server]:
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"\b_?note\(\s*\"([a-z_]+)\"", text))
    assert {"draw", "sheet", "correct", "sanction", "close", "referee"} <= found
    for lang in x.LANGS:
        assert sorted(a for a in found if f"a_{a}" not in x.WORDS[lang]) == [], lang


def test_the_overview_names_the_champion_or_says_the_event_ended_unfinished() -> None:
    ev = lot_event()
    rows = items(x.overview(ev, "zh", created=T0, exported=T0 + 600))
    assert rows["比赛名称"] == "协会杯" and rows["赛制"] == "淘汰赛"
    assert rows["规则"] == "三局比赛" and rows["方式"] == "实体牌" and rows["复式"] == "是"
    assert rows["创建日期（UTC）"] == "2023-11-14"
    assert rows["导出时间（UTC）"] == "2023-11-14 22:23:20"
    assert rows["状态"] == "第 1 轮已结束" and rows["结果"] == "比赛尚未结束"
    final = ev.draw_round()
    t1, t2 = final.matches[0].tables
    ev.record_sheet(t1.id, 0, AB)
    ev.record_sheet(t2.id, 0, BA)  # the team at seats A of table 1 wins both
    champion = ev.teams[t1.teams[0]].name
    assert ev.winner() == champion
    rows = items(x.overview(ev, "zh"))
    assert rows["结果"] == f"冠军：{champion}" and rows["状态"] == "比赛结束"
    en = items(x.overview(ev, "en"))
    assert en["Result"] == f"Winner: {champion}" and en["Rule set"] == "Three-game match"
    early = lot_event()
    early.close()
    assert items(x.overview(early, "zh"))["结果"] == "未赛完即结束，没有冠军"
    assert items(x.overview(early, "en"))["Result"] == "Ended unfinished: no winner"
    changed = Event("改", "MATCH7", "swiss", overrides={"round.auto_kou": False})
    assert items(x.overview(changed, "zh"))["规则"] == "三局比赛（有改动）"


def test_the_words_the_pages_say_too_come_from_their_word_file() -> None:
    """The exports' words that the event pages say too are read from the pages' word file
    (web/js/words/competition.js), written once; the exports' own words are in both
    languages and the shared file holds nothing the exports do not say."""
    shared = read_word_file(x.WORD_FILE)
    assert set(x.WORDS["zh"]) == set(x.WORDS["en"])
    for lang in x.LANGS:
        for key, page_key in x._FROM_PAGES.items():
            assert x.WORDS[lang][key] == shared[lang][page_key]
        assert set(shared[lang]) == set(x._FROM_PAGES.values())
        assert not set(x._OWN[lang]) & set(x._FROM_PAGES)
