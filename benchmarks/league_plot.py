"""Draw a league from `gouji arena --json` (docs/strength.md's levels plot).

Left: every agent's openskill rating (mu, bars ± 3 sigma), strongest at the top. Right: each
pair's win rate of the first agent with its 95% interval (pooled over the run's seeds), the
50% line marking "no stronger". Reads the JSON line from a file or stdin.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def draw(data: dict[str, Any], path: str) -> None:
    """Write the PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = sorted(data["ratings"].items(), key=lambda kv: kv[1]["ordinal"])
    pairs = data["pairs"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 0.6 * max(len(ratings), 4) + 1.2))
    names = [name for name, _ in ratings]
    mus = [r["mu"] for _, r in ratings]
    left.barh(names, mus, xerr=[3 * r["sigma"] for _, r in ratings], color="#4a9", capsize=4)
    left.axvline(0, color="grey", lw=0.8)
    left.set_xlabel("openskill mu (bars: ± 3 sigma)")
    left.set_title("ratings")
    labels = [f"{p['agents'][0]} vs {p['agents'][1]}" for p in pairs][::-1]
    rates = [100 * p["win_rate"] for p in pairs][::-1]
    low = [100 * (p["win_rate"] - p["ci95"][0]) for p in pairs][::-1]
    high = [100 * (p["ci95"][1] - p["win_rate"]) for p in pairs][::-1]
    right.barh(labels, rates, xerr=[low, high], color="#e83", capsize=4)
    right.axvline(50, color="grey", lw=0.8, ls="--")
    right.set_xlim(0, 100)
    right.set_xlabel("win rate of the first agent, % (bars: 95% interval)")
    right.set_title("pairs")
    seeds = ", ".join(str(s) for s in data.get("seeds") or [data["seed"]])
    fig.suptitle(
        f"gouji league — {data['preset']}, {data['schedule']} schedule, "
        f"{data['deals']} duplicate deals a pair, seeds {seeds}",
        fontsize=11,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("json", nargs="?", help="the arena's JSON line (default: stdin)")
    parser.add_argument("--out", required=True, help="the PNG to write")
    args = parser.parse_args()
    text = Path(args.json).read_text(encoding="utf-8") if args.json else sys.stdin.read()
    draw(json.loads(text), args.out)


if __name__ == "__main__":
    main()
