"""The table's rough edges that testers saw (issue 23, item 7), each with the check that found it:

a. the 二落/大落 swap question says the next game's lead changes only where the 大落 leads it
   (R3.6 ``da_luo``; in OUTLINE_FULL the opener rotates): ``test_swap_question_follows_the_rules``;
b. a place given to a seat still holding cards is not "出完" (R9.9, R15.4): ``test_words_…``;
c, d. announcements are short, never over the play to beat, do not pile up, and every place is
   told, your own first: ``test_announcements_on_a_phone``;
e. a seat taken from a bot keeps the bot's name on the lines before: ``test_the_log_keeps_…``;
f. the tribute panel stays readable after the first lead: ``test_the_tribute_panel_…``;
g. 无头 says why (the 对头 went out, was 闷'd, …): ``test_words_…``;
h. English says small/big joker and "1 card": ``test_words_…``;
i, j. the lobby's seats count the bots that fill them; the phone lobby shows 组队 whole;
k. a refusal links the rule it cites to the section of the rules page that explains it;
l. a tap takes a whole rank, each further tap one card fewer;
m. the table's help sheet: the rules page, choosing cards and a glossary, on a phone.

Positions come from seeded rooms (the page's seat plays the hints, as test_table_moments does)
and, where a whole game would be slow, from states given to the page as the server would send
them (INJECT_JS) or from the modules called directly.

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots (zh and en, 1280x800 and 390x844).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from .webutil import (  # skips this module where Chromium or Playwright is missing
    DESKTOP,
    KEEP_SCREENSHOTS,
    PHONE,
    LiveServer,
    Page,
    Pages,
    drive,
    en_problems,
    expect,
    shoot,
    start_seated,
    state,
    wait_stopped,
    zh_problems,
)

NAMES = {
    "zh": ["张三", "李四", "王五", "赵六", "钱七", "孙八"],
    "en": ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"],
}

# The page's websocket, kept where the test can hand the page a message as if the server had
# sent it (a state the room would reach only after a long game).
INJECT_JS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
    }
  };
  window.__inject = (msg) => {
    const ws = window.__sockets[window.__sockets.length - 1];
    ws.onmessage({ data: JSON.stringify(msg) });
  };
})();
"""


def inject(page: Page, view: dict[str, Any], step: int = 1) -> None:
    """The page gets `view` as the room's next state (version + `step`)."""
    page.evaluate(
        """([view, step]) => {
          const S = window.gouji.state;
          window.__inject({type: "state", version: S.version + step, room: S.room, view});
        }""",
        [view, step],
    )


def picture_moving(page: Page, path: Path, at_ms: int = 500) -> None:
    """A screenshot with the announcements caught `at_ms` into their animation (webutil's
    pictures show animations finished: faded out)."""
    if not KEEP_SCREENSHOTS:
        return
    page.evaluate(
        f"document.getAnimations().forEach((a) => {{ a.pause(); a.currentTime = {at_ms}; }})"
    )
    page.screenshot(path=str(path))


# ------------------------------------------------------------------ words (b, g, h, a, k, l)
WORDS_JS = """
async ([lang, names]) => {
  const i18n = await import("/static/js/i18n.js");
  const words = await import("/static/js/words.js");
  const cards = await import("/static/js/cards.js");
  const hand = await import("/static/js/hand.js");
  i18n.setLang(lang);
  const ctx = {...words.namer(names, 0), revolutionary: 4};
  const say = (e) => words.eventText(e, ctx);
  const tap = (cs, sel, i) => [...hand.tapRank(cs, new Set(sel), i)].sort((a, b) => a - b);
  const hand7 = ["5", "7", "7", "7", "9"];
  return {
    went: say({type: "place", seat: 1, place: 1}),
    ended: say({type: "ended", seat: 2, place: 4}),
    rev: say({type: "place", seat: 4, place: 3}),
    men: say({type: "men", seat: 5, place: 6}),
    wutou: ["", "men", "broken_burn", "punished"].map((how) =>
      say(how ? {type: "wutou", seat: 3, how} : {type: "wutou", seat: 3})),
    removed: [1, 4].map((count) => say({type: "removed", seat: 0, count})),
    tribute: [1, 2].map((count) =>
      say({type: "tribute", seat: 3, kind: "dian", payer: 3, receiver: 0, count})),
    liang4: say({type: "liang4", seat: 0, count: 1}),
    play: say({type: "play", seat: 1, cards: "Q Q Q 2 LJ"}),
    sj: say({type: "play", seat: 1, cards: "7 7 SJ"}),
    needs: [1, 2].map((count) =>
      words.reasonText({rule: "R5.1", key: "needs_lj", params: {standing: "SJ 7 7", count}})),
    face: [cards.faceText("SJ", lang), cards.faceText("LJ", lang), cards.cardsText("SJ LJ", lang)],
    places: words.placesLine([
      {type: "place", seat: 3, place: 1},
      {type: "ended", seat: 5, place: 5},
      {type: "place", seat: 0, place: 2},
      {type: "men", seat: 1, place: 6},
    ], ctx),
    hrefs: ["R5.1", "R8.2/R8.5", "R13.5 (a)", "", null].map((r) =>
      words.ruleHref(r, "OUTLINE_FULL", lang)),
    taps: [
      tap(hand7, [], 2),        // none of the rank: the whole rank
      tap(hand7, [1, 2, 3], 2), // one fewer (the last one)
      tap(hand7, [1, 2], 1),
      tap(hand7, [1], 3),       // the last one goes
      tap(hand7, [0], 2),       // another rank's selection stays
      [...hand.tapRank(hand7, new Set([0, 1]), 3, true)],  // 还贡: that card alone
    ],
  };
}
"""


def test_words_of_places_heads_jokers_and_counts(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("Alice")
    page.goto(live_server.url + "/")
    zh = page.evaluate(WORDS_JS, ["zh", NAMES["zh"]])
    # b: going out is 出完; a place given at game end with cards in hand is not (R9.9), nor the
    # revolutionary's 三科 (R15.4); 闷 says 闷
    assert zh["went"] == "李四 出完：头科"
    assert zh["ended"] == "王五 没出完：四科"
    assert not re.search("(?<!没)出完", zh["ended"] + zh["rev"])
    assert zh["rev"].startswith("钱七 革命") and zh["rev"].endswith("三科")
    assert zh["men"] == "孙八 被闷：大落"
    # g: 无头 says why
    assert zh["wutou"] == [
        "赵六 无头了（对头已出完）",
        "赵六 无头了（对头被闷）",
        "赵六 无头了（对头烧牌失败，被罚下）",
        "赵六 无头了（对头被罚下场）",
    ]
    # d: one line of places, your own first, then by place
    assert zh["places"] == "张三 出完：二科；赵六 出完：头科；孙八 没出完：二落；李四 被闷：大落"
    assert zh["face"] == ["小王", "大王", "小王 大王"]
    assert zh["taps"] == [[1, 2, 3], [1, 2], [1], [], [0, 1, 2, 3], [3]]
    # k: the link to the section of the preset's rules page (the first rule cited)
    base = "/rules/OUTLINE_FULL?lang=zh#"
    assert zh["hrefs"] == [base + "R5.1", base + "R8.2", base + "R13.5", None, None]
    lines = [x for k, v in zh.items() if k not in ("taps", "hrefs") for x in _flat(v)]
    assert not zh_problems(lines, ""), zh_problems(lines, "")

    en = page.evaluate(WORDS_JS, ["en", NAMES["en"]])
    assert en["went"] == "Bob goes out: 1st 头科"
    assert en["ended"] == "Carol ends with cards left: 4th 四科"
    assert "goes out" not in en["rev"] and "goes out" not in en["ended"]
    assert en["wutou"][1] == "Dave is 无头 now (the 对头 was shut out, 闷)"
    # h: "1 card", not "1 cards"; jokers in words, as the English rules pages write them
    assert en["removed"] == ["Alice lays out 1 card (会)", "Alice lays out 4 cards (会)"]
    assert en["tribute"][0] == "Dave pays Alice 1 card of 点贡 (not opening)"
    assert en["tribute"][1] == "Dave pays Alice 2 cards of 点贡 (not opening)"
    assert en["liang4"] == "Alice shows 1 four (亮4)"
    assert en["play"] == "Bob plays Q Q Q 2 big joker"
    assert en["sj"] == "Bob plays 7 7 small joker"
    needs = "small joker 7 7 carries a small joker: the answer needs a big joker"
    assert en["needs"][0] == needs
    assert "2 small jokers" in en["needs"][1]
    assert en["face"] == ["JOKER", "JOKER", "small joker big joker"]
    lines = [x for k, v in en.items() if k not in ("taps", "hrefs", "face") for x in _flat(v)]
    assert not any(re.search(r"\b[SL]J\b|\b1 cards\b", x) for x in lines), lines
    assert not en_problems(lines, tuple(NAMES["en"])), en_problems(lines, tuple(NAMES["en"]))
    assert en["places"].startswith("Alice goes out: 2nd 二科; Dave goes out: 1st 头科; ")


def _flat(v: Any) -> list[str]:
    return [x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)]


# ------------------------------------------------------------------ a. the swap question
SWAP_VIEW: dict[str, Any] = {
    "is_over": True,
    "legal_actions": ["swap", "noswap"],
    "match": {
        "game": 1,
        "totals": [6, 0],
        "results": [{"places": [1, 5, 2, 3, 4, 6], "team_scores": [6, 0]}],
        "prompt": "swap",
        "prompt_to": 1,
        "swap_changes": ["luo"],
        "is_over": False,
        "result": {
            "places": [1, 5, 2, 3, 4, 6],
            "team_scores": [6, 0],
            "team_points": [6, -6],
            "scoring": "outline",
            "place_points": [4, -2, 2, 0, 0, -4],
            "score_rule": "positive_only",
            "hands": ["", "3", "", "", "", "5 5"],
            "chuan": None,
            "bonuses": {"men": [0, 0], "dian": [0, 0], "burn": [0, 0]},
            "opened": None,
            "men": [],
            "burns": [],
            "revolutionary": None,
            "declarations": [],
            "finish_order": [0, 2, 3, 4, 1, 5],
            "swapped": False,
        },
    },
}
SWAP_JS = """
async ([lang, names, view]) => {
  const i18n = await import("/static/js/i18n.js");
  const words = await import("/static/js/words.js");
  const settle = await import("/static/js/settlement.js");
  i18n.setLang(lang);
  const on = {act: () => {}, next: () => {}, close: () => {}};
  const panel = settle.settlementPanel(view, {...words.namer(names, 1), hint: null}, on, "#");
  return panel.querySelector(".settle-prompt .prompt-text").textContent;
}
"""


def test_swap_question_follows_the_rules(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("Alice")
    page.goto(live_server.url + "/")

    def ask(lang: str, changes: list[str]) -> str:
        view = copy.deepcopy(SWAP_VIEW)
        view["match"]["swap_changes"] = changes
        text: str = page.evaluate(SWAP_JS, [lang, NAMES[lang], view])
        return text

    # OUTLINE_FULL / COMP2: the opener rotates (R3.6 rotate): only 落贡 follows the swap
    rotate = ask("zh", ["luo"])
    assert "谁先出" not in rotate and "落贡" in rotate and "开牌人照常轮换" in rotate
    # LAIWU: the 大落 takes first and leads next game (R3.6 da_luo): the start follows too
    assert "以及下局谁先出，都跟着换" in ask("zh", ["luo", "start"])
    # OUTLINE_CLASSIC: no tribute, the 大落 leads
    classic = ask("zh", ["start"])
    assert "落贡" not in classic and "下局由大落先出" in classic
    # after a 串三户: nothing but the two places (R16.8, R3.7)
    assert "只换名次" in ask("zh", [])
    en = ask("en", ["luo"])
    assert "leads next game" not in en and "opener rotates as usual" in en
    assert "who leads next game follow the swap" in ask("en", ["luo", "start"])


# ------------------------------------------------------------------ c, d. announcements
def places_view(view: dict[str, Any], me: int) -> dict[str, Any]:
    """The view with five places taken at once (as at a game's end: one goes out, the others
    are placed holding cards or 闷'd) and a 够级 beside them."""
    v = copy.deepcopy(view)
    last = v["events"][-1]["i"] if v["events"] else 0
    others = [s for s in range(6) if s != me]
    new = [
        {"type": "gouji", "seat": others[0], "answerers": [(others[0] + 3) % 6]},
        {"type": "place", "seat": others[1], "place": 1},
        {"type": "men", "seat": others[2], "place": 6},
        {"type": "ended", "seat": others[3], "place": 3},
        {"type": "place", "seat": me, "place": 2},
        {"type": "ended", "seat": others[4], "place": 4},
    ]
    for k, e in enumerate(new, 1):
        e["i"] = last + k
    v["events"] = v["events"] + new
    return v


def test_announcements_on_a_phone(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    for lang, seed in (("zh", 2), ("en", 5)):
        code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=seed)
        name = NAMES[lang][0]
        page = pages.new(name, PHONE, lang)
        page.add_init_script(INJECT_JS)
        page = start_seated_page(page, live_server, code, name)
        drive(page, stop_at=("respond",))
        wait_stopped(page, "respond")  # a play to beat stands in the middle
        me = state(page, "seat")
        view = state(page, "view")
        inject(page, places_view(view, me))
        banners = page.locator("#banners .banner")
        expect(banners.first).to_be_visible()
        # d: every place told, in one banner, your own first; c: at most three, and none over
        # the play to beat
        place = page.locator("#banners .banner.kind-place")
        expect(place).to_have_count(1)
        text = place.inner_text()
        mine = "出完：二科" if lang == "zh" else "goes out: 2nd"
        assert text.startswith(f"{name} {mine}"), text
        words = ("头科", "三科", "四科", "大落") if lang == "zh" else ("1st", "3rd", "4th", "6th")
        assert all(word in text for word in words), text
        assert banners.count() <= 3
        boxes = page.evaluate(
            """() => {
              const r = (e) => { const b = e.getBoundingClientRect();
                return [b.left, b.top, b.right, b.bottom]; };
              const standing = document.querySelector("#felt .centre .standing");
              return {standing: r(standing), banners: [...document.querySelectorAll(
                "#banners .banner")].map(r), width: innerWidth};
            }"""
        )
        for b in boxes["banners"]:
            assert not _overlap(b, boxes["standing"]), (b, boxes["standing"])
            assert b[0] >= 0 and b[2] <= boxes["width"], b
        picture_moving(page, shots / f"edges-banners-phone-{lang}.png")
        page.evaluate("document.getAnimations().forEach((a) => a.play())")
        # c: the next state's announcement replaces these (no pile-up), and it is short
        v2 = state(page, "view")
        v2 = copy.deepcopy(v2)
        last = v2["events"][-1]["i"]
        v2["events"].append({"type": "gousiji", "seat": (me + 1) % 6, "i": last + 1})
        inject(page, v2)
        expect(banners).to_have_count(1)
        expect(banners).to_have_count(0, timeout=2_500)  # gone within about 1.8 s


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def start_seated_page(page: Page, server: LiveServer, code: str, name: str) -> Page:
    """start_seated for a page made already (with its init scripts)."""
    from .webutil import open_table, wait_seated

    open_table(page, server, code)
    wait_seated(page, server, code, name)
    page.locator("#start").click()
    expect(page.locator("#hand .card").first).to_be_visible()
    return page


# ------------------------------------------------------------------ f. the tribute panel
def tribute_views(view: dict[str, Any], me: int, game: int) -> tuple[dict[str, Any], ...]:
    """Game `game` of the room: its tribute paid (before the first lead), then its first lead
    made by the seat after `me` (the next to answer is not `me`), then `me` to answer."""
    payer, receiver = (me + 1) % 6, (me + 2) % 6
    before = copy.deepcopy(view)
    before["match"]["game"] = game
    before["events"] = [
        {"i": 0, "type": "tribute", "seat": payer, "kind": "luo", "payer": payer,
         "receiver": receiver, "count": 2},
        {"i": 1, "type": "starter", "seat": payer},
    ]  # fmt: skip
    before.update(phase="lead", to_act=payer, standing=None, owner=None, round_plays=[])
    before["legal_actions"] = []
    led = copy.deepcopy(before)
    led["events"].append({"i": 2, "type": "play", "seat": payer, "cards": "5 5"})
    led.update(phase="respond", to_act=(me + 2) % 6, standing="5 5", owner=payer)
    led["round_plays"] = [[payer, "5 5"]]
    mine = copy.deepcopy(led)
    mine["events"].append({"i": 3, "type": "pass", "seat": (me + 2) % 6})
    mine["to_act"] = me
    return before, led, mine


def test_the_tribute_panel_stays_readable_after_the_first_lead(
    live_server: LiveServer, pages: Pages
) -> None:
    code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=2)
    page = pages.new("张三", DESKTOP, "zh")
    page.add_init_script(INJECT_JS)
    start_seated_page(page, live_server, code, "张三")
    drive(page, stop_at=("respond",))
    wait_stopped(page, "respond")  # the bots wait for this seat: no state comes unasked
    me, view = state(page, "seat"), state(page, "view")
    page.clock.install()
    panel, reopen = page.locator("#tribute"), page.locator("#tribute-open")

    before, led, mine = tribute_views(view, me, 2)
    inject(page, before)
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("交落贡 2 张")
    expect(panel).to_contain_text("出第一手牌后几秒自动关闭")
    # the bots lead at once: the panel stays to be read (it closed at the first lead, 1.8 s)
    inject(page, led, 2)
    expect(panel).to_be_visible()
    page.clock.run_for(6_000)
    expect(panel).to_be_visible()
    page.clock.run_for(2_500)  # 8 s after it showed
    expect(panel).to_be_hidden()
    expect(reopen).to_be_visible()

    # it gives way at once when it is the seat's own turn to play; × closes it any time
    before, led, mine = tribute_views(view, me, 3)
    inject(page, before, 3)
    expect(panel).to_be_visible()
    inject(page, led, 4)
    expect(panel).to_be_visible()
    inject(page, mine, 5)
    expect(panel).to_be_hidden()
    reopen.click()
    expect(panel).to_be_visible()
    page.clock.run_for(20_000)
    expect(panel).to_be_visible()  # reopened: until closed
    panel.locator(".close").click()
    expect(panel).to_be_hidden()


# ------------------------------------------------------------------ k, l. refusals, taps
def test_a_tap_takes_a_rank_and_a_refusal_links_its_rule(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=2)
    page = start_seated(pages, live_server, code, "张三", DESKTOP, "zh")
    drive(page, stop_at=("respond",))
    wait_stopped(page, "respond")
    hand: list[str] = page.evaluate("window.gouji.state.hand")
    standing: str = state(page, "view.standing")

    # l: a tap takes the whole rank; each further tap one card fewer; then the rank again
    rank = max((c for c in set(hand) if c != "3"), key=hand.count)
    n = hand.count(rank)
    assert n >= 2
    card = page.locator(f'#hand .card[data-code="{rank}"]').first
    chosen = page.locator(f'#hand .card.selected[data-code="{rank}"]')
    for want in [n, *range(n - 1, -1, -1), n]:
        card.click(position={"x": 6, "y": 20})
        expect(chosen).to_have_count(want)
    expect(page.locator("#hand .card.selected")).to_have_count(n)
    page.locator("#actions .clear-btn").click()

    # k: a refusal says why and links the section of the rules page that explains its rule
    size = len(standing.split())
    first = next(i for i, c in enumerate(hand) if c != "3")
    other = next(i for i, c in enumerate(hand) if c not in ("3", hand[first]))
    pick = [first] if size >= 2 else [first, other]
    for i in pick:
        c = page.locator(f'#hand .card[data-idx="{i}"]')
        c.click(position={"x": 6, "y": 20})
        while page.locator(f'#hand .card.selected[data-code="{hand[i]}"]').count() > 1:
            c.click(position={"x": 6, "y": 20})
    why = page.locator("#actions .why")
    expect(why).to_contain_text("（看规则）")
    rule = "R5.1" if size >= 2 else "R4.2"
    link = why.locator("a.rule-link")
    expect(link).to_have_attribute("href", f"/rules/OUTLINE_FULL?lang=zh#{rule}")
    expect(link).to_have_attribute("title", rule)
    assert not re.search(r"R\d", why.inner_text())  # the number is not shown, it is linked
    shoot(page, shots / "edges-refusal.png")
    page.evaluate("window.gouji.driver.errors = []")

    rules = pages.new("张三", PHONE, "zh")
    rules.goto(live_server.url + (link.get_attribute("href") or ""))
    cited = rules.locator(".rules-doc h2.cited")
    expect(cited).to_have_count(1)
    expect(cited).to_have_text("管牌" if rule == "R5.1" else "出牌")
    expect(cited).to_be_in_viewport()
    assert not re.search(r"\bR\d+\.\d", rules.locator(".rules-doc").inner_text())
    shoot(rules, shots / "edges-rules-cited.png", both=False)
    # the longest matching group wins (R9.9 is "the end of a game", R9.4 "going out")
    rules.goto(live_server.url + "/rules/OUTLINE_FULL?lang=en#R9.11")
    expect(rules.locator(".rules-doc h2.cited")).to_have_text("The end of a game")
    rules.goto(live_server.url + "/rules/OUTLINE_FULL?lang=en#R9.4")
    expect(rules.locator(".rules-doc h2.cited")).to_contain_text("Going out")


# ------------------------------------------------------------------ m. the help sheet
GLOSSARY_WORDS = ["头科", "二科", "三科", "四科", "二落", "大落", "开点", "烧", "闷", "串三户"]
GLOSSARY_WORDS += ["憋3", "革命", "进贡", "还贡", "托管", "对头", "够级", "无头"]


def test_the_help_sheet_on_a_phone(live_server: LiveServer, pages: Pages, shots: Path) -> None:
    for lang in ("zh", "en"):
        code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=3)
        page = start_seated(pages, live_server, code, NAMES[lang][0], PHONE, lang)
        button = page.locator("#help-open")
        expect(button).to_have_text("规则" if lang == "zh" else "Rules")
        expect(button).to_be_in_viewport()
        button.click()
        sheet = page.locator("#help")
        expect(sheet).to_be_visible()
        for word in GLOSSARY_WORDS:
            expect(sheet.locator(".glossary dt", has_text=word).first).to_be_attached()
        expect(sheet).to_contain_text("再点一次少选一张" if lang == "zh" else "one fewer")
        rules = sheet.locator("a.rules-page-link")
        expect(rules).to_have_attribute("href", f"/rules/OUTLINE_FULL?lang={lang}")
        expect(rules).to_be_in_viewport()
        box = sheet.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        lines = sheet.inner_text().split("\n")
        if lang == "zh":
            assert not zh_problems(lines, code), zh_problems(lines, code)
        else:
            assert not en_problems(lines, (NAMES["en"][0],)), en_problems(lines)
        shoot(page, shots / f"edges-help-{lang}.png")  # the phone, then 1280x800
        sheet.locator(".close").click()
        expect(sheet).to_be_hidden()
        button.click()
        expect(sheet).to_be_visible()
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()


# ------------------------------------------------------------------ j. the phone lobby
FITS_JS = """
() => {
  const s = document.getElementById("formation");
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = getComputedStyle(s).font;
  const widest = Math.max(...[...s.options].map((o) => ctx.measureText(o.textContent).width));
  return {widest, room: s.clientWidth - 30, right: s.getBoundingClientRect().right};
}
"""


def test_the_phone_lobby_shows_the_team_choice_whole(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    for lang in ("zh", "en"):
        page = pages.new(NAMES[lang][0], PHONE, lang)
        page.goto(live_server.url + "/")
        expect(page.locator("#formation option")).to_have_count(3)
        fits = page.evaluate(FITS_JS)
        assert fits["widest"] <= fits["room"], fits  # 自认联邦（自己选座位） was cut
        assert fits["right"] <= PHONE["width"]
        page.locator("#formation").scroll_into_view_if_needed()
        shoot(page, shots / f"edges-lobby-{lang}.png")


# ------------------------------------------------------------------ e. the log's names
def test_the_log_keeps_the_names_seats_had(live_server: LiveServer, pages: Pages) -> None:
    code = live_server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=2)
    alice = start_seated(pages, live_server, code, "Alice", DESKTOP, "en")
    drive(alice, stop_at=("respond",))
    wait_stopped(alice, "respond")  # the bots have played; they wait for Alice now
    me = state(alice, "seat")
    played = alice.evaluate(
        "window.gouji.state.view.events.filter((e) => e.type === 'play').map((e) => e.seat)"
    )
    seat = next(s for s in played if s != me)
    bot = f"Bot {seat + 1}"
    before = [x for x in alice.locator("#log li").all_inner_texts() if x.startswith(bot)]
    assert before, f"{bot} has no line yet"

    carol = pages.new(None, DESKTOP, "en")  # a spectator takes the bot's seat
    carol.goto(f"{live_server.url}/r/{code}")
    expect(carol.locator("#conn.ok")).to_be_visible()
    carol.locator(f'#felt .take-seat[data-sit="{seat}"]').click()
    carol.locator("#name-input").fill("Carol")
    carol.locator("#name-bar button[type=submit]").click()
    expect(carol.locator("#felt .seat.rel-me")).to_have_count(1)
    took = f"Carol takes Seat {seat + 1} from a bot"
    expect(alice.locator("#log li.note").last).to_have_text(took)
    expect(alice.locator(f'#felt .seat[data-seat="{seat}"] .seat-name')).to_have_text("Carol")

    # the lines written before keep the bot's name, for everybody and after a reload
    for page in (alice, carol):
        lines = page.locator("#log li:not(.note)").all_inner_texts()  # the game's lines
        assert [x for x in lines if x.startswith(bot)] == before, lines
        assert not [x for x in lines if "Carol" in x], lines
    alice.reload()
    expect(alice.locator("#log li").first).to_be_visible()
    expect(alice.locator("#log li", has_text=bot)).to_have_count(len(before))
    assert_note = alice.locator("#log li", has_text="Carol")
    expect(assert_note).to_have_count(0)  # the note came before the reload: not news


# ------------------------------------------------------------------ i. the lobby's seats
def test_the_lobby_counts_the_seats_bots_fill(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    five = live_server.create_room(bots=5, listed=True, timer_s=None)  # nobody seated yet
    two = live_server.create_room(preset="LAIWU", bots=2, listed=True, timer_s=None)
    bots = live_server.create_room(preset="MATCH7", bots=6, listed=True)  # bots at play
    listed = {r["code"]: r for r in live_server.get_json("/api/rooms")["rooms"]}
    assert listed[five]["free"] == 6 and listed[five]["fill"] == 5
    assert listed[two]["fill"] == 2 and listed[bots]["fill"] == 0
    words = {
        "zh": {
            five: ["玩家 0", "空位 1", "开始时电脑补 5 个"],
            two: ["玩家 0", "空位 4", "开始时电脑补 2 个"],
        },
        "en": {
            five: ["0 players", "1 free seat", "bots fill 5 at the start"],
            two: ["0 players", "4 free seats", "bots fill 2 at the start"],
        },
    }
    for lang in ("zh", "en"):
        page = pages.new(NAMES[lang][0], PHONE, lang)
        page.goto(live_server.url + "/")
        for code, facts in words[lang].items():
            room = page.locator(f'#open-rooms li[data-code="{code}"]')
            # the list arrives after the page: wait for the room's facts, then read them
            expect(room.locator(".open-facts span").nth(len(facts) - 1)).to_be_visible()
            shown = room.locator(".open-facts span").all_inner_texts()
            assert shown[: len(facts)] == facts, shown
            expect(room.locator(".open-go")).to_have_text("加入" if lang == "zh" else "Join")
        playing = page.locator(f'#open-rooms li[data-code="{bots}"] .open-facts')
        expect(playing).to_contain_text("可接手" if lang == "zh" else "to take over")
        expect(playing).not_to_contain_text("空位" if lang == "zh" else "free seat")
        page.locator("#open-panel").scroll_into_view_if_needed()
        shoot(page, shots / f"edges-lobby-rooms-{lang}.png")
