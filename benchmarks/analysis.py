"""复盘's cost and its agreement with itself (issue 25; docs/performance.md, docs/strength.md).

``time``: the wall time to analyse one seat of a whole OUTLINE_FULL game with ``--jobs``
worker processes (2 on a 2-core machine), over ``--games`` games of 普通 bots (deal seeds
700, 701, …), at the default steps unless ``--steps`` says otherwise.

``agree``: every seat of ``--games`` such games analysed twice, with two analysis seeds
(``--seeds 1,2``): how often a decision's class changes, how often one run flags what the
other does not, how often the best play is the same. The figure says how far a single
analysis can be trusted decision by decision.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

from gouji import Game, make_rules
from gouji.agents import get
from gouji.review.analysis import CLASSES, DEFAULT_STEPS, analyse


def game(index: int) -> dict[str, Any]:
    """The record of a whole OUTLINE_FULL game of 普通 bots on deal seed ``700 + index``."""
    seed = 700 + index
    g = Game.new(make_rules("OUTLINE_FULL"), seed)
    bots = [get("intermediate", seed=seed * 10 + s) for s in range(6)]
    while not g.is_over:
        seat, legal = g.to_act, g.legal_actions()
        assert seat is not None
        g.apply(legal[0] if len(legal) == 1 else bots[seat].act(g.view(seat), legal))
    return g.record()


def machine() -> dict[str, Any]:
    return {"cpus": os.cpu_count(), "python": platform.python_version()}


def cmd_time(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for i in range(args.games):
        record = game(i)
        start = time.perf_counter()
        result = analyse(record, [args.seat], steps=args.steps, jobs=args.jobs)
        wall = time.perf_counter() - start
        n = len(result["decisions"])
        rows.append({"game": i, "actions": len(record["actions"]), "decisions": n, "wall_s": wall})
        print(f"game {i}: {n} decisions of seat {args.seat} in {wall:.1f} s", file=sys.stderr)
    walls = [r["wall_s"] for r in rows]
    per = sum(walls) / max(1, sum(r["decisions"] for r in rows))
    return {
        "what": "time",
        "steps": args.steps,
        "jobs": args.jobs,
        "seat": args.seat,
        "games": rows,
        "median_wall_s": statistics.median(walls),
        "wall_s_a_decision": per,
        **machine(),
    }


def cmd_agree(args: argparse.Namespace) -> dict[str, Any]:
    a_seed, b_seed = (int(s) for s in args.seeds.split(","))
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for i in range(args.games):
        record = game(i)
        runs = [analyse(record, steps=args.steps, seed=s, jobs=args.jobs) for s in (a_seed, b_seed)]
        pairs += list(zip(runs[0]["decisions"], runs[1]["decisions"], strict=True))
        print(f"game {i}: {len(runs[0]['decisions'])} decisions", file=sys.stderr)
    n = len(pairs)
    rank = {c: k for k, c in enumerate(CLASSES)}
    changed = sum(a["class"] != b["class"] for a, b in pairs)
    moved_two = sum(abs(rank[a["class"]] - rank[b["class"]]) >= 2 for a, b in pairs)
    either = sum(a["class"] != "good" or b["class"] != "good" for a, b in pairs)
    both = sum(a["class"] != "good" and b["class"] != "good" for a, b in pairs)
    same_best = sum(a["best"] == b["best"] for a, b in pairs)
    flagged = {c: [sum(p[k]["class"] == c for p in pairs) for k in (0, 1)] for c in CLASSES}
    # how each class of the first run fared in the second: {first: {second: count}}
    crossed = {
        c: {e: sum(a["class"] == c and b["class"] == e for a, b in pairs) for e in CLASSES}
        for c in CLASSES
    }
    return {
        "what": "agree",
        "steps": args.steps,
        "seeds": [a_seed, b_seed],
        "games": args.games,
        "decisions": n,
        "class_changed": changed / n,
        "moved_two_classes": moved_two,
        "flagged_either": either,
        "flagged_both": both,
        "same_best": same_best / n,
        "classes": flagged,
        "crossed": crossed,
        **machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("time", "agree"):
        p = sub.add_parser(name)
        p.add_argument("--games", type=int, default=3)
        p.add_argument("--steps", type=int, default=DEFAULT_STEPS)
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    sub.choices["time"].add_argument("--seat", type=int, default=0)
    sub.choices["agree"].add_argument("--seeds", default="1,2")
    args = parser.parse_args()
    out = cmd_time(args) if args.what == "time" else cmd_agree(args)
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            if key != "games" or args.what != "time":
                print(f"{key}: {value}")


if __name__ == "__main__":
    main()
