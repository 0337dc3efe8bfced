"""What the rules document's sections share: the facts of a rule set they are written from
(:class:`Facts`, beyond the preset's plain attributes), the word picker's type (:data:`Pick`)
and small helpers that say numbers, ranks and lists in Chinese or English."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gouji.engine.rules import Rules

PLACES_ZH = ("头科", "二科", "三科", "四科", "二落", "大落")
PLACES_EN = ("头科 (1st)", "二科 (2nd)", "三科 (3rd)", "四科 (4th)", "二落 (5th)", "大落 (6th)")
_RANK_ZH = {"T": "10", "SJ": "小王", "LJ": "大王"}
_RANK_EN = {"T": "10", "SJ": "small joker", "LJ": "big joker"}
_NUM_ZH = ("零", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十")
_NUM_EN = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

Pick = Callable[[str, str], str]


def points(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def rank(code: str, zh: bool) -> str:
    return (_RANK_ZH if zh else _RANK_EN).get(code, code)


def num(n: int, zh: bool) -> str:
    names = _NUM_ZH if zh else _NUM_EN
    return names[n] if 0 <= n < len(names) else str(n)


def join(items: Sequence[str], zh: bool) -> str:
    if zh:
        return "、".join(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class Facts:
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


def olist(items: Sequence[str]) -> str:
    return "\n".join(f"{i}. {x}" for i, x in enumerate(items, 1))
