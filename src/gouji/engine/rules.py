"""Rule sets: every configuration key (docs/spec/variants.md §V.4), the presets (§V.3),
validation (R0.8).

The presets themselves are written in :mod:`gouji.engine.presets`; ``PRESETS`` is re-exported here.

A :class:`Rules` value is an immutable, fully resolved rule set: one attribute per dotted
configuration key (``bie3.enabled`` → ``bie3_enabled``), so the engine reads plain attributes and
never has to know which preset it came from. It is built only by :func:`make_rules`, which starts
from a preset, applies overrides and rejects (with :class:`ConfigError`) every unknown key or value
and every combination of the table *Rejected configurations* of R0.8, naming the keys and the item.

Keys that a preset marks ``—`` (read only by a module that is switched off) still get a value here,
so that every attribute is always defined; they take no part in the combination checks (R0.8, last
sentence) as long as their module stays off.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gouji.engine.cards import RANKS
from gouji.engine.pickling import by_fields
from gouji.engine.presets import PRESETS

__all__ = [
    "DEFAULT_PRESET",
    "KEYS",
    "PRESETS",
    "PRESET_NAMES",
    "ConfigError",
    "Rules",
    "make_rules",
    "parse_override",
]


class ConfigError(ValueError):
    """A rule set that R0.8 rejects: an unknown key, preset or value, or a rejected combination.

    ``keys`` are the configuration keys involved and ``item`` the R0.8 item (e.g. ``"R0.8 (a)"``),
    so that callers (CLI, server) can point at the offending setting without parsing the text.
    """

    def __init__(self, message: str, keys: Sequence[str] = (), item: str = "R0.8") -> None:
        super().__init__(message)
        self.keys: tuple[str, ...] = tuple(keys)
        self.item = item


# --------------------------------------------------------------------------------------------
# Key reference (§V.4)
# --------------------------------------------------------------------------------------------

_BOOL = "bool"
_ENUM = "enum"
_INT_GE0 = "int>=0"
_INT_GE1 = "int>=1"
_POS_FLOAT = "float>0"
_DECK = "deck"
_GOUJI_MIN = "gouji_min"
_HUI = "hui"
_TRIB_ORDER = "trib_order"

#: The enumerated values of each key of kind ``enum`` (§V.4), in the spec's order.
_CHOICES: dict[str, tuple[str, ...]] = {
    "open.joker_draw": ("next_opens", "drawer_takes"),
    "open.first_start": ("liang3", "first_taker", "liang4"),
    "open.later_start": ("da_luo", "rotate"),
    "round.rang": ("lock_on_beat", "stay_active"),
    "burn.priority": ("team_first", "seat_order"),
    "burn.broken_penalty": ("none", "lowest_place"),
    "end.remaining_order": ("fewest_cards", "team_choice"),
    "info.count_visibility": ("le10", "always", "hidden"),
    "dian.qualifier": ("outline", "audit", "pure", "no_attach"),
    "dian.deadline": ("outline", "erke", "touke"),
    "dian.mutual": ("exchange", "cancel"),
    "dian.declare": ("off", "ming_yu", "ming_yu_double"),
    "bie3.buy_order": ("duitou_then_their_team", "duitou_then_own_team"),
    "bie3.men": ("strict", "lenient"),
    "rev.mode": ("outline", "bie3_only", "off"),
    "trib.same_team": ("skip", "pay"),
    "trib.chuan": ("none_reopen", "each_to_duitou"),
    "trib.no_card": ("skip", "highest_any"),
    "score.system": ("outline", "comp2", "match7", "audit6"),
    "sw.illegal": ("reject", "forfeit_turn"),
}

#: Every configuration key (§V.4) → its kind, in the order of the attributes of :class:`Rules`.
_KINDS: dict[str, str] = {
    "deck.remove": _DECK,
    "open.joker_draw": _ENUM,
    "open.first_start": _ENUM,
    "open.later_start": _ENUM,
    "open.reopen_after_chuan": _BOOL,
    "play.twos_attach": _BOOL,
    "play.gouji_min": _GOUJI_MIN,
    "round.rang": _ENUM,
    "round.auto_kou": _BOOL,
    "burn.enabled": _BOOL,
    "burn.priority": _ENUM,
    "burn.requires_opened": _BOOL,
    "burn.broken_penalty": _ENUM,
    "end.remaining_order": _ENUM,
    "end.swap_prompt": _BOOL,
    "info.count_visibility": _ENUM,
    "info.tiao": _BOOL,
    "info.show_closed_rounds": _BOOL,
    "dian.enabled": _BOOL,
    "dian.qualifier": _ENUM,
    "dian.deadline": _ENUM,
    "dian.mutual": _ENUM,
    "dian.declare": _ENUM,
    "bie3.enabled": _BOOL,
    "bie3.buy_order": _ENUM,
    "bie3.men": _ENUM,
    "laiwu.four_rule": _BOOL,
    "laiwu.buy4": _BOOL,
    "laiwu.hui5": _BOOL,
    "laiwu.four_lead_all": _BOOL,
    "hui.options": _HUI,
    "rev.mode": _ENUM,
    "rev.gousiji": _INT_GE0,
    "trib.enabled": _BOOL,
    "trib.order": _TRIB_ORDER,
    "trib.return": _BOOL,
    "trib.return_rank_rule": _BOOL,
    "trib.shao": _BOOL,
    "trib.same_team": _ENUM,
    "trib.chuan": _ENUM,
    "trib.chuan_agree": _BOOL,
    "trib.no_card": _ENUM,
    "score.system": _ENUM,
    "sw.illegal": _ENUM,
    "sw.timeout_s": _POS_FLOAT,
    "sw.autoplay_after": _INT_GE1,
}

#: Every configuration key, dotted, in attribute order.
KEYS: tuple[str, ...] = tuple(_KINDS)

#: ``play.gouji_min = std`` (§V.3): the smallest 够级 size per rank; 2s and jokers always are.
STD_GOUJI_MIN: dict[str, int] = {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2}
_GOUJI_MIN_RANKS = tuple(STD_GOUJI_MIN)

#: Cards of each rank in the four packs (R2.1): 16 of 3 … 2, four of each joker.
_DECK_COUNT: dict[str, int] = {r: (4 if r in ("SJ", "LJ") else 16) for r in RANKS}

#: The values R14.1 allows for ``hui.options`` (R0.8 (e)).
_HUI_ALLOWED: tuple[tuple[str, ...], ...] = ((), ("3",), ("3", "4"))
_TRIB_KINDS = ("dian", "shao", "luo")


def _fmt(value: object) -> str:
    """A value as the spec writes it: ``true``, ``[dian, luo]``, ``{3: 10}``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return value
    return repr(value)


def _allowed_text(key: str) -> str:
    """The §V.4 description of the values a key allows, for error messages."""
    kind = _KINDS[key]
    if kind == _ENUM:
        return ", ".join(_CHOICES[key])
    return {
        _BOOL: "true, false",
        _INT_GE0: "an integer >= 0",
        _INT_GE1: "an integer >= 1",
        _POS_FLOAT: "a number of seconds > 0",
        _DECK: "a map rank -> number removed (ranks "
        + ", ".join(RANKS)
        + "; 0..16 per rank, 0..4 per joker), {} = full deck",
        _GOUJI_MIN: "std or a map with exactly the ranks T, J, Q, K, A -> minimum size 1..16",
        _HUI: "[], ['3'], ['3', '4']",
        _TRIB_ORDER: "an ordered list of distinct values from dian, shao, luo",
    }[kind]


def _bad_value(key: str, value: object, why: str = "", item: str = "R0.8") -> ConfigError:
    detail = f" ({why})" if why else ""
    return ConfigError(
        f"{item}: {key} = {value!r} is not allowed{detail}; allowed values (§V.4): "
        f"{_allowed_text(key)}",
        keys=(key,),
        item=item,
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rank_code(key: str, raw: object, allowed: Sequence[str]) -> str:
    """Normalize a rank given as int (3, 10) or text ('3', '10', 't', 'sj') to its code (R0.3)."""
    if _is_int(raw):
        text = str(raw)
    elif isinstance(raw, str):
        text = raw.strip().upper()
    else:
        raise _bad_value(key, raw, f"rank {raw!r} is neither a rank code nor a number")
    if text == "10":
        text = "T"
    if text not in allowed:
        raise _bad_value(key, raw, f"unknown rank {raw!r}")
    return text


def _rank_map(key: str, value: object, allowed: Sequence[str]) -> dict[str, int]:
    """A map rank → int with rank keys normalized; duplicates after normalization are rejected."""
    if not isinstance(value, Mapping):
        raise _bad_value(key, value, "not a map")
    out: dict[str, int] = {}
    for raw_rank, count in value.items():
        code = _rank_code(key, raw_rank, allowed)
        if code in out:
            raise _bad_value(key, value, f"rank {code} given twice")
        if not _is_int(count):
            raise _bad_value(key, value, f"count for rank {code} is not an integer")
        out[code] = count
    return out


def _normalize(key: str, value: object) -> object:
    """Type-check one override and return it in its canonical form (§V.4).

    Canonical forms: bools and enum strings as they are, ``sw.timeout_s`` as float, rank maps
    with code-string keys in rank order (zero counts dropped from ``deck.remove``), lists as tuples.
    """
    kind = _KINDS[key]
    if kind == _BOOL:
        if not isinstance(value, bool):
            raise _bad_value(key, value, "must be a bool, not " + type(value).__name__)
        return value
    if kind == _ENUM:
        if not isinstance(value, str) or value not in _CHOICES[key]:
            raise _bad_value(key, value)
        return value
    if kind in (_INT_GE0, _INT_GE1):
        low = 0 if kind == _INT_GE0 else 1
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise _bad_value(key, value)
        return value
    if kind == _POS_FLOAT:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise _bad_value(key, value)
        seconds = float(value)
        if not math.isfinite(seconds) or seconds <= 0:
            raise _bad_value(key, value)
        return seconds
    if kind == _DECK:
        counts = _rank_map(key, value, RANKS)
        for code, n in counts.items():
            if not 0 <= n <= _DECK_COUNT[code]:
                raise _bad_value(
                    key, value, f"{n} cards of rank {code} (the packs hold {_DECK_COUNT[code]})"
                )
        return {r: counts[r] for r in RANKS if counts.get(r, 0) > 0}
    if kind == _GOUJI_MIN:
        if value == "std":
            return dict(STD_GOUJI_MIN)
        mins = _rank_map(key, value, _GOUJI_MIN_RANKS)
        if set(mins) != set(_GOUJI_MIN_RANKS):
            missing = [r for r in _GOUJI_MIN_RANKS if r not in mins]
            raise _bad_value(key, value, "missing ranks " + ", ".join(missing))
        for code, n in mins.items():
            if not 1 <= n <= 16:
                raise _bad_value(key, value, f"minimum {n} for rank {code} is outside 1..16")
        return {r: mins[r] for r in _GOUJI_MIN_RANKS}
    if kind == _HUI:
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise _bad_value(key, value, "not a list", item="R0.8 (e)")
        ranks: list[str] = []
        for v in value:
            if not (_is_int(v) or isinstance(v, str)) or str(v).strip() not in ("3", "4"):
                raise _bad_value(key, value, "R14.1", item="R0.8 (e)")
            ranks.append(str(v).strip())
        options = tuple(sorted(ranks))
        if options not in _HUI_ALLOWED:
            raise _bad_value(key, value, "R14.1", item="R0.8 (e)")
        return options
    # _TRIB_ORDER
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise _bad_value(key, value, "not a list")
    kinds: list[str] = []
    for v in value:
        if v == "qing":
            raise ConfigError(
                "R0.8 (i): trib.order must not contain qing (清贡 is unsupported, AMB-44); "
                "allowed values (§V.4): " + _allowed_text(key),
                keys=(key,),
                item="R0.8 (i)",
            )
        if not isinstance(v, str) or v not in _TRIB_KINDS:
            raise _bad_value(key, value, f"unknown tribute kind {v!r}")
        if v in kinds:
            raise _bad_value(key, value, f"{v} given twice")
        kinds.append(v)
    return tuple(kinds)


# --------------------------------------------------------------------------------------------
# Presets (§V.3): written in gouji.engine.presets (OUTLINE_FULL, the others as its changes)
# --------------------------------------------------------------------------------------------


PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
DEFAULT_PRESET = "OUTLINE_FULL"


def _not_applicable_value(key: str, given: Mapping[str, object]) -> object:
    """Value for a key a preset marks ``—``: the OUTLINE_FULL value, so every attribute exists.

    Exceptions, chosen so that the filled value can never trip a check if its module is switched
    on later: ``laiwu.four_lead_all`` (OUTLINE_FULL has ``—``) is false, and
    ``trib.return_rank_rule`` is false where the preset sets ``trib.return = false`` (LAIWU,
    LIANG4: ``false / —``), since R0.8 (m) rejects the rank rule without 还贡.
    """
    if key == "laiwu.four_lead_all":
        return False
    if key == "trib.return_rank_rule" and given.get("trib.return") is False:
        return False
    return PRESETS["OUTLINE_FULL"][key]


def _resolved_preset(name: str) -> dict[str, object]:
    given = PRESETS[name]
    return {
        key: _normalize(key, given[key] if key in given else _not_applicable_value(key, given))
        for key in KEYS
    }


# --------------------------------------------------------------------------------------------
# The rule set
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """A resolved, validated rule set: one attribute per key of §V.4 ('.' → '_').

    Build it with :func:`make_rules`; the constructor does not validate. Equality compares the
    rule values only (not ``preset`` or ``overrides``), so COMP2 equals OUTLINE_FULL with
    ``score.system = comp2``. Rules are hashable so that engines may cache per rule set.
    """

    deck_remove: dict[str, int]
    open_joker_draw: str
    open_first_start: str
    open_later_start: str
    open_reopen_after_chuan: bool
    play_twos_attach: bool
    play_gouji_min: dict[str, int]
    round_rang: str
    round_auto_kou: bool
    burn_enabled: bool
    burn_priority: str
    burn_requires_opened: bool
    burn_broken_penalty: str
    end_remaining_order: str
    end_swap_prompt: bool
    info_count_visibility: str
    info_tiao: bool
    info_show_closed_rounds: bool
    dian_enabled: bool
    dian_qualifier: str
    dian_deadline: str
    dian_mutual: str
    dian_declare: str
    bie3_enabled: bool
    bie3_buy_order: str
    bie3_men: str
    laiwu_four_rule: bool
    laiwu_buy4: bool
    laiwu_hui5: bool
    laiwu_four_lead_all: bool
    hui_options: tuple[str, ...]
    rev_mode: str
    rev_gousiji: int
    trib_enabled: bool
    trib_order: tuple[str, ...]
    trib_return: bool
    trib_return_rank_rule: bool
    trib_shao: bool
    trib_same_team: str
    trib_chuan: str
    trib_chuan_agree: bool
    trib_no_card: str
    score_system: str
    sw_illegal: str
    sw_timeout_s: float
    sw_autoplay_after: int
    preset: str = field(default=DEFAULT_PRESET, compare=False)
    overrides: dict[str, object] = field(default_factory=dict, compare=False)

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    def get(self, key: str) -> object:
        """The value of a dotted configuration key (``rules.get("bie3.enabled")``)."""
        if key not in _KINDS:
            raise _unknown_key(key)
        value: object = getattr(self, _attr(key))
        return value

    def to_dict(self) -> dict[str, object]:
        """Every key → value, JSON-serializable (tuples as lists, maps copied).

        ``make_rules(rules.preset, rules.to_dict())`` rebuilds an equal rule set.
        """
        out: dict[str, object] = {}
        for key in KEYS:
            value: object = getattr(self, _attr(key))
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            out[key] = value
        return out

    def spec(self) -> dict[str, object]:
        """``{"preset", "overrides"}``, JSON-ready: how records and views name a rule set."""
        overrides = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.overrides.items()}
        return {"preset": self.preset, "overrides": overrides}

    def with_overrides(self, overrides: Mapping[str, object]) -> Rules:
        """A new rule set: this one's preset and overrides, then ``overrides``; revalidated."""
        return make_rules(self.preset, {**self.overrides, **overrides})

    def __reduce__(self) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
        return by_fields(self)  # a compiled frozen class (gouji.engine.pickling)


def _attr(key: str) -> str:
    return key.replace(".", "_")


def _unknown_key(key: object) -> ConfigError:
    name = key if isinstance(key, str) else repr(key)
    return ConfigError(
        f"R0.8: unknown configuration key {key!r}; known keys (§V.4): " + ", ".join(KEYS),
        keys=(name,),
    )


# --------------------------------------------------------------------------------------------
# Validation (R0.8)
# --------------------------------------------------------------------------------------------


def _reject(item: str, keys: Sequence[str], text: str, reason: str) -> ConfigError:
    return ConfigError(f"R0.8 ({item}): {text} ({reason})", keys=keys, item=f"R0.8 ({item})")


def _check_combinations(v: Mapping[str, Any]) -> None:
    """Reject the combinations of R0.8 (a)–(m) (item (e) is a value check in :func:`_normalize`).

    A key read only by a switched-off module is ignored (R0.8): the checks read such keys only
    behind their module switch (``dian.*`` behind ``dian.enabled``, ``trib.*`` behind
    ``trib.enabled``, ``burn.*`` behind ``burn.enabled``).
    """
    bie3: bool = v["bie3.enabled"]
    first: str = v["open.first_start"]
    hui: tuple[str, ...] = v["hui.options"]
    dian: bool = v["dian.enabled"]
    trib: bool = v["trib.enabled"]
    burn: bool = v["burn.enabled"]
    order: tuple[str, ...] = v["trib.order"] if trib else ()
    requires_opened = burn and bool(v["burn.requires_opened"])
    four_rule: bool = v["laiwu.four_rule"]
    removed: dict[str, int] = v["deck.remove"]

    # (a) R3.9, R12.2
    if bie3 and first == "liang3":
        raise _reject(
            "a",
            ("bie3.enabled", "open.first_start"),
            "bie3.enabled cannot be combined with open.first_start = liang3",
            "亮3 is not used with 憋3, R3.9, R12.2",
        )
    # (b) R14.2, R10.2
    if bie3 and hui:
        raise _reject(
            "b",
            ("bie3.enabled", "hui.options"),
            f"bie3.enabled cannot be combined with hui.options = {_fmt(hui)}",
            "会3/会4 are not available with 憋3, R14.2",
        )
    if bie3 and v["info.tiao"]:
        raise _reject(
            "b",
            ("bie3.enabled", "info.tiao"),
            "bie3.enabled cannot be combined with info.tiao = true",
            "挑牌 is not used with 憋3, R10.2",
        )
    # (c) R12.4, R15.1
    if bie3 and v["rev.mode"] == "outline":
        raise _reject(
            "c",
            ("bie3.enabled", "rev.mode"),
            "bie3.enabled cannot be combined with rev.mode = outline",
            "under 憋3 only the bie3_only revolution exists, R12.4",
        )
    if not bie3 and v["rev.mode"] == "bie3_only":
        raise _reject(
            "c",
            ("rev.mode", "bie3.enabled"),
            "rev.mode = bie3_only requires bie3.enabled = true",
            "R12.4, R15.1",
        )
    # (d) R3.8
    if first == "liang4" and "4" in hui:
        raise _reject(
            "d",
            ("open.first_start", "hui.options"),
            f"open.first_start = liang4 cannot be combined with hui.options = {_fmt(hui)}",
            "会4 would remove the 4s the starter must lead, R3.8",
        )
    # (f) R12.3, R13.3, R3.8
    threes = _DECK_COUNT["3"] - removed.get("3", 0)
    fours = _DECK_COUNT["4"] - removed.get("4", 0)
    if bie3 and threes < 6:
        raise _reject(
            "f",
            ("deck.remove", "bie3.enabled"),
            f"deck.remove leaves {threes} threes with bie3.enabled",
            "买3 must be able to serve all six players, R12.3",
        )
    if v["laiwu.buy4"] and fours < 6:
        raise _reject(
            "f",
            ("deck.remove", "laiwu.buy4"),
            f"deck.remove leaves {fours} fours with laiwu.buy4",
            "买4 must be able to serve all six players, R13.3",
        )
    if first == "liang4" and fours == 0:
        raise _reject(
            "f",
            ("deck.remove", "open.first_start"),
            "deck.remove leaves no 4 with open.first_start = liang4",
            "亮4 needs a 4, R3.8",
        )
    # (g) R11.7, AMB-64
    dian_paid = "dian" in order
    if (
        dian
        and not dian_paid
        and v["score.system"] not in ("comp2", "audit6")
        and not requires_opened
        and not four_rule
    ):
        raise _reject(
            "g",
            (
                "dian.enabled",
                "trib.enabled",
                "trib.order",
                "score.system",
                "burn.requires_opened",
                "laiwu.four_rule",
            ),
            "dian.enabled has no effect: 点贡 is not paid (trib.enabled with dian in trib.order), "
            f"score.system = {v['score.system']} does not score 不开点 (only comp2 and audit6 do), "
            "and neither burn.requires_opened nor laiwu.four_rule is set",
            "a module without any consequence",
        )
    # (h) R11.8
    if v["dian.declare"] != "off" and not (dian and dian_paid):
        raise _reject(
            "h",
            ("dian.declare", "dian.enabled", "trib.enabled", "trib.order"),
            f"dian.declare = {v['dian.declare']} requires dian.enabled, trib.enabled and "
            "dian in trib.order",
            "明点/预点 settle in tribute cards, R11.8",
        )
    # (i) R11.7, R16.3 (qing: see _normalize)
    if trib:
        if dian_paid and not dian:
            raise _reject(
                "i",
                ("trib.order", "dian.enabled"),
                "dian in trib.order requires dian.enabled",
                "点贡 needs 打点, R11.7",
            )
        shao_listed = "shao" in order
        if shao_listed != bool(v["trib.shao"]):
            raise _reject(
                "i",
                ("trib.order", "trib.shao"),
                f"shao {'in' if shao_listed else 'not in'} trib.order does not match "
                f"trib.shao = {_fmt(v['trib.shao'])}",
                "R16.3",
            )
        if (shao_listed or v["trib.shao"]) and not burn:
            raise _reject(
                "i",
                ("trib.order", "trib.shao", "burn.enabled"),
                "烧贡 (shao in trib.order / trib.shao) requires burn.enabled",
                "R16.3",
            )
    # (j) R8.2
    if requires_opened and not dian:
        raise _reject(
            "j",
            ("burn.requires_opened", "dian.enabled"),
            "burn.requires_opened requires dian.enabled",
            "R8.2",
        )
    # (k) R13.5 (c), R13.4
    if four_rule and not (dian and v["dian.deadline"] == "touke"):
        raise _reject(
            "k",
            ("laiwu.four_rule", "dian.enabled", "dian.deadline"),
            "laiwu.four_rule requires dian.enabled and dian.deadline = touke",
            "R13.5 (c) presumes 开壶 closes when the first player goes out, R13.4",
        )
    # (l) R16.8
    if trib and v["trib.chuan"] == "none_reopen" and not v["open.reopen_after_chuan"]:
        raise _reject(
            "l",
            ("trib.chuan", "open.reopen_after_chuan"),
            "trib.chuan = none_reopen cannot be combined with open.reopen_after_chuan = false",
            "none_reopen means no 串 tribute and re-open, R16.8",
        )
    # (m) R16.7, R16.11
    if trib and v["trib.return_rank_rule"] and not v["trib.return"]:
        raise _reject(
            "m",
            ("trib.return_rank_rule", "trib.return"),
            "trib.return_rank_rule requires trib.return = true",
            "R16.7",
        )
    if v["trib.chuan_agree"] and not trib:
        raise _reject(
            "m",
            ("trib.chuan_agree", "trib.enabled"),
            "trib.chuan_agree requires trib.enabled",
            "there is no tribute to skip, R16.11",
        )


def _preset_name(preset: object) -> str:
    name = preset.strip().upper() if isinstance(preset, str) else ""
    if name not in PRESETS:
        raise ConfigError(
            f"R0.8: unknown preset {preset!r}; valid presets (§V.3): " + ", ".join(PRESET_NAMES),
            keys=("preset",),
        )
    return name


def make_rules(preset: object = DEFAULT_PRESET, overrides: object = None) -> Rules:
    """Build a validated rule set from a preset (case-insensitive) and dotted-key overrides.

    Raises :class:`ConfigError` for an unknown preset, key or value (§V.4) and for every
    combination R0.8 rejects; the message names the keys and the R0.8 item.
    """
    name = _preset_name(preset)
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ConfigError(
            f"overrides map dotted keys to values (§V.4), not {type(overrides).__name__}",
            keys=("overrides",),
        )
    given: dict[str, object] = {}
    for key, value in (overrides or {}).items():
        if not isinstance(key, str) or key not in _KINDS:
            raise _unknown_key(key)
        given[key] = _normalize(key, value)
    values: dict[str, Any] = {**_resolved_preset(name), **given}
    _check_combinations(values)
    return Rules(**{_attr(k): v for k, v in values.items()}, preset=name, overrides=given)


# --------------------------------------------------------------------------------------------
# Command-line overrides
# --------------------------------------------------------------------------------------------

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _split_list(text: str) -> list[str]:
    """``3,4`` / ``[3, 4]`` / ``['3','4']`` / ``[]`` → items, quotes and blanks stripped."""
    inner = text.strip()
    if inner and inner[0] in "[(" and inner[-1] in "])":
        inner = inner[1:-1]
    items = [part.strip().strip("'\"").strip() for part in inner.split(",")]
    return [item for item in items if item]


def _parse_map(key: str, text: str) -> dict[str, int]:
    """``3:10,4:10`` / ``{3: 10}`` / ``{}`` → {'3': 10, …} (ranks normalized later)."""
    inner = text.strip()
    if inner.startswith("{") and inner.endswith("}"):
        inner = inner[1:-1]
    out: dict[str, int] = {}
    for part in inner.split(","):
        if not part.strip():
            continue
        rank, sep, count = part.partition(":")
        rank = rank.strip().strip("'\"")
        try:
            if not sep:
                raise ValueError(part)
            out[rank] = int(count.strip())
        except ValueError:
            raise _bad_value(key, text, f"cannot read {part.strip()!r} as rank:count") from None
    return out


def _parse_number(key: str, text: str, convert: Callable[[str], object]) -> object:
    try:
        return convert(text)
    except ValueError:
        raise _bad_value(key, text) from None


def parse_override(text: str) -> tuple[str, object]:
    """Turn CLI text ``key=value`` into a typed, validated ``(key, value)`` pair.

    Examples: ``bie3.enabled=false``, ``hui.options=3,4`` (or ``[]``), ``deck.remove=3:10,4:10``,
    ``trib.order=dian,luo``, ``rev.gousiji=3``, ``play.gouji_min=std``. The value comes back in the
    canonical form of :func:`make_rules` (lists as tuples, rank maps with code keys).
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep:
        raise ConfigError(f"R0.8: override {text!r} is not of the form key=value", keys=(key,))
    if key not in _KINDS:
        raise _unknown_key(key)
    raw = raw.strip()
    kind = _KINDS[key]
    value: object
    if kind == _BOOL:
        low = raw.lower()
        if low in _TRUE:
            value = True
        elif low in _FALSE:
            value = False
        else:
            raise _bad_value(key, raw)
    elif kind == _ENUM:
        value = raw.lower()
    elif kind in (_INT_GE0, _INT_GE1):
        value = _parse_number(key, raw, int)
    elif kind == _POS_FLOAT:
        value = _parse_number(key, raw, float)
    elif kind == _DECK:
        value = _parse_map(key, raw)
    elif kind == _GOUJI_MIN:
        value = "std" if raw.lower() == "std" else _parse_map(key, raw)
    else:  # _HUI, _TRIB_ORDER
        value = _split_list(raw)
    return key, _normalize(key, value)
