"""Random agents through the PettingZoo environment: each picks uniformly among the actions its
action mask allows. Trains nothing; prints each team's mean reward over the games.

    pip install 'gouji[env]'
    python examples/random_agents.py --preset OUTLINE_FULL --games 20 --seed 0
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from gouji.env import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="OUTLINE_FULL")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reward", default="score", choices=["score", "points", "win"])
    args = parser.parse_args()

    e: Any = env(args.preset, reward=args.reward)
    rng = np.random.default_rng(args.seed)
    totals = {"A": 0.0, "B": 0.0}
    e.reset(seed=args.seed)  # seeds this game and the seeds of the games after it
    for game in range(args.games):
        if game:
            e.reset()
        final: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                final[agent] = float(reward)
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))  # bool: numpy's fast path
            e.step(int(rng.choice(legal)))
        # seat i is player_i; team A = seats 0, 2, 4, team B = 1, 3, 5: every member gets
        # its team's reward, so one seat of each team says it
        totals["A"] += final["player_0"]
        totals["B"] += final["player_1"]
        print(f"game {game + 1}: team A {final['player_0']:+g}, team B {final['player_1']:+g}")
    for team, total in totals.items():
        print(f"team {team}: mean reward {total / args.games:+.3f} over {args.games} games")


if __name__ == "__main__":
    main()
