"""The web client (src/gouji/web) in Chromium against the real server (docs/protocol.md).

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots of the table at 1280x800 and 390x844.
"""

from __future__ import annotations

import time
from pathlib import Path

from .webutil import (
    DESKTOP,
    PHONE,
    LiveServer,
    Page,
    Pages,
    en_problems,
    expect,
    open_table,
    picture,
    wait_js,  # skips this module where Chromium or Playwright is missing
    wait_seated,
)

GAME_S = 55  # each game must finish within this

# The page's seat has a decision (its hint button is live); the settlement shows.
HINT_LIVE = "Boolean(document.querySelector('#actions .hint-btn:not([disabled])'))"
SETTLED = "!document.getElementById('settlement').classList.contains('hidden')"
# Where the page stands, in one call (and whose turn the room waits for).
STATUS_JS = f"""() => ({{
  turn: {HINT_LIVE},
  over: {SETTLED},
  version: window.gouji.state.version,
  toAct: window.gouji.state.view ? window.gouji.state.view.to_act : null,
}})"""


def game_over(page: Page) -> bool:
    return page.locator("#settlement:not(.hidden)").count() > 0


def take_turn(page: Page) -> bool:
    """If it is this page's decision: ask for a hint and click what it highlights (in the
    action bar, or in the settlement's question when it is open). True if it acted."""
    # The clicks are the mouse's, at the button's middle, without Playwright's wait for it to
    # hold still two frames (force: a turn costs a third less): a button under something
    # else is missed there, and then the turn does not come.
    now = page.evaluate(STATUS_JS)
    if not now["turn"]:
        return False
    version = now["version"]
    if now["over"]:  # the action bar lies under the settlement: ask with the H key
        # (to the page: keys on a focused link or button are theirs, as the replay link is
        # once clicked)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press("h")
        hinted = page.locator("#settlement button.hinted:not([disabled])").first
        hinted.click(timeout=3000, force=True)
        wait_js(page, f"window.gouji.state.version > {version}", timeout=5000)
        return True
    try:
        page.locator('#actions button[data-action="hint"]').click(timeout=3000, force=True)
        hinted = page.locator("#actions button.hinted:not([disabled])").first
        hinted.click(timeout=3000, force=True)
    except Exception:
        # the turn may have passed (托管, a timeout, a re-render) while we clicked
        return False
    wait_js(
        page, f"window.gouji.state.version > {version} || !window.gouji.state.busy", timeout=5000
    )
    return True


def wait_turn_or_over(page: Page, deadline: float) -> None:
    """Wait (not past `deadline`) until the page's seat decides or its game is over."""
    left = deadline - time.monotonic()
    assert left > 0, "the game did not finish in time"
    wait_js(page, f"{HINT_LIVE} || {SETTLED}", timeout=left * 1000)


def test_human_plays_a_game_against_five_bots(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    code = live_server.create_room(
        preset="OUTLINE_CLASSIC",
        bots=5,
        bot="heuristic",
        bot_delay_ms=0,
        timer_s=None,
        card_counter=True,
    )
    page = pages.new("Alice", DESKTOP)
    open_table(page, live_server, code)
    wait_seated(page, live_server, code, "Alice")
    page.locator("#start").click()
    expect(page.locator("#hand .card").first).to_be_visible()
    # the hand is final once the opening questions (预点, 会3…) are answered: this seat may be
    # asked first, so it answers until play has begun (no timer runs: a question waits)
    playing = "['lead', 'respond', 'burn_offer', 'kou'].includes(window.gouji.state.view.phase)"
    asked = "(window.gouji.state.view.legal_actions || []).length > 0"
    deadline = time.monotonic() + 10
    while True:
        wait_js(page, f"{playing} || {asked}")
        if page.evaluate(playing):
            break
        assert time.monotonic() < deadline, "play did not begin"
        take_turn(page)
    hand = page.evaluate("window.gouji.state.view.hand").split()
    assert 22 <= len(hand) <= 36  # 36 dealt, less what 会3/会4 set aside (up to 14 cards)
    expect(page.locator("#hand .card")).to_have_count(len(hand))
    expect(page.locator("#felt .seat")).to_have_count(6)
    expect(page.locator("#felt .seat.rel-me")).to_have_count(1)
    expect(page.locator("#felt .seat.rel-duitou")).to_have_count(1)
    expect(page.locator("#felt .seat.rel-mate")).to_have_count(2)
    expect(page.locator("#counter-panel .cc")).to_have_count(15)
    assert page.locator("#autopass").is_checked()

    # select by tapping (a whole rank, then one fewer: hand.js tapRank) and by dragging across
    # cards; Clear empties the selection. At the seat's turn, when the bots wait for it: the
    # action bar above the hand changes no more, so the cards stay where they were measured
    wait_turn_or_over(page, time.monotonic() + GAME_S)
    cards = page.locator("#hand .card")
    hand = page.evaluate("window.gouji.state.hand")
    # a card of a rank held more than once (a single's second tap leaves nothing to clear)
    at = next((i for i, c in enumerate(hand) if hand.count(c) > 1), 0)
    rank = hand.count(hand[at])
    cards.nth(at).click(position={"x": 6, "y": 20})
    expect(page.locator("#hand .card.selected")).to_have_count(rank)
    cards.nth(at).click(position={"x": 6, "y": 20})
    expect(page.locator("#hand .card.selected")).to_have_count(rank - 1)
    if rank > 1:
        page.locator("#actions .clear-btn").click()
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    first, third = cards.nth(1).bounding_box(), cards.nth(3).bounding_box()
    assert first is not None and third is not None
    page.mouse.move(first["x"] + 5, first["y"] + 20)
    page.mouse.down()
    page.mouse.move(third["x"] + 5, third["y"] + 20, steps=6)
    page.mouse.up()
    assert page.locator("#hand .card.selected").count() >= 3
    page.locator("#actions .clear-btn").click()
    expect(page.locator("#hand .card.selected")).to_have_count(0)

    turns = 0
    deadline = time.monotonic() + GAME_S
    while True:
        wait_turn_or_over(page, deadline)
        if game_over(page):
            break
        if take_turn(page):
            turns += 1
            if turns == 3:
                picture(page, shots / "table-1280x800.png")
    expect(page.locator("#settlement .settle-places tbody tr")).to_have_count(6)
    picture(page, shots / "gameover-1280x800.png")
    games = live_server.get_json(f"/api/rooms/{code}/games")
    assert len(games) == 1
    places = page.evaluate("window.gouji.state.view.places")
    assert sorted(places) == [1, 2, 3, 4, 5, 6]

    # the replay link: step through the finished game with every hand shown
    with page.context.expect_page() as info:
        page.locator("#settlement a.replay-link").click()
    replay = info.value
    expect(replay.locator("#felt .seat")).to_have_count(6)
    expect(replay.locator("#felt .seat-hand").first).to_be_visible()
    assert replay.locator("#felt .seat-hand").count() == 6
    replay.locator("#next").click()
    replay.locator("#next").click()
    expect(replay.locator("#step-label")).to_contain_text("step 2")
    replay.locator("#last").click()
    expect(replay.locator("#step-action")).not_to_have_text("—")
    log = replay.locator("#log li").all_inner_texts()
    assert len(log) > 100 and not en_problems(log, ("Alice",)), en_problems(log, ("Alice",))
    replay.set_viewport_size(DESKTOP)
    replay.locator("#prev").click()
    picture(replay, shots / "replay-1280x800.png")
    replay.close()

    # the next game starts when the seated human asks for it (after any swap prompt it answers)
    next_or_turn = f"document.querySelector('#settlement .next-btn') || {HINT_LIVE}"
    deadline = time.monotonic() + 20
    while page.locator("#settlement .next-btn").count() == 0 and time.monotonic() < deadline:
        take_turn(page)
        wait_js(page, next_or_turn)
    page.locator("#settlement .next-btn").click()
    expect(page.locator("#settlement")).to_be_hidden()
    expect(page.locator("#hand .card").first).to_be_visible()


def test_two_humans_and_a_reload(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    code = live_server.create_room(
        preset="OUTLINE_FULL", bots=4, bot="heuristic", bot_delay_ms=0, timer_s=None
    )
    alice = pages.new("Alice", DESKTOP)
    open_table(alice, live_server, code)
    seat_a = wait_seated(alice, live_server, code, "Alice")
    bob = pages.new("Bob", PHONE)
    open_table(bob, live_server, code)
    seat_b = wait_seated(bob, live_server, code, "Bob")
    assert seat_a != seat_b
    alice.locator("#start").click()
    expect(bob.locator("#hand .card").first).to_be_visible()

    bob_turns = 0
    reloaded = False
    deadline = time.monotonic() + GAME_S
    while True:
        assert time.monotonic() < deadline, "the game did not finish in time"
        a, b = alice.evaluate(STATUS_JS), bob.evaluate(STATUS_JS)
        if a["over"] and b["over"]:
            break
        acted = a["turn"] and take_turn(alice)
        if b["turn"] and take_turn(bob):
            acted = True
            bob_turns += 1
            if bob_turns == 1:
                picture(bob, shots / "table-390x844.png", full_page=True)
        if bob_turns >= 2 and not reloaded and not game_over(bob):
            bob.reload()
            expect(bob.locator("#conn.ok")).to_be_visible()
            expect(bob.locator("#felt .seat.rel-me")).to_have_count(1)
            assert bob.evaluate("window.gouji.state.seat") == seat_b
            assert bob.evaluate("window.gouji.state.view.seat") == seat_b
            hand = bob.evaluate("window.gouji.state.view.hand").split()
            if hand:  # Bob's own hand is drawn again (he may just have gone out)
                expect(bob.locator("#hand .card")).to_have_count(len(hand))
            reloaded = True
        elif not acted:  # wait at the page whose seat the newest state waits for
            latest = a if a["version"] >= b["version"] else b
            page, now = (bob, b) if latest["toAct"] == seat_b else (alice, a)
            wait_js(
                page, f"{HINT_LIVE} || {SETTLED} || window.gouji.state.version > {now['version']}"
            )
    assert reloaded
    seats = live_server.get_json(f"/api/rooms/{code}")["seats"]
    assert seats[seat_b]["name"] == "Bob" and not seats[seat_b]["trust"]
    expect(bob.locator("#settlement .settle-places tbody tr")).to_have_count(6)


def test_spectator_sees_no_hand(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    code = live_server.create_room(preset="OUTLINE_CLASSIC", bots=5, bot_delay_ms=0)
    alice = pages.new("Alice", DESKTOP)
    open_table(alice, live_server, code)
    wait_seated(alice, live_server, code, "Alice")
    alice.locator("#start").click()
    expect(alice.locator("#hand .card").first).to_be_visible()

    watcher = pages.new(None, PHONE)  # no stored name: the table shows at once all the same
    watcher.goto(f"{live_server.url}/r/{code}")
    expect(watcher.locator("#conn.ok")).to_be_visible()
    expect(watcher.locator("#name-bar")).to_be_hidden()
    expect(watcher.locator("#felt .seat")).to_have_count(6)
    expect(watcher.locator(".spectator-note")).to_be_visible()
    assert watcher.evaluate("window.gouji.state.seat") is None
    view = watcher.evaluate("window.gouji.state.view")
    assert "hand" not in view
    expect(watcher.locator("#hand")).to_be_hidden()
    assert watcher.locator("#hand .card").count() == 0
    assert watcher.locator("#actions button").count() == 0
    expect(watcher.locator("#felt .seat.rel-me")).to_have_count(0)
    picture(watcher, shots / "spectator-390x844.png", full_page=True)

    # the language toggle is remembered
    watcher.locator("#lang").click()
    expect(watcher.locator("#log-panel h3")).to_have_text("记录")
    watcher.reload()
    expect(watcher.locator("#log-panel h3")).to_have_text("记录")


def test_lobby_creates_a_room(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    page = pages.new(None, DESKTOP)
    page.goto(live_server.url + "/")
    page.locator("#name").fill("Dora")
    page.locator("#preset").select_option("LIANG4")
    page.locator("#bots").select_option("5")
    page.locator("#bot").select_option("beginner")
    page.locator("#timer").fill("20")
    page.locator("#count_visibility").select_option("always")
    page.locator("#card_counter").check()
    page.locator("#games").fill("2")
    picture(page, shots / "lobby-1280x800.png")
    page.locator("#create").click()
    page.wait_for_url("**/r/*")
    code = page.url.rstrip("/").split("/")[-1]
    room = live_server.get_json(f"/api/rooms/{code}")
    cfg = room["config"]
    assert cfg["preset"] == "LIANG4"
    assert (cfg["bots"], cfg["bot"], cfg["timer_s"]) == (5, "beginner", 20)
    assert (cfg["count_visibility"], cfg["card_counter"], cfg["games"]) == ("always", True, 2)
    expect(page.locator("#conn.ok")).to_be_visible()
    wait_seated(page, live_server, code, "Dora")
    expect(page.locator("#start")).to_be_visible()
    assert page.evaluate("localStorage.getItem('gouji.name')") == "Dora"
    assert page.evaluate(f"JSON.parse(localStorage.getItem('gouji.room.{code}')).token")

    # join by link from the lobby
    other = pages.new("Eve", DESKTOP)
    other.goto(live_server.url + "/")
    other.locator("#code").fill(f"{live_server.url}/r/{code.lower()}")
    other.locator("#join").click()
    other.wait_for_url(f"**/r/{code}")
    wait_seated(other, live_server, code, "Eve")
