"""Rule sets the spec's vectors name by shorthand (GOUJI_RULES.md §TV preamble)."""

from __future__ import annotations

#: OD: OUTLINE_CLASSIC with the outline's 打点 and tribute (打点 without 憋3).
OD_OVERRIDES: dict[str, object] = {
    "dian.enabled": True,
    "dian.qualifier": "outline",
    "dian.deadline": "outline",
    "dian.mutual": "exchange",
    "trib.enabled": True,
    "trib.order": ["dian", "luo"],
    "trib.return": True,
    "trib.return_rank_rule": True,
    "trib.shao": False,
}
