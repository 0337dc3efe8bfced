"""The pure-Python build beside the compiled one (issue 24), measured in one run.

Each measure runs in a fresh interpreter, once with ``GOUJI_PURE=1`` and once as installed
(compiled where the install could compile), the two alternated ``--rounds`` times so that a
busy moment of the machine does not favour one build; the median of the rounds is reported.
RLCard's Dou Dizhu environment runs in the same run when it is installed (``make
bench-compare`` installs it). Measures:

- ``engine``: ``gouji bench``'s uniform-random OUTLINE_FULL games, decisions/s;
- ``heuristic``: whole games of six heuristic bots (what a 大师 play-out is), decisions/s;
- ``env``: the PettingZoo ``raw_env`` loop of benchmarks/env_speed.py, decisions/s;
- ``master``: 大师's decisions against the heuristic (benchmarks/search_time.py, one game at
  a time), median / 95th percentile / maximum ms.

``.venv/bin/python benchmarks/builds.py --rounds 3`` (about 15 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

CHILD = """
import json, random, sys, time
sys.path.insert(0, {here!r})
import gouji.build
from gouji import Game, make_rules
measure, size = sys.argv[1], int(sys.argv[2])
out = {{"build": gouji.build.running()["build"]}}
if measure == "engine":
    from gouji.tools.bench import bench
    out["per_s"] = bench(make_rules("OUTLINE_FULL"), size).decisions_per_s
elif measure == "heuristic":
    from gouji.agents import get
    rules, decisions = make_rules("OUTLINE_FULL"), 0
    start = time.perf_counter()
    for seed in range(size):
        g = Game.new(rules, 700 + seed)
        bots = [get("heuristic", seed=seed * 6 + s) for s in range(6)]
        while not g.is_over:
            seat = g.to_act
            g.apply(bots[seat].act(g.view(seat), g.legal_actions()))
            decisions += 1
    out["per_s"] = decisions / (time.perf_counter() - start)
elif measure == "env":
    from env_speed import env_loop
    from gouji.env import raw_env
    start = time.perf_counter()
    decisions = env_loop(raw_env("OUTLINE_FULL"), range(size), "same")
    out["per_s"] = decisions / (time.perf_counter() - start)
elif measure == "master":
    from search_time import play
    times = sorted(t for game in range(size) for t in play((game, "master", {{}})))
    pick = lambda q: 1000 * times[min(len(times) - 1, int(q * len(times)))]
    out.update(decisions=len(times), median_ms=pick(0.5), p95_ms=pick(0.95), max_ms=pick(1.0))
print(json.dumps(out))
"""


def child(measure: str, size: int, pure: bool) -> dict[str, Any]:
    """One measure in a fresh interpreter of the chosen build."""
    env = {k: v for k, v in os.environ.items() if k != "GOUJI_PURE"}
    if pure:
        env["GOUJI_PURE"] = "1"
    code = CHILD.format(here=str(HERE))
    done = subprocess.run(
        [sys.executable, "-c", code, measure, str(size)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if result["build"] != ("pure" if pure else "compiled"):
        raise SystemExit(f"{measure}: expected the {'pure' if pure else 'compiled'} build")
    return result


def rlcard_figure(seconds: float) -> float | None:
    """RLCard's Dou Dizhu decisions/s, or None where RLCard is not installed."""
    try:
        sys.path.insert(0, str(HERE))
        from compare_rlcard import rlcard_doudizhu
    except ImportError:
        return None
    try:
        return rlcard_doudizhu(seconds)["decisions_per_s"]
    except ImportError:
        return None


def main() -> None:
    """Print a table (or ``--json``) of both builds' medians, side by side."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engine-games", type=int, default=500)
    parser.add_argument("--heuristic-games", type=int, default=40)
    parser.add_argument("--env-games", type=int, default=60)
    parser.add_argument("--master-games", type=int, default=1)
    parser.add_argument("--rlcard-seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = {
        "engine": args.engine_games,
        "heuristic": args.heuristic_games,
        "env": args.env_games,
        "master": args.master_games,
    }
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        m: {"pure": [], "compiled": []} for m in sizes
    }
    rlcard: list[float] = []
    for r in range(args.rounds):
        for measure, size in sizes.items():
            order = (True, False) if r % 2 == 0 else (False, True)
            for pure in order:
                runs[measure]["pure" if pure else "compiled"].append(child(measure, size, pure))
        figure = rlcard_figure(args.rlcard_seconds)
        if figure is not None:
            rlcard.append(figure)
    out: dict[str, Any] = {
        "machine": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "rounds": args.rounds,
        "sizes": sizes,
    }
    for measure, builds in runs.items():
        out[measure] = {}
        for build, results in builds.items():
            keys = [k for k in results[0] if k != "build"]
            out[measure][build] = {k: statistics.median(x[k] for x in results) for k in keys}
    out["rlcard_doudizhu_per_s"] = statistics.median(rlcard) if rlcard else None
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['machine']}, {out['cpus']} cores, median of {args.rounds} alternated rounds")
    for measure in ("engine", "heuristic", "env"):
        p, c = out[measure]["pure"]["per_s"], out[measure]["compiled"]["per_s"]
        print(f"{measure:10} pure {p:>10,.0f}/s  compiled {c:>10,.0f}/s  {c / p:.2f}x")
    for build in ("pure", "compiled"):
        m = out["master"][build]
        print(
            f"master     {build:8} {m['decisions']:.0f} decisions: median {m['median_ms']:.0f} ms,"
            f" p95 {m['p95_ms']:.0f} ms, max {m['max_ms']:.0f} ms"
        )
    if out["rlcard_doudizhu_per_s"] is not None:
        print(f"rlcard     doudizhu {out['rlcard_doudizhu_per_s']:>10,.0f}/s")


if __name__ == "__main__":
    main()
