"""TV-N: opening and the first player (R3, R14), one test per vector.

Out of scope here (issue 3, the match layer): TV-N05 (the starter of a *later* game after a
大落) and TV-N08 (a re-open within the rotation after a 串三户 game); both need the game that
follows another game.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

import pytest

from gouji import ConfigError, Game, IllegalAction, make_rules, timeout_action
from gouji.engine.cards import LJ, R3, R4, R9, RA, RANKS, RK, SJ, deck_cards, tokens
from gouji.engine.deal import draw, draw_opening, first_taker
from gouji.engine.referee.record import make_record, replay

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")
S, H, D, C = 0, 1, 2, 3  # suit indices of gouji.engine.cards.SUITS


class StubRng(random.Random):
    """An RNG whose ``choice`` returns the given cards in turn (the opening draw, R3.1)."""

    def __init__(self, cards: Sequence[tuple[int, int]]) -> None:
        super().__init__(0)
        self._cards = list(cards)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        card = self._cards.pop(0)
        for i in range(len(seq)):
            if seq[i] == card:
                return seq[i]
        raise AssertionError(f"the stub may only draw a card of the packs, not {card}")


def crafted_deck(taker: int, placed: dict[int, tuple[int, int]]) -> list[tuple[int, int]]:
    """A full 216-card deck in draw order: ``placed`` maps 1-based draw numbers to cards; the
    other 3s are spread so that no seat holds two 3s of one suit (the rest of the deck
    fills the remaining draws in packs order)."""
    rest = deck_cards()
    for card in placed.values():
        rest.remove(card)
    threes = [c for c in rest if c[0] == R3]
    others = [c for c in rest if c[0] != R3]
    deck: list[tuple[int, int] | None] = [None] * len(deck_cards())
    for n, card in placed.items():
        deck[n - 1] = card
    held = [[0] * 4 for _ in range(6)]
    for n, card in placed.items():
        if card[0] == R3:
            held[(taker + n - 1) % 6][card[1]] += 1
    # Every remaining 3 goes to the first free draw of a seat that holds no 3 of its suit.
    for card in threes:
        for i, slot in enumerate(deck):
            seat = (taker + i) % 6
            if slot is None and held[seat][card[1]] == 0:
                deck[i] = card
                held[seat][card[1]] += 1
                break
        else:  # pragma: no cover - the construction always finds a slot
            raise AssertionError("no place for a 3")
    fill = iter(others)
    out = [c if c is not None else next(fill) for c in deck]
    assert sorted(out) == sorted(deck_cards())
    return out


def to_pending(g: Game, kind: str, limit: int = 50) -> None:
    """Decline every pre-play decision (R19.2 defaults) until ``g.pending == kind``."""
    for _ in range(limit):
        if g.pending == kind:
            return
        g.apply(timeout_action(g))
    raise AssertionError(f"never reached {kind}; pending {g.pending}")


def test_TV_N01_first_taker_by_natural_value() -> None:
    """R3.1: opener P2 draws 9 / A / K → first taker P4 / P2 / P2 (A = 1, K = 13)."""
    assert first_taker(2, R9) == 4
    assert first_taker(2, RA) == 2
    assert first_taker(2, RK) == 2
    # The same through the opening draw itself, with the drawn card fixed by a stub RNG.
    oc = make_rules("OUTLINE_CLASSIC")
    for rank, taker in ((R9, 4), (RA, 2), (RK, 2)):
        od = draw_opening(StubRng([(rank, H)]), 2, oc.open_joker_draw, oc.deck_remove)
        assert od.draws == ((2, rank),)
        assert od.first_taker == taker


def test_TV_N02_joker_draw_modes() -> None:
    """R3.2: opener P2 draws a joker. OC (``next_opens``): P3 becomes opener and draws again;
    L4 (``drawer_takes``): P2 is the first taker."""
    oc = make_rules("OUTLINE_CLASSIC")
    l4 = make_rules("LIANG4")
    assert oc.open_joker_draw == "next_opens"
    assert l4.open_joker_draw == "drawer_takes"
    od = draw_opening(StubRng([(SJ, 0), (R9, S)]), 2, oc.open_joker_draw, oc.deck_remove)
    assert od.draws == ((2, SJ), (3, R9))
    assert od.first_taker == first_taker(3, R9) == 5
    od = draw_opening(StubRng([(LJ, 0), (LJ, 0), (RK, C)]), 2, oc.open_joker_draw, {})
    assert od.draws == ((2, LJ), (3, LJ), (4, RK))
    assert od.first_taker == first_taker(4, RK)
    od = draw_opening(StubRng([(LJ, 0)]), 2, l4.open_joker_draw, l4.deck_remove)
    assert od.draws == ((2, LJ),)
    assert od.first_taker == 2

    # Through Game.new with opener P2: find seeds whose opening draw shows a joker.
    seen = {"OUTLINE_CLASSIC": False, "LIANG4": False}
    for preset in seen:
        rules = make_rules(preset)
        for seed in range(2000):
            g = Game.new(rules, seed, opener=2)
            draws = [(s, t.split()[1]) for s, t in g.log if t.startswith("opening_draw ")]
            takers = [s for s, t in g.log if t == "first_taker"]
            assert draws and draws[0][0] == 2 and len(takers) == 1
            if draws[0][1] not in ("SJ", "LJ"):
                assert len(draws) == 1
                continue
            if preset == "OUTLINE_CLASSIC":
                assert draws[1][0] == 3  # P3 opens and draws again
                last_opener, last = draws[-1]
                assert last not in ("SJ", "LJ")
                assert takers[0] == first_taker(last_opener, RANKS.index(last))
            else:
                assert len(draws) == 1
                assert takers[0] == 2
            seen[preset] = True
            break
    assert all(seen.values()), seen


def test_TV_N03_liang3_first_to_reach_the_maximum() -> None:
    """R3.5, AMB-47: P1 holds two ♥3 by draw #40, P4 three ♠3 at draw #90, P1 three ♥3 later;
    nobody reaches four → starter P4, the first to reach the maximum 3.

    Spec note: under R2.3 draws #90 and #120 go to the same seat (they differ by 30), so P1's
    third ♥3 is placed on P1's draw #123 (first taker P5; P1 draws #3, #9, …, #123; P4 draws
    #6, #12, …, #90).
    """
    taker = 5
    placed = {3: (R3, H), 39: (R3, H), 123: (R3, H), 6: (R3, S), 12: (R3, S), 90: (R3, S)}
    assert {(taker + n - 1) % 6 for n in (3, 39, 123)} == {1}
    assert {(taker + n - 1) % 6 for n in (6, 12, 90)} == {4}
    deck = crafted_deck(taker, placed)
    d = draw(deck, taker)
    assert d.first_taker == taker
    assert d.liang3 == (4, 3, S)
    assert all(sum(h) == 36 for h in d.hands)

    # A control: P1 reaching three ♥3 before P4's third ♠3 makes P1 the starter.
    earlier = {3: (R3, H), 39: (R3, H), 87: (R3, H), 6: (R3, S), 12: (R3, S), 90: (R3, S)}
    assert draw(crafted_deck(taker, earlier), taker).liang3 == (1, 3, H)

    # The game uses it: an OC first game dealt this deck (Game.new's deck) and P4 makes the
    # first lead; its record replays the same deal.
    g = Game.new(make_rules("OUTLINE_CLASSIC"), 7, first_taker=taker, deck=deck)
    assert g.starter == 4
    assert g.hands == [list(h) for h in d.hands]
    assert (4, "starter") in g.log
    to_pending(g, "hui")
    g.apply("nohui")
    assert g.pending == "lead"
    assert g.to_act == 4
    again = replay(json.loads(json.dumps(make_record(g))))
    assert again.hands == g.hands and again.starter == 4


def test_a_given_deck_must_be_the_packs() -> None:
    """Game.new's deck is checked before anything is dealt: a card short, a card too many or
    something that is no card is a ConfigError saying so."""
    rules = make_rules("OUTLINE_CLASSIC")
    full = crafted_deck(0, {})
    for bad, words in (
        (full[:-1], "exactly the rule set's packs"),
        ([*full, (R3, S)], "exactly the rule set's packs"),
        ([*full[:-1], "7"], "no (rank, suit) card"),
        ("3 3 4", "a list of (rank, suit) cards"),
    ):
        with pytest.raises(ConfigError, match=re.escape(words)):
            Game.new(rules, 1, first_taker=0, deck=bad)


def test_TV_N04_no_liang3_first_taker_starts() -> None:
    """R3.5: nobody ever holds two 3s of one suit → the starter is the first taker."""
    taker = 2
    deck = crafted_deck(taker, {})
    d = draw(deck, taker)
    assert d.liang3 is None
    assert d.first_taker == taker

    g = Game.new(make_rules("OUTLINE_CLASSIC"), 7, first_taker=taker, deck=deck)
    assert g.starter == taker
    assert not any(t.startswith("liang3") for _, t in g.log)
    to_pending(g, "hui")
    g.apply("nohui")
    assert (g.pending, g.to_act) == ("lead", taker)


def test_TV_N06_liang4_first_lead_has_base_4() -> None:
    """R3.8: the player that first reached the most 4s starts; its first lead MUST have base
    rank 4 (`[4 4]` legal, `[9 9]`-like leads illegal, citing R3.8)."""
    # The draw (first taker P0, so draw #n goes to P((n − 1) mod 6)): P0 and P3 both end with
    # four 4s; P0 is first to one and to two 4s, but P3 reaches four first → starter P3.
    taker = 0
    fours = iter([c for c in deck_cards() if c[0] == R4])
    draws4 = {
        0: (1, 7, 13, 25),
        3: (4, 10, 16, 22),
        1: (8, 14),
        2: (9, 15),
        4: (11, 17),
        5: (12, 18),
    }
    placed = {n: next(fours) for seat_draws in draws4.values() for n in seat_draws}
    assert all((n - 1) % 6 == seat for seat, ns in draws4.items() for n in ns)
    filler = iter([c for c in deck_cards() if c[0] != R4])
    deck = [placed[n] if n in placed else next(filler) for n in range(1, 217)]
    assert sorted(deck) == sorted(deck_cards())
    d = draw(deck, taker)
    counts = [h[R4] for h in d.hands]
    assert counts == [4, 2, 2, 4, 2, 2]
    assert d.liang4 == (3, 4)

    # The game: LIANG4 from the shuffle; the starter's first lead must have base rank 4.
    rules = make_rules("LIANG4")
    checked = 0
    for seed in range(40):
        g = Game.new(rules, seed)
        to_pending(g, "lead")
        if g.revolutionary is not None:
            continue  # R15: the 亮4 duty was the revolutionary's
        starter = g.to_act
        assert starter is not None and starter == g.starter
        hands4 = [tokens(g.hand(s)).count("4") for s in range(6)]
        assert hands4[starter] == max(hands4)
        assert any(t.startswith("liang4") and s == starter for s, t in g.log)
        legal = g.legal_actions()
        assert legal
        assert all(a.play is not None and a.play.base == R4 for a in legal)
        assert "play 4 4" in {a.text for a in legal}
        others = [t for t in tokens(g.hand(starter)) if t not in ("4", "2", "SJ", "LJ")]
        if not others:
            continue
        n = tokens(g.hand(starter)).count(others[0])
        bad = "play " + " ".join([others[0]] * min(n, 2))
        before = g.hand(starter)
        with pytest.raises(IllegalAction, match=r"R3\.8"):
            g.apply(bad)
        assert g.hand(starter) == before and g.pending == "lead" and g.to_act == starter
        g.apply("play 4 4")
        assert g.standing is not None and g.standing.text == "4 4" and g.owner == starter
        checked += 1
        if checked >= 3:
            break
    assert checked >= 3


def test_TV_N07_hui3_removes_all_threes() -> None:
    """R14.1: the OC starter orders 会3: all 3s leave all six hands before the first lead."""
    rules = make_rules("OUTLINE_CLASSIC")
    for seed in (1, 2, 3):
        g = Game.new(rules, seed)
        to_pending(g, "hui")
        assert g.to_act == g.starter
        assert {a.text for a in g.legal_actions()} >= {"hui 3", "nohui"}
        threes = sum(tokens(g.hand(s)).count("3") for s in range(6))
        assert threes > 0  # all 16 3s are in play unless a revolutionary set some aside
        total = sum(len(tokens(g.hand(s))) for s in range(6))
        g.apply("hui 3")
        assert all("3" not in tokens(g.hand(s)) for s in range(6))
        assert sum(len(tokens(g.hand(s))) for s in range(6)) == total - threes
        assert g.pending == "lead" and g.to_act == g.starter
        assert g.count_cards() == 216
        # No lead of the starter contains a 3 (OC also offers the 挑牌 claim, R10.2).
        leads = [a.play for a in g.legal_actions() if a.text != "tiao"]
        assert all(p is not None and p.counts()[R3] == 0 for p in leads)
