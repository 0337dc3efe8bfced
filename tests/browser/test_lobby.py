"""The lobby (index.html, lobby.js, presets.js) and the rules pages (GET /rules/{preset}) in
Chromium against the real server: players' names for rule sets and bots, the create-room body,
the rules links, and no engine words on screen.

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots (lobby and a rules page, in Chinese, at
1280x800 and 390x844).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gouji.agents import names as agent_names
from gouji.agents.levels import LEVELS
from gouji.engine.match import Match
from gouji.engine.rules import PRESET_NAMES, make_rules
from gouji.rulesdoc import NAMES, SUMMARIES

from .lobbypages import assert_player_words, open_lobby
from .webutil import (  # skips this module where Chromium or Playwright is missing
    DESKTOP,
    PHONE,
    LiveServer,
    Page,
    Pages,
    expect,
    picture,
    visible_text,
)


def rules_href(code: str, lang: str) -> str:
    return f"/rules/{code}?lang={lang}"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lobby_names_and_describes_every_rule_set(
    live_server: LiveServer, pages: Pages, lang: str
) -> None:
    page = pages.new("Ada")
    open_lobby(page, live_server, lang)
    options = page.locator("#preset option")
    assert options.all_text_contents() == [NAMES[p][lang] for p in PRESET_NAMES]
    assert [o.get_attribute("value") for o in options.all()] == list(PRESET_NAMES)
    assert page.locator("#preset").input_value() == "OUTLINE_FULL"
    for code in PRESET_NAMES:
        page.locator("#preset").select_option(code)
        expect(page.locator("#preset-desc")).to_have_text(SUMMARIES[code][lang])
        expect(page.locator("#rules-link")).to_have_attribute("href", rules_href(code, lang))
        text = visible_text(page)
        assert NAMES[code][lang] in text
        assert_player_words(text, lang, f"the lobby with {code}", lobby=True)
    # bots by level, with the agent as the value; no engine name on screen
    levels = {
        "zh": ["新手", "普通", "高手", "大师"],
        "en": ["Beginner", "Intermediate", "Expert", "Master"],
    }
    assert page.locator("#bot option").all_text_contents() == levels[lang]
    assert [o.get_attribute("value") for o in page.locator("#bot option").all()] == [
        "beginner",
        "intermediate",
        "expert",
        "master",
    ]
    assert page.locator("#bot").input_value() == "intermediate"
    speeds = {"zh": ["慢", "正常", "快"], "en": ["Slow", "Normal", "Fast"]}
    assert page.locator("#bot_speed option").all_text_contents() == speeds[lang]
    assert page.locator("#bot_speed").input_value() == "600"


def test_language_switch_keeps_the_choices(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("Ada")
    open_lobby(page, live_server, "en")
    page.locator("#preset").select_option("MATCH7")
    page.locator("#bot").select_option("master")
    page.locator("#bot_speed").select_option("250")
    page.locator("#count_visibility").select_option("always")
    page.locator("#lang").click()
    expect(page.locator("#preset-desc")).to_have_text(SUMMARIES["MATCH7"]["zh"])
    assert page.locator("#preset").input_value() == "MATCH7"
    assert page.locator("#bot").input_value() == "master"
    assert page.locator("#bot_speed").input_value() == "250"
    assert page.locator("#count_visibility").input_value() == "always"
    expect(page.locator("#rules-link")).to_have_attribute("href", rules_href("MATCH7", "zh"))
    assert page.locator("#games").get_attribute("placeholder") == "3（平局加赛）"
    page.reload()  # the language is remembered
    expect(page.locator("#preset option").first).to_have_text(NAMES["OUTLINE_FULL"]["zh"])


#: presets.js's rule sets, bot levels and speeds, their names said in both languages.
PRESETS_JS = """async () => {
    const m = await import("/static/js/presets.js");
    const i18n = await import("/static/js/i18n.js");
    const both = (l, key) => (i18n.setLang(l), i18n.t(key));
    const say = (key) => ({zh: both("zh", key), en: both("en", key)});
    const out = {
        presets: m.PRESETS.map((p) => ({...p, name: say(p.name), summary: say(p.summary)})),
        levels: m.BOT_LEVELS.map((b) => ({...b, name: say(b.name)})),
        speeds: m.BOT_SPEEDS,
    };
    return out;
}"""


def test_presets_js_agrees_with_the_engine(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("Ada")
    page.goto(live_server.url + "/")
    data: dict[str, Any] = page.evaluate(PRESETS_JS)
    presets = {p["code"]: p for p in data["presets"]}
    assert list(presets) == list(PRESET_NAMES)
    for code, p in presets.items():
        rules = make_rules(code)
        assert p["name"] == NAMES[code]  # one source: words/presets.js, read by both
        assert p["summary"] == SUMMARIES[code]
        assert p["countVisibility"] == rules.info_count_visibility
        assert p["games"] == Match(rules, seed=0).length
    levels = [b["agent"] for b in data["levels"]]
    assert levels == [lv.key for lv in LEVELS]  # the engine's levels, weakest first
    assert set(levels) <= set(agent_names())
    assert [b["name"]["zh"] for b in data["levels"]] == [lv.zh for lv in LEVELS]
    # rooms made before the four levels name the agents of the old three; shown by level
    also = {b["agent"]: b["also"] for b in data["levels"]}
    assert also == {
        "beginner": ["random"],
        "intermediate": [],
        "expert": ["heuristic"],
        "master": ["search"],
    }
    assert [s["ms"] for s in data["speeds"]] == [1200, 600, 250]


def create_room(page: Page, server: LiveServer) -> dict[str, Any]:
    page.locator("#create").click()
    page.wait_for_url("**/r/*")
    code = page.url.rstrip("/").split("/")[-1]
    config: dict[str, Any] = server.get_json(f"/api/rooms/{code}")["config"]
    return config


def test_creating_a_room_sends_the_players_choices(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    page = pages.new(None, DESKTOP)
    open_lobby(page, live_server, "zh")
    page.locator("#name").fill("大师迷")
    page.locator("#preset").select_option(label=NAMES["AUDIT"]["zh"])
    page.locator("#bot").select_option(label="大师")
    expect(page.locator("#bot-hint")).to_contain_text("多想")
    page.locator("#bot_speed").select_option(label="快")
    page.locator("#timer").fill("45")
    page.locator("#games").fill("2")
    expect(page.locator("#formation")).to_have_value("seats")  # 自认联邦 unless chosen
    page.locator("#formation").select_option(label="抽签组邦")
    expect(page.locator("#formation-hint")).to_contain_text("抽签")
    picture(page, shots / "lobby-create-1280x800.png")
    cfg = create_room(page, live_server)
    assert cfg["preset"] == "AUDIT" and cfg["formation"] == "draw"  # R1.6
    assert (cfg["bot"], cfg["bot_delay_ms"], cfg["timer_s"]) == ("master", 250, 45)
    assert (cfg["bots"], cfg["games"], cfg["count_visibility"]) == (5, 2, None)
    assert cfg["card_counter"] is False

    # no timer, slow beginners, people only, the card counter and counts always shown
    page = pages.new("Bo", PHONE)
    open_lobby(page, live_server, "en")
    page.locator("#preset").select_option(label=NAMES["LAIWU"]["en"])
    page.locator("#bot").select_option(label="Beginner")
    page.locator("#bot_speed").select_option(label="Slow")
    page.locator("#bots").select_option(label="No bots")
    page.locator("#no_timer").check()
    expect(page.locator("#timer")).to_be_disabled()
    page.locator("#count_visibility").select_option(label="Always shown")
    page.locator("#card_counter").check()
    page.locator("#formation").select_option(label="自选对头: choose your 对头")
    cfg = create_room(page, live_server)
    assert cfg["formation"] == "opposite"
    assert (cfg["preset"], cfg["bot"], cfg["bot_delay_ms"]) == ("LAIWU", "beginner", 1200)
    assert (cfg["timer_s"], cfg["bots"], cfg["games"]) == (None, 0, None)
    assert (cfg["count_visibility"], cfg["card_counter"]) == ("always", True)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_link_opens_the_rule_sets_page(
    live_server: LiveServer, pages: Pages, lang: str
) -> None:
    page = pages.new("Ada")
    open_lobby(page, live_server, lang)
    page.locator("#preset").select_option("LIANG4")
    with page.context.expect_page() as opened:
        page.locator("#rules-link").click()
    # (no error listener on the popup: the harness listens to the pages it opens itself; the
    # rules pages' own errors are caught by the test below)
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == live_server.url + rules_href("LIANG4", lang)
    expect(rules.locator("h1")).to_have_text(NAMES["LIANG4"][lang])
    expect(rules.locator("article blockquote")).to_have_text(SUMMARIES["LIANG4"][lang])
    expect(rules.locator("html")).to_have_attribute("lang", "zh-CN" if lang == "zh" else "en")
    expect(rules.locator(".rules-presets a[aria-current=page]")).to_have_text(NAMES["LIANG4"][lang])
    # its language switch leads to the same rule set in the other language
    other = "en" if lang == "zh" else "zh"
    rules.locator("#lang").click()
    rules.wait_for_url(f"**{rules_href('LIANG4', other)}")
    expect(rules.locator("h1")).to_have_text(NAMES["LIANG4"][other])
    # the way back to the lobby, which now speaks the language chosen on the rules page
    rules.locator(".rules-presets a.back").click()
    rules.wait_for_url(live_server.url + "/")
    expect(rules.locator("#preset option").first).to_have_text(NAMES["OUTLINE_FULL"][other])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_pages_show_players_words_only(
    live_server: LiveServer, pages: Pages, lang: str
) -> None:
    page = pages.new("Ada")
    for code in PRESET_NAMES:
        page.goto(live_server.url + rules_href(code, lang))
        expect(page.locator("h1")).to_have_text(NAMES[code][lang])
        assert page.locator("article h2").count() >= 10
        assert page.locator("#toc li").count() == page.locator("article h2").count()
        assert_player_words(visible_text(page), lang, f"the rules page of {code}")
    # the contents, open beside the text on a wide screen, link to their sections
    expect(page.locator("#toc")).to_have_attribute("open", "")
    page.locator("#toc li a").last.click()
    assert page.evaluate("location.hash") == "#" + str(
        page.locator("article h2").last.get_attribute("id")
    )


def test_screenshots_in_chinese(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    for size, viewport in (("1280x800", DESKTOP), ("390x844", PHONE)):
        page = pages.new("王小二", viewport)
        open_lobby(page, live_server, "zh")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        picture(page, shots / f"lobby-zh-{size}.png")
        page.goto(live_server.url + rules_href("OUTLINE_FULL", "zh"))
        expect(page.locator("h1")).to_have_text(NAMES["OUTLINE_FULL"]["zh"])
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        picture(page, shots / f"rules-zh-{size}.png")


def test_the_served_preset_words_are_rulesdocs(live_server: LiveServer, pages: Pages) -> None:
    """The rule sets' names and summaries the browser is served (words/presets.js, which
    gouji.rulesdoc reads too) are the rules pages' own, for every rule set."""
    page = pages.new("Ada")
    page.goto(live_server.url + "/")
    words: dict[str, dict[str, str]] = page.evaluate(
        """async () => (await import("/static/js/words/presets.js")).default"""
    )
    for code in PRESET_NAMES:
        for lang in ("zh", "en"):
            assert words[lang][f"preset_name.{code}"] == NAMES[code][lang]
            assert words[lang][f"preset_summary.{code}"] == SUMMARIES[code][lang]


#: Every word file's keys by language, and the page language's words for a few keys.
WORD_FILES_JS = """async () => {
    const i18n = await import("/static/js/i18n.js");
    const files = {};
    for (const [name, f] of Object.entries(i18n.WORD_FILES))
        files[name] = {zh: Object.keys(f.zh), en: Object.keys(f.en)};
    i18n.setLang("en");
    const en = [i18n.t("seat_n", 3), i18n.t("no.such.key"), i18n.t("account.games_n", {count: 1})];
    return {files, en};
}"""


def test_one_word_system(live_server: LiveServer, pages: Pages) -> None:
    """One folder of word files, each key in one file only and in both languages (but for the
    English-only "one thing" forms, `<key>_1`); the lookup falls back to the key itself."""
    page = pages.new("Ada")
    page.goto(live_server.url + "/")
    data: dict[str, Any] = page.evaluate(WORD_FILES_JS)
    files: dict[str, dict[str, list[str]]] = data["files"]
    assert set(files) == {
        "common", "table", "story", "lobby", "account", "analysis", "chat", "events",
        "presets", "competition",
    }  # fmt: skip
    owner: dict[str, str] = {}
    for name, keys in files.items():
        for key in keys["zh"] + keys["en"]:
            assert owner.setdefault(key, name) == name, f"{key} in {name} and {owner[key]}"
        assert set(keys["zh"]) <= set(keys["en"]), name
        assert all(k.endswith("_1") for k in set(keys["en"]) - set(keys["zh"])), name
    assert data["en"] == ["Seat 3", "no.such.key", "1 game"]
    web = Path(__file__).resolve().parents[2] / "src" / "gouji" / "web" / "js" / "words"
    assert {p.stem for p in web.iterdir()} == set(files)
