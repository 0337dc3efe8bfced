"""The presets of the specification's §V.3 (docs/spec/variants.md), as ``make_rules`` starts from.

OUTLINE_FULL, the default (§D), is written out in full; every other preset is what it changes
from OUTLINE_FULL, each change with the §V.1 row (or §V.2 sheet, or AMB decision) it comes
from, so that a preset reads as its differences. A key set to ``NOT_APPLICABLE`` (the table's
``—``) is absent from the preset: its module is off there and ``make_rules`` fills it in
(``rules._not_applicable_value``). ``rules`` re-exports ``PRESETS``.
"""

from __future__ import annotations

import copy
from typing import Final

#: ``play.gouji_min = std`` = ``{T:5, J:4, Q:3, K:2, A:2}`` (2s and jokers always 够级, R6.1).
_STD: Final = "std"

#: A change that removes the key: §V.3's ``—`` (read only by a module the preset switches off).
NOT_APPLICABLE: Final = "—"

#: The default preset (§D): the standard outline [O] with 憋3, 打点, burning and tribute.
OUTLINE_FULL: dict[str, object] = {
    "deck.remove": {},
    "open.joker_draw": "next_opens",
    "open.first_start": "first_taker",
    "open.later_start": "rotate",
    "open.reopen_after_chuan": True,
    "play.twos_attach": True,
    "play.gouji_min": _STD,
    "round.rang": "lock_on_beat",
    "round.auto_kou": True,
    "burn.enabled": True,
    "burn.priority": "team_first",
    "burn.requires_opened": False,
    "burn.broken_penalty": "none",
    "end.remaining_order": "fewest_cards",
    "end.swap_prompt": True,
    "dian.enabled": True,
    "dian.qualifier": "outline",
    "dian.deadline": "outline",
    "dian.mutual": "exchange",
    "dian.declare": "off",
    "bie3.enabled": True,
    "bie3.buy_order": "duitou_then_their_team",
    "bie3.men": "strict",
    "laiwu.four_rule": False,
    "laiwu.buy4": False,
    "laiwu.hui5": False,
    "hui.options": [],
    "rev.mode": "bie3_only",
    "rev.gousiji": 3,
    "trib.enabled": True,
    "trib.order": ["dian", "luo"],
    "trib.return": True,
    "trib.return_rank_rule": True,
    "trib.shao": False,
    "trib.same_team": "skip",
    "trib.chuan": "none_reopen",
    "trib.chuan_agree": False,
    "trib.no_card": "skip",
    "score.system": "outline",
    "info.count_visibility": "hidden",
    "info.tiao": False,
    "info.show_closed_rounds": True,
    "sw.timeout_s": 30,
    "sw.autoplay_after": 2,
    "sw.illegal": "reject",
}

#: The keys of the tribute module (R16) besides ``trib.enabled``: not applicable without it.
_TRIBUTE_OFF: dict[str, object] = {
    "trib.enabled": False,
    "trib.order": NOT_APPLICABLE,
    "trib.return": NOT_APPLICABLE,
    "trib.return_rank_rule": NOT_APPLICABLE,
    "trib.shao": NOT_APPLICABLE,
    "trib.same_team": NOT_APPLICABLE,
    "trib.chuan": NOT_APPLICABLE,
    "trib.chuan_agree": NOT_APPLICABLE,
    "trib.no_card": NOT_APPLICABLE,
}

#: The standard outline without the optional modules: 亮3, 会3/会4, 挑牌, 报牌 and 革命.
OUTLINE_CLASSIC_CHANGES: dict[str, object] = {
    "open.first_start": "liang3",  # §V.1 row 3: 亮3 / 顶班 without the 憋3 module
    "open.later_start": "da_luo",  # §V.1 row 4: 大落 without the 憋3 module
    # §V.1 rows 15–18: 打点 is off (its keys are not applicable; dian.declare stays off)
    "dian.enabled": False,
    "dian.qualifier": NOT_APPLICABLE,
    "dian.deadline": NOT_APPLICABLE,
    "dian.mutual": NOT_APPLICABLE,
    # §V.1 row 12: 憋3 is an optional module, off here
    "bie3.enabled": False,
    "bie3.buy_order": NOT_APPLICABLE,
    "bie3.men": NOT_APPLICABLE,
    "hui.options": ["3", "4"],  # §V.1 row 23: 会3 / 会4 (not with 憋3)
    "rev.mode": "outline",  # §V.1 row 25: 革命 without the 憋3 condition
    # tribute off; the 串三户 keys stay as §V.3 lists them
    "trib.enabled": False,
    "trib.order": NOT_APPLICABLE,
    "trib.return": NOT_APPLICABLE,
    "trib.return_rank_rule": NOT_APPLICABLE,
    "trib.shao": NOT_APPLICABLE,
    "info.count_visibility": "le10",  # §V.1 row 28: 报牌 at ten cards or fewer
    "info.tiao": True,  # §V.1 row 29: 挑牌 (not with 憋3)
}

#: The Laiwu rules [L]: 憋3 and 开壶, a smaller deck, no 革命.
LAIWU_CHANGES: dict[str, object] = {
    "deck.remove": {"3": 10, "4": 10},  # §V.1 row 1 (AMB-40): 196 cards
    "open.later_start": "da_luo",  # §V.1 row 4
    "play.twos_attach": False,  # §V.1 row 6: only jokers attach (挂彩)
    "dian.qualifier": "pure",  # §V.1 row 15: 开壶 on pure 够级 only
    "dian.deadline": "touke",  # §V.1 row 16 (AMB-28): closed once the first player is out
    "dian.mutual": "cancel",  # §V.1 row 17: mutual 点 negotiable (cancelled)
    "bie3.buy_order": "duitou_then_own_team",  # §V.1 row 13: 买3 from 对头, else own team
    "laiwu.four_rule": True,  # §V.1 row 14: 开壶后发4 (R13.5)
    "laiwu.buy4": True,  # §V.1 row 13: 买4 too
    "laiwu.hui5": True,  # §V.1 row 24: 会5 after a 串三户
    "laiwu.four_lead_all": False,  # §V.3: only LAIWU has the 4s rule's key
    # §V.1 row 25: 革命 is forbidden (its 够死级 count is not applicable)
    "rev.mode": "off",
    "rev.gousiji": NOT_APPLICABLE,
    "trib.order": ["dian", "shao", "luo"],  # §V.1 row 17: 点→烧→清→落
    "trib.return": False,  # §V.1 row 20: no 还贡 (so no rank rule)
    "trib.return_rank_rule": NOT_APPLICABLE,
    "trib.shao": True,  # §V.1 row 21: 烧贡
    "trib.chuan": "each_to_duitou",  # §V.1 row 22 (AMB-63)
    "trib.chuan_agree": True,  # §V.1 row 22 (AMB-63): or agree none and re-open
}

#: The audit association's competition rules [AU].
AUDIT_CHANGES: dict[str, object] = {
    "open.reopen_after_chuan": False,  # §V.1 row 5: not stated
    "round.auto_kou": False,  # §V.1 row 11: the 对头 signals 扣 explicitly
    "end.swap_prompt": False,  # §V.3
    "dian.qualifier": "audit",  # §V.1 row 15: no joker, no attached 2, single 2 never
    "dian.deadline": "erke",  # §V.1 row 16: everybody before 二科
    # §V.1 row 25: 革命 is forbidden
    "rev.mode": "off",
    "rev.gousiji": NOT_APPLICABLE,
    **_TRIBUTE_OFF,  # §V.1 rows 17–22: no tribute, scoring only
    "score.system": "audit6",  # §V.1 row 27: 6/5/4/3/2/1 and bonuses (AMB-45)
}

#: The 亮4 variant of seed 004 [V4].
LIANG4_CHANGES: dict[str, object] = {
    "open.joker_draw": "drawer_takes",  # §V.1 row 2: the drawer becomes first taker
    "open.first_start": "liang4",  # §V.1 row 3: 亮4, the first lead is the 4s
    "open.later_start": "da_luo",  # §V.1 row 4
    "end.swap_prompt": False,  # §V.3
    "dian.qualifier": "no_attach",  # §V.1 row 15: attached jokers / 2s never count
    "dian.deadline": "erke",  # §V.1 row 16: everybody before 二科
    # §V.1 row 12: 憋3 is not stated
    "bie3.enabled": False,
    "bie3.buy_order": NOT_APPLICABLE,
    "bie3.men": NOT_APPLICABLE,
    "rev.mode": "outline",  # §V.1 row 25: not mentioned, the outline's 革命
    "trib.order": ["dian"],  # §V.1 rows 17, 19 (AMB-64): the outline's 点贡 only, no 落贡
    "trib.return": False,  # §V.1 row 20: no 还贡 (so no rank rule)
    "trib.return_rank_rule": NOT_APPLICABLE,
    "info.count_visibility": "le10",  # §V.1 row 28: 报牌 at ten cards or fewer
}

#: The tournament sheet of seed 003 [C3] (§V.2): 7/5/4/3/2/0, burning in seat order.
MATCH7_CHANGES: dict[str, object] = {
    "open.first_start": "liang3",  # §V.1 row 3: the outline's 亮3 (no 憋3 module)
    "open.later_start": "da_luo",  # §V.1 row 4
    "burn.priority": "seat_order",  # §V.2: strictly in seat order (烧联邦不优先)
    "end.swap_prompt": False,  # §V.3
    # §V.2: 打点 and 憋 are not scored; both modules are off
    "dian.enabled": False,
    "dian.qualifier": NOT_APPLICABLE,
    "dian.deadline": NOT_APPLICABLE,
    "dian.mutual": NOT_APPLICABLE,
    "bie3.enabled": False,
    "bie3.buy_order": NOT_APPLICABLE,
    "bie3.men": NOT_APPLICABLE,
    "rev.mode": "outline",  # §V.1 row 25: the outline's 革命
    **_TRIBUTE_OFF,  # §V.2: no tribute on the tournament sheet
    "score.system": "match7",  # §V.2: place points 7, 5, 4, 3, 2, 0
    "info.count_visibility": "le10",  # §V.1 row 28: 报牌 at ten cards or fewer
    "info.show_closed_rounds": False,  # §V.3: closed rounds are not shown
}

#: §V.3: the scoring sheet of seed 003 (§V.2) presupposes 憋3, 打点 and burning.
COMP2_CHANGES: dict[str, object] = {"score.system": "comp2"}


def changed(changes: dict[str, object]) -> dict[str, object]:
    """OUTLINE_FULL with ``changes``: a key set to ``NOT_APPLICABLE`` is removed, a new key is
    added; values are copied, so no two presets share a list or a dict."""
    out = {k: v for k, v in OUTLINE_FULL.items() if changes.get(k) != NOT_APPLICABLE}
    out.update((k, v) for k, v in changes.items() if v != NOT_APPLICABLE)
    return copy.deepcopy(out)


#: The presets of §V.3 by name, key → value as an override would give it; keys that §V.3
#: marks ``—`` are absent.
PRESETS: dict[str, dict[str, object]] = {
    "OUTLINE_FULL": copy.deepcopy(OUTLINE_FULL),
    "OUTLINE_CLASSIC": changed(OUTLINE_CLASSIC_CHANGES),
    "LAIWU": changed(LAIWU_CHANGES),
    "AUDIT": changed(AUDIT_CHANGES),
    "LIANG4": changed(LIANG4_CHANGES),
    "MATCH7": changed(MATCH7_CHANGES),
    "COMP2": changed(COMP2_CHANGES),
}
