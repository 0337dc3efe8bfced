"""Conformance tests for the spec's test vectors TV-E (burning, R8) and TV-F (底牌, 够死级,
无头, revolution heads; R9, R15).

Every test builds a small position with ``Game.from_hands`` (first lead, pre-play skipped) and
checks the observable engine state named in the vector's "Expected" column. Hands are chosen
so that nobody else can beat (or burn) the plays under test unless the vector says so, and so
that R9.9 does not end the game early. Team A = P0, P2, P4; team B = P1, P3, P5.
"""

from __future__ import annotations

import pytest

from gouji import Action, Game, IllegalAction, Rules, make_rules
from gouji.engine.cards import parse_counts
from gouji.engine.referee.game import DEAD_LEVEL, LIVE, NO_HEAD

OC = "OUTLINE_CLASSIC"
OF = "OUTLINE_FULL"
AU = "AUDIT"
M7 = "MATCH7"


def rules(preset: str, overrides: dict[str, object] | None = None) -> Rules:
    return make_rules(preset, overrides) if overrides else make_rules(preset)


def act(text: str) -> str:
    """The canonical text of an action (card order does not matter in the input)."""
    return Action.parse(text).text


def legal(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def same_cards(hand_text: str, cards: str) -> bool:
    return parse_counts(hand_text) == parse_counts(cards)


def events(g: Game) -> list[tuple[int, str]]:
    return list(g.log)


# ---------------------------------------------------------------------------------- TV-E


def _e01_game(preset: str) -> Game:
    # P0 leads [K K]; P1 and P2 can each burn with [A A] (remainder {x x SJ}: r = 1).
    hands = ["K K 5 5 8 8", "A A 6 6 SJ", "A A 7 7 SJ", "4 4 5 5 9", "9 9 8 8 T", "T T 8 8 J"]
    g = Game.from_hands(rules(preset), hands, starter=0)
    g.apply("play K K")
    return g


def test_TV_E01_burn_priority() -> None:
    # OC (team_first): P2 (P0's teammate) is offered first and burns.
    g = _e01_game(OC)
    assert g.pending == "burn_offer"
    assert g.to_act == 2
    assert act("burn A A") in legal(g)
    declined = g.clone()
    g.apply("burn A A")
    assert g.burner == 2
    assert (2, "burning 0") in events(g)
    # the order continues with the opponents: P1 after P2 declines
    declined.apply("noburn")
    assert declined.pending == "burn_offer"
    assert declined.to_act == 1

    # M7 (seat_order): P1 first.
    g = _e01_game(M7)
    assert g.pending == "burn_offer"
    assert g.to_act == 1
    declined = g.clone()
    g.apply("burn A A")
    assert g.burner == 1
    assert (1, "burning 0") in events(g)
    declined.apply("noburn")
    assert declined.pending == "burn_offer"
    assert declined.to_act == 2


# Hands for the P1-burns-P0 positions (TV-E02 … TV-E07): only P1 can beat [K K] / [A A].
_P0 = "K K 5 5 8 8"
_P2 = "4 4 7 7 9"
_P3 = "5 5 9 9 T"
_P4 = "8 8 T T 9"
_P5 = "T Q Q 4 4"


def _p1_position(p1: str, p4: str = _P4, preset: str = OC) -> Game:
    g = Game.from_hands(rules(preset), [_P0, p1, _P2, _P3, p4, _P5], starter=0)
    g.apply("play K K")
    return g


def _p1_burned(p1: str, p4: str = _P4) -> Game:
    """P1 burns P0's [K K] with [A A]; P4 (P1's 对头) declines; P1 is to lead."""
    g = _p1_position(p1, p4)
    assert g.pending == "burn_offer" and g.to_act == 1
    g.apply("burn A A")
    assert g.pending == "respond" and g.to_act == 4  # no counter-burner; only the 对头
    g.apply("pass")
    assert g.pending == "lead" and g.to_act == 1
    assert g.burner == 1
    return g


def test_TV_E02_burn_refused_infeasible() -> None:
    g = _p1_position("A A 6 6 9 J J SJ")
    # remainder {6 6 9 J J SJ}: r = 3 with 1 joker -> P1 is no candidate, no burn window
    assert g.pending == "respond"
    assert g.to_act == 3
    with pytest.raises(IllegalAction):
        g.apply("burn A A", seat=1)
    assert g.burner == -1


def test_TV_E03_burn_allowed() -> None:
    g = _p1_position("A A 6 6 J J SJ LJ")
    assert g.pending == "burn_offer"
    assert g.to_act == 1
    assert act("burn A A") in legal(g)
    g.apply("burn A A")
    assert g.burner == 1
    assert (1, "burning 0") in events(g)
    assert g.owner == 1
    assert g.standing is not None and g.standing.text == act("play A A").split(None, 1)[1]


def test_TV_E04_burn_lead_needs_joker() -> None:
    g = _p1_burned("A A 6 6 J J SJ LJ")
    assert act("play 6 6") not in legal(g)
    with pytest.raises(IllegalAction, match=r"R8\.6"):
        g.apply("play 6 6")
    assert g.to_act == 1 and g.burner == 1


def test_TV_E05_burn_lead_must_stay_feasible() -> None:
    g = _p1_burned("A A 6 6 J J SJ")
    assert same_cards(g.hand(1), "6 6 J J SJ")
    assert act("play SJ 6") not in legal(g)
    with pytest.raises(IllegalAction, match=r"R8\.6"):
        g.apply("play SJ 6")
    assert g.to_act == 1 and g.burner == 1


def test_TV_E06_burn_success() -> None:
    g = _p1_burned("A A 6 6 J J SJ")
    g.apply("play SJ 6 6")
    # the burn lead is protected 够级: nobody can counter-burn, only P4 may answer
    assert g.pending == "respond" and g.to_act == 4
    g.apply("pass")
    assert g.pending == "lead" and g.to_act == 1
    g.apply("play J J")
    assert g.places[1] == 1
    assert (1, "burn_success") in events(g)
    assert g.burns == [(1, 0)]
    assert g.broken_burns == []


def test_TV_E07_burn_broken_by_duitou() -> None:
    g = _p1_burned("A A 6 6 J J SJ", p4="LJ 7 7 8 8")
    g.apply("play SJ 6 6")
    assert g.pending == "respond" and g.to_act == 4
    assert act("play LJ 7 7") in legal(g)
    g.apply("play LJ 7 7")
    assert g.broken_burns == [(1, 0)]
    assert g.burner == -1
    assert (1, "burn_broken") in events(g)
    # no penalty: P1 still plays
    assert g.places[1] is None and g.active[1]
    # the dead play ends the round (P1's 扣 automatic in OC); P4 leads
    assert (1, "kou") in events(g)
    assert g.pending == "lead" and g.to_act == 4


def test_TV_E08_passed_player_cannot_burn() -> None:
    hands = ["5 5 K K 8 8", "A A 9 9", "6 6 7 7", "5 5 7 T", "7 7 T J", "4 4 8 8 9"]
    g = Game.from_hands(rules(OC), hands, starter=5)
    g.apply("play 4 4")
    assert g.to_act == 0
    g.apply("play 5 5")
    assert g.to_act == 1
    g.apply("pass")  # P1 passes in this round
    assert g.to_act == 2
    g.apply("play 6 6")
    for seat in (3, 4, 5):
        assert g.to_act == seat
        g.apply("pass")
    assert g.to_act == 0
    g.apply("play K K")
    # P1 (PASSED) is no candidate: no burn window; P3 (P0's 对头) answers
    assert g.pending == "respond"
    assert g.to_act == 3
    with pytest.raises(IllegalAction):
        g.apply("burn A A", seat=1)

    # control: the same hands with [K K] as a fresh lead -> P1 is offered the burn
    c = Game.from_hands(rules(OC), hands, starter=0)
    c.apply("play K K")
    assert c.pending == "burn_offer" and c.to_act == 1
    assert act("burn A A") in legal(c)


def test_TV_E09_feasibility_bie3_vs_classic() -> None:
    hands = [_P0, "A A 2 3", _P2, _P3, _P4, _P5]
    # OF (憋3): remainder {2 3} is infeasible -> no offer
    g = Game.from_hands(rules(OF), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "respond"
    assert g.to_act == 3
    # OC: [2 3] is a single final play -> feasible
    g = Game.from_hands(rules(OC), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer"
    assert g.to_act == 1
    assert act("burn A A") in legal(g)


def test_TV_E10_burn_with_last_cards() -> None:
    # OC: P1 holds exactly [A A]: it finishes at once -> successful burn, kept after P4 beats it.
    hands = [_P0, "A A", _P2, _P3, "2 2 6 8 T", _P5]
    g = Game.from_hands(rules(OC), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 1
    g.apply("burn A A")
    assert g.places[1] == 1
    assert g.burns == [(1, 0)]
    assert (1, "burn_success") in events(g)
    assert g.pending == "respond" and g.to_act == 4
    g.apply("play 2 2")
    assert g.burns == [(1, 0)]
    assert g.broken_burns == []

    # AU (憋3): P1 holds [A A 3]; remainder {3} is feasible; P1 then leads [3] and finishes.
    # P3 and P5 hold only 3s, so they are 闷 when the burn round ends and the game ends
    # (R9.9) as soon as P1 is out, which lets the result show the burn bonus.
    hands = ["K K 8 8 3", "A A 3", "4 7 7 3", "3", "9 9 T 3", "3 3"]
    g = Game.from_hands(rules(AU), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 1
    assert act("burn A A") in legal(g)
    g.apply("burn A A")
    assert g.pending == "respond" and g.to_act == 4
    g.apply("pass")
    assert g.pending == "lead" and g.to_act == 1
    assert legal(g) == [act("play 3")]
    g.apply("play 3")
    assert (1, "burn_success") in events(g)
    assert g.burns == [(1, 0)]
    assert g.is_over
    assert g.result()["bonuses"]["burn"] == [0, 1]


def test_TV_E11_teammate_burn() -> None:
    hands = ["K K 5 5 8 8", "4 4 7 7 9", "A A 6 6 SJ", "5 5 9 9 T", "8 8 T T 9", "T Q Q 4 4"]
    g = Game.from_hands(rules(OC), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 2
    g.apply("burn A A")  # allowed: P2 is P0's teammate
    assert g.burner == 2
    assert g.pending == "respond" and g.to_act == 5
    g.apply("pass")
    assert g.pending == "lead" and g.to_act == 2
    g.apply("play SJ 6 6")
    assert g.places[2] == 1
    assert (2, "burn_success") in events(g)
    # same team: nothing recorded for bonuses or 烧贡
    assert g.burns == []


def test_TV_E12_counter_burn() -> None:
    hands = ["K K 2 2 8", "2 2 9", "A A 7 7 SJ", "2 2 T", "2 2 J", "2 2 Q"]
    g = Game.from_hands(rules(OC), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 2
    g.apply("burn A A")
    offered: list[int] = []
    for _ in range(3):
        assert g.pending == "burn_offer"
        assert g.to_act is not None
        offered.append(g.to_act)
        g.apply("noburn")
    assert g.pending == "burn_offer"
    assert g.to_act is not None
    offered.append(g.to_act)
    assert offered == [4, 0, 3, 1]
    after_all_declined = g.clone()
    g.apply("burn 2 2")
    assert g.broken_burns == [(2, 0)]
    assert g.burner == 1
    assert (1, "burning 2") in events(g)
    # P5 (P2's 对头) is never offered: once P1 declines too, P5 answers as the 对头
    after_all_declined.apply("noburn")
    assert after_all_declined.pending == "respond"
    assert after_all_declined.to_act == 5


def test_TV_E14_feasibility_twos_not_attached() -> None:
    r = rules(OC, {"play.twos_attach": False})
    # remainder {5 2}: k = 2, no joker -> infeasible
    g = Game.from_hands(r, [_P0, "A A 5 2", _P2, _P3, _P4, _P5], starter=0)
    g.apply("play K K")
    assert g.pending == "respond" and g.to_act == 3
    # (with 2s attachable the same remainder is feasible: one final play [2 5])
    c = Game.from_hands(rules(OC), [_P0, "A A 5 2", _P2, _P3, _P4, _P5], starter=0)
    c.apply("play K K")
    assert c.pending == "burn_offer" and c.to_act == 1

    # remainder {5 2 SJ}: feasible ([SJ 5] then [2], or [SJ 2] then [5])
    g = Game.from_hands(r, [_P0, "A A 5 2 SJ", _P2, _P3, _P4, _P5], starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 1
    assert set(legal(g)) == {act("burn A A"), "noburn"}
    g.apply("burn A A")
    assert g.pending == "respond" and g.to_act == 4
    g.apply("pass")
    assert g.pending == "lead" and g.to_act == 1
    # the burn leads (OC also lets a leader claim its hand: 挑牌, R10.2)
    assert set(legal(g)) == {act("play SJ 5"), act("play SJ 2"), "tiao"}


def test_TV_E15_burn_success_fixed_when_hand_empties() -> None:
    # AU. P3 holds only 3s (闷 at the end of the burn round); P5 keeps a 5 to play later.
    hands = ["K K 8 8 3", "A A 3", "4 7 7 3", "3", "9 9 T 3", "5 3"]
    g = Game.from_hands(rules(AU), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 1
    g.apply("burn A A")
    assert g.pending == "respond" and g.to_act == 4
    g.apply("pass")  # [A A] stands
    assert g.pending == "lead" and g.to_act == 1
    g.apply("play 3")  # P1's final play
    assert (1, "burn_success") in events(g)
    assert g.burns == [(1, 0)]
    assert not g.is_over
    assert g.pending == "respond" and g.to_act == 2
    g.apply("play 4")  # P2 beats the burner's final play
    assert g.burns == [(1, 0)]
    assert g.broken_burns == []
    assert (1, "burn_broken") not in events(g)
    # finish the game: P4 passes, P5 plays [5], the rest pass, P5 leads its [3]
    g.apply("pass")
    assert g.to_act == 5
    g.apply("play 5")
    while g.pending == "respond":
        g.apply("pass")
    assert g.pending == "lead" and g.to_act == 5
    g.apply("play 3")
    assert g.is_over
    res = g.result()
    assert res["burns"] == [[1, 0]]
    assert res["bonuses"]["burn"] == [0, 1]


def test_TV_E17_burn_leads_unprotected_after_duitou_men() -> None:
    hands = [
        "K K 8 8 3 3",
        "A A 7 7 J J SJ SJ 3",
        "LJ Q Q 9 9 3",
        "5 5 6 6 3",
        "3",
        "T T 4 4 3",
    ]
    g = Game.from_hands(rules(OF), hands, starter=0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 1
    g.apply("burn A A")  # remainder {7 7 J J SJ SJ 3}: k = 2, 2 jokers
    assert g.pending == "respond" and g.to_act == 4
    g.apply("pass")  # P4 holds only [3]
    # round won by P1; P4 is 闷, so P1 is 无头
    assert 4 in g.men
    assert g.pending == "lead" and g.to_act == 1
    assert g.burner == 1
    assert g.head(1) == NO_HEAD
    g.apply("play SJ 7 7")
    assert not g.standing_protected
    # unprotected: no burn window, every active player who has not passed answers in turn
    for seat in (2, 3, 5, 0):
        assert g.pending == "respond" and g.to_act == seat
        g.apply("pass")
    assert g.pending == "lead" and g.to_act == 1
    assert g.burner == 1
    g.apply("play SJ J J")
    assert not g.standing_protected
    assert g.pending == "respond" and g.to_act == 2
    g.apply("play LJ Q Q")
    assert g.broken_burns == [(1, 0)]
    assert g.burner == -1
    assert (5, "kou") in events(g)
    assert g.pending == "lead" and g.to_act == 2


# ---------------------------------------------------------------------------------- TV-F


def _f01_game() -> Game:
    """OC. P2 was placed earlier (大落), so P5 is 无头; P0 holds only [A A]."""
    hands = ["A A", "LJ LJ 8 8", "", "2 2 Q Q Q 9", "K K K 7 7", "SJ SJ 6 6"]
    return Game.from_hands(rules(OC), hands, starter=0, places={2: 6})


def _f01_through_gsj(g: Game) -> None:
    g.apply("play A A")
    assert g.places[0] == 1
    # burn window for [A A]: P1 could burn ([LJ LJ]) and declines
    assert g.pending == "burn_offer" and g.to_act == 1
    g.apply("noburn")
    assert g.pending == "respond" and g.to_act == 3
    assert g.head(3) == DEAD_LEVEL


def test_TV_F01_gousiji_after_touke() -> None:
    g = _f01_game()
    _f01_through_gsj(g)
    g.apply("play 2 2")  # legal
    assert g.standing_dead_level
    # burn window first (P1 could burn and declines) ...
    assert g.pending == "burn_offer" and g.to_act == 1
    g.apply("noburn")
    # ... then nobody may answer, not even the 无头 P5 that could beat it: P3 leads
    assert g.pending == "lead"
    assert g.to_act == 3
    assert g.head(3) == NO_HEAD


def test_TV_F02_gousiji_on_bare_threes() -> None:
    # P4 could beat [2 2] with [SJ SJ] in an ordinary turn but cannot burn (remainder {7 7 3}
    # under 憋3); P5 can burn ([LJ LJ], remainder {SJ 8 3}) and declines.
    hands = ["3 3", "5 5 3", "6 6 3", "2 2 9 3", "SJ SJ 7 7 3", "LJ LJ SJ 8 3"]
    for preset, opens in ((OF, False), (AU, True)):
        g = Game.from_hands(rules(preset), hands, starter=0)
        g.apply("play 3 3")
        assert g.places[0] == 1
        assert g.to_act == 1
        g.apply("pass")
        assert g.to_act == 2
        g.apply("pass")
        assert g.to_act == 3
        assert g.head(3) == DEAD_LEVEL
        g.apply("play 2 2")  # legal
        assert g.standing_protected and g.standing_dead_level, preset
        assert g.pending == "burn_offer" and g.to_act == 5, preset
        g.apply("noburn")
        # nobody may answer (P4 is never asked): P3 wins the round and leads
        i = g.log.index((3, act("play 2 2")))
        j = g.log.index((3, "round_won"), i)
        assert all(seat == 3 for seat, _ in g.log[i:j]), preset
        assert g.pending == "lead", preset
        assert g.to_act == 3, preset
        assert g.opened[3] is opens, preset


def test_TV_F03_wutou_gouji_unprotected() -> None:
    g = _f01_game()
    _f01_through_gsj(g)
    g.apply("play 2 2")
    g.apply("noburn")
    assert g.pending == "lead" and g.to_act == 3
    g.apply("play Q Q Q")
    assert not g.standing_protected
    assert g.pending == "respond" and g.to_act == 4
    assert g.head(4) == LIVE
    g.apply("play K K K")  # legal: P4 is neither P3's 对头 nor 无头
    assert g.owner == 4


def test_TV_F04_wutou_answers_protected_in_turn() -> None:
    hands = [
        "",
        "T T T T T 8 9",
        "A A A A A 6 7",
        "J J J J J 5 6",
        "Q Q Q Q Q 5 6",
        "K K K K K 4 5",
    ]
    g = Game.from_hands(rules(OC), hands, starter=1, places={0: 1})
    assert g.head(3) == NO_HEAD
    g.apply("play T T T T T")
    assert g.standing_protected
    # P2 skipped; the 无头 P3 is asked before P4 (the 对头)
    assert g.pending == "respond" and g.to_act == 3
    g.apply("play J J J J J")
    assert not g.standing_protected
    for seat, beat in ((4, "play Q Q Q Q Q"), (5, "play K K K K K"), (1, None), (2, None)):
        assert g.pending == "respond" and g.to_act == seat
        if beat is not None:
            assert act(beat) in legal(g)
        g.apply("pass")
    assert g.pending == "lead" and g.to_act == 3


def test_TV_F05_burned_gousiji_uses_the_chance() -> None:
    hands = ["A A", "5 5 9 9", "6 6 7", "2 2 LJ LJ 9 9", "SJ SJ 7 7", "8 8 T T"]
    g = Game.from_hands(rules(OC), hands, starter=0)
    g.apply("play A A")
    assert g.pending == "burn_offer" and g.to_act == 4
    g.apply("noburn")
    assert g.pending == "respond" and g.to_act == 3
    g.apply("play 2 2")
    assert g.standing_dead_level
    assert g.pending == "burn_offer" and g.to_act == 4
    g.apply("burn SJ SJ")
    assert g.burner == 4
    # the chance is used up: P3 is 无头 for the rest of the round
    assert g.head(3) == NO_HEAD
    assert g.pending == "respond" and g.to_act == 1
    g.apply("pass")
    assert g.pending == "respond" and g.to_act == 3
    g.apply("play LJ LJ")
    assert not g.standing_dead_level
    assert not g.standing_protected


def _f06_game(renounced: bool, p4: str = "K K 5 5 8") -> Game:
    hands = ["4 4 6 6", "", "7 7 9 9", "T T J", p4, "A A 6 6"]
    return Game.from_hands(rules(OC), hands, starter=4, revolutionary=1, renounced=renounced)


def test_TV_F06_revolution_gousiji() -> None:
    g = _f06_game(renounced=False)
    assert g.head(4) == DEAD_LEVEL
    g.apply("play K K")
    assert g.standing_dead_level
    assert g.rev_chances_used[4] == 1
    # P5 can burn ([A A], remainder {6 6}) and declines; nobody else may answer
    assert g.pending == "burn_offer" and g.to_act == 5
    g.apply("noburn")
    assert g.pending == "lead" and g.to_act == 4


def test_TV_F07_renounced_revolution_chances() -> None:
    g = _f06_game(renounced=True)
    assert g.head(4) == NO_HEAD
    g.apply("play K K")
    assert not g.standing_protected
    assert g.pending == "respond" and g.to_act == 5
    assert act("play A A") in legal(g)
    g.apply("play A A")
    assert g.owner == 5


def test_TV_F08_revolution_chances_used_up() -> None:
    hands = ["4 4 6 6", "", "7 7 9 9", "T T J", "K K Q Q Q J J J J A A 5", "2 2 6 7 8"]
    g = Game.from_hands(rules(OC), hands, starter=4, revolutionary=1, renounced=False)
    for n, lead in enumerate(("play K K", "play Q Q Q", "play J J J J"), start=1):
        assert g.pending == "lead" and g.to_act == 4
        assert g.head(4) == DEAD_LEVEL
        g.apply(lead)
        # 够死级: nobody is asked (P5 could beat [K K] with [2 2] but cannot burn); P4 leads
        assert g.log[-3:] == [(4, act(lead)), (4, "gousiji"), (4, "round_won")]
        assert g.rev_chances_used[4] == n
    assert g.pending == "lead" and g.to_act == 4
    assert g.head(4) == NO_HEAD
    g.apply("play A A")
    assert not g.standing_protected
    assert g.pending == "respond" and g.to_act == 5
    assert act("play 2 2") in legal(g)
