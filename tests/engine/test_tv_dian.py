"""TV-H: 开点 and 点贡 (R11), one test per vector, for what a single game shows.

What one game shows: ``g.opened`` during the game, ``g.result()["opened"]`` (R11.5: not opened
at game end = 不开点) and ``g.result()["declarations"]`` (R11.8 settlements owed).

Out of scope here (issue 3, the match layer): the *payment* of 点贡 and of declaration
settlements in the next game's tribute phase (TV-H04, TV-H05, TV-H06, TV-H12, TV-H13 payment
parts). The LW parts run in LAIWU (开壶 = 开点 with ``dian.qualifier = pure`` and
``dian.deadline = touke``, R13.4); where a vector isolates one LW rule it is also tested through
OUTLINE_FULL with the LW key. LAIWU's deck holds only six 3s and six 4s (R13.1), so its
positions hold at most six of each.

Positions: team A = P0, P2, P4; team B = P1, P3, P5. Under 憋3 (OF, AU) every hand that must
still play holds a 3 (R4.7), and nobody holds only 3s at a round end led by someone else
unless the vector wants a 闷 (R12.6).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gouji
from gouji import Game, make_rules, timeout_action
from gouji.engine.cards import tokens
from gouji.engine.referee.game import NO_HEAD
from support import OD_OVERRIDES, end_round

OF = make_rules("OUTLINE_FULL")
AU = make_rules("AUDIT")
L4 = make_rules("LIANG4")
OD = make_rules("OUTLINE_CLASSIC", OD_OVERRIDES)
LW = make_rules("LAIWU")
#: LW's 开壶 qualifier (R11.2 ``pure``) on OF.
OF_PURE = make_rules("OUTLINE_FULL", {"dian.qualifier": "pure"})
#: LW's qualifier and deadline (R13.4: ``pure`` + ``touke``) on OF.
OF_TOUKE = make_rules("OUTLINE_FULL", {"dian.qualifier": "pure", "dian.deadline": "touke"})

NOT_OPENED = [False] * 6


def play_all(g: Game, actions: list[str]) -> None:
    """Apply actions in turn, each by the seat whose turn it is."""
    for a in actions:
        g.apply(a)


def finish(g: Game, choose: Callable[[Game], str | None] | None = None) -> dict[str, Any]:
    """Play to the end: ``choose`` may pick an action, else the R19.2 default (pass / decline /
    lowest lead). Returns ``g.result()``."""
    for _ in range(5000):
        if g.is_over:
            return g.result()
        picked = choose(g) if choose is not None else None
        g.apply(picked if picked is not None else timeout_action(g))
    raise AssertionError("the game did not end")


def wins_round(rules: gouji.Rules, hands: list[str], lead: str, **kw: Any) -> Game:
    """P0 leads ``lead``; everybody asked declines (P3's decline is its 扣); returns the game
    after the round ended (P0 leads again, or 接风 if P0 went out)."""
    g = Game.from_hands(rules, hands, starter=0, **kw)
    g.apply(lead)
    end_round(g)
    assert (0, "round_won") in g.log, "P0 must win the round"
    return g


# Five other hands that cannot beat anything the vectors lead and never hold only 3s.
SMALL_3 = ["4 3", "5 3", "6 3", "7 3", "8 3"]
SMALL = ["4", "5", "6", "7", "8"]


def test_TV_H01_qualifiers() -> None:
    """R11.2: P0's ``[SJ Q Q Q]`` wins its round before the deadline. OF (``outline``): opened;
    AU (``audit``, jokers never): not; LW (``pure``): not."""
    hands = ["SJ Q Q Q 5 3", *SMALL_3]
    g = wins_round(OF, hands, "play SJ Q Q Q")
    assert g.opened == [True] + [False] * 5
    assert (0, "opened") in g.log
    assert (g.pending, g.to_act) == ("lead", 0)

    g = wins_round(AU, hands, "play SJ Q Q Q")
    assert g.opened == NOT_OPENED
    assert (g.pending, g.to_act) == ("lead", 0)

    for rules in (LW, OF_PURE):  # LW, and LW's qualifier on OF
        g = wins_round(rules, hands, "play SJ Q Q Q")
        assert g.opened == NOT_OPENED
        assert (0, "opened") not in g.log
        assert (g.pending, g.to_act) == ("lead", 0)
    # The same round with the pure [Q Q Q] opens under every one of these qualifiers.
    for rules in (OF, AU, OF_PURE, LW):
        assert wins_round(rules, ["Q Q Q 5 3", *SMALL_3], "play Q Q Q").opened[0]


def test_TV_H02_single_two() -> None:
    """R11.2: P0's single ``[2]`` wins its round: OF opened; AU not (single 2); LW not. With
    ``[2 2]``: AU opened, LW not."""
    hands = ["2 2 5 3", *SMALL_3]
    assert wins_round(OF, hands, "play 2").opened[0] is True
    assert wins_round(AU, hands, "play 2").opened == NOT_OPENED
    assert wins_round(OF_PURE, hands, "play 2").opened == NOT_OPENED
    assert wins_round(LW, hands, "play 2").opened == NOT_OPENED
    assert wins_round(AU, hands, "play 2 2").opened[0] is True
    assert wins_round(OF_PURE, hands, "play 2 2").opened == NOT_OPENED
    assert wins_round(LW, hands, "play 2 2").opened == NOT_OPENED
    assert wins_round(OF, hands, "play 2 2").opened[0] is True


def test_TV_H03_dead_level_after_touke_deadline() -> None:
    """R11.4, TV-F02: P0 goes out as 头科 with bare ``[3 3]``; P1, P2 decline; P3 (头科's 对头,
    not opened) wins the round with its 够死级 ``[2 2]``. OF: the 活 comes after P3's deadline
    (头科's final play) → P3 不开点 at game end. AU (``erke``): P3 opened."""
    hands = ["3 3", "4 3", "5 3", "2 2 3", "6 3", "7 3"]
    for rules, opened in ((OF, False), (AU, True)):
        g = Game.from_hands(rules, hands, starter=0)
        play_all(g, ["play 3 3", "pass", "pass"])
        assert g.places[0] == 1
        assert g.to_act == 3
        assert g.head(3) != NO_HEAD  # 够死级 right (R9.4 a)
        g.apply("play 2 2")
        # Its 够死级: nobody may answer and no burner exists, so P3 wins the round at once.
        assert (g.pending, g.to_act) == ("lead", 3)
        assert g.opened[3] is opened
        result = finish(g)
        assert result["opened"][3] is opened
        assert result["opened"][0] is False  # bare 3s never open (TV-H09)


def test_TV_H04_not_opened_at_game_end() -> None:
    """R11.5 (the 点贡 payment of the next game is issue 3): P0 opens with ``[K K]``; P3, the
    头科's 对头, wins a round with ``[A A]`` only after P0's final play → at game end P0 is
    opened and P3 不开点 (it owes P0 its 点贡)."""
    hands = ["K K 3", "4 3", "5 3", "A A 9 3", "6 3", "7 3"]
    g = Game.from_hands(OF, hands, starter=0)
    play_all(g, ["play K K", "pass"])  # P3's 扣: P0's 够级 wins its round
    assert g.opened[0] and (g.pending, g.to_act) == ("lead", 0)
    play_all(g, ["play 3", "pass", "pass", "play 9", "pass", "pass"])
    assert g.places[0] == 1
    assert (g.pending, g.to_act) == ("lead", 3)
    g.apply("play A A")  # unprotected (P3 is 无头), and nobody can beat it
    end_round(g)
    assert (g.pending, g.to_act) == ("lead", 3)
    result = finish(g)
    assert result["opened"] == [True, False, False, False, False, False]


def test_TV_H05_both_duitou_not_opened() -> None:
    """R11.5, R11.7 (the OF exchange / LW cancel is paid next game, issue 3): P1 opens (开壶
    in LW) with ``[K K]``; P0 and P3 win rounds only with plays that are not 够级 → at game
    end P0 and P3 are both 不开点, in OF and in LW."""
    hands = ["9 9 7 3", "K K 5 3", "4 3", "T T 8 3", "6 3", "6 3"]
    for rules in (OF, LW):
        g = Game.from_hands(rules, hands, starter=0)
        play_all(g, ["play 9 9", "play K K", "pass"])  # P4's 扣 on P1's protected 够级
        assert g.opened == [False, True, False, False, False, False]
        play_all(g, ["play 5", "pass", "play 8"])
        end_round(g)
        assert (g.pending, g.to_act) == ("lead", 3)  # P3 won with [8]
        g.apply("play T T")  # T×2 is not 够级
        end_round(g)
        assert (g.pending, g.to_act) == ("lead", 3)
        result = finish(g)
        assert result["opened"][0] is False and result["opened"][3] is False
        assert result["opened"][1] is True
    assert OF.dian_mutual == "exchange"
    assert LW.dian_mutual == "cancel"


def _declaration_game(
    rules: gouji.Rules, seed: int, ming: dict[int, str]
) -> tuple[Game, dict[str, Any]]:
    """Game.new with P4 the first taker (and so the starter, R3.4 ``first_taker``); ``ming``
    maps a declarer to ``yudian``/``mingdian``; everything else declines and passes."""
    g = Game.new(rules, seed, first_taker=4)

    def choose(g: Game) -> str | None:
        if g.pending == "yudian" and ming.get(g.to_act or 0) == "yudian":
            return "yudian"
        if g.pending == "mingdian":
            assert ming.get(g.to_act or 0) != "yudian", "one declaration per player (R11.8)"
            if ming.get(g.to_act or 0) == "mingdian":
                return "mingdian"
        return None

    return g, finish(g, choose)


def test_TV_H06_declaration_overturned() -> None:
    """R11.8 (settlement paid next game, issue 3): P1 declared 明点 on P4 and P4 opened → 翻车:
    P1 owes 2 cards to P4; 预点 → 4; with ``ming_yu_double`` 4 / 8. A declaration whose 对头
    did not open succeeds: the declarer receives 2 (明点) / 4 (预点)."""
    my = make_rules("OUTLINE_FULL", {"dian.declare": "ming_yu"})
    dbl = make_rules("OUTLINE_FULL", {"dian.declare": "ming_yu_double"})
    # Find a seed where P4 opens and P3 does not (everybody passes; P4 leads first).
    for seed in range(200):
        g, res = _declaration_game(my, seed, {})
        if g.revolutionary is None and res["opened"][4] and not res["opened"][3]:
            break
    else:
        raise AssertionError("no seed with P4 opened and P3 not opened")
    cases = [
        (my, {1: "mingdian", 0: "yudian"}, 2, 4),
        (my, {1: "yudian", 0: "mingdian"}, 4, 2),
        (dbl, {1: "mingdian", 0: "yudian"}, 4, 4),
        (dbl, {1: "yudian", 0: "mingdian"}, 8, 2),
    ]
    for rules, ming, cards_p1, cards_p0 in cases:
        g, res = _declaration_game(rules, seed, ming)
        assert res["opened"][4] is True and res["opened"][3] is False
        decl = {d["by"]: d for d in res["declarations"]}
        assert set(decl) == {0, 1}
        assert decl[1] == {
            "by": 1,
            "on": 4,
            "kind": ming[1],
            "succeeded": False,
            "cards": cards_p1,
        }
        assert decl[0] == {"by": 0, "on": 3, "kind": ming[0], "succeeded": True, "cards": cards_p0}


def test_TV_H07_touke_deadline() -> None:
    """R11.4, R13.4 (LW): a 头科 (P1) exists; P2's pure ``[K K]`` wins its round → not 开壶.
    The same with LW's ``dian.qualifier = pure`` and ``dian.deadline = touke`` on OF. Under
    the ``outline`` deadline the same play opens P2 (not the 头科's 对头), and in LW it opens
    P2 while there is no 头科 yet."""
    hands = ["4 3", "", "K K 5 3", "6 3", "7 3", "8 3"]
    for rules, opened in ((LW, False), (OF_TOUKE, False), (OF_PURE, True)):
        g = Game.from_hands(rules, hands, starter=2, places={1: 1})
        g.apply("play K K")
        end_round(g)  # P4 (无头, R6.4 b) and P5 (对头) decline
        assert (g.pending, g.to_act) == ("lead", 2)
        assert g.opened[2] is opened
    g = Game.from_hands(LW, ["4 3", "9 3", "K K 5 3", "6 3", "7 3", "8 3"], starter=2)
    g.apply("play K K")
    end_round(g)  # P5's 扣
    assert (g.pending, g.to_act) == ("lead", 2)
    assert g.opened == [False, False, True, False, False, False]


def test_TV_H08_liang4_final_play_opens() -> None:
    """R11.3, R11.4 (``erke``, own final play included), R11.2 ``no_attach``: P0's final play
    ``[A A]`` makes it 头科 and nobody beats it → P0 opened. ``[2 A]`` (attached 2) would not."""
    g = wins_round(L4, ["A A", *SMALL], "play A A")
    assert g.places[0] == 1
    assert g.opened[0] is True
    g = wins_round(L4, ["2 A", *SMALL], "play 2 A")
    assert g.places[0] == 1
    assert g.opened[0] is False


def test_TV_H09_final_bare_threes_never_open() -> None:
    """R4.7, R11.4: under 憋3 (OF, AU, LW) a final play is bare 3s, never 够级, so it never
    opens."""
    for rules in (OF, AU):
        g = wins_round(rules, ["3 3", *SMALL_3], "play 3 3")
        assert g.places[0] == 1
        assert g.opened == NOT_OPENED
    # LW's deck has six 3s (R13.1): P5 holds none.
    g = wins_round(LW, ["3 3", "4 3", "5 3", "6 3", "7 3", "8 9"], "play 3 3")
    assert g.places[0] == 1
    assert g.opened == NOT_OPENED


def test_TV_H10_wutou_player_opens() -> None:
    """R11.2 (no protection needed, AMB-65), R11.4: P0 became 头科 earlier; P3 (无头, not
    opened) leads ``[K K]`` and nobody beats it. AU: P3 opened; OF: not (its deadline was the
    头科's final play)."""
    hands = ["", "4 3", "5 3", "K K 9 3", "6 3", "7 3"]
    for rules, opened in ((AU, True), (OF, False)):
        g = Game.from_hands(rules, hands, starter=3, places={0: 1})
        assert g.head(3) == NO_HEAD
        g.apply("play K K")
        assert not g.standing_protected  # R9.8 a
        play_all(g, ["pass", "pass", "pass", "pass"])  # P4, P5, P1, P2
        assert (g.pending, g.to_act) == ("lead", 3)
        assert g.opened[3] is opened


def test_TV_H11_men_duitou_can_still_open() -> None:
    """R11.2, R12.7: P1 is 闷'd before 二科, so P4 is 无头; P4's ``[Q Q Q]`` wins its round
    before 二科's final play → P4 opened."""
    hands = ["5 5 6 6 6 3", "3", "7 3", "8 3", "Q Q Q 9 3", "T 3"]
    g = Game.from_hands(OF, hands, starter=0)
    play_all(g, ["play 5 5", "pass", "pass", "pass", "pass", "pass"])
    assert g.men == [1] and g.places[1] == 6  # R12.6: 闷 at the round end led by P0
    assert g.head(4) == NO_HEAD
    play_all(g, ["play 6 6 6", "pass", "pass", "play Q Q Q"])
    assert not g.standing_protected
    play_all(g, ["pass", "pass"])  # P5, P0; P2 and P3 passed and are skipped
    assert (g.pending, g.to_act) == ("lead", 4)
    assert g.opened == [False, False, False, False, True, False]


def _revolution_seed(rules: gouji.Rules, no_three: bool) -> int:
    """A seed whose dealt hand of P4 has no 2/SJ/LJ (and no 3 when ``no_three``, R12.4)."""
    banned = {"2", "SJ", "LJ"} | ({"3"} if no_three else set())
    for seed in range(30000):
        g = Game.new(rules, seed)
        if g.pending == "geming" and not banned & set(tokens(g.hand(4))):
            return seed
    raise AssertionError("no seed found")


def _yudian_on_revolutionary(
    rules: gouji.Rules, plain: gouji.Rules, no_three: bool
) -> dict[str, Any]:
    """P1 declares 预点 on P4 before the deal; P4 revolts; everything else declines. The seed
    is found with ``plain`` (the same rules without declarations: the same shuffle)."""
    banned = {"2", "SJ", "LJ"} | ({"3"} if no_three else set())
    seed = _revolution_seed(plain, no_three)
    g = Game.new(rules, seed)
    assert g.pending == "yudian"

    def choose(g: Game) -> str | None:
        if g.pending == "yudian":
            return "yudian" if g.to_act == 1 else "noyudian"
        if g.pending == "geming":
            if g.to_act == 4:
                assert not banned & set(tokens(g.hand(4)))
                return "geming"
            return "nogeming"
        return None

    res = finish(g, choose)
    assert res["revolutionary"] == 4
    return res


def test_TV_H12_declaration_against_revolutionary() -> None:
    """R11.6, R11.8, AMB-66: P1 declared 预点 on P4, P4 revolts. Under 憋3 (OF) P4 counts as
    opened → 翻车 (P1 owes 4); with ``bie3.enabled = false``, ``rev.mode = outline`` P4 is
    不开点 (认点) → the declaration succeeds (P4 owes 4)."""
    of_my = make_rules("OUTLINE_FULL", {"dian.declare": "ming_yu"})
    res = _yudian_on_revolutionary(of_my, OF, no_three=True)
    assert res["opened"][4] is True
    assert res["declarations"] == [
        {"by": 1, "on": 4, "kind": "yudian", "succeeded": False, "cards": 4}
    ]
    no_bie3_keys: dict[str, object] = {"bie3.enabled": False, "rev.mode": "outline"}
    no_bie3 = make_rules("OUTLINE_FULL", {**no_bie3_keys, "dian.declare": "ming_yu"})
    plain = make_rules("OUTLINE_FULL", no_bie3_keys)
    res = _yudian_on_revolutionary(no_bie3, plain, no_three=False)
    assert res["opened"][4] is False
    assert res["declarations"] == [
        {"by": 1, "on": 4, "kind": "yudian", "succeeded": True, "cards": 4}
    ]


def test_TV_H13_liang4_dian_status() -> None:
    """R11.5, R11.7 (the 点贡 payment itself is issue 3): L4; P0 opens with ``[K K]``, P3 never
    opens; P5 is 大落 → at game end P3 不开点, P0 opened."""
    hands = ["K K 5", "4 4", "", "6", "7", "8 8 9"]
    g = Game.from_hands(L4, hands, starter=0, places={2: 1})
    play_all(g, ["play K K", "pass", "pass"])  # P3's 扣; P5 (无头, R6.4 b) declines
    assert g.opened[0] and (g.pending, g.to_act) == ("lead", 0)
    play_all(g, ["play 5", "pass", "pass", "pass", "pass"])  # P0 二科; 接风 P1
    assert g.places[0] == 2 and (g.pending, g.to_act) == ("lead", 1)
    play_all(g, ["play 4 4", "pass", "pass", "pass"])  # P1 三科; 接风 P3
    play_all(g, ["play 6", "pass", "pass"])  # P3 四科; 接风 P4
    play_all(g, ["play 7"])  # P4 二落, P5 大落
    res = g.result()
    assert res["places"] == [2, 3, 1, 4, 5, 6]
    assert res["opened"] == [True, False, False, False, False, False]


def test_TV_H14_touke_duitou_keeps_touke_deadline() -> None:
    """R11.4, AMB-73 (OD): P3 had not opened when P0 became 头科; P3 goes out as 二科 with
    ``[A A]``, which stands → P3 不开点. For another player (P4) 二科's own final play counts."""
    g = Game.from_hands(OD, ["", "5", "6 6", "A A", "7 7", "8 8"], starter=3, places={0: 1})
    play_all(g, ["play A A", "pass", "pass", "pass", "pass"])
    assert g.places[3] == 2
    assert g.opened[3] is False
    res = finish(g)
    assert res["opened"][3] is False

    g = Game.from_hands(OD, ["", "5", "6 6", "7 7", "A A", "8 8"], starter=4, places={0: 1})
    g.apply("play A A")
    end_round(g)
    assert g.places[4] == 2
    assert g.opened[4] is True


def test_TV_H15_liang4_no_attach_qualifier() -> None:
    """R4.10, R11.2 ``no_attach``: opens: ``[SJ SJ]``, ``[2 2]``, ``[K K]``; does not open:
    ``[2 K]`` (attached 2), ``[SJ K K]`` (attached joker), ``[LJ LJ]`` (LJ), ``[9 9]``."""
    cases = {
        "SJ SJ": True,
        "2 2": True,
        "K K": True,
        "2 K": False,
        "SJ K K": False,
        "LJ LJ": False,
        "9 9": False,
    }
    for play, opens in cases.items():
        g = wins_round(L4, [play + " 5", *SMALL], "play " + play)
        assert g.opened[0] is opens, play
