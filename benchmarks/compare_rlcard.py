"""gouji's random-play speed beside RLCard's Dou Dizhu environment, in one run.

Both loops do the same work per decision: ask for the legal actions, pick one uniformly,
step. Run with ``make bench-compare`` (installs the ``bench`` extra: rlcard, numpy).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from gouji.engine.rules import make_rules
from gouji.tools.bench import bench


def rlcard_doudizhu(seconds: float, seed: int = 0) -> dict[str, float]:
    """Decisions/s and games/s of RLCard's ``doudizhu`` env under uniform-random play."""
    import rlcard

    env: Any = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed}


def main() -> None:
    """Print both measurements (and their ratio) as text or one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500, help="gouji games")
    parser.add_argument("--seconds", type=float, default=10.0, help="RLCard measuring time")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ours = {
        p: bench(make_rules(p), args.games).as_dict() for p in ("OUTLINE_FULL", "OUTLINE_CLASSIC")
    }
    theirs = rlcard_doudizhu(args.seconds)
    full = ours["OUTLINE_FULL"]
    ratio = float(str(full["decisions_per_s"])) / theirs["decisions_per_s"]
    out = {
        "machine": platform.processor() or platform.machine(),
        "gouji": ours,
        "rlcard_doudizhu": theirs,
        "ratio_decisions_per_s": round(ratio, 2),
    }
    if args.json:
        print(json.dumps(out))
        return
    for preset, r in ours.items():
        print(
            f"gouji {preset:16} {r['decisions_per_s']:>10,.0f} decisions/s "
            f"{r['games_per_s']:>8,.1f} games/s  {r['ms_per_game']} ms/game"
        )
    print(
        f"rlcard doudizhu        {theirs['decisions_per_s']:>10,.0f} decisions/s "
        f"{theirs['games_per_s']:>8,.1f} games/s"
    )
    print(f"gouji OUTLINE_FULL / rlcard doudizhu decisions/s: {ratio:.1f}x")


if __name__ == "__main__":
    main()
