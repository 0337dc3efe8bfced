"""``python -m gouji.rulesdoc [--check] DIR``: write the players' rules documents into DIR
(docs/rules), or only report those that are out of date."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from gouji.engine.rules import PRESET_NAMES
from gouji.rulesdoc.document import document, filename, write_all
from gouji.rulesdoc.names import LANGS


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gouji.rulesdoc [--check] DIR``: write (or check) the documents in DIR."""
    parser = argparse.ArgumentParser(prog="python -m gouji.rulesdoc", description=__doc__)
    parser.add_argument("folder", type=Path, help="where the documents go (docs/rules)")
    parser.add_argument("--check", action="store_true", help="only report stale documents")
    args = parser.parse_args(argv)
    folder: Path = args.folder
    if not args.check:
        for path in write_all(folder):
            print(path)
        return 0
    stale = [
        filename(p, lang)
        for p in PRESET_NAMES
        for lang in LANGS
        if not (folder / filename(p, lang)).is_file()
        or (folder / filename(p, lang)).read_text(encoding="utf-8") != document(p, lang)
    ]
    for name in stale:
        print(f"{folder / name} is out of date", file=sys.stderr)
    return 1 if stale else 0
