"""Random matches for every preset (issue 3): cards are conserved through tribute and buying,
totals are the sum of the games, the next opener and starter follow R3.6/R3.7, and match
records replay to the same totals and state."""

from __future__ import annotations

import json
import random

import pytest

from gouji import Match, make_rules
from gouji.engine.cards import deck_counts
from gouji.engine.rules import PRESET_NAMES
from gouji.engine.tribute import obligations

MATCHES = 12
GAMES = 4


def play_match(preset: str, seed: int) -> Match:
    rules = make_rules(preset)
    deck = sum(deck_counts(rules.deck_remove))
    m = Match(rules, seed, games=None if rules.score_system == "match7" else GAMES)
    rng = random.Random(seed)
    while True:
        while m.to_act is not None:
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
            assert m.game.count_cards() == deck  # tribute, 还贡 and buying only move cards
        if m.is_over:
            return m
        m.next_game(replaced=2 if rng.random() < 0.05 else 0)


def check_openings(m: Match) -> None:
    """R3.6 later games, R3.7 re-opening, R16.1 / R16.8 tribute, R13.8 会5."""
    rules = m.rules
    for i in range(1, len(m.games)):
        g, prev = m.games[i], m.results[i - 1]
        replaced = m.replaced[i]
        chuan = prev["chuan"]
        reopen = replaced >= 2 or (chuan is not None and rules.open_reopen_after_chuan)
        if rules.open_later_start == "rotate":
            assert g.opener == (m.first_opener + i) % 6
        elif reopen:
            assert g.opener == (m.first_opener + 1) % 6
        else:
            assert g.first_taker == prev["places"].index(6)  # the 大落 takes first …
            if g.revolutionary != g.first_taker:
                assert g.starter == g.first_taker  # … and leads
        skipped = m.prompt_answers[i - 1].count("skip") == 6  # R16.11: all six agreed
        expected = [] if replaced >= 2 else obligations(rules, prev, skip_all=skipped)
        assert g.tribute == expected
        assert g.hui5_team == (1 - chuan if chuan is not None and rules.laiwu_hui5 else None)


def check_totals(m: Match) -> None:
    """R17.5: totals are the sum of the recorded game scores (since the last R17.3 reset)."""
    results = m.results
    start = 0
    if m.rules.score_system == "match7" and m.resets:
        start = len(results) - 1
    sums = [sum(r["team_scores"][t] for r in results[start:]) for t in (0, 1)]
    assert m.totals == sums


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_matches(preset: str) -> None:
    for seed in range(MATCHES):
        m = play_match(preset, seed)
        assert m.is_over
        for r in m.results:
            assert sorted(r["places"]) == [1, 2, 3, 4, 5, 6]
        check_openings(m)
        check_totals(m)
        again = Match.from_record(json.loads(json.dumps(m.record())))
        assert again.totals == m.totals
        assert [r["places"] for r in again.results] == [r["places"] for r in m.results]
        assert [g.log for g in again.games] == [g.log for g in m.games]


def test_match7_plays_three_games_then_breaks_ties() -> None:
    m = play_match("MATCH7", 3)
    assert len(m.results) >= 3
    assert m.winner in (0, 1) and m.totals[0] != m.totals[1]


def test_prompts_and_errors() -> None:
    """R16.6: the swap prompt asks 二落 then 大落; next_game waits for it; bad answers fail."""
    rules = make_rules("OUTLINE_CLASSIC")
    for seed in range(40):
        m = Match(rules, seed, games=3)
        rng = random.Random(seed)
        while not m.game.is_over:
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
        if m.pending != "swap":
            continue
        places = list(m.results[0]["places"])
        assert m.to_act == places.index(5)
        with pytest.raises(ValueError, match="swap"):
            m.next_game()
        with pytest.raises(ValueError, match=r"R16\.6"):
            m.apply("pass")
        m.apply("swap")
        assert m.to_act == places.index(6)
        m.apply("swap")
        swapped = m.results[0]["places"]
        assert swapped.index(6) == places.index(5) and m.results[0]["swapped"]
        g = m.next_game()
        assert g.first_taker == places.index(5)  # the new 大落 takes first (R3.6)
        return
    pytest.fail("no seed gave teammates as 二落 and 大落")
