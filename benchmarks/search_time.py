"""Time a decision of the ``search`` agent at its default budget (issue 4: under 1 s).

Plays ``--games`` games of search (team A) against the heuristic (team B) on OUTLINE_FULL and
times every search decision that has more than one legal action.
"""

from __future__ import annotations

import argparse
import json
import time

from gouji import Game, make_rules
from gouji.agents import get


def main() -> None:
    """Print one JSON line: decisions timed, median, 95th percentile and maximum in ms."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--budget-ms", type=float, default=None, help="search's budget_ms")
    args = parser.parse_args()
    options = {} if args.budget_ms is None else {"budget_ms": args.budget_ms}
    rules = make_rules("OUTLINE_FULL")
    times: list[float] = []
    for deal in range(args.games):
        agents = [
            get("search", seed=deal * 10 + s, **options)
            if s % 2 == 0
            else get("heuristic", seed=deal * 10 + s)
            for s in range(6)
        ]
        g = Game.new(rules, 500 + deal)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions()
            start = time.perf_counter()
            action = agents[seat].act(g.view(seat), legal)
            if seat % 2 == 0 and len(legal) > 1:
                times.append(time.perf_counter() - start)
            g.apply(action)
    times.sort()

    def ms(q: float) -> float:
        return round(1000 * times[min(len(times) - 1, int(q * len(times)))], 1)

    print(
        json.dumps(
            {"decisions": len(times), "median_ms": ms(0.5), "p95_ms": ms(0.95), "max_ms": ms(1.0)}
        )
    )


if __name__ == "__main__":
    main()
