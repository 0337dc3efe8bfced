"""Configuration: presets (§V.3), key reference (§V.4) and validation (R0.8, vectors TV-Q)."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from gouji.engine.rules import (
    DEFAULT_PRESET,
    KEYS,
    PRESET_NAMES,
    PRESETS,
    ConfigError,
    Rules,
    make_rules,
    parse_override,
)
from support import OD_OVERRIDES

OD = OD_OVERRIDES


def _rejected(item: str, preset: str, overrides: Mapping[str, object]) -> ConfigError:
    """Assert that the configuration is rejected citing R0.8 (item); return the error."""
    with pytest.raises(ConfigError) as info:
        make_rules(preset, overrides)
    assert f"R0.8 ({item})" in str(info.value)
    assert info.value.item == f"R0.8 ({item})"
    return info.value


# --- TV-Q vectors ---------------------------------------------------------------------------


def test_TV_Q01_bie3_with_liang3_rejected() -> None:
    err = _rejected("a", "OUTLINE_FULL", {"open.first_start": "liang3"})
    assert "bie3.enabled" in str(err) and "open.first_start" in str(err)


def test_TV_Q02_liang4_with_hui4_rejected() -> None:
    err = _rejected("d", "LIANG4", {"hui.options": ["3", "4"]})
    assert "hui.options" in str(err) and "open.first_start" in str(err)


def test_TV_Q03_bie3_with_hui3_or_tiao_rejected() -> None:
    err = _rejected("b", "OUTLINE_FULL", {"hui.options": ["3"]})
    assert "hui.options" in str(err)
    err = _rejected("b", "OUTLINE_FULL", {"info.tiao": True})
    assert "info.tiao" in str(err)


def test_TV_Q04_liang4_without_tribute_rejected_dian_without_effect() -> None:
    err = _rejected("g", "LIANG4", {"trib.enabled": False})
    assert "dian.enabled" in err.keys


def test_TV_Q05_audit_with_declare_rejected() -> None:
    err = _rejected("h", "AUDIT", {"dian.declare": "ming_yu"})
    assert "dian.declare" in str(err)


def test_TV_Q06_no_reopen_with_none_reopen_rejected() -> None:
    err = _rejected("l", "OUTLINE_FULL", {"open.reopen_after_chuan": False})
    assert "trib.chuan" in str(err) and "open.reopen_after_chuan" in str(err)
    rules = make_rules(
        "OUTLINE_FULL", {"open.reopen_after_chuan": False, "trib.chuan": "each_to_duitou"}
    )
    assert rules.open_reopen_after_chuan is False
    assert rules.trib_chuan == "each_to_duitou"


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [(name, {}) for name in PRESET_NAMES]
    + [
        ("OUTLINE_FULL", {"score.system": "comp2"}),  # C2
        ("OUTLINE_CLASSIC", OD),  # OD
    ],
    ids=[*PRESET_NAMES, "C2", "OD"],
)
def test_TV_Q07_every_preset_and_C2_OD_accepted(
    preset: str, overrides: Mapping[str, object]
) -> None:
    rules = make_rules(preset, overrides)
    assert rules.preset == preset
    for key, value in overrides.items():
        got = rules.get(key)
        assert list(got) == value if isinstance(got, tuple) else got == value


def test_TV_Q07_preset_list_is_complete() -> None:
    assert set(PRESET_NAMES) == {
        "OUTLINE_FULL",
        "OUTLINE_CLASSIC",
        "LAIWU",
        "AUDIT",
        "LIANG4",
        "MATCH7",
        "COMP2",
    }
    assert make_rules("COMP2") == make_rules("OUTLINE_FULL", {"score.system": "comp2"})


def test_TV_Q08_no_bie3_with_bie3_only_revolution_rejected() -> None:
    err = _rejected("c", "OUTLINE_FULL", {"bie3.enabled": False})
    assert "rev.mode" in str(err) and "bie3.enabled" in str(err)
    rules = make_rules("OUTLINE_FULL", {"bie3.enabled": False, "rev.mode": "outline"})
    assert not rules.bie3_enabled and rules.rev_mode == "outline"


def test_TV_Q09_classic_with_dian_only_rejected_OD_accepted() -> None:
    _rejected("g", "OUTLINE_CLASSIC", {"dian.enabled": True})
    assert make_rules("OUTLINE_CLASSIC", OD).dian_enabled


def test_TV_Q10_laiwu_with_five_threes_rejected() -> None:
    err = _rejected("f", "LAIWU", {"deck.remove": {3: 11, 4: 10}})
    assert "deck.remove" in str(err) and "bie3.enabled" in str(err)


# --- the other R0.8 items -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "preset", "overrides"),
    [
        ("c", "LAIWU", {"rev.mode": "outline"}),
        ("e", "OUTLINE_CLASSIC", {"hui.options": ["4"]}),
        ("e", "OUTLINE_CLASSIC", {"hui.options": ["3", "5"]}),
        ("f", "LAIWU", {"deck.remove": {3: 10, 4: 11}}),
        ("f", "LIANG4", {"deck.remove": {4: 16}}),
        ("i", "OUTLINE_FULL", {"trib.order": ["dian", "qing", "luo"]}),
        ("i", "OUTLINE_FULL", {"trib.order": ["dian", "shao", "luo"]}),
        ("i", "LAIWU", {"trib.shao": False}),
        ("i", "LAIWU", {"burn.enabled": False}),
        ("i", "OUTLINE_CLASSIC", {"trib.enabled": True, "trib.order": ["luo", "dian"]}),
        ("j", "OUTLINE_CLASSIC", {"burn.requires_opened": True}),
        ("k", "LAIWU", {"dian.deadline": "erke"}),
        ("k", "OUTLINE_FULL", {"laiwu.four_rule": True}),
        ("m", "OUTLINE_FULL", {"trib.return": False}),
        ("m", "AUDIT", {"trib.chuan_agree": True}),
    ],
)
def test_other_rejected_combinations(
    item: str, preset: str, overrides: Mapping[str, object]
) -> None:
    _rejected(item, preset, overrides)


def test_optional_addons_of_V3_accepted() -> None:
    for overrides in (
        {"dian.declare": "ming_yu"},
        {"dian.declare": "ming_yu_double"},
        {"trib.chuan": "each_to_duitou"},
        {"end.remaining_order": "team_choice"},
        {"burn.requires_opened": True},
    ):
        make_rules("OUTLINE_FULL", overrides)
    # burn.requires_opened gives 打点 an effect on its own (R0.8 g)
    make_rules("OUTLINE_CLASSIC", {"dian.enabled": True, "burn.requires_opened": True})


def test_keys_of_switched_off_modules_are_ignored() -> None:
    # OUTLINE_CLASSIC: 打点 and tribute off, so their subkeys take no part in the checks.
    rules = make_rules(
        "OUTLINE_CLASSIC",
        {
            "dian.deadline": "erke",
            "trib.order": ["dian", "shao"],
            "trib.return": False,
            "trib.chuan": "none_reopen",
        },
    )
    assert rules.trib_order == ("dian", "shao")
    # AUDIT: trib off, so trib.chuan = none_reopen with no re-open is not checked (R0.8 l).
    assert make_rules("AUDIT", {"trib.chuan": "none_reopen"}).open_reopen_after_chuan is False
    # LAIWU with 4s rule off: four_lead_all ignored; rev off: gousiji ignored.
    make_rules("OUTLINE_FULL", {"laiwu.four_lead_all": True})
    assert make_rules("LAIWU", {"rev.gousiji": 0}).rev_gousiji == 0
    # but once the module is switched on, the keys are checked again
    _rejected("i", "OUTLINE_CLASSIC", {**OD, "trib.order": ["dian", "shao"]})


# --- unknown keys, values, presets ----------------------------------------------------------


def test_unknown_key_rejected_naming_the_key() -> None:
    with pytest.raises(ConfigError) as info:
        make_rules("OUTLINE_FULL", {"bie3.enable": True})
    assert "bie3.enable" in str(info.value)
    assert "R0.8" in str(info.value)
    assert info.value.keys == ("bie3.enable",)
    with pytest.raises(ConfigError):
        make_rules().get("no.such")


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("open.first_start", "liang5", ["liang3", "first_taker", "liang4"]),
        ("score.system", "comp3", ["outline", "comp2", "match7", "audit6"]),
        ("info.count_visibility", "sometimes", ["le10", "always", "hidden"]),
        ("bie3.enabled", "true", ["true", "false"]),
        ("rev.gousiji", -1, ["integer >= 0"]),
        ("rev.gousiji", 2.5, ["integer >= 0"]),
        ("sw.timeout_s", 0, ["> 0"]),
        ("sw.autoplay_after", 0, ["integer >= 1"]),
        ("sw.autoplay_after", True, ["integer >= 1"]),
        ("trib.order", ["dian", "dian"], ["dian, shao, luo"]),
        ("trib.order", ["luo", "gift"], ["dian, shao, luo"]),
        ("deck.remove", {3: 17}, ["0..16"]),
        ("deck.remove", {"SJ": 5}, ["0..4"]),
        ("deck.remove", {"Z": 1}, ["ranks"]),
        ("deck.remove", {3: True}, ["ranks"]),
        ("play.gouji_min", {"T": 5, "J": 4, "Q": 3, "K": 2}, ["T, J, Q, K, A"]),
        ("play.gouji_min", {"T": 0, "J": 4, "Q": 3, "K": 2, "A": 2}, ["1..16"]),
        ("play.gouji_min", "small", ["std"]),
    ],
)
def test_bad_value_rejected_listing_allowed_values(
    key: str, value: object, allowed: list[str]
) -> None:
    with pytest.raises(ConfigError) as info:
        make_rules("OUTLINE_FULL", {key: value})
    text = str(info.value)
    assert key in text and "R0.8" in text
    for word in allowed:
        assert word in text
    assert info.value.keys == (key,)


def test_unknown_preset_rejected_listing_presets() -> None:
    with pytest.raises(ConfigError) as info:
        make_rules("OUTLINE_FUL")
    for name in PRESET_NAMES:
        assert name in str(info.value)


def test_preset_name_is_case_insensitive() -> None:
    assert make_rules("laiwu").preset == "LAIWU"
    assert make_rules().preset == DEFAULT_PRESET == "OUTLINE_FULL"


# --- preset values (§V.3) -------------------------------------------------------------------

STD = {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2}

SPOT_CHECKS: dict[str, dict[str, object]] = {
    "OUTLINE_FULL": {
        "open.first_start": "first_taker",
        "open.later_start": "rotate",
        "rev.mode": "bie3_only",
        "trib.order": ("dian", "luo"),
        "info.count_visibility": "hidden",
        "score.system": "outline",
        "play.gouji_min": STD,
        "deck.remove": {},
    },
    "OUTLINE_CLASSIC": {
        "open.first_start": "liang3",
        "open.later_start": "da_luo",
        "hui.options": ("3", "4"),
        "info.tiao": True,
        "info.count_visibility": "le10",
        "dian.enabled": False,
        "bie3.enabled": False,
        "rev.mode": "outline",
    },
    "LAIWU": {
        "deck.remove": {"3": 10, "4": 10},
        "play.twos_attach": False,
        "dian.qualifier": "pure",
        "dian.deadline": "touke",
        "dian.mutual": "cancel",
        "bie3.buy_order": "duitou_then_own_team",
        "laiwu.four_rule": True,
        "laiwu.four_lead_all": False,
        "trib.order": ("dian", "shao", "luo"),
        "trib.return": False,
        "trib.chuan": "each_to_duitou",
        "trib.chuan_agree": True,
        "rev.mode": "off",
    },
    "AUDIT": {
        "open.reopen_after_chuan": False,
        "round.auto_kou": False,
        "dian.qualifier": "audit",
        "dian.deadline": "erke",
        "end.swap_prompt": False,
        "trib.enabled": False,
        "score.system": "audit6",
    },
    "LIANG4": {
        "open.joker_draw": "drawer_takes",
        "open.first_start": "liang4",
        "dian.qualifier": "no_attach",
        "trib.order": ("dian",),
        "trib.return": False,
        "bie3.enabled": False,
        "info.count_visibility": "le10",
    },
    "MATCH7": {
        "burn.priority": "seat_order",
        "score.system": "match7",
        "info.show_closed_rounds": False,
        "open.first_start": "liang3",
        "dian.enabled": False,
        "trib.enabled": False,
    },
    "COMP2": {
        "score.system": "comp2",
        "bie3.enabled": True,
        "dian.enabled": True,
        "trib.order": ("dian", "luo"),
    },
}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_values_match_V3(preset: str) -> None:
    rules = make_rules(preset)
    checks = SPOT_CHECKS[preset]
    assert len(checks) >= 4
    for key, value in checks.items():
        assert rules.get(key) == value, key
        assert getattr(rules, key.replace(".", "_")) == value
    # shared by every preset in §V.3
    assert rules.sw_timeout_s == 30.0 and rules.sw_autoplay_after == 2
    assert rules.sw_illegal == "reject" and rules.burn_enabled


def test_presets_table_omits_not_applicable_keys() -> None:
    assert "dian.qualifier" not in PRESETS["OUTLINE_CLASSIC"]
    assert "laiwu.four_lead_all" in PRESETS["LAIWU"]
    assert "laiwu.four_lead_all" not in PRESETS["OUTLINE_FULL"]
    for name in PRESET_NAMES:
        assert set(PRESETS[name]) <= set(KEYS)


# --- Rules: attributes, get, to_dict, with_overrides ----------------------------------------


def test_every_key_is_an_attribute() -> None:
    rules = make_rules()
    assert len(KEYS) == 46
    for key in KEYS:
        assert rules.get(key) == getattr(rules, key.replace(".", "_"))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_to_dict_round_trip(preset: str) -> None:
    rules = make_rules(preset)
    data = rules.to_dict()
    assert set(data) == set(KEYS)
    assert json.loads(json.dumps(data)) == data
    again = make_rules(preset, overrides=data)
    assert again == rules
    assert again.to_dict() == data
    assert hash(again) == hash(rules)


def test_to_dict_round_trip_with_overrides() -> None:
    rules = make_rules("OUTLINE_CLASSIC", OD)
    assert make_rules("OUTLINE_CLASSIC", rules.to_dict()) == rules
    assert rules != make_rules("OUTLINE_CLASSIC")


def test_overrides_normalized_and_recorded() -> None:
    rules = make_rules(
        "OUTLINE_FULL",
        {
            "deck.remove": {10: 2, "sj": 1, 3: 0},
            "play.gouji_min": {10: 6, "j": 4, "Q": 3, "K": 2, "A": 2},
        },
    )
    assert rules.deck_remove == {"T": 2, "SJ": 1}
    assert rules.play_gouji_min == {"T": 6, "J": 4, "Q": 3, "K": 2, "A": 2}
    assert rules.overrides == {
        "deck.remove": {"T": 2, "SJ": 1},
        "play.gouji_min": {"T": 6, "J": 4, "Q": 3, "K": 2, "A": 2},
    }
    assert make_rules("OUTLINE_FULL", {"sw.timeout_s": 5}).sw_timeout_s == 5.0


def test_with_overrides_revalidates() -> None:
    base = make_rules("OUTLINE_FULL", {"trib.chuan": "each_to_duitou"})
    changed = base.with_overrides({"open.reopen_after_chuan": False})
    assert changed.trib_chuan == "each_to_duitou" and not changed.open_reopen_after_chuan
    assert base.open_reopen_after_chuan  # unchanged
    with pytest.raises(ConfigError, match=r"R0\.8 \(l\)"):
        base.with_overrides({"trib.chuan": "none_reopen", "open.reopen_after_chuan": False})


def test_rules_are_frozen() -> None:
    rules: Rules = make_rules()
    with pytest.raises(AttributeError):
        rules.bie3_enabled = False  # type: ignore[misc]


# --- parse_override -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bie3.enabled=false", ("bie3.enabled", False)),
        ("info.tiao = TRUE", ("info.tiao", True)),
        ("hui.options=3,4", ("hui.options", ("3", "4"))),
        ("hui.options=[]", ("hui.options", ())),
        ("hui.options=['3']", ("hui.options", ("3",))),
        ("deck.remove=3:10,4:10", ("deck.remove", {"3": 10, "4": 10})),
        ("deck.remove={}", ("deck.remove", {})),
        ("trib.order=dian,luo", ("trib.order", ("dian", "luo"))),
        ("trib.order=[]", ("trib.order", ())),
        ("rev.gousiji=3", ("rev.gousiji", 3)),
        ("sw.timeout_s=12.5", ("sw.timeout_s", 12.5)),
        ("score.system=comp2", ("score.system", "comp2")),
        ("play.gouji_min=std", ("play.gouji_min", STD)),
        (
            "play.gouji_min=T:6,J:4,Q:3,K:2,A:2",
            ("play.gouji_min", {"T": 6, "J": 4, "Q": 3, "K": 2, "A": 2}),
        ),
    ],
)
def test_parse_override(text: str, expected: tuple[str, object]) -> None:
    assert parse_override(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "bie3.enabled",
        "bie3.enabled=maybe",
        "no.key=1",
        "rev.gousiji=three",
        "rev.gousiji=-1",
        "deck.remove=3",
        "trib.order=dian,qing",
        "hui.options=4",
    ],
)
def test_parse_override_rejects(text: str) -> None:
    with pytest.raises(ConfigError):
        parse_override(text)


def test_parse_override_feeds_make_rules() -> None:
    pairs = dict(
        parse_override(t) for t in ("bie3.enabled=false", "rev.mode=outline", "trib.order=dian")
    )
    rules = make_rules("OUTLINE_FULL", pairs)
    assert rules.trib_order == ("dian",) and rules.rev_mode == "outline"
