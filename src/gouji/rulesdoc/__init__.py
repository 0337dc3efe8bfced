"""The players' rules documents (docs/rules/), one per preset and language, built from the preset.

Every statement that differs between rule sets is written from the preset's resolved
configuration (:func:`gouji.make_rules`) and the scoring tables
(:data:`gouji.engine.referee.scoring.PLACE_POINTS`),
so a document cannot contradict the engine: change a preset and its documents change with it.
The text is for players, in the game's own words (头科, 对头, 够级 …), in Chinese or English; it
names no configuration key and no preset code.

The server renders :func:`document` on ``GET /rules/{preset}`` (so it works from a source
checkout, an editable install and a wheel alike); ``docs/rules/`` holds the same Markdown for
reading in the repository, written by ``python -m gouji.rulesdoc docs/rules`` and checked to be
up to date by ``tests/rulesdoc/test_rules_docs.py``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from gouji.engine.referee.scoring import PLACE_POINTS
from gouji.engine.rules import PRESET_NAMES, Rules, make_rules

__all__ = [
    "LANGS",
    "NAMES",
    "SECTION_RULES",
    "SUMMARIES",
    "document",
    "filename",
    "main",
    "sections",
    "write_all",
]

LANGS: tuple[str, ...] = ("zh", "en")

#: Each preset's name for players (the lobby's presets.js uses the same).
NAMES: dict[str, dict[str, str]] = {
    "OUTLINE_FULL": {"zh": "大纲·全套", "en": "Outline, full"},
    "OUTLINE_CLASSIC": {"zh": "大纲·经典", "en": "Outline, classic"},
    "LAIWU": {"zh": "莱芜打法", "en": "Laiwu rules"},
    "AUDIT": {"zh": "审计协会比赛", "en": "Audit association contest"},
    "LIANG4": {"zh": "亮4打法", "en": "Show the 4s (亮4)"},
    "MATCH7": {"zh": "三局比赛", "en": "Three-game match"},
    "COMP2": {"zh": "大纲·比赛计分", "en": "Outline, contest scoring"},
}

#: Each preset in one line (the lobby shows the same line under the rule set it selected).
SUMMARIES: dict[str, dict[str, str]] = {
    "OUTLINE_FULL": {
        "zh": "默认规则：够级大纲加憋3、打点和进贡——3 留到最后出，没开点的给对头进贡，"
        "大落和二落给头科和二科进贡。",
        "en": "The default: the outline with 憋3, 打点 and tribute — 3s go out last, a player "
        "who fails to open pays the 对头, the last two places pay the first two.",
    },
    "OUTLINE_CLASSIC": {
        "zh": "老打法，最简单：亮3定先出，以后大落先出；有报牌、挑牌、会3会4，可以革命。",
        "en": "The older, simpler form: 亮3 picks the starter, later the 大落 leads; 报牌, "
        "挑牌, 会3/会4 and 革命.",
    },
    "LAIWU": {
        "zh": "莱芜：3 和 4 少一些，憋3，开壶后才能出 4，买3买4，2 不能贴，有烧贡，"
        "串三户后可以会5。",
        "en": "Laiwu: fewer 3s and 4s, 憋3, no 4s before 开壶, buying 3s and 4s, 2s do not "
        "attach, burn tribute, 会5 after a 串三户.",
    },
    "AUDIT": {
        "zh": "山东省内部审计师协会的比赛规则：憋3、开点、对头明扣，名次计 6 到 1 分，"
        "烧牌、不开点、闷各加 1 分。",
        "en": "The Shandong internal auditors' contest: 憋3, 开点, 扣 said aloud (明扣), "
        "places score 6 down to 1, +1 for each burn, 不开点 and 闷.",
    },
    "LIANG4": {
        "zh": "4 最多的人先出，第一手出 4；开牌抽到王的人先抓；打点，不开点给对头一张贡；"
        "可以革命。",
        "en": "Most 4s leads first and must lead 4s; a joker drawn at the opening takes "
        "first; 打点 with 点贡; 革命 allowed.",
    },
    "MATCH7": {
        "zh": "比赛：一场三局，名次计 7、5、4、3、2、0 分，总分高的赢；亮3，"
        "按座位顺序烧牌，扣下的牌不能看。",
        "en": "Tournament: three games, places score 7, 5, 4, 3, 2, 0, the higher total "
        "wins; 亮3; burns in seat order; finished rounds stay hidden.",
    },
    "COMP2": {
        "zh": "大纲全套的打法，按比赛计分：名次计 2、1、0、0、−1、−2 分，"
        "闷、不开点、烧牌各加 1 分。",
        "en": "The full outline with contest scoring: places score 2, 1, 0, 0, −1, −2; "
        "+1 for each 闷, 不开点 and burn.",
    },
}

_PLACES_ZH = ("头科", "二科", "三科", "四科", "二落", "大落")
_PLACES_EN = ("头科 (1st)", "二科 (2nd)", "三科 (3rd)", "四科 (4th)", "二落 (5th)", "大落 (6th)")
_RANK_ZH = {"T": "10", "SJ": "小王", "LJ": "大王"}
_RANK_EN = {"T": "10", "SJ": "small joker", "LJ": "big joker"}
_NUM_ZH = ("零", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十")
_NUM_EN = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

Pick = Callable[[str, str], str]


def filename(preset: str, lang: str) -> str:
    """``OUTLINE_FULL.zh.md``: the file of one document in docs/rules/."""
    return f"{preset}.{lang}.md"


def _points(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def _rank(code: str, zh: bool) -> str:
    return (_RANK_ZH if zh else _RANK_EN).get(code, code)


def _num(n: int, zh: bool) -> str:
    names = _NUM_ZH if zh else _NUM_EN
    return names[n] if 0 <= n < len(names) else str(n)


def _join(items: Sequence[str], zh: bool) -> str:
    if zh:
        return "、".join(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# ------------------------------------------------------------------------------ facts
class _Facts:
    """What the sections need to know about a rule set, beyond its plain attributes."""

    def __init__(self, r: Rules) -> None:
        self.r = r
        removed = sum(r.deck_remove.values())
        self.total = 216 - removed
        self.per, self.extra = divmod(self.total, 6)
        self.threes = 16 - r.deck_remove.get("3", 0)
        self.fours = 16 - r.deck_remove.get("4", 0)
        self.dian = r.dian_enabled
        self.trib = r.trib_enabled
        order = r.trib_order if r.trib_enabled else ()
        self.dian_paid = self.trib and self.dian and "dian" in order
        self.luo_paid = self.trib and "luo" in order
        self.shao_paid = self.trib and r.trib_shao
        self.bonus = r.score_system in ("comp2", "audit6")
        self.rev = r.rev_mode != "off"
        self.kaihu = r.laiwu_four_rule  # Laiwu calls 开点 开壶
        self.hui = tuple(r.hui_options)
        self.reopen = r.open_reopen_after_chuan and (
            r.open_later_start == "da_luo" or r.open_first_start != "first_taker"
        )


# ------------------------------------------------------------------------------ sections
def _glance(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    items: list[str] = []
    if r.deck_remove:
        items.append(
            t(
                f"牌：{f.total} 张，每人 {f.per} 或 {f.per + 1} 张",
                f"Cards: {f.total}, {f.per} or {f.per + 1} each",
            )
        )
    else:
        items.append(t("牌：四副牌 216 张，每人 36 张", "Cards: four packs, 216 cards, 36 each"))
    start = {
        "first_taker": t("第一局先抓牌的人先出", "in the first game the first taker leads"),
        "liang3": t("第一局亮3定先出", "in the first game 亮3 decides who leads"),
        "liang4": t("第一局 4 最多的人先出，先出 4", "in the first game most 4s leads, with 4s"),
    }[r.open_first_start]
    later = {
        "rotate": t("以后开牌人轮换", "later the opener rotates"),
        "da_luo": t("以后上局大落先出", "later the last game's 大落 leads"),
    }[r.open_later_start]
    items.append(t(f"先出：{start}，{later}", f"Leading first: {start}; {later}"))
    extras: list[str] = []
    if r.bie3_enabled:
        extras.append(t("憋3（买3、闷）", "憋3 (买3, 闷)"))
    if r.laiwu_four_rule:
        extras.append(t("开壶后发4", "4s only after 开壶"))
    if r.laiwu_buy4:
        extras.append("买4")
    if not r.play_twos_attach:
        extras.append(t("2 不能贴", "2s do not attach"))
    if f.dian:
        extras.append(t("打点（开点）", "打点 (开点)"))
    if r.burn_enabled:
        extras.append(t("烧牌", "burning (烧牌)"))
    if f.trib:
        extras.append(
            t("进贡、还贡", "tribute (进贡, 还贡)")
            if r.trib_return
            else t("进贡", "tribute (进贡)")
        )
    if f.rev:
        extras.append(t("革命", "revolution (革命)"))
    if f.hui:
        extras.extend(f"会{x}" for x in f.hui)
    if r.laiwu_hui5:
        extras.append("会5")
    if r.info_tiao:
        extras.append("挑牌")
    if r.info_count_visibility == "le10":
        extras.append(t("报牌", "报牌 (counts shown from 10 cards down)"))
    if not r.round_auto_kou:
        extras.append(t("明扣", "扣 said aloud (明扣)"))
    items.append(t("本规则有：", "This rule set has: ") + _join(extras, zh))
    pts = PLACE_POINTS[r.score_system]
    sep = "、" if zh else ", "
    score = sep.join(_points(p) for p in pts)
    items.append(t(f"计分：名次分 {score}", f"Scoring: places score {score}"))
    return ["\n".join(f"- {x}" for x in items)]


def _flow(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    steps: list[str] = []
    if r.dian_declare != "off":
        steps.append(t("开牌前可以**预点**", "before the opening: **预点** may be declared"))
    steps.append(t("**开牌**：定谁先抓牌、谁先出牌", "**the opening**: who takes first, who leads"))
    deal = t("抓牌：一人一张，逆时针轮流", "the deal: one card at a time, counter-clockwise")
    if r.open_first_start == "liang3":
        deal += t("；第一局**亮3**", "; in the first game **亮3**")
    elif r.open_first_start == "liang4":
        deal += t("；第一局**亮4**", "; in the first game **亮4**")
    steps.append(deal)
    if f.rev:
        steps.append(t("**革命**", "**革命** (revolution)"))
    if f.trib:
        steps.append(
            t("从第二局起：**进贡**", "from the second game on: **进贡** (tribute)")
            + (t("，然后**还贡**", ", then **还贡**") if r.trib_return else "")
        )
    if r.bie3_enabled:
        if r.laiwu_buy4:
            steps.append(
                t(
                    "**买3**、**买4**：没有 3 或 4 的人各买一张",
                    "**买3** and **买4**: whoever lacks a 3 or a 4 buys one",
                )
            )
        else:
            steps.append(t("**买3**：没有 3 的人买一张", "**买3**: whoever lacks a 3 buys one"))
    if f.hui:
        steps.append(
            t("首发的人可以**会3**", "the starter may order **会3**")
            + (t("或**会4**", " or **会4**") if "4" in f.hui else "")
        )
    if r.laiwu_hui5:
        steps.append(t("串三户后的一局：被串的一方可以**会5**", "after a 串三户: **会5**"))
    if r.dian_declare != "off":
        steps.append(t("可以**明点**", "**明点** may be declared"))
    steps.append(t("一轮一轮地出牌，直到一局结束", "round after round of play until the game ends"))
    steps.append(t("定名次、算分", "places and scores"))
    return [t("一局按这个顺序进行：", "A game runs in this order:"), _olist(steps)]


def _olist(items: Sequence[str]) -> str:
    return "\n".join(f"{i}. {x}" for i, x in enumerate(items, 1))


def _seats(f: _Facts, zh: bool, t: Pick) -> list[str]:
    return [
        t(
            "六个人分两队，每队三人（叫**联邦**），隔一个座位坐一个：你左右两边都是对手，"
            "坐在你正对面的对手是你的**对头**。出牌按逆时针方向一人一次，谁也不能抢先；"
            "在你后面出牌的是你的**下家**，在你前面的是**上家**。",
            "Six players play in two teams of three (a team is a **联邦**), seated "
            "alternately: both your neighbours are opponents, and the opponent sitting opposite "
            "you is your **对头** (duìtóu). Play goes counter-clockwise, one player at a time, "
            "and nobody may play out of turn; the player after you is your **下家**, the one "
            "before you your **上家**.",
        ),
        t(
            "目标是全队早走：先把手里的牌出完的人名次在前。",
            "The aim is for your team to go out early: whoever plays out their hand first takes "
            "the best place.",
        ),
    ]


def _cards(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.deck_remove:
        gone = _join(
            [
                t(f"{n} 张 {_rank(k, zh)}", f"{n} of the {_rank(k, zh)}s")
                for k, n in r.deck_remove.items()
            ],
            zh,
        )
        extra = ""
        if f.extra:
            extra = t(
                f"每人 {f.per} 张，先抓牌的人和他后面的 {f.extra - 1} 个人各多一张"
                f"（{f.per + 1} 张）。",
                f"Each player gets {f.per} cards; the first taker and the next "
                f"{f.extra - 1} players get one more ({f.per + 1}).",
            )
        else:
            extra = t(f"每人 {f.per} 张。", f"Each player gets {f.per} cards.")
        out.append(
            t(
                f"用四副牌（每副 54 张，带大小王），先拿掉 {gone}，剩 {f.total} 张。{extra}",
                f"Four packs of 54 cards (jokers included), without {gone}: {f.total} cards. "
                + extra,
            )
        )
    else:
        out.append(
            t(
                "用四副牌，每副 54 张（带大小王），共 216 张，每人 36 张。",
                "Four packs of 54 cards (jokers included): 216 cards, 36 for each player.",
            )
        )
    out.append(
        t(
            "牌的大小，从小到大：3、4、5、6、7、8、9、10、J、Q、K、A、2、小王、大王。"
            "2 也叫**钱**。",
            "Ranks, low to high: 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2, small joker (小王), "
            "big joker (大王). A 2 is also called **钱** (money).",
        )
    )
    if r.open_first_start == "liang3":
        out.append(
            t(
                "花色不分大小，只在亮3时有用。",
                "Suits never rank; they matter only for 亮3.",
            )
        )
    else:
        out.append(t("花色不分大小，出牌时不看花色。", "Suits never matter."))
    return out


def _opening(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    draw = t(
        "第一局先**开牌**：开牌的人（这里随机选）从洗好的牌里抽一张，按点数"
        "（A 算 1，J 算 11，Q 算 12，K 算 13）从自己数起，逆时针数到谁，谁**先抓牌**。",
        "The first game starts with **开牌** (the opening): the opener (chosen at random "
        "here) draws a card from the shuffled packs and counts its value (A = 1, J = 11, "
        "Q = 12, K = 13) counter-clockwise, starting with themselves; the player reached "
        "**takes first** (先抓牌).",
    )
    if r.open_joker_draw == "next_opens":
        draw += t("抽到王时，由下家重新抽。", " A joker passes the draw to the next player.")
    else:
        draw += t("抽到王时，抽牌的人自己先抓。", " A player who draws a joker takes first.")
    draw += t(
        "然后从先抓的人起，逆时针一人一张抓完。",
        " Then the cards are dealt one at a time, counter-clockwise from the first taker.",
    )
    out.append(draw)
    if r.open_first_start == "first_taker":
        out.append(
            t("第一局由先抓牌的人**首发**（出第一手）。", "The first taker **leads** first.")
        )
    elif r.open_first_start == "liang3":
        out.append(
            t(
                "**亮3**：第一局谁先出，看同一花色的 3。抓牌时，谁先凑齐两张同花色的 3，"
                "谁就先出；后来有人同一花色的 3 比他亮的更多，就由这个人**顶班**。"
                "也就是说：同一花色的 3 最多的人先出，一样多时看谁先凑齐；"
                "没有人有两张同花色的 3 时，先抓牌的人先出。亮牌由系统自动完成，"
                "先出的人不一定要出 3。",
                "**亮3** (showing the 3s) decides who leads the first game: during the deal the "
                "first player to hold two 3s of one suit becomes the starter, and a player who "
                "later holds more 3s of one suit than the starter showed takes over (**顶班**). "
                "In the end, whoever holds the most 3s of one suit leads (on a tie, whoever "
                "had them first); if nobody holds two 3s of one suit, the first taker leads. "
                "The table shows the 3s "
                "for you, and the starter need not lead 3s.",
            )
        )
    else:
        out.append(
            t(
                "**亮4**：第一局手里 4 最多的人先出（不分花色；一样多时看谁先凑齐），"
                "而且第一手必须出 4（可以贴 2、挂王）。",
                "**亮4** (showing the 4s): in the first game the player with the most 4s (any "
                "suits; on a tie, whoever had them first) leads, and the first lead must be 4s "
                "(2s and jokers may be attached).",
            )
        )
    if r.open_later_start == "rotate":
        out.append(
            t(
                "以后每局，开牌的人按逆时针轮换一位，照样抽牌定谁先抓，先抓的人首发。",
                "In later games the opener moves one seat counter-clockwise each game and draws "
                "as before; the first taker leads.",
            )
        )
    else:
        later = t(
            "以后每局，由上一局的**大落**（最后一名）先抓牌，也由他首发",
            "In later games the last game's **大落** (last place) takes first and leads",
        )
        if r.open_first_start == "liang4":
            later += t("，不用再出 4", ", with any play")
        elif r.open_first_start == "liang3":
            later += t("，不再亮3", "; there is no 亮3")
        out.append(later + t("。", "."))
    if f.reopen:
        out.append(
            t(
                "出现**串三户**之后，或者有两个以上的人换了人，下一局**重新开牌**，和第一局一样。",
                "After a **串三户**, or when two or more players were replaced, the next game is "
                "**re-opened** (重新开牌) like the first one.",
            )
        )
    return out


def _plays(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.play_twos_attach:
        out.append(
            t(
                "每一手牌由**同一点数**的牌组成，张数不限（一张、两张、五张都行），"
                "还可以**贴**上任意张 2（贴钱），**挂**上任意张王（挂花）。"
                "例如：7 7 7；7 7 2；小王 7 7；Q Q Q 2 大王。贴上的 2 当作这一手的点数。",
                "A play is any number of cards of **one rank** (one card, two, five …), to "
                "which you may **attach** any number of 2s (贴钱) and jokers (挂花). For "
                "example: 7 7 7; 7 7 2; small joker 7 7; Q Q Q 2 big joker. Attached 2s count "
                "as the play's rank.",
            )
        )
        out.append(
            t(
                "也可以只出 2（可以挂王），或者只出王。",
                "A play may also be 2s alone (jokers may be attached), or jokers alone.",
            )
        )
    else:
        out.append(
            t(
                "每一手牌由**同一点数**的牌组成，张数不限（一张、两张、五张都行），"
                "还可以**挂**上任意张王（挂彩）。例如：7 7 7；小王 7 7；Q Q Q 大王。",
                "A play is any number of cards of **one rank** (one card, two, five …), to "
                "which you may **attach** any number of jokers (挂彩). For example: 7 7 7; "
                "small joker 7 7; Q Q Q big joker.",
            )
        )
        out.append(
            t(
                "**2 不能贴**在别的牌上：2 只能自己成一手（可以挂王）。也可以只出王。",
                "**2s do not attach** to other cards: 2s make a play of their own (jokers may "
                "be attached). A play may also be jokers alone.",
            )
        )
    out.append(
        t(
            "首发（一轮的第一手）必须出牌，不能过。",
            "The lead (the first play of a round) cannot be passed.",
        )
    )
    rules: list[str] = []
    if r.bie3_enabled:
        rules.append(t("3 要按**憋3**的规矩出", "3s follow **憋3**"))
    if r.laiwu_four_rule:
        rules.append(t("4 要按**开壶后发4**的规矩出", "4s follow **开壶后发4**"))
    if rules:
        out.append(t("另外，" + "，".join(rules) + "（见下文）。", _join(rules, zh) + " (below)."))
    return out


def _beating(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    higher = "8 8 2" if r.play_twos_attach else "8 8 8"
    return [
        t(
            "管上一手牌（**顺牌**），要**张数相同**、**点数更大**；点数一样不行。"
            + ("贴上的 2 算这一手的点数；" if r.play_twos_attach else "")
            + "只有 2 和王的牌，按 2、小王、大王算。",
            "To beat the standing play, a play needs **the same number of cards** and a "
            "**higher rank**; an equal rank is not enough. "
            + ("Attached 2s count as the play's rank; " if r.play_twos_attach else "")
            + "a play of only 2s and jokers counts as 2, small joker or big joker.",
        ),
        t(
            "带**大王**的牌是**死牌**，谁也管不了。带小王的牌，要带同样多（或更多）"
            "大王的牌才能管。",
            "A play with a **big joker** is **dead** (死牌): nothing beats it. A play with "
            "small jokers can only be beaten by a play with at least as many big jokers.",
        ),
        t(
            f"例如：{higher} 管得了 7 7 7；小王 7 7 管不了 7 7 7（都算 7）；"
            "大王 8 8 8 8 管得了 小王 7 7 7 7，小王 8 8 8 8 就不行。",
            f"For example: {higher} beats 7 7 7; small joker 7 7 does not (both count as "
            "7); big joker 8 8 8 8 beats small joker 7 7 7 7, small joker 8 8 8 8 does not.",
        ),
    ]


def _gouji(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    mins = r.play_gouji_min
    parts = [
        t(f"{_rank(k, zh)} {_num(n, zh)}张以上", f"{n} or more {_rank(k, zh)}s")
        for k, n in mins.items()
    ]
    size = (
        t(
            "贴上的 2 也算张数，例如 10 10 10 10 2 够级。",
            " Attached 2s count: 10 10 10 10 2 is 够级.",
        )
        if r.play_twos_attach
        else ""
    )
    out = [
        t(
            f"大牌叫**够级牌**（够级）：{_join(parts, zh)}；只出 2 的牌不论几张；"
            "带王的牌不论几张。3 到 9 只有挂了王才够级。" + size,
            f"Big plays are **够级** plays (gòují, “reaching the level”): {_join(parts, zh)}; "
            "2s alone, any number; any play with a joker. 3s to 9s are 够级 only with a joker."
            + size,
        ),
        t(
            "有人出了够级牌，只有他的**对头**能管（即使这一轮已经过牌了），另外还有"
            "**无头**的人（见下文）"
            + ("和**烧牌**的人" if r.burn_enabled else "")
            + "。其他人，包括他的队友，都不能管。管够级牌的牌也一定是够级牌，"
            "所以够级总是在两个对头之间你来我往，直到一方不要。",
            "A 够级 play may be answered only by the **对头** of its player (even one that passed "
            "earlier in the round), by a **无头** player (below)"
            + (" and by a **burner** (烧牌)" if r.burn_enabled else "")
            + ". Nobody else, not even the player's teammates. A play that beats a 够级 play "
            "is itself 够级, so the 够级 duel goes back and forth between two 对头s until one "
            "of them gives up.",
        ),
    ]
    return out


def _round(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out = [
        t(
            "一轮从首发开始，按逆时针轮流，每人可以管上（出一手更大的），或者**过牌**。",
            "A round begins with a lead; then, counter-clockwise, each player may beat the "
            "standing play or **pass** (过牌).",
        ),
        t(
            "**过牌**：过了以后，这一轮你就不能再出了——只有你的对头出的牌，你还可以管（对头牌）。",
            "**过牌** (passing): once you pass you are out of the round — except that you may "
            "still answer a play made by your own 对头.",
        ),
    ]
    rang = t(
        "**让牌**：对手出的牌不是够级牌时，他的对头可以先不表态，让自己的下两家先管。",
        "**让牌** (yielding): when a play is not 够级, its player's 对头 may yield to the next "
        "two players first.",
    )
    if r.round_rang == "lock_on_beat":
        rang += t(
            "下两家有人管了，你这一轮就算过了（让牌让到底）；",
            " If either of them beats it, you are out of the round (让牌让到底); ",
        )
    else:
        rang += t(
            "下两家有人管了，你以后轮到时仍可以管；",
            " If either of them beats it, you may still answer later plays in your turn; ",
        )
    rang += t(
        "两人都不管，又轮到你，你要么管、要么过，过了这一轮就结束。",
        "if both decline, the turn comes back to you: play or pass, and a pass ends the round.",
    )
    out.append(rang)
    kou = t(
        "**扣牌**：每一手牌都要等出牌人的对头表态，对头不管叫**扣**，对头扣了以后，"
        "没人再管，这一轮才结束。出了死牌（带大王），对头扣了这一轮就结束；",
        "**扣牌**: a round cannot end before the 对头 of the player who made the standing "
        "play has declined it; the 对头's decline is called **扣** (kòu). After a dead play "
        "(with a big joker) the round ends as soon as the 对头 has said 扣; ",
    )
    if r.round_auto_kou:
        kou += t("这一下由系统自动替他扣。", "the table says it for the 对头 automatically.")
    else:
        kou += t(
            "对头要自己按“扣”，这叫**明扣**。",
            "the 对头 must say it, pressing “扣 Kou” (明扣, as contests require).",
        )
    out.append(kou)
    out.append(
        t(
            "没人再管时，出最后那手牌的人赢这一轮，下一轮由他首发。"
            "如果那是他的最后一手（他走了），就由他后面第一个还有牌的人首发，这叫**接风**。",
            "When nobody beats it any more, the player of the last play wins the round and "
            "leads the next. If that was their last play (they went out), the next player "
            "counter-clockwise who still holds cards leads: **接风** (catching the wind).",
        )
    )
    return out


def _burning(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not r.burn_enabled:
        return []
    out = [
        t(
            "有人出了够级牌，在他的对头回应之前，别人（队友也可以）如果有把握一口气走完，"
            "可以**烧牌**：先用一手牌管住这手够级牌，然后接着自己首发，"
            "除了最后一手，每一手都要挂王。"
            + ("最后一手照样是全部的 3。" if r.bie3_enabled else ""),
            "When a 够级 play is made, before the 对头 of its player answers, another player (a "
            "teammate too) who can run out may **burn** it (烧牌): beat it with one play, then "
            "lead out the rest of the hand, every lead but the last carrying a joker."
            + (" The last play is still all of the burner's 3s." if r.bie3_enabled else ""),
        ),
        t(
            "能烧的条件：这一轮还没过牌、没让牌；自己的对头还在打；管完之后剩下的牌"
            "能这样出完。系统只问真正烧得了的人。"
            + ("另外，只有**开了点**的人才能烧。" if r.burn_requires_opened else ""),
            "Who may burn: a player that has not passed or yielded in this round, whose own "
            "对头 is still playing, and whose cards left after the beating play can be played "
            "out that way. The table offers the burn only to players who really can."
            + (
                " Only a player that has **opened** (开点) may burn."
                if r.burn_requires_opened
                else ""
            ),
        ),
    ]
    if r.burn_priority == "team_first":
        out.append(
            t(
                "几个人都能烧时，先问出牌人的队友，再问对手，各自按逆时针顺序；第一个答应的人烧。",
                "When several players can burn, the player's teammates are asked first, then "
                "their opponents, each in counter-clockwise order; the first to accept burns.",
            )
        )
    else:
        out.append(
            t(
                "几个人都能烧时，从出牌人起按座位顺序（逆时针）问，不分敌我；第一个答应的人烧。",
                "When several players can burn, they are asked in seat order (counter-"
                "clockwise from the player), teammates and opponents alike; the first to "
                "accept burns.",
            )
        )
    broken = t(
        "烧牌的人出的牌也是够级牌，他的对头可以管，别人也可以再烧（**反烧**）。"
        "把牌走完就是**烧成**；还没走完就有一手被人管住，烧牌就**破**了，",
        "The burner's plays are 够级 too: its 对头 may answer them and others may burn them "
        "in turn (**反烧**). Running out is a successful burn (**烧成**); if one of its plays "
        "is beaten before that, the burn is **broken** (破), ",
    )
    if r.burn_broken_penalty == "none":
        broken += t("他接着正常打。", "and the burner plays on as usual.")
    else:
        broken += t(
            "他马上停牌，得当时最差的名次。",
            "and the burner stops at once and takes the worst free place.",
        )
    out.append(broken)
    gains: list[str] = []
    if f.shao_paid:
        gains.append(
            t("下一局被烧的对手给他一张**烧贡**", "the victim pays the burner a **烧贡** next game")
        )
    if f.bonus:
        gains.append(t("他的一方加 1 分", "the burner's team scores +1"))
    if gains:
        out.append(
            t(
                "烧成对手的牌：" + "，".join(gains) + "。烧自己队友不得什么。",
                "A successful burn of an opponent's play: "
                + _join(gains, zh)
                + ". Burning a teammate earns nothing.",
            )
        )
    return out


def _places(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out = [
        t(
            "先出完牌的人得**头科**，然后是**二科**、**三科**、**四科**、**二落**，"
            "最后是**大落**（落读 là）。争名次叫**争科**。每人的最后一手叫**底牌**，"
            "和别的牌一样可以被管。",
            "The first player out takes **头科** (1st), then **二科**, **三科**, **四科**, "
            "**二落** and last **大落** (落 is read là). Each player's last play is their "
            "**底牌**; it can be beaten like any play.",
        ),
        t(
            "**够死级**：你的对头刚走成头科或二科的那一轮，你有一次够死级：这一轮你出的"
            "够级牌，只有烧牌的人能管。",
            "**够死级**: in the round in which your 对头 went out as 头科 or 二科, you have one "
            "够死级 chance: a 够级 play of yours in that round can be answered only by a "
            "burner.",
        ),
        t(
            "**无头**：你的对头不在了（走了"
            + ("、被闷了" if r.bie3_enabled else "")
            + "），你就**无头**了：你出的牌谁都可以按顺序管；"
            "但你在轮到时也可以管任何牌，包括别人的够级牌（只要这一轮还没过牌）。"
            "无头的人不能烧牌。",
            "**无头** (headless): once your 对头 is gone (out"
            + (" or 闷" if r.bie3_enabled else "")
            + "), your plays are open: anyone may beat them in turn. In return you may beat "
            "any play in your turn, other players' 够级 plays included, as long as you have not "
            "passed in the round. A 无头 player cannot burn.",
        ),
    ]
    chaos = t(
        "**四人乱缠**：头科和二科都出来以后，从下一轮开始就是四人乱缠：够级牌不再受保护，"
        "过牌只是不管这一手，没有让牌"
        + ("，不能烧牌" if r.burn_enabled else "")
        + "；仍按逆时针轮流，大家都不管时，出最后一手的人赢这一轮"
        + ("（死牌照样等对头扣）" if r.round_auto_kou else "（死牌照样等对头明扣）")
        + "。",
        "**四人乱缠** (four-player free-for-all): from the round after both 头科 and 二科 are "
        "out, 够级 plays have no protection, a pass only declines the current play, there is "
        "no 让牌"
        + (" and no burning" if r.burn_enabled else "")
        + "; turns still go counter-clockwise, and the round ends when everybody else has "
        "declined the last play (a dead play still waits for the 对头's 扣).",
    )
    out.append(chaos)
    return out


def _end(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.end_remaining_order == "fewest_cards":
        order = t(
            "剩下的人按手里牌的多少排名次，牌少的在前（一样多时按座位顺序）",
            "the players left are placed by the cards they hold, fewest first (on a tie, "
            "in seat order)",
        )
    else:
        order = t("剩下的人由他们的队伍商定名次", "the team left decides the order of its players")
    out.append(
        t(
            f"只剩一个人，或者剩下的人都是一队的，这一局就结束：{order}。",
            f"A game ends when one player is left, or when everybody left is on one team: {order}.",
        )
    )
    out.append(
        t(
            "一队拿下头科、二科和三科，叫**串三户**（也叫圈三户），对方被串了。",
            "When one team takes 头科, 二科 and 三科, it is a **串三户** (the other team was "
            "串'd).",
        )
    )
    if r.end_swap_prompt:
        effects: list[str] = []
        if f.luo_paid:
            effects.append(t("谁交落贡", "who pays 落贡"))
        if r.open_later_start == "da_luo":
            effects.append(t("下一局谁先出", "who leads the next game"))
        what = (
            t("，这会改变" + "和".join(effects), "; it changes " + _join(effects, zh))
            if effects
            else ""
        )
        out.append(
            t(
                f"二落和大落是队友时，局后两人都同意，就可以互换名次（分数不变{what}）。",
                "When 二落 and 大落 are teammates, they may swap places after the game if both "
                f"agree (the score does not change{what}).",
            )
        )
    return out


def _bie3(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not r.bie3_enabled:
        return []
    if r.bie3_buy_order == "duitou_then_their_team":
        sellers = t(
            "先向对头买；对头的 3 不够，向对头的队友买；再不行向自己的队友买",
            "from their 对头; if the 对头 cannot sell, from the 对头's teammates; failing that, "
            "from their own teammates",
        )
    else:
        sellers = t(
            "先向对头买，再向自己的队友买，最后向其他对手买",
            "from their 对头, then from their own teammates, then from the other opponents",
        )
    after = "抓完牌、进完贡后，" if f.trib else "抓完牌后，"
    after_en = "after the deal and the tribute" if f.trib else "after the deal"
    out = [
        t(
            "**憋3**：3 只能作为你的最后一手（底牌），一次把所有的 3 全部出完，"
            "不能带别的牌，也不能分开出。3 管不了任何牌，所以手里只剩 3 时，"
            "只有自己赢了一轮或者**接风**时才能出。",
            "**憋3** (holding back the 3s): your 3s can only be your last play (底牌), all of "
            "them at once, alone, never split. 3s beat nothing, so a hand of only 3s can go "
            "out only when you lead: after winning a round, or by **接风**.",
        ),
        t(
            f"**买3**：{after}手里没有 3 的人必须买一张 3：{sellers}"
            "（卖的人自己至少留一张 3）。买的人付给卖的人一张自己最小的钱："
            "有 2 给 2，没有 2 给小王，再没有给大王；都没有就白拿。",
            f"**买3** (buying a 3): {after_en}, a player without a 3 must buy one, {sellers} "
            "(a seller keeps at least one 3). The buyer pays the seller their lowest of 2, small "
            "joker, big joker; with none of them, the 3 is free.",
        ),
    ]
    if r.laiwu_buy4:
        out.append(
            t(
                "**买4**：没有 4 的人同样要买一张 4，卖的顺序和付的牌都一样（先买 3，再买 4）。",
                "**买4**: a player without a 4 buys a 4 the same way (3s are bought first, "
                "then 4s).",
            )
        )
    if f.threes == 6 and (f.fours == 6 or not r.laiwu_buy4):
        one = t("一张 3、一张 4", "one 3 and one 4") if r.laiwu_buy4 else t("一张 3", "one 3")
        out.append(
            t(
                f"牌里只有 6 张 3{'、6 张 4' if r.laiwu_buy4 else ''}，所以买完以后每人正好{one}。",
                f"With only six 3s{' and six 4s' if r.laiwu_buy4 else ''} in the deck, every "
                f"player holds exactly {one} after buying.",
            )
        )
    if r.bie3_men == "strict":
        out.append(
            t(
                "**闷**：一轮结束（或接风）时，如果首发的不是你，而你手里只剩 3，你就被闷了："
                "不能再出，直接得当时最差的名次。被闷的人的对头成了无头（没有够死级）。",
                "**闷** (being stifled): when a round ends (or 接风 is awarded) and the new "
                "leader is not you while you hold only 3s, you are 闷: you stop playing and take "
                "the worst free place. The 对头 of a 闷 player becomes 无头 (with no 够死级).",
            )
        )
    else:
        out.append(
            t(
                "**闷**：手里只剩 3 的人只能等接风来解救，没等到就排在最后几名。",
                "**闷**: a player left with only 3s waits; only 接风 can rescue them, "
                "otherwise they end in the last places.",
            )
        )
    return out


def _dian(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not f.dian:
        return []
    alias = t("（莱芜叫**开壶**）", "; Laiwu says **开壶**") if f.kaihu else ""
    qualifier = {
        "outline": t(
            "任何够级牌都算，只是带大王的不算", "any 够级 play, except one with a big joker"
        ),
        "audit": t(
            "不能挂王、不能贴 2；只出 2 的要两张以上（单张 2 和王都不算）",
            "no joker and no attached 2; 2s alone only when two or more (a single 2 and jokers "
            "never count)",
        ),
        "pure": t(
            "只有**纯够级**：10、J、Q、K、A 够了张数，不挂王也不贴 2",
            "only **pure 够级** plays: 10s to As in 够级 numbers, with no joker and no 2",
        ),
        "no_attach": t(
            "不能挂王、不能贴 2：纯够级、只出 2 的、只出小王的都算",
            "nothing attached and no big joker: a pure 够级 play, 2s alone or small jokers alone",
        ),
    }[r.dian_qualifier]
    deadline = {
        "outline": t(
            "头科的对头要在头科走之前开点，其他人要在二科走之前开点（头科、二科自己的最后一手也算）",
            "the 对头 of the 头科 must open before the 头科 goes out, everybody else before the "
            "二科 goes out (their own last plays count)",
        ),
        "erke": t(
            "所有人都要在二科走之前开点（二科自己的最后一手也算）",
            "everybody must open before the 二科 goes out (the 二科's own last play counts)",
        ),
        "touke": t(
            "所有人都要在第一个人走（头科出来）之前开点",
            "everybody must open before the first player goes out (the 头科)",
        ),
    }[r.dian_deadline]
    out = [
        t(
            f"**打点**：每个人都要争取**开点**{alias}：在期限之前，出一手够级牌，"
            "而且这手牌赢下这一轮（叫**活**）。管别人的牌也算，无头的人出的也算。",
            f"**打点**: every player must try to **开点** (open the point{alias}): before their "
            "deadline, make a 够级 play that wins its round (it is **活**, alive). Answers "
            "count as well as leads, and so do plays of a 无头 player.",
        ),
        t(f"哪些牌算：{qualifier}。", f"Which plays count: {qualifier}."),
        t(f"期限：{deadline}。", f"Deadline: {deadline}."),
        t(
            "到期还没开点就是**不开点**。只是有一种例外：牌局提前结束时，"
            "还拿着牌、期限还没到的人算开点。",
            "Whoever has not opened by then is **不开点**. One exception: when the game ends "
            "early, a player still holding cards whose deadline is still open counts as opened.",
        ),
    ]
    consequences: list[str] = []
    if f.dian_paid:
        mutual = (
            t("对头两人都不开点时，互相给", "if both 对头s failed, each pays the other")
            if r.dian_mutual == "exchange"
            else t("对头两人都不开点时，两抵不给", "if both 对头s failed, the two cancel out")
        )
        consequences.append(
            t(
                f"下一局，不开点的人给自己的对头一张**点贡**（{mutual}）",
                f"in the next game a 不开点 player pays their 对头 one card, **点贡** ({mutual})",
            )
        )
    if f.bonus:
        consequences.append(
            t("每个不开点的人让对方加 1 分", "each 不开点 player scores +1 for the other team")
        )
    if r.burn_requires_opened:
        consequences.append(t("没开点的人不能烧牌", "a player that has not opened cannot burn"))
    if r.laiwu_four_rule:
        consequences.append(
            t(
                "没开壶的人不能出 4（见开壶后发4）",
                "a player that has not 开壶'd cannot play 4s (below)",
            )
        )
    if consequences:
        out.append(
            t("不开点的后果：", "What failing costs: ")
            + ("；" if zh else "; ").join(consequences)
            + t("。", ".")
        )
    if r.dian_declare != "off":
        ming, yu = (2, 4)
        over_ming, over_yu = (4, 8) if r.dian_declare == "ming_yu_double" else (2, 4)
        out.append(
            t(
                f"**明点**和**预点**：你可以宣布你的对头开不了点——开牌前宣布叫预点，"
                f"出第一手牌前宣布叫明点，每局一次。说中了，对头给你 {yu} 张（预点）"
                f"或 {ming} 张（明点）点贡，代替平常的一张；对头开了点就是**翻车**，"
                f"你给他 {over_yu} 张或 {over_ming} 张。",
                f"**明点** and **预点**: you may declare that your 对头 will not open — before "
                f"the opening (预点) or before the first lead (明点), once a game. If you are "
                f"right, the 对头 pays you {yu} (预点) or {ming} (明点) cards of 点贡 instead of "
                f"one; if the 对头 opens, the cart overturns (**翻车**) and you pay them "
                f"{over_yu} or {over_ming}.",
            )
        )
    return out


def _laiwu(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    if r.laiwu_four_rule:
        first = (
            t("全部的 4", "all of your 4s")
            if r.laiwu_four_lead_all
            else t("4（可以挂王）", "4s (jokers may be attached)")
        )
        stuck = t("除了 3 和 4 ", "but 3s and 4s") if r.bie3_enabled else t("除了 4 ", "but 4s")
        out.append(
            t(
                "**开壶后发4**：还没人走成头科时，没开壶的人不能出 4（烧牌时也一样）。"
                f"你开壶的那手牌赢下一轮，你接着首发，手里有 4 的话，这一手必须出 {first}。"
                "一旦有了头科，谁也不能再开壶，大家都可以出 4。",
                "**开壶后发4** (4s after 开壶): while nobody has gone out as 头科, a player that "
                "has not 开壶'd may not play any 4, not even to burn. The play that opens wins "
                f"you the round, and your next lead must be {first} if you hold any. Once "
                "there is a 头科 nobody can 开壶 any more, and everybody may play 4s.",
            )
        )
        out.append(
            t(
                f"如果轮到你首发，手里{stuck}没有别的牌，这一局这条规矩对你就不算了，"
                "你可以出 4，但也不能再开壶。所以手里有 4 又没开壶的人，一般当不了头科。",
                f"If you must lead and hold nothing {stuck}, the rule lifts for you for the rest "
                "of the game: you may lead your 4s, but you can no longer 开壶. So a player "
                "holding 4s that has not 开壶'd can hardly become 头科.",
            )
        )
    if r.laiwu_hui5:
        out.append(
            t(
                "**会5**：串三户后的下一局，出第一手前，被串的一方可以要求会5："
                "所有人手里的 5 都拿出来不用，对方不能拒绝。",
                "**会5**: in the game after a 串三户, before the first lead, the team that was "
                "串'd may order every 5 out of every hand; the other team cannot refuse.",
            )
        )
    return out


def _hui(f: _Facts, zh: bool, t: Pick) -> list[str]:
    if not f.hui:
        return []
    if "4" in f.hui:
        what = t(
            "**会3**（所有人手里的 3 都拿出来不用）、**会4**（4 也一样），或者两样都会",
            "**会3** (every 3 leaves every hand and the game), **会4** (the same with 4s), or both",
        )
    else:
        what = t(
            "**会3**：所有人手里的 3 都拿出来不用",
            "**会3**: every 3 leaves every hand and the game",
        )
    return [
        t(
            f"出第一手牌之前，首发的人可以决定{what}。",
            f"Before the first lead, the starter may order {what}.",
        )
    ]


def _revolution(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not f.rev:
        return []
    if r.rev_mode == "outline":
        who = t("手里没有 2、也没有王的人", "a player dealt no 2 and no joker")
    else:
        who = t(
            "手里没有 3、没有 2、也没有王的人（憋3 时只有这样才能革命）",
            "a player dealt no 3, no 2 and no joker (under 憋3 only such a hand may revolt)",
        )
    out = [
        t(
            f"**革命**：抓完牌后，{who}可以革命（也可以不革）。革命的人把牌放到一边，"
            "这一局不再出牌，得**四科**，他的两个队友接着打；如果两个队友拿了头科和二科，"
            "他就升为三科，对方被串三户。两个以上的人革命，这一局作废，重新发牌。",
            f"**革命** (revolution): after the deal, {who} may revolt (or not). Their cards "
            "are set aside, they play no more in this game and hold **四科**; their two "
            "teammates play on. If these take 头科 and 二科, the revolutionary becomes 三科 and "
            "the other team is 串三户. Two or more revolutions void the game: the cards are "
            "dealt again.",
        ),
    ]
    if r.rev_gousiji > 0:
        out.append(
            t(
                f"革命的人的对头有{_num(r.rev_gousiji, zh)}次**够死级**的机会"
                "（每次出够级牌用掉一次，只有烧牌的人能管）；他也可以马上放弃，放弃后就是无头。",
                f"The revolutionary's 对头 gets {_num(r.rev_gousiji, zh)} **够死级** chances "
                "(each 够级 play uses one; only a burner may answer it); the 对头 may renounce "
                "them at once and is then 无头.",
            )
        )
    if f.dian:
        if r.bie3_enabled:
            out.append(
                t(
                    "打点时，革命的人算开了点，他的对头照常要开点。",
                    "With 打点 the revolutionary counts as opened; their 对头 must open as usual.",
                )
            )
        else:
            out.append(
                t(
                    "打点时，革命的人算不开点；他的对头要打成三次够死级（每次都赢下一轮）才算开点。",
                    "With 打点 the revolutionary counts as 不开点; their 对头 opens only by "
                    "winning three rounds with 够死级 plays.",
                )
            )
    if f.trib:
        out.append(
            t(
                "革命的人这一局不进贡也不收贡。",
                "The revolutionary neither pays nor receives tribute that game.",
            )
        )
    return out


def _tribute(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    if not f.trib:
        return []
    if r.trib_no_card == "skip":
        short = t("不够就有几张给几张，没有就不给", "a player short of them pays what they have")
    else:
        short = t(
            "不够就用自己最大的牌补上", "a player short of them makes up with their highest cards"
        )
    out = [
        t(
            "**进贡**：从第二局起，每局出牌之前，按上一局的结果进贡。贡牌只能是大王、小王、2，"
            f"从大的给起；{short}。进了几张大家都知道，是什么牌只有双方知道。",
            "**进贡** (tribute): from the second game on, before play, tribute is paid for the "
            "last game. Tribute cards are big jokers, small jokers and 2s, highest first; "
            f"{short}. Everybody sees how many cards go where; only the two players see which.",
        ),
    ]
    kinds: list[str] = []
    for kind in r.trib_order:
        if kind == "dian":
            kinds.append(
                t(
                    "**点贡**：上一局不开点的人给自己的对头一张，不还",
                    "**点贡**: a 不开点 player of the last game pays their 对头 one card, never "
                    "returned",
                )
            )
        elif kind == "shao":
            kinds.append(
                t(
                    "**烧贡**：被对手烧成的人给烧他的人一张，不还",
                    "**烧贡**: the victim of an opponent's successful burn pays the burner one "
                    "card, never returned",
                )
            )
        else:
            kinds.append(
                t(
                    "**落贡**：大落给头科两张，二落给二科一张",
                    "**落贡**: the 大落 pays the 头科 two cards, the 二落 pays the 二科 one",
                )
            )
    if len(kinds) > 1:
        out.append(t("按这个顺序交：", "In this order:"))
        out.append(_olist(kinds))
    else:
        out.extend(k + t("。", ".") for k in kinds)
    if f.luo_paid:
        if r.trib_return:
            back = t(
                "**还贡**：收了落贡的人还给对方同样多张牌，牌由自己挑。",
                "**还贡** (the return): a player who received 落贡 gives back as many cards, "
                "of their own choice.",
            )
            if r.trib_return_rank_rule:
                back += t(
                    "还的牌如果是对方手里没有的点数，对方可以拒收，收贡的人要换一张"
                    "（实在没有对方有的点数，就只能收下）。",
                    " The payer may refuse a card of a rank they do not hold, and then another "
                    "card must be chosen (unless no card of a rank the payer holds is left).",
                )
            out.append(back)
        else:
            out.append(t("贡牌都不还。", "No tribute is returned."))
    if not f.luo_paid:
        pass  # 点贡, 烧贡 and the 串 tribute always go to an opponent
    elif r.trib_same_team == "skip":
        out.append(
            t(
                "给的人和收的人是同一队的，就不用给。",
                "Tribute between teammates is not paid.",
            )
        )
    else:
        out.append(t("同一队的人之间也要进贡。", "Tribute is paid between teammates too."))
    out.append(
        t(
            "第一局不进贡；有两个以上的人换人后重新开牌的那一局也不进贡。",
            "There is no tribute in the first game, nor in a game re-opened because two or more "
            "players were replaced.",
        )
    )
    kept = []
    if f.dian_paid:
        kept.append("点贡")
    if f.shao_paid:
        kept.append("烧贡")
    kept_txt = _join(kept, zh)
    if r.trib_chuan == "none_reopen":
        skipped = [
            k
            for k in ("落贡", "烧贡")
            if (k == "落贡" and f.luo_paid) or (k == "烧贡" and f.shao_paid)
        ]
        if skipped:
            still = [k for k in kept if k not in skipped]
            line = t(
                f"串三户之后的那一局，不交{_join(skipped, zh)}",
                f"After a 串三户, no {_join(skipped, zh)} is paid",
            )
            if still:
                line += t(f"，{_join(still, zh)}照交", f"; {_join(still, zh)} still is")
            out.append(line + t("。", "."))
    else:
        line = t(
            "串三户之后的那一局，被串的三个人每人给自己的对头一张，代替落贡，不还",
            "After a 串三户, each of the three 串'd players pays their own 对头 one card instead "
            "of 落贡, never returned",
        )
        if kept:
            line += t(
                f"；{kept_txt}照交", f"; {kept_txt} {'are' if len(kept) > 1 else 'is'} still paid"
            )
        out.append(line + t("。", "."))
    if r.trib_chuan_agree:
        out.append(
            t(
                "串三户的一局打完，如果六个人都同意，下一局什么贡都不交。",
                "At the end of a 串三户 game, if all six players agree, no tribute at all is "
                "paid in the next game.",
            )
        )
    return out


def _information(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    out: list[str] = []
    vis = {
        "le10": t(
            "**报牌**：别人剩 10 张或更少时显示张数，多于 10 张只显示“10 张以上”",
            "**报牌** (telling the count): a player's card count is shown once it is 10 or "
            "fewer; above that, only “more than 10”",
        ),
        "always": t("随时看得到每人还剩几张牌", "every player's card count is always shown"),
        "hidden": t(
            "看不到别人还剩几张牌，只知道还在打",
            "other players' card counts are hidden; you only see who is still playing",
        ),
    }[r.info_count_visibility]
    out.append(
        t(
            (f"{vis}。" if r.info_count_visibility == "le10" else f"剩几张：{vis}。")
            + "创建房间时可以另选。",
            (f"{vis}." if r.info_count_visibility == "le10" else f"Card counts: {vis}.")
            + " The room's creator may choose otherwise.",
        )
    )
    if r.info_show_closed_rounds:
        out.append(
            t(
                "打完的轮次，出过的牌可以在记录里查看。",
                "Cards of finished rounds stay visible in the log.",
            )
        )
    else:
        out.append(
            t(
                "扣下的牌（打完的轮次）不能再翻看，只看得到正在打的这一轮。",
                "Cards of finished rounds cannot be looked at again (as in contests); only the "
                "current round is shown.",
            )
        )
    if r.info_tiao:
        out.append(
            t(
                "**挑牌**：轮到你首发时，如果你觉得剩下的牌能一口气出完，可以挑牌："
                "亮出手牌，由你的队友（还在打的第一个，都走了就你自己）定出牌顺序，"
                "系统按顺序替你出，管不了的人自动过。一旦有一手被管住，挑牌就结束，"
                "剩下的牌收回手里，照常打。",
                "**挑牌** (claiming the rest): when you lead and think you can play out all "
                "your cards, you may claim: your hand is shown, your teammate (the first one "
                "still playing, or you when none is) fixes the order of the plays, and the "
                "table plays them for you, passing for players that cannot beat them. The "
                "first play that is beaten ends the claim, and the rest goes back to your hand.",
            )
        )
    return out


def _scoring(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    system = r.score_system
    pts = PLACE_POINTS[system]
    places = _PLACES_ZH if zh else _PLACES_EN
    table = "\n".join(
        [
            "| " + t("名次", "place") + " | " + " | ".join(places) + " |",
            "|---" * (len(places) + 1) + "|",
            "| " + t("分", "points") + " | " + " | ".join(_points(p) for p in pts) + " |",
        ]
    )
    out = [
        t(
            "每局按名次得分，每队三个人的分加起来就是这一队的分：",
            "Each place scores points; a team's score is the sum of its three players':",
        ),
        table,
    ]
    if f.rev:
        out.append(
            t(
                "革命的人按他的名次（四科或三科）算分。",
                "A revolutionary scores their place (四科 or 三科).",
            )
        )
    if system == "outline":
        out.append(
            t(
                "**只记正分**：分数为正的一队记分，另一队记 0。串三户时，赢的一队记 12 分"
                "（6 分的两倍），对方记 0。各局的分累加。",
                "**Only a positive score is recorded**: the team with a positive sum records "
                "it, the other records 0. A 串三户 records 12 (twice 6) for the winners and 0 "
                "for the others. Scores add up over the games.",
            )
        )
    elif system == "comp2":
        out.append(
            t(
                "另有奖分，每次加 1 分：每个被闷的人，让对方加 1 分；每个不开点的人，"
                "让对方加 1 分；每次烧成对手的牌，烧牌的一方加 1 分。",
                "Bonuses, +1 each: every 闷 player gives the other team +1; every 不开点 "
                "player gives the other team +1; every successful burn of an opponent gives "
                "the burner's team +1.",
            )
        )
        out.append(
            t(
                "串三户时：赢的一方名次分翻倍，再加上不开点的奖分，闷和烧的奖分都不算；"
                "输的一方记名次分，加上自己得的不开点奖分。连着串三户也不加倍累计。"
                "两队总分比大小，高的赢这一局。",
                "A 串三户: the winners' place points are doubled, plus their 不开点 bonuses; "
                "闷 and burn bonuses are void; the losers keep their place points plus their "
                "own 不开点 bonuses. Repeated 串三户 never escalate. The higher team total wins "
                "the game.",
            )
        )
    elif system == "match7":
        out.append(
            t(
                "没有奖分。一场比赛打三局，三局总分高的一队赢；如果打平，总分清零，"
                "再加打一局，直到分出胜负。",
                "There are no bonuses. A match is three games, and the higher total after "
                "three games wins; on a tie the totals go back to 0 and one more game is "
                "played, again until one team leads.",
            )
        )
    else:  # audit6
        out.append(
            t(
                "另有奖分，每次加 1 分：每次烧成对手的牌，烧牌的一方加 1 分；"
                "每个不开点的人，给他对头的一方加 1 分；每个被闷的人，让对方加 1 分。",
                "Bonuses, +1 each: every successful burn of an opponent gives the burner's "
                "team +1; every 不开点 player gives their 对头's team +1; every 闷 player gives "
                "the other team +1.",
            )
        )
        out.append(
            t(
                "串三户时，赢的一方记 30 分，输的一方记 3 分，烧和闷的奖分不算，"
                "不开点的奖分照加。两队总分比大小，高的赢这一局。",
                "A 串三户 scores 30 for the winners and 3 for the losers; burn and 闷 bonuses "
                "are void, 不开点 bonuses still count. The higher team total wins the game.",
            )
        )
    if system != "match7":
        out.append(
            t(
                "一场打几局，在创建房间时定；不定局数就一直打下去，看累计的总分。",
                "The room's creator sets how many games a match has; without a number the "
                "match goes on and the running totals tell who leads.",
            )
        )
    else:
        out.append(
            t(
                "创建房间时也可以定别的局数，总分打平时同样加赛。",
                "The room's creator may set another number of games; a tie is played off the "
                "same way.",
            )
        )
    return out


def _here(f: _Facts, zh: bool, t: Pick) -> list[str]:
    r = f.r
    n = r.sw_autoplay_after
    out = [
        t(
            "出牌的时限在创建房间时设定。超时了，系统替你做最稳妥的选择：能过就过，"
            "首发时出最小的一手。"
            f"连着超时{_num(n, zh)}次，就进入**托管**，由电脑替你打，你一操作就取消。",
            "The room's creator sets the time to act. When it runs out, the table makes the "
            "safest choice for you: a pass where you may pass, your lowest play where you must "
            f"lead. After {_num(n, zh)} timeouts in a row you are put on **托管** (autoplay): a "
            "bot plays for you until you act again.",
        ),
    ]
    if r.sw_illegal == "reject":
        out.append(
            t(
                "不合规矩的牌出不去，系统会告诉你为什么。",
                "A play the rules do not allow is refused, and the table tells you why.",
            )
        )
    else:
        out.append(
            t(
                "出了不合规矩的牌，这一下就作废，算你过了（错牌不出）。",
                "A play the rules do not allow is void and costs you the turn (错牌不出).",
            )
        )
    return out


#: Which rules of the specification each section of a document explains, by the section's key.
#: The rules page marks each section with them, so that a refusal's citation (``R5.1``) can
#: link to the section that explains it (``/rules/{preset}#R5.1``); the documents themselves
#: name no rule number (players never see the specification).
SECTION_RULES: dict[str, tuple[str, ...]] = {
    "glance": ("R0", "R18"),
    "seats": ("R1",),
    "cards": ("R2",),
    "opening": ("R3",),
    "plays": ("R4",),
    "beating": ("R5",),
    "gouji": ("R6",),
    "round": ("R7",),
    "burning": ("R8",),
    "places": ("R9",),
    "end": ("R9.9", "R9.10", "R9.11", "R9.12"),
    "bie3": ("R12",),
    "dian": ("R11",),
    "laiwu": ("R13",),
    "hui": ("R14",),
    "revolution": ("R15",),
    "tribute": ("R16",),
    "information": ("R10",),
    "scoring": ("R17",),
    "here": ("R19",),
}


def sections(preset: str, lang: str) -> list[tuple[str, str, list[str]]]:
    """The sections of ``preset``'s document in ``lang`` that it has, in order: (key of
    :data:`SECTION_RULES`, heading, Markdown blocks)."""
    if lang not in LANGS:
        raise ValueError(f"no rules documents in {lang!r}; languages: {', '.join(LANGS)}")
    rules = make_rules(preset)
    zh = lang == "zh"

    def t(zh_text: str, en_text: str) -> str:
        return zh_text if zh else en_text

    f = _Facts(rules)
    out: list[tuple[str, str, list[str]]] = [
        ("glance", t("一览", "At a glance"), _glance(f, zh, t) + _flow(f, zh, t)),
        ("seats", t("座位、队伍和对头", "Seats, teams and the 对头"), _seats(f, zh, t)),
        ("cards", t("牌", "The cards"), _cards(f, zh, t)),
        (
            "opening",
            t("开牌：谁先抓，谁先出", "The opening: who takes first, who leads"),
            _opening(f, zh, t),
        ),
        ("plays", t("出牌", "What you may play"), _plays(f, zh, t)),
        ("beating", t("管牌", "Beating a play"), _beating(f, zh, t)),
        ("gouji", t("够级牌", "够级 plays"), _gouji(f, zh, t)),
        (
            "round",
            t("一轮怎么打：过牌、让牌、扣牌、接风", "A round: 过牌, 让牌, 扣牌, 接风"),
            _round(f, zh, t),
        ),
        ("burning", t("烧牌", "Burning (烧牌)"), _burning(f, zh, t)),
        (
            "places",
            t("走科：名次、够死级、无头、四人乱缠", "Going out: places, 够死级, 无头, 四人乱缠"),
            _places(f, zh, t),
        ),
        ("end", t("一局的结束", "The end of a game"), _end(f, zh, t)),
        ("bie3", "憋3", _bie3(f, zh, t)),
        ("dian", t("打点：开点", "打点: opening the point (开点)"), _dian(f, zh, t)),
        ("laiwu", t("莱芜的规矩", "Laiwu's own rules"), _laiwu(f, zh, t)),
        (
            "hui",
            t("会3", "会3") if "4" not in f.hui else t("会3、会4", "会3 and 会4"),
            _hui(f, zh, t),
        ),
        ("revolution", t("革命", "Revolution (革命)"), _revolution(f, zh, t)),
        ("tribute", t("进贡", "Tribute (进贡)"), _tribute(f, zh, t)),
        ("information", t("看得到什么", "What you can see"), _information(f, zh, t)),
        ("scoring", t("计分和胜负", "Scoring and winning"), _scoring(f, zh, t)),
        ("here", t("在这里打牌", "Playing here"), _here(f, zh, t)),
    ]
    return [(key, heading, body) for key, heading, body in out if body]


def document(preset: str, lang: str) -> str:
    """The Markdown rules document of ``preset`` (case-insensitive) in ``lang`` (zh or en)."""
    parts = sections(preset, lang)  # checks the language
    code = make_rules(preset).preset
    blocks = [f"# {NAMES[code][lang]}", "> " + SUMMARIES[code][lang]]
    for _key, heading, body in parts:
        blocks.append(f"## {heading}")
        blocks.extend(body)
    return "\n\n".join(blocks) + "\n"


def write_all(folder: Path) -> list[Path]:
    """Write every preset's documents into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for preset in PRESET_NAMES:
        for lang in LANGS:
            path = folder / filename(preset, lang)
            path.write_text(document(preset, lang), encoding="utf-8")
            written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gouji.rulesdoc [--check] DIR``: write (or check) the documents in DIR."""
    parser = argparse.ArgumentParser(prog="python -m gouji.rulesdoc", description=__doc__)
    parser.add_argument("folder", type=Path, help="where the documents go (docs/rules)")
    parser.add_argument("--check", action="store_true", help="only report stale documents")
    args = parser.parse_args(argv)
    folder: Path = args.folder
    if not args.check:
        for path in write_all(folder):
            print(path)
        return 0
    stale = [
        filename(p, lang)
        for p in PRESET_NAMES
        for lang in LANGS
        if not (folder / filename(p, lang)).is_file()
        or (folder / filename(p, lang)).read_text(encoding="utf-8") != document(p, lang)
    ]
    for name in stale:
        print(f"{folder / name} is out of date", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
