"""Playing at the table: the hand in rank order, why a selection cannot be played (check) and
why an action was refused (illegal), the keyboard, a click on the felt, sounds and muting."""

from __future__ import annotations

import random
import re

from .webutil import (
    DESKTOP,
    LiveServer,
    Page,
    Pages,
    drive,
    expect,
    open_table,
    start_seated,
    state,
    wait_game_over,
    wait_js,  # skips this module where Chromium or Playwright is missing
    wait_seated,
    wait_stopped,
)

RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "LJ"]
FACES = {"T": "10", "SJ": "小王", "LJ": "大王"}


def faces(cards: str) -> str:
    return " ".join(FACES.get(c, c) for c in cards.split())


def hand_rows(page: Page) -> list[list[str]]:
    rows: list[list[str]] = page.evaluate(
        "[...document.querySelectorAll('#hand .hand-row')]"
        ".map((r) => [...r.querySelectorAll('.group')].map((g) => g.dataset.rank))"
    )
    return rows


def test_hand_rows_read_in_rank_order(live_server: LiveServer, pages: Pages) -> None:
    # seed 4: the old layout put the J in the first row and the 10 in the second
    code = live_server.create_room(bots=5, bot_delay_ms=600, timer_s=None, seed=4)
    page = start_seated(pages, live_server, code, "Alice")
    rows = hand_rows(page)
    assert len(rows) == 2 and all(rows)
    flat = [RANKS.index(r) for row in rows for r in row]
    assert flat == sorted(flat) and len(set(flat)) == len(flat), rows
    # the layout rule itself, on many hands: rank order across both rows, halves of the hand
    rng = random.Random(1)
    hands = [rng.sample(RANKS * 4, rng.randint(13, 36)) for _ in range(60)]
    seen = "3 5 6 7 8 9 T J Q K 2 LJ 3 5 6 7 8 J K"  # a hand the old layout split badly
    hands.append(seen.split(" "))
    out = page.evaluate(
        """async (hands) => {
          const h = await import("/static/js/hand.js");
          const rows = (cards) => h.handRows(h.groupsOf(cards));
          return hands.map((cards) => rows(cards).map((r) => r.flatMap((g) => g.idx)));
        }""",
        [sorted(hand, key=RANKS.index) for hand in hands],
    )
    for rows_idx in out:
        flat_idx = [i for row in rows_idx for i in row]
        assert flat_idx == sorted(flat_idx)  # the first row holds the lowest ranks
        if len(rows_idx) == 2:
            assert abs(len(rows_idx[0]) - len(rows_idx[1])) <= 8


def select(page: Page, cards: list[int]) -> None:
    """Select exactly these cards (of different ranks): a tap takes a card's whole rank, each
    further tap one card fewer (hand.js tapRank), down to one."""
    for i in cards:
        card = page.locator(f'#hand .card[data-idx="{i}"]')
        card.click(position={"x": 6, "y": 20})
        code = card.get_attribute("data-code")
        mine = page.locator(f'#hand .card.selected[data-code="{code}"]')
        while mine.count() > 1:
            card.click(position={"x": 6, "y": 20})
        expect(card).to_have_class(re.compile(r"\bselected\b"))


def test_refusals_are_explained_and_keys_play(live_server: LiveServer, pages: Pages) -> None:
    code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=2)
    page = start_seated(pages, live_server, code, "张三", DESKTOP, "zh")
    drive(page, stop_at=("respond",))
    wait_stopped(page, "respond")
    standing: str = state(page, "view.standing")
    hand: list[str] = page.evaluate("window.gouji.state.hand")
    size = len(standing.split())
    first = next(i for i, c in enumerate(hand) if c != "3")  # 3s go out together (憋3)
    if size >= 2:  # one card cannot answer a play of several
        pick = [first]
        why = f"要与 {faces(standing)} 张数相同（看规则）"  # the rule is a link (R5.1)
    else:  # two ranks together are no play
        pick = [first, next(i for i, c in enumerate(hand) if c not in ("3", hand[first]))]
        why = "点数不同的牌不能一起出（只有 2 和王能带）（看规则）"
    select(page, pick)
    expect(page.locator("#actions .play-btn")).to_be_disabled()
    expect(page.locator("#actions .why")).to_contain_text(why)

    # an `illegal` error also says why, in words
    cards = " ".join(hand[i] for i in pick)
    page.evaluate(f"window.gouji.act('play {cards}')")
    expect(page.locator(".toast.error").last).to_contain_text(why)
    page.evaluate("window.gouji.driver.errors = []")  # that refusal was asked for

    # a click on the felt clears the selection (and the explanation)
    page.locator("#felt").click(position={"x": 5, "y": 5})
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    expect(page.locator("#actions .why")).to_have_count(0)
    expect(page.locator("#actions .clear-btn")).to_have_count(0)

    # H asks for a hint; Enter plays the selection; Space passes
    keys_used: set[str] = set()
    for _ in range(30):
        if keys_used == {"Enter", "Space"}:
            break
        version = state(page, "version")
        page.keyboard.press("h")
        wait_js(page, "window.gouji.state.hint !== null")
        hint: str = state(page, "hint")
        key = "Enter" if hint.startswith("play ") and "Enter" not in keys_used else "Space"
        if key == "Enter":
            expect(page.locator("#hand .card.selected")).to_have_count(len(hint.split()) - 1)
        page.keyboard.press(key)
        keys_used.add(key)
        wait_js(page, f"window.gouji.state.version > {version}")
        last = page.evaluate(
            "window.gouji.state.view.events.filter((e) => e.seat === window.gouji.state.seat"
            " && ['play', 'pass'].includes(e.type)).slice(-1)[0]"
        )
        assert last["type"] == ("play" if key == "Enter" else "pass")
        wait_stopped(page, "respond")
    assert keys_used == {"Enter", "Space"}

    # after the game no selection is made and no stray 清空 is left
    page.evaluate("window.gouji.driver.stopAt.clear(); window.gouji.driver.step()")
    wait_game_over(page)
    page.locator("#settlement .close").click()
    if page.locator("#hand .card").count():
        page.locator("#hand .card").first.click(position={"x": 6, "y": 20})
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    expect(page.locator("#actions .clear-btn")).to_have_count(0)
    # the settlement can be reopened from the action bar
    page.locator("#actions .settle-open").click()
    expect(page.locator("#settlement")).to_be_visible()


def test_sounds_and_the_mute_switch(live_server: LiveServer, pages: Pages) -> None:
    # seed 82: a burn in the first game (heuristic bots in every seat)
    code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=82)
    page = pages.new("Alice")
    open_table(page, live_server, code)
    expect(page.locator("#mute")).to_have_text("Sound on")
    wait_seated(page, live_server, code, "Alice")
    page.locator("#start").click()
    drive(page)
    # the game goes on until the three sounds were heard (the burn comes late in the game)
    page.evaluate("import('/static/js/sound.js').then((m) => { window.__sound = m; })")
    wait_js(
        page,
        "['turn', 'gouji', 'burn'].every((k) => window.__sound.played.includes(k))",
        timeout=60_000,
    )
    assert page.evaluate("window.gouji.driver.errors") == []
    page.locator("#mute").click()
    expect(page.locator("#mute")).to_have_text("Sound off")
    page.reload()
    expect(page.locator("#mute")).to_have_text("Sound off")
    assert page.evaluate("localStorage.getItem('gouji.mute')") == "1"
