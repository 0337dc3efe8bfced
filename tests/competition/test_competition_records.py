"""An event's record kept right when people make mistakes (issue 22): corrections and voids
of sheets, sanctions for a named game, the audit log, 罚则 escalation and the 罚为大落 check,
walkovers (弃权), substitutes (替补), seeds (种子), the match for third place, duplicate teams
of six, round 1 by lot, and an event closed before its end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gouji.competition import Event, EventError, play_event
from gouji.competition.discipline import next_step
from support import unchanged

AB = {"places": [1, 2, 3, 4, 5, 6]}  # MATCH7: A 7+4+2 = 13, B 5+3+0 = 8
BA = {"places": [2, 1, 4, 3, 6, 5]}  # A 8, B 13
CLOSE_B = {"places": [1, 2, 4, 3, 6, 5]}  # A 10, B 11


def people(i: int, n: int = 3) -> list[str]:
    return [f"p{i}-{k}" for k in range(n)]


def paper(fmt: str = "knockout", teams: int = 2, **kw: Any) -> Event:
    ev = Event("协会杯", "MATCH7", fmt, mode="paper", **kw)
    for i in range(teams):
        ev.add_team(f"队{i + 1}", people(i, ev.team_size))
    return ev


def first_table(ev: Event) -> Any:
    cur = ev.current
    assert cur is not None
    return cur.matches[0], cur.matches[0].tables[0]


# ---------------------------------------------------------------------- corrections
def test_a_mistyped_sheet_is_corrected_and_the_winner_follows() -> None:
    ev = paper()
    ev.draw_round()
    m, t = first_table(ev)
    a, b = t.teams
    with ev.acting("organiser", 100.0):
        ev.record_sheet(t.id, 0, AB)
        ev.record_sheet(t.id, 1, AB)
        ev.record_sheet(t.id, 2, BA)
    assert m.done and m.winner == a and ev.winner() == ev.teams[a].name
    with ev.acting("referee 王", 200.0):
        entry = ev.correct_sheet(t.id, 1, BA)  # game 2 was B's, typed the wrong way round
    assert ev.match_totals(m) == (13 + 8 + 8, 8 + 13 + 13)
    assert m.done and m.winner == b and ev.winner() == ev.teams[b].name
    assert entry["action"] == "correct" and entry["by"] == "referee 王" and entry["at"] == 200.0
    assert entry["before"]["team_scores"] == [13, 8] and entry["after"]["team_scores"] == [8, 13]
    assert entry["before"]["sheet"] == AB and entry["after"]["sheet"] == BA
    assert [e["action"] for e in ev.log] == [
        "team", "team", "draw", "sheet", "sheet", "sheet", "correct"
    ]  # fmt: skip
    assert [e["by"] for e in ev.log[3:6]] == ["organiser"] * 3
    assert ev.standings()[0]["team"] == ev.teams[b].name


def test_a_void_reopens_the_match_and_only_the_last_sheet_goes() -> None:
    ev = paper()
    ev.draw_round()
    m, t = first_table(ev)
    for g, sheet in enumerate((AB, AB, BA)):
        ev.record_sheet(t.id, g, sheet)
    assert m.done
    unchanged(ev, lambda: ev.void_game(t.id, 0), "only its last sheet")
    unchanged(ev, lambda: ev.void_game(t.id, 3), "no registered game")
    ev.void_game(t.id, 2)
    assert not m.done and len(t.games) == 2 and ev.open_tables() == [t]
    ev.record_sheet(t.id, 2, AB)
    assert m.done and m.winner == t.teams[0]
    assert [e["action"] for e in ev.log][-2:] == ["void", "sheet"]


def test_corrections_stop_once_the_next_round_is_drawn() -> None:
    ev = paper(teams=4)
    ev.draw_round()
    cur = ev.current
    assert cur is not None
    for m in cur.matches:
        for g in range(3):
            ev.record_sheet(m.tables[0].id, g, AB)
    t = cur.matches[0].tables[0]
    ev.draw_round()
    unchanged(ev, lambda: ev.correct_sheet(t.id, 0, BA), "earlier round")
    unchanged(ev, lambda: ev.void_game(t.id, 2), "earlier round")
    unchanged(ev, lambda: ev.sanction(t.id, "penalty", 0, game=0), "earlier round")


def test_a_correction_that_undoes_a_tie_leaves_no_orphan_game() -> None:
    """R17.3: a tie after the games adds one; a correction that decides the match without it
    is refused until the extra game is voided (the record stays whole)."""
    ev = paper(games=2)
    ev.draw_round()
    m, t = first_table(ev)
    ev.record_sheet(t.id, 0, AB)
    ev.record_sheet(t.id, 1, BA)  # 21 : 21, reset, one more game
    assert m.needed == 3 and not m.done
    ev.record_sheet(t.id, 2, CLOSE_B)
    assert m.done and m.winner == t.teams[1] and ev.extra_games(m) == 1
    unchanged(ev, lambda: ev.correct_sheet(t.id, 1, AB), "void those first")
    ev.void_game(t.id, 2)
    ev.correct_sheet(t.id, 1, AB)
    assert m.done and m.winner == t.teams[0] and m.needed == 2 and ev.extra_games(m) == 0


def test_an_online_result_is_not_corrected_by_sheet() -> None:
    ev = Event("网赛", "MATCH7", "knockout", mode="online")
    for i in range(2):
        ev.add_team(f"T{i}", people(i))
    ev.draw_round()
    _, t = first_table(ev)
    result = {"places": [1, 2, 3, 4, 5, 6], "team_scores": [13, 8], "penalties": []}
    ev.record_result(t.id, 0, result)
    unchanged(ev, lambda: ev.correct_sheet(t.id, 0, BA), "comes from its room")
    unchanged(ev, lambda: ev.void_game(t.id, 0), "comes from its room")


# ---------------------------------------------------------------------- sanctions
def test_a_penalty_for_a_registered_game_can_change_the_winner() -> None:
    """The issue's case: −2 for a foul in game 3, given after game 3's sheet; it counts in
    game 3 (R17.6), and a 1-point lead turns."""
    ev = paper()
    ev.draw_round()
    m, t = first_table(ev)
    for g, sheet in enumerate((AB, BA, {"places": [1, 2, 3, 4, 6, 5]})):  # A 11 : B 10
        ev.record_sheet(t.id, g, sheet)
    assert m.done and ev.match_totals(m) == (32, 31) and m.winner == t.teams[0]
    unchanged(ev, lambda: ev.sanction(t.id, "penalty", 0), "name the game")
    unchanged(ev, lambda: ev.sanction(t.id, "penalty", 0, game=3), "no registered game")
    unchanged(ev, lambda: ev.sanction(t.id, "last_place", 0, game=2), "correct its sheet")
    entry = ev.sanction(t.id, "penalty", 2, game=2, article="第三十条")
    assert entry["game"] == 2 and entry["player"] == ev.teams[t.teams[0]].players[1]
    assert t.games[2]["team_scores"] == [9, 10]
    assert t.games[2]["penalties"] == [{"seat": 2, "team": 0, "points": -2, "article": "第三十条"}]
    assert ev.match_totals(m) == (30, 31) and m.winner == t.teams[1]
    # a correction of that sheet keeps the penalty in the game
    ev.correct_sheet(t.id, 2, {"places": [1, 2, 3, 4, 5, 6]})
    assert t.games[2]["team_scores"] == [11, 8] and m.winner == t.teams[0]


def test_repeat_offences_are_flagged_with_the_outlines_next_step() -> None:
    """O 第二十九–三十条: 警告 → 罚分 → 罚为大落 → 取消资格."""
    assert next_step([]) == "warning"
    assert next_step(["warning"]) == "penalty"
    assert next_step(["warning", "cancel_turn"]) == "last_place"
    assert next_step(["last_place"]) == "disqualify"
    ev = paper(fmt="round_robin", teams=2, games=3)
    ev.draw_round()
    _, t = first_table(ev)
    first = ev.sanction(t.id, "warning", 3)
    assert first["repeat"] == 0 and first["proposed"] == "warning"
    second = ev.sanction(t.id, "penalty", 3)
    assert second["repeat"] == 1 and second["proposed"] == "penalty"
    assert ev.sanction(t.id, "warning", 5)["repeat"] == 0  # another player
    (flag,) = ev.offenders()
    assert flag == {
        "team": ev.teams[t.teams[1]].name,
        "player": ev.player_at(t, 3),
        "count": 2,
        "kinds": ["warning", "penalty"],
        "next": "last_place",
    }


def test_a_player_made_da_luo_must_be_last_on_the_next_sheet() -> None:
    """罚为大落 (R19.4 force_place): the sanctioned seat is 6th on its game's sheet."""
    ev = paper(fmt="round_robin", teams=2)
    ev.draw_round()
    m, t = first_table(ev)
    ev.sanction(t.id, "last_place", 1, article="第三十条")
    unchanged(ev, lambda: ev.record_sheet(t.id, 0, AB), "罚为大落: seat 2 must be placed 6")
    ev.record_sheet(t.id, 0, {"places": [1, 6, 2, 3, 4, 5]})
    assert ev.sanctions[0]["game"] == 0
    unchanged(ev, lambda: ev.correct_sheet(t.id, 0, AB), "罚为大落")
    assert not m.done


# ---------------------------------------------------------------------- the event's course
def test_closing_an_unfinished_event_names_no_champion() -> None:
    ev = paper(teams=4)
    ev.draw_round()
    _, t = first_table(ev)
    for g in range(3):
        ev.record_sheet(t.id, g, AB)
    ev.close()
    assert ev.is_over and ev.unfinished and ev.winner() is None
    assert ev.log[-1]["action"] == "close"
    assert ev.log[-1]["after"] == {"unfinished": True, "open_matches": ["r1m2"]}
    unchanged(ev, ev.close, "closed already")
    done = paper(teams=2)
    done.draw_round()
    _, t2 = first_table(done)
    for g in range(3):
        done.record_sheet(t2.id, g, AB)
    done.close()
    assert not done.unfinished and done.winner() == done.teams[t2.teams[0]].name


def test_a_walkover_decides_the_match_without_a_game() -> None:
    ev = paper(teams=4)
    ev.draw_round()
    m, t = first_table(ev)
    a, b = m.teams
    assert b is not None
    unchanged(ev, lambda: ev.walkover(m.id, ["nobody"]), "name the absent")
    unchanged(
        ev, lambda: ev.walkover(m.id, [ev.teams[a].name, ev.teams[b].name]), "one team must go on"
    )
    ev.walkover(m.id, [ev.teams[a].name])
    assert m.done and m.winner == b and m.walkover == [a]
    unchanged(ev, lambda: ev.record_sheet(t.id, 0, AB), "decided")
    other = ev.current.matches[1] if ev.current else None
    assert other is not None
    ev.record_sheet(other.tables[0].id, 0, AB)
    unchanged(ev, lambda: ev.walkover(other.id, [ev.teams[other.teams[0]].name]), "has begun")
    row = next(r for r in ev.standings() if r["index"] == a)
    assert row["walkovers"] == 1 and row["points"] == 0
    league = paper(fmt="round_robin", teams=2)
    league.draw_round()
    lm, _ = first_table(league)
    league.walkover(lm.id, [t.name for t in league.teams])  # both absent: nobody scores
    assert lm.done and lm.winner is None
    assert all(r["points"] == 0 for r in league.standings())


def test_substitutes_swap_between_matches_only() -> None:
    ev = Event("替补杯", "MATCH7", "swiss", mode="paper", rounds=2, games=1)
    ev.add_team("甲", people(0), subs=["甲替"])
    ev.add_team("乙", people(1))
    unchanged(ev, lambda: ev.add_team("丙", people(2), subs=["甲替"]), "already plays")
    ev.draw_round()
    _, t = first_table(ev)
    seat = next(s for s in range(6) if ev.player_at(t, s) == "p0-1")
    unchanged(ev, lambda: ev.substitute("甲", "p0-1", "甲替"), "between matches")
    ev.record_sheet(t.id, 0, AB)
    unchanged(ev, lambda: ev.substitute("甲", "p0-1", "nobody"), "not a substitute")
    ev.substitute("甲", "p0-1", "甲替")
    assert ev.teams[0].players == ["p0-0", "甲替", "p0-2"] and ev.teams[0].subs == ["p0-1"]
    assert ev.player_at(t, seat) == "p0-1"  # the table already played keeps who played it
    ev.draw_round()
    _, t2 = first_table(ev)
    assert "甲替" in t2.lineup and "p0-1" not in t2.lineup
    assert ev.log[-2]["action"] == "substitute"


def test_seeds_do_not_meet_while_unseeded_teams_are_left() -> None:
    for seed in range(30):
        ev = Event("种子杯", "MATCH7", "knockout", mode="paper", seed=seed)
        for i in range(8):
            ev.add_team(f"T{i}", people(i), seed=i + 1 if i < 4 else None)
        cur = ev.draw_round()
        seeded = {0, 1, 2, 3}
        assert all(len(seeded & set(m.teams)) == 1 for m in cur.matches)
    six = Event("六队", "MATCH7", "knockout", mode="paper", seed=3)
    for i in range(6):
        six.add_team(f"T{i}", people(i), seed=1 if i == 5 else (2 if i == 4 else None))
    first = six.draw_round()
    assert sorted(m.teams[0] for m in first.matches if m.is_bye) == [4, 5]  # byes to seeds
    unchanged(six, lambda: six.add_team("T9", people(9), seed=1), "registration is closed")
    fresh = Event("x", "MATCH7", "knockout")
    fresh.add_team("a", people(0), seed=1)
    unchanged(fresh, lambda: fresh.add_team("b", people(1), seed=1), "seed 1 already")
    unchanged(fresh, lambda: fresh.add_team("b", people(1), seed=0), "a rank")


def test_a_third_place_match_is_played_beside_the_final() -> None:
    ev = paper(teams=4, third_place=True, games=1)
    ev.draw_round()
    cur = ev.current
    assert cur is not None
    for m in cur.matches:
        ev.record_sheet(m.tables[0].id, 0, AB)
    final = ev.draw_round()
    assert len(final.matches) == 2 and [m.third_place for m in final.matches] == [False, True]
    for m in final.matches:
        ev.record_sheet(m.tables[0].id, 0, BA)
    assert ev.played_out and not ev.unfinished
    order = [r["index"] for r in ev.standings()]
    fm, tm = final.matches
    assert order[0] == fm.winner and order[2] == tm.winner
    assert set(order[1:2]) == set(fm.teams) - {fm.winner}
    assert set(order[3:]) == set(tm.teams) - {tm.winner}
    with pytest.raises(EventError, match="knockout's option"):
        Event("x", "MATCH7", "swiss", third_place=True)


def test_round_one_is_drawn_by_lot_in_every_format() -> None:
    """The seed's 抽签: round 1 is not the order of registration."""
    for fmt in ("knockout", "round_robin", "swiss"):
        firsts = set()
        for seed in range(12):
            ev = Event("抽签", "MATCH7", fmt, mode="paper", seed=seed)
            for i in range(8):
                ev.add_team(f"T{i}", people(i))
            rnd = ev.draw_round()
            pairs = (tuple(sorted(i for i in m.teams if i is not None)) for m in rnd.matches)
            firsts.add(tuple(sorted(pairs)))
        assert len(firsts) > 3, fmt  # the lot, not one fixed order


# ---------------------------------------------------------------------- duplicate for people
def test_a_duplicate_team_of_people_is_two_trios_one_at_each_table() -> None:
    ev = Event("复式", "MATCH7", "round_robin", mode="paper", duplicate=True, games=1)
    assert ev.team_size == 6
    unchanged(ev, lambda: ev.add_team("三人", people(9)), "exactly 6 players")
    ev.add_team("A", people(0, 6))
    ev.add_team("B", people(1, 6))
    ev.add_team("机器", people(2), bot="greedy")  # bots: the same three at both tables
    ev.draw_round()
    for m in ev.current.matches if ev.current else []:
        if m.is_bye:
            continue
        t1, t2 = m.tables
        for team in m.teams:
            assert team is not None
            names = ev.teams[team].players
            at1 = {ev.player_at(t1, s) for s in range(6)} & set(names)
            at2 = {ev.player_at(t2, s) for s in range(6)} & set(names)
            assert len(at1) == len(at2) == 3
            if len(names) == 6:
                assert not at1 & at2  # nobody plays the same deal twice


def test_duplicate_deals_stay_hidden_until_every_table_finished_the_game() -> None:
    ev = Event("复式", "MATCH7", "knockout", mode="paper", duplicate=True, games=2)
    for i in range(2):
        ev.add_team(f"T{i}", people(i, 6))
    ev.draw_round()
    m, t1 = first_table(ev)
    t2 = m.tables[1]
    assert not ev.deal_public(t1.id, 0)
    ev.record_sheet(t1.id, 0, AB)
    assert not ev.deal_public(t1.id, 0) and not ev.deal_public(t2.id, 0)
    ev.record_sheet(t2.id, 0, AB)
    assert ev.deal_public(t1.id, 0) and not ev.deal_public(t1.id, 1)
    plain = paper()
    plain.draw_round()
    assert plain.deal_public(first_table(plain)[1].id, 0)


def test_teams_of_three_play_duplicate_tables_one_after_the_other() -> None:
    with pytest.raises(EventError, match="duplicate event's option"):
        Event("x", "MATCH7", "knockout", sequential=True)
    ev = Event("接力", "MATCH7", "knockout", mode="paper", duplicate=True, sequential=True, games=2)
    assert ev.team_size == 3
    for i in range(2):
        ev.add_team(f"T{i}", people(i))
    ev.draw_round()
    m, t1 = first_table(ev)
    t2 = m.tables[1]
    assert ev.open_tables() == [t1]
    unchanged(ev, lambda: ev.record_sheet(t2.id, 0, AB), f"after table {t1.id}")
    ev.record_sheet(t1.id, 0, AB)
    assert ev.open_tables() == [t1, t2]
    ev.record_sheet(t2.id, 0, AB)
    unchanged(ev, lambda: ev.void_game(t1.id, 0), "has played game 1 after it")


# ---------------------------------------------------------------------- persistence
def test_everything_new_survives_a_save_and_older_saves_load() -> None:
    ev = paper(teams=4, third_place=True)
    ev.draw_round()
    _, t = first_table(ev)
    with ev.acting("organiser", 5.0):
        ev.sanction(t.id, "penalty", 0)
        ev.record_sheet(t.id, 0, AB)
        ev.walkover(ev.current.matches[1].id, [ev.teams[ev.current.matches[1].teams[0]].name])  # type: ignore[union-attr]
    again = Event.from_dict(json.loads(json.dumps(ev.to_dict())))
    assert again.to_dict() == ev.to_dict()
    # a save of the version before: no base scores, no log, no lineups; its penalty was applied
    old = ev.to_dict()
    del old["log"], old["sequential"], old["third_place"]
    for r in old["rounds"]:
        for mm in r["matches"]:
            del mm["walkover"], mm["third_place"]
            for tt in mm["tables"]:
                del tt["lineup"]
                for g in tt["games"]:
                    for k in ("base_scores", "base_penalties", "sheet"):
                        g.pop(k, None)
    for s in old["sanctions"]:
        for k in ("named", "engine", "repeat", "proposed"):
            s.pop(k)
    loaded = Event.from_dict(old)
    _, lt = loaded.table(t.id)
    assert lt.games[0]["base_scores"] == [13, 8]
    assert lt.games[0]["team_scores"] == [11, 8]
    loaded.correct_sheet(t.id, 0, BA)  # the penalty still counts once
    assert lt.games[0]["team_scores"] == [8 - 2, 13]
    assert loaded.player_at(lt, 0) == ev.player_at(t, 0)


def state(m: Any) -> tuple[Any, ...]:
    return (m.done, m.winner, m.needed, m.reset_at, m.by_lot)


def test_random_corrections_keep_the_match_as_if_entered_right() -> None:
    """Property: any sequence of sheets, corrections and voids ends in the same match state
    as entering the final sheets once, in order."""
    sheets = [AB, BA, CLOSE_B, {"places": [2, 1, 3, 4, 5, 6]}, {"places": [1, 2, 3, 4, 6, 5]}]
    for seed in range(40):
        rng = random.Random(seed)
        ev = paper(games=2)
        ev.draw_round()
        m, t = first_table(ev)
        for _ in range(12):
            move = rng.random()
            try:
                if move < 0.5 and not m.done:
                    ev.record_sheet(t.id, len(t.games), rng.choice(sheets))
                elif move < 0.8 and t.games:
                    ev.correct_sheet(t.id, rng.randrange(len(t.games)), rng.choice(sheets))
                elif t.games:
                    ev.void_game(t.id, len(t.games) - 1)
            except EventError:
                pass
        fresh = paper(games=2)
        fresh.draw_round()
        fm, ft = first_table(fresh)
        for g, game in enumerate(t.games):
            fresh.record_sheet(ft.id, g, game["sheet"])
        assert state(m) == state(fm), seed
        assert fresh.match_totals(fm) == ev.match_totals(m)


def test_bots_play_a_sequential_duplicate_event_through() -> None:
    """play_event plays table 2 of a sequential match only the games table 1 has played."""
    ev = Event("接力", "MATCH7", "knockout", duplicate=True, sequential=True, games=1, seed=4)
    ev.add_team("H", people(0), bot="heuristic")
    ev.add_team("R", people(1), bot="random")
    play_event(ev)
    (m,) = ev.matches()
    assert m.done and len(m.tables[0].games) == len(m.tables[1].games) >= 1
