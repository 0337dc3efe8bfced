"""The rules changed in spec 1.2 (§CH2): R9.4 / AMB-74, R15.4 / AMB-75, R11.5 / AMB-76, and
``Game.from_hands`` refusing positions no game can reach. (R10.2's two-step 挑牌 and R18 step 1's
预点 are in ``test_engine_surface.py``.)

Team A = P0, P2, P4; team B = P1, P3, P5; 对头 of Pi is P(i+3).
"""

from __future__ import annotations

import pytest

from gouji import Game, make_rules, timeout_action
from gouji.engine.referee.game import DEAD_LEVEL, LIVE
from gouji.engine.tribute import obligations

OF = make_rules("OUTLINE_FULL")
COMP2 = make_rules("COMP2")


def finish(g: Game) -> None:
    """Everybody takes the R19.2 default (lowest lead, pass, decline) to the game's end."""
    while not g.is_over:
        g.apply(timeout_action(g))


# -- R9.4 / AMB-74: the 对头 of a new 头科 holds the 无头 rights in that round --------------


def amb74_position() -> Game:
    """P0 goes out with ``3 3``; P1 answers ``K K`` (protected: P1's 对头 P4 is live)."""
    hands = ["3 3", "K K 5 3", "5 3", "A A 6 3", "2 2 7 3", "4 4 3"]
    g = Game.from_hands(OF, hands, starter=0)
    g.apply("play 3 3")
    assert g.places[0] == 1
    g.apply("play K K")
    assert g.standing_protected and g.head(1) == LIVE
    return g


def test_R9_4_AMB_74_duitou_of_new_touke_answers_before_the_duitou() -> None:
    g = amb74_position()
    # nobody can burn (P4's 2 2 would leave 7 3: R8.5), so the answers begin: P2 is not
    # eligible (R6.4); P3, 对头 of the new 头科, is asked before P4 and may beat K K
    assert g.head(3) == DEAD_LEVEL
    assert g.pending == "respond" and g.to_act == 3
    assert "play A A" in {a.text for a in g.legal_actions()}
    g.apply("play A A")  # a 够级 play of a DEAD_LEVEL seat: its 够死级 (R9.5)
    # only a burner could answer it, and none can: P3 wins the round at once, P4 unasked
    assert g.log[-3:] == [(3, "play A A"), (3, "gousiji"), (3, "round_won")]
    assert g.pending == "lead" and g.to_act == 3


def test_R9_4_AMB_74_passing_keeps_the_duitou_asked() -> None:
    """P3 may pass like any 无头 player; P4, 对头 of P1, is asked next (R6.4 a)."""
    g = amb74_position()
    g.apply("pass")
    assert g.pending == "respond" and g.to_act == 4


def test_R9_4_AMB_74_only_in_the_round_of_the_finish() -> None:
    """In later rounds the seat is plainly 无头 (no 够死级 chance any more)."""
    g = amb74_position()
    g.apply("pass")  # P3
    g.apply("pass")  # P4 (扣); P5, P1's teammate, may not answer protected 够级 (R6.4)
    assert g.pending == "lead" and g.to_act == 1
    assert g.head(3) != DEAD_LEVEL


def test_R9_4_AMB_74_plain_answer_keeps_the_gousiji_chance() -> None:
    """docs D40: a play that is not 够级 is unprotected and uses no 够死级 chance."""
    hands = ["3 3", "9 9 5 3", "4 4 3", "T T A A 3", "5 3", "4 3"]
    g = Game.from_hands(OF, hands, starter=0)
    g.apply("play 3 3")
    g.apply("play 9 9")  # not 够级: anyone active may answer in turn
    g.apply("pass")  # P2
    assert g.to_act == 3
    g.apply("play T T")  # two tens are not 够级 (R6.1: T needs 5)
    assert not g.standing_protected and not g.dead_level_used[3] and g.head(3) == DEAD_LEVEL


# -- R15.4 / AMB-75: the revolutionary is 三科 also after forced places ------------------------


def amb75_game(preset: str = "OUTLINE_FULL") -> Game:
    """P1 has revolted (四科). P3 leads 9 9 and wins the round; P4, P0 and P2 hold only 3s and
    are 闷 (6, 5, then 3, since 四科 is the revolutionary's); team B alone remains."""
    hands = ["3", "", "3 3", "9 9 6 3", "3", "8 8 7 4 3 3"]
    g = Game.from_hands(make_rules(preset), hands, starter=3, revolutionary=1)
    g.apply("play 9 9")
    for seat in (4, 5, 0, 2):
        assert g.to_act == seat
        g.apply("pass")
    assert g.is_over
    return g


@pytest.mark.parametrize("preset", ["OUTLINE_FULL", "COMP2"])
def test_R15_4_AMB_75_revolutionary_takes_third_after_forced_places(preset: str) -> None:
    g = amb75_game(preset)
    assert g.men == [4, 0, 2]
    # P3 (2 cards) and P5 (6 cards) take 头科 and 二科; the revolutionary becomes 三科 and
    # P2's forced 三科 moves to 四科
    assert g.places == [5, 3, 4, 1, 6, 2]
    assert (1, "place 3") in g.log and (2, "moved 4") in g.log
    res = g.result()
    assert res["chuan"] == 1
    if preset == "OUTLINE_FULL":
        assert res["team_scores"] == [0, 12]  # R17.1: 串三户 records 12


def test_R15_4_revolutionary_stays_fourth_otherwise() -> None:
    """Only both teammates at 头科 and 二科 lift the revolutionary to 三科."""
    hands = ["5 3", "", "8 3", "9 9 3", "7 3", "4 4 3"]
    g = Game.from_hands(OF, hands, starter=3, revolutionary=1)
    finish(g)
    assert g.places[1] == 4
    assert {g.places[3], g.places[5]} != {1, 2}


def test_R15_4_revolutionary_third_in_outline_classic() -> None:
    """Same in every preset with 革命: OC (outline revolution, no 憋3)."""
    oc = make_rules("OUTLINE_CLASSIC")
    hands = ["5 6", "", "7 8", "K K", "9 T", "A"]
    g = Game.from_hands(oc, hands, starter=3, revolutionary=1)
    g.apply("play K K")  # P3 out: 头科
    g.apply("pass")  # P0, the 对头, declines; K K stands and P4 leads by 接风
    g.apply("play 9")
    g.apply("play A")  # P5 out: 二科; team A alone remains
    assert g.is_over
    assert g.places[3] == 1 and g.places[5] == 2 and g.places[1] == 3
    assert {g.places[s] for s in (0, 2, 4)} == {4, 5, 6}
    assert g.result()["chuan"] == 1


# -- R11.5 / AMB-76: an early end takes no 开点 chance --------------------------------------


def test_R11_5_AMB_76_players_in_play_at_an_early_end_count_as_opened() -> None:
    """P1 leads and wins; P2, P4, P0 are 闷 (TV-O05's position): team B alone remains before
    any deadline closed. P1, P3, P5 count as opened; the 闷'd seats are judged as usual."""
    hands = ["3", "9 9 8 8 3", "3 3", "5 5 6 6 7 3", "3 3 3", "7 7 4 4 6 6 3"]
    g = Game.from_hands(COMP2, hands, starter=1, opened=[3])
    g.apply("play 9 9")
    for _ in range(5):
        g.apply("pass")
    assert g.is_over and g.men == [2, 4, 0]
    res = g.result()
    assert res["opened"] == [False, True, False, True, False, True]
    # R17.2: the 不开点 bonus goes to team B for each 闷'd team-A seat, none to team A
    assert res["bonuses"]["dian"] == [0, 3]
    # no 点贡 is owed by the players who were still in play (R11.7)
    payers = {p.payer for p in obligations(COMP2, res) if p.kind == "dian"}
    assert payers == {0, 2, 4}


def test_R11_5_closed_deadline_stays_closed_at_an_early_end() -> None:
    """A deadline that closed before the end (二科's final play) is not reopened: P5 is left
    holding cards, not opened, when team A has run out."""
    hands = ["", "", "3", "9 9 3", "3", "7 7 3"]
    g = Game.from_hands(OF, hands, starter=2, places={0: 1, 1: 2})
    finish(g)  # P2 goes out with its 3; P3 leads by 接风 and P4 is 闷: team B alone remains
    assert g.men == [4]
    assert sum(g.hands[3]) > 0 and sum(g.hands[5]) > 0  # both still held cards
    assert "opened_at_end" not in {t for _, t in g.log}
    assert not any(g.opened)


# -- from_hands: positions no game can reach ------------------------------------------------


def test_from_hands_rejects_third_held_while_second_is_free_with_a_revolutionary() -> None:
    hands = ["5 3", "", "", "9 9 3", "7 3", "4 4 3"]
    with pytest.raises(ValueError, match=r"三科 held while 头科 is free.*R9\.2.*R9\.11"):
        Game.from_hands(OF, hands, starter=3, places={2: 3}, revolutionary=1)


@pytest.mark.parametrize(
    ("places", "revolutionary", "ok"),
    [
        ({2: 3}, None, False),  # 三科 by going out needs 头科 and 二科 taken
        ({2: 6, 4: 5, 3: 1}, 1, True),  # 头科, then forced 6 and 5
        ({2: 1, 4: 6}, None, True),
        ({2: 1, 4: 5}, None, False),  # a forced place is the worst free one: 大落 first
        ({2: 2}, None, False),
    ],
)
def test_from_hands_places_are_best_and_worst_free(
    places: dict[int, int], revolutionary: int | None, ok: bool
) -> None:
    hands = ["5 3", "6 3", "7 3", "8 3", "9 3", "T 3"]
    for seat in (*places, revolutionary):
        if seat is not None:
            hands[seat] = ""
    starter = next(s for s in range(6) if hands[s])
    if ok:
        Game.from_hands(OF, hands, starter=starter, places=places, revolutionary=revolutionary)
    else:
        with pytest.raises(ValueError, match="impossible places"):
            Game.from_hands(OF, hands, starter=starter, places=places, revolutionary=revolutionary)


def test_from_hands_rejects_other_impossible_histories() -> None:
    hands = ["5 3", "6 3", "7 3", "8 3", "9 3", "T 3"]
    with pytest.raises(ValueError, match=r"R15\.5"):
        Game.from_hands(OF, hands, renounced=True)
    oc = make_rules("OUTLINE_CLASSIC")
    with pytest.raises(ValueError, match=r"R11\.1"):
        Game.from_hands(oc, ["5", "6", "7", "8", "9", "T"], opened=[2])
    od = make_rules("OUTLINE_CLASSIC", {"dian.enabled": True, "trib.enabled": True})
    with pytest.raises(ValueError, match=r"R11\.6"):
        Game.from_hands(od, ["5", "", "7", "8", "9", "T"], revolutionary=1, opened=[1])
