"""``gouji tournament`` with a bot per team (``--bots``, issue 22) and the text report's extra
games (R17.3) and lots (D55)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gouji import agents
from gouji.cli import main
from gouji.competition import Event, EventError, play_event
from gouji.competition.report import summary, text_report

PLACES = [1, 2, 3, 4, 5, 6]


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["tournament", "--json", *args]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _matches(s: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for r in s["rounds"] for m in r if not m["bye"]]


def test_bots_go_to_the_teams_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """Team 1 the first name, team 2 the second, …, wrapping round; the text names them."""
    args = ("--teams", "4", "--games", "1", "--bots", "greedy,random,heuristic", "--seed", "3")
    s = _json(capsys, *args)
    bots = {row["team"]: row["bot"] for row in s["standings"]}
    assert bots == {
        "Team 1": "greedy",
        "Team 2": "random",
        "Team 3": "heuristic",
        "Team 4": "greedy",
    }
    assert main(["tournament", *args]) == 0
    text = capsys.readouterr().out
    assert all(f"{team:<16} {bot:<9}  points" in text for team, bot in bots.items())


def test_one_name_in_bots_is_the_old_bot_option(capsys: pytest.CaptureFixture[str]) -> None:
    """``--bots greedy`` is ``--bot greedy``: the same event, and no bot column (one bot)."""
    args = ("--teams", "3", "--games", "1", "--seed", "2")
    assert _json(capsys, *args, "--bots", "greedy") == _json(capsys, *args, "--bot", "greedy")
    assert main(["tournament", *args, "--bots", "greedy"]) == 0
    assert "greedy" not in capsys.readouterr().out


@pytest.mark.parametrize("bots", ["heuristic,nobody", "", "heuristic,,random", " , "])
def test_unknown_or_missing_bots_are_refused_by_name(
    capsys: pytest.CaptureFixture[str], bots: str
) -> None:
    """Exit 2 with a message listing the known bots, never a traceback; nothing is played."""
    assert main(["tournament", "--teams", "2", "--bots", bots]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "Traceback" not in out.err
    assert out.err.startswith("gouji tournament: ")
    assert f"bots: {', '.join(agents.names())}" in out.err
    if "nobody" in bots:
        assert "'nobody'" in out.err


def test_duplicate_swiss_with_two_bots_decides_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 22: with one bot a duplicate event draws every match (the mirror tables cancel
    the deal); heuristic against random has something to decide."""
    args = ("--teams", "4", "--format", "swiss", "--duplicate", "--games", "1", "--seed", "1")
    one = _json(capsys, *args, "--bots", "heuristic")
    assert all(m["winner"] is None for m in _matches(one))
    two = _json(capsys, *args, "--bots", "heuristic,random")
    bot = {row["team"]: row["bot"] for row in two["standings"]}
    mixed = [m for m in _matches(two) if bot[m["teams"][0]] != bot[m["teams"][1]]]
    assert mixed  # two rounds of four teams, no rematch: one pairing at least is mixed
    decided = [m for m in _matches(two) if m["winner"] is not None]
    assert decided
    assert two["winner"] is not None and bot[two["winner"]] == "heuristic"


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


def test_play_event_refuses_a_team_no_bot_plays_for() -> None:
    """Without a default bot every team needs its own; nothing is drawn or played otherwise."""
    ev = Event("无人", "MATCH7", "knockout", games=1)
    ev.add_team("东队", ["甲", "乙", "丙"], bot="greedy")
    ev.add_team("西队", ["丁", "戊", "己"])
    with pytest.raises(EventError, match="no bot plays for 西队"):
        play_event(ev)
    assert ev.rounds == []
    play_event(ev, "random")  # the default plays for 西队
    assert ev.is_over
