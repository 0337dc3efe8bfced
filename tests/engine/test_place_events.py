"""How a place was taken, as the log tells the table (issue 23, item 7 b, g, a).

* ``place N`` only for a seat that went out (R9.2), or the revolutionary's 三科 (R15.4);
  ``ended N`` for a seat still holding cards when R9.9 ends the game; ``men N``,
  ``broken_burn N``, ``punished N`` for the places forced from the bottom (R9.11). The table
  announced "出完：四科" for seats placed at game end with cards in hand.
* ``wutou`` says why the 对头 left play when it did not go out (``wutou men`` …, R9.8, R9.11):
  the table said "对头已出完" for a 对头 that was 闷'd.
* ``swap_changes``: what a 二落/大落 swap changes (R16.6): 落贡 where it is paid, the next
  starter only where the 大落 leads (R3.6 ``da_luo``) — the question said the next opener
  changes in presets where the opener rotates.
"""

from __future__ import annotations

import random

import pytest

from gouji import Game, Match, make_rules
from gouji.engine.gamelog import parse

PLACED = ("place", "ended", "men", "broken_burn", "punished")


def played_out(preset: str, seed: int) -> Game:
    g = Game.new(make_rules(preset), seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("preset", ["OUTLINE_FULL", "LAIWU", "OUTLINE_CLASSIC"])
def test_a_place_says_whether_the_seat_went_out(preset: str) -> None:
    seen: set[str] = set()
    for seed in range(25):
        g = played_out(preset, seed)
        left = g.result()["hands"]  # cards left at the end (dead hands included)
        how_placed: dict[int, str] = {}
        for seat, text in g.log:
            ev = parse(seat, text)
            kind = ev["type"]
            if kind in PLACED:
                seen.add(kind)
                how_placed[seat] = kind
                if kind == "place" and seat != g.revolutionary:
                    assert left[seat] == "", (seed, seat, text)  # R9.2: went out
                if kind == "ended":
                    assert left[seat] != "", (seed, seat, text)  # R9.9: placed holding cards
            if kind == "wutou":  # R9.8: the 对头 just left play, and the event says how
                cause = how_placed[(seat + 3) % 6]
                assert ev.get("how", "place") == cause, (seed, text, cause)
                assert cause != "ended"  # the game is over then: nobody is told 无头
    assert {"place", "ended"} <= seen
    if preset != "OUTLINE_CLASSIC":  # 憋3 presets: 闷 happens
        assert "men" in seen


def test_wutou_parses_its_cause() -> None:
    assert parse(2, "wutou") == {"seat": 2, "type": "wutou"}
    assert parse(2, "wutou men") == {"seat": 2, "type": "wutou", "how": "men"}
    assert parse(2, "wutou sideways")["type"] == "other"
    assert parse(4, "ended 5") == {"seat": 4, "type": "ended", "place": 5}


def swap_match(preset: str, chuan: bool) -> Match:
    """A match whose first game ended with 二落 and 大落 teammates, asked to swap."""
    rules = make_rules(preset)
    for seed in range(400):
        m = Match(rules, seed)
        rng = random.Random(seed)
        g = m.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        m.view(0)  # settles the game
        if m.pending == "swap" and (m.results[-1]["chuan"] is not None) == chuan:
            return m
    raise AssertionError(f"no swap question in {preset}")


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("OUTLINE_FULL", ["luo"]),  # the opener rotates (R3.6 rotate): the start does not move
        ("COMP2", ["luo"]),
        ("OUTLINE_CLASSIC", ["start"]),  # no tribute; the 大落 leads next game
        ("LAIWU", ["luo", "start"]),
    ],
)
def test_the_swap_question_knows_what_a_swap_changes(preset: str, changes: list[str]) -> None:
    m = swap_match(preset, chuan=False)
    assert m.swap_changes() == changes
    assert m.view(m.to_act)["match"]["swap_changes"] == changes
    while m.to_act is not None:
        m.apply("noswap" if m.pending == "swap" else "noskip")
    assert m.view(0)["match"]["swap_changes"] is None  # no question open


def test_after_a_chuan_a_swap_changes_neither_tribute_nor_start() -> None:
    # R16.8: no 落贡 after a 串三户; R3.7: the next game is re-opened
    m = swap_match("LAIWU", chuan=True)
    assert m.swap_changes() == []
