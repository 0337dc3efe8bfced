"""The table speaks the player's language: every event, note and refusal in words (js/words.js),
and whole games whose every visible text is scanned for engine words, codes and 0-based seats.

What the scans allow is said in webutil (``zh_problems``, ``en_problems``, ``EN_TERMS``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .webutil import (  # skips this module where Chromium or Playwright is missing
    DESKTOP,
    PHONE,
    LiveServer,
    Page,
    Pages,
    drive,
    en_problems,
    expect,
    sampled_lines,
    shoot,
    start_seated,
    wait_game_over,
    zh_problems,
)

NAMES = {
    "zh": ["张三", "李四", "王五", "赵六", "钱七", "孙八"],
    "en": ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"],
}
SEED = 2  # OUTLINE_FULL: a burn offer for seat 0 in the first game, 还贡 in the second

# One event of every type of docs/engine.md "Events" (public, then private).
EVENTS: list[dict[str, Any]] = [
    {"type": "play", "seat": 1, "cards": "7 7 2 SJ"},
    {"type": "burn", "seat": 2, "cards": "A A LJ"},
    {"type": "pass", "seat": 3},
    {"type": "pass", "seat": 3, "auto": True},
    *({"type": w, "seat": 4} for w in ("rang", "kou", "tiao", "geming", "renounce", "keep")),
    *({"type": w, "seat": 5} for w in ("yudian", "mingdian", "noyudian", "nomingdian", "nohui")),
    {"type": "hui", "seat": 0, "ranks": "3 4"},
    {"type": "order", "seat": 1, "plays": ["9 9 SJ", "K K"]},
    {"type": "opening_draw", "seat": 2, "card": "Q"},
    {"type": "first_taker", "seat": 2},
    {"type": "starter", "seat": 3},
    {"type": "liang3", "seat": 0, "count": 3, "suit": "H"},
    {"type": "liang4", "seat": 0, "count": 2},
    {"type": "removed", "seat": 0, "count": 4},
    {"type": "void_redeal", "seat": None},
    {"type": "buy", "seat": 1, "rank": "3", "seller": 4, "free": False},
    {"type": "buy", "seat": 1, "rank": "4", "seller": 4, "free": True},
    *(
        {"type": "tribute", "seat": 3, "kind": k, "payer": 3, "receiver": 4, "count": 2}
        for k in ("dian", "ming", "yu", "shao", "luo", "chuan")
    ),
    {"type": "tribute", "seat": 3, "kind": "luo", "payer": 3, "receiver": 4, "skipped": True},
    {"type": "huan", "seat": 4, "receiver": 4, "payer": 3},
    {"type": "gouji", "seat": 1, "answerers": [4, 0]},
    {"type": "gouji", "seat": 1, "answerers": []},
    {"type": "gousiji", "seat": 5},
    {"type": "burning", "seat": 2, "victim": 0, "teammate": True},
    {"type": "burning", "seat": 1, "victim": 0, "teammate": False},
    *({"type": w, "seat": 2} for w in ("burn_success", "burn_broken", "round_won", "jiefeng")),
    *({"type": w, "seat": 2} for w in ("wutou", "opened", "opened_at_end")),
    {"type": "chaos", "seat": None},
    *({"type": "place", "seat": s, "place": s + 1} for s in range(6)),
    {"type": "men", "seat": 4, "place": 6},
    {"type": "broken_burn", "seat": 2, "place": 5},
    {"type": "moved", "seat": 3, "place": 4},
    {"type": "chuan", "seat": None, "team": 1},
    {"type": "four_unlocked", "seat": None},
    {"type": "game_over", "seat": None},
    {"type": "forfeit", "seat": 2, "reason": "R19.1: the decision was illegal"},
    {"type": "sanction", "seat": 1, "kind": "warning", "article": "第三十条"},
    {"type": "sanction", "seat": 2, "kind": "cancel_turn", "article": "第二十九条(二)"},
    {"type": "sanction", "seat": 3, "kind": "penalty", "points": -2, "article": ""},
    {"type": "sanction", "seat": 4, "kind": "last_place", "article": "第三十条"},
    {"type": "sanction", "seat": 5, "kind": "disqualify", "article": "第二十九条（五）"},
    {"type": "punished", "seat": 4, "place": 6},
    {"type": "paid", "seat": 0, "cards": "LJ SJ", "to": 3},
    {"type": "returned", "seat": 0, "cards": "5", "to": 3},
    {"type": "received", "seat": 0, "cards": "2 2", "from": 3},
    {"type": "got_back", "seat": 0, "cards": "8", "from": 3},
    *({"type": w, "seat": 0} for w in ("noburn", "nogeming", "accept")),
    {"type": "refuse", "seat": 0, "card": "K"},
    {"type": "refused", "seat": 0, "card": "K"},
]
NOTES: list[dict[str, Any]] = [
    {"type": "timeout", "seat": 2, "action": "play 7 7"},
    {"type": "timeout", "seat": None, "action": "noburn"},
    *(
        {"type": "trust", "seat": 1, "on": on, "why": why}
        for on in (True, False)
        for why in ("timeouts", "left", "back", "asked", "acted")
    ),
    {"type": "seat", "seat": 3, "name": "周九", "replaced": "bot"},
    {"type": "seat", "seat": 3, "name": "周九", "replaced": "player"},
    {"type": "watch", "seat": None, "name": "guest"},
]
REASONS: list[dict[str, Any]] = [
    {"rule": "R5.1", "key": "same_size", "params": {"standing": "7 7", "size": 2}},
    {"rule": "R5.1", "key": "not_higher", "params": {"play": "5 5", "standing": "7 7"}},
    {"rule": "R5.1", "key": "needs_lj", "params": {"standing": "SJ 7 7", "count": 1}},
    {"rule": "R8.2/R8.5", "key": "burn_not_possible", "params": {"cards": "A A"}},
    {"rule": "R4.2", "key": "malformed", "params": {}},
    {"rule": "R13.5 (a)", "key": "four_locked", "params": {}},
    *(
        {"rule": "R4", "key": k, "params": {}}
        for k in [
            "not_held",
            "twos_not_attached",
            "bie3_attached",
            "bie3_split",
            "bie3_not_final",
            "lead_not_pass",
            "not_a_lead",
            "liang4_first_lead",
            "four_due",
            "tiao_four_lock",
            "burn_lead_joker",
            "burn_lead_feasible",
            "dead_play",
            "not_a_response",
            "rang_returned",
            "rang_not_available",
            "respond_words",
            "burn_offer_words",
            "kou_only",
            "order_words",
            "tiao_off",
            "decide_phase",
            "game_over",
            "other",
            "not_your_turn",
        ]
    ),
]

RENDER_JS = """
async ([lang, names, events, notes, reasons]) => {
  const i18n = await import("/static/js/i18n.js");
  const words = await import("/static/js/words.js");
  i18n.setLang(lang);
  const ctx = words.namer(names, 0);
  return {
    events: events.map((e) => words.eventText(e, ctx)),
    notes: notes.map((n) => words.noteText(n, ctx)),
    reasons: reasons.map((r) => words.reasonText(r)),
  };
}
"""


def render_words(page: Page, lang: str) -> dict[str, list[str | None]]:
    out: dict[str, list[str | None]] = page.evaluate(
        RENDER_JS, [lang, NAMES[lang], EVENTS, NOTES, REASONS]
    )
    return out


def test_every_event_note_and_reason_in_words(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("Alice")
    page.goto(live_server.url + "/")
    for lang in ("zh", "en"):
        out = render_words(page, lang)
        texts = out["events"] + out["notes"] + out["reasons"]
        missing = [e for e, x in zip(EVENTS + NOTES + REASONS, texts, strict=True) if not x]
        assert not missing, f"{lang}: nothing said for {missing}"
        lines = [x for x in texts if x]
        if lang == "zh":
            assert not zh_problems(lines, ""), zh_problems(lines, "")
        else:
            assert not en_problems(lines, (*tuple(NAMES["en"]), "周九")), en_problems(lines)
        # seats by name, never by index; the fields each event names
        ev: dict[str, str | None] = {}
        for e, x in zip(EVENTS, out["events"], strict=True):
            ev.setdefault(e["type"], x)  # the first event of each type
        n = NAMES[lang]
        assert n[3] in (ev["tribute"] or "") and n[4] in (ev["tribute"] or "")
        assert n[0] in (ev["burning"] or "") and n[4] in (ev["gouji"] or "")
        assert n[3] in (ev["paid"] or "") and n[3] in (ev["got_back"] or "")
    zh = render_words(page, "zh")
    assert "李四 够级！只有 钱七、张三 能管" in zh["events"]
    assert "李四 烧 张三 的牌" in zh["events"]
    assert "王五 烧 张三 的牌（烧联邦）" in zh["events"]
    assert "赵六 向 钱七 交落贡 2 张" in zh["events"]
    assert "钱七 还给 赵六 一张牌" in zh["events"]
    assert "你收到 赵六 的：2 2" in zh["events"]
    # the rule is linked beside it (table-room.js ruleLink)
    assert "要与 7 7 张数相同" in zh["reasons"]
    en = render_words(page, "en")
    assert "must have as many cards as 7 7" in en["reasons"]
    assert "Bob: 够级! only Erin, Alice may answer" in en["events"]


# Counts what appears on the felt: announcements (by kind) and animated plays.
WATCH_JS = """
() => {
  const w = {banners: [], fresh: 0};
  window.__watch = w;
  new MutationObserver((ms) => {
    for (const m of ms) for (const n of m.addedNodes) if (n.classList) w.banners.push(n.className);
  }).observe(document.getElementById("banners"), {childList: true});
  new MutationObserver((ms) => {
    for (const m of ms) for (const n of m.addedNodes) {
      if (n.querySelectorAll) w.fresh += n.querySelectorAll(".fresh").length;
    }
  }).observe(document.getElementById("felt"), {childList: true, subtree: true});
}
"""


def play_a_game(pages: Pages, server: LiveServer, lang: str, name: str, shots: Path) -> Page:
    code = server.create_room(bots=5, bot_delay_ms=0, timer_s=None, seed=SEED)
    page = start_seated(pages, server, code, name, DESKTOP, lang)
    page.evaluate("window.gouji.code = location.pathname.split('/').pop()")
    page.evaluate(WATCH_JS)
    drive(page, sample=True)
    wait_game_over(page, 40)
    expect(page.locator("#settlement .settle-places tbody tr")).to_have_count(6)
    shoot(page, shots / f"settlement-{lang}.png")
    return page


def test_a_game_in_chinese_shows_only_chinese(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    page = play_a_game(pages, live_server, "zh", "张三", shots)
    code = page.evaluate("window.gouji.code")
    lines = sampled_lines(page)
    assert len(lines) > 200  # the whole game was sampled, banners and toasts included
    assert not zh_problems(lines, code), zh_problems(lines, code)
    assert any("够级！" in x for x in lines)
    assert any("这轮最大" in x for x in lines)
    # the moments were announced on the felt, and plays moved in
    watch = page.evaluate("window.__watch")
    kinds = {k for c in watch["banners"] for k in c.split() if k.startswith("kind-")}
    assert {"kind-gouji", "kind-place", "kind-info"} <= kinds, kinds
    assert watch["fresh"] > 20, watch["fresh"]
    expect(page.locator("#settlement")).to_contain_text("记分方法")


def test_a_game_in_english_shows_chinese_only_as_terms(
    live_server: LiveServer, pages: Pages, shots: Path
) -> None:
    page = play_a_game(pages, live_server, "en", "Alice", shots)
    lines = sampled_lines(page)
    assert len(lines) > 200
    assert not en_problems(lines, ("Alice",)), en_problems(lines, ("Alice",))
    assert any("够级!" in x for x in lines)
    expect(page.locator("#settlement")).to_contain_text("How it is recorded")
    # the language switch also renames what was drawn before it: the connection label too
    expect(page.locator("#conn")).to_have_text("connected")
    page.locator("#lang").click()
    expect(page.locator("#conn")).to_have_text("已连接")
    expect(page.locator("#settlement")).to_contain_text("记分方法")
    page.set_viewport_size(PHONE)
    expect(page.locator("#settlement .next-btn")).to_be_in_viewport()


# A settlement with every item: 打点 (开点 column), burns, 闷, 串三户, the bonuses of a scoring
# system that counts them, 明点/预点, a swap, and the skip question asked of the viewer.
SETTLEMENT_VIEW: dict[str, Any] = {
    "is_over": True,
    "legal_actions": ["skip", "noskip"],
    "match": {
        "game": 2,
        "totals": [33, 4],
        "results": [{"places": [1, 4, 2, 5, 3, 6], "team_scores": [30, 3]}],
        "prompt": "skip",
        "prompt_to": 0,
        "is_over": False,
        "result": {
            "places": [1, 4, 2, 5, 3, 6],
            "team_scores": [30, 3],
            "team_points": [30, 3],
            "scoring": "audit6",
            "place_points": [6, 3, 5, 2, 4, 1],
            "score_rule": "chuan_30_3",
            "hands": ["", "3 3", "", "LJ", "", "5 5 T"],
            "chuan": 0,
            "bonuses": {"men": [1, 0], "dian": [0, 1], "burn": [1, 0]},
            "opened": [True, False, True, True, True, False],
            "men": [5],
            "burns": [[0, 3]],
            "revolutionary": None,
            "declarations": [
                {"by": 0, "on": 3, "kind": "mingdian", "succeeded": True, "cards": 2},
                {"by": 1, "on": 4, "kind": "yudian", "succeeded": False, "cards": 8},
            ],
            "finish_order": [0, 2, 4, 1, 3, 5],
            "swapped": True,
        },
    },
}
SETTLE_JS = """
async ([lang, names, view]) => {
  const i18n = await import("/static/js/i18n.js");
  const words = await import("/static/js/words.js");
  const settle = await import("/static/js/settlement.js");
  i18n.setLang(lang);
  const on = {act: () => {}, next: () => {}, close: () => {}};
  const panel = settle.settlementPanel(view, {...words.namer(names, 0), hint: null}, on, "#");
  document.body.append(panel);
  const text = panel.innerText;
  panel.remove();
  const rules = ["sum", "positive_only", "chuan_12", "chuan_doubled", "chuan_30_3"];
  return {text, rules: rules.map((r) => i18n.t("rule_" + r))};
}
"""


def test_the_settlement_says_every_score_item(live_server: LiveServer, pages: Pages) -> None:
    page = pages.new("Alice")
    page.goto(live_server.url + "/")
    out = page.evaluate(SETTLE_JS, ["zh", NAMES["zh"], SETTLEMENT_VIEW])
    text: str = out["text"]
    for words in (
        "头科", "大落", "没开点", "+6", "出完", "大王", "10",
        "烧牌：张三 烧成 赵六", "闷：孙八 被闷", "甲队 串三户",
        "张三 明点 赵六：成功（赵六 没开点），赵六 向 张三 进 2 张",
        "李四 预点 钱七：失败（钱七 开了点），李四 向 钱七 进 8 张",
        "奖励分：闷", "奖励分：不开点", "奖励分：烧成", "记分方法：串三户，30 比 3。",
        "二落和大落换了位", "问你：", "六家都同意", "免贡", "不免", "比赛总分：",
    ):  # fmt: skip
        assert words in text, (words, text)
    assert not zh_problems(text.split("\n"), "")
    assert all(r and not r.startswith("rule_") for r in out["rules"])
    en = page.evaluate(SETTLE_JS, ["en", NAMES["en"], SETTLEMENT_VIEW])
    assert "Alice: 明点 on Dave: won (Dave did not open): Dave pays Alice 2 cards" in en["text"]
    assert "How it is recorded: 串三户, 30 : 3." in en["text"]
    assert not en_problems(en["text"].split("\n"), tuple(NAMES["en"]))
