"""What one seat knows, read from its view alone, and hidden hands sampled to fit it.

Search agents (``search``) play out *determinizations*: the public state with the other
seats' cards sampled consistently with everything the seat has seen — cards played, hand
hand sizes (what an attentive player counts, whatever ``info.count_visibility`` shows),
cards the seat itself gave away, claims, 憋3 (every active seat still holds a 3) and the
piles that left the game (a revolutionary's hand has no 2 or joker; a 闷 hand is all 3s).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from gouji.agents.base import View
from gouji.engine.cards import (
    LJ,
    NUM_RANKS,
    R2,
    R3,
    R4,
    RA,
    RANKS,
    RT,
    SJ,
    deck_counts,
    parse_counts,
    tokens,
)
from gouji.engine.plays import NO_BASE, Play, feasible, gouji_flag
from gouji.engine.referee.game import Game
from gouji.engine.rules import Rules, make_rules

SEATS = 6
#: The heuristic's default price of splitting a group, and what it thinks taking a lead is
#: worth at the least (``gouji.agents.heuristic``, ``aggression`` 1): a plain answer that costs
#: no more is always played. Defined here so that the pass clues and the heuristic share them.
SPLIT_COST, LEAD_WORTH = 0.8, 2.0


def group_cost(held: int, rank: int, n: int, split_cost: float = SPLIT_COST) -> float:
    """The heuristic's price of playing ``n`` of the ``held`` cards of ``rank`` (3…A): a whole
    group leaving the hand is a gain, a split costs, high ranks are dearer."""
    rest = held - n
    return (-1.5 if rest == 0 else split_cost + 0.15 * rest) + 0.12 * max(0, rank - RT) * n


_RANK = {code: i for i, code in enumerate(RANKS)}


def rules_of(view: View) -> Rules:
    """The rules named in a view (built once per distinct spec: agents ask every decision).
    A play-out's view carries its game's ``Rules`` as ``resolved_rules``."""
    resolved = view.get("resolved_rules")
    if resolved is not None:
        return resolved  # type: ignore[no-any-return]
    spec = view.get("rules") or {"preset": view.get("preset"), "overrides": {}}
    return _rules_from(json.dumps(spec, sort_keys=True))


@lru_cache(maxsize=64)
def _rules_from(spec_json: str) -> Rules:
    spec = json.loads(spec_json)
    return make_rules(spec["preset"], spec.get("overrides") or None)


@dataclass
class Knowledge:
    """A seat's knowledge of the hidden cards."""

    seat: int
    rules: Rules
    counts: list[int]  # cards in each seat's hand now
    pool: list[int]  # rank counts of every card the seat cannot place for sure
    known: list[list[int]] = field(default_factory=lambda: [[0] * NUM_RANKS for _ in range(SEATS)])
    aside: dict[int, int] = field(default_factory=dict)  # seat → cards set aside (dead)
    aside_kind: dict[int, str] = field(default_factory=dict)  # "revolution" | "men" | "dead"
    clues: list[PassClue] = field(default_factory=list)
    plays: list[PlayClue] = field(default_factory=list)


@dataclass
class PassClue:
    """A seat passed on an opponent's plain play (no 2s, jokers, not 够级) of ``size`` cards of
    rank ``base``: the heuristic then had no cheap plain answer — a higher rank held ``size``
    times or a little more (it weighs such an answer below what the lead is worth and would
    have played it). ``since``: the ranks the seat has played after the pass (they were in
    its hand then)."""

    seat: int
    base: int
    size: int
    since: list[int] = field(default_factory=lambda: [0] * NUM_RANKS)

    def broken_by(self, hand: list[int], bie3: bool) -> bool:
        """Whether ``hand`` (the seat's now) would have answered instead of passing."""
        then = [a + b for a, b in zip(hand, self.since, strict=True)]
        if bie3 and then[R3] and sum(then) - self.size == then[R3]:
            return False  # answering would leave only 3s (闷): a pass is sensible
        return any(
            then[r] >= self.size and group_cost(then[r], r, self.size) <= LEAD_WORTH
            for r in range(self.base + 1, RA + 1)
        )


@dataclass
class PlayClue:
    """A seat's bare plain play (no 2s, jokers or attachments) of ``size`` cards of rank
    ``base``, as the heuristic would have chosen it: a lead (``answered`` is -1) of the lowest
    group, whole (under 憋3 the 3s are the last group); an answer to an opponent's plain play
    of rank ``answered`` with the cheapest such play (``group_cost``). ``since``: the ranks the
    seat has played from this play on, this play's cards included (its hand then is its hand
    now plus these)."""

    seat: int
    base: int
    size: int
    answered: int = -1
    since: list[int] = field(default_factory=lambda: [0] * NUM_RANKS)

    def broken_by(self, hand: list[int], bie3: bool) -> bool:
        """Whether the heuristic, holding ``hand`` (the seat's now), would have played
        otherwise."""
        since = self.since  # no list built: refine() asks this thousands of times a decision
        total = sum(hand) + sum(since)
        size = self.size
        if total == size or (
            bie3 and hand[R3] + since[R3] and total - size == hand[R3] + since[R3]
        ):
            return False  # it went out with this play, or it left only 3s: other reasons
        base = self.base
        if self.answered < 0:
            if hand[base] + since[base] != size:
                return True
            return any(hand[r] + since[r] > 0 for r in range(R4 if bie3 else R3, base))
        cost = group_cost(hand[base] + since[base], base, size)
        for r in range(self.answered + 1, RA + 1):
            held = hand[r] + since[r]
            if r != base and held >= size and group_cost(held, r, size) < cost:
                return True
        return False


def _plain(p: Play) -> bool:
    """A play of one base rank and nothing else (no 2s, jokers or attachments)."""
    return p.base != NO_BASE and p.nbase == p.size and not p.n2 and not p.has_joker


def play_clues(view: View, seat: int, rules: Rules) -> list[PlayClue]:
    """The other seats' bare plain leads and answers to opponents' plain plays, from the
    public events; only for seats still holding cards (a finished hand is known)."""
    clues: list[PlayClue] = []
    standing: tuple[int, Play] | None = None  # the round's last play and its owner
    counts = view["state"]["sizes"]
    dian = rules.dian_enabled
    gmin = rules.play_gouji_min
    for e in view["events"]:
        kind = e["type"]
        if kind == "round_won":
            standing = None
        elif kind in ("play", "burn"):
            s = e["seat"]
            p = Play.parse(e["cards"])
            if kind == "play" and s != seat and counts[s] and _plain(p):
                if standing is None:
                    if not (dian and gouji_flag(p, gmin)) and not (
                        rules.bie3_enabled and p.base == R3
                    ):
                        clues.append(PlayClue(s, p.base, p.size))
                else:
                    owner, q = standing
                    if (
                        (owner - s) % 2
                        and _plain(q)
                        and q.size == p.size
                        and not gouji_flag(q, gmin)
                    ):
                        clues.append(PlayClue(s, p.base, p.size, q.base))
            for clue in clues:
                if clue.seat == s:
                    for code in tokens(e["cards"]):
                        clue.since[_RANK[code]] += 1
            standing = (s, p)
    return clues


def pass_clues(view: View, seat: int, rules: Rules) -> list[PassClue]:
    """The other seats' passes on opponents' plain plays, from the public events."""
    clues: list[PassClue] = []
    standing: tuple[int, str] | None = None  # (owner, cards) of the round's last play
    for e in view["events"]:
        kind = e["type"]
        if kind in ("play", "burn"):
            for clue in clues:
                if clue.seat == e["seat"]:
                    for code in tokens(e["cards"]):
                        clue.since[_RANK[code]] += 1
            standing = (e["seat"], e["cards"])
        elif kind == "pass":
            s = e["seat"]
            if standing is None or s == seat or (standing[0] - s) % 2 == 0:
                continue  # nothing to answer, our own pass, or a teammate's play
            p = Play.parse(standing[1])
            if p.base == NO_BASE or p.n2 or p.has_joker or gouji_flag(p, rules.play_gouji_min):
                continue
            clues.append(PassClue(s, p.base, p.size))
        elif kind not in ("rang", "gouji", "opened"):
            standing = None  # a round ended (or something else happened): no standing play
    return clues


def read(view: View) -> Knowledge:
    """The hidden cards as the seat can account for them (sizes, piles, gifts, claims)."""
    seat = view["seat"]
    rules = rules_of(view)
    deck = deck_counts(rules.deck_remove)
    state = view["state"]
    known = [[0] * NUM_RANKS for _ in range(SEATS)]
    for e in view.get("private_events", []):
        if e["type"] in ("paid", "returned"):  # those cards are in that hand now
            for code in tokens(e["cards"]):
                if code in _RANK:
                    known[e["to"]][_RANK[code]] += 1
    for e in view["events"]:  # cards given away and played since are no longer known
        if e["type"] in ("play", "burn"):
            for code in tokens(e["cards"]):
                r = _RANK[code]
                known[e["seat"]][r] = max(0, known[e["seat"]][r] - 1)
    aside: dict[int, int] = {}
    kind: dict[int, str] = {}
    for s, n in enumerate(state["dead"]):
        if n:
            aside[s] = n
            if s == state["revolutionary"]:
                kind[s] = "revolution"
            elif s in state["men"]:
                kind[s] = "men"
            else:
                kind[s] = "dead"
    mine = parse_counts(view["hand"])
    played = state["played"]
    pool = [deck[r] - played[r] - mine[r] for r in range(NUM_RANKS)]
    if state.get("hui"):
        for c in state["hui"].split():
            pool[_RANK[c]] = 0  # every card of a 会'd rank left the game (R14.1)
    claim = view.get("claim")
    if claim:
        known[claim["seat"]] = parse_counts(claim["cards"])
    known[seat] = [0] * NUM_RANKS
    clues = pass_clues(view, seat, rules)
    plays = play_clues(view, seat, rules)
    return Knowledge(seat, rules, list(state["sizes"]), pool, known, aside, kind, clues, plays)


def sample_hands(view: View, rng: random.Random, k: Knowledge | None = None) -> list[list[int]]:
    """Hands for all six seats: the seat's own, and the others sampled to fit what it knows.

    A burner's hand must still be playable out (R8.5): a few draws are tried for that.
    """
    k = k or read(view)
    burner = view["state"]["burner"]
    hands = _sample_once(view, rng, k)
    if burner is None or burner < 0 or burner == k.seat:
        return hands
    for _ in range(30):
        if feasible(hands[burner], k.rules.play_twos_attach, k.rules.bie3_enabled):
            break
        hands = _sample_once(view, rng, k)
    return hands


def _sample_once(view: View, rng: random.Random, k: Knowledge) -> list[list[int]]:
    state = view["state"]
    active = state["active"]
    hands = [[0] * NUM_RANKS for _ in range(SEATS)]
    hands[k.seat] = parse_counts(view["hand"])
    pool = k.pool[:]
    need = [k.counts[s] if active[s] and s != k.seat else 0 for s in range(SEATS)]
    # cards known to be in a hand (claims, cards this seat gave and that were not played since)
    for s in range(SEATS):
        for r in range(NUM_RANKS):
            n = min(k.known[s][r], pool[r], need[s] - sum(hands[s]))
            if n > 0:
                hands[s][r] += n
                pool[r] -= n
    if k.rules.bie3_enabled:  # R4.7: every active seat still holds its 3s, at least one
        for s in range(SEATS):
            if need[s] and not hands[s][R3] and pool[R3] and sum(hands[s]) < need[s]:
                hands[s][R3] += 1
                pool[R3] -= 1
    piles = {s: [0] * NUM_RANKS for s in k.aside}
    for s, n in k.aside.items():
        kind = k.aside_kind[s]
        if kind == "men":
            allowed = [R3]
        elif kind == "revolution":
            allowed = [r for r in range(NUM_RANKS) if r not in (R2, SJ, LJ)]
            if k.rules.rev_mode == "bie3_only":
                allowed.remove(R3)
        else:
            allowed = list(range(NUM_RANKS))
        _deal_from(pool, piles[s], n, allowed, rng)
    rest = [r for r in range(NUM_RANKS) for _ in range(pool[r])]
    rng.shuffle(rest)
    for s in range(SEATS):
        while sum(hands[s]) < need[s] and rest:
            hands[s][rest.pop()] += 1
    return hands


def _deal_from(
    pool: list[int], pile: list[int], n: int, allowed: list[int], rng: random.Random
) -> None:
    """Move ``n`` random cards of the allowed ranks from ``pool`` to ``pile`` (fewer if short)."""
    cards = [r for r in allowed for _ in range(pool[r])]
    rng.shuffle(cards)
    for r in cards[:n]:
        pile[r] += 1
        pool[r] -= 1


def broken_clues(hands: list[list[int]], k: Knowledge) -> int:
    """How many pass clues the sampled hands contradict."""
    bie3 = k.rules.bie3_enabled
    return sum(1 for c in k.clues if c.broken_by(hands[c.seat], bie3))


def broken_plays(hands: list[list[int]], k: Knowledge) -> int:
    """How many play clues the sampled hands contradict."""
    bie3 = k.rules.bie3_enabled
    return sum(1 for c in k.plays if c.broken_by(hands[c.seat], bie3))


_HARD = 30.0  # the energy of a clue whose weight is 0


def _energy_weight(w: float) -> float:
    return _HARD if w <= 0.0 else -math.log(w)


def refine(
    hands: list[list[int]],
    k: Knowledge,
    rng: random.Random,
    pass_weight: float,
    play_weight: float,
    moves: int,
    burner: int | None = None,
) -> None:
    """Metropolis moves on the sampled hands, in place: swap one random card between two
    hidden hands (keeping the cards known to be there, every seat's last 3 under 憋3 and a
    burner's hand as it is) and keep the swap with chance ``min(1, weight ratio)``, the weight
    of a deal being ``pass_weight ** broken passes * play_weight ** broken plays``. The swap is
    symmetric in the cards, so the deals drift towards the prior weighted by the clues."""
    bie3 = k.rules.bie3_enabled
    a_pass, a_play = _energy_weight(pass_weight), _energy_weight(play_weight)
    by_seat: dict[int, tuple[list[PassClue], list[PlayClue]]] = {}
    for s in range(SEATS):
        if s != k.seat and s != burner and sum(hands[s]) > 0:
            by_seat[s] = ([c for c in k.clues if c.seat == s], [c for c in k.plays if c.seat == s])
    seats = list(by_seat)
    if len(seats) < 2 or not any(by_seat[s][0] or by_seat[s][1] for s in seats):
        return

    def energy(s: int) -> float:
        passes, plays = by_seat[s]
        e = 0.0
        if a_pass:
            e += a_pass * sum(1 for c in passes if c.broken_by(hands[s], bie3))
        if a_play:
            e += a_play * sum(1 for c in plays if c.broken_by(hands[s], bie3))
        return e

    energies = {s: energy(s) for s in seats}
    for _ in range(moves):
        a, b = rng.sample(seats, 2)
        ra, rb = _pick(hands[a], rng), _pick(hands[b], rng)
        if ra == rb or hands[a][ra] <= k.known[a][ra] or hands[b][rb] <= k.known[b][rb]:
            continue
        if bie3 and ((ra == R3 and hands[a][R3] == 1) or (rb == R3 and hands[b][R3] == 1)):
            continue
        hands[a][ra] -= 1
        hands[a][rb] += 1
        hands[b][rb] -= 1
        hands[b][ra] += 1
        ea, eb = energy(a), energy(b)
        delta = ea + eb - energies[a] - energies[b]
        if delta <= 0.0 or rng.random() < math.exp(-delta):
            energies[a], energies[b] = ea, eb
        else:  # undo
            hands[a][ra] += 1
            hands[a][rb] -= 1
            hands[b][rb] += 1
            hands[b][ra] -= 1


def _pick(hand: list[int], rng: random.Random) -> int:
    """The rank of a card drawn at random from ``hand``."""
    i = rng.randrange(sum(hand))
    for r, n in enumerate(hand):
        if i < n:
            return r
        i -= n
    raise AssertionError("unreachable")


def determinize(
    view: View,
    rng: random.Random,
    k: Knowledge | None = None,
    pass_weight: float = 1.0,
    tries: int = 12,
    play_weight: float = 1.0,
    moves: int = 100,
) -> Game:
    """A game in the view's public state with sampled hidden hands.

    With ``pass_weight`` < 1 a sample that contradicts ``n`` pass clues is kept with chance
    ``pass_weight ** n`` (rejection sampling: samples weighted by how likely the others'
    passes were under the heuristic's play); after ``tries`` draws the least contradicted.
    With ``play_weight`` < 1 the play clues count as well, and as there are too many of them
    for rejection (a score or more a seat by the middle of a game), the sample is instead
    moved towards the weights by ``moves`` card swaps between hidden hands (``refine``).
    """
    k = k or read(view)
    hands = sample_hands(view, rng, k)
    if play_weight < 1.0 and k.plays:
        refine(hands, k, rng, pass_weight, play_weight, moves, view["state"]["burner"])
    elif pass_weight < 1.0 and k.clues:
        best, fewest = hands, len(k.clues) + 1
        for attempt in range(tries + 1):
            if attempt:
                hands = sample_hands(view, rng, k)
            n = broken_clues(hands, k)
            if n == 0 or rng.random() < pass_weight**n:
                best = hands
                break  # accepted
            if n < fewest:
                best, fewest = hands, n
        hands = best
    state: dict[str, Any] = dict(view["state"])
    state["to_act"] = view["seat"]
    return Game.from_state(k.rules, state, hands)
