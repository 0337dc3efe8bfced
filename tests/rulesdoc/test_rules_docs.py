"""The players' rules documents (docs/rules/, gouji.rulesdoc) and their page (GET /rules/{preset}).

Each preset has a document in Chinese and in English, up to date with the generator, that names
every feature its configuration switches on and none that it switches off (checked here from the
configuration itself, not from the generator's own conditions), in players' words: no
configuration key, no preset code, no reference to the specification.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji.engine.referee.scoring import PLACE_POINTS
from gouji.engine.rules import PRESET_NAMES, Rules, make_rules
from gouji.rulesdoc import LANGS, NAMES, SUMMARIES, document, filename, main
from gouji.server import create_app

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
CASES = [(p, lang) for p in PRESET_NAMES for lang in LANGS]


def _dian_paid(r: Rules) -> bool:
    return r.trib_enabled and "dian" in r.trib_order


def _luo_paid(r: Rules) -> bool:
    return r.trib_enabled and "luo" in r.trib_order


#: term → when a preset's documents (both languages) must mention it; otherwise they must not.
FEATURES: dict[str, Callable[[Rules], bool]] = {
    "憋3": lambda r: r.bie3_enabled,
    "买3": lambda r: r.bie3_enabled,
    "闷": lambda r: r.bie3_enabled,
    "买4": lambda r: r.laiwu_buy4,
    "开壶": lambda r: r.laiwu_four_rule,
    "会5": lambda r: r.laiwu_hui5,
    "打点": lambda r: r.dian_enabled,
    "开点": lambda r: r.dian_enabled,
    "点贡": _dian_paid,
    "进贡": lambda r: r.trib_enabled,
    "落贡": _luo_paid,
    "还贡": lambda r: _luo_paid(r) and r.trib_return,
    "烧贡": lambda r: r.trib_enabled and r.trib_shao,
    "亮3": lambda r: r.open_first_start == "liang3",
    "亮4": lambda r: r.open_first_start == "liang4",
    "会3": lambda r: "3" in r.hui_options,
    "会4": lambda r: "4" in r.hui_options,
    "挑牌": lambda r: r.info_tiao,
    "革命": lambda r: r.rev_mode != "off",
    "烧牌": lambda r: r.burn_enabled,
    "报牌": lambda r: r.info_count_visibility == "le10",
    "明扣": lambda r: not r.round_auto_kou,
}
#: English words that follow the same switches in the English documents.
FEATURES_EN: dict[str, Callable[[Rules], bool]] = {
    "tribute": lambda r: r.trib_enabled,
    "revolution": lambda r: r.rev_mode != "off",
    "burn": lambda r: r.burn_enabled,
    "2s do not attach": lambda r: not r.play_twos_attach,
    "asked in seat order": lambda r: r.burn_priority == "seat_order",
    "cannot be looked at again": lambda r: not r.info_show_closed_rounds,
}
#: Every document, whatever its preset, explains these.
ALWAYS = ["对头", "够级", "过牌", "让牌", "扣", "接风", "头科", "二科", "大落", "够死级", "无头"]
ALWAYS += ["四人乱缠", "串三户", "底牌", "托管"]

#: Engine words that an English text for players must not hold: preset codes, configuration
#: keys (dotted, or words joined by '_') and their module prefixes.
ENGINE_WORDS = re.compile(
    r"OUTLINE_|\b(?:OUTLINE_FULL|OUTLINE_CLASSIC|LAIWU|AUDIT|LIANG4|MATCH7|COMP2)\b"
    r"|bie3|\bdian\.|\btrib\.|\b\w+_\w+\b"
    r"|\b(?:deck|open|play|round|burn|end|info|dian|laiwu|hui|rev|trib|score|sw)\.[a-z]"
)
#: Pointers into the rules specification, which players never see.
SPEC_WORDS = re.compile(r"GOUJI_RULES|\bR\d+\.\d+|\bAMB-\d|\bTV-[A-Z]|§")
#: Latin words of two letters or more in a Chinese text (card letters J Q K A stand alone).
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _points_row(system: str) -> str:
    return "| " + " | ".join(f"−{-p}" if p < 0 else str(p) for p in PLACE_POINTS[system]) + " |"


@pytest.fixture(scope="module")
def docs() -> dict[tuple[str, str], str]:
    return {(p, lang): (DOCS / filename(p, lang)).read_text(encoding="utf-8") for p, lang in CASES}


@pytest.mark.parametrize(("preset", "lang"), CASES)
def test_document_exists_and_is_up_to_date(preset: str, lang: str) -> None:
    path = DOCS / filename(preset, lang)
    assert path.is_file(), f"{path} is missing: run python -m gouji.rulesdoc docs/rules"
    assert path.read_text(encoding="utf-8") == document(preset, lang), (
        f"{path} is out of date: run python -m gouji.rulesdoc docs/rules"
    )


def test_readme_lists_every_document() -> None:
    readme = (DOCS / "README.md").read_text(encoding="utf-8")
    for preset, lang in CASES:
        assert filename(preset, lang) in readme
    assert "python -m gouji.rulesdoc docs/rules" in readme


def test_check_mode_reports_stale_documents(tmp_path: Path) -> None:
    assert main([str(DOCS), "--check"]) == 0
    assert main([str(tmp_path), "--check"]) == 1  # nothing there yet
    assert main([str(tmp_path)]) == 0
    assert main([str(tmp_path), "--check"]) == 0
    (tmp_path / filename("LAIWU", "en")).write_text("stale", encoding="utf-8")
    assert main([str(tmp_path), "--check"]) == 1


@pytest.mark.parametrize(("preset", "lang"), CASES)
def test_document_names_exactly_the_features_its_preset_switches_on(
    preset: str, lang: str, docs: dict[tuple[str, str], str]
) -> None:
    text, rules = docs[preset, lang], make_rules(preset)
    assert text.startswith(f"# {NAMES[preset][lang]}\n\n> {SUMMARIES[preset][lang]}\n")
    wrong = [
        f"{term} {'missing' if on else 'mentioned though off'}"
        for term, on in ((term, rule(rules)) for term, rule in FEATURES.items())
        if (term in text) != on
    ]
    if lang == "en":
        low = text.lower()
        wrong += [
            f"{word!r} {'missing' if on else 'mentioned though off'}"
            for word, on in ((word, rule(rules)) for word, rule in FEATURES_EN.items())
            if (word in low) != on
        ]
    wrong += [f"{term} missing" for term in ALWAYS if term not in text]
    assert not wrong, f"{filename(preset, lang)}: " + "; ".join(wrong)


@pytest.mark.parametrize(("preset", "lang"), CASES)
def test_document_states_the_numbers_of_its_configuration(
    preset: str, lang: str, docs: dict[tuple[str, str], str]
) -> None:
    text, r = docs[preset, lang], make_rules(preset)
    zh = lang == "zh"
    # the scoring system's place points, and no other system's; its bonuses and 串三户
    for system in PLACE_POINTS:
        assert (_points_row(system) in text) == (system == r.score_system), system
    assert (("加 1 分" if zh else "+1") in text) == (r.score_system in ("comp2", "audit6"))
    assert (("记 12 分" if zh else "records 12") in text) == (r.score_system == "outline")
    assert (("记 30 分" if zh else "scores 30") in text) == (r.score_system == "audit6")
    assert (("三局" if zh else "three games") in text) == (r.score_system == "match7")
    # the deck and the hands
    total = 216 - sum(r.deck_remove.values())
    assert f"{total} " in text
    each = [f"{total // 6} "] + ([f"{total // 6 + 1}"] if total % 6 else [])
    assert all(n in text for n in each)
    # the 够级 thresholds
    if not zh:
        for rank, n in r.play_gouji_min.items():
            assert f"{n} or more {'10' if rank == 'T' else rank}s" in text
    # the 开点 deadline: before whose going out
    if r.dian_enabled:
        line = next(x for x in text.splitlines() if x.startswith("期限：" if zh else "Deadline:"))
        assert ("头科" in line) == (r.dian_deadline in ("outline", "touke")), line
        assert ("二科" in line) == (r.dian_deadline in ("outline", "erke")), line


@pytest.mark.parametrize(("preset", "lang"), CASES)
def test_document_speaks_to_players(
    preset: str, lang: str, docs: dict[tuple[str, str], str]
) -> None:
    text = docs[preset, lang]
    assert not SPEC_WORDS.findall(text)
    assert "](" not in text  # no links: the page shows the document alone
    assert "<" not in text  # no raw HTML
    if lang == "en":
        assert not ENGINE_WORDS.findall(text)
    else:
        assert not LATIN_WORD.findall(text)


def test_documents_differ_where_their_presets_differ(docs: dict[tuple[str, str], str]) -> None:
    for lang in LANGS:
        texts = [docs[p, lang] for p in PRESET_NAMES]
        assert len(set(texts)) == len(texts)


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="languages"):
        document("OUTLINE_FULL", "fr")


# ------------------------------------------------------------------------------ the page
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'rules.db'}")) as c:
        yield c


@pytest.mark.parametrize(("preset", "lang"), CASES)
def test_rules_page_renders_the_document(client: TestClient, preset: str, lang: str) -> None:
    r = client.get(f"/rules/{preset}?lang={lang}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    html = r.text
    assert f'<html lang="{"zh-CN" if lang == "zh" else "en"}">' in html
    assert f"<h1>{NAMES[preset][lang]}</h1>" in html
    assert "<table>" in html and '<h2 id="s1" data-rules="R0 R18">' in html
    assert f'href="/rules/{preset}?lang={"en" if lang == "zh" else "zh"}"' in html
    for other in PRESET_NAMES:  # every rule set is one click away
        assert f'href="/rules/{other}?lang={lang}"' in html


@pytest.mark.parametrize(("preset", "lang"), CASES)
def test_rules_page_marks_the_rules_each_section_explains(
    client: TestClient, preset: str, lang: str
) -> None:
    """A refusal cites a rule (R5.1); the table links /rules/P#R5.1, and rules.js opens the
    section whose data-rules hold it. Every section says which rules it explains, each rule
    group of the specification that a refusal can cite has its section, and the page shows
    no rule number."""
    html = client.get(f"/rules/{preset}?lang={lang}").text
    cites = re.findall(r'<h2 id="s\d+" data-rules="([^"]+)">', html)
    assert len(cites) == html.count("<h2 ")
    groups = {r for c in cites for r in c.split()}
    for cited in ("R1", "R4", "R5", "R6", "R7", "R10", "R18", "R19"):  # refusals' rules
        assert cited in groups, cited
    assert ("R8" in groups) == make_rules(preset).burn_enabled
    assert ("R12" in groups) == make_rules(preset).bie3_enabled
    article = html[html.index("<article") :]
    assert not re.search(r">[^<]*\bR\d+\.\d", article)  # no number in the text itself


def test_rules_page_language_and_case(client: TestClient) -> None:
    assert 'lang="en"' in client.get("/rules/laiwu?lang=EN").text
    zh = client.get("/rules/LAIWU", headers={"accept-language": "zh-CN,zh;q=0.9,en;q=0.8"})
    en = client.get("/rules/LAIWU", headers={"accept-language": "en-GB,en;q=0.9,zh;q=0.8"})
    assert 'lang="zh-CN"' in zh.text and 'lang="en"' in en.text
    assert 'lang="zh-CN"' in client.get("/rules/LAIWU", headers={"accept-language": "fr"}).text


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/rules/NOPE", "no rule set 'NOPE'; rule sets: OUTLINE_FULL"),
        ("/rules/OUTLINE_FULL?lang=fr", "no rules page in 'fr'; languages: zh, en"),
        ("/rules/%E5%A4%A7%E7%BA%B2", "no rule set '\\u5927\\u7eb2'"),
        ("/rules/" + "X" * 300, "no rule set 'XXXX"),
    ],
)
def test_rules_page_unknown_preset_or_language_is_a_clear_404(
    client: TestClient, path: str, words: str
) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"  # the one error body (docs/protocol.md Errors)
    assert words in r.json()["message"]
    assert len(r.json()["message"]) < 300


def test_markdown_raw_html_is_not_passed_through() -> None:
    from gouji.server.pages import rules as rulespage

    html, toc = rulespage._body("## A <b>x</b>\n\n<script>alert(1)</script>\n")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>" not in html
    assert toc == [("s1", "A <b>x</b>")]  # escaped when it is put into the page
