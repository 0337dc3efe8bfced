"""gouji — the Shandong six-player card game 够级 (Gouji): rules engine and tools.

The public contract (DESIGN.md §3) is importable from here.
"""

from gouji.plays import Play
from gouji.rules import ConfigError, Rules, make_rules

__all__ = ["ConfigError", "Play", "Rules", "make_rules"]
