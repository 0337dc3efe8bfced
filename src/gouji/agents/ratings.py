"""The bots' fixed ratings: the (mu, sigma) each bot level earned in the level league.

They sit beside the bot levels (``gouji.agents.levels``) because they describe the bots, not
a server: the server's rated rooms refuse a bot without one (``gouji.server.tables.protocol``)
and rate players against them, never changing them (``gouji.server.players.ratings``;
docs/strength.md, seeds 40, 41, 42). A plain module, not compiled.
"""

from __future__ import annotations

#: (mu, sigma) of each bot level in the level league (docs/strength.md; ``heuristic`` is 高手).
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "master": (26.46, 1.52),
    "expert": (23.40, 1.65),
    "heuristic": (23.40, 1.65),
    "intermediate": (14.68, 1.59),
    "beginner": (9.85, 1.57),
}

__all__ = ["BOT_RATINGS"]
