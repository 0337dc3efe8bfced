"""Ratings of rated rooms: openskill's Plackett-Luce with the game's two teams of three.

Every finished game of a rated room is one match of two teams (R1.2: seats 1, 3, 5 against
2, 4, 6), ranked by their points in the game (``team_points``: places and bonuses, R17; equal
points are a draw). A player's rating is per preset (one rating per rule set). Bots take part
with the fixed ratings they earned in the level league (docs/strength.md, seeds 40, 41, 42):
their rating is read, never changed, so a player at a table of five bots still earns a rating
on the same scale as the bots'. A player with fewer than ``PROVISIONAL_GAMES`` games is
*provisional*; the leaderboard lists players from ``LISTED_GAMES`` games, ordered by the
ordinal mu − 3·sigma (what the player has shown with near certainty).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from gouji.agents.ratings import BOT_RATINGS

PROVISIONAL_GAMES = 20
LISTED_GAMES = 5
MODEL = PlackettLuce()  # mu 25, sigma 25/3: a new player


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)


def bot_rating(bot: str) -> Rating:
    """A bot level's fixed rating (``gouji.agents.ratings``; KeyError for a bot without)."""
    mu, sigma = BOT_RATINGS[bot]
    return Rating(mu, sigma)


def rate_game(before: Sequence[Rating], team_points: Sequence[int]) -> list[Rating]:
    """Every seat's rating after one game: ``before`` by seat (0–5), the teams' points by
    team (0: seats 1/3/5, 1: seats 2/4/6). The caller keeps a bot's rating as it was."""
    if len(before) != 6 or len(team_points) != 2:
        raise ValueError("a game has six seats in two teams")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in before[t::2]] for t in (0, 1)]
    a, b = team_points
    ranks = [0.0, 0.0] if a == b else ([0.0, 1.0] if a > b else [1.0, 0.0])
    rated = MODEL.rate(teams, ranks=ranks)
    after: list[Rating] = [NEW] * 6
    for t in (0, 1):
        for i, r in enumerate(rated[t]):
            after[t + 2 * i] = Rating(float(r.mu), float(r.sigma))
    return after
