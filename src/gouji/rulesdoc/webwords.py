"""The web client's word files that Python reads too (``web/js/words/presets.js`` and
``competition.js``): each is one JSON object ``{"zh": {…}, "en": {…}}`` written as an ES module,
``export default {…};``, so that the browser imports it like every other word file (no fetch, no
build step) and Python reads the same text as JSON. One source for words both sides say.
"""

from __future__ import annotations

import json
from importlib.resources import files

_HEAD = "export default "


def read_word_file(name: str) -> dict[str, dict[str, str]]:
    """The words of ``web/js/words/<name>.js`` by language (a resource of the gouji package)."""
    text = files("gouji").joinpath(f"web/js/words/{name}.js").read_text(encoding="utf-8")
    body = text.strip()
    if not body.startswith(_HEAD) or not body.endswith(";"):
        raise ValueError(f"web/js/words/{name}.js is not `{_HEAD}{{JSON}};`")
    words: dict[str, dict[str, str]] = json.loads(body.removeprefix(_HEAD).removesuffix(";"))
    return words
