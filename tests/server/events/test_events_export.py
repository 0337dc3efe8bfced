"""An event's exports over HTTP (issue 22, docs/protocol.md "Events"): the .xlsx workbook that
openpyxl opens, its sheets and headers in Chinese and English, the audit log only for the
organiser's key; CSVs with a UTF-8 BOM that csv reads; a team named like a formula stays text;
an unknown language is a 400."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet
from starlette.testclient import TestClient

from gouji.server.events.exports import XLSX, display_width

from ..eventutil import ARTICLE, FORMULA, get_event, lot_event
from ..wsutil import app_client

pytestmark = pytest.mark.timeout(120)

BOM = b"\xef\xbb\xbf"
SHEETS_ZH = ["概况", "积分榜", "各场", "各局", "处罚"]
SHEETS_EN = ["Event", "Standings", "Matches", "Games", "Sanctions"]


def workbook(client: TestClient, path: str, **headers: str) -> Any:
    r = client.get(path, headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == XLSX
    assert r.headers["content-disposition"].startswith("attachment;")
    return load_workbook(io.BytesIO(r.content))


def values(ws: Worksheet) -> list[list[Any]]:
    return [list(row) for row in ws.iter_rows(values_only=True)]


def as_csv(text: str) -> str:
    """A name as the CSV holds it: one a spreadsheet would run as a formula is quoted."""
    return "'" + text if text.startswith("=") else text


def read_csv(client: TestClient, path: str) -> list[list[str]]:
    r = client.get(path)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert r.content.startswith(BOM)  # Chinese Excel/WPS read it as UTF-8
    return list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"), newline="")))


def test_the_workbook_opens_with_its_sheets_in_both_languages(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, _ = lot_event(client)
        base = f"/api/events/{code}/export.xlsx"
        zh = workbook(client, base)
        assert zh.sheetnames == SHEETS_ZH
        assert workbook(client, base + "?lang=zh").sheetnames == SHEETS_ZH
        for ws in zh.worksheets:
            assert ws.freeze_panes == "A2", ws.title
            assert all(c.font.bold for c in ws[1]), ws.title
            for cell in ws[1]:  # every header readable: the column at least as wide
                width = ws.column_dimensions[cell.column_letter].width
                assert width >= min(60, display_width(cell.value)), (ws.title, cell.value)
        overview = dict((r[0], r[1]) for r in values(zh["概况"]))
        assert overview["比赛名称"] == "协会杯" and overview["赛制"] == "淘汰赛"
        assert overview["规则"] == "三局比赛" and overview["结果"] == "比赛尚未结束"
        standings = values(zh["积分榜"])
        assert standings[0] == ["名次", "队", "积分", "总分", "胜场", "胜局", "轮空", "弃权",
                                "取消资格"]  # fmt: skip
        ev = get_event(client, code)
        assert [r[1] for r in standings[1:]] == [s["team"] for s in ev["standings"]]
        assert [r[2] for r in standings[1:]] == [s["points"] for s in ev["standings"]]
        matches = values(zh["各场"])
        assert matches[0][:8] == ["轮次", "场次", "甲队", "乙队", "甲队总分", "乙队总分", "胜者",
                                  "说明"]  # fmt: skip
        lot, walk = matches[1:]
        assert lot[4:8] == [21, 21, ev["rounds"][0][0]["winner"],
                            "抽签决定；平局加赛，总分从第 6 局算起"]  # fmt: skip
        assert walk[7] == f"弃权：{ev['rounds'][0][1]['walkover'][0]} 未到"
        games = values(zh["各局"])
        assert len(games) == 1 + 12 and games[0][7:9] == ["1号位", "1号位名次"]
        assert games[1][8] == "头科" and games[1][21] == f"2号位 −2 {ARTICLE}"
        assert [r[4] for r in games[1:7]] == [None] + ["加赛"] * 5  # an empty cell reads None
        sanctions = values(zh["处罚"])
        assert [r[3] for r in sanctions[1:]] == [2, 2] and sanctions[1][6] == "罚分"
        # a team named like a formula is text in the workbook, never a formula
        cell = next(c for row in zh["积分榜"].iter_rows() for c in row if c.value == FORMULA)
        assert cell.data_type == "s"

        en = workbook(client, base + "?lang=en")
        assert en.sheetnames == SHEETS_EN
        assert values(en["Standings"])[0][:4] == ["Place", "Team", "Match points", "Total score"]
        assert values(en["Matches"])[1][7] == "decided by lot; tied: totals from game 6"
        assert values(en["Games"])[1][8] == "1st 头科"


def test_the_audit_log_sheet_is_the_organisers_only(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, org = lot_event(client)
        base = f"/api/events/{code}/export.xlsx"
        assert "操作记录" not in workbook(client, base).sheetnames
        with_log = workbook(client, base, **org)
        assert with_log.sheetnames == [*SHEETS_ZH, "操作记录"]
        log = client.get(f"/api/events/{code}/log", headers=org).json()
        rows = values(with_log["操作记录"])
        assert rows[0] == ["序号", "时间（UTC）", "操作人", "操作", "桌", "局", "原来", "改为"]
        assert [r[0] for r in rows[1:]] == [e["n"] for e in log]
        fix = next(r for r in rows[1:] if r[3] == "更正成绩")
        assert fix[2] == "组织者" and fix[4] == "第 1 轮第 1 场 1号桌" and fix[5] == 1
        assert "8 : 11" in fix[6] and "13 : 6" in fix[7]
        en = workbook(client, base + "?lang=en", **org)
        assert en.sheetnames == [*SHEETS_EN, "Audit log"]
        assert values(en["Audit log"])[0][:4] == ["No.", "Time (UTC)", "Who", "Action"]
        # a key that is not the organiser's (a referee's, a wrong one) gets no log: 403
        r = client.post(f"/api/events/{code}/referees", json={"name": "王"}, headers=org)
        assert r.status_code == 201, r.text
        for key in (r.json()["key"], org["authorization"][7:][::-1]):
            denied = client.get(base, headers={"authorization": f"Bearer {key}"})
            assert denied.status_code == 403 and denied.json()["error"] == "forbidden"


def test_the_csvs_carry_a_bom_and_read_in_either_language(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, _ = lot_event(client)
        base = f"/api/events/{code}"
        ev = get_event(client, code)
        standings = read_csv(client, base + "/standings.csv")
        assert standings[0] == ["名次", "队", "积分", "总分", "胜场", "胜局", "轮空", "弃权",
                                "取消资格"]  # fmt: skip
        teams = [r[1] for r in standings[1:]]
        assert teams == [as_csv(s["team"]) for s in ev["standings"]]
        assert "'" + FORMULA in teams
        en = read_csv(client, base + "/standings.csv?lang=en")
        assert en[0][:4] == ["Place", "Team", "Match points", "Total score"]
        assert en[1:] == [[*r[:-1], "no"] for r in standings[1:]]

        results = read_csv(client, base + "/results.csv")
        head = results[0]
        assert head[:5] == ["轮次", "场次", "桌号", "局", "加赛"]
        assert head[7:19:2] == [f"{n}号位" for n in range(1, 7)]
        assert head[19:] == ["甲队得分", "乙队得分", "罚分", "来源"]
        assert len(results) == 1 + 12
        first = dict(zip(head, results[1], strict=True))
        assert (first["甲队得分"], first["乙队得分"]) == ("13", "6")
        assert first["罚分"] == f"2号位 −2 {ARTICLE}" and first["1号位名次"] == "头科"
        assert [r[4] for r in results[1:7]] == [""] + ["加赛"] * 5
        assert read_csv(client, base + "/results.csv?lang=en")[0][19:21] == ["Score A", "Score B"]

        matches = read_csv(client, base + "/matches.csv")
        assert matches[0][4:8] == ["甲队总分", "乙队总分", "胜者", "说明"]
        lot, walk = matches[1:]
        assert lot[4:8] == ["21", "21", as_csv(ev["rounds"][0][0]["winner"]),
                            "抽签决定；平局加赛，总分从第 6 局算起"]  # fmt: skip
        assert walk[4:6] == ["", ""] and walk[7].startswith("弃权：")
        en_matches = read_csv(client, base + "/matches.csv?lang=en")
        assert en_matches[1][7] == "decided by lot; tied: totals from game 6"


def test_an_unknown_language_or_event_is_refused(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        code, org = lot_event(client)
        for name in ("export.xlsx", "standings.csv", "results.csv", "matches.csv"):
            for lang in ("fr", "ZH", "x" * 300):
                r = client.get(f"/api/events/{code}/{name}?lang={lang}", headers=org)
                assert r.status_code == 400, (name, lang)
                body = r.json()
                assert body["error"] == "bad_request" and "language" in body["message"]
            assert client.get(f"/api/events/NOSUCH/{name}").status_code == 404
