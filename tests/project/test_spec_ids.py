"""Every rule ID that the code and the tests cite is a heading in docs/, and the links of the
specification (docs/spec) resolve.

IDs (docs/spec/README.md): rules ``R7``, ``R7.6`` (also in ``R4.2–R4.4``, ``R13.5 (d)``,
``R10.2/R10.3``), decisions ``AMB-62``, test vectors ``TV-E04`` (a test named
``test_TV_E04_…`` cites it too) and their groups ``TV-E``, and the decisions beyond the spec
``D9`` (docs/decisions.md). An ID resolves when a heading of a markdown file under docs/
holds it as a whole token (``R7`` is not satisfied by ``R7.6``, nor ``R1`` by ``R12``), and
that file is the ID's home: docs/spec/*.md for ``R…``, ``AMB-…`` and ``TV-…``,
docs/decisions.md for ``D…``.
Only comments and string literals are read, so that code such as ``hand[R3]`` (the rank
constants of the cards module) is no citation.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SPEC = DOCS / "spec"
DECISIONS = DOCS / "decisions.md"

#: Where citations are read: (folder, glob).
SOURCES = (("src/gouji", "**/*.py"), ("src/gouji/web", "**/*.js"), ("tests", "**/*.py"))

#: Comments and string literals of Python (a string's prefix letters included).
PY_TEXT = re.compile(
    r"""[rRbBuUfF]{0,2}(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\""""
    r"""|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")|\#[^\n]*""",
    re.DOTALL,
)
#: Comments and string literals of JavaScript (template literals whole).
JS_TEXT = re.compile(
    r"""//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`""",
    re.DOTALL,
)

#: An ID as a citation: not inside a word, a dotted name, a hyphenated name (``TV-D05`` holds
#: no ``D05``) or a colour (``#D0A020``), and not the start of a longer ID (``R7`` in ``R7.6``).
_ID = r"R\d+(?:\.\d+)?|AMB-\d+|TV-[A-Z](?:\d+)?|D[1-9]\d*"
CITE = re.compile(rf"(?<![\w.\-#])(?:{_ID})(?![\w]|\.\d|-\d)")
#: The far end of a range written with a hyphen (``D95-D97``, ``R4.2-R4.4``) or in short
#: (``TV-A07–A12``): the lookbehind of CITE does not see it.
RANGE_END = re.compile(
    r"(?<![\w.\-#])(?P<first>R\d+(?:\.\d+)?|AMB-\d+|TV-(?P<letter>[A-Z])\d+|D[1-9]\d*)"
    r"\s*[-–]\s*(?P<last>R\d+(?:\.\d+)?|AMB-\d+|TV-[A-Z]\d+|D[1-9]\d*|[A-Z]\d+)(?![\w]|\.\d)"
)

#: A test named after its vector: ``def test_TV_E04_burn_lead_needs_joker`` cites TV-E04.
TEST_NAME = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+test_TV_([A-Z]\d+)(?![0-9])", re.MULTILINE)

HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")


def cited_ids(text: str) -> Iterator[tuple[str, int]]:
    """The IDs cited in a piece of prose, each with its offset in ``text``."""
    for m in CITE.finditer(text):
        yield m.group(0), m.start()
    for m in RANGE_END.finditer(text):
        last = m.group("last")
        if m.group("letter") and not last.startswith("TV-"):
            last = "TV-" + last
        elif not re.match(_ID, last) or last[0] != m.group("first")[0]:
            continue
        yield last, m.start("last")


def prose(path: Path, text: str) -> Iterator[tuple[str, int]]:
    """The comments and string literals of a source file, each with its offset."""
    lexer = JS_TEXT if path.suffix == ".js" else PY_TEXT
    for m in lexer.finditer(text):
        yield m.group(0), m.start()


def source_ids(path: Path, text: str) -> Iterator[tuple[str, int]]:
    """The IDs a source file cites, each with its offset: in its prose and its test names."""
    for chunk, offset in prose(path, text):
        for ident, at in cited_ids(chunk):
            yield ident, offset + at
    if path.suffix == ".py":
        for m in TEST_NAME.finditer(text):
            yield "TV-" + m.group(1), m.start(1)


def citations() -> dict[str, str]:
    """Every cited ID → the first ``path:line`` citing it (files in sorted order)."""
    first: dict[str, str] = {}
    for folder, pattern in SOURCES:
        for path in sorted((ROOT / folder).glob(pattern)):
            if path == Path(__file__).resolve():
                continue  # this file's examples are no citations
            text = path.read_text(encoding="utf-8")
            if not CITE.search(text) and "test_TV_" not in text:
                continue
            starts = _line_starts(text)
            rel = path.relative_to(ROOT).as_posix()
            for ident, at in source_ids(path, text):
                if ident not in first:
                    first[ident] = f"{rel}:{bisect.bisect_right(starts, at)}"
    return first


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def headings(path: Path) -> Iterator[str]:
    """The text of every heading of a markdown file (fenced code skipped)."""
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := HEADING.match(line)):
            yield m.group(1)


def heading_ids(paths: Iterable[Path]) -> set[str]:
    """Every ID that a heading of these markdown files holds as a whole token."""
    found: set[str] = set()
    for path in paths:
        for text in headings(path):
            found.update(ident for ident, _ in cited_ids(text))
    return found


def home(ident: str) -> str:
    """Where an ID is defined (relative to docs/)."""
    return "decisions.md" if ident.startswith("D") else "spec/"


def slug(text: str) -> str:
    """GitHub's anchor of a heading: the rendered text, lower case, without punctuation."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link reads as its text
    text = text.replace("`", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a markdown file's headings; repeated ones get -1, -2, … as on GitHub."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for text in headings(path):
        base = slug(text)
        n = seen.get(base)
        seen[base] = 0 if n is None else n + 1
        out.add(base if n is None else f"{base}-{n + 1}")
    return out


def links(path: Path) -> Iterator[tuple[int, str]]:
    """(line, target) of every markdown link outside code."""
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(CODE_SPAN.sub("", line)):
            yield number, m.group(1)


def _report(lines: Iterable[str]) -> str:
    """One line each, in natural order (R5.9 before R20)."""

    def key(line: str) -> list[tuple[int, str]]:
        return [(int(p), "") if p.isdigit() else (-1, p) for p in re.split(r"(\d+)", line)]

    return "\n  ".join(sorted(lines, key=key))


def test_citation_pattern() -> None:
    def ids(text: str) -> list[str]:
        return sorted({ident for ident, _ in cited_ids(text)})

    assert ids("R4.2–R4.4, R13.5 (d), R10.2/R10.3, R7–R9") == sorted(
        ["R4.2", "R4.4", "R13.5", "R10.2", "R10.3", "R7", "R9"]
    )
    assert ids("TV-A07–A12, TV-C08, TV-Q01–TV-Q10; TV-E") == sorted(
        ["TV-A07", "TV-A12", "TV-C08", "TV-Q01", "TV-Q10", "TV-E"]
    )
    assert ids("AMB-62 and D9, D95-D97, D41–D48") == sorted(
        ["AMB-62", "D9", "D95", "D97", "D41", "D48"]
    )
    assert ids("TV-D05 #D0A020 0xD1 R7.6x GOUJI_R1 gouji.R2 D01/D02 R2D2") == ["TV-D05"]
    source = 'hand[R3] += 1  # R12.3: buy a 3\nx = "R5.1" if R2 else R4\n'
    chunks = [chunk for chunk, _ in prose(Path("x.py"), source)]
    assert [ids(chunk) for chunk in chunks] == [["R12.3"], ["R5.1"]]
    assert [ids(c) for c, _ in prose(Path("x.js"), "a[R2]; // R16: tribute\n")] == [["R16"]]
    named = "def test_TV_E04_joker() -> None:\n    def test_TV_Q01() -> None: ...\n"
    assert [ident for ident, _ in source_ids(Path("x.py"), named)] == ["TV-E04", "TV-Q01"]


def test_every_cited_id_is_a_heading_in_docs() -> None:
    cited = citations()
    assert len(cited) > 100, "the citations of the code were not found"
    known = {
        "spec/": heading_ids(SPEC.glob("*.md")),
        "decisions.md": heading_ids([DECISIONS]),
    }
    missing = {ident: where for ident, where in cited.items() if ident not in known[home(ident)]}
    assert not missing, (
        f"{len(missing)} IDs cited in the code are no heading of their document "
        "(docs/spec/*.md for R…, AMB-…, TV-…; docs/decisions.md for D…):\n  "
        + _report(
            f"{ident:8} first cited at {where} (no heading in docs/{home(ident)})"
            for ident, where in missing.items()
        )
    )


def test_spec_links_resolve() -> None:
    parts = sorted(SPEC.glob("*.md"))
    assert parts, "docs/spec is missing"
    cache: dict[Path, set[str]] = {}
    broken: list[str] = []
    for path in parts:
        for number, target in links(path):
            if "://" in target or target.startswith("mailto:"):
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            where = f"{path.relative_to(ROOT).as_posix()}:{number}"
            if not dest.is_file():
                broken.append(f"{where}: {target} (no such file)")
            elif anchor and dest.parent == SPEC.resolve() and dest.suffix == ".md":
                if dest not in cache:
                    cache[dest] = anchors(dest)
                if anchor not in cache[dest]:
                    broken.append(f"{where}: {target} (no such heading)")
    assert not broken, f"{len(broken)} broken links in docs/spec:\n  " + _report(broken)
