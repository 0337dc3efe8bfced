"""The referee's sanctions (R19.4; seed 003, O 第二十八–三十条 and the 够级比赛 sheet's 犯规与判罚):
警告, 取消一次发牌权 (as R19.1 forfeits a turn), 罚分 (after bonuses and the recording rule,
R17.6), 罚为大落 and 取消资格 (out of play with the worst free place, R9.9 played on), in games,
matches and records (docs/engine.md "Sanctions", docs/decisions.md D41–D48).

Team A = P0, P2, P4; team B = P1, P3, P5.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gouji
from gouji import (
    SANCTIONS,
    Game,
    Match,
    MatchError,
    RecordError,
    SanctionError,
    make_rules,
    timeout_action,
)
from gouji.engine.cards import deck_counts, parse_counts
from gouji.engine.gamelog import parse
from support import sized

OC = make_rules("OUTLINE_CLASSIC")
OF = make_rules("OUTLINE_FULL")
M7 = make_rules("MATCH7")
#: One preset per scoring system of R17 (R17.1 outline, R17.2 comp2, R17.3 match7, R17.4 audit6).
SYSTEMS = {"outline": "OUTLINE_FULL", "comp2": "COMP2", "match7": "MATCH7", "audit6": "AUDIT"}
#: Four cards each; P0 leads; nobody can go out in one play, so R9.9 waits.
HANDS = ["5 9 9 K", "6 6 T J", "7 7 J Q", "8 8 Q K", "4 4 A A", "3 3 T 8"]
#: R8.3: P0's K K is protected 够级; P2 (team first, OUTLINE_CLASSIC), then P1 may burn it.
BURN_HANDS = ["K K 5 5 8 8", "A A 6 6 SJ", "A A 7 7 SJ", "4 4 5 5 9", "9 9 8 8 T", "T T 8 8 J"]
#: R10.2: P0 can claim its hand; P2 orders it.
CLAIM_HANDS = ["5 5 9 9 K K", "3 4", "3 6", "4 7 8 8", "6 J", "5 7"]


def position(hands: list[str] = HANDS, rules: gouji.Rules = OC) -> Game:
    return Game.from_hands(rules, hands, 0)


def texts(g: Game, start: int = 0) -> list[tuple[int, str]]:
    return list(g.log[start:])


def drive(g: Game, rng: random.Random) -> None:
    """Random legal decisions until the game is over."""
    for _ in range(5000):
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("the game did not end")


def finished(preset: str, seed: int) -> Game:
    g = Game.new(make_rules(preset), seed)
    drive(g, random.Random(seed))
    return g


def total_cards(g: Game) -> int:
    """The cards the game began with: the packs, or the hands of a built position."""
    if "hands" in g.start:
        return sum(sum(parse_counts(h)) for h in g.start["hands"])
    return sum(deck_counts(g.rules.deck_remove))


def invariants(g: Game) -> None:
    """docs/design.md §4: the game ended, places are a permutation, cards are conserved (dead cards
    counted), the record replays to the same game."""
    assert g.is_over and g.to_act is None
    assert sorted(p for p in g.places if p is not None) == [1, 2, 3, 4, 5, 6], g.places
    assert g.count_cards() == total_cards(g)
    res = g.result()
    for seat in g.punished:
        assert res["hands"][seat] == g.dead_hands[seat]
    same(g, Game.from_record(json.loads(json.dumps(g.record()))))


def same(a: Game, b: Game) -> None:
    """``b`` is ``a`` replayed: places, hands, the log and its events, the result."""
    assert b.places == a.places and b.hands == a.hands and b.log == a.log
    assert b.events() == a.events() and b.sanctions == a.sanctions
    assert b.pending == a.pending and b.to_act == a.to_act and b.cancelled == a.cancelled
    if a.is_over:
        assert b.result() == a.result()


def fingerprint(g: Game) -> str:
    """Everything a sanction could change."""
    state = {
        "view": g.view(None),
        "record": g.record(),
        "hands": g.hands,
        "cancelled": g.cancelled,
        "penalties": g.penalties,
        "punished": g.punished,
        "disqualified": g.disqualified,
        "deferred": g._deferred,
    }
    return json.dumps(state, sort_keys=True, default=str)


# ------------------------------------------------------------------------------ the surface


def test_R19_4_sanction_kinds_are_public() -> None:
    """R19.4 / O 第二十九条 (一)–(五): the five kinds, exported from ``gouji``."""
    assert SANCTIONS == ("warning", "cancel_turn", "penalty", "last_place", "disqualify")
    assert gouji.engine.referee.game.SANCTIONS is SANCTIONS
    assert issubclass(SanctionError, ValueError)


def test_R19_4_sanction_events_read_back() -> None:
    """R19.4: the log text of each sanction reads back as one ``sanction`` event."""
    assert parse(3, "sanction penalty -2 (第二十九条(三))") == {
        "seat": 3,
        "type": "sanction",
        "kind": "penalty",
        "points": -2,
        "article": "第二十九条(三)",
    }
    assert parse(1, "sanction warning") == {
        "seat": 1,
        "type": "sanction",
        "kind": "warning",
        "article": "",
    }
    assert parse(4, "sanction last_place (第三十条)")["article"] == "第三十条"
    assert parse(4, "punished 6") == {"seat": 4, "type": "punished", "place": 6}
    assert parse(1, "sanction penalty x")["type"] == "other"
    assert parse(1, "sanction warning 第三十条")["type"] == "other"


# ------------------------------------------------------------------------------ warning


def test_R19_4_warning_is_an_event_and_changes_nothing_in_play() -> None:
    """O 第二十九条 (一) 警告: a public event; play goes on as before."""
    g = position()
    g.apply("play 5")
    before = g.clone()
    g.sanction("warning", 4, article="第三十条")
    assert g.log[-1] == (4, "sanction warning (第三十条)")
    event = g.events()[-1]
    assert event == {
        "i": len(g.log) - 1,
        "seat": 4,
        "type": "sanction",
        "kind": "warning",
        "article": "第三十条",
    }
    assert "points" not in event
    for seat in (None, 0, 1, 4):  # public: every seat and spectators see it
        assert g.view(seat)["events"][-1] == event
    assert (g.to_act, g.pending, g.hands, g.places) == (
        before.to_act,
        before.pending,
        before.hands,
        before.places,
    )
    assert [a.text for a in g.legal_actions()] == [a.text for a in before.legal_actions()]


# ------------------------------------------------------------------------------ cancel_turn


def test_R19_4_R19_1_cancel_turn_now_forfeits_the_response_as_pass() -> None:
    """O 第二十九条 (二): at its turn the response is forfeited now, as R19.1 (a PASS, R7.4)."""
    g = position()
    g.apply("play 5")
    assert g.to_act == 1
    g.sanction("cancel_turn", 1, article="第二十九条(二)")
    assert texts(g)[-2:] == [
        (1, "sanction cancel_turn (第二十九条(二))"),
        (1, "forfeit (R19.4: turn cancelled)"),
    ]
    assert g.view(None)["statuses"][1] == "passed" and g.to_act == 2
    assert g.cancelled == [0] * 6


def test_R19_4_cancel_turn_waits_for_the_seats_next_turn() -> None:
    """R19.4: given while another seat acts, the cancellation costs the seat's next turn."""
    g = position()
    g.sanction("cancel_turn", 2)
    assert g.cancelled[2] == 1 and g.to_act == 0 and g.log[-1][1] == "sanction cancel_turn"
    g.apply("play 5")
    g.apply("pass")  # P1; P2's turn comes and is forfeited at once
    assert g.to_act == 3 and g.log[-1] == (2, "forfeit (R19.4: turn cancelled)")
    assert g.cancelled[2] == 0


def test_R19_4_R19_1_cancelled_lead_passes_to_the_next_player() -> None:
    """R19.1: a forfeited lead passes to the next active player ccw, who starts a round."""
    g = position()
    rounds = g.round_no
    g.sanction("cancel_turn", 0)
    assert g.pending == "lead" and g.to_act == 1 and g.round_no == rounds + 1
    assert g.hand(0) == "5 9 9 K"


def test_R19_4_cancellations_stack_one_turn_each() -> None:
    """R19.4: two cancellations cost exactly two turns (forfeit events), then play resumes."""
    g = position()
    g.sanction("cancel_turn", 0)
    g.sanction("cancel_turn", 0)
    g.apply("play 6")  # P1 leads; P2…P5 pass; P0's response is its second lost turn
    for _ in range(4):
        g.apply("pass")
    forfeits = [t for s, t in g.log if s == 0 and t.startswith("forfeit")]
    assert len(forfeits) == 2 and g.cancelled[0] == 0
    assert g.to_act != 0
    while not (g.to_act == 0 and g.pending in ("lead", "respond")):
        g.apply(timeout_action(g))
    assert g.to_act == 0 and g.legal_actions()  # the third turn is P0's own
    assert [t for s, t in g.log if s == 0 and t.startswith("forfeit")] == forfeits


def test_R7_6_cancel_turn_forfeits_the_turn_back_after_rang() -> None:
    """R7.6 + R19.4: the yielder's turn back is a turn to play cards; forfeited it is a PASS,
    and the round ends (the standing play wins)."""
    g = position()
    g.apply("play 5")
    g.apply("pass")  # P1
    g.apply("pass")  # P2
    g.apply("rang")  # P3, P0's 对头
    g.apply("pass")  # P4
    g.apply("pass")  # P5
    assert g.pending == "rang_return" and g.to_act == 3
    g.sanction("cancel_turn", 3)
    assert g.pending == "lead" and g.to_act == 0
    assert (3, "forfeit (R19.4: turn cancelled)") in g.log and (0, "round_won") in g.log


def test_R19_4_cancel_turn_skips_a_burn_offer() -> None:
    """D45: a burn offer is no turn of its own (and private): the cancellation waits."""
    g = position(BURN_HANDS)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 2
    g.sanction("cancel_turn", 2)
    assert g.pending == "burn_offer" and g.to_act == 2 and g.cancelled[2] == 1
    assert not any(t.startswith("forfeit") for _, t in g.log)


def test_R19_4_cancel_turn_before_play_waits_for_the_first_lead() -> None:
    """R18: a cancellation given in a pre-play decision costs the seat's first play turn."""
    g = Game.new(OC, 0)
    assert g.pending == "hui"
    starter = g.starter
    g.sanction("cancel_turn", starter)
    assert g.pending == "hui" and g.to_act == starter
    g.apply("nohui")
    assert g.pending == "lead" and g.to_act == (starter + 1) % 6
    assert (starter, "forfeit (R19.4: turn cancelled)") in g.log


# ------------------------------------------------------------------------------ penalty


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_R17_6_penalty_after_bonuses_under_each_system(system: str) -> None:
    """R17.6: the points go to the seat's team after bonuses and the recording rule, in both
    ``team_points`` and ``team_scores``; ``penalties`` lists them."""
    g = finished(SYSTEMS[system], 3)
    assert g.rules.score_system == system
    before = g.result()
    assert before["penalties"] == [] and before["disqualified"] == []
    g.sanction("penalty", 3, article="够级比赛 2(6)")
    g.sanction("penalty", 4, points=-1)
    after = g.result()
    assert after["penalties"] == [
        {"seat": 3, "team": 1, "points": -2, "article": "够级比赛 2(6)"},
        {"seat": 4, "team": 0, "points": -1, "article": ""},
    ]
    for key in ("team_points", "team_scores"):
        assert after[key] == [before[key][0] - 1, before[key][1] - 2], key
    assert after["places"] == before["places"] and after["bonuses"] == before["bonuses"]
    assert g.events()[-1]["points"] == -1


def test_R17_6_penalty_during_the_game_counts_the_same() -> None:
    """R17.6: a penalty given during the game counts as one given after it."""
    g = finished("COMP2", 5)
    late = g.clone()
    late.sanction("penalty", 0, points=-2)
    rec = g.record()
    rec["sanctions"] = [{"at": 10, "kind": "penalty", "seat": 0, "points": -2, "article": ""}]
    early = Game.from_record(rec)
    assert early.result() == late.result()


def test_R17_1_R17_6_positive_only_then_penalty() -> None:
    """R17.1 records only a positive team sum; the penalty comes after that rule (D41):
    a team recorded 0 with −2 records −2."""
    for seed in range(40):
        g = finished("OUTLINE_FULL", seed)
        res = g.result()
        if res["chuan"] is None and 0 in res["team_scores"]:
            break
    else:  # pragma: no cover
        raise AssertionError("no game without 串三户 in 40 seeds")
    assert res["score_rule"] == "positive_only"
    zero = res["team_scores"].index(0)
    g.sanction("penalty", zero, points=-2)  # seat `zero` is of team `zero`
    g.sanction("penalty", 1 - zero, points=-2)
    after = g.result()
    assert after["team_scores"][zero] == -2
    assert after["team_scores"][1 - zero] == res["team_scores"][1 - zero] - 2
    assert after["team_points"] == [p - 2 for p in res["team_points"]]


def test_R17_1_R17_6_chuan_12_then_penalty() -> None:
    """R17.1 串三户 records 12 : 0; penalties come after (D41)."""
    for seed in range(200):
        g = finished("OUTLINE_FULL", seed)
        if g.result()["chuan"] is not None:
            break
    else:  # pragma: no cover
        raise AssertionError("no 串三户 in 200 seeds")
    winner = g.result()["chuan"]
    g.sanction("penalty", winner, points=-2)
    g.sanction("penalty", 1 - winner, points=-3)
    scores = g.result()["team_scores"]
    assert scores[winner] == 10 and scores[1 - winner] == -3


# ------------------------------------------------------------------------------ last_place


def test_R19_4_last_place_when_not_its_turn() -> None:
    """O 第二十九条 (四) 罚为大落: out of play at once with 大落, cards dead (kept for the
    settlement); its 对头 is 无头 (R9.8); play goes on where it was."""
    g = position()
    g.apply("play 5")
    g.sanction("last_place", 3, article="第三十条")
    assert texts(g)[-3:] == [
        (3, "sanction last_place (第三十条)"),
        (3, "punished 6"),
        (0, "wutou punished"),
    ]
    assert g.places[3] == 6 and not g.active[3] and g.hand(3) == ""
    assert g.dead_hands[3] == "8 8 Q K" and g.punished == [3]
    assert g.pending == "respond" and g.to_act == 1
    drive(g, random.Random(1))
    invariants(g)
    assert g.result()["hands"][3] == "8 8 Q K" and g.places[3] == 6


def test_R19_4_last_place_at_its_lead_passes_the_lead() -> None:
    """R19.4: at its own lead, the lead passes to the next active player (as R19.1)."""
    g = position()
    g.sanction("last_place", 0)
    assert g.places[0] == 6 and g.pending == "lead" and g.to_act == 1


def test_R19_4_last_place_at_its_response_moves_on() -> None:
    """R19.4: at its own response, the next eligible seat answers (as a forfeit's PASS)."""
    g = position()
    g.apply("play 5")
    g.sanction("last_place", 1)
    assert g.places[1] == 6 and g.pending == "respond" and g.to_act == 2


def test_R19_4_last_place_of_the_owner_lets_its_play_stand() -> None:
    """D44: the punished seat's standing play stands like a 底牌; the next active seat
    takes the lead after it (接风, R7.9)."""
    g = position()
    g.apply("play 5")
    g.sanction("last_place", 0)
    assert g.standing is not None and g.standing.text == "5"
    for _ in range(5):
        g.apply("pass")
    assert g.pending == "lead" and g.to_act == 1 and (1, "jiefeng") in g.log


def test_R19_4_two_punished_seats_take_6_then_5() -> None:
    """R19.4 / R9.11: each punished seat takes the worst free place at that moment."""
    g = position()
    g.sanction("last_place", 3)
    g.sanction("last_place", 5)
    assert g.places[3] == 6 and g.places[5] == 5 and g.punished == [3, 5]
    drive(g, random.Random(2))
    invariants(g)
    assert g.places[3] == 6 and g.places[5] == 5


def test_R9_9_a_team_punished_out_ends_the_game() -> None:
    """R9.9 (b), D42: punished seats are out of play like any placed seat; when only one
    team remains the game ends and its players are ordered by fewest cards."""
    g = position(["5 9 9 K", "6 6 T J", "7 7", "8 8 Q K", "4 4 A A", "3 T 8"])
    g.sanction("last_place", 1)
    g.sanction("last_place", 3)
    assert not g.is_over
    g.sanction("disqualify", 5)
    # P5 took 四科; P2 (2 cards) first, then P0 and P4 (4 each) ccw after the last placed
    assert g.is_over and g.places == [2, 6, 1, 5, 3, 4]
    assert g.log[-2:] == [(-1, "chuan 0"), (-1, "game_over")]
    invariants(g)


def test_R9_9_last_active_player_takes_the_last_free_place() -> None:
    """R9.9 (a): when a sanction leaves one active seat, it takes the last free place."""
    g = position()
    for seat in (1, 2, 3, 4):
        g.sanction("last_place", seat)
    assert not g.is_over
    g.sanction("last_place", 5)
    assert g.is_over and g.places == [1, 6, 5, 4, 3, 2]
    invariants(g)


def test_R19_4_last_place_at_a_burn_offer_declines_it_silently() -> None:
    """D44: the punished seat's private burn offer lapses unseen; the next candidate is
    offered (R8.3)."""
    g = position(BURN_HANDS)
    g.apply("play K K")
    assert g.to_act == 2
    g.sanction("last_place", 2)
    assert g.pending == "burn_offer" and g.to_act == 1
    assert not any("noburn" in t or "forfeit" in t for _, t in g.log)
    h = position(BURN_HANDS)
    h.apply("play K K")
    h.sanction("last_place", 1)  # a later candidate: its offer is gone
    h.apply("noburn")
    assert h.pending == "respond" and h.to_act == 3


def test_R19_4_a_punished_burner_neither_succeeds_nor_breaks() -> None:
    """D44: the burn state ends with the burner out: no 烧成 (R8.7), no 解烧 (R8.8)."""
    g = position(BURN_HANDS)
    g.apply("play K K")
    g.apply("burn A A")
    assert g.burner == 2
    g.sanction("last_place", 2)
    assert g.burner == -1 and g.places[2] == 6
    assert not any(t in ("burn_success", "burn_broken") for _, t in g.log)
    drive(g, random.Random(3))
    invariants(g)
    assert g.burns == [] and g.broken_burns == []


def test_R10_2_punished_orderer_hands_the_order_on() -> None:
    """D44: the claimant's next active teammate orders the claim (R10.2)."""
    g = position(CLAIM_HANDS)
    g.apply("tiao")
    assert g.pending == "order" and g.to_act == 2
    g.sanction("last_place", 2)
    assert g.pending == "order" and g.to_act == 4
    g.apply(g.legal_actions()[0])
    assert g.claimant in (0, -1)


def test_R10_2_punished_claimant_voids_the_claim() -> None:
    """D44: a claim (a lead) of a punished seat is void; the lead passes on (R19.1)."""
    g = position(CLAIM_HANDS)
    g.apply("tiao")
    g.sanction("disqualify", 0)
    assert g.claimant == -1 and g.pending == "lead" and g.to_act == 1
    assert g.dead_hands[0] == "5 5 9 9 K K"


def test_R7_8_punished_kou_seat_ends_the_dead_round() -> None:
    """R7.8 / R9.7: without the 对头 the dead play's round ends at once."""
    rules = make_rules("OUTLINE_CLASSIC", {"round.auto_kou": False})
    g = position(["5 LJ 9 9 K", *HANDS[1:]], rules)
    g.apply("play 5 LJ")
    assert g.pending == "kou" and g.to_act == 3
    g.sanction("last_place", 3)
    assert g.pending == "lead" and g.to_act == 0 and g.places[3] == 6


# ------------------------------------------------------------------------------ disqualify


def test_R19_4_disqualify_is_last_place_and_recorded() -> None:
    """O 第二十九条 (五) 取消资格: in the game as 罚为大落, listed for the competition."""
    g = position()
    g.apply("play 5")
    g.sanction("disqualify", 4, article="第三十条")
    assert g.places[4] == 6 and g.disqualified == [4] and (4, "punished 6") in g.log
    assert g.events()[-3]["kind"] == "disqualify"
    drive(g, random.Random(4))
    invariants(g)
    assert g.result()["disqualified"] == [4]


# ------------------------------------------------------------------------------ before play


def test_R18_place_sanctions_before_play_wait_for_the_first_lead() -> None:
    """D46: in a pre-play decision the seat leaves at the first lead (R18 step 9); a
    punished starter passes the first lead on, as a revolutionary one does (R15.2)."""
    g = Game.new(OC, 0)
    assert g.pending == "hui"
    starter = g.starter
    g.sanction("last_place", starter, article="第三十条")
    assert g.places == [None] * 6 and g.pending == "hui"
    with pytest.raises(SanctionError, match="first lead"):
        g.sanction("last_place", starter)
    g.apply("nohui")
    new = (starter + 1) % 6
    assert g.places[starter] == 6 and g.starter == new and g.to_act == new
    assert g.log[-5:] == [
        (starter, "sanction last_place (第三十条)"),
        (starter, "nohui"),
        (starter, "punished 6"),
        ((starter + 3) % 6, "wutou punished"),
        (new, "starter"),
    ]
    drive(g, random.Random(0))
    invariants(g)


def test_R15_4_seat_punished_before_it_revolts_gives_up_4ke() -> None:
    """D46: a seat punished before it declared 革命 leaves 四科 for the worst free place at
    the first lead; R15.4's 三科 rule no longer concerns it."""
    g = Game.new(OC, 35)
    assert g.pending == "geming"
    seat = g.to_act
    assert seat is not None
    g.sanction("last_place", seat)
    g.apply("geming")
    assert g.revolutionary == seat
    while g.pending not in ("lead", "over"):
        g.apply(timeout_action(g))
    assert g.places[seat] == 6 and seat in g.punished
    drive(g, random.Random(35))
    invariants(g)
    assert g.places[seat] == 6


# ------------------------------------------------------------------------------ refusals


def bad_calls() -> list[tuple[str, object, dict[str, Any], str]]:
    return [
        ("foul", 0, {}, "unknown sanction"),
        ("warning", 6, {}, "seats are 0…5"),
        ("warning", -1, {}, "seats are 0…5"),
        ("warning", True, {}, "seats are 0…5"),
        ("warning", "1", {}, "seats are 0…5"),
        ("penalty", 0, {"points": 0}, "non-zero"),
        ("penalty", 0, {"points": 1.5}, "non-zero"),
        ("penalty", 0, {"points": True}, "non-zero"),
        ("warning", 0, {"article": 5}, "article"),
        ("warning", 0, {"article": "x" * 81}, "80"),
        ("warning", 0, {"article": "a\nb"}, "one line"),
    ]


@pytest.mark.parametrize(("kind", "seat", "kw", "match"), bad_calls())
def test_R19_4_bad_input_raises_and_changes_nothing(
    kind: str, seat: object, kw: dict[str, Any], match: str
) -> None:
    """docs/design.md §4: a bad sanction is refused with a clear message; the game is unchanged."""
    g = position()
    g.apply("play 5")
    before = fingerprint(g)
    call: Any = g.sanction
    with pytest.raises(SanctionError, match=match):
        call(kind, seat, **kw)
    assert fingerprint(g) == before


@pytest.mark.parametrize("kind", ["cancel_turn", "last_place", "disqualify"])
def test_R19_4_placed_seat_cannot_be_sanctioned_out_again(kind: str) -> None:
    """R19.4: a seat out of play (placed, punished, revolutionary) has no turn or place to
    lose; a penalty or a warning can still be given."""
    g = position()
    g.sanction("last_place", 3)
    before = fingerprint(g)
    with pytest.raises(SanctionError, match="out of play already"):
        g.sanction(kind, 3)
    assert fingerprint(g) == before
    g.sanction("penalty", 3)
    g.sanction("warning", 3)


@pytest.mark.parametrize("kind", ["cancel_turn", "last_place", "disqualify"])
def test_R9_9_finished_game_takes_only_penalty_or_warning(kind: str) -> None:
    """R19.4 after R9.9: the places stand; only points and warnings can still be given."""
    g = finished("OUTLINE_CLASSIC", 1)
    before = fingerprint(g)
    with pytest.raises(SanctionError, match="game is over"):
        g.sanction(kind, 0)
    assert fingerprint(g) == before
    g.sanction("warning", 0)
    g.sanction("penalty", 0)
    invariants(g)


# ------------------------------------------------------------------------------ records


def sanctioned_game() -> Game:
    g = Game.new(OC, 11)
    g.sanction("cancel_turn", 2, article="第二十九条(二)")
    rng = random.Random(11)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    g.sanction("warning", 1)
    g.sanction("penalty", 5, points=-2, article="够级比赛 2(7)")
    out = next(s for s in range(6) if g.places[s] is None and s != g.to_act)
    g.sanction("last_place", out)
    drive(g, rng)
    g.sanction("penalty", 0, points=3)
    return g


def test_R19_4_game_record_replays_sanctions() -> None:
    """docs/design.md §4: ``from_record(record())`` reproduces a game with sanctions (places, hands,
    results, events); ``actions`` stays a list of action texts."""
    g = sanctioned_game()
    rec = json.loads(json.dumps(g.record()))
    assert all(isinstance(a, str) for a in rec["actions"])
    assert [s["kind"] for s in rec["sanctions"]] == [
        "cancel_turn",
        "warning",
        "penalty",
        "last_place",
        "penalty",
    ]
    assert rec["sanctions"][0] == {
        "at": 0,
        "kind": "cancel_turn",
        "seat": 2,
        "points": None,
        "article": "第二十九条(二)",
    }
    assert rec["sanctions"][-1]["at"] == len(rec["actions"])
    invariants(g)
    assert "sanctions" not in Game.new(OC, 11).record()  # optional: absent when none


@pytest.mark.parametrize(
    ("sanctions", "match"),
    [
        ("penalty", "must be a list"),
        ([5], "must be an object"),
        ([{"kind": "warning", "seat": 0}], "'at'"),
        ([{"at": 10**6, "kind": "warning", "seat": 0}], "'at'"),
        (
            [{"at": 3, "kind": "warning", "seat": 0}, {"at": 1, "kind": "warning", "seat": 0}],
            "order",
        ),
        ([{"at": 0, "seat": 0}], "'kind'"),
        ([{"at": 0, "kind": "warning", "seat": "x"}], "'seat'"),
        ([{"at": 0, "kind": "penalty", "seat": 0}], "'points'"),
        ([{"at": 0, "kind": "warning", "seat": 0, "article": 3}], "'article'"),
        ([{"at": 0, "kind": "foul", "seat": 0}], "cannot be replayed: R19.4: unknown"),
        ([{"at": 0, "kind": "last_place", "seat": 0}] * 2, "sanction #1"),
    ],
)
def test_R19_4_corrupt_sanctions_in_a_record_are_refused(sanctions: object, match: str) -> None:
    """docs/design.md §4: a corrupt sanction entry raises ``RecordError`` saying which and why."""
    rec = finished("OUTLINE_CLASSIC", 2).record()
    rec["sanctions"] = sanctions
    with pytest.raises(RecordError, match=match):
        Game.from_record(rec)


# ------------------------------------------------------------------------------ matches


def play_game(m: Match, rng: random.Random) -> None:
    """The game to its end and the R18 step 10 prompts answered no."""
    while not m.game.is_over:
        m.apply(rng.choice(m.legal_actions()))
    while m.to_act is not None:
        m.apply(m.legal_actions()[-1])


def test_R19_4_match_sanction_during_a_game_is_the_games() -> None:
    """R19.4: during a game ``Match.sanction`` gives the game's sanction."""
    m = Match(OC, 1, games=2)
    m.sanction("last_place", 2, article="第三十条")
    assert m.game.sanctions[0]["kind"] == "last_place" and m.game._deferred == [2]
    play_game(m, random.Random(1))
    assert m.results[0]["places"][2] == 6


def test_R17_6_match_penalty_between_games_changes_the_last_result() -> None:
    """R17.6: between games a penalty counts in the game just finished and the totals."""
    m = Match(OC, 2, games=2)
    play_game(m, random.Random(2))
    before, totals = json.loads(json.dumps(m.results[0])), m.totals
    m.sanction("penalty", 1, points=-2)
    res = m.results[0]
    assert res["team_scores"] == [before["team_scores"][0], before["team_scores"][1] - 2]
    assert res["team_points"][1] == before["team_points"][1] - 2
    assert res["penalties"] == [{"seat": 1, "team": 1, "points": -2, "article": ""}]
    assert m.totals == [totals[0], totals[1] - 2]
    assert m.view(0)["match"]["results"][0]["team_scores"] == res["team_scores"]
    m.sanction("warning", 4)
    assert m.game.log[-1] == (4, "sanction warning")


def test_R17_3_match7_tie_check_counts_penalties() -> None:
    """R17.3 with R17.6 (D47): a penalty after the third game that ties the totals resets
    them and a fourth game is played; one that breaks the tie again ends the match."""
    m = Match(M7, 0)
    rng = random.Random(0)
    for i in range(3):
        if i:
            m.next_game()
        play_game(m, rng)
    assert m.is_over and m.resets == 0
    a, b = m.totals
    lead = 0 if a > b else 1
    with pytest.raises(MatchError, match="match is over"):
        m.sanction("last_place", 0)
    m.sanction("penalty", lead, points=-abs(a - b))  # seat `lead` is of team `lead`
    assert m.totals == [0, 0] and m.resets == 1 and not m.is_over and m.winner is None
    m.sanction("penalty", 1 - lead, points=-1)
    assert m.is_over and m.winner == lead and m.resets == 0
    m.sanction("penalty", 1 - lead, points=1)
    assert not m.is_over
    m.next_game()
    play_game(m, rng)
    assert m.is_over == (m.totals[0] != m.totals[1])


def test_R19_4_match_queues_turn_and_place_sanctions_for_the_next_game() -> None:
    """D47: between games cancel_turn / last_place / disqualify wait for the next game's
    first lead; the next game records them (at 0)."""
    m = Match(OC, 3, games=2)
    play_game(m, random.Random(3))
    m.sanction("last_place", 2, article="第三十条")
    m.sanction("cancel_turn", 5)
    for kind in ("disqualify", "cancel_turn"):
        with pytest.raises(MatchError, match="already leaves"):
            m.sanction(kind, 2)
    assert [q["kind"] for q in m.queued] == ["last_place", "cancel_turn"]
    assert m.results[0]["penalties"] == [] and len(m.game.sanctions) == 0
    g = m.next_game()
    assert m.queued == [] and [s["at"] for s in g.sanctions] == [0, 0]
    while g.pending not in ("lead", "respond", "over"):
        g.apply(timeout_action(g))
    assert g.places[2] == 6
    play_game(m, random.Random(4))
    assert m.is_over and m.results[1]["places"][2] == 6


def test_R19_4_match_record_replays_sanctions() -> None:
    """docs/design.md §4: a match record carries each game's sanctions (and the queue) and replays
    to the same results and totals."""
    m = Match(OC, 4, games=3)
    rng = random.Random(4)
    m.sanction("cancel_turn", 1)
    play_game(m, rng)
    m.sanction("penalty", 2, points=-2, article="第三十条")
    m.sanction("disqualify", 3)
    m.next_game()
    for _ in range(30):
        m.apply(rng.choice(m.legal_actions()))
    m.sanction("last_place", next(s for s in range(6) if m.game.places[s] is None))
    play_game(m, rng)
    m.sanction("cancel_turn", 0)  # queued for the third game
    rec = json.loads(json.dumps(m.record()))
    assert rec["queued"] == [{"kind": "cancel_turn", "seat": 0, "points": -2, "article": ""}]
    assert [len(g.get("sanctions", [])) for g in rec["games"]] == [2, 2]
    r = Match.from_record(rec)
    assert r.results == m.results and r.totals == m.totals and r.queued == m.queued
    for a, b in zip(m.games, r.games, strict=True):
        same(a, b)
    bad = json.loads(json.dumps(rec))
    bad["games"][0]["sanctions"][0]["at"] = -1
    with pytest.raises(MatchError, match="game #0: sanction #0"):
        Match.from_record(bad)


def test_R19_4_match_refusals_change_nothing() -> None:
    """docs/design.md §4: a bad sanction between games changes neither the queue nor the results."""
    m = Match(OC, 5, games=1)
    play_game(m, random.Random(5))
    before = json.dumps(m.record(), sort_keys=True), json.dumps(m.results, sort_keys=True)
    call: Any = m.sanction
    for kind, seat, kw, match in bad_calls():
        with pytest.raises(SanctionError, match=match):
            call(kind, seat, **kw)
    assert m.is_over
    with pytest.raises(MatchError, match="match is over"):
        m.sanction("cancel_turn", 0)
    after = json.dumps(m.record(), sort_keys=True), json.dumps(m.results, sort_keys=True)
    assert after == before and m.queued == []


# ------------------------------------------------------------------------------ property


PLAY_PRESETS = ("OUTLINE_FULL", "OUTLINE_CLASSIC", "LAIWU", "AUDIT", "LIANG4", "MATCH7", "COMP2")
#: random games and matches under random sanctions: the default run keeps the 200 and 30 it
#: had (with 120 and 20, each of three runs missed paths all three runs of 200 and 30 reached:
#: a joker drawn at the opening, a renounce, the match's swap and skip prompts); the deep run
#: plays ten times as many
CI_GAMES, CI_MATCHES = 200, 30


def sanction_at_random(g: Game, rng: random.Random) -> None:
    """One random sanction (often at the seat to act); a refusal must change nothing."""
    kind = rng.choice(SANCTIONS)
    seat = g.to_act if g.to_act is not None and rng.random() < 0.5 else rng.randrange(6)
    points = rng.choice([-2, -1, 2])
    before = fingerprint(g)
    try:
        g.sanction(kind, seat, points=points, article=rng.choice(["", "第三十条"]))
    except SanctionError:
        assert fingerprint(g) == before


@settings(max_examples=sized(CI_GAMES, 2000), deadline=None)
@given(
    preset=st.sampled_from(PLAY_PRESETS),
    seed=st.integers(0, 2**32),
    rate=st.sampled_from([0.005, 0.03, 0.15]),
)
def test_R19_4_R9_9_random_sanctions_keep_every_invariant(
    preset: str, seed: int, rate: float
) -> None:
    """docs/design.md §4 invariants under random sanctions at random moments: the game ends, places
    are a permutation, cards are conserved, events are understood, the record replays."""
    rng = random.Random(seed)
    g = Game.new(make_rules(preset), seed)
    for _ in range(5000):
        if g.is_over:
            break
        if rng.random() < rate:
            sanction_at_random(g, rng)
        else:
            g.apply(rng.choice(g.legal_actions()))
        assert g.count_cards() == sum(deck_counts(g.rules.deck_remove))
        if g.pending in ("lead", "respond", "rang_return"):
            assert g.to_act is not None and g.active[g.to_act] and not g.cancelled[g.to_act]
    for _ in range(rng.randrange(3)):
        sanction_at_random(g, rng)
    invariants(g)
    assert all(e["type"] != "other" for e in g.events())
    unpenalised = g.clone()
    unpenalised.penalties = []
    base, res = unpenalised.result(), g.result()
    for t in (0, 1):  # R17.6: the penalties come on top of everything else
        pts = sum(p for s, p, _ in g.penalties if s & 1 == t)
        assert res["team_points"][t] == base["team_points"][t] + pts
        assert res["team_scores"][t] == base["team_scores"][t] + pts


@settings(max_examples=sized(CI_MATCHES, 300), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_R19_4_random_match_sanctions_replay(seed: int) -> None:
    """docs/design.md §4 for matches: random sanctions during and between games replay exactly."""
    rng = random.Random(seed)
    m = Match(make_rules(rng.choice(PLAY_PRESETS)), seed, games=2)
    while True:
        while not m.game.is_over:
            if rng.random() < 0.02:
                sanction_at_random(m.game, rng)
            else:
                m.apply(rng.choice(m.legal_actions()))
        for _ in range(rng.randrange(3)):
            kind = rng.choice(SANCTIONS)
            with contextlib.suppress(SanctionError, MatchError):  # refused: nothing changes
                m.sanction(kind, rng.randrange(6), points=-2)
        while m.to_act is not None:
            m.apply(rng.choice(m.legal_actions()))
        if m.is_over:
            break
        m.next_game()
    for g in m.games:
        invariants(g)
    r = Match.from_record(json.loads(json.dumps(m.record())))
    assert r.results == m.results and r.totals == m.totals
    if m.resets == 0:
        assert m.totals == [sum(res["team_scores"][t] for res in m.results) for t in (0, 1)]
