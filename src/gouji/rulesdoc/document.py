"""A preset's rules document: its sections in order (each marked with the rules of the
specification it explains, :data:`SECTION_RULES`), the whole Markdown document and the
``docs/rules/`` files written from it."""

from __future__ import annotations

from pathlib import Path

from gouji.engine.rules import PRESET_NAMES, make_rules
from gouji.rulesdoc.facts import Facts
from gouji.rulesdoc.going_out import burning, end, places
from gouji.rulesdoc.names import LANGS, NAMES, SUMMARIES
from gouji.rulesdoc.play import beating, cards, flow, glance, gouji, opening, plays, round, seats
from gouji.rulesdoc.settling import here, information, scoring, tribute
from gouji.rulesdoc.variants import bie3, dian, hui, laiwu, revolution


def filename(preset: str, lang: str) -> str:
    """``OUTLINE_FULL.zh.md``: the file of one document in docs/rules/."""
    return f"{preset}.{lang}.md"


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

    f = Facts(rules)
    out: list[tuple[str, str, list[str]]] = [
        ("glance", t("一览", "At a glance"), glance(f, zh, t) + flow(f, zh, t)),
        ("seats", t("座位、队伍和对头", "Seats, teams and the 对头"), seats(f, zh, t)),
        ("cards", t("牌", "The cards"), cards(f, zh, t)),
        (
            "opening",
            t("开牌：谁先抓，谁先出", "The opening: who takes first, who leads"),
            opening(f, zh, t),
        ),
        ("plays", t("出牌", "What you may play"), plays(f, zh, t)),
        ("beating", t("管牌", "Beating a play"), beating(f, zh, t)),
        ("gouji", t("够级牌", "够级 plays"), gouji(f, zh, t)),
        (
            "round",
            t("一轮怎么打：过牌、让牌、扣牌、接风", "A round: 过牌, 让牌, 扣牌, 接风"),
            round(f, zh, t),
        ),
        ("burning", t("烧牌", "Burning (烧牌)"), burning(f, zh, t)),
        (
            "places",
            t("走科：名次、够死级、无头、四人乱缠", "Going out: places, 够死级, 无头, 四人乱缠"),
            places(f, zh, t),
        ),
        ("end", t("一局的结束", "The end of a game"), end(f, zh, t)),
        ("bie3", "憋3", bie3(f, zh, t)),
        ("dian", t("打点：开点", "打点: opening the point (开点)"), dian(f, zh, t)),
        ("laiwu", t("莱芜的规矩", "Laiwu's own rules"), laiwu(f, zh, t)),
        (
            "hui",
            t("会3", "会3") if "4" not in f.hui else t("会3、会4", "会3 and 会4"),
            hui(f, zh, t),
        ),
        ("revolution", t("革命", "Revolution (革命)"), revolution(f, zh, t)),
        ("tribute", t("进贡", "Tribute (进贡)"), tribute(f, zh, t)),
        ("information", t("看得到什么", "What you can see"), information(f, zh, t)),
        ("scoring", t("计分和胜负", "Scoring and winning"), scoring(f, zh, t)),
        ("here", t("在这里打牌", "Playing here"), here(f, zh, t)),
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
