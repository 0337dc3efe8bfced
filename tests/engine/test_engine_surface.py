"""The engine's surface beyond the vectors: claims (R10.2), private windows in views,
records that cannot be replayed, position building, unsupported modules."""

from __future__ import annotations

import json
import random

import pytest

from gouji import Game, IllegalAction, RecordError, UnsupportedRules, make_rules
from gouji.engine.referee.claims import order_problem

OC = make_rules("OUTLINE_CLASSIC")
OF = make_rules("OUTLINE_FULL")


def test_public_contract_names() -> None:
    import gouji

    for name in ("make_rules", "Play", "Game", "IllegalAction"):
        assert hasattr(gouji, name)
    g = Game.new(OF, 7)
    for attr in ("to_act", "legal_actions", "apply", "is_over", "places", "hand", "view"):
        assert hasattr(g, attr)
    assert issubclass(IllegalAction, ValueError)


CLAIM_HANDS = ["5 5 9 9 K K", "3 4", "3 6", "4 7 8 8", "6 J", "5 7"]


def claimed(order: str) -> Game:
    """P0 leads, claims (R10.2 step 1) and its teammate P2 gives ``order`` (step 2)."""
    g = Game.from_hands(OC, CLAIM_HANDS, 0)
    assert "tiao" in {a.text for a in g.legal_actions()}
    g.apply("tiao", seat=0)
    g.apply(order, seat=2)
    return g


def test_R10_2_claim_plays_out_and_auto_passes() -> None:
    """R10.2: the claim's plays are led in order; seats that cannot beat are passed."""
    g = claimed("order 5 5 | 9 9 | K K")
    # [5 5] led; P1, P2 cannot beat a pair of 5s… P3 holds 8 8 and is asked.
    assert g.standing is not None and g.standing.text == "5 5"
    assert g.to_act == 3
    assert (1, "pass auto") in g.log and (2, "pass auto") in g.log
    assert g.view(4)["claim"] == {"seat": 0, "cards": "9 9 K K"}
    g.apply("pass")  # P3 declines; nobody can beat 9 9 or K K: the claim runs to its end
    assert (0, "play 9 9") in g.log and (0, "play K K") in g.log
    assert g.places[0] == 1 and g.claimant == -1
    assert g.to_act == 1 and g.pending == "lead"  # 接风 (R7.9)


def test_R10_2_claim_ends_when_beaten() -> None:
    g = claimed("order 5 5 | 9 9 | K K")
    g.apply("play 8 8")  # P3 beats the claim
    assert g.claimant == -1 and "claim" not in g.view(4)
    assert g.hand(0) == "9 9 K K"


def test_R10_2_claim_is_two_decisions() -> None:
    """R10.2 (1.2): the claimant claims with a bare ``tiao`` and its hand becomes public;
    its first active teammate ccw fixes the order; ``legal_actions`` lists the canonical
    order, and ``apply`` takes any valid one."""
    g = Game.from_hands(OC, CLAIM_HANDS, 0)
    g.apply("tiao")
    assert g.pending == "order" and g.to_act == 2  # P2: the first teammate ccw from P0
    for seat in (None, 1, 2, 3):
        assert g.view(seat)["claim"] == {"seat": 0, "cards": "5 5 9 9 K K"}
    assert [a.text for a in g.legal_actions()] == ["order 5 5 | 9 9 | K K"]
    with pytest.raises(IllegalAction, match=r"R1\.5"):
        g.apply("order 5 5 | 9 9 | K K", seat=0)  # the claimant does not choose
    g.apply("order K K | 5 5 | 9 9")  # not the listed order, still valid
    plays = [t for s, t in g.log if s == 0 and t.startswith("play")]
    assert plays[:2] == ["play K K", "play 5 5"]  # nobody could answer K K: 5 5 came next
    assert (2, "order K K | 5 5 | 9 9") in g.log and (0, "tiao") in g.log


def test_R10_2_orderer_is_the_first_active_teammate_or_the_claimant() -> None:
    hands = ["5 5 9", "3 4", "", "4 7 8 8", "6 J", "5 7"]
    g = Game.from_hands(OC, hands, 0, places={2: 1})
    g.apply("tiao")
    assert g.to_act == 4  # P2 is out: P4 orders
    hands = ["5 5 9", "3 4", "", "4 7 8 8", "", "5 7"]
    g = Game.from_hands(OC, hands, 0, places={2: 1, 4: 2})
    g.apply("tiao")
    assert g.to_act == 0  # no active teammate: the claimant orders itself


def test_R10_2_order_must_name_the_whole_hand_in_legal_plays() -> None:
    g = Game.from_hands(OC, CLAIM_HANDS, 0)
    g.apply("tiao")
    for bad in ("order 5 5 | 9 9", "order 5 5 | 9 9 | K K K", "order 5 9 | 5 9 | K K"):
        with pytest.raises(IllegalAction, match=r"R10\.2|R4\.2"):
            g.apply(bad)
    assert g.pending == "order" and g.to_act == 2
    with pytest.raises(IllegalAction, match=r"R10\.2"):
        Game.from_hands(OF, ["3 5 5", "3 4", "3 6", "3 7", "3 8", "3 9"], 0).apply("tiao")
    g = Game.from_hands(OC, CLAIM_HANDS, 0)
    with pytest.raises(IllegalAction, match=r"R10\.2"):
        g.apply("order 5 5 | 9 9 | K K")  # an order comes after a claim


def test_R10_2_burner_order_keeps_R8_6() -> None:
    """Under a burn every play of the order but the last carries a joker (R8.6)."""
    hands = ["K K 5 5", "A A 6 7 8 SJ LJ", "4 4 8", "5 7 7", "8 8 9", "9 9 T"]
    g = Game.from_hands(OC, hands, 0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 1
    g.apply("burn A A")
    while g.pending != "lead":
        g.apply("pass")
    assert g.to_act == 1 and g.burner == 1
    g.apply("tiao")
    assert g.to_act == 3
    with pytest.raises(IllegalAction, match=r"R8\.6"):
        g.apply("order 6 SJ | 7 | 8 LJ")  # 7 is led bare with cards left
    with pytest.raises(IllegalAction, match=r"R10\.2"):
        g.apply("order 6 | 7 SJ | 8 LJ")  # a bare 6 is no burn lead now
    assert [a.text for a in g.legal_actions()] == ["order 6 SJ | 7 LJ | 8"]
    g.apply("order 8 SJ | 7 LJ | 6")


@pytest.mark.parametrize("twos_attach", [True, False])
def test_R10_2_canonical_order_is_always_valid(twos_attach: bool) -> None:
    """Random hands and states: the listed order passes the engine's own check."""
    rules = make_rules("OUTLINE_CLASSIC", {"play.twos_attach": twos_attach})
    rng = random.Random(3)
    checked = 0
    for seed in range(60):
        g = Game.new(rules, seed)
        while not g.is_over:
            legal = g.legal_actions()
            if g.pending == "lead" and rng.random() < 0.3 and "tiao" in {a.text for a in legal}:
                c = g.clone()
                c.apply("tiao")
                order = c.legal_actions()
                assert len(order) == 1 and not order_problem(c, order[0])
                checked += 1
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_burn_offer_is_private() -> None:
    """D9: other seats do not learn who is offered a burn."""
    hands = ["K K 5 5 9", "A A 6 6 J J SJ LJ", "4 4 8", "5 7 7", "8 8 9", "9 9 T"]
    g = Game.from_hands(OC, hands, 0)
    g.apply("play K K")
    assert g.pending == "burn_offer" and g.to_act == 1
    assert g.view(1)["to_act"] == 1
    for seat in (0, 2, 3, 4, 5, None):
        v = g.view(seat)
        assert v["to_act"] is None and v["waiting"] == "burn_offer"
    with pytest.raises(IllegalAction, match=r"R1\.5: it is not P2's turn"):
        g.apply("noburn", seat=2)
    g.apply("noburn")
    assert all(t != "noburn" for _, t in g.log)
    assert g.view(1)["private_events"][-1]["type"] == "noburn"


def test_view_never_shows_other_hands() -> None:
    g = Game.new(OF, 3)
    rng = random.Random(3)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    for seat in range(6):
        text = json.dumps(g.view(seat))
        assert g.view(seat)["hand"] == g.hand(seat)
        for other in range(6):
            if other != seat and g.hand(other):
                assert json.dumps(g.hand(other)) not in text or g.hand(other) == g.hand(seat)
    assert "hand" not in g.view(None)


def test_count_visibility() -> None:
    """R10.1: le10 shows counts ≤ 10; hidden shows only 'playing'."""
    hands = ["5 5 9 9 K K 6 6 6 7 7 7", "4 4", "3 6", "4 7 8 8", "6 J", "5 7"]
    g = Game.from_hands(OC, hands, 0)
    assert g.view(1)["counts"] == [">10", 2, 2, 4, 2, 2]
    g2 = Game.from_hands(OF, ["3 5 5", "3 4", "3 6", "3 7", "3 8", "3 9"], 0)
    assert g2.view(1)["counts"] == ["playing", 2, "playing", "playing", "playing", "playing"]


def test_corrupt_records_are_rejected_clearly() -> None:
    g = Game.new(OC, 1)
    rng = random.Random(1)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    rec = g.record()
    with pytest.raises(RecordError, match="format"):
        Game.from_record({**rec, "format": "other"})
    with pytest.raises(RecordError, match="rules"):
        Game.from_record({**rec, "rules": {"preset": "NOPE", "overrides": {}}})
    bad = {**rec, "actions": [*rec["actions"][:10], "play LJ LJ LJ LJ LJ"]}
    with pytest.raises(RecordError, match="action #10"):
        Game.from_record(bad)
    with pytest.raises(RecordError):
        Game.from_record({**rec, "actions": "pass"})
    with pytest.raises(RecordError):
        Game.from_record([])


def test_from_hands_rejects_impossible_positions() -> None:
    five = ["3 4"] * 5
    with pytest.raises(ValueError, match="six hands"):
        Game.from_hands(OC, five)
    with pytest.raises(ValueError, match="rank LJ"):
        Game.from_hands(OC, ["LJ LJ LJ", "LJ LJ", "4", "5", "6", "7"])
    with pytest.raises(ValueError, match="empty hand"):
        Game.from_hands(OC, ["", "4", "5", "6", "7", "8"])
    with pytest.raises(ValueError, match="starter"):
        Game.from_hands(OC, ["", "4", "5", "6", "7", "8"], 0, places={0: 1})
    with pytest.raises(ValueError, match="already over"):
        Game.from_hands(OC, ["4", "", "5", "", "6", ""], 0, places={1: 1, 3: 2, 5: 3})


def test_unsupported_modules_are_refused() -> None:
    with pytest.raises(UnsupportedRules, match=r"R9\.9"):
        Game.new(make_rules("OUTLINE_FULL", {"end.remaining_order": "team_choice"}), 1)


def test_declarations_are_asked_and_settled() -> None:
    """R11.8: 预点 before the deal, 明点 before the first lead; result() settles them."""
    rules = make_rules("OUTLINE_FULL", {"dian.declare": "ming_yu"})
    g = Game.new(rules, 2)
    assert g.pending == "yudian"
    asked = []
    while g.pending == "yudian":
        asked.append(g.to_act)
        g.apply("yudian" if g.to_act == g.opener else "noyudian")
    assert asked == [(g.opener + i) % 6 for i in range(6)]
    while g.pending != "mingdian":
        g.apply(g.legal_actions()[-1])
    assert g.opener not in g._ask  # one declaration per player per game
    rng = random.Random(4)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    decl = g.result()["declarations"]
    first = [d for d in decl if d["by"] == g.opener]
    assert first and first[0]["kind"] == "yudian" and first[0]["cards"] == 4
    assert first[0]["succeeded"] == (not g.opened[(g.opener + 3) % 6])


def test_R18_step1_yudian_before_the_opening() -> None:
    """R18 step 1 (1.2): 预点 is asked before the opening ("开牌前"), ccw from the opener, so
    nobody declares knowing who takes first; the draw and the deal are those of the seed."""
    rules = make_rules("OUTLINE_FULL", {"dian.declare": "ming_yu"})
    plain = make_rules("OUTLINE_FULL")
    for seed in range(5):
        g = Game.new(rules, seed)
        assert g.pending == "yudian" and g.to_act == g.opener
        assert not any(t.startswith(("opening_draw", "first_taker")) for _, t in g.log)
        for seat in (None, 0, 3):
            v = g.view(seat)
            assert v["first_taker"] is None and v["starter"] is None
            assert v["state"]["first_taker"] is None
        while g.pending == "yudian":
            g.apply("noyudian")
        b = Game.new(plain, seed)
        assert (g.first_taker, g.starter) == (b.first_taker, b.starter)
        opening = [t for _, t in g.log if t != "noyudian"]
        assert opening == [t for _, t in b.log][: len(opening)]


def test_broken_burn_penalty_places_the_burner_last() -> None:
    """R8.8 with ``burn.broken_penalty = lowest_place``: the beaten burner is out, last (R9.11)."""
    rules = make_rules("OUTLINE_CLASSIC", {"burn.broken_penalty": "lowest_place"})
    hands = ["K K 5 5 9", "A A 6 6 J J SJ LJ", "4 4 8", "5 7 7", "2 2 8 8 9", "9 9 T"]
    g = Game.from_hands(rules, hands, 0)
    g.apply("play K K")
    g.apply("burn A A")  # P1 burns P0 (R8.3)
    assert g.burner == 1
    while g.to_act != 4:  # the counter-burn window and answers until P4 (P1's 对头)
        g.apply("pass" if g.pending != "burn_offer" else "noburn")
    g.apply("play 2 2")  # P4 beats the burner's play: burn broken
    assert g.burner == -1 and g.places[1] == 6 and (1, "broken_burn 6") in g.log
    assert g.hand(1) == ""


@pytest.mark.parametrize("preset", ["OUTLINE_FULL", "OUTLINE_CLASSIC", "LAIWU", "AUDIT"])
def test_from_state_reproduces_the_game(preset: str) -> None:
    """A game rebuilt from its public state and the true hands plays on identically."""
    rules = make_rules(preset)
    play_phase = ("lead", "respond", "rang_return", "burn_offer", "kou")
    for seed in range(25):
        g = Game.new(rules, seed)
        rng = random.Random(seed)
        stop = rng.randrange(40, 400)
        steps = 0
        while not g.is_over and (steps < stop or g.pending not in play_phase):
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
        if g.is_over:
            continue
        state = g.public_state()
        state["to_act"] = g.to_act
        twin = Game.from_state(rules, json.loads(json.dumps(state)), g.hands)
        while not g.is_over:
            assert [a.text for a in twin.legal_actions()] == [a.text for a in g.legal_actions()]
            action = rng.choice(g.legal_actions())
            g.apply(action)
            twin.apply(action.text)
        assert twin.places == g.places and twin.opened == g.opened and twin.men == g.men


def test_view_state_hides_private_offers() -> None:
    hands = ["K K 5 5 9", "A A 6 6 J J SJ LJ", "4 4 8", "5 7 7", "8 8 9", "9 9 T"]
    g = Game.from_hands(OC, hands, 0)
    g.apply("play K K")
    assert g.view(1)["state"]["to_act"] == 1
    assert g.view(2)["state"]["to_act"] is None
