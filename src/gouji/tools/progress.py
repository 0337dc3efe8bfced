"""A tqdm progress bar on stderr as one callable, shared by the long commands (arena,
tournament): ``update(n)`` advances it, ``update(-1)`` closes it; a no-op when off."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def progress_bar(total: int, enabled: bool, unit: str) -> Callable[[int], None]:
    if not enabled:
        return lambda n: None
    tqdm = importlib.import_module("tqdm").tqdm  # untyped; no stub dependency for one call
    bar = tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False)

    def update(n: int) -> None:
        if n < 0:
            bar.close()
        else:
            bar.update(n)

    return update
