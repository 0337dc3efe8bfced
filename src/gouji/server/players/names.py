"""What an account's name may look like: no invisible characters, no confusable mix of scripts,
and its skeleton, so that a look-alike of an existing name is refused (issue 39; D181).

A rated table shows names, not accounts: ``alice`` and ``аlice`` (a Cyrillic а) must not be two
people. Unicode's answer (UTS #39, "Unicode Security Mechanisms") is used, not a list of our own:

- **invisible characters**: a name holds no *Default_Ignorable_Code_Point* (Unicode's derived
  property: joiners, fillers such as U+1160 and U+3164, variation selectors, U+17B4, the
  combining grapheme joiner, tags …), and no run of more than ``MARKS_IN_A_ROW`` combining marks;
- **mixed scripts**: the scripts of a name (Common and Inherited aside) are one script, or a
  mix UTS #39 calls *highly restrictive*: Latin with Han and Japanese kana, with Han and Bopomofo,
  or with Han and Hangul — so ``小明Li`` is a name, ``аlice`` (Cyrillic and Latin) is not;
- **skeleton**: each character mapped to one representative of its confusables (the data of
  Unicode's confusables.txt, through the ``confusable-homoglyphs`` library), of the name as
  shown and again after casefolding (``AIice`` looks like ``Alice``, ``асе`` like ``ace``);
  two names with one skeleton look alike, and the accounts' store keeps each account's
  skeleton unique. A name's case variants are one name already (``Li`` and ``li``).

The scripts come from the same library (its table of Unicode's Scripts.txt).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.categories import unique_aliases  # type: ignore[import-untyped]
from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

SKELETON_MAX = 200  # characters of a stored skeleton (the accounts' column)
MARKS_IN_A_ROW = 2  # combining marks after one character (é is one NFKC character already)
_MARKS = {"Mn", "Mc", "Me"}
_IGNORED_SCRIPTS = {"COMMON", "INHERITED"}
#: UTS #39 §5.2 "Highly Restrictive": one script, or Latin with one of these (Han with kana,
#: Bopomofo or Hangul: how Chinese, Japanese and Korean names are written).
_MIXES = (
    {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},
    {"LATIN", "HAN", "BOPOMOFO"},
    {"LATIN", "HAN", "HANGUL"},
)
#: Unicode's derived property Default_Ignorable_Code_Point (DerivedCoreProperties.txt, 15.1):
#: characters that show nothing. Python's unicodedata does not carry it.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_DIRECTION_MARKS = "\u200e\u200f"  # the library wraps right-to-left glyphs in them


class NameProblem(ValueError):
    """Why a name cannot be an account's (the message is the player's)."""


def is_default_ignorable(c: str) -> bool:
    """Whether ``c`` is a Default_Ignorable_Code_Point (shows nothing)."""
    n = ord(c)
    return any(lo <= n <= hi for lo, hi in _DEFAULT_IGNORABLE)


def check_looks(name: str) -> None:
    """Raise ``NameProblem`` for an invisible character, a long run of combining marks or a
    confusable mix of scripts in ``name`` (NFKC already)."""
    run = 0
    for c in name:
        if is_default_ignorable(c):
            raise NameProblem(f"a name holds no invisible character, not U+{ord(c):04X}")
        run = run + 1 if unicodedata.category(c) in _MARKS else 0
        if run > MARKS_IN_A_ROW:
            raise NameProblem(f"a name has at most {MARKS_IN_A_ROW} accents on one letter")
    scripts = set(unique_aliases(name)) - _IGNORED_SCRIPTS
    if len(scripts) > 1 and not any(scripts <= mix for mix in _MIXES):
        shown = ", ".join(sorted(s.title() for s in scripts))
        raise NameProblem(f"a name does not mix these scripts: {shown}")


def _representatives() -> tuple[dict[str, str], dict[str, str]]:
    """Each confusable character's representative: the lowest code point of the characters
    that confusables.txt links it with, directly or through others (``I``, ``l`` and ``1``
    are one), and the characters that look like several (``m`` and ``rn``). Letters of one
    case only: a capital and its small letter are not confusables (``O`` is ``0``, ``o`` is
    not), and a name's case variants are one name already."""
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    several: dict[str, str] = {}
    for char, glyphs in confusables_data.items():
        if len(char) != 1:
            continue
        for glyph in glyphs:
            other = "".join(g for g in glyph["c"] if g not in _DIRECTION_MARKS)
            if len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif other.isascii() and other.isalnum() and char not in several:
                several[char] = other
    return {c: root(c) for c in parent}, several


_REPRESENTATIVE, _SEVERAL = _representatives()


def _mapped(text: str) -> str:
    out = []
    for c in unicodedata.normalize("NFD", text):
        for d in _SEVERAL.get(c, c):
            out.append(_REPRESENTATIVE.get(d, d))
    return unicodedata.normalize("NFD", "".join(out))


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """The look of ``name``: equal for names that a reader may take for each other
    (``alice``, ``аlice``, ``ALICE``, ``Alice``; ``Il`` and ``ll``)."""
    return _mapped(_mapped(name).casefold())[:SKELETON_MAX]
