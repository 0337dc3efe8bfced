"""gouji — the Shandong six-player card game 够级 (Gouji): rules engine and tools.

The public contract (docs/design.md §3) is importable from here.
"""

from gouji.build import choose as _choose_build

_choose_build()  # compiled or pure (gouji.build): decided before the engine is imported

from gouji.engine.actions import Action, IllegalAction  # noqa: E402
from gouji.engine.match import Match, MatchError  # noqa: E402
from gouji.engine.plays import Play  # noqa: E402
from gouji.engine.policy import timeout_action  # noqa: E402
from gouji.engine.referee.game import SANCTIONS, Game, SanctionError, UnsupportedRules  # noqa: E402
from gouji.engine.referee.record import RecordError  # noqa: E402
from gouji.engine.rules import ConfigError, Rules, make_rules  # noqa: E402

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
