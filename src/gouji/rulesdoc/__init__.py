"""The players' rules documents (docs/rules/), one per preset and language, built from the preset.

Every statement that differs between rule sets is written from the preset's resolved
configuration (:func:`gouji.make_rules`) and the scoring tables
(:data:`gouji.engine.referee.scoring.PLACE_POINTS`),
so a document cannot contradict the engine: change a preset and its documents change with it.
The text is for players, in the game's own words (头科, 对头, 够级 …), in Chinese or English; it
names no configuration key and no preset code.

The server renders :func:`document` on ``GET /rules/{preset}`` (so it works from a source
checkout, an editable install and a wheel alike); ``docs/rules/`` holds the same Markdown for
reading in the repository, written by ``python -m gouji.rulesdoc docs/rules`` and checked to be
up to date by ``tests/rulesdoc/test_rules_docs.py``.

The package, one job a module: :mod:`~gouji.rulesdoc.names` (languages, presets' names and
summaries), :mod:`~gouji.rulesdoc.facts` (what the sections are written from),
:mod:`~gouji.rulesdoc.play`, :mod:`~gouji.rulesdoc.going_out`, :mod:`~gouji.rulesdoc.variants`
and :mod:`~gouji.rulesdoc.settling` (the sections), :mod:`~gouji.rulesdoc.document` (a whole
document and docs/rules/) and :mod:`~gouji.rulesdoc.cli` (the command).
"""

from __future__ import annotations

from gouji.rulesdoc.cli import main
from gouji.rulesdoc.document import SECTION_RULES, document, filename, sections, write_all
from gouji.rulesdoc.names import LANGS, NAMES, SUMMARIES

__all__ = [
    "LANGS",
    "NAMES",
    "SECTION_RULES",
    "SUMMARIES",
    "document",
    "filename",
    "main",
    "sections",
    "write_all",
]
