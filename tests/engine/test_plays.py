"""Plays: composition (R4), beating (R5), 够级 (R6), card text, and play generation.

Test vectors TV-A, TV-B and TV-C of docs/spec/vectors.md, the R5.1 ≡ R5.2 property, and
brute-force checks of ``leads`` / ``responses`` against the composition rules (R4.2, R4.7).

The properties run 100 examples each by default (Hypothesis' own count; with the exhaustive
checks they reach every line and branch of src/gouji the earlier 150 to 400 did) and ten times
those earlier counts in the deep run (``GOUJI_TEST_PROFILE=deep``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gouji import Rules, make_rules
from gouji.engine.cards import (
    LJ,
    NUM_RANKS,
    R2,
    R3,
    RA,
    RANKS,
    SJ,
    CardError,
    parse_counts,
    rank_of,
)
from gouji.engine.plays import NO_BASE, Play, is_composition_legal, leads, responses
from support import sized

OF = make_rules("OUTLINE_FULL")
OC = make_rules("OUTLINE_CLASSIC")
LW = make_rules("LAIWU")
PRESETS = ("OUTLINE_FULL", "OUTLINE_CLASSIC", "LAIWU", "AUDIT", "LIANG4", "MATCH7")

#: Values for comparisons (R0.3), written out independently of gouji.engine.cards.
VALUE = {
    "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
    "J": 11, "Q": 12, "K": 13, "A": 14, "2": 15, "SJ": 16, "LJ": 17,
}  # fmt: skip


def P(text: str) -> Play:
    return Play.parse(text)


def beats(n: str, s: str) -> bool:
    return P(n).beats(P(s))


def legal(play: Play, hand: Sequence[int], rules: Rules) -> str:
    """``is_composition_legal`` under a preset's composition keys."""
    return is_composition_legal(play, hand, rules.play_twos_attach, rules.bie3_enabled)


# -- TV-B Beating (R5) --------------------------------------------------------------------


def test_TV_B01_higher_eff_beats() -> None:
    assert beats("8 8 8", "7 7 7")


def test_TV_B02_size_differs_does_not_beat() -> None:
    assert not beats("8 8", "7 7 7")


def test_TV_B03_equal_eff_does_not_beat() -> None:
    assert not beats("8 8 8", "8 8 8")


def test_TV_B04_attached_two_counts_as_base() -> None:
    assert beats("2 8 8", "7 7 7")


def test_TV_B05_standing_attached_two_counts_as_base() -> None:
    assert beats("8 8 8", "2 7 7")


def test_TV_B06_twos_beat_aces() -> None:
    assert beats("2 2 2", "A A A")


def test_TV_B07_eff_ace_beats_kings() -> None:
    assert beats("2 A A", "K K K")


def test_TV_B08_eff_ace_does_not_beat_twos() -> None:
    assert not beats("2 A A", "2 2 2")


def test_TV_B09_jokers_in_response_are_free() -> None:
    assert beats("SJ 8 8", "7 7 7")


def test_TV_B10_joker_does_not_raise_eff() -> None:
    assert not beats("SJ 7 7", "7 7 7")


def test_TV_B11_all_small_jokers_beat() -> None:
    assert beats("SJ SJ SJ", "7 7 7")


def test_TV_B12_dead_play_is_never_beaten() -> None:
    assert not beats("LJ LJ LJ", "LJ 5 5")


def test_TV_B13_one_big_joker_covers_one_small_joker() -> None:
    assert beats("LJ 8 8 8 8", "SJ 7 7 7 7")


def test_TV_B14_big_joker_with_equal_eff_does_not_beat() -> None:
    assert not beats("LJ 7 7 7 7", "SJ 7 7 7 7")


def test_TV_B15_small_joker_needs_big_joker() -> None:
    assert not beats("SJ 8 8 8 8", "SJ 7 7 7 7")


def test_TV_B16_twos_with_big_joker_beat() -> None:
    assert beats("LJ 2 2 2 2", "SJ 7 7 7 7")


def test_TV_B17_too_few_big_jokers() -> None:
    assert not beats("LJ SJ T T", "SJ SJ 9 9")


def test_TV_B18_enough_big_jokers() -> None:
    assert beats("LJ LJ T T", "SJ SJ 9 9")


def test_TV_B19_more_big_jokers_than_needed() -> None:
    assert beats("LJ LJ T T", "SJ 9 9 9")


def test_TV_B20_single_small_joker() -> None:
    assert beats("LJ", "SJ")
    assert not beats("2", "SJ")


def test_TV_B21_pair_of_small_jokers() -> None:
    assert not beats("LJ SJ", "SJ SJ")
    assert beats("LJ LJ", "SJ SJ")


def test_TV_B22_pair_of_twos() -> None:
    assert not beats("SJ 2", "2 2")
    assert beats("SJ SJ", "2 2")


def test_TV_B23_eff_small_joker_over_twos() -> None:
    assert beats("LJ SJ SJ", "SJ 2 2")


def test_TV_B24_eff_two_over_nines() -> None:
    assert beats("SJ 2 2", "9 9 9")


def test_TV_B25_equal_eff_with_jokers_does_not_beat() -> None:
    assert not beats("SJ SJ 9", "2 9 9")


# -- TV-C 够级 classification (R6) ---------------------------------------------------------


def test_play_gouji_min_standard() -> None:
    assert dict(OC.play_gouji_min) == {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2}


def test_TV_C01_five_tens() -> None:
    assert P("T T T T T").is_gouji(OC)
    assert not P("T T T T").is_gouji(OC)


def test_TV_C02_attached_two_counts_for_size() -> None:
    assert P("2 T T T T").is_gouji(OC)


def test_TV_C03_nines_never() -> None:
    assert not P(" ".join(["9"] * 8)).is_gouji(OC)


def test_TV_C04_joker_makes_gouji() -> None:
    assert P("SJ 5 5").is_gouji(OC)


def test_TV_C05_twos_always() -> None:
    assert P("2").is_gouji(OC)
    assert P("2 2 2").is_gouji(OC)


def test_TV_C06_thresholds() -> None:
    assert P("A A").is_gouji(OC)
    assert not P("A").is_gouji(OC)
    assert P("2 K").is_gouji(OC)
    assert not P("Q Q").is_gouji(OC)
    assert P("2 Q Q").is_gouji(OC)


def test_TV_C07_pure_gouji() -> None:
    assert P("SJ Q Q Q").is_gouji(LW)
    assert not P("SJ Q Q Q").is_pure_gouji(LW)
    assert P("Q Q Q").is_gouji(LW)
    assert P("Q Q Q").is_pure_gouji(LW)


def test_pure_gouji_excludes_twos() -> None:
    """R6.2: an attached 2 or an all-2 play is 够级 but not pure."""
    assert P("2 Q Q").is_gouji(OC) and not P("2 Q Q").is_pure_gouji(OC)
    assert P("2 2").is_gouji(OC) and not P("2 2").is_pure_gouji(OC)


# -- TV-A Play composition (R4) ------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_TV_A01_plain_triple(preset: str) -> None:
    rules = make_rules(preset)
    p = P("7 7 7")
    assert (p.eff, p.size, p.attached) == (rank_of("7"), 3, 0)
    assert not p.is_gouji(rules)
    assert not p.is_dead
    assert legal(p, p.counts(), rules) == ""


def test_TV_A02_two_base_ranks() -> None:
    with pytest.raises(CardError, match=r"R4\.2"):
        P("7 7 8")
    assert issubclass(CardError, ValueError)


def test_TV_A03_attached_two_counts_as_base() -> None:
    p = P("2 7 7")
    assert (p.eff, p.size, p.attached) == (rank_of("7"), 3, 1)
    assert legal(p, p.counts(), OC) == ""


def test_TV_A04_no_attached_twos_in_laiwu() -> None:
    assert LW.play_twos_attach is False
    p = P("2 7 7")
    assert "R4.2" in legal(p, p.counts(), LW)
    assert "R4.2" in is_composition_legal(p, p.counts(), twos_attach=False, bie3=False)
    # the same cards without the attached 2 are fine, and so is an all-2 play (R4.2)
    assert legal(P("7 7"), p.counts(), LW) == ""
    assert legal(P("2"), p.counts(), LW) == ""


def test_TV_A05_jokers_on_twos() -> None:
    p = P("LJ SJ 2 2")
    assert (p.eff, p.size, p.attached) == (R2, 4, 2)
    assert p.is_dead
    assert legal(p, p.counts(), OC) == ""


def test_TV_A06_two_jokers() -> None:
    p = P("LJ SJ")
    assert (p.eff, p.size, p.attached) == (SJ, 2, 1)
    assert p.is_dead
    assert legal(p, p.counts(), OC) == ""


def test_TV_A07_threes_only_as_final_play() -> None:
    msg = is_composition_legal(P("3 3 3"), parse_counts("3 3 3 9 9"), True, bie3=True)
    assert "R4.7" in msg


def test_TV_A08_threes_cannot_be_split() -> None:
    msg = is_composition_legal(P("3 3"), parse_counts("3 3 3"), True, bie3=True)
    assert "R4.7" in msg


def test_TV_A09_nothing_attached_to_threes() -> None:
    hand = parse_counts("2 3 3")
    msg = is_composition_legal(P("2 3 3"), hand, OF.play_twos_attach, bie3=True)
    assert "R4.7" in msg
    assert is_composition_legal(P("2"), hand, OF.play_twos_attach, bie3=True) == ""


def test_TV_A10_threes_carry_a_joker_without_bie3() -> None:
    assert OC.bie3_enabled is False
    p = P("SJ 3 3")
    assert legal(p, parse_counts("SJ 3 3 9"), OC) == ""
    assert p.is_gouji(OC)
    assert (p.eff, p.size) == (R3, 3)


def test_TV_A11_all_threes_as_final_play() -> None:
    assert OF.bie3_enabled is True
    assert is_composition_legal(P("3 3"), parse_counts("3 3"), True, bie3=True) == ""


def test_composition_needs_the_cards() -> None:
    """R4.1: a play is made from the actor's hand."""
    assert "R4.1" in legal(P("7 7 7"), parse_counts("7 7"), OC)


# -- R4.10 attached cards, card text -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "attached"),
    [("2 7 7", 1), ("SJ 2 2", 1), ("LJ SJ", 1), ("2 2", 0), ("SJ SJ", 0), ("LJ LJ", 0)],
)
def test_R4_10_attached_examples(text: str, attached: int) -> None:
    assert P(text).attached == attached


def test_card_text_aliases_and_errors() -> None:
    """R0.3: case-insensitive, '10' = T; unknown codes raise CardError (a ValueError)."""
    assert P("10 10 t") is P("T T T")
    assert P("sj lj 2 q") is P("Q 2 SJ LJ")
    assert P("[7, 7]") is P("7 7")
    assert str(P("LJ 2 7 SJ 7")) == "7 7 2 SJ LJ"
    with pytest.raises(CardError):
        P("7 1")
    with pytest.raises(CardError):
        P("BJ")  # no joker aliases: 'BJ' would mean big joker to some and black to others
    with pytest.raises(CardError):
        P("")


def test_impossible_plays_are_rejected_even_when_a_colliding_play_is_interned() -> None:
    """R2.1: four packs hold 4 SJ, 4 LJ, 16 of every other rank; more is no play."""
    P("2")
    P("7 7")
    with pytest.raises(CardError):
        P("SJ SJ SJ SJ SJ")
    with pytest.raises(CardError):
        P("7 " + "2 " * 17)


# -- R5.1 ≡ R5.2, canonical text (Hypothesis) ---------------------------------------------------


@st.composite
def play_st(draw: st.DrawFn, max_size: int = 8, size: int | None = None) -> Play:
    """A legal play (R4.2) of at most ``max_size`` cards, or of exactly ``size`` cards."""
    n = size if size is not None else draw(st.integers(1, max_size))
    nsj = draw(st.integers(0, min(4, n)))
    nlj = draw(st.integers(0, min(4, n - nsj)))
    rest = n - nsj - nlj
    base = draw(st.sampled_from([NO_BASE, *range(R3, RA + 1)])) if rest else NO_BASE
    nbase = draw(st.integers(1, rest)) if base != NO_BASE else 0
    return Play.of(base, nbase, rest - nbase, nsj, nlj)


def values_r52(play: Play) -> list[int]:
    """R5.2: card values, attached 2s replaced by the base value, sorted descending."""
    codes = str(play).split()
    bases = [VALUE[c] for c in codes if c not in ("2", "SJ", "LJ")]
    vals = [bases[0] if (c == "2" and bases) else VALUE[c] for c in codes]
    return sorted(vals, reverse=True)


def can_beat_r52(n: Play, s: Play) -> bool:
    vn, vs = values_r52(n), values_r52(s)
    return len(vn) == len(vs) and all(a > b for a, b in zip(vn, vs, strict=True))


@settings(max_examples=sized(100, 4000), deadline=None)
@given(st.data())
def test_R5_1_equals_R5_2_same_size(data: st.DataObject) -> None:
    size = data.draw(st.integers(1, 8))
    n = data.draw(play_st(size=size))
    s = data.draw(play_st(size=size))
    assert n.size == s.size == size
    assert n.beats(s) == can_beat_r52(n, s), (str(n), str(s))


@settings(max_examples=sized(100, 2000), deadline=None)
@given(play_st(), play_st())
def test_R5_1_equals_R5_2_any_pair(n: Play, s: Play) -> None:
    assert n.beats(s) == can_beat_r52(n, s), (str(n), str(s))


def all_plays(ranks: Sequence[int], max_size: int) -> list[Play]:
    out: list[Play] = []
    for base in [NO_BASE, *(r for r in ranks if r <= RA)]:
        for nbase in range(1 if base != NO_BASE else 0, (max_size if base != NO_BASE else 0) + 1):
            for n2 in range(max_size - nbase + 1):
                for nsj in range(min(4, max_size - nbase - n2) + 1):
                    for nlj in range(min(4, max_size - nbase - n2 - nsj) + 1):
                        if nbase + n2 + nsj + nlj:
                            out.append(Play.of(base, nbase, n2, nsj, nlj))
    return out


def test_R5_1_equals_R5_2_exhaustive_small() -> None:
    """Every pair of legal plays of up to 5 cards over {3, 9, T, A, 2, SJ, LJ} (cf. R5.2)."""
    plays = all_plays([rank_of(c) for c in ("3", "9", "T", "A")], 5)
    by_size: dict[int, list[Play]] = {}
    for p in plays:
        by_size.setdefault(p.size, []).append(p)
    for group in by_size.values():
        for n in group:
            for s in group:
                assert n.beats(s) == can_beat_r52(n, s), (str(n), str(s))


@settings(max_examples=sized(100, 3000), deadline=None)
@given(play_st(), st.randoms(use_true_random=False))
def test_canonical_text_round_trip(p: Play, rnd: random.Random) -> None:
    text = str(p)
    assert Play.parse(text) is p
    codes = text.split()
    vals = [VALUE[c] for c in codes]
    assert vals == sorted(vals), text  # ascending by value
    assert len(codes) == p.size
    messy = ["10" if c == "T" else c.lower() for c in codes]
    rnd.shuffle(messy)
    assert Play.parse(" ".join(messy)) is p
    assert Play.from_counts(p.counts()) is p


# -- generation from counts vs brute force (R4.2, R4.7, R5.1) --------------------------------


@st.composite
def hand_st(draw: st.DrawFn) -> list[int]:
    """A hand of at most 10 cards over a few of the 15 ranks (≤ 4 of each joker).

    Half of the cards come from 2, SJ, LJ so that attachments are common.
    """
    pool = draw(st.lists(st.integers(0, NUM_RANKS - 1), min_size=1, max_size=4, unique=True))
    cards = draw(st.lists(st.sampled_from(pool), max_size=5))
    cards += draw(st.lists(st.sampled_from([R2, SJ, LJ]), max_size=10 - len(cards)))
    counts = [0] * NUM_RANKS
    for r in cards:
        counts[r] += 1
    counts[SJ] = min(counts[SJ], 4)
    counts[LJ] = min(counts[LJ], 4)
    return counts


def sub_multisets(hand: Sequence[int]) -> list[list[int]]:
    """Every non-empty sub-multiset of the hand, as count vectors."""
    out = []
    for sub in itertools.product(*(range(n + 1) for n in hand)):
        if any(sub):
            out.append(list(sub))
    return out


def composition_ok(sub: Sequence[int], hand: Sequence[int], twos_attach: bool, bie3: bool) -> bool:
    """R4.2 and R4.7, written from the rule text."""
    bases = [r for r in range(NUM_RANKS) if sub[r] and RANKS[r] not in ("2", "SJ", "LJ")]
    if len(bases) > 1:
        return False
    if not twos_attach and sub[R2] and bases:
        return False
    if bie3 and sub[R3]:
        # all the hand's 3s, nothing else, and the hand is then empty
        return list(sub) == list(hand) and sum(hand) == hand[R3]
    return True


SETTINGS = [(t, b) for t in (True, False) for b in (True, False)]


@settings(
    max_examples=sized(100, 1500), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(hand_st())
@example([2] + [0] * (NUM_RANKS - 1))  # R4.7: under 憋3 a hand of 3s alone leads them all
def test_leads_equal_brute_force(hand: list[int]) -> None:
    subs = sub_multisets(hand)
    for twos_attach, bie3 in SETTINGS:
        got = list(leads(hand, twos_attach, bie3))
        assert len(got) == len(set(got)), "duplicate leads"
        want = {Play.from_counts(s) for s in subs if composition_ok(s, hand, twos_attach, bie3)}
        assert set(got) == want, (parse_text(hand), twos_attach, bie3)


@settings(
    max_examples=sized(100, 3000), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(hand_st(), play_st(max_size=4))
@example(parse_counts("2 2"), P("9 9 9"))  # R5.1: 2s short of the size, no jokers to fill it
def test_responses_equal_brute_force(hand: list[int], standing: Play) -> None:
    subs = sub_multisets(hand)
    for twos_attach in (True, False):
        got = list(responses(hand, standing, twos_attach))
        assert len(got) == len(set(got)), "duplicate responses"
        want: set[Play] = set()
        for s in subs:
            if composition_ok(s, hand, twos_attach, bie3=False):
                p = Play.from_counts(s)
                if can_beat_r52(p, standing):
                    want.add(p)
        assert set(got) == want, (parse_text(hand), str(standing), twos_attach)


@pytest.mark.parametrize(
    ("hand", "standing"),
    [
        ("7 7 8 8 2 SJ LJ", "6 6"),
        ("3 3 2 2 SJ SJ LJ", "SJ 9 9"),
        ("A A 2 2 2 SJ LJ LJ", "2 2 2"),
        ("LJ LJ SJ", "SJ SJ"),
        ("K K K 2 LJ", "LJ 5 5"),
    ],
)
def test_responses_examples(hand: str, standing: str) -> None:
    """Fixed examples with jokers on both sides (R5.1 (4))."""
    h = parse_counts(hand)
    s = P(standing)
    for twos_attach in (True, False):
        want = {
            Play.from_counts(sub)
            for sub in sub_multisets(h)
            if composition_ok(sub, h, twos_attach, bie3=False)
            and can_beat_r52(Play.from_counts(sub), s)
        }
        assert set(responses(h, s, twos_attach)) == want


def parse_text(hand: Sequence[int]) -> str:
    return " ".join(c for r, n in enumerate(hand) for c in [RANKS[r]] * n)
