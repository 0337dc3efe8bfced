"""Conformance tests: docs/spec vectors TV-A07–A12, TV-C08, TV-D, TV-G and TV-P.

Each test builds a small position with ``Game.from_hands`` and asserts what the vector's
"Expected" column says, in observable engine state: who is asked next (``to_act``,
``pending``), per-round statuses, the public log (skipped seats, ``round_won``, ``jiefeng``,
``kou``), legal action lists and ``IllegalAction`` messages citing the rule.

Position design notes (apply to every test below):

* Team A = P0, P2, P4; team B = P1, P3, P5; 对头(Pi) = P(i+3) (R1.1, R1.2).
* Every active seat holds several cards, so nobody goes out unless the vector says so and the
  game cannot end by R9.9 in the middle of a vector.
* Seats that are not meant to burn (R8.2) either hold nothing that beats the 够级 play, or
  would be left with two or more plain ranks and no joker (``feasible`` false, R8.5).
* Under 憋3 presets (OUTLINE_FULL, AUDIT) no seat holds only 3s (R12.6 闷).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from gouji import Game, IllegalAction, make_rules, timeout_action
from gouji.engine.referee.game import ACTIVE, DEAD_LEVEL, NO_HEAD, PASSED, RANGED
from gouji.engine.rules import Rules
from support import OD_OVERRIDES

OC = "OUTLINE_CLASSIC"
OF = "OUTLINE_FULL"
AU = "AUDIT"


Snapshot = tuple[int | None, str, int, tuple[str, ...], tuple[int, ...], int]


# ---------------------------------------------------------------------------- helpers
def _rules(preset: str, overrides: Mapping[str, object] | None = None) -> Rules:
    return make_rules(preset, dict(overrides)) if overrides else make_rules(preset)


def _game(
    preset: str,
    hands: Sequence[str],
    starter: int = 0,
    *,
    places: Mapping[int, int] | None = None,
    overrides: Mapping[str, object] | None = None,
) -> Game:
    return Game.from_hands(_rules(preset, overrides), list(hands), starter=starter, places=places)


def _snapshot(g: Game) -> Snapshot:
    return (
        g.to_act,
        g.pending,
        len(g.log),
        tuple(g.hand(s) for s in range(6)),
        tuple(g.status),
        g.round_no,
    )


def _assert_rejected(g: Game, action: str, rule: str, seat: int | None = None) -> None:
    """The action raises ``IllegalAction`` citing ``rule`` and leaves the state unchanged."""
    before = _snapshot(g)
    with pytest.raises(IllegalAction) as info:
        g.apply(action, seat=seat)
    assert rule in str(info.value), str(info.value)
    assert _snapshot(g) == before


def _legal(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def _act(g: Game, seat: int, action: str) -> None:
    """Apply ``action`` for ``seat``, first checking that the engine asks ``seat`` now."""
    assert g.to_act == seat, f"expected P{seat} to act, engine asks P{g.to_act} ({g.pending})"
    g.apply(action, seat=seat)


def _seats_in_log(g: Game, since: int) -> list[int]:
    """Seats of the public events logged from index ``since`` (game-level events excluded)."""
    return [s for s, _ in g.log[since:] if s >= 0]


def _events(g: Game, since: int = 0) -> list[tuple[int, str]]:
    return list(g.log[since:])


def _pass_around(g: Game, seats: Sequence[int]) -> list[int]:
    """Each seat in turn must be the one asked and passes; returns the asked sequence."""
    asked: list[int] = []
    for s in seats:
        asked.append(g.to_act if g.to_act is not None else -1)
        _act(g, s, "pass")
    return asked


def _assert_leads_next(g: Game, leader: int, winner: int, since: int) -> None:
    """The round ended with ``winner`` winning it and ``leader`` asked for a new lead."""
    assert (winner, "round_won") in _events(g, since)
    assert g.to_act == leader
    assert g.pending == "lead"
    assert g.standing is None


# ---------------------------------------------------------------------------- TV-A (R4)
_A_OTHERS = ["4 4 5 5 6 6", "4 5 6 7 8", "5 6 7 8 9", "4 6 8 T J", "5 7 9 Q K"]


def test_TV_A07_bie3_threes_only_as_final_play() -> None:
    g = _game(OF, ["3 3 3 9 9", *_A_OTHERS])
    assert g.to_act == 0 and g.pending == "lead"
    assert "play 3 3 3" not in _legal(g)
    _assert_rejected(g, "play 3 3 3", "R4.7", seat=0)
    assert g.hand(0) == "3 3 3 9 9"


def test_TV_A08_bie3_threes_cannot_be_split() -> None:
    g = _game(OF, ["3 3 3", *_A_OTHERS])
    assert g.to_act == 0 and g.pending == "lead"
    _assert_rejected(g, "play 3 3", "R4.7", seat=0)
    assert _legal(g) == ["play 3 3 3"]  # all the 3s, emptying the hand, is the only lead


def test_TV_A09_bie3_nothing_attached_to_threes() -> None:
    g = _game(OF, ["2 3 3", *_A_OTHERS])
    assert g.to_act == 0 and g.pending == "lead"
    _assert_rejected(g, "play 2 3 3", "R4.7", seat=0)
    assert _legal(g) == ["play 2"]  # `[2]` is the legal lead
    g.apply("play 2", seat=0)
    assert (0, "play 2") in g.log
    assert g.hand(0) == "3 3"


def test_TV_A11_bie3_final_threes_legal() -> None:
    g = _game(OF, ["3 3", *_A_OTHERS])
    assert "play 3 3" in _legal(g)
    g.apply("play 3 3", seat=0)
    assert (0, "play 3 3") in g.log
    assert g.hand(0) == ""
    assert g.places[0] == 1  # the player finishes (头科)
    assert not g.active[0]
    assert not g.is_over


def test_TV_A12_lead_cannot_be_passed() -> None:
    for preset in (OC, OF, AU):
        g = _game(preset, ["9 9 4 5", *_A_OTHERS])
        assert g.to_act == 0 and g.pending == "lead", preset
        assert "pass" not in _legal(g), preset
        _assert_rejected(g, "pass", "R4.1", seat=0)


# ---------------------------------------------------------------------------- TV-C08 (R9.7)
def test_TV_C08_gouji_unprotected_in_chaos() -> None:
    # P0 头科, P1 二科 already placed: this round is chaos (R9.6). P2's 对头 is P5.
    hands = ["", "", "J J J J 5 6", "4 5 6 7", "Q Q Q Q 7 8", "4 6 8 9"]
    g = _game(OC, hands, starter=2, places={0: 1, 1: 2})
    assert g.chaos
    _act(g, 2, "play J J J J")
    assert not g.standing_protected
    # Protected, only P5 (对头) could answer; in chaos P3 is asked in its ccw turn ...
    assert g.to_act == 3 and g.pending == "respond"
    _act(g, 3, "pass")
    # ... and so is P4, P2's teammate, who may beat it.
    assert g.to_act == 4 and g.pending == "respond"
    assert "play Q Q Q Q" in _legal(g)
    _act(g, 4, "play Q Q Q Q")
    assert g.owner == 4
    assert g.to_act == 5


# ---------------------------------------------------------------------------- TV-D (R6, R7)
# TV-D01/TV-D02: P1 and P4 hold beating plays but cannot burn (two plain ranks left, no joker).
_D01 = [
    "T T T T T 4 5",
    "J J J J J 5 6",
    "4 5 6 7 8",
    "J J J J J 6 7",
    "Q Q Q Q Q 7 8",
    "4 6 8 9 9",
]


def test_TV_D01_protected_gouji_only_duitou_answers() -> None:
    g = _game(OC, _D01)
    _act(g, 0, "play T T T T T")
    assert g.standing_protected
    # P1 and P2 are not eligible: the engine asks P3 (对头) straight away.
    assert g.to_act == 3 and g.pending == "respond"
    _assert_rejected(g, "play J J J J J", "R6.4", seat=1)


def test_TV_D02_duitou_answer_then_only_owner_duitou() -> None:
    g = _game(OC, _D01)
    _act(g, 0, "play T T T T T")
    n = len(g.log)
    _act(g, 3, "play J J J J J")
    assert g.owner == 3 and g.standing_protected
    # Only P0 (对头 of P3) may answer: P4, P5, P1, P2 are skipped.
    assert g.to_act == 0 and g.pending == "respond"
    assert _seats_in_log(g, n) == [3, 3]
    assert g.log[-1] == (3, "gouji 0")  # the table is told: only P0 may answer
    # P4 holds Q×5, which beats J×5, but may not answer (not P3's 对头).
    _assert_rejected(g, "play Q Q Q Q Q", "R6.4", seat=4)


_D03 = ["J J J J 4 5", "4 5 6 7 8", "5 6 7 8 9", "Q Q Q Q 6 7", "4 6 8 9 9", "5 7 8 9 T"]


def test_TV_D03_duitou_pass_ends_protected_round() -> None:
    g = _game(OC, _D03)
    n = len(g.log)
    _act(g, 0, "play J J J J")
    assert g.to_act == 3
    _act(g, 3, "pass")
    _assert_leads_next(g, leader=0, winner=0, since=n)
    # P4, P5, P1, P2 were never asked.
    assert set(_seats_in_log(g, n)) == {0, 3}
    assert g.round_no == 2


def test_TV_D04_pure_gouji_win_opens_point() -> None:
    g = _game(OF, _D03)
    assert not g.opened[0]
    n = len(g.log)
    _act(g, 0, "play J J J J")
    _act(g, 3, "pass")
    _assert_leads_next(g, leader=0, winner=0, since=n)
    assert g.opened[0]
    assert (0, "opened") in _events(g, n)
    assert not any(g.opened[s] for s in (1, 2, 3, 4, 5))


_D05 = ["9 9 4 5 6", "4 5 6 7 8", "5 6 7 8 K", "J J 5 6 7", "6 7 8 Q K", "T T 6 7 8"]


def _d05_to_rang(g: Game) -> None:
    """TV-D05 up to P3 RANG: P0 leads [9 9]; P1 PASS; P2 PASS; P3 RANG."""
    _act(g, 0, "play 9 9")
    _act(g, 1, "pass")
    _act(g, 2, "pass")
    assert g.to_act == 3 and g.pending == "respond"
    assert "rang" in _legal(g)
    _act(g, 3, "rang")
    assert g.status[3] == RANGED


def test_TV_D05_rang_both_decline() -> None:
    g = _game(OC, _D05)
    n = len(g.log)
    _d05_to_rang(g)
    assert g.to_act == 4
    _act(g, 4, "pass")
    assert g.to_act == 5
    _act(g, 5, "pass")
    # The turn returns to P3, who must play or pass (no second RANG).
    assert g.to_act == 3 and g.pending == "rang_return"
    assert "rang" not in _legal(g)
    assert "pass" in _legal(g)
    _act(g, 3, "pass")
    _assert_leads_next(g, leader=0, winner=0, since=n)


def test_TV_D06_rang_locked_when_xiajia_beats() -> None:
    g = _game(OC, _D05)
    _d05_to_rang(g)
    _act(g, 4, "pass")
    n = len(g.log)
    _act(g, 5, "play T T")
    assert g.status[3] == PASSED  # lock_on_beat
    asked = _pass_around(g, [0, 2])
    assert asked == [0, 2]
    # P1, P3, P4 skipped: back at P5, the round ends and P5 leads.
    _assert_leads_next(g, leader=5, winner=5, since=n)
    assert set(_seats_in_log(g, n)) == {5, 0, 2}


def test_TV_D07_no_rang_on_protected_gouji() -> None:
    hands = ["K K 4 5 6", "4 5 6 7 8", "5 6 7 8 9", "A A 5 6 7", "6 7 8 9 T", "4 7 8 9 T"]
    g = _game(OC, hands)
    _act(g, 0, "play K K")
    assert g.standing_protected
    assert g.to_act == 3 and g.pending == "respond"
    assert "rang" not in _legal(g)
    _assert_rejected(g, "rang", "R7.6", seat=3)


def test_TV_D08_pass_lock_and_duitou_exception() -> None:
    hands = ["6 6 4 5 9", "4 5 7 9 T", "7 7 4 5 T", "4 5 9 T J", "8 8 4 5 J", "4 5 9 J Q"]
    g = _game(OC, hands)
    _act(g, 0, "play 6 6")
    _act(g, 1, "pass")
    _act(g, 2, "play 7 7")
    _act(g, 3, "pass")
    n = len(g.log)
    _act(g, 4, "play 8 8")
    asked = _pass_around(g, [5, 0, 1, 2])
    assert asked == [5, 0, 1, 2]  # P1 asked: P4 is its 对头
    # P3 skipped: back at P4, the round ends.
    _assert_leads_next(g, leader=4, winner=4, since=n)
    assert 3 not in _seats_in_log(g, n)


def test_TV_D09_passed_duitou_may_answer_duitou_play() -> None:
    hands = ["5 5 7 7 4 6", "4 6 8 9 T", "4 6 8 9 T", "8 8 4 6 9", "6 6 4 9 T", "4 8 9 T J"]
    g = _game(OC, hands)
    _act(g, 0, "play 5 5")
    _pass_around(g, [1, 2, 3])
    _act(g, 4, "play 6 6")
    _act(g, 5, "pass")
    n = len(g.log)
    _act(g, 0, "play 7 7")
    # P1, P2 (passed) skipped; P3 (passed, but P0 is its 对头) asked.
    assert g.to_act == 3 and g.pending == "respond"
    assert _seats_in_log(g, n) == [0]
    assert "play 8 8" in _legal(g)
    _act(g, 3, "play 8 8")
    assert g.owner == 3


_OTHERS_PLAIN = ["4 5 6 7 8", "5 6 7 8 9", "4 6 8 9 T", "5 7 9 T J", "4 6 8 J Q"]


def test_TV_D10_dead_play_ends_round_auto_kou() -> None:
    g = _game(OC, ["LJ 7 7 4 5", *_OTHERS_PLAIN])
    n = len(g.log)
    _act(g, 0, "play LJ 7 7")
    # P3's 扣 is automatic; nobody else is asked; P0 leads again.
    assert _events(g, n)[:3] == [(0, "play 7 7 LJ"), (3, "kou"), (0, "round_won")]
    _assert_leads_next(g, leader=0, winner=0, since=n)
    assert set(_seats_in_log(g, n)) == {0, 3}


def test_TV_D11_dead_play_explicit_kou() -> None:
    g = _game(AU, ["LJ 7 7 4 5", *_OTHERS_PLAIN])
    n = len(g.log)
    _act(g, 0, "play LJ 7 7")
    assert g.to_act == 3 and g.pending == "kou"
    assert _legal(g) == ["kou"]
    assert (0, "round_won") not in _events(g, n)
    _assert_rejected(g, "pass", "R7.8", seat=3)
    _act(g, 3, "kou")
    _assert_leads_next(g, leader=0, winner=0, since=n)
    assert (3, "kou") in _events(g, n)


def test_TV_D12_lj_play_does_not_open() -> None:
    g = _game(OF, ["LJ Q Q 4 5", *_OTHERS_PLAIN])
    n = len(g.log)
    _act(g, 0, "play LJ Q Q")
    _assert_leads_next(g, leader=0, winner=0, since=n)  # the play won its round
    assert not g.opened[0]
    assert (0, "opened") not in g.log


_D13 = [
    "T T T T T Q Q Q Q Q 4",
    "4 5 6 7 8",
    "5 6 7 8 9",
    "J J J J J 5 6",
    "4 6 8 9 9",
    "5 7 8 9 4",
]


def test_TV_D13_gouji_exchange_between_duitou() -> None:
    for preset, overrides in ((OC, None), (OC, OD_OVERRIDES)):
        g = _game(preset, _D13, overrides=overrides)
        n = len(g.log)
        _act(g, 0, "play T T T T T")
        _act(g, 3, "play J J J J J")
        _act(g, 0, "play Q Q Q Q Q")
        assert g.to_act == 3
        _act(g, 3, "pass")
        _assert_leads_next(g, leader=0, winner=0, since=n)
        assert set(_seats_in_log(g, n)) == {0, 3}
        if overrides:  # OD: P0's Q×5 is 活 (opens), P3's J×5 is not
            assert g.opened[0]
            assert not g.opened[3]


def test_TV_D14_beating_plain_with_gouji_protects() -> None:
    hands = [
        "9 9 9 9 9 J J J J J 4 5",
        "T T T T T 6 7",
        "4 5 6 7 8",
        "4 6 8 K",
        "5 6 7 8",
        "4 6 8 9",
    ]
    g = _game(OC, hands)
    _act(g, 0, "play 9 9 9 9 9")
    assert not g.standing_protected
    assert g.to_act == 1
    assert "play T T T T T" in _legal(g)
    n = len(g.log)
    _act(g, 1, "play T T T T T")
    assert g.standing_protected
    # Only P4 (P1's 对头) may answer now; P2, P3 are skipped.
    assert g.to_act == 4 and g.pending == "respond"
    assert _seats_in_log(g, n) == [1, 1]
    assert g.log[-1] == (1, "gouji 4")  # the table is told: only P4 may answer
    # P0 holds J×5 (beats T×5, cannot burn: 4 5 left) and may not answer.
    _assert_rejected(g, "play J J J J J", "R6.4", seat=0)


def test_TV_D15_jiefeng_after_final_play() -> None:
    g = _game(OC, ["8 8", *_OTHERS_PLAIN])
    n = len(g.log)
    _act(g, 0, "play 8 8")
    assert g.places[0] == 1  # 头科
    asked = _pass_around(g, [1, 2, 3, 4, 5])
    assert asked == [1, 2, 3, 4, 5]
    assert (3, "pass") in _events(g, n)  # P3's decline is its 扣
    _assert_leads_next(g, leader=1, winner=0, since=n)
    assert (1, "jiefeng") in _events(g, n)


def test_TV_D16_jiefeng_skips_placed() -> None:
    hands = ["8 8", "", "5 6 7 8 9", "4 6 8 9 T", "5 7 9 T J", "4 6 8 J Q"]
    g = _game(OC, hands, places={1: 1})
    n = len(g.log)
    _act(g, 0, "play 8 8")
    assert g.places[0] == 2
    asked = _pass_around(g, [2, 3, 4, 5])
    assert asked == [2, 3, 4, 5]
    # 接风 goes to the first active seat after P0: P1 is placed, so P2 leads.
    _assert_leads_next(g, leader=2, winner=0, since=n)
    assert (2, "jiefeng") in _events(g, n)
    assert 1 not in _seats_in_log(g, n)


def test_TV_D17_rang_stay_active() -> None:
    g = _game(OC, _D05, overrides={"round.rang": "stay_active"})
    _d05_to_rang(g)
    _act(g, 4, "pass")
    n = len(g.log)
    _act(g, 5, "play T T")
    assert g.status[3] == ACTIVE  # stay_active: back to ACTIVE
    asked = _pass_around(g, [0, 2, 3])
    assert asked == [0, 2, 3]
    # P1 and P4 skipped; back at P5 the round ends.
    _assert_leads_next(g, leader=5, winner=5, since=n)
    assert set(_seats_in_log(g, n)) == {5, 0, 2, 3}


# ---------------------------------------------------------------------------- TV-G (R9.6, R9.7)
_G = ["", "", "8 8 4 5", "T T 5 6", "9 9 6 7", "4 6 7 K"]


def test_TV_G01_chaos_no_pass_lock() -> None:
    g = _game(OC, _G, starter=2, places={0: 1, 1: 2})
    assert g.chaos
    _act(g, 2, "play 8 8")
    _act(g, 3, "pass")
    _act(g, 4, "play 9 9")
    _act(g, 5, "pass")
    _act(g, 2, "pass")
    # P3 passed on [8 8] and P4 is not its 对头, yet it is asked and may play.
    assert g.to_act == 3 and g.pending == "respond"
    assert "play T T" in _legal(g)
    _act(g, 3, "play T T")
    assert g.owner == 3


def test_TV_G02_chaos_round_ends_after_one_cycle() -> None:
    g = _game(OC, _G, starter=2, places={0: 1, 1: 2})
    n = len(g.log)
    _act(g, 2, "play 8 8")
    asked = _pass_around(g, [3, 4, 5])
    assert asked == [3, 4, 5]
    _assert_leads_next(g, leader=2, winner=2, since=n)


def test_TV_G03_chaos_no_gouji_protection() -> None:
    hands = ["", "", "J J J J 5 6", "Q Q Q Q 5 6", "4 6 7 8", "4 6 8 9"]
    g = _game(OC, hands, starter=2, places={0: 1, 1: 2})
    _act(g, 2, "play J J J J")
    assert not g.standing_protected
    assert g.to_act == 3 and g.pending == "respond"
    assert "play Q Q Q Q" in _legal(g)
    _act(g, 3, "play Q Q Q Q")
    assert g.owner == 3


def test_TV_G04_erke_round_normal_then_chaos() -> None:
    # P0 头科 in an earlier round: P3 is 无头. P1 goes out as 二科 with [K K].
    hands = ["", "K K", "4 5 6 7 8", "A A 5 6 7", "A A 6 7 8", "4 6 8 9 T"]
    g = _game(OC, hands, starter=1, places={0: 1})
    assert not g.chaos
    assert g.head(3) == NO_HEAD
    n = len(g.log)
    _act(g, 1, "play K K")
    assert g.places[1] == 2  # 二科
    assert g.standing_protected  # P4 (对头) was active when the play was made
    assert not g.chaos  # this round stays under normal rules
    # P2 skipped; P3, as a 无头 player that has not passed, is asked before P4.
    assert g.to_act == 3 and g.pending == "respond"
    assert "play A A" in _legal(g)
    _act(g, 3, "pass")
    assert g.to_act == 4
    assert g.head(4) == DEAD_LEVEL  # P4's answer is its 够死级
    m = len(g.log)
    _act(g, 4, "play A A")
    # 够死级: only a burner could answer; nobody is asked and P4 leads.
    _assert_leads_next(g, leader=4, winner=4, since=m)
    assert set(_seats_in_log(g, m)) == {4}
    assert 2 not in _seats_in_log(g, n)
    assert g.chaos  # chaos starts with the next round


def test_TV_G05_chaos_dead_play_explicit_kou() -> None:
    hands = ["", "", "LJ 8 8 4 5", "4 5 6 7", "5 6 7 9", "6 7 9 T"]
    g = _game(AU, hands, starter=2, places={0: 1, 1: 2})
    assert g.chaos
    n = len(g.log)
    _act(g, 2, "play LJ 8 8")
    assert g.to_act == 5 and g.pending == "kou"
    assert _legal(g) == ["kou"]
    assert (2, "round_won") not in _events(g, n)
    _act(g, 5, "kou")
    _assert_leads_next(g, leader=2, winner=2, since=n)

    # Had P5 been placed, the round would end at once.
    hands2 = ["", "", "LJ 8 8 4 5", "4 5 6 7", "5 6 7 9", ""]
    g2 = _game(AU, hands2, starter=2, places={0: 1, 1: 2, 5: 3})
    assert g2.chaos
    n2 = len(g2.log)
    _act(g2, 2, "play LJ 8 8")
    _assert_leads_next(g2, leader=2, winner=2, since=n2)
    assert all(text != "kou" for _, text in _events(g2, n2))


# ---------------------------------------------------------------------------- TV-P (R19)
def test_TV_P01_timeout_response_is_pass() -> None:
    for preset in (OC, OF, AU):
        g = _game(preset, _D03)
        n = len(g.log)
        _act(g, 0, "play J J J J")
        assert g.to_act == 3, preset
        assert "play Q Q Q Q" in _legal(g), preset
        a = timeout_action(g)
        assert a.text == "pass", preset
        g.apply(a, seat=3)
        # The automatic PASS is P3's 扣: the round ends.
        _assert_leads_next(g, leader=0, winner=0, since=n)


def test_TV_P02_timeout_lead_lowest() -> None:
    g = _game(OC, ["5 5 9 SJ K K", *_OTHERS_PLAIN])
    assert g.to_act == 0 and g.pending == "lead"
    a = timeout_action(g)
    assert a.text == "play 5"
    g.apply(a, seat=0)
    assert (0, "play 5") in g.log


def test_TV_P04_non_beating_play_rejected() -> None:
    hands = ["9 9 4 5 6", "8 8 5 6 7", "5 6 7 8 9", "4 6 8 9 T", "5 7 9 T J", "4 6 8 J Q"]
    for preset in (OC, OF, AU):
        g = _game(preset, hands)
        _act(g, 0, "play 9 9")
        assert g.to_act == 1, preset
        _assert_rejected(g, "play 8 8", "R5.1", seat=1)


def test_TV_P05_timeout_kou() -> None:
    g = _game(AU, ["LJ 7 7 4 5", *_OTHERS_PLAIN])
    n = len(g.log)
    _act(g, 0, "play LJ 7 7")
    assert g.to_act == 3 and g.pending == "kou"
    a = timeout_action(g)
    assert a.text == "kou"
    g.apply(a, seat=3)
    _assert_leads_next(g, leader=0, winner=0, since=n)


def test_TV_P06_timeout_after_rang_is_pass() -> None:
    g = _game(OC, _D05)
    n = len(g.log)
    _d05_to_rang(g)
    _act(g, 4, "pass")
    _act(g, 5, "pass")
    assert g.to_act == 3 and g.pending == "rang_return"
    a = timeout_action(g)
    assert a.text == "pass"
    g.apply(a, seat=3)
    _assert_leads_next(g, leader=0, winner=0, since=n)


_FORFEIT = {"sw.illegal": "forfeit_turn"}


def test_TV_P08_forfeit_illegal_lead() -> None:
    g = _game(OC, ["7 7 8 4 5", *_OTHERS_PLAIN], overrides=_FORFEIT)
    assert g.to_act == 0 and g.pending == "lead"
    n = len(g.log)
    hand0 = g.hand(0)
    g.apply("play 7 7 8", seat=0)  # illegal (R4.2): the lead is forfeited, no error
    assert any(s == 0 and t.startswith("forfeit") for s, t in _events(g, n))
    assert g.hand(0) == hand0
    # P1 leads a new round.
    assert g.to_act == 1 and g.pending == "lead"
    assert g.standing is None
    assert g.round_no == 2


def test_TV_P09_forfeit_illegal_response_is_pass() -> None:
    hands = ["9 9 4 5 6", "8 8 5 6 7", "5 6 7 8 9", "4 6 8 9 T", "5 7 9 T J", "4 6 8 J Q"]
    g = _game(OC, hands, overrides=_FORFEIT)
    _act(g, 0, "play 9 9")
    assert g.to_act == 1
    n = len(g.log)
    hand1 = g.hand(1)
    g.apply("play 8 8", seat=1)  # does not beat [9 9]: counts as PASS
    assert g.status[1] == PASSED
    assert g.hand(1) == hand1
    assert any(s == 1 and t.startswith("forfeit") for s, t in _events(g, n))
    assert g.to_act == 2 and g.pending == "respond"
    assert g.owner == 0
