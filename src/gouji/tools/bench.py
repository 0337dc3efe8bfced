"""Speed and memory of the engine under uniform-random play (docs/design.md §4: measured,
not assumed).

A *decision* is one ``apply`` call; each costs one ``legal_actions()`` plus a uniform choice.
"""

from __future__ import annotations

import gc
import random
import time
import tracemalloc
from dataclasses import asdict, dataclass

from gouji.engine.match import Match
from gouji.engine.referee.game import Game
from gouji.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class BenchResult:
    """Figures of one benchmark run."""

    preset: str
    games: int
    decisions: int
    seconds: float
    decisions_per_s: float
    games_per_s: float
    ms_per_game: float
    decisions_per_game: float
    game_bytes: int
    clone_bytes: int

    def as_dict(self) -> dict[str, object]:
        """The figures as a JSON-ready dict."""
        return asdict(self)


def play_random(game: Game, rng: random.Random) -> int:
    """Play ``game`` to its end with uniformly random legal actions; returns the decisions."""
    n = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        n += 1
    return n


def run_games(rules: Rules, games: int, seed: int = 0) -> tuple[int, float]:
    """Play ``games`` random games from seeds ``seed…``; (decisions, seconds)."""
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        decisions += play_random(Game.new(rules, seed + i), random.Random(seed + i))
    return decisions, time.perf_counter() - start


def midgame(rules: Rules, seed: int) -> Game:
    """A game played randomly to about half of its decisions (a typical game in progress)."""
    probe = Game.new(rules, seed)
    total = play_random(probe, random.Random(seed))
    g = Game.new(rules, seed)
    rng = random.Random(seed)
    for _ in range(total // 2):
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g


def memory(rules: Rules, seed: int = 0) -> tuple[int, int]:
    """(bytes held by a game in progress, bytes of one ``clone()`` of it), by tracemalloc.

    Shared, interned values (plays, actions, the rules) are warmed up first so only what
    belongs to the game itself is counted.
    """
    midgame(rules, seed)  # warm the intern caches
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    g = midgame(rules, seed)
    gc.collect()
    game_bytes = tracemalloc.get_traced_memory()[0] - before
    mid = tracemalloc.get_traced_memory()[0]
    c = g.clone()
    clone_bytes = tracemalloc.get_traced_memory()[0] - mid
    tracemalloc.stop()
    del c, g
    return game_bytes, clone_bytes


def bench(rules: Rules, games: int, seed: int = 0) -> BenchResult:
    """Run the benchmark: speed over ``games`` random games, then memory."""
    run_games(rules, min(games, 5), seed + 10_000)  # warm-up
    decisions, seconds = run_games(rules, games, seed)
    game_bytes, clone_bytes = memory(rules, seed)
    return BenchResult(
        preset=rules.preset,
        games=games,
        decisions=decisions,
        seconds=round(seconds, 3),
        decisions_per_s=round(decisions / seconds, 1),
        games_per_s=round(games / seconds, 2),
        ms_per_game=round(1000 * seconds / games, 3),
        decisions_per_game=round(decisions / games, 1),
        game_bytes=game_bytes,
        clone_bytes=clone_bytes,
    )


@dataclass(frozen=True, slots=True)
class MatchBenchResult:
    """Figures of random matches."""

    preset: str
    matches: int
    games: int
    decisions: int
    seconds: float
    matches_per_s: float
    games_per_s: float
    decisions_per_s: float

    def as_dict(self) -> dict[str, object]:
        """The figures as a JSON-ready dict."""
        return asdict(self)


def play_random_match(rules: Rules, seed: int, games: int) -> tuple[int, int]:
    """One random match (``games`` long; MATCH7 by its own rule); (games, decisions)."""
    m = Match(rules, seed, games=None if rules.score_system == "match7" else games)
    rng = random.Random(seed)
    decisions = 0
    while True:
        while m.to_act is not None:
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        if m.is_over:
            return len(m.results), decisions
        m.next_game()


def bench_matches(rules: Rules, matches: int, games: int = 4, seed: int = 0) -> MatchBenchResult:
    """Random matches in one process: matches/s, games/s, decisions/s."""
    play_random_match(rules, seed + 10_000, games)  # warm-up
    total_games = decisions = 0
    start = time.perf_counter()
    for i in range(matches):
        g, d = play_random_match(rules, seed + i, games)
        total_games += g
        decisions += d
    seconds = time.perf_counter() - start
    return MatchBenchResult(
        preset=rules.preset,
        matches=matches,
        games=total_games,
        decisions=decisions,
        seconds=round(seconds, 3),
        matches_per_s=round(matches / seconds, 2),
        games_per_s=round(total_games / seconds, 2),
        decisions_per_s=round(decisions / seconds, 1),
    )
