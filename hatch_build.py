"""The wheel's build hook: hatch-mypyc compiles the engine and the bots where it can.

hatch-mypyc does the compiling (mypy's mypyc, through setuptools and the C compiler); this
hook only decides whether to ask it. A machine without a C compiler or Python's headers, or a
build with ``GOUJI_PURE=1``, gets the same package as pure Python instead of a failed install:
gouji runs the same either way, only slower (docs/performance.md). ``gouji bench --json``
says which build ran.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from typing import Any


def missing_for_compiling() -> str:
    """What this machine lacks to compile C extensions ('' when nothing)."""
    if os.environ.get("GOUJI_PURE", "") not in ("", "0"):
        return "GOUJI_PURE is set"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on the PATH"
    headers = os.path.join(sysconfig.get_paths()["include"], "Python.h")
    if not os.path.exists(headers):
        return f"no Python headers ({headers}; Debian: python3-dev)"
    return ""


def get_build_hook() -> type[Any]:
    """hatchling's way to name a custom hook's class: hatch-mypyc's, skipped (with a line on
    stderr) where it cannot compile. Imported here, so that ``python hatch_build.py`` runs
    without hatch-mypyc."""
    from hatch_mypyc.plugin import MypycBuildHook

    class GoujiMypycHook(MypycBuildHook):  # type: ignore[misc]
        def initialize(self, version: str, build_data: dict[str, Any]) -> None:
            missing = missing_for_compiling()
            if missing:
                print(f"gouji: building pure Python ({missing})", file=sys.stderr)
                self.clean([version])  # no compiled module of a former build may stay
                return
            super().initialize(version, build_data)

    return GoujiMypycHook


if __name__ == "__main__":  # the build an install here makes: `make test` expects it
    print("pure" if missing_for_compiling() else "compiled")
