"""The helpers of the lobby's browser tests (test_lobby.py, test_lobby_list.py): the lobby
opened in a language with its own switch, and the check that a page shows players' words
only (no preset code, configuration key or bot program in English, no Latin word in
Chinese)."""

from __future__ import annotations

import re

from gouji.engine.rules import PRESET_NAMES

from .webutil import LATIN_ALLOWED, LATIN_WORD, LiveServer, Page, expect

#: What a player may not see in English: preset codes, configuration keys (dotted or joined by
#: '_') and their module prefixes.
ENGINE_WORDS = re.compile(
    r"OUTLINE_|\b(?:OUTLINE_FULL|OUTLINE_CLASSIC|LAIWU|AUDIT|LIANG4|MATCH7|COMP2)\b"
    r"|bie3|\bdian\.|\btrib\.|\b\w+_\w+\b"
    r"|\b(?:deck|open|play|round|burn|end|info|dian|laiwu|hui|rev|trib|score|sw)\.[a-z]"
)
#: The bots' program names, which the lobby shows as levels (新手, 普通, 高手, 大师) instead.
AGENT_WORDS = re.compile(r"\b(?:random|greedy|heuristic|search)\b")


def open_lobby(page: Page, server: LiveServer, lang: str) -> None:
    """The lobby in `lang`, switched with its own button (pages start in English)."""
    page.goto(server.url + "/")
    expect(page.locator("#preset option")).to_have_count(len(PRESET_NAMES))
    if page.evaluate("document.documentElement.lang") != ("zh-CN" if lang == "zh" else "en"):
        page.locator("#lang").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN" if lang == "zh" else "en")


def assert_player_words(text: str, lang: str, where: str, lobby: bool = False) -> None:
    if lang == "en":
        found = sorted(set(ENGINE_WORDS.findall(text)))
        if lobby:
            found += sorted(set(AGENT_WORDS.findall(text)))
    else:
        found = sorted(set(LATIN_WORD.findall(text)) - LATIN_ALLOWED)
    assert not found, f"{where} ({lang}) shows {found}"
