"""复盘 on the replay page (issue 25): the Analyse button, the progress, then the flagged
decisions marked on the timeline with colour and symbol; a mark shows its decision — who chose
what, the better play, what each was worth and the loss — in the game's own words, in Chinese
and after the switch in English; each player's summary leads to its costliest moments. A short
game of random bots (tests/support.py ``SHORT_GAME``: its analysis flags some of their plays)
analysed at a test's small ``analysis_steps``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gouji.server.plumbing.limits import Limits
from support import ANALYSIS_STEPS, SHORT_GAME

from .webutil import (  # skips where Chromium is missing
    PHONE,
    LiveServer,
    Pages,
    en_problems,
    expect,
    shoot,
    zh_problems,
)

#: Each class's mark: its symbol and its colour (css/analysis.css).
MARKS = {
    ("inaccuracy", "?!", "rgb(232, 194, 26)"),  # yellow
    ("mistake", "?", "rgb(240, 138, 28)"),  # orange
    ("blunder", "??", "rgb(212, 35, 27)"),  # red
}


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The module's server, its analyses at a test's work a decision."""
    limits = Limits(analysis_steps=ANALYSIS_STEPS)
    server = LiveServer(tmp_path_factory.mktemp("server") / "gouji.db", limits=limits)
    server.start()
    yield server
    server.stop()


def test_the_analysis_marks_the_flagged_decisions_and_explains_them(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    code = live_server.create_room(games=1, **SHORT_GAME)
    deadline = time.monotonic() + 30
    while live_server.get_json(f"/api/rooms/{code}")["status"] != "over":
        assert time.monotonic() < deadline, "the all-bot room did not finish"
        time.sleep(0.05)

    page = pages.new("ann", viewport=PHONE, lang="zh")
    page.goto(f"{live_server.url}/replay/{code}/0")
    button = page.locator("#analyse")
    expect(button).to_have_text("复盘")
    button.click()
    expect(page.locator("#analysis-progress")).to_be_visible()  # judged in the workers …
    marks = page.locator("#marks .mark")
    expect(marks.first).to_be_visible(timeout=30_000)  # … then marked on the timeline
    expect(button).to_be_hidden()
    status = page.locator("#analysis-status")
    expect(status).to_contain_text("复盘完成")
    shown = page.evaluate(
        "[...document.querySelectorAll('#marks .mark')].map((m) =>"
        " [m.classList[1], m.textContent, getComputedStyle(m).backgroundColor])"
    )
    assert shown and {tuple(x) for x in shown} <= set(MARKS), shown  # colour and symbol
    blunder = page.locator("#marks .mark.blunder")
    mark = blunder.first if blunder.count() else marks.first

    mark.click()
    step = int(mark.get_attribute("data-step") or "0")
    expect(page.locator("#slider")).to_have_value(str(step))
    expect(mark).to_have_class(re.compile(r"\bcurrent\b"))
    moment = page.locator("#analysis-moment")
    expect(moment).to_contain_text(f"第 {step} 步")
    expect(moment).to_contain_text("的选择：")
    expect(moment).to_contain_text("更好的选择：")
    expect(moment).to_contain_text("本队预期得分")
    expect(moment).to_contain_text("损失约")
    zh_text = moment.inner_text()
    assert any(c in zh_text for c in ("欠佳", "失误", "大错")), zh_text
    assert " ± " in zh_text and "分" in zh_text
    assert zh_problems(zh_text.splitlines(), code) == [], zh_text  # no engine words
    rows = page.locator("#analysis-summary tbody tr:not(.costliest)")
    expect(rows).to_have_count(6)  # every seat, named as the page names them
    assert zh_problems(page.locator("#analysis-summary").inner_text().splitlines(), code) == []
    shoot(page, shots / "replay-analysis-zh.png")

    page.locator("#lang").click()
    expect(moment).to_contain_text(f"Step {step}")
    expect(moment).to_contain_text(" chose: ")
    expect(moment).to_contain_text("Better: ")
    expect(moment).to_contain_text("Expected result for the team")
    en_text = moment.inner_text()
    assert any(c in en_text for c in ("Inaccuracy", "Mistake", "Blunder")), en_text
    assert " points" in en_text and ("play " in en_text or "pass" in en_text), en_text
    assert en_problems(en_text.splitlines()) == [], en_text
    expect(page.locator("#analysis-summary")).to_contain_text("Costliest moments")
    shoot(page, shots / "replay-analysis-en.png")

    costly = page.locator("#analysis-summary button.costly").first
    costly.click()  # a costliest moment: its step, its decision
    expect(moment).to_be_visible()
    expect(page.locator("#slider")).not_to_have_value("0")

    again = pages.new("bob", viewport=PHONE, lang="en")  # the next viewer: at once, stored
    again.goto(f"{live_server.url}/replay/{code}/0")
    expect(again.locator("#marks .mark").first).to_be_visible()
    expect(again.locator("#analyse")).to_be_hidden()


#: The panel's words for actions (analysis-words.js deedText) in each language.
SAY_DEEDS_JS = """async (actions) => {
    const words = await import("/static/js/analysis-words.js");
    const i18n = await import("/static/js/i18n.js");
    const out = {};
    for (const lang of ["zh", "en"]) {
        i18n.setLang(lang);
        out[lang] = actions.map((a) => words.deedText(a));
    }
    return out;
}"""


def test_the_panel_says_actions_in_words(live_server: LiveServer, pages: Pages) -> None:
    """Issue 35: 复盘 says a play in words ("five Kings" / "五张K"), never as the engine's
    text ("play K K K K K"), and names pass, 让牌, burn and no burn in the page's language."""
    page = pages.new("ann")
    page.goto(f"{live_server.url}/")
    actions = [
        "play K K K K K",
        "play 7 7 2",
        "play T",
        "play A A A SJ",
        "burn 8 8 8 2 LJ",
        "pass",
        "rang",
        "noburn",
    ]
    said = page.evaluate(SAY_DEEDS_JS, actions)
    assert said["en"] == [
        "play five Kings",
        "play a pair of 7s with a 2",
        "play a 10",
        "play three Aces with a small joker",
        "burn three 8s with a 2 and a big joker",
        "pass",
        "yield (让牌)",
        "do not burn",
    ]
    assert said["zh"] == [
        "出五张K",
        "出一对7带一张2",
        "出一张10",
        "出三张A带一张小王",
        "用三张8带一张2、一张大王烧",
        "过牌",
        "让牌",
        "不烧",
    ]
