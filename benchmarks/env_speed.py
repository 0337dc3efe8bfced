"""The PettingZoo environment's overhead: random play through the engine, ``raw_env`` and
``env()``, on the same games.

Each loop plays ``--games`` games from seeds ``seed … seed+games−1`` and, at every decision,
picks the legal action ``rng.randrange(len(legal))`` of the engine's list with one
``random.Random(seed)`` per game, so the three loops play the very same games and decisions:

- ``engine``: ``Game.new`` + ``legal_actions()`` + ``apply`` (the baseline);
- ``raw_env``: ``last()`` (the seat's view, the observation vector, the action mask) +
  ``step(index)``;
- ``env()``: the same through PettingZoo's wrappers (order enforcing, bounds assertion);
- ``env() + mask sampling``: ``env()`` choosing from the mask as a masked policy does
  (``np.flatnonzero(mask.view(bool))``; other games, as the choice differs);
- ``env() + action_space.sample``: gymnasium's ``Discrete.sample(mask)`` (fewer games).

Bounded: ``--games 300`` (each loop run ``--repeat 3`` times, the fastest kept) takes about
two minutes on two cores. Requires the ``env`` extra.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gouji import Game, make_rules
from gouji.env import env, raw_env


def engine_loop(preset: str, seeds: range) -> int:
    rules = make_rules(preset)
    decisions = 0
    for seed in seeds:
        g = Game.new(rules, seed)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def env_loop(e: Any, seeds: range, choose: str) -> int:
    """Decisions made; ``choose``: ``same`` (the engine's choice), ``mask`` or ``sample``."""
    decisions = 0
    for seed in seeds:
        e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, _reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            if choose == "same":
                idx = info["legal_indices"]
                action = idx[rng.randrange(len(idx))]
            elif choose == "mask":
                legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
                action = int(legal[rng.randrange(len(legal))])
            else:
                action = e.action_space(agent).sample(obs["action_mask"])
            e.step(action)
            decisions += 1
    return decisions


def timed(run: Callable[[], int], repeat: int) -> dict[str, float]:
    """The fastest of ``repeat`` runs (the machine is shared: the slower ones waited)."""
    best = float("inf")
    decisions = 0
    for _ in range(repeat):
        start = time.perf_counter()
        decisions = run()
        best = min(best, time.perf_counter() - start)
    return {"decisions": decisions, "seconds": round(best, 3), "per_s": decisions / best}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="OUTLINE_FULL")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each loop; the fastest")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    few = range(args.seed, args.seed + max(1, args.games // 10))
    n = args.repeat
    rows = {
        "engine": timed(lambda: engine_loop(args.preset, seeds), n),
        "raw_env": timed(lambda: env_loop(raw_env(args.preset), seeds, "same"), n),
        "env()": timed(lambda: env_loop(env(args.preset), seeds, "same"), n),
        "env() + mask sampling": timed(lambda: env_loop(env(args.preset), seeds, "mask"), n),
        "env() + action_space.sample": timed(lambda: env_loop(env(args.preset), few, "sample"), n),
    }
    same = {rows[k]["decisions"] for k in ("engine", "raw_env", "env()")}
    assert len(same) == 1, f"the loops played different games: {same}"
    out = {
        "preset": args.preset,
        "games": args.games,
        "repeat": n,
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "rows": rows,
    }
    if args.json:
        print(json.dumps(out))
        return
    base = rows["engine"]["per_s"]
    print(f"{args.preset}, seeds {seeds.start}…{seeds.stop - 1}, {out['machine']}")
    for name, r in rows.items():
        us = 1e6 / r["per_s"]
        print(
            f"{name:30} {r['decisions']:>8} decisions {r['seconds']:>8.2f} s "
            f"{r['per_s']:>10,.0f}/s {us:7.1f} µs  ×{base / r['per_s']:.1f}"
        )


if __name__ == "__main__":
    main()
