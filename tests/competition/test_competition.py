"""Events (gouji.competition): registration, draws, results from the engine and from a
referee's sheet, the R17.3 tie rule, sanctions (R19.4, R17.6), standings, persistence and
``gouji tournament``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gouji.cli import main
from gouji.competition import Event, EventError, play_event
from gouji.competition.report import summary
from gouji.engine.referee.scoring import Events, score
from gouji.engine.rules import make_rules
from support import unchanged

PLAYERS = [["甲", "乙", "丙"], ["丁", "戊", "己"], ["庚", "辛", "壬"], ["子", "丑", "寅"]]


def paper(fmt: str = "round_robin", preset: str = "AUDIT", teams: int = 4, **kw: Any) -> Event:
    ev = Event("审计协会杯", preset, fmt, mode="paper", **kw)
    for i in range(teams):
        ev.add_team(f"队{i + 1}", PLAYERS[i] if i < 4 else [f"p{i}{k}" for k in range(3)])
    return ev


def test_registration_rejects_odd_and_duplicate_teams() -> None:
    ev = paper(teams=2)
    unchanged(ev, lambda: ev.add_team("队1", ["a", "b", "c"]), "already a team")
    unchanged(ev, lambda: ev.add_team("队9", ["a", "b"]), "exactly 3 players")
    unchanged(ev, lambda: ev.add_team("队9", ["a", "a", "b"]), "listed twice")
    unchanged(ev, lambda: ev.add_team("队9", ["甲", "x", "y"]), "already plays")
    unchanged(ev, lambda: ev.add_team("", ["x", "y", "z"]), "non-empty")
    unchanged(ev, lambda: ev.add_team("队9", ["x", "y", "z"], bot="nobody"), "unknown bot")
    with pytest.raises(EventError, match="unknown format"):
        Event("x", "MATCH7", "league")
    with pytest.raises(EventError, match="no round count"):
        Event("x", "MATCH7", "knockout", rounds=3)
    with pytest.raises(EventError):
        Event("x", "NOPE", "knockout")


def test_a_paper_round_robin_scored_by_the_audit_sheet() -> None:
    """R17.4 (audit6 6/5/4/3/2/1, +1 per 闷 / 不开点 / burn) from sheets entered by hand."""
    ev = paper()
    rnd = ev.draw_round()
    unchanged(ev, ev.draw_round, "still being played")
    assert len(rnd.matches) == 2 and all(len(m.tables) == 1 for m in rnd.matches)
    rules = make_rules("AUDIT")
    m = rnd.matches[0]
    t = m.tables[0]
    sheet = {"places": [1, 6, 2, 5, 4, 3], "men": [1], "not_opened": [3], "burns": [[0, 5]]}
    ev.record_sheet(t.id, 0, sheet)
    _, want, _ = score("audit6", Events((1, 6, 2, 5, 4, 3), (1,), (3,), ((0, 5),)))
    assert t.games[0]["team_scores"] == want
    unchanged(ev, lambda: ev.record_sheet(t.id, 0, sheet), "already has a result for game 1")
    unchanged(ev, lambda: ev.record_sheet(t.id, 2, sheet), "plays game 2 next")
    bad = {"places": [1, 1, 2, 5, 4, 3]}
    unchanged(ev, lambda: ev.record_sheet(t.id, 1, bad), "each seat one of 1…6")
    unchanged(ev, lambda: ev.record_sheet(t.id, 1, {"places": [1, 2, 3, 4, 5]}), "1…6")
    unchanged(ev, lambda: ev.record_sheet(t.id, 1, {**sheet, "burns": [[0, 2]]}), "opponent")
    unchanged(ev, lambda: ev.record_sheet("r9m9t1", 1, sheet), "no table")
    assert rules.score_system == "audit6"
    for g in (1, 2):
        ev.record_sheet(t.id, g, {"places": [2, 1, 4, 3, 6, 5]})
    assert m.done
    ta, tb = ev.match_totals(m)
    assert (ta, tb) == (want[0] + 9 + 9, want[1] + 12 + 12)  # A: 5+3+1, B: 6+4+2
    assert m.winner == (t.teams[0] if ta > tb else t.teams[1])


def test_a_penalty_counts_after_bonuses_in_the_next_game_entered() -> None:
    """R19.4 penalty, R17.6: −2 to the seat's team, in the game the referee enters next."""
    ev = paper(fmt="knockout", preset="MATCH7", teams=2)
    m = ev.draw_round().matches[0]
    t = m.tables[0]
    unchanged(ev, lambda: ev.sanction(t.id, "penalty", 7), "0…5")
    unchanged(ev, lambda: ev.sanction(t.id, "penalty", 1, points=0), "negative")
    unchanged(ev, lambda: ev.sanction(t.id, "penalty", 1, points=2), "negative")  # no bonus
    unchanged(ev, lambda: ev.sanction(t.id, "penalty", 1, points=100), "negative")
    unchanged(ev, lambda: ev.sanction(t.id, "scold", 1), "unknown sanction")
    entry = ev.sanction(t.id, "penalty", 1, article="够级比赛 2(6) 一把扔")
    team = ev.teams[t.teams[1]]
    assert entry["team"] == team.name and entry["player"] == team.players[0]  # seat 1: B's first
    ev.record_sheet(t.id, 0, {"places": [1, 2, 3, 4, 5, 6]})  # match7: A 7+4+2, B 5+3+0
    assert t.games[0]["team_scores"] == [13, 8 - 2]
    assert t.games[0]["penalties"][0]["points"] == -2
    assert ev.sanctions[0]["game"] == 0


def test_knockout_tie_resets_and_plays_one_more_game() -> None:
    """R17.3: after three games a tie resets the totals and one more game is played."""
    ev = paper(fmt="knockout", preset="MATCH7", teams=2)
    m = ev.draw_round().matches[0]
    t = m.tables[0]
    ab = {"places": [1, 2, 3, 4, 5, 6]}  # A 13 : B 8
    ba = {"places": [2, 1, 4, 3, 6, 5]}  # A 8 : B 13
    for g, sheet in enumerate([ab, ba, {"places": [1, 2, 4, 3, 6, 5]}]):  # 3rd: 10 : 11
        ev.record_sheet(t.id, g, sheet)
    assert ev.match_totals(m) == (31, 32) and m.done
    ev3 = paper(fmt="knockout", preset="MATCH7", teams=2, games=2)
    m3 = ev3.draw_round().matches[0]
    t3 = m3.tables[0]
    ev3.record_sheet(t3.id, 0, ab)
    ev3.record_sheet(t3.id, 1, ba)
    assert not m3.done and m3.needed == 3 and ev3.match_totals(m3) == (0, 0)  # reset
    ev3.record_sheet(t3.id, 2, ba)
    assert m3.done and m3.winner == t3.teams[1] and ev3.is_over
    assert ev3.winner() == ev3.teams[t3.teams[1]].name


def test_round_robin_draws_and_standings_tie_breaks() -> None:
    ev = paper(fmt="round_robin", preset="MATCH7", teams=4, games=1)
    same = {"places": [1, 2, 3, 4, 5, 6]}
    while not ev.is_over:
        for m in ev.draw_round().matches:
            ev.record_sheet(m.tables[0].id, 0, same)
    rows = ev.standings()
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    assert sum(r["matches_played"] for r in rows) == 2 * 6
    keys = [(-r["points"], -r["score"], -r["games_won"]) for r in rows]
    assert keys == sorted(keys)
    assert ev.winner() == rows[0]["team"]


def test_disqualification_voids_the_team_and_forfeits_its_matches() -> None:
    """R19.4 disqualify (seed 003: 取消比赛资格及全部比赛成绩)."""
    ev = paper(fmt="swiss", preset="COMP2", teams=4, rounds=2, games=1)
    r1 = ev.draw_round()
    m = r1.matches[0]
    cheat = m.tables[0].teams[0]
    ev.record_sheet(m.tables[1 - 1].id, 0, {"places": [1, 2, 3, 4, 5, 6]})
    other = r1.matches[1]
    ev.sanction(other.tables[0].id, "disqualify", 0, article="第三十条")
    assert other.done and other.winner == other.tables[0].teams[1]
    rows = ev.standings()
    assert rows[-1]["disqualified"] and rows[-1]["points"] == 0
    r2 = ev.draw_round()
    dq = other.tables[0].teams[0]
    assert all(dq not in mm.teams for mm in r2.matches)  # Swiss leaves it out
    assert cheat != dq


def test_saved_mid_round_the_event_continues_the_same() -> None:
    a = paper(fmt="swiss", preset="AUDIT", teams=4, rounds=2, games=2)
    b = paper(fmt="swiss", preset="AUDIT", teams=4, rounds=2, games=2)
    sheets = [{"places": [1, 2, 3, 4, 5, 6]}, {"places": [6, 5, 4, 3, 2, 1]}]
    for ev in (a, b):
        ev.draw_round()
        cur = ev.current
        assert cur is not None
        ev.record_sheet(cur.matches[0].tables[0].id, 0, sheets[0])
    b = Event.from_dict(json.loads(json.dumps(b.to_dict())))
    for ev in (a, b):
        while not ev.is_over:
            cur = ev.current
            assert cur is not None
            if all(m.done for m in cur.matches):
                ev.draw_round()
                continue
            for t in ev.open_tables():
                ev.record_sheet(t.id, len(t.games), sheets[len(t.games) % 2])
    assert a.to_dict() == b.to_dict()
    with pytest.raises(EventError, match="not a saved event"):
        Event.from_dict({"format": "x"})
    broken = a.to_dict()
    del broken["rounds"][0]["matches"][0]["tables"]
    with pytest.raises(EventError, match="corrupt"):
        Event.from_dict(broken)


def test_duplicate_tables_cancel_the_deal_for_equal_bots() -> None:
    """Duplicate: the same deals with the seats swapped; the same bot on both sides then
    gets exactly equal totals (the luck of the deal cancels)."""
    ev = Event("复式", "COMP2", "round_robin", duplicate=True, games=2, rounds=1)
    for i in range(4):
        ev.add_team(f"T{i}", [f"t{i}{k}" for k in range(3)], bot="greedy")
    play_event(ev, "greedy")
    for m in ev.matches():
        assert len(m.tables) == 2 and m.tables[0].seed == m.tables[1].seed
        assert m.tables[0].teams == m.tables[1].teams[::-1]
        ta, tb = ev.match_totals(m)
        assert ta == tb and m.winner is None


def test_a_knockout_tie_that_never_parts_is_drawn_by_lot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """D55: duplicate tables of one bot mirror each other, so R17.3's extra games never part
    them; after five more games the match is drawn by lot and the event ends."""
    s = _tournament(
        capsys,
        "--teams",
        "2",
        "--games",
        "1",
        "--duplicate",
        "--bot",
        "greedy",
        "--preset",
        "MATCH7",
    )
    matches = [m for r in s["rounds"] for m in r]
    assert len(matches) == 1 and all(m["by_lot"] for m in matches)
    assert all(m["games"] == 1 + 5 and m["totals"][0] == m["totals"][1] for m in matches)
    assert s["winner"] == s["rounds"][-1][0]["winner"] is not None


def _tournament(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["tournament", "--json", *args]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_cli_knockout_of_eight_match7(capsys: pytest.CaptureFixture[str]) -> None:
    s = _tournament(
        capsys, "--teams", "8", "--format", "knockout", "--preset", "MATCH7", "--seed", "1"
    )
    assert s["format"] == "knockout" and s["preset"] == "MATCH7" and len(s["teams"]) == 8
    assert [len(r) for r in s["rounds"]] == [4, 2, 1]
    for r in s["rounds"]:
        for m in r:
            assert len(m["teams"]) == 2 and m["games"] >= 3 and m["winner"] in m["teams"]
            assert m["totals"][0] != m["totals"][1]
    assert s["winner"] == s["rounds"][-1][0]["winner"] == s["standings"][0]["team"]
    assert {"team", "points", "matches_won", "games_won"} <= set(s["standings"][0])
    again = _tournament(
        capsys, "--teams", "8", "--format", "knockout", "--preset", "MATCH7", "--seed", "1",
        "--jobs", "2",
    )  # fmt: skip
    assert again == s  # the same event in parallel


def test_cli_swiss_of_six_and_byes(capsys: pytest.CaptureFixture[str]) -> None:
    s = _tournament(capsys, "--teams", "6", "--format", "swiss", "--rounds", "3", "--preset",
                    "AUDIT", "--bot", "greedy")  # fmt: skip
    assert len(s["rounds"]) == 3 and all(len(r) == 3 for r in s["rounds"])
    pairs = [frozenset(m["teams"]) for r in s["rounds"] for m in r]
    assert len(set(pairs)) == len(pairs)  # no rematch in three rounds of six
    k = _tournament(capsys, "--teams", "5", "--format", "knockout", "--bot", "random")
    first = k["rounds"][0]
    byes = [m for m in first if m["teams"][1] is None]
    assert len(byes) == 3 and all(m["winner"] is None for m in byes)


def test_cli_bad_arguments_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--teams", "1"]) == 2
    assert "--teams" in capsys.readouterr().err
    assert main(["tournament", "--format", "knockout", "--rounds", "2"]) == 2
    assert "round count" in capsys.readouterr().err
    assert main(["tournament", "--bot", "nobody"]) == 2


def test_summary_lists_every_match() -> None:
    ev = paper(fmt="knockout", preset="MATCH7", teams=3)
    ev.draw_round()
    s = summary(ev)
    assert len(s["rounds"][0]) == 2 and s["winner"] is None
    assert sum(1 for m in s["rounds"][0] if m["bye"]) == 1
