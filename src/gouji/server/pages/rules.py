"""The rules page of a preset: ``GET /rules/{preset}?lang=zh|en`` (规则说明).

The page is the preset's players' document (:func:`gouji.rulesdoc.document`, the same Markdown as
``docs/rules/``) rendered as HTML with markdown-it-py. Raw HTML in the Markdown is not passed
through (``html: False``: it would be shown as text), and every name put into the page around it
is escaped.
"""

from __future__ import annotations

import functools
from html import escape

from markdown_it import MarkdownIt

from gouji.engine.rules import PRESET_NAMES
from gouji.rulesdoc import LANGS, NAMES, SECTION_RULES, document, sections

__all__ = ["NoRulesPage", "pick_lang", "render_rules_page"]

_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable(
    "table"
)

_TEXT = {
    "zh": {
        "html_lang": "zh-CN",
        "title": "规则说明",
        "brand": "够级",
        "other": "English",
        "other_lang": "en",
        "back": "← 回大厅",
        "presets": "其他规则",
        "toc": "目录",
    },
    "en": {
        "html_lang": "en",
        "title": "Rules",
        "brand": "够级",
        "other": "中文",
        "other_lang": "zh",
        "back": "← Lobby",
        "presets": "Other rule sets",
        "toc": "Contents",
    },
}


class NoRulesPage(LookupError):
    """An unknown preset or language (the server answers 404 with this text)."""


def pick_lang(asked: str | None, accept_language: str) -> str:
    """The page's language: ``asked`` (zh or en) if given, else the browser's first choice
    between Chinese and English (``Accept-Language``), else Chinese."""
    if asked is not None:
        lang = asked.strip().lower()
        if lang not in LANGS:
            raise NoRulesPage(f"no rules page in {asked[:20]!a}; languages: {', '.join(LANGS)}")
        return lang
    for part in accept_language.split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith("zh"):
            return "zh"
        if tag.startswith("en"):
            return "en"
    return "zh"


def _preset_code(preset: str) -> str:
    code = preset.strip().upper()
    if code not in PRESET_NAMES:
        raise NoRulesPage(
            f"no rule set {preset[:40]!a}; rule sets: {', '.join(PRESET_NAMES)} "
            "(for example /rules/OUTLINE_FULL?lang=en)"
        )
    return code


def _body(
    markdown: str, cites: list[tuple[str, ...]] | None = None
) -> tuple[str, list[tuple[str, str]]]:
    """The document as HTML, its ``h2`` headings given ids (and, with ``cites``, the rule
    numbers each section explains as ``data-rules``: rules.js opens ``#R5.1`` there); and the
    (id, text) of each heading."""
    tokens = _MD.parse(markdown)
    toc: list[tuple[str, str]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.tag == "h2":
            anchor = f"s{len(toc) + 1}"
            tok.attrSet("id", anchor)
            if cites is not None and len(toc) < len(cites):
                tok.attrSet("data-rules", " ".join(cites[len(toc)]))
            inline = tokens[i + 1]
            text = "".join(c.content for c in inline.children or [] if c.type == "text")
            toc.append((anchor, text))
    html: str = _MD.renderer.render(tokens, _MD.options, {})
    return html, toc


@functools.lru_cache(maxsize=32)
def render_rules_page(preset: str, lang: str) -> str:
    """The whole HTML page of ``preset`` (case-insensitive) in ``lang``; raises
    :class:`NoRulesPage` for an unknown preset or language."""
    if lang not in LANGS:
        raise NoRulesPage(f"no rules page in {lang[:20]!a}; languages: {', '.join(LANGS)}")
    code = _preset_code(preset)
    s = _TEXT[lang]
    cites = [SECTION_RULES[key] for key, _, _ in sections(code, lang)]
    body, toc = _body(document(code, lang), cites)
    name = NAMES[code][lang]
    others = "\n".join(
        f'    <a href="/rules/{p}?lang={lang}"'
        + (' aria-current="page"' if p == code else "")
        + f">{escape(NAMES[p][lang])}</a>"
        for p in PRESET_NAMES
    )
    contents = "\n".join(
        f'      <li><a href="#{anchor}">{escape(text)}</a></li>' for anchor, text in toc
    )
    other, switch = s["other_lang"], s["other"]
    return f"""<!doctype html>
<html lang="{s["html_lang"]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(name)} · {s["title"]} · 够级</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/css/style.css">
<link rel="stylesheet" href="/static/css/lobby.css">
</head>
<body class="rules-page" data-preset="{code}">
<header class="topbar">
  <a class="brand" href="/">{s["brand"]} <small>Gouji</small></a>
  <span class="topbar-title">{s["title"]}</span>
  <span class="spacer"></span>
  <a id="lang" class="button small" href="/rules/{code}?lang={other}"
     hreflang="{other}">{switch}</a>
</header>
<main class="rules-main">
  <nav class="rules-presets" aria-label="{s["presets"]}">
    <a class="back" href="/">{s["back"]}</a>
{others}
  </nav>
  <aside class="rules-toc">
    <details id="toc">
      <summary>{s["toc"]}</summary>
      <ol>
{contents}
      </ol>
    </details>
  </aside>
  <article class="rules-doc card-panel">
{body}  </article>
</main>
<script type="module" src="/static/js/rules.js"></script>
</body>
</html>
"""
