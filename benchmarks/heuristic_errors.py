"""Where the heuristic errs, as a long search sees it (issue 13 item 3).

Plays heuristic games on OUTLINE_FULL; at play decisions with a choice a search with a large
work budget compares the heuristic's choice with the other candidates over the same samples.
Where another candidate gains clearly (mean gain above ``--gain`` points with ``--z`` standard
errors), the decision is a *disagreement*. Prints one JSON line a disagreement (phase, the
hand size, the standing play, the heuristic's choice, the search's, gain and its standard
error) and a summary by kind: what to teach the heuristic, each change then measured in the
arena like any other claim.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from multiprocessing import Pool
from typing import Any

from gouji import Game, make_rules
from gouji.agents.heuristic import HeuristicAgent
from gouji.agents.search import SearchAgent, paired_gain
from gouji.engine.actions import Action


def kind(a: Action) -> str:
    """pass / a word / the play's shape (size, and whether it spends a 2 or joker)."""
    if a.play is None:
        return a.kind
    p = a.play
    dear = "+ctrl" if (p.n2 or p.has_joker) else ""
    return f"{a.kind}{p.size}{dear}"


def examine(task: tuple[int, int, float, float, float]) -> list[dict[str, Any]]:
    """The disagreements of one heuristic game (seed ``game``)."""
    game, steps, gain, z, share = task
    rng = random.Random(game)
    heuristic = HeuristicAgent()
    search = SearchAgent(seed=game, budget_ms=1e12, samples=10**6, steps=steps, margin=0, z=0)
    g = Game.new(make_rules("OUTLINE_FULL"), 9000 + game)
    found: list[dict[str, Any]] = []
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        legal = g.legal_actions()
        view = g.view(seat)
        mine = heuristic.act(view, legal)
        if g.pending in ("lead", "respond") and len(legal) > 1 and rng.random() < share:
            search.act(view, legal)
            last = search.last
            if last and len(last["counts"]) > 1:
                outcomes = last["outcomes"]
                best = max(range(1, len(outcomes)), key=lambda i: last["gains"][i])
                mean, se = paired_gain(outcomes[best], outcomes[0])
                if mean > gain and se > 0 and mean / se >= z:
                    found.append(
                        {
                            "game": game,
                            "phase": g.pending,
                            "hand": sum(g.hands[seat]),
                            "standing": g.standing.text if g.standing is not None else None,
                            "heuristic": mine.text,
                            "search": last["candidates"][best],
                            "kinds": [kind(mine), kind(Action.parse(last["candidates"][best]))],
                            "gain": round(mean, 2),
                            "se": round(se, 2),
                            "samples": len(outcomes[best]),
                        }
                    )
        g.apply(mine)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=40_000, help="the search's work budget")
    parser.add_argument("--share", type=float, default=0.25, help="decisions examined")
    parser.add_argument("--gain", type=float, default=1.0, help="points a game")
    parser.add_argument("--z", type=float, default=3.0)
    args = parser.parse_args()
    tasks = [(game, args.steps, args.gain, args.z, args.share) for game in range(args.games)]
    with Pool(args.jobs) as pool:
        found = [d for game in pool.map(examine, tasks) for d in game]
    for d in found:
        print(json.dumps(d, ensure_ascii=False))
    by_kind = Counter((d["phase"], *d["kinds"]) for d in found)
    summary = {" → ".join(k): n for k, n in by_kind.most_common()}
    print(json.dumps({"disagreements": len(found), "by_kind": summary}, ensure_ascii=False))


if __name__ == "__main__":
    main()
