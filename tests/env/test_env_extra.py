"""Without the env extra, importing the environment names what to install (docs/env.md)."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_env_without_pettingzoo_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"  # as if it were not installed
        "from gouji.env import env\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == "ModuleNotFoundError: gouji.env needs pettingzoo: pip install 'gouji[env]'"
