"""The public and print pages tell the whole truth of an event's record (issue 22), in Chromium
against the real server, in Chinese and in English:

- an event closed before its end names no champion anywhere, shows its standings as they
  stand and calls no round the final that the bracket never reached;
- a real-card duplicate knockout of teams of six: a match tied at both tables through its game
  and five extra games (R17.3) is decided by lot (D55) — said on the bracket, the results and
  the printed sheets, every extra game marked, the match's header agreeing with its tables'
  cards (加赛 totals and the whole match's, each named); a walkover (弃权); the final with the
  match for third place (季军赛); seeds (种子) beside the names; each team's trio at its tables;
- the printed sheet of a knockout table still to play has rows for the extra games (加赛, left
  blank) and the 罚分 column; the hand records (牌谱) are printed for the organiser (the key
  remembered in the browser) and offered to nobody else;
- a league's walkover on the pairings; the workbook linked in the page's language.

Every visible text is scanned: in Chinese no Latin word, in English Chinese only as the game's
terms and names; nowhere an engine code, a 0-based seat or a table id.
Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

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
    shoot,
    visible_text,
)

#: What a page may never show: table and match ids, preset codes, API words, JS leftovers,
#: 0-based seats, card codes of the API.
ENGINE_CODE = re.compile(
    r"\br\d+m\d+(?:t\d+)?\b|\b(?:OUTLINE_FULL|OUTLINE_CLASSIC|LAIWU|AUDIT|LIANG4|MATCH7|COMP2)\b"
    r"|\b\w+_\w+\b|\b(?:paper|by_lot|registering|undefined|null|NaN)\b|\[object"
    r"|(?:座位|Seat|seat)\s*0(?!\d)|0号位|\b(?:[2-9TJQKA][SHDC]|SJ|LJ)\b"
)
AB = [1, 2, 3, 4, 5, 6]  # MATCH7: the team at seats 1, 3, 5 gets 7 + 4 + 2 = 13, the other 8
WORDS = {
    "zh": {
        "unfinished": "比赛未完成就结束了",
        "lot": "抽签决定",
        "extra": "加赛",
        "walkover": "弃权",
        "third": "季军赛",
        "seed": "种子 1",
        "final": "决赛",
        "semi": "半决赛",
        "round1": "第 1 轮",
        "trio1": "第一组",
        "trio2": "第二组",
        "whole": "全场",
        "champion": "冠军：",
        "hand1": "第 1 手",
        "boards": "牌谱",
        "big": "大王",
    },
    "en": {
        "unfinished": "The event ended unfinished",
        "lot": "decided by lot",
        "extra": "extra game",
        "walkover": "walkover",
        "third": "Third place",
        "seed": "seed 1",
        "final": "Final",
        "semi": "Semi-finals",
        "round1": "Round 1",
        "trio1": "first trio",
        "trio2": "second trio",
        "whole": "whole match",
        "champion": "Winner:",
        "hand1": "Hand 1",
        "boards": "Hand records",
        "big": "big",
    },
}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def create(server: LiveServer, **body: Any) -> tuple[str, str]:
    created = api(server, "POST", "/api/events", {"preset": "MATCH7", "mode": "paper", **body})
    return created["code"], created["key"]


def assert_words(page: Page, lang: str, where: str, names: tuple[str, ...]) -> None:
    """No engine code; zh: no Latin word; en: Chinese only as game terms and names."""
    text = visible_text(page)
    codes = sorted({m.group(0) for m in ENGINE_CODE.finditer(text)})
    assert not codes, f"{where} ({lang}) shows {codes}"
    if lang == "zh":
        latin = sorted(set(LATIN_WORD.findall(text)) - LATIN_ALLOWED)
        assert not latin, f"{where} (zh) shows {latin}"
    else:
        lines = [x for x in text.split("\n") if x.strip()]
        longest = tuple(sorted(names, key=len, reverse=True))  # 西甲 before 西
        assert not en_problems(lines, longest), f"{where} (en): {en_problems(lines, longest)}"


def numbers(text: str) -> list[int]:
    return [int(x.replace("−", "-")) for x in re.findall(r"[−-]?\d+", text)]


def open_page(pages: Pages, url: str, lang: str, key: tuple[str, str] | None = None) -> Page:
    page = pages.new(None, DESKTOP, lang=lang)
    if key is not None:  # the organiser's (or a referee's) key, remembered as the pages do
        page.add_init_script(
            f"localStorage.setItem({json.dumps(f'gouji.event.{key[0]}.key')}, {json.dumps(key[1])})"
        )
    page.goto(url)
    return page


# ---------------------------------------------------------------------------- the events
@pytest.fixture(scope="module")
def unfinished(live_server: LiveServer) -> dict[str, Any]:
    """Eight teams in a knockout, round 1 drawn, one game entered, then closed."""
    teams: list[dict[str, Any]] = [
        {"name": f"{n}队", "players": [f"{n}{k}" for k in "甲乙丙"]} for n in "一二三四五六七八"
    ]
    code, key = create(live_server, name="秋季赛", format="knockout", teams=teams)
    api(live_server, "POST", f"/api/events/{code}/rounds", {}, key)
    api(
        live_server,
        "POST",
        f"/api/events/{code}/tables/r1m1t1/games",
        {"game": 0, "places": AB},
        key,
    )
    ev = api(live_server, "POST", f"/api/events/{code}/close", {}, key)
    assert ev["unfinished"] and ev["winner"] is None
    names = tuple(t["name"] for t in teams) + tuple(p for t in teams for p in t["players"])
    return {"code": code, "key": key, "names": ("秋季赛", *names)}


@pytest.fixture(scope="module")
def cup(live_server: LiveServer) -> dict[str, Any]:
    """A real-card duplicate knockout of four teams of six, one game a match, two seeds, with
    a match for third place. Round 1: one match tied at both tables through 1 + 5 games and
    drawn by lot (a −2 in its first game at each table), the other a walkover. Round 2 (the
    final and the match for third place) drawn, nothing entered."""
    teams: list[dict[str, Any]] = [
        {"name": n, "players": [f"{n[0]}{k}" for k in "一二三四五六"], **({"seed": s} if s else {})}
        for n, s in (("济南队", 1), ("青岛队", 2), ("烟台队", 0), ("潍坊队", 0))
    ]
    code, key = create(
        live_server, name="协会杯", format="knockout", duplicate=True, games=1, third_place=True,
        teams=teams,
    )  # fmt: skip
    base = f"/api/events/{code}"
    api(live_server, "POST", base + "/rounds", {}, key)
    ev = api(live_server, "GET", base)
    lot, walk = ev["rounds"][0]
    absent = walk["teams"][0]
    api(live_server, "POST", f"{base}/matches/{walk['id']}/walkover", {"absent": [absent]}, key)
    tables = lot["tables"]
    for t in tables:
        api(
            live_server, "POST", f"{base}/tables/{t}/sanctions", {"kind": "penalty", "seat": 1}, key
        )
    for g in range(6):
        for t in tables:
            api(live_server, "POST", f"{base}/tables/{t}/games", {"game": g, "places": AB}, key)
    ev = api(live_server, "GET", base)
    lot = ev["rounds"][0][0]
    assert lot["by_lot"] and lot["extra_games"] == 5 and lot["totals"] == [21, 21]
    api(live_server, "POST", base + "/rounds", {}, key)
    ev = api(live_server, "GET", base)
    final, third = ev["rounds"][1]
    assert third["third_place"] and not final["third_place"]
    names = tuple(t["name"] for t in teams) + tuple(p for t in teams for p in t["players"])
    return {
        "code": code, "key": key, "lot": lot, "walk": walk, "absent": absent, "final": final,
        "third": third, "names": ("协会杯", *names), "ev": ev,
    }  # fmt: skip


# ---------------------------------------------------------------------------- the tests
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_unfinished_event_names_no_champion(
    live_server: LiveServer, pages: Pages, shots: Path, unfinished: dict[str, Any], lang: str
) -> None:
    code, words = unfinished["code"], WORDS[lang]
    page = open_page(pages, f"{live_server.url}/e/{code}", lang)
    expect(page.locator("#ev-status")).to_have_text(words["unfinished"])
    expect(page.locator("#ev-champion")).to_have_count(0)
    expect(page.locator("#ev-unfinished")).to_be_visible()
    # round 1 of eight teams is no final, and no round to come is drawn as empty boxes
    expect(page.locator("#bracket .br-round h3")).to_have_text([words["round1"]])
    expect(page.locator("#bracket .br-match.tbd")).to_have_count(0)
    text = visible_text(page)
    assert words["champion"] not in text and words["final"] not in text
    # the standings as they stand: every team, nobody crowned
    expect(page.locator("#standings tbody tr")).to_have_count(8)
    expect(page.locator("#standings tr.first")).to_have_count(0)
    assert_words(page, lang, "the public page (unfinished)", unfinished["names"])
    shoot(page, shots / f"event-unfinished-{lang}.png", both=False)

    printed = open_page(pages, f"{live_server.url}/e/{code}/print", lang)
    expect(printed.locator("#print-status")).to_have_text(words["unfinished"])
    expect(printed.locator("#print-champion")).to_have_count(0)
    expect(printed.locator(".standings-page #standings tbody tr")).to_have_count(8)
    assert words["champion"] not in visible_text(printed)
    assert_words(printed, lang, "the print page (unfinished)", unfinished["names"])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lot_extra_games_walkover_third_place_on_the_public_page(
    live_server: LiveServer, pages: Pages, shots: Path, cup: dict[str, Any], lang: str
) -> None:
    code, words, lot = cup["code"], WORDS[lang], cup["lot"]
    page = open_page(pages, f"{live_server.url}/e/{code}", lang)
    expect(page.locator("#ev-status")).not_to_have_text("")
    # the bracket: round 1 of four is the semi-finals, round 2 the final with third place
    expect(page.locator("#bracket .br-round h3")).to_have_text([words["semi"], words["final"]])
    box = page.locator(f'#bracket .br-match[data-match="{lot["id"]}"]')
    expect(box.locator(".br-lot")).to_contain_text(words["lot"])
    expect(box.locator(".br-lot")).to_contain_text(lot["winner"])
    expect(box.locator(".br-extra")).to_contain_text(words["whole"])
    walk = page.locator(f'#bracket .br-match[data-match="{cup["walk"]["id"]}"]')
    expect(walk.locator(".ev-wo")).to_have_text(words["walkover"])
    expect(walk.locator(".br-team", has_text=cup["absent"]).locator(".ev-wo")).to_have_count(1)
    third = page.locator(f'#bracket .br-match[data-match="{cup["third"]["id"]}"]')
    expect(third.locator(".br-label")).to_have_text(words["third"])
    expect(page.locator("#bracket .ev-seed", has_text=words["seed"])).not_to_have_count(0)
    expect(page.locator("#standings .ev-seed")).to_have_count(2)

    # the results: the match's header and its tables' cards agree, each number named
    result = page.locator(f'#results-box .result-match[data-match="{lot["id"]}"]')
    header = result.locator(".result-score").inner_text()
    assert words["extra"] in header and words["whole"] in header, header
    decide, whole = numbers(header)[:2], numbers(header)[2:4]
    assert decide == lot["totals"]
    sums = [numbers(t) for t in result.locator(".result-sum").all_inner_texts()]
    assert len(sums) == 2  # two tables, both counted in the match's order
    assert [sums[0][0] + sums[1][0], sums[0][1] + sums[1][1]] == whole
    assert [sums[0][2] + sums[1][2], sums[0][3] + sums[1][3]] == decide
    expect(result.locator(".result-outcome")).to_contain_text(words["lot"])
    expect(result.locator("li.extra")).to_have_count(10)  # 5 extra games at each table
    expect(result.locator("li.extra .ev-extra").first).to_have_text(words["extra"])
    expect(result.locator("li:not(.extra)")).to_have_count(2)
    # each table says which trio of each team sits where
    heads = result.locator(".result-table h5").all_inner_texts()
    assert all(words["trio1"] in h and words["trio2"] in h for h in heads), heads
    table1 = api(live_server, "GET", f"/api/events/{code}")["tables"][0]
    assert table1["id"] == lot["tables"][0]
    assert heads[0].index(table1["teams"][0]) < heads[0].index(words["trio1"])
    walkover = page.locator(f'#results-box .result-match[data-match="{cup["walk"]["id"]}"]')
    expect(walkover.locator(".result-outcome")).to_contain_text(cup["absent"])
    expect(walkover.locator(".result-outcome")).to_contain_text(words["walkover"])
    # the tables of the final round are waiting: their cards name the trios too
    expect(page.locator("#live .live-table")).to_have_count(4)
    expect(page.locator("#live .ev-trio").first).to_have_text(words["trio1"])
    expect(page.locator("#live .live-label", has_text=words["third"])).to_have_count(2)
    # the workbook in the page's language, next to the CSVs, and it is there
    href = page.locator("#xlsx").get_attribute("href")
    assert href == f"/api/events/{code}/export.xlsx?lang={lang}"
    assert page.request.get(live_server.url + href).status == 200
    assert_words(page, lang, "the public page (cup)", cup["names"])
    shoot(page, shots / f"event-lot-{lang}.png")
    page.locator(
        f'#results-box .result-match[data-match="{lot["id"]}"]'
    ).scroll_into_view_if_needed()
    shoot(page, shots / f"event-lot-results-{lang}.png", both=False)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_print_marks_the_lot_and_has_rows_for_extra_games(
    live_server: LiveServer, pages: Pages, shots: Path, cup: dict[str, Any], lang: str
) -> None:
    code, words, lot = cup["code"], WORDS[lang], cup["lot"]
    # round 1: the lot's sheets carry every game, the extra ones marked, and say how it ended
    page = open_page(pages, f"{live_server.url}/e/{code}/print?round=1", lang)
    expect(page.locator(".sheet-page[data-table]")).to_have_count(4)
    sheet = page.locator(f'.sheet-page[data-table="{lot["tables"][0]}"]')
    expect(sheet.locator(".sheet-table tbody tr.filled")).to_have_count(6)
    expect(sheet.locator(".sheet-table tbody tr.extra")).to_have_count(5)
    expect(sheet.locator(".sheet-table tr.extra .ev-extra").first).to_have_text(words["extra"])
    expect(sheet.locator(".sheet-result")).to_contain_text(words["lot"])
    expect(sheet.locator(".sheet-result")).to_contain_text(words["whole"])
    expect(sheet.locator(".pen-cell").first).to_have_text(
        "2号位 −2" if lang == "zh" else "seat 2 −2"
    )
    total, since = sheet.locator("tr.total").nth(0), sheet.locator("tr.total.since")
    expect(total.locator("td")).to_have_text(["78", "46"])  # 13 + 5 × 13 : 6 + 5 × 8
    expect(since.locator("td")).to_have_text(["13", "8"])  # the last extra game decides
    expect(sheet.locator(".sheet-trios")).to_contain_text(words["trio2"])
    expect(sheet.locator(".seats-table tbody tr").nth(1).locator("td").last).to_have_text(
        words["trio2"]
    )
    walk = page.locator(f'.sheet-page[data-table="{cup["walk"]["tables"][0]}"]')
    expect(walk.locator(".sheet-table")).to_have_count(0)
    expect(walk.locator(".sheet-result")).to_contain_text(words["walkover"])
    assert_words(page, lang, "the print page (round 1)", cup["names"])
    shoot(page, shots / f"event-print-lot-{lang}.png", both=False)

    # round 2 to play: a blank sheet has the game, five extra rows (加赛) and the 罚分 column
    page.goto(f"{live_server.url}/e/{code}/print?round=2")
    third = page.locator(f'.sheet-page[data-table="{cup["third"]["tables"][0]}"]')
    expect(third.locator(".sheet-head")).to_contain_text(words["third"])
    final = page.locator(f'.sheet-page[data-table="{cup["final"]["tables"][1]}"]')
    rows = final.locator(".sheet-table tbody tr:not(.total)")
    expect(rows).to_have_count(6)
    expect(final.locator(".sheet-table tbody tr.blank.extra")).to_have_count(5)
    expect(final.locator(".sheet-table thead th").nth(7)).to_have_text(
        "罚分" if lang == "zh" else "Penalties"
    )
    expect(final.locator(".sheet-result")).to_have_count(0)
    expect(final.locator(".sheet-rule")).to_be_visible()  # how the extra rows are used
    assert_words(page, lang, "the print page (round 2)", cup["names"])
    page.locator(
        f'.sheet-page[data-table="{cup["final"]["tables"][1]}"]'
    ).scroll_into_view_if_needed()
    shoot(page, shots / f"event-print-extra-{lang}.png", both=False)
    # nobody without the organiser's key is offered the hand records, even by address
    expect(page.locator("#views a")).to_have_count(0)
    page.goto(f"{live_server.url}/e/{code}/print?round=2&view=boards")
    expect(page.locator(".sheet-page[data-table]")).to_have_count(4)
    expect(page.locator(".boards-page")).to_have_count(0)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hand_records_for_the_organiser_only(
    live_server: LiveServer, pages: Pages, shots: Path, cup: dict[str, Any], lang: str
) -> None:
    code, key, words = cup["code"], cup["key"], WORDS[lang]
    referee = api(live_server, "POST", f"/api/events/{code}/referees", {"name": "王"}, key)["key"]
    page = open_page(pages, f"{live_server.url}/e/{code}/print?round=2", lang, (code, referee))
    expect(page.locator(".sheet-page[data-table]")).to_have_count(4)
    expect(page.locator("#views a")).to_have_count(0)  # a referee's key is not the organiser's

    page = open_page(pages, f"{live_server.url}/e/{code}/print?round=2", lang, (code, key))
    expect(page.locator("#views a")).to_have_count(2)
    page.locator("#view-boards").click()
    expect(page.locator(".boards-page")).to_have_count(2)  # the final and third place
    records = api(live_server, "GET", f"/api/events/{code}/boards?round=2", key=key)
    final = page.locator(f'.boards-page[data-match="{cup["final"]["id"]}"]')
    expect(final.locator(".board")).to_have_count(6)
    expect(final.locator(".board.extra")).to_have_count(5)
    expect(final.locator(".board.extra h3").first).to_contain_text(words["extra"])
    expect(final.locator(".boards-how")).to_contain_text(
        "first taker" if lang == "en" else "首取牌人"
    )
    third = page.locator(f'.boards-page[data-match="{cup["third"]["id"]}"]')
    expect(third.locator(".sheet-head")).to_contain_text(words["third"])
    # hand 1 of game 1 as the API deals it, written as players write cards
    board = next(m for m in records["matches"] if m["match"] == cup["final"]["id"])["boards"][0]
    row = final.locator(".board").first.locator("tbody tr").first
    expect(row.locator("th")).to_have_text(words["hand1"])
    cells = row.locator("td").all_inner_texts()
    hand = board["hands"][0]
    for k, suit in enumerate("SHDC"):
        ranks = [c[:-1] for c in hand if c not in ("SJ", "LJ") and c[-1] == suit]
        assert sorted(cells[k].split()) == sorted("10" if r == "T" else r for r in ranks), suit
    jokers = cells[4].split()
    assert jokers.count(words["big"]) == hand.count("LJ")
    assert len(jokers) == hand.count("LJ") + hand.count("SJ")
    assert cells[5] == str(len(hand)) == "36"
    heads = final.locator(".board").first.locator("thead th").all_inner_texts()
    assert heads[1:5] == list(SUITS.values())
    assert_words(page, lang, "the hand records", cup["names"])
    shoot(page, shots / f"event-boards-{lang}.png", both=False)


def test_a_league_walkover_on_the_pairings_and_sheet_items_in_print(
    live_server: LiveServer, pages: Pages
) -> None:
    """A round robin's walkover on the pairings; the printed sheet shows what the referee's
    sheet said besides places (COMP2 scores 不开点, R17.2)."""
    teams: list[dict[str, Any]] = [
        {"name": n, "players": [f"{n}{k}" for k in "甲乙丙"]} for n in ("东", "西", "南", "北")
    ]
    code, key = create(live_server, name="联赛", preset="COMP2", format="round_robin", teams=teams)
    base = f"/api/events/{code}"
    api(live_server, "POST", base + "/rounds", {}, key)
    walk, played = api(live_server, "GET", base)["rounds"][0]
    api(
        live_server,
        "POST",
        f"{base}/matches/{walk['id']}/walkover",
        {"absent": [walk["teams"][1]]},
        key,
    )
    table = played["tables"][0]
    sheet = {"game": 0, "places": AB, "not_opened": [5]}
    api(live_server, "POST", f"{base}/tables/{table}/games", sheet, key)
    last = api(live_server, "GET", base)["tables"][1]["players"][5]
    names = ("联赛", *(t["name"] for t in teams), *(p for t in teams for p in t["players"]))
    for lang in ("zh", "en"):
        page = open_page(pages, f"{live_server.url}/e/{code}", lang)
        row = page.locator(f'#pairings tr[data-match="{walk["id"]}"]')
        expect(row.locator("td.score")).to_have_text(WORDS[lang]["walkover"])
        expect(row.locator("td.outcome")).to_contain_text(walk["teams"][1])
        expect(row.locator(".ev-wo")).to_have_count(1)
        assert_words(page, lang, "the pairings", names)
        page.goto(f"{live_server.url}/e/{code}/print")
        items = page.locator(
            f'.sheet-page[data-table="{table}"] .sheet-table tr.filled td.items'
        ).first
        expect(items).to_have_text(f"{last} {'不开点' if lang == 'zh' else 'not opened'}")
        assert_words(page, lang, "the print page (league)", names)
