"""The helpers of the event pages' browser tests (test_events_pages.py, test_events_admin.py,
test_event_wall.py): the engine codes no page may show and the checks of a page's words in
Chinese and English, the pages' words for the server's refusals, the event as the API
answers it, a team registered and a score sheet entered through the admin page, the refusals
a test asked for dropped from the console's errors, and the public page told to poll now."""

from __future__ import annotations

import re
import time
from typing import Any

from .webutil import (
    LATIN_ALLOWED,
    LATIN_WORD,
    LiveServer,
    Page,
    Pages,
    en_problems,
    visible_text,
    wait_js,
)

MATCH7_POINTS = (7, 5, 4, 3, 2, 0)  # R17.3

#: Engine codes a page may never show: table and match ids, preset codes, keys joined by '_',
#: format, mode and status words of the API, JavaScript leftovers, 0-based seats.
ENGINE_CODE = re.compile(
    r"\br\d+m\d+(?:t\d+)?\b|\b(?:OUTLINE_FULL|OUTLINE_CLASSIC|LAIWU|AUDIT|LIANG4|MATCH7|COMP2)\b"
    r"|\b\w+_\w+\b|\b(?:paper|registering|undefined|null|NaN)\b|\[object"
    r"|(?:座位|Seat)\s*0(?!\d)"
)


#: The page's words for server refusals ([status, message] pairs), in Chinese and English.
SAY_REFUSALS_JS = """async (refusals) => {
    const m = await import("/static/js/event-words.js");
    const i18n = await import("/static/js/i18n.js");
    const out = {};
    for (const lang of ["zh", "en"]) {
        i18n.setLang(lang);
        out[lang] = refusals.map(([status, msg]) => m.refusalText(status, msg));
    }
    return out;
}"""


def assert_zh_words(page: Page, where: str) -> None:
    """Chinese page: no Latin word but the brand and the language switch, no engine code."""
    text = visible_text(page)
    latin = sorted(set(LATIN_WORD.findall(text)) - LATIN_ALLOWED)
    codes = sorted(set(m.group(0) for m in ENGINE_CODE.finditer(text)))
    assert not latin and not codes, f"{where} (zh) shows {latin + codes}"


def assert_en_words(page: Page, where: str, names: tuple[str, ...] = ()) -> None:
    """English page: no engine code, Chinese only as the game's own terms or names."""
    text = visible_text(page)
    codes = sorted(set(m.group(0) for m in ENGINE_CODE.finditer(text)))
    lines = [x for x in text.split("\n") if x.strip()]
    assert not codes, f"{where} (en) shows {codes}"
    assert not en_problems(lines, names), f"{where} (en): {en_problems(lines, names)}"


def event_json(server: LiveServer, code: str) -> dict[str, Any]:
    out: dict[str, Any] = server.get_json(f"/api/events/{code}")
    return out


def wait_status(server: LiveServer, code: str, status: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while event_json(server, code)["status"] != status:
        assert time.monotonic() < deadline, f"event {code} never became {status}"
        time.sleep(0.05)


def match7_scores(places: list[int]) -> tuple[int, int]:
    """The two teams' MATCH7 scores of a game (team A at seats 0, 2, 4)."""
    a = sum(MATCH7_POINTS[p - 1] for p in places[0::2])
    b = sum(MATCH7_POINTS[p - 1] for p in places[1::2])
    return a, b


def register(page: Page, name: str, players: list[str]) -> None:
    page.locator("#team-name").fill(name)
    for k, player in enumerate(players, start=1):
        page.locator(f"#player-{k}").fill(player)
    page.locator("#team-add").click()


def enter_sheet(page: Page, table: str, places: list[int]) -> None:
    """Fill the next game's sheet of `table` (a place per player), look at the scores it gives
    and confirm them."""
    card = page.locator(f'.ev-tablecard[data-table="{table}"]')
    form = card.locator("form.sheet")
    title = form.locator("h4").inner_text()
    for seat, place in enumerate(places):
        form.locator(f'select.place[data-seat="{seat}"]').select_option(str(place))
    form.locator("button.submit-sheet").click()
    page.locator("dialog#ask button.ask-ok").click()
    wait_js(
        page,  # the next game's sheet, or none once the match is decided
        """([id, title]) => {
            const h = document.querySelector(`.ev-tablecard[data-table="${id}"] form.sheet h4`);
            return !h || h.textContent !== title;
        }""",
        arg=[table, title],
    )


def forget_refusals(pages: Pages, count: int) -> None:
    """The browser logs each refused request (4xx) as a console error: drop the `count` the
    test asked for (and only those), so that any other error still fails the test."""
    refused = [e for e in pages.errors if re.search(r"status of 4\d\d", e)]
    assert len(refused) == count, pages.errors
    for e in refused:
        pages.errors.remove(e)


def follow(page: Page) -> None:
    """Let the public page (installed clock) poll the event now instead of at its timer (every
    few seconds): it still follows by itself, without the test waiting for the timer. Its
    fake time jumps a minute, which fires the timer once."""
    page.clock.fast_forward(60_000)
