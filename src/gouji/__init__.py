"""gouji — the Shandong six-player card game 够级 (Gouji): rules engine and tools.

The public contract (DESIGN.md §3) is importable from here.
"""

from gouji.actions import Action, IllegalAction
from gouji.game import SANCTIONS, Game, SanctionError, UnsupportedRules
from gouji.match import Match, MatchError
from gouji.plays import Play
from gouji.policy import timeout_action
from gouji.record import RecordError
from gouji.rules import ConfigError, Rules, make_rules

__all__ = [
    "SANCTIONS",
    "Action",
    "ConfigError",
    "Game",
    "IllegalAction",
    "Match",
    "MatchError",
    "Play",
    "RecordError",
    "Rules",
    "SanctionError",
    "UnsupportedRules",
    "make_rules",
    "timeout_action",
]
