"""The text report of ``gouji tournament``: extra games (R17.3) and lots (D55), issue 22."""

from __future__ import annotations

from gouji.competition import Event
from gouji.competition.report import summary, text_report

PLACES = [1, 2, 3, 4, 5, 6]


def _knockout(games: int) -> Event:
    ev = Event("抽签杯", "MATCH7", "knockout", games=games, mode="paper")
    ev.add_team("东队", ["甲", "乙", "丙"])
    ev.add_team("西队", ["丁", "戊", "己"])
    ev.draw_round()
    return ev


def _play(ev: Event, *scores: tuple[int, int]) -> None:
    """Games of the current round's only table with these team scores (A, B)."""
    t = ev.open_tables()[0]
    for a, b in scores:
        ev.record_result(t.id, len(t.games), {"places": PLACES, "team_scores": [a, b]})


def test_a_tie_decided_by_lot_says_so() -> None:
    """D55: still tied after 1 + 5 games, the lot decides; the text and JSON say it, and
    that the totals are those of the last extra game."""
    ev = _knockout(1)
    _play(ev, *[(12, 12)] * 6)
    (m,) = summary(ev)["rounds"][0]
    assert m["by_lot"] and m["extra_games"] == 5 and m["games"] == 6
    assert ev.is_over and m["winner"] is not None
    line = text_report(ev)[2]
    a, b = m["teams"]
    assert (
        line == f"  {a} 12 : 12 {b}  (1 game + 5 extra; totals from game 6) → {m['winner']} by lot"
    )


def test_extra_games_are_marked_and_a_plain_match_is_not() -> None:
    """R17.3: a tie after two games adds a third, which decides (no lot); a match decided
    in its games has no extra."""
    ev = _knockout(2)
    _play(ev, (13, 8), (8, 13), (10, 11))
    (m,) = summary(ev)["rounds"][0]
    assert m["extra_games"] == 1 and not m["by_lot"]
    a, b = m["teams"]
    assert text_report(ev)[2] == f"  {a} 10 : 11 {b}  (2 games + 1 extra; totals from game 3) → {b}"
    plain = _knockout(3)
    _play(plain, (13, 8), (8, 13), (10, 11))
    (p,) = summary(plain)["rounds"][0]
    assert p["extra_games"] == 0
    a, b = p["teams"]
    assert text_report(plain)[2] == f"  {a} 31 : 32 {b}  (3 games) → {b}"
