"""TV-J (tribute), the next-game payments of TV-H, TV-N05/N08 and TV-I09: the match layer.

One test per vector. What is checked is what a program driving the engine observes:

- ``gouji.engine.tribute.obligations`` turns a result into the ordered payments (R16.3–R16.8, R11.7,
  R11.8);
- ``Game.new(..., tribute=...)`` pays them (``g.tribute_paid``, the public ``tribute …`` /
  ``huan …`` log events, each seat's private ``paid … to …`` event, the hands) and asks for
  还贡 (``huan`` / ``huan_check``);
- ``gouji.Match`` plays real games (random legal play, seeded, so every search is
  deterministic and bounded) and opens the next game: ``m.openings``, ``m.game``, prompts.

A seat's *dealt* hand (before tribute, 买3/买4) is read from the same seed and opening with the
post-tribute hand changers switched off (``dealt``): the deal itself does not read them.

TV-I09: three tied ``match7`` games cannot come from place points (21 a game, odd; erratum in
docs/decisions.md), so that test scripts the games' recorded scores and checks the tie-break.
Not covered: the R16.7 fallback "no card of a rank the payer holds → any card is accepted" (a
receiver holding no rank the payer holds does not occur in a real deal).

Positions: team A = P0, P2, P4; team B = P1, P3, P5; 对头(s) = s + 3.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from gouji import Action, Game, Match, MatchError, make_rules
from gouji.engine.cards import LJ, R2, RANKS, SJ
from gouji.engine.referee.scoring import Events, score
from gouji.engine.rules import Rules
from gouji.engine.tribute import Payment, obligations

OF = make_rules("OUTLINE_FULL")
OC = make_rules("OUTLINE_CLASSIC")
LW = make_rules("LAIWU")
L4 = make_rules("LIANG4")
M7 = make_rules("MATCH7")

TRIB_RANKS = (LJ, SJ, R2)  # R16.2, best first
#: R3.1 natural values of a drawn card.
NATURAL = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(v): v for v in range(2, 10)}}
#: Pre-play decisions a driver declines (R19.2-like); everything else is a random legal action.
DECLINE = {
    "geming": "nogeming",
    "renounce": "keep",
    "yudian": "noyudian",
    "mingdian": "nomingdian",
    "hui": "nohui",
    "hui5": "nohui",
    "huan_check": "accept",
}
#: Switches off everything that changes hands after the deal (revolution, tribute, 买3/买4).
PLAIN = {
    "bie3.enabled": False,
    "rev.mode": "off",
    "laiwu.buy4": False,
    "laiwu.four_rule": False,
    "laiwu.hui5": False,
    "hui.options": [],
    "dian.declare": "off",
}

Chooser = Callable[[Game], str | None]


# ---------------------------------------------------------------------- helpers
def duitou(seat: int) -> int:
    return (seat + 3) % 6


def result(places: Sequence[int], **kw: Any) -> dict[str, Any]:
    """A previous game's result as ``obligations`` reads it (chuan derived from places)."""
    top = {s & 1 for s, p in enumerate(places) if p <= 3}
    res: dict[str, Any] = {
        "places": list(places),
        "chuan": top.pop() if len(top) == 1 else None,
        "opened": [True] * 6,
        "burns": [],
        "declarations": [],
    }
    res.update(kw)
    return res


def dealt(g: Game) -> list[list[int]]:
    """The hands ``g`` was dealt, before revolution, tribute and buying."""
    rules = make_rules(g.rules.preset, {**g.rules.overrides, **PLAIN})
    assert g.seed is not None
    b = Game.new(
        rules,
        g.seed,
        opener=g.start["opener"],
        first_taker=g.start["first_taker"],
        first_game=g.start["first_game"],
    )
    assert b.pending == "lead" and not any("buy" in t for _, t in b.log)
    if g.pending != "yudian":  # 预点 comes before the opening (R18 step 1)
        assert b.first_taker == g.first_taker
    return [list(h) for h in b.hands]


def trib_cards(hand: Sequence[int]) -> list[int]:
    """The legal tribute cards of a hand, best first (R16.2)."""
    return [r for r in TRIB_RANKS for _ in range(hand[r])]


def text(ranks: Iterable[int]) -> str:
    return " ".join(RANKS[r] for r in ranks) or "nothing"


def paid_events(g: Game, seat: int) -> list[str]:
    """``seat``'s private ``paid … to …`` events, in order (tribute first, then 买3/买4)."""
    return [
        f"paid {e['cards']} to {e['to']}"
        for e in g.view(seat)["private_events"]
        if e["type"] == "paid"
    ]


def log_index(g: Game, event: str) -> int:
    return [t for _, t in g.log].index(event)


def settle(g: Game, choose: Chooser | None = None) -> list[str]:
    """Answer the pre-play decisions (declining, accepting, returning the lowest card) until
    the first lead; returns the pending kinds met."""
    seen: list[str] = []
    for _ in range(200):
        if g.pending == "lead" or g.is_over:
            return seen
        seen.append(g.pending)
        picked = choose(g) if choose is not None else None
        if picked is None:
            picked = DECLINE.get(g.pending) or g.legal_actions()[0].text
        g.apply(picked)
    raise AssertionError("setup does not end")


def drive(m: Match, rng: random.Random, choose: Chooser | None = None) -> None:
    """Play the match's current game to its end with random legal actions."""
    g = m.game
    for _ in range(20000):
        if g.is_over:
            return
        picked = choose(g) if choose is not None else None
        action: Action | str
        if picked is not None:
            action = picked
        elif g.pending in DECLINE:
            action = DECLINE[g.pending]
        else:
            action = rng.choice(g.legal_actions())
        m.apply(action)
    raise AssertionError("game does not end")


def answer(m: Match, swap: bool = False, skip: bool = False) -> list[tuple[str, int]]:
    """Answer the R18 step 10 prompts (everybody the same); returns (prompt, seat) asked."""
    asked: list[tuple[str, int]] = []
    while m.to_act is not None:
        assert m.pending is not None
        asked.append((m.pending, m.to_act))
        yes = swap if m.pending == "swap" else skip
        m.apply(
            {"swap": "swap" if yes else "noswap", "skip": "skip" if yes else "noskip"}[m.pending]
        )
    return asked


def search(
    rules: Rules,
    want: Callable[[Match], bool],
    *,
    choose: Chooser | None = None,
    seeds: Iterable[int] = range(600),
) -> int:
    """The first match seed whose first game, driven by ``play0``, satisfies ``want``."""
    for seed in seeds:
        m = play0(rules, seed, choose)
        if want(m):
            return seed
    raise AssertionError("no match seed found")


def play0(rules: Rules, seed: int, choose: Chooser | None = None) -> Match:
    """A match with its first game played (deterministic in ``seed``)."""
    m = Match(rules, seed)
    drive(m, random.Random(seed), choose)
    return m


def first_taker_by_draw(g: Game) -> int:
    """R3.1/R3.2 recomputed from the public ``opening_draw`` events."""
    draws = [(s, t.split()[1]) for s, t in g.log if t.startswith("opening_draw")]
    assert draws, "no opening draw"
    assert draws[0][0] == g.opener
    for (s, card), nxt in itertools.pairwise(draws):
        assert card in ("SJ", "LJ") and nxt[0] == (s + 1) % 6  # next_opens
    seat, card = draws[-1]
    return (seat + NATURAL[card] - 1) % 6


def huan_events(g: Game) -> list[str]:
    return [t for _, t in g.log if t.startswith("huan ")]


def find_seed(
    make: Callable[[int], Game], ok: Callable[[Game, list[list[int]]], bool], hint: int = 0
) -> tuple[Game, list[list[int]]]:
    """A game (from ``make(seed)``) whose dealt hands satisfy ``ok``; tries ``hint`` first."""
    for seed in (hint, *range(3000)):
        g = make(seed)
        hands = dealt(g)
        if ok(g, hands):
            return g, hands
    raise AssertionError("no seed found")


# ---------------------------------------------------------------------- TV-J tribute
def test_TV_J01_luo_highest_legal_cards_and_nothing_without_them() -> None:
    # 头科 P0, 二科 P1, 二落 P2, 大落 P5
    obl = obligations(OF, result([1, 2, 5, 3, 4, 6]))
    luo5 = Payment("luo", 5, 0, 2, True)
    luo2 = Payment("luo", 2, 1, 1, True)
    assert obl == [luo5, luo2]

    def make(seed: int) -> Game:
        return Game.new(OF, seed, opener=3, first_taker=0, first_game=False, tribute=obl)

    def ok(g: Game, h: list[list[int]]) -> bool:
        return trib_cards(h[5]) == [LJ, R2, R2] and not trib_cards(h[2])

    g, hands = find_seed(make, ok, hint=1277)
    while g.pending in ("geming", "renounce"):
        g.apply(DECLINE[g.pending])
    assert g.tribute_paid == [(luo5, 2), (luo2, 0)]
    assert paid_events(g, 5)[0] == "paid LJ 2 to 0"
    assert paid_events(g, 2)[0] == "paid nothing to 1"
    # before the returns: exactly the LJ and one 2 moved from P5 to P0
    moved = [0] * 15
    moved[LJ] = moved[R2] = 1
    assert g.hands[5] == [a - b for a, b in zip(hands[5], moved, strict=True)]
    assert g.hands[0] == [a + b for a, b in zip(hands[0], moved, strict=True)]
    assert g.hands[2] == hands[2] and g.hands[1] == hands[1]
    # 还贡 only for what was paid: P0 returns 2, P1 (who received nothing) returns nothing
    assert g.pending == "huan" and g.to_act == 0
    settle(g)
    assert huan_events(g) == ["huan 0>5", "huan 0>5"]


def test_TV_J02_huan_rank_rule_refuse() -> None:
    pay = Payment("luo", 5, 0, 2, True)
    rank6 = RANKS.index("6")
    g: Game | None = None
    for seed in range(500):
        cand = Game.new(OF, seed, opener=3, first_taker=0, first_game=False, tribute=[pay])
        while cand.pending in ("geming", "renounce"):
            cand.apply(DECLINE[cand.pending])
        h = cand.hands
        ok = cand.pending == "huan" and cand.tribute_paid == [(pay, 2)]
        if ok and h[0][rank6] and not h[5][rank6]:
            g = cand
            break
    assert g is not None
    assert g.to_act == 0
    before = [list(h) for h in g.hands]
    assert "huan 6" in [a.text for a in g.legal_actions()]
    g.apply("huan 6")
    # P5 holds no 6: it may refuse (a private check), nothing has moved yet
    assert g.pending == "huan_check" and g.to_act == 5
    assert {a.text for a in g.legal_actions()} == {"accept", "refuse"}
    assert g.hands == before
    # the payer sees what it may refuse and from whom; nobody else does (the check is private)
    assert g.view(5)["huan_offer"] == {"card": "6", "by": 0}
    assert all("huan_offer" not in g.view(s) for s in (None, 0, 1, 2, 3, 4))
    g.apply("refuse")
    assert g.pending == "huan" and g.to_act == 0
    assert "huan 6" not in [a.text for a in g.legal_actions()]
    # a rank P5 holds is given without a check
    both = next(r for r in range(15) if g.hands[0][r] and g.hands[5][r])
    g.apply(f"huan {RANKS[both]}")
    assert g.hands[0][both] == before[0][both] - 1
    assert g.hands[5][both] == before[5][both] + 1
    assert g.pending == "huan" and g.to_act == 0  # the second card
    # the second card: a rank P5 lacks, accepted this time
    lack = next((r for r in range(15) if g.hands[0][r] and not g.hands[5][r]), None)
    if lack is not None:
        g.apply(f"huan {RANKS[lack]}")
        assert g.pending == "huan_check" and g.to_act == 5
        g.apply("accept")
        assert g.hands[5][lack] == 1
    else:
        again = next(r for r in range(15) if g.hands[0][r] and g.hands[5][r])
        g.apply(f"huan {RANKS[again]}")
    assert huan_events(g) == ["huan 0>5", "huan 0>5"]
    assert g.pending != "huan" or g.to_act != 0


def test_TV_J03_dian_before_luo() -> None:
    # P5 大落 and 不开点 (对头 P2); 头科 P0; 二科 P1, 二落 P4
    opened = [True] * 6
    opened[5] = False
    obl = obligations(OF, result([1, 2, 4, 3, 5, 6], opened=opened))
    dian = Payment("dian", 5, 2, 1)
    luo5 = Payment("luo", 5, 0, 2, True)
    assert obl == [dian, luo5, Payment("luo", 4, 1, 1, True)]

    def make(seed: int) -> Game:
        return Game.new(OF, seed, opener=3, first_taker=0, first_game=False, tribute=obl)

    def ok(g: Game, h: list[list[int]]) -> bool:
        t = trib_cards(h[5])
        return len(t) >= 3 and t[:3] == [LJ, SJ, R2] and t.count(LJ) == 1 and t.count(SJ) == 1

    g, _ = find_seed(make, ok)
    settle(g)
    assert paid_events(g, 5)[:2] == ["paid LJ to 2", "paid SJ 2 to 0"]
    assert log_index(g, "tribute dian 5>2 1") < log_index(g, "tribute luo 5>0 2")
    assert "huan 2>5" not in huan_events(g)  # 点贡 is never returned
    assert huan_events(g).count("huan 0>5") == 2


def test_TV_J04_same_team_luo_skipped() -> None:
    # 头科 P3, 大落 P1 (both team B); 二科 P0, 二落 P5
    places = [2, 6, 3, 1, 4, 5]
    assert obligations(OF, result(places)) == [Payment("luo", 5, 0, 1, True)]
    pay = make_rules("OUTLINE_FULL", {"trib.same_team": "pay"})
    assert Payment("luo", 1, 3, 2, True) in obligations(pay, result(places))


def test_TV_J05_after_chuan_reopen_and_tribute() -> None:
    # OC: tribute off; re-opened with opener = next(first opener); 亮3 picks the starter
    found = None
    for seed in range(600):
        m = play0(OC, seed)
        if m.results[0]["chuan"] is None:
            continue
        answer(m)
        g = m.next_game()
        liang3 = [s for s, t in g.log if t.startswith("liang3")]
        if liang3 and liang3[0] != g.first_taker:
            found = m
            break
    assert found is not None
    m, g = found, found.game
    nxt = (m.first_opener + 1) % 6
    assert m.openings[1] == {"opener": nxt, "first_taker": None, "first_game": True}
    assert g.opener == nxt
    assert g.first_taker == first_taker_by_draw(g)
    assert g.starter == next(s for s, t in g.log if t.startswith("liang3"))
    assert g.tribute == []

    # OF: re-opened within the rotation; no 落贡 / 还贡, but 点贡 is paid
    def want(m: Match) -> bool:
        r = m.results[0]
        return r["chuan"] is not None and not all(r["opened"])

    m = play0(OF, search(OF, want))
    prev = m.results[0]
    answer(m)
    g = m.next_game()
    assert m.openings[1] == {
        "opener": (m.first_opener + 1) % 6,
        "first_taker": None,
        "first_game": True,
    }
    op = prev["opened"]
    expected = [Payment("dian", s, duitou(s), 1) for s in range(6) if not op[s]]
    assert expected and g.tribute == expected
    seen = settle(g)
    assert "huan" not in seen and not huan_events(g)
    assert [p.kind for p, _ in g.tribute_paid] == ["dian"] * len(expected)


def test_TV_J06_laiwu_order_no_return() -> None:
    # P3 不开点 (owes P0); P4 burned P1; 头科 P0, 二科 P1, 二落 P2, 大落 P5
    opened = [True] * 6
    opened[3] = False
    res = result([1, 2, 5, 3, 4, 6], opened=opened, burns=[[4, 1]])
    obl = obligations(LW, res)
    assert obl == [
        Payment("dian", 3, 0, 1),
        Payment("shao", 1, 4, 1),
        Payment("luo", 5, 0, 2, False),
        Payment("luo", 2, 1, 1, False),
    ]
    g = Game.new(LW, 11, opener=2, first_taker=5, first_game=False, tribute=obl)
    seen = settle(g)
    assert "huan" not in seen and not huan_events(g)
    events = [t for _, t in g.log if t.startswith("tribute ")]
    assert [e.split()[1] for e in events] == ["dian", "shao", "luo", "luo"]
    assert g.pending == "lead" and g.to_act == 5


def _lw_chuan_seed() -> int:
    """A LAIWU match whose first game is a 串三户 by team A (team B 串'd)."""

    def want(m: Match) -> bool:
        prev = m.results[0]
        owed = _expected_lw_chuan(prev) if prev["chuan"] == 0 else []
        return any(p.kind == "dian" for p in owed)  # some 点贡 too

    return search(LW, want)


def _expected_lw_chuan(prev: dict[str, Any]) -> list[Payment]:
    """R16.8 each_to_duitou after team A's 串: 点贡 (mutual cancelled), 烧贡, 串 tribute."""
    op = prev["opened"]
    out = [Payment("dian", s, duitou(s), 1) for s in range(6) if not op[s] and op[duitou(s)]]
    out += [Payment("shao", v, b, 1) for b, v in prev["burns"] if (b & 1) != (v & 1)]
    out += [Payment("chuan", s, duitou(s), 1) for s in (1, 3, 5)]
    return out


def test_TV_J07_laiwu_chuan_tribute_without_agreement() -> None:
    # the rule, on a constructed result: team A 串 (P0 1, P2 2, P4 3); P1 不开点 (owes P4);
    # P2 burned P5: 点贡, then 烧贡, then the 串 tribute in the place of 落贡
    opened = [True] * 6
    opened[1] = False
    res = result([1, 4, 2, 5, 3, 6], opened=opened, burns=[[2, 5]])
    assert obligations(LW, res) == [
        Payment("dian", 1, 4, 1),
        Payment("shao", 5, 2, 1),
        Payment("chuan", 1, 4, 1),
        Payment("chuan", 3, 0, 1),
        Payment("chuan", 5, 2, 1),
    ]
    # a real match
    m = play0(LW, _lw_chuan_seed())
    prev = m.results[0]
    while m.pending == "swap" and m.to_act is not None:
        m.apply("noswap")
    assert m.pending == "skip"
    assert m.to_act == 0
    m.apply("skip")
    assert m.to_act == 1
    m.apply("noskip")  # one "no" ends the prompt
    assert m.to_act is None
    g = m.next_game()
    assert m.openings[1] == {
        "opener": (m.first_opener + 1) % 6,
        "first_taker": None,
        "first_game": True,
    }
    assert g.tribute == _expected_lw_chuan(prev)
    assert "luo" not in {p.kind for p in g.tribute}
    settle(g)
    for s in (1, 3, 5):
        assert any(t.startswith(f"tribute chuan {s}>{duitou(s)} ") for _, t in g.log)


def test_TV_J08_laiwu_dian_then_shao_then_luo() -> None:
    # P1 burned P0; P0 不开点 (对头 P3); 头科 P2, 二科 P3, 二落 P4, 大落 P5
    opened = [True] * 6
    opened[0] = False
    obl = obligations(LW, result([4, 3, 1, 2, 5, 6], opened=opened, burns=[[1, 0]]))
    assert obl == [
        Payment("dian", 0, 3, 1),
        Payment("shao", 0, 1, 1),
        Payment("luo", 5, 2, 2, False),
        Payment("luo", 4, 3, 1, False),
    ]

    def make(seed: int) -> Game:
        return Game.new(LW, seed, opener=2, first_taker=5, first_game=False, tribute=obl)

    def ok(g: Game, h: list[list[int]]) -> bool:
        t = trib_cards(h[0])
        return len(t) >= 2 and t[0] != t[1]

    g, hands = find_seed(make, ok)
    settle(g)
    t = trib_cards(hands[0])
    assert paid_events(g, 0)[:2] == [f"paid {RANKS[t[0]]} to 3", f"paid {RANKS[t[1]]} to 1"]
    events = [e for _, e in g.log if e.startswith("tribute ")]
    assert events[:2] == ["tribute dian 0>3 1", "tribute shao 0>1 1"]
    assert [e.split()[1] for e in events[2:]] == ["luo", "luo"]


def test_TV_J09_after_chuan_only_dian() -> None:
    # team A 串 (P0 1, P2 2, P4 3); P3 不开点, P0 opened; P5 大落
    opened = [True] * 6
    opened[3] = False
    obl = obligations(OF, result([1, 4, 2, 5, 3, 6], opened=opened))
    dian = Payment("dian", 3, 0, 1)
    assert obl == [dian]

    def make(seed: int) -> Game:
        return Game.new(OF, seed, opener=1, first_taker=4, first_game=True, tribute=obl)

    # a 明点/预点 settlement of the 串 game is paid too (R16.8)
    decl = make_rules("OUTLINE_FULL", {"dian.declare": "ming_yu"})
    ming = {"by": 1, "on": 4, "kind": "mingdian", "succeeded": False, "cards": 2}
    res = result([1, 4, 2, 5, 3, 6], opened=opened, declarations=[ming])
    assert obligations(decl, res) == [dian, Payment("ming", 1, 4, 2)]

    g, hands = find_seed(make, lambda g, h: bool(trib_cards(h[3])))
    seen = settle(g)
    assert g.tribute_paid == [(dian, 1)]
    assert paid_events(g, 3)[0] == f"paid {RANKS[trib_cards(hands[3])[0]]} to 0"
    assert "huan" not in seen and not huan_events(g)


def test_TV_J10_laiwu_all_agree_skip() -> None:
    seed = _lw_chuan_seed()
    m = play0(LW, seed)
    prev = m.results[0]
    assert _expected_lw_chuan(prev)  # there would be tribute
    while m.pending == "swap" and m.to_act is not None:
        m.apply("noswap")
    asked = []
    while m.to_act is not None:
        assert m.pending == "skip"
        asked.append(m.to_act)
        m.apply("skip")
    assert sorted(asked) == list(range(6))
    g = m.next_game()
    assert g.tribute == []
    assert m.openings[1] == {
        "opener": (m.first_opener + 1) % 6,
        "first_taker": None,
        "first_game": True,
    }
    settle(g)
    assert not any(t.startswith("tribute ") for _, t in g.log)


def test_TV_J11_replaced_two_reopen_no_tribute() -> None:
    def want(m: Match) -> bool:
        r = m.results[0]
        return r["chuan"] is None and not bool(r["opened"][3])

    seed = search(OF, want)
    games: dict[int, Game] = {}
    for replaced in (0, 1, 2):
        m = play0(OF, seed)
        answer(m)
        games[replaced] = m.next_game(replaced=replaced)
        assert m.replaced == [0, replaced]
        first = m.first_opener
        reopen = replaced >= 2
        assert m.openings[1] == {
            "opener": (first + 1) % 6,  # a re-open continues the rotation (AMB-68)
            "first_taker": None,
            "first_game": reopen,
        }
        assert m.games[0].tribute == []  # R16.1: none in the first game
    assert Payment("dian", 3, 0, 1) in games[0].tribute
    assert games[1].tribute == games[0].tribute
    assert games[2].tribute == []
    settle(games[2])
    assert not any(t.startswith("tribute ") for _, t in games[2].log)


def test_TV_J12_swap_changes_tribute_roles() -> None:
    def want(m: Match) -> bool:
        p: list[int] = m.results[0]["places"]
        er, da, t1, t2 = p.index(5), p.index(6), p.index(1), p.index(2)
        return (er & 1) == (da & 1) and (t1 & 1) != (er & 1) and (t2 & 1) != (er & 1)

    seed = search(OF, want)
    m = play0(OF, seed)
    res = m.results[0]
    places = list(res["places"])
    scores, totals = list(res["team_scores"]), m.totals
    er, da, t1, t2 = places.index(5), places.index(6), places.index(1), places.index(2)
    assert res["chuan"] is None
    assert m.pending == "swap" and m.to_act == er
    m.apply("swap")
    assert m.to_act == da
    m.apply("swap")
    assert m.results[0]["places"][er] == 6 and m.results[0]["places"][da] == 5
    assert m.results[0]["team_scores"] == scores and m.totals == totals
    answer(m)
    g = m.next_game()
    luo = [p for p in g.tribute if p.kind == "luo"]
    assert luo == [Payment("luo", er, t1, 2, True), Payment("luo", da, t2, 1, True)]
    # one "no" keeps the places
    m2 = play0(OF, seed)
    m2.apply("swap")
    m2.apply("noswap")
    assert m2.results[0]["places"] == places
    answer(m2)
    luo2 = [p for p in m2.next_game().tribute if p.kind == "luo"]
    assert luo2 == [Payment("luo", da, t1, 2, True), Payment("luo", er, t2, 1, True)]


# ---------------------------------------------------------------------- TV-H payments
def test_TV_H04_dian_paid_first_never_returned() -> None:
    def want(m: Match) -> bool:
        r = m.results[0]
        p = r["places"]
        luo = (p.index(6) & 1) != (p.index(1) & 1)  # 大落 and 头科 are opponents
        return r["chuan"] is None and not r["opened"][3] and bool(r["opened"][0]) and luo

    m = play0(OF, search(OF, want))
    answer(m)
    g = m.next_game()
    assert g.tribute[0] == Payment("dian", 3, 0, 1)
    kinds = [p.kind for p in g.tribute]
    assert "luo" in kinds and kinds.index("luo") > 0
    hands = dealt(g)
    settle(g)
    tribute_log = [t for _, t in g.log if t.startswith("tribute ")]
    assert tribute_log[0].startswith("tribute dian 3>0 ")
    top = trib_cards(hands[3])[:1]
    assert paid_events(g, 3)[0] == f"paid {text(top)} to 0"
    # returns only for 落贡: per (receiver, payer), as many as 落贡 cards paid
    owed: dict[str, int] = {}
    for p, n in g.tribute_paid:
        if p.kind == "luo":
            key = f"huan {p.receiver}>{p.payer}"
            owed[key] = owed.get(key, 0) + n
    got: dict[str, int] = {}
    for e in huan_events(g):
        got[e] = got.get(e, 0) + 1
    assert got == {k: v for k, v in owed.items() if v}


def test_TV_H05_both_not_opened_exchange_or_cancel() -> None:
    opened = [True] * 6
    opened[0] = opened[3] = False
    res = result([1, 2, 5, 3, 4, 6], opened=opened)
    of = obligations(OF, res)
    assert of[:2] == [Payment("dian", 0, 3, 1), Payment("dian", 3, 0, 1)]
    assert {p.kind for p in of[2:]} == {"luo"}
    lw = obligations(LW, res)
    assert not [p for p in lw if p.kind == "dian"]

    def make(seed: int) -> Game:
        return Game.new(OF, seed, opener=3, first_taker=0, first_game=False, tribute=of[:2])

    g, _ = find_seed(make, lambda g, h: bool(trib_cards(h[0]) and trib_cards(h[3])))
    settle(g)
    assert g.tribute_paid == [(of[0], 1), (of[1], 1)]


DECLARE_CASES = [
    ("ming_yu", "mingdian", 2),
    ("ming_yu", "yudian", 4),
    ("ming_yu_double", "mingdian", 4),
    ("ming_yu_double", "yudian", 8),
]


@pytest.mark.parametrize(("mode", "kind", "cards"), DECLARE_CASES)
def test_TV_H06_overturned_declaration_pays(mode: str, kind: str, cards: int) -> None:
    rules = make_rules("OUTLINE_FULL", {"dian.declare": mode})

    def p1_declares(g: Game) -> str | None:
        if g.pending in ("yudian", "mingdian") and g.to_act == 1 and g.pending == kind:
            return kind
        return None

    def want(m: Match) -> bool:
        return bool(m.results[0]["opened"][4])

    m = play0(rules, search(rules, want, choose=p1_declares), p1_declares)
    prev = m.results[0]
    assert prev["declarations"] == [
        {"by": 1, "on": 4, "kind": kind, "succeeded": False, "cards": cards}
    ]
    answer(m)
    g = m.next_game()
    code = "ming" if kind == "mingdian" else "yu"
    pay = Payment(code, 1, 4, cards)
    assert pay in g.tribute
    hands = dealt(g)
    settle(g)
    by_p1 = [(p, n) for p, n in g.tribute_paid if p.payer == 1 and p.kind != "luo"]
    assert pay in dict(by_p1)
    owed = sum(p.cards for p, _ in by_p1)
    assert sum(n for _, n in by_p1) == min(owed, len(trib_cards(hands[1])))


def _h12_match(rules: Rules, hint: int) -> Match:
    def choose(g: Game) -> str | None:
        if g.pending == "yudian":
            return "yudian" if g.to_act == 1 else "noyudian"
        if g.pending == "geming":
            return "geming" if g.to_act == 4 else "nogeming"
        return None

    for seed in (hint, *range(5000)):
        m = Match(rules, seed)
        g = m.game
        while g.pending in ("yudian", "geming"):
            m.apply(choose(g) or "")
        if g.revolutionary != 4:
            continue
        # the vector's state: P4's dealt hand has no 2/SJ/LJ (and no 3 under 憋3)
        h = dealt(g)[4]
        assert not trib_cards(h) and (h[0] == 0 or not rules.bie3_enabled)
        drive(m, random.Random(seed), choose)
        assert m.results[0]["revolutionary"] == 4
        return m
    raise AssertionError("no seed where P4 may revolt")


@pytest.mark.parametrize("bie3", [True, False])
def test_TV_H12_declaration_on_revolutionary(bie3: bool) -> None:
    over: dict[str, object] = {"dian.declare": "ming_yu"}
    if not bie3:
        over |= {"bie3.enabled": False, "rev.mode": "outline"}
    rules = make_rules("OUTLINE_FULL", over)
    m = _h12_match(rules, hint=1271 if bie3 else 154)
    prev = m.results[0]
    assert prev["opened"][4] is bie3
    assert prev["declarations"] == [
        {"by": 1, "on": 4, "kind": "yudian", "succeeded": not bie3, "cards": 4}
    ]
    answer(m)
    g = m.next_game()
    pay = Payment("yu", 1, 4, 4) if bie3 else Payment("yu", 4, 1, 4)
    assert pay in g.tribute
    hands = dealt(g)
    settle(g)
    paid = dict(g.tribute_paid)
    before = [p for p in g.tribute[: g.tribute.index(pay)] if p.payer == pay.payer]
    left = len(trib_cards(hands[pay.payer])) - sum(paid[p] for p in before)
    assert paid[pay] == min(4, max(0, left))


def test_TV_H13_liang4_dian_only() -> None:
    def want(m: Match) -> bool:
        r = m.results[0]
        return (
            r["chuan"] is None
            and not r["opened"][3]
            and bool(r["opened"][0])
            and r["places"][5] == 6
            and all(r["opened"][s] for s in (1, 2, 4, 5))
        )

    m = play0(L4, search(L4, want, seeds=range(3000)))
    answer(m)
    g = m.next_game()
    dian = Payment("dian", 3, 0, 1)
    assert g.tribute == [dian]
    hands = dealt(g)
    seen = settle(g)
    assert "huan" not in seen and not huan_events(g)
    top = trib_cards(hands[3])[:1]
    assert g.tribute_paid == [(dian, len(top))]
    assert paid_events(g, 3)[0] == f"paid {text(top)} to 0"


# ---------------------------------------------------------------------- TV-N openings
def test_TV_N05_later_game_opening() -> None:
    # OC (da_luo): the previous 大落 P5 takes first and leads; no draw, no 亮3
    def want(m: Match) -> bool:
        r = m.results[0]
        return r["chuan"] is None and r["places"][5] == 6

    m = play0(OC, search(OC, want))
    answer(m)
    g = m.next_game()
    assert m.openings[1] == {"opener": 2, "first_taker": 5, "first_game": False}
    assert g.first_taker == 5 and g.starter == 5
    assert not any(t.startswith(("opening_draw", "liang3")) for _, t in g.log)
    seen = settle(g)
    assert g.pending == "lead" and g.to_act == 5, seen

    # OF (rotate): the opener moves one seat ccw; the first taker by R3.1 leads
    def want_of(m: Match) -> bool:
        r = m.results[0]
        if r["chuan"] is not None or r["places"][5] != 6:
            return False
        answer(m)
        return m.next_game().first_taker != 5

    m = play0(OF, search(OF, want_of))
    answer(m)
    g = m.next_game()
    nxt = (m.first_opener + 1) % 6
    assert m.openings[1] == {"opener": nxt, "first_taker": None, "first_game": False}
    assert g.opener == nxt
    assert g.first_taker == first_taker_by_draw(g) != 5
    assert g.starter == g.first_taker


def test_TV_N08_reopen_within_rotation() -> None:
    found = None
    for seed in range(300):
        m = Match(OF, seed)
        rng = random.Random(seed)
        for k in range(3):
            drive(m, rng)
            if k == 2 and m.results[2]["chuan"] is not None:
                found = m
                break
            answer(m)
            if k < 2:
                m.next_game()
        if found is not None:
            break
    assert found is not None
    m = found
    first = m.first_opener
    assert m.openings[2]["opener"] == (first + 2) % 6  # the previous game, in the rotation
    answer(m)
    g = m.next_game()
    assert m.openings[3] == {"opener": (first + 3) % 6, "first_taker": None, "first_game": True}
    assert g.opener == (first + 3) % 6 != (first + 1) % 6
    assert g.first_taker == first_taker_by_draw(g)
    assert g.starter == g.first_taker


# ---------------------------------------------------------------------- TV-I09
def test_TV_I09_match7_plain_win_and_no_tie_at_one_table() -> None:
    """TV-I09 (1.2): after three games A 33, B 30, A wins. Every game hands out 7+5+4+3+2+0 =
    21 points whatever the places, so three games give 63, odd: a tie cannot happen."""
    # A {1, 3, 6} = 11, B {2, 4, 5} = 10, three times: A 33, B 30
    _, recorded, _ = score("match7", Events((1, 2, 3, 4, 6, 5)))
    assert recorded == [11, 10]
    for seed in range(3):
        m = Match(M7, seed)
        rng = random.Random(seed)
        for i in range(3):
            if i:
                m.next_game()
            drive(m, rng)
            answer(m)
            assert sum(m.game.result()["team_scores"]) == 21
        assert sum(m.totals) == 63 and m.totals[0] != m.totals[1]
        assert m.is_over and m.resets == 0 and len(m.results) == 3
        assert m.winner == (0 if m.totals[0] > m.totals[1] else 1)


def test_TV_I09_match7_tie_resets() -> None:
    """R17.3's extra game, kept for completeness. Place points alone never tie a game (21 a
    game, odd), so the referee's penalties between games (R17.6, ``Match.sanction``) bring
    the totals level: a tie after game 2 stands, a tie after game 3 resets the totals and
    a fourth game decides; the game the penalty follows is the one its result counts in."""
    m = Match(M7, 5)
    assert m.length == 3
    rng = random.Random(5)

    def level_the_totals() -> None:
        a, b = m.totals
        if a != b:  # the leading team's first seat loses the difference
            m.sanction("penalty", 0 if a > b else 1, points=-abs(a - b), article="TV-I09")

    for game in range(4):
        if game:
            m.next_game()
        drive(m, rng)
        answer(m)
        if game == 1:
            level_the_totals()
            assert m.totals[0] == m.totals[1] > 0
            assert m.resets == 0 and not m.is_over  # a tie before game 3 is not reset
        if game == 2:
            level_the_totals()
            assert m.totals == [0, 0] and m.resets == 1
            assert not m.is_over and m.winner is None
    last = m.results[3]["team_scores"]
    assert m.totals == last and last[0] != last[1]
    assert m.is_over and m.winner == (0 if last[0] > last[1] else 1)
    with pytest.raises(MatchError):
        m.next_game()
