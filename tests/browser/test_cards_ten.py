"""A 10 in the hand reads "10" where cards overlap (issue 35): only the left strip of a card
shows under the next one, and its corner label must fit that strip whole (real cards print the
10 narrow in the corner), or the hand reads "1(1(10". Measured with getBoundingClientRect on a
phone (390×844) and a desktop (1280×800), in both languages."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .webutil import DESKTOP, KEEP_SCREENSHOTS, PHONE, LiveServer, Pages, expect

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

#: A hand with four 10s (three of them under the next 10; a rank group is drawn alone) by hand.js in
#: the table page's hand; each overlapped 10's label box and the next card's left edge.
DRAW_AND_MEASURE_JS = """async (lang) => {
  const { drawHand } = await import("/static/js/hand.js");
  const box = document.createElement("div");
  box.className = "hand";
  box.id = "ten-hand";
  document.body.prepend(box);
  const cards = ["3", "7", "7", "9", "T", "T", "T", "T", "J", "Q", "Q", "2", "SJ"];
  drawHand(box, cards, new Set(), lang);
  const out = [];
  for (const card of box.querySelectorAll(".card.card-t")) {
    const next = card.nextElementSibling;
    if (!next || !next.classList.contains("card")) continue;
    const face = card.querySelector(".face");
    const label = face.getBoundingClientRect();
    out.push({
      text: face.textContent,
      right: label.right,
      left: label.left,
      nextLeft: next.getBoundingClientRect().left,
      spacing: getComputedStyle(face).letterSpacing,
    });
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_overlapped_ten_shows_its_label_whole(
    live_server: LiveServer, pages: Pages, shots: Path, viewport: ViewportSize, lang: str
) -> None:
    code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=4)
    page = pages.new("ann", viewport=viewport, lang=lang)
    page.goto(f"{live_server.url}/r/{code}")
    expect(page.locator("body")).to_be_visible()
    tens: list[dict[str, Any]] = page.evaluate(DRAW_AND_MEASURE_JS, lang)
    assert len(tens) == 3, tens  # four 10s: three under the next 10, the last one whole
    for ten in tens:
        assert ten["text"] == "10"
        # a negative letter spacing would draw the "0" past the box measured here
        assert ten["spacing"] in ("normal", "0px") or float(ten["spacing"][:-2]) >= 0, ten
        assert ten["left"] < ten["right"] <= ten["nextLeft"], f"the 10's label is cut: {ten}"
    if KEEP_SCREENSHOTS:  # to look at: the hand with its 10s
        shot = shots / f"cards-ten-{lang}-{viewport['width']}.png"
        page.locator("#ten-hand").screenshot(path=str(shot), animations="disabled")
