"""The languages of the rules documents and each preset's name and one-line summary for
players: the rules pages' titles, the lobby's rule sets and the event exports all name a preset
by these.

The names and summaries are written once, in the web client's word file
``web/js/words/presets.js`` (``preset_name.<CODE>`` and ``preset_summary.<CODE>`` in ``zh`` and
``en``; :mod:`gouji.rulesdoc.webwords`): the browser imports that file and this module reads it,
so the lobby and the rules pages cannot say a rule set differently.
"""

from __future__ import annotations

from gouji.rulesdoc.webwords import read_word_file

LANGS: tuple[str, ...] = ("zh", "en")

_NAME = "preset_name."
_SUMMARY = "preset_summary."


def _read() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    words = read_word_file("presets")
    codes = [k.removeprefix(_NAME) for k in words["zh"] if k.startswith(_NAME)]
    names = {c: {lang: words[lang][_NAME + c] for lang in LANGS} for c in codes}
    summaries = {c: {lang: words[lang][_SUMMARY + c] for lang in LANGS} for c in codes}
    return names, summaries


#: Each preset's name for players and its summary in one line (the lobby shows the same line
#: under the rule set it selected), by code and language.
NAMES, SUMMARIES = _read()
