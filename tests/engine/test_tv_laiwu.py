"""TV-M and the LAIWU vectors (R13, with R2.4, R8.2, R8.5, R12.3, R19.2), one test per vector.

LAIWU (R13): 196 cards (``deck.remove = {3: 10, 4: 10}``, AMB-40), no 2 attachments, 憋3,
开壶 = 开点 with the ``pure`` qualifier and the ``touke`` deadline, the 4s rule (R13.5), 买3 /
买4 (R13.3), 会5 (R13.8), no revolution (R13.7).

Positions: team A = P0, P2, P4; team B = P1, P3, P5. The deck has only six 3s and six 4s, so a
position holds at most six of each; every hand that must still play holds a 3 (R4.7), and no
hand holds only 3s at a round end led by someone else unless the vector wants a 闷 (R12.6).

The dealt hands of ``Game.new(LW, seed)`` are observed with the same seed under LAIWU without
憋3 and 买4 (``NOBUY``): the rules differ only after the deal, so the shuffle is the same.
"""

from __future__ import annotations

import re

import pytest

from gouji import Game, IllegalAction, make_rules, timeout_action
from gouji.engine.cards import LJ, NUM_RANKS, R2, R3, R4, R5, SJ, rank_of
from support import end_round

LW = make_rules("LAIWU")
#: LW with the 4s rule's ``four_lead_all`` (R13.5 b: all of its 4s).
LW_ALL4 = make_rules("LAIWU", {"laiwu.four_lead_all": True})
#: The same deal as LW, without any buying: the dealt hands at the first lead.
NOBUY = make_rules("LAIWU", {"bie3.enabled": False, "laiwu.buy4": False})

SEATS = 6
#: Ranks 3, 4, 5 … A, 2, SJ, LJ in the preset deck (R2.1, R13.1).
LW_DECK = [6, 6] + [16] * 11 + [4, 4]

Buy = tuple[int, int, int, int | None]  # (buyer, seller, rank, payment rank or None = free)


def texts(g: Game) -> set[str]:
    """The legal actions of the seat to act, as text."""
    return {a.text for a in g.legal_actions()}


def rejected(g: Game, action: str, seat: int | None = None) -> None:
    """``action`` is refused (``sw.illegal = reject``) and leaves the state unchanged."""
    before = (g.pending, g.to_act, [g.hand(s) for s in range(SEATS)], len(g.actions), g.round_no)
    with pytest.raises(IllegalAction):
        g.apply(action, seat)
    assert (g.pending, g.to_act, [g.hand(s) for s in range(SEATS)], len(g.actions), g.round_no) == (
        before
    )


def buys(g: Game) -> list[Buy]:
    """The 买3 / 买4 events of ``g.log`` in order, with each buyer's private payment."""
    paid: dict[int, list[tuple[int, int]]] = {}  # buyer -> [(rank paid, seller)] in order
    for seat in range(SEATS):
        for e in g.view(seat)["private_events"]:
            if e["type"] == "paid":
                paid.setdefault(seat, []).append((rank_of(e["cards"]), e["to"]))
    out: list[Buy] = []
    for seat, text in g.log:
        m = re.fullmatch(r"buy([34]) from (\d)( free)?", text)
        if not m:
            continue
        seller = int(m[2])
        pay: int | None = None
        if not m[3]:
            pay, to = paid[seat].pop(0)
            assert to == seller
        out.append((seat, seller, rank_of(m[1]), pay))
    assert all(not v for v in paid.values()), "a payment without a buy event"
    return out


def dealt(seed: int) -> list[list[int]]:
    """The hands ``Game.new(LW, seed)`` deals, before buying (R18 step 3)."""
    g = Game.new(NOBUY, seed)
    assert g.pending == "lead" and not buys(g)
    return [list(h) for h in g.hands]


def replay_buys(g: Game, seed: int) -> list[tuple[Buy, list[list[int]]]]:
    """Each buy of ``Game.new(LW, seed)`` with the hands just before it; the transfers, made
    on the dealt hands, must give the hands at the first lead exactly."""
    hands = dealt(seed)
    out: list[tuple[Buy, list[list[int]]]] = []
    for b in buys(g):
        out.append((b, [h[:] for h in hands]))
        buyer, seller, rank, pay = b
        hands[seller][rank] -= 1
        hands[buyer][rank] += 1
        if pay is not None:
            hands[buyer][pay] -= 1
            hands[seller][pay] += 1
    assert hands == g.hands, "the logged buys do not explain the hands at the first lead"
    return out


def seller_order(buyer: int) -> list[int]:
    """R13.3: 对头, then own teammates, then the other opponents (each group ccw from the
    buyer)."""
    return [(buyer + i) % SEATS for i in (3, 2, 4, 1, 5)]


def lowest_payment(hand: list[int]) -> int | None:
    """R12.3: the buyer's lowest of 2, SJ, LJ; None = the card is given free."""
    return next((r for r in (R2, SJ, LJ) if hand[r]), None)


# ---------------------------------------------------------------------- deck and buying


def test_reduced_deck_196_cards() -> None:
    """R13.1, R2.4: 196 cards (six 3s, six 4s); 196 = 6 × 32 + 4, so the first taker and the
    next three seats ccw get 33 cards, the last two 32."""
    assert LW.deck_remove == {"3": 10, "4": 10}
    for seed in range(12):
        taker = seed % SEATS
        g = Game.new(LW, seed, first_taker=taker)
        assert g.pending == "lead"
        assert g.count_cards() == 196
        assert [sum(h[r] for h in g.hands) for r in range(NUM_RANKS)] == LW_DECK
        hands = Game.new(NOBUY, seed, first_taker=taker).hands
        assert [sum(hands[(taker + i) % SEATS]) for i in range(SEATS)] == [33] * 4 + [32] * 2
        assert [sum(h[r] for h in hands) for r in range(NUM_RANKS)] == LW_DECK
        if not any(pay is None for *_, pay in buys(g)):
            # a paid purchase swaps one card for one: the hand sizes stay as dealt
            assert [sum(g.hands[(taker + i) % SEATS]) for i in range(SEATS)] == (
                [33] * 4 + [32] * 2
            )
    # without a given first taker, the opening decides it (R3.1)
    g = Game.new(LW, 99)
    taker = g.first_taker
    assert (taker, "first_taker") in g.log
    hands = Game.new(NOBUY, 99).hands
    assert [sum(hands[(taker + i) % SEATS]) for i in range(SEATS)] == [33] * 4 + [32] * 2


def test_buy3_buy4_one_each_and_seller_order() -> None:
    """R13.3, R12.3: after buying every player holds exactly one 3 and one 4; each buyer (ccw
    from the starter) buys from the first of 对头 → own teammates → other opponents holding
    at least two, paying its lowest 2/SJ/LJ (free without one)."""
    kinds: set[str] = set()
    for seed in range(40):
        g = Game.new(LW, seed)
        assert g.pending == "lead" and g.to_act == g.starter
        for h in g.hands:
            assert (h[R3], h[R4]) == (1, 1)
        start = dealt(seed)
        for rank in (R3, R4):
            ccw = [(g.starter + i) % SEATS for i in range(SEATS)]
            expected_buyers = [s for s in ccw if start[s][rank] == 0]
            assert [b for b, _s, r, _p in buys(g) if r == rank] == expected_buyers
        for (buyer, seller, rank, pay), hands in replay_buys(g, seed):
            assert hands[buyer][rank] == 0
            first = next(s for s in seller_order(buyer) if hands[s][rank] >= 2)
            assert seller == first, (seed, buyer, rank)
            assert pay == lowest_payment(hands[buyer]), (seed, buyer)
            if rank == R4:
                i = seller_order(buyer).index(seller)
                kinds.add(("duitou", "own", "own", "other", "other")[i])
    # the seeds exercise every seller group of 买4
    assert kinds == {"duitou", "own", "other"}


def test_TV_M04_buy4_from_own_teammate() -> None:
    """TV-M04 (R13.3): P1 has no 4; P4 (对头) has one 4; P3 has two → P1 buys a 4 from P3
    (own teammate) and pays its lowest of 2/SJ/LJ."""
    found = 0
    for seed in range(600):
        g = Game.new(LW, seed)
        for (buyer, seller, rank, pay), hands in replay_buys(g, seed):
            if (buyer, rank) != (1, R4):
                continue
            if hands[1][R4] == 0 and hands[4][R4] == 1 and hands[3][R4] == 2:
                found += 1
                assert seller == 3, seed
                assert pay == lowest_payment(hands[1]), seed
                assert (1, "buy4 from 3") in g.log or (1, "buy4 from 3 free") in g.log
                # the 4 moved from P3 to P1; P4 kept its only 4
                assert g.hands[1][R4] == 1 and g.hands[3][R4] == 1 and g.hands[4][R4] == 1
        if found >= 3:
            break
    assert found >= 3, "no seed gives the TV-M04 position"


def test_hui5_after_chuan() -> None:
    """R13.8, R18 step 7: the 串'd team's first active member ccw from the starter is asked
    "hui 5" / "nohui" after buying; "hui 5" takes every 5 out of all six hands."""
    for team_, taker, asked in ((1, 0, 1), (1, 1, 1), (1, 2, 3), (1, 5, 5), (0, 1, 2), (0, 4, 4)):
        g = Game.new(LW, 7, first_taker=taker, hui5_team=team_)
        assert g.starter == taker  # R3.4 first_taker
        assert (g.pending, g.to_act) == ("hui5", asked)
        assert texts(g) == {"hui 5", "nohui"}
        assert timeout_action(g).text == "nohui"  # R19.2: 会5 is never chosen automatically
        for h in g.hands:  # buying (step 6) came first
            assert (h[R3], h[R4]) == (1, 1)
        assert sum(h[R5] for h in g.hands) == 16
        g.apply("hui 5")
        assert (asked, "hui 5") in g.log
        assert all(h[R5] == 0 for h in g.hands)
        assert g.count_cards() == 196  # the 5s are set aside, not lost
        assert (g.pending, g.to_act) == ("lead", taker)
    g = Game.new(LW, 7, first_taker=0, hui5_team=1)
    g.apply("nohui")
    assert sum(h[R5] for h in g.hands) == 16
    assert (g.pending, g.to_act) == ("lead", 0)
    # no 串 in the previous game: nobody is asked
    g = Game.new(LW, 7, first_taker=0)
    assert (g.pending, g.to_act) == ("lead", 0)
    assert sum(h[R5] for h in g.hands) == 16


# ---------------------------------------------------------------------- TV-M: the 4s rule


def test_TV_M01_no_fours_before_kaihu() -> None:
    """TV-M01 (R13.5 a): no 头科 yet, P0 has not 开壶 → leading ``[4 4]`` (or ``[4]``) is
    illegal. An opened P0 may lead them."""
    hands = ["4 4 9 3", "5 3", "6 3", "7 3", "8 3", "T 3"]
    g = Game.from_hands(LW, hands, starter=0)
    assert (g.pending, g.to_act) == ("lead", 0)
    assert texts(g) == {"play 9"}
    rejected(g, "play 4 4")
    rejected(g, "play 4")
    g = Game.from_hands(LW, hands, starter=0, opened=[0])
    assert texts(g) == {"play 9", "play 4", "play 4 4"}


def test_TV_M02_lead_fours_after_kaihu() -> None:
    """TV-M02 (R13.5 b): P0's pure ``[Q Q Q]`` wins its round (开壶); P0 holds 4s → leading
    ``[9 9]`` is illegal, ``[4]`` (and ``[4 4]``: ``four_lead_all`` is off) legal. The duty
    holds for one lead."""
    hands = ["Q Q Q 9 9 4 4 3", "5 3", "6 3", "7 3", "8 3", "T 3"]
    g = Game.from_hands(LW, hands, starter=0)
    assert texts(g) == {"play Q", "play Q Q", "play Q Q Q", "play 9", "play 9 9"}
    g.apply("play Q Q Q")
    end_round(g)  # nobody can burn; P3's 扣
    assert (g.pending, g.to_act) == ("lead", 0)
    assert g.opened == [True] + [False] * 5
    assert (0, "opened") in g.log
    assert texts(g) == {"play 4", "play 4 4"}
    rejected(g, "play 9 9")
    rejected(g, "play 9")
    g.apply("play 4")
    end_round(g)
    assert (g.pending, g.to_act) == ("lead", 0)
    assert texts(g) == {"play 9", "play 9 9", "play 4"}  # the next lead is free again


def test_four_lead_all() -> None:
    """R13.5 (b) with ``laiwu.four_lead_all = true``: the lead after 开壶 is all of P0's 4s."""
    hands = ["Q Q Q 9 9 4 4 3", "5 3", "6 3", "7 3", "8 3", "T 3"]
    g = Game.from_hands(LW_ALL4, hands, starter=0)
    g.apply("play Q Q Q")
    end_round(g)
    assert (g.pending, g.to_act) == ("lead", 0)
    assert g.opened[0]
    assert texts(g) == {"play 4 4"}
    rejected(g, "play 4")
    rejected(g, "play 9 9")
    g.apply("play 4 4")
    assert g.hand(0) == "3 9 9"


def test_TV_M03_fours_free_after_touke() -> None:
    """TV-M03 (R13.5 c): a 头科 exists; P2 never 开壶'd → P2 may lead ``[4]``; P2 can no
    longer 开壶 (its pure ``[K K]`` then wins its round without opening). Without a 头科 the
    same hand may not lead the 4."""
    no_touke = Game.from_hands(LW, ["5 3", "9 3", "4 K K 3", "6 3", "7 3", "8 3"], starter=2)
    assert texts(no_touke) == {"play K", "play K K"}

    g = Game.from_hands(LW, ["5 3", "", "4 K K 3", "6 3", "7 3", "8 3"], starter=2, places={1: 1})
    assert "play 4" in texts(g)
    g.apply("play 4")
    end_round(g)
    assert (g.pending, g.to_act) == ("lead", 2)
    g.apply("play K K")
    end_round(g)
    assert (g.pending, g.to_act) == ("lead", 2)
    assert g.opened == [False] * 6
    assert (2, "opened") not in g.log


def _tv_m05(extra: str = "") -> Game:
    """TV-M05: no 头科; P2 (not 开壶'd) wins a round with ``[9 9]`` and holds ``{4 3}`` (plus
    ``extra``)."""
    hands = ["5 3", "6 3", f"9 9 4 3 {extra}".strip(), "7 3", "8 3", "T 3"]
    g = Game.from_hands(LW, hands, starter=2)
    assert "play 4" not in texts(g)
    g.apply("play 9 9")
    end_round(g)
    assert (g.pending, g.to_act) == ("lead", 2)
    assert g.places == [None] * 6
    return g


def test_TV_M05_stuck_lead_unlocks_fours() -> None:
    """TV-M05 (R13.5 d, AMB-61): P2 must lead with ``{4 3}`` → ``[4]`` is legal (the lock
    ends); ``[3]`` (does not empty the hand, R4.7), ``[4 3]`` (R4.2) and PASS (R4.1) are
    illegal. P2 may still finish, even as 头科."""
    g = _tv_m05()
    assert g.hand(2) == "3 4"
    assert texts(g) == {"play 4"}
    assert (2, "four_unlocked") in g.log
    rejected(g, "play 3")
    rejected(g, "play 4 3")
    rejected(g, "pass")
    g.apply("play 4")
    end_round(g)
    assert (g.pending, g.to_act) == ("lead", 2)
    assert texts(g) == {"play 3"}
    g.apply("play 3")
    assert g.places[2] == 1
    assert g.opened[2] is False


def test_TV_M06_no_unlock_with_another_lead() -> None:
    """TV-M06 (R13.5 d): P2 holds ``{4 3 SJ}`` → only ``[SJ]`` is legal: a legal lead
    exists, so the lock stays and ``[4]``, ``[SJ 4]`` are illegal. (Once the ``[SJ]`` has
    stood, ``{4 3}`` is stuck and the lock ends.)"""
    g = _tv_m05("SJ")
    assert g.hand(2) == "3 4 SJ"
    assert texts(g) == {"play SJ"}
    assert (2, "four_unlocked") not in g.log
    rejected(g, "play 4")
    rejected(g, "play SJ 4")
    g.apply("play SJ")
    end_round(g)  # nobody holds an LJ or may burn; P5's 扣
    assert (g.pending, g.to_act) == ("lead", 2)
    assert g.opened[2] is False  # [SJ] is not pure 够级
    assert texts(g) == {"play 4"}
    assert (2, "four_unlocked") in g.log


def test_TV_P07_timeout_stuck_lead() -> None:
    """TV-P07 (R19.2, R13.5 d): TV-M05; P2's timer expires → automatic lead ``[4]``."""
    g = _tv_m05()
    action = timeout_action(g)
    assert action.text == "play 4"
    g.apply(action)
    assert g.hand(2) == "3"
    assert g.round_plays == [(2, "4")]


# ---------------------------------------------------------------------- burning (R8)


def _kk_burn_window(p1: str) -> Game:
    """A 头科 (P2) exists; P0 leads a protected ``[K K]`` (P3 active); P1 holds ``p1``."""
    hands = ["K K 6 3", p1, "", "7 3", "8 3", "9 3"]
    g = Game.from_hands(LW, hands, starter=0, places={2: 1})
    g.apply("play K K")
    assert g.standing_protected
    return g


def test_TV_E13_no_burn_without_feasible_rest() -> None:
    """TV-E13 (R8.2, R8.5, R13.2): P1 holds ``{A A 5 2 3 SJ}`` → no candidate: ``[A A]``
    leaves ``{5 2 3 SJ}`` (k = 2, one joker), ``[SJ A]`` leaves ``{A 5 2 3}``, ``[SJ 2]``
    leaves ``{A A 5 3}``. Nobody is offered the burn; P3 (对头) answers."""
    g = _kk_burn_window("A A 5 2 3 SJ")
    assert (g.pending, g.to_act) == ("respond", 3)
    assert texts(g) == {"pass"}
    rejected(g, "burn A A", seat=1)
    rejected(g, "burn A A")
    assert not any(t.startswith("burn") for _s, t in g.log)
    # one more joker makes [A A] feasible ({5 2 3 SJ SJ}: k = 2, two jokers): P1 is offered
    g = _kk_burn_window("A A 5 2 3 SJ SJ")
    assert (g.pending, g.to_act) == ("burn_offer", 1)
    assert texts(g) == {"burn A A", "noburn"}


def test_TV_E16_no_two_attached_in_burn() -> None:
    """TV-E16 (R8.2, R4.2, R13.2): P1 holds ``{2 A SJ SJ 3}``; ``[2 A]`` is no legal play in
    Laiwu (its remainder ``{SJ SJ 3}`` would be feasible); ``[SJ A]`` (remainder ``{2 SJ 3}``,
    k = 1, one joker) is a legal burn, and so is ``[SJ 2]`` (remainder ``{A SJ 3}``)."""
    g = _kk_burn_window("2 A SJ SJ 3")
    assert (g.pending, g.to_act) == ("burn_offer", 1)
    offers = g.legal_actions()
    assert {a.text for a in offers} == {"burn A SJ", "burn 2 SJ", "noburn"}
    for a in offers:  # no offered play has a 2 beside another base rank
        assert a.play is None or not (a.play.n2 and a.play.nbase)
    rejected(g, "burn 2 A")
    g.apply("burn SJ A")
    assert (1, "burning 0") in g.log
    assert g.view(None)["burner"] == 1
    assert g.hand(1) == "3 2 SJ"


def test_four_lock_binds_burns() -> None:
    """R13.5, R8.2: while (a) binds a would-be burner, it is a candidate only if no 4 is left
    after its beating play. No 头科; P0 leads a protected ``[K K]``; P1 holds
    ``{A A 4 SJ 3}``: ``[A A]`` leaves ``{4 SJ 3}`` (feasible, R8.5) but holds a 4 → no offer.
    Once P1 has 开壶'd, the same burn is offered."""
    hands = ["K K 6 3", "A A 4 SJ 3", "5 3", "7 3", "8 3", "9 3"]
    g = Game.from_hands(LW, hands, starter=0)
    g.apply("play K K")
    assert g.standing_protected
    assert (g.pending, g.to_act) == ("respond", 3)
    rejected(g, "burn A A", seat=1)
    g = Game.from_hands(LW, hands, starter=0, opened=[1])
    g.apply("play K K")
    assert (g.pending, g.to_act) == ("burn_offer", 1)
    assert texts(g) == {"burn A A", "noburn"}


# ---------------------------------------------------------------------- TV-K05 (R13.7)


def test_TV_K05_no_revolution_in_laiwu() -> None:
    """TV-K05 (LW, R13.7, R15.1 ``off``): no 革命 decision ever occurs, even for a dealt hand
    without 3s and 2/SJ/LJ (the hand ``rev.mode = bie3_only`` would offer it to), and
    ``Game.from_hands(..., revolutionary=...)`` is refused."""
    bie3_only = make_rules("LAIWU", {"rev.mode": "bie3_only"})
    for seed in range(5000):
        offer = Game.new(bie3_only, seed)
        if offer.pending == "geming":
            break
    else:
        raise AssertionError("no seed deals a hand that may revolt")
    seat = offer.to_act
    assert seat is not None
    hand = offer.hands[seat]
    assert hand[R3] == hand[R2] == hand[SJ] == hand[LJ] == 0
    assert dealt(seed)[seat] == hand  # the same deal under LAIWU

    g = Game.new(LW, seed)
    assert g.pending == "lead"
    assert g.revolutionary is None
    rejected(g, "geming")
    for _ in range(5000):
        if g.is_over:
            break
        assert g.pending != "geming"
        g.apply(timeout_action(g))
    assert g.is_over
    assert not any(t == "geming" for _s, t in g.log)
    assert g.result()["revolutionary"] is None

    hands = ["5 3", "", "6 3", "7 3", "8 3", "9 3"]
    with pytest.raises(ValueError, match=r"R15\.1"):
        Game.from_hands(LW, hands, starter=0, revolutionary=1)
