"""``heuristic``: a fast rule-based bot that plans its hand the way a club player does.

It reads only ``(view, legal)``: its own cards, the public log and the public state.

Main rules (see ``HeuristicAgent``):

* **Hand plan.** A hand is a set of *groups* (all the cards of one rank 3…A; under 憋3 the
  3s are the final group), plus *controls* (2s, SJ, LJ). Every group needs a lead or a
  response to leave the hand; an LJ makes a play dead (a sure round win), so with enough LJs
  the hand *runs out* by leading every group with an LJ.
* **Leads.** Run out when the LJs allow it; otherwise lead the lowest whole group, bare
  (rubbish first, high groups are kept for answering). Under 憋3 the last group before the
  3s is led as strongly as possible (a round that ends with someone else leading while we
  hold only 3s is 闷); under 打点 a 够级 group that can open the point is led before the
  deadline.
* **Answers.** Never beat a teammate (except to go out); beat an opponent with the cheapest
  play when its cost (controls spent, groups split, high cards used) is below what taking
  the lead is worth (a lone 2 on a single is priced just under it while the hand holds more
  than 12 cards); the 对头 yields (让牌) instead of passing, and before an expensive answer.
* **Offers.** Burns are accepted (the engine offers only burns that can run out);
  revolution only for a hopeless hand; 会3/会4/会5 to drop a small rubbish group; 还贡 gives
  the lowest single rubbish card; a returned card of a new rank is refused; everything else
  is declined.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from gouji.agents.base import View
from gouji.agents.knowledge import LEAD_WORTH, SPLIT_COST, group_cost, rules_of
from gouji.engine.actions import (
    ACCEPT,
    BURN,
    GEMING,
    HUAN,
    HUI,
    KEEP,
    NOBURN,
    NOGEMING,
    NOHUI,
    NOSKIP,
    NOSWAP,
    PASS,
    PLAY,
    RANG,
    REFUSE,
    SKIP,
    Action,
)
from gouji.engine.cards import LJ, NUM_RANKS, R2, R3, RA, RANKS, RQ, SJ, deck_counts, parse_counts
from gouji.engine.plays import NO_BASE, Play, gouji_flag
from gouji.engine.rules import Rules

SEATS = 6

#: Cost of spending one control card (2, SJ, LJ) on an answer, before scaling.
CONTROL_COST = {R2: 2.2, SJ: 3.5, LJ: 5.0}
#: A hand of this many cards or fewer is late in the game: its controls cost 0.6 of the above.
LATE_HAND = 12
#: How much cheaper a lone 2 answering a single is before the hand is late (``LATE_HAND``;
#: ``lone_two``): priced as a 2 like any other it cost more than a lead is worth, so the
#: heuristic never took a single's lead with one in the middle of the game, which is where a
#: long search found it passing wrongly (docs/strength.md, "Where the heuristic errs").
LONE_TWO = 0.5


class _Ctx:
    """What one decision needs, read once from the view."""

    __slots__ = (
        "_out",
        "bie3",
        "chaos",
        "gmin",
        "hand",
        "left",
        "rules",
        "seat",
        "state",
        "twos",
        "view",
    )

    def __init__(self, view: View, rules: Rules) -> None:
        self.view = view
        self.rules = rules
        self.seat: int = int(view["seat"])
        counts = view.get("hand_counts")  # a play-out's view: the counts, no text to parse
        if counts is None:
            counts = parse_counts(view.get("hand") or "")
        self.hand: list[int] = counts
        self.state: dict[str, Any] = view.get("state") or {}
        self.bie3 = rules.bie3_enabled
        self.twos = rules.play_twos_attach
        self.gmin = rules.play_gouji_min
        self.chaos = bool(view.get("chaos"))
        self.left = _cards_left(view, rules)
        self._out: list[int] | None = None

    @property
    def out(self) -> list[int]:
        """The cards still out (``_cards_out``), counted when an answer first asks."""
        if self._out is None:
            self._out = _cards_out(self.state, self.hand, self.rules)
        return self._out

    def standing(self) -> Play | None:
        """The play to beat (a play-out's view carries it parsed)."""
        play = self.view.get("standing_play")
        if play is not None:
            return play  # type: ignore[no-any-return]
        text = self.view.get("standing")
        return Play.parse(text) if text else None

    def mate(self, s: int) -> bool:
        return (s - self.seat) % 2 == 0

    def active(self, s: int) -> bool:
        act = self.state.get("active")
        if act is not None:
            return bool(act[s])
        return self.view["places"][s] is None


def _cards_out(state: dict[str, Any], hand: Sequence[int], rules: Rules) -> list[int]:
    """Cards of each rank not yet played and not in this hand (the table's memory)."""
    played = state.get("played") or [0] * NUM_RANKS
    deck = deck_counts(rules.deck_remove)
    out = [max(0, deck[r] - played[r] - hand[r]) for r in range(NUM_RANKS)]
    if state.get("hui"):
        for code in str(state["hui"]).split():
            out[RANKS.index(code)] = 0
    return out


def unbeatable(p: Play, out: Sequence[int], twos_attach: bool) -> bool:
    """Whether no answer can exist among the cards still out (R5.1). An upper bound on what
    the others can do, since those cards are spread over several hands."""
    if p.nlj or out[LJ] < p.nsj:
        return True  # dead, or not enough big jokers left for its small ones
    fill = out[SJ] + out[LJ]  # jokers attach to any play
    twos = out[R2] if twos_attach else 0
    for q in range(p.eff + 1, R2):  # a higher base rank, filled with 2s and jokers
        if out[q] and out[q] + twos + fill >= p.size:
            return False
    if p.eff < R2 and out[R2] and out[R2] + fill >= p.size:
        return False
    if p.eff < SJ and out[SJ] and fill >= p.size:
        return False
    return not (p.eff < LJ and out[LJ] >= p.size)


def _cards_left(view: View, rules: Rules) -> list[int]:
    """Each seat's card count: the public hand sizes, else the visible counts, else the deal
    size less its plays."""
    sizes = (view.get("state") or {}).get("sizes")
    if sizes is not None:
        return list(sizes)
    total = 216 - sum(rules.deck_remove.values())
    base = total // SEATS
    played = [0] * SEATS
    for s, text in view.get("log") or ():
        if 0 <= s < SEATS and (text.startswith("play ") or text.startswith("burn ")):
            played[s] += len(text.split()) - 1
    out: list[int] = []
    for s, c in enumerate(view.get("counts") or [base] * SEATS):
        if isinstance(c, int):
            out.append(c)
        elif view["places"][s] is not None:
            out.append(0)
        else:
            out.append(max(1, base - played[s]))
    return out


def groups(hand: Sequence[int], bie3: bool) -> list[int]:
    """The ranks 3…A held (the 3s left out under 憋3: they are the final play)."""
    lo = R3 + 1 if bie3 else R3
    return [r for r in range(lo, RA + 1) if hand[r]]


def leads_needed(hand: Sequence[int], bie3: bool, twos_attach: bool) -> int:
    """How many leads the hand needs to go out if every play of it stood."""
    n = len(groups(hand, bie3))
    if bie3 and hand[R3]:
        n += 1
    if hand[R2] and (not twos_attach or n == 0):
        n += 1
    if n == 0 and (hand[SJ] or hand[LJ]):
        n = 1
    return n


class _LeadPlan:
    """What every lead of one decision is scored against: the hand's groups, its LJs, and the
    pull of 打点 (read once a decision, not once a candidate lead)."""

    __slots__ = ("dian_bonus", "k", "need_win", "spare_lj")

    def __init__(self, ctx: _Ctx, dian_bonus: float) -> None:
        h = ctx.hand
        self.k = len(groups(h, ctx.bie3))
        threes = ctx.bie3 and h[R3] > 0
        self.need_win = threes and self.k == 1
        # with enough LJs every group but the last gets one (the 3s count as the last)
        self.spare_lj = h[LJ] - (self.k if threes else self.k - 1)
        self.dian_bonus = dian_bonus


@mypyc_attr(allow_interpreted_subclasses=True)  # researchers' bots may build on it
class HeuristicAgent:
    """Rule-based play: hand plan, cheap answers, team play (module docstring).

    Options (tuning knobs, the defaults were measured in self-play): ``aggression`` scales
    what taking the lead is worth when answering; ``split_cost`` is the cost of breaking a
    group to answer; ``close_bonus`` raises that worth when the hand needs 3 leads or fewer;
    ``dian_weight`` is the pull towards leading a 够级 group while the point is not open;
    ``safe_bonus`` raises the worth of an answer that the cards still out (deck less played
    cards less this hand) cannot beat — reading the table (measured as a claim it wins no
    more games, 50.1% [48.8%, 51.4%], and gains +0.21 [+0.03, +0.38] points a game:
    ``gouji arena --agents heuristic,heuristic --opt heuristic#2.safe_bonus=0``).
    ``lone_two`` lowers the price of a lone 2 answering a single while the hand holds more
    than 12 cards (``LONE_TWO``; 0 is the heuristic before issue 13's search findings).
    ``mistakes`` is the chance that a lead or answer is a uniformly random legal action
    instead (the lower levels, ``gouji.agents.levels``: a sensible player who slips); at 0 the
    agent never uses randomness and ``seed`` only feeds the slips.
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        *,
        aggression: float = 1.0,
        split_cost: float = SPLIT_COST,
        close_bonus: float = 1.0,
        dian_weight: float = 6.0,
        safe_bonus: float = 2.5,
        mistakes: float = 0.0,
        lone_two: float = LONE_TWO,
    ) -> None:
        if not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"mistakes is a probability (0 to 1), not {mistakes}")
        self.mistakes = float(mistakes)
        self.dian_weight = dian_weight
        self.safe_bonus = safe_bonus
        self.rng = random.Random(seed)
        self.aggression = aggression
        self.split_cost = split_cost
        self.close_bonus = close_bonus
        self.lone_two = lone_two

    # -- entry ---------------------------------------------------------------------------
    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` from the seat's view."""
        if len(legal) == 1:
            return legal[0]
        by_kind: dict[str, Action] = {}
        for a in legal:
            by_kind.setdefault(a.kind, a)
        if SKIP in by_kind or NOSKIP in by_kind:
            return self._skip(view, by_kind)
        if NOSWAP in by_kind:
            return by_kind[NOSWAP]
        rules = rules_of(view)
        ctx = _Ctx(view, rules)
        phase = view.get("phase")
        if phase == "burn_offer" or BURN in by_kind:
            return self._burn(ctx, legal, by_kind)
        if phase in ("lead", "respond", "rang_return") or PLAY in by_kind:
            if self.mistakes and self.rng.random() < self.mistakes:
                return self.rng.choice(legal)
            plays = [a for a in legal if a.kind == PLAY and a.play is not None]
            if phase == "lead" or (PASS not in by_kind and RANG not in by_kind):
                if plays:
                    return self._lead(ctx, plays)
            else:
                return self._respond(ctx, plays, by_kind)
        if HUAN in by_kind:
            return self._huan(ctx, legal)
        if GEMING in by_kind:
            return by_kind[GEMING] if self._hopeless(ctx) else by_kind[NOGEMING]
        if HUI in by_kind:
            return self._hui(ctx, legal, by_kind)
        if ACCEPT in by_kind or REFUSE in by_kind:
            # Asked only when the card is of a rank we lack: a new group, so refuse it.
            return by_kind.get(REFUSE, by_kind.get(ACCEPT, legal[0]))
        if KEEP in by_kind:
            return by_kind[KEEP]
        for a in legal:  # yudian, mingdian and the like: decline
            if a.kind.startswith("no"):
                return a
        return legal[0]

    # -- pre-play and match decisions -------------------------------------------------------
    def _skip(self, view: View, by_kind: dict[str, Action]) -> Action:
        """Skip the next tribute if our team was 串'd (it would pay), else insist on it."""
        seat = int(view["seat"])
        places = view.get("places") or []
        results = (view.get("match") or {}).get("results") or []
        if results:
            places = results[-1].get("places") or places
        top = [s for s, p in enumerate(places) if p is not None and p <= 3]
        chuaned = len(top) == 3 and all((s - seat) % 2 == 1 for s in top)
        return by_kind[SKIP] if chuaned and SKIP in by_kind else by_kind.get(NOSKIP, by_kind[SKIP])

    def _hopeless(self, ctx: _Ctx) -> bool:
        """革命 only with few high cards (the offer already means no 2 or joker)."""
        h = ctx.hand
        return sum(h[RQ : RA + 1]) <= 4 and len(groups(h, False)) >= 9

    def _hui(self, ctx: _Ctx, legal: Sequence[Action], by_kind: dict[str, Action]) -> Action:
        """会3/会4/会5: drop the ranks we hold as a small rubbish group (1 or 2 cards)."""
        h = ctx.hand
        small = {str(r + 3) for r in (0, 1, 2) if 1 <= h[r] <= 2}
        best: Action | None = None
        for a in legal:
            if a.kind == HUI and a.hui:
                want = set(a.hui.split())
                if want <= small and (best is None or len(want) > len(best.hui.split())):
                    best = a
        return best if best is not None else by_kind.get(NOHUI, legal[-1])

    def _huan(self, ctx: _Ctx, legal: Sequence[Action]) -> Action:
        """还贡: the lowest single rubbish card (never a 2, joker or our last 3)."""
        h = ctx.hand

        def key(a: Action) -> tuple[int, int, int]:
            assert a.play is not None
            r = a.play.eff
            control = int(r >= R2)
            last3 = int(r == R3 and ctx.bie3 and h[R3] <= 1)
            return (control + last3, 0 if h[r] == 1 else 1, r)

        return min(legal, key=key)

    # -- burning ---------------------------------------------------------------------------
    def _burn(self, ctx: _Ctx, legal: Sequence[Action], by_kind: dict[str, Action]) -> Action:
        """Accept: a burn runs the hand out. Use the offer that spends the fewest controls."""
        burns = [a for a in legal if a.kind == BURN and a.play is not None]
        if not burns:
            return by_kind.get(NOBURN, legal[0])
        return min(burns, key=lambda a: self._spend(ctx, a.play))  # type: ignore[arg-type]

    # -- leads -----------------------------------------------------------------------------
    def _lead(self, ctx: _Ctx, plays: list[Action]) -> Action:
        h = ctx.hand
        total = sum(h)
        for a in plays:  # go out at once
            assert a.play is not None
            if a.play.size == total:
                return a
        plan = _LeadPlan(ctx, self._dian_bonus(ctx))
        scored = [(self._lead_score(ctx, a.play, plan), i) for i, a in enumerate(plays)]  # type: ignore[arg-type]
        best = min(scored)
        return plays[best[1]]

    def _lead_score(self, ctx: _Ctx, p: Play, plan: _LeadPlan) -> float:
        """Lower is better."""
        h = ctx.hand
        k = plan.k
        if p.base == NO_BASE:
            # A lead of controls only: worth it when nothing else is left (but the 3s).
            if k == 0:
                # lead every 2 and joker together (dead if there is an LJ)
                left = h[R2] + h[SJ] + h[LJ] - p.size
                return 10.0 + left * 3.0
            return 100.0 + p.size
        r = p.base
        whole = p.nbase == h[r]
        s = 0.0 if whole else 8.0 + (h[r] - p.nbase)
        s += r * 1.0
        # attachments
        att2, attsj, attlj = p.n2, p.nsj, p.nlj
        if plan.need_win:  # the last group before the 3s must win the round
            # as strong as possible: all LJs, then SJs, then 2s
            s -= 20.0 * min(attlj, 1) + 4.0 * attsj + 1.0 * att2
            s += 0.2 * max(0, attlj - 1)
            return s
        if plan.spare_lj >= 0 and k >= 1:
            # running out: attach exactly one LJ to the lowest group; the last bare group goes out
            if attlj == 1 and attsj == 0 and att2 == 0:
                s -= 15.0
            else:
                s += 6.0 * (attsj + attlj) + 3.0 * att2
            return s
        s += 6.0 * attsj + 8.0 * attlj + 3.0 * att2
        # 够级 groups are better held for later (they win rounds), unless the point is due
        if gouji_flag(p, ctx.gmin):
            s += plan.dian_bonus
        # the last two groups: lead the weaker, keep the stronger to win with
        return s

    def _dian_bonus(self, ctx: _Ctx) -> float:
        """Negative when a qualifying 够级 lead would help open the point."""
        if not ctx.rules.dian_enabled:
            return 0.0
        opened = ctx.view.get("opened") or []
        if not opened or opened[ctx.seat]:
            return 0.0
        return -self.dian_weight

    # -- answers ---------------------------------------------------------------------------
    def _spend(self, ctx: _Ctx, p: Play) -> float:
        """What a play costs the hand: controls, split groups, high cards."""
        h = ctx.hand
        total = sum(h)
        scale = 1.0 if total > LATE_HAND else 0.6
        c = scale * (CONTROL_COST[R2] * p.n2 + CONTROL_COST[SJ] * p.nsj + CONTROL_COST[LJ] * p.nlj)
        if p.base != NO_BASE:
            c += group_cost(h[p.base], p.base, p.nbase, self.split_cost)
        if ctx.bie3 and h[R3]:
            # 憋3: keep a finisher for the last group before the 3s (else it is 闷)
            rest = total - p.size - h[R3]
            if rest > 0:
                if p.nlj and h[LJ] == p.nlj:
                    c += 6.0
                elif p.nsj and not h[LJ] and h[SJ] == p.nsj:
                    c += 3.0
        return c

    def _respond(self, ctx: _Ctx, plays: list[Action], by_kind: dict[str, Action]) -> Action:
        view = ctx.view
        h = ctx.hand
        seat = ctx.seat
        total = sum(h)
        owner = view.get("owner")
        standing = ctx.standing()
        decline = by_kind.get(PASS) or by_kind.get(RANG) or plays[0]
        rang = by_kind.get(RANG)
        if not plays:
            return rang if rang is not None else decline
        # go out with this answer
        for a in plays:
            assert a.play is not None
            if a.play.size == total:
                return a
        if owner is not None and ctx.mate(owner):
            return by_kind.get(PASS, decline)
        # the cheapest answer
        best_a = plays[0]
        best_c = 1e9
        for a in plays:
            assert a.play is not None
            c = self._spend(ctx, a.play)
            if a.play.size == 1 and a.play.eff == R2 and total > LATE_HAND:
                c -= self.lone_two  # a lone 2 takes a single's lead in the middle of the game
            rest = total - a.play.size
            if ctx.bie3 and h[R3] and rest == h[R3] and a.play.nlj == 0:
                c += 6.0  # leaves only 3s: 闷 unless this play wins the round
            if c < best_c:
                best_c, best_a = c, a
        worth = LEAD_WORTH * self.aggression
        if standing is not None and owner is not None:
            if gouji_flag(standing, ctx.gmin):
                worth += 1.0
            if ctx.left[owner] <= 5:
                worth += 2.0
            if ctx.chaos:
                worth += 1.5
        need = leads_needed(h, ctx.bie3, ctx.twos)
        if need <= 3:
            worth += self.close_bonus * (4 - need)
        assert best_a.play is not None
        if unbeatable(best_a.play, ctx.out, ctx.twos):
            worth += self.safe_bonus  # reading the table: nobody can take this lead back
        if best_c <= worth:
            mate = (seat + 2) % SEATS
            if rang is not None and best_c > 0.5 * worth and ctx.active(mate):
                return rang  # an expensive answer: the next two may beat it for us
            return best_a
        return rang if rang is not None else by_kind.get(PASS, decline)


def _register() -> None:
    from gouji.agents import register

    register("heuristic", HeuristicAgent)


_register()

__all__ = ["HeuristicAgent", "groups", "leads_needed"]
