"""The arena's deals/s with ``--jobs`` beside Ray, on the same deals (issue 12, loopback only).

Starts a throwaway Ray head on 127.0.0.1 with as many CPUs as ``--jobs`` (``gouji.tools.cluster.
loopback_head``), then plays the same duplicate deals three ways: in ``--jobs`` processes, on
Ray from a fresh driver (its workers start and import gouji during the run: what one
``gouji arena --ray`` pays), and on Ray again from the same driver (workers warm: the
steady state of a long run). It checks the three give the same figures and prints one JSON
line. Each way runs ``--repeat`` times (the first two interleaved) and keeps its fastest
run, as the machine may be busy with other work. Bounded: a fixed number of deals and runs,
and the head is stopped whatever happens.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from gouji.tools import arena
from gouji.tools.cluster import loopback_head

RUN_KEYS = ("seconds", "decisions_per_s", "ms_per_decision", "jobs", "ray")


def _figures(result: arena.ArenaResult) -> dict[str, object]:
    """The result without the clock and the place it ran (equal for equal deals)."""
    d = result.as_dict()
    for key in RUN_KEYS:
        d.pop(key)
    return d


def _row(result: arena.ArenaResult, wall: float) -> dict[str, float]:
    """deals/s over the arena's own clock (pool ready to last result) and over the whole
    call (starting processes or connecting to Ray, and stopping, included)."""
    return {
        "deals_per_s": round(result.deals / result.seconds, 1),
        "deals_per_s_whole_call": round(result.deals / wall, 1),
        "decisions_per_s": round(result.decisions_per_s),
        "seconds": round(result.seconds, 2),
        "whole_call_s": round(wall, 2),
    }


def main() -> None:
    """Print one JSON line: the setup and, per way of running, deals/s and decisions/s."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agents", default="heuristic,greedy")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--preset", default="OUTLINE_CLASSIC")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="processes, and the head's CPUs")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each way (the best kept)")
    args = parser.parse_args()
    agents = args.agents.split(",")
    best: dict[str, tuple[arena.ArenaResult, float]] = {}
    figures: list[dict[str, object]] = []

    def play(jobs: int = 1, ray: str | bool = False) -> tuple[arena.ArenaResult, float]:
        start = time.perf_counter()
        result = arena.run(args.preset, agents, args.deals, seed=args.seed, jobs=jobs, ray=ray)
        return result, time.perf_counter() - start

    def keep(way: str, run: tuple[arena.ArenaResult, float]) -> None:
        figures.append(_figures(run[0]))
        if way not in best or run[0].seconds < best[way][0].seconds:
            best[way] = run

    with loopback_head(num_cpus=args.jobs) as address:
        for _ in range(args.repeat):
            keep("jobs", play(jobs=args.jobs))
            keep("ray_fresh_driver", play(ray=address))
        import ray  # after loopback_head: it sets what Ray reads on import

        ray.init(address=address, logging_level="warning")
        try:
            figures.append(_figures(play(ray=True)[0]))  # the workers start, import gouji
            for _ in range(args.repeat):
                keep("ray_warm_workers", play(ray=True))
        finally:
            ray.shutdown()
    if any(f != figures[0] for f in figures):
        raise SystemExit("Ray and --jobs disagree on the same deals: a bug")
    print(
        json.dumps(
            {
                "agents": agents,
                "preset": args.preset,
                "deals": args.deals,
                "seed": args.seed,
                "cpus": os.cpu_count(),
                "repeat": args.repeat,
                **{way: _row(*run) for way, run in best.items()},
                "ray_cpus": best["ray_warm_workers"][0].jobs,
            }
        )
    )


if __name__ == "__main__":
    main()
