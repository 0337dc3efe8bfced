"""Plays: composition, effective rank, size, beating, 够级 (R4, R5, R6), and play generation.

A play is the multiset ``base × nbase + 2 × n2 + SJ × nsj + LJ × nlj`` where ``base`` is one
rank 3…A (or none). Plays are interned: ``Play.of`` returns the same object for the same
cards, so plays compare by identity and legal-play generation allocates nothing new after
warm-up (docs/design.md §4: fast by representation).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from gouji.engine.cards import (
    LJ,
    NUM_RANKS,
    R2,
    R3,
    RA,
    RANKS,
    SJ,
    CardError,
    CompositionError,
    parse_counts,
)
from gouji.engine.checks import text as check_text
from gouji.engine.checks import whole

if TYPE_CHECKING:
    from gouji.engine.rules import Rules

NO_BASE = -1
# The key to Play's constructor, held by its factory alone (a compiled class cannot be made
# with object.__new__, so the guard is this argument rather than a refusing __new__)
_MINT = object()


class Play:
    """An immutable, interned play. ``str(play)`` is its canonical text (R0.4)."""

    __slots__ = ("base", "code", "eff", "has_joker", "n2", "nbase", "nlj", "nsj", "size", "text")
    _interned: ClassVar[dict[int, Play]] = {}

    base: int
    nbase: int
    n2: int
    nsj: int
    nlj: int
    size: int
    eff: int
    code: int
    has_joker: bool
    text: str

    def __init__(
        self, mint: object, base: int, nbase: int, n2: int, nsj: int, nlj: int, code: int
    ) -> None:
        """Only ``_make`` holds ``_MINT``: every play is interned, so identity is equality."""
        if mint is not _MINT:
            raise TypeError("use Play.of(...) or Play.parse(text)")
        self.base, self.nbase, self.n2, self.nsj, self.nlj = base, nbase, n2, nsj, nlj
        self.size = nbase + n2 + nsj + nlj
        self.eff = base if base != NO_BASE else (R2 if n2 else (SJ if nsj else LJ))  # R4.3
        self.code = code
        self.has_joker = bool(nsj or nlj)
        parts: list[str] = []
        if base != NO_BASE:
            parts += [RANKS[base]] * nbase
        parts += ["2"] * n2 + ["SJ"] * nsj + ["LJ"] * nlj
        self.text = " ".join(parts)

    @staticmethod
    def key(base: int, nbase: int, n2: int, nsj: int, nlj: int) -> int:
        """Integer code of a composition (unique for every play of the four packs)."""
        return ((((base + 1) * 17 + nbase) * 17 + n2) * 5 + nsj) * 5 + nlj

    @classmethod
    def of(
        cls, base: object, nbase: object, n2: object = 0, nsj: object = 0, nlj: object = 0
    ) -> Play:
        """The play with ``nbase`` cards of ``base`` (or ``NO_BASE``) plus 2s and jokers."""
        base = whole(base, "a play's base rank", CompositionError)
        nbase, n2 = (
            whole(nbase, "a count", CompositionError),
            whole(n2, "a count", CompositionError),
        )
        nsj, nlj = whole(nsj, "a count", CompositionError), whole(nlj, "a count", CompositionError)
        if not (0 <= nbase <= 16 and 0 <= n2 <= 16 and 0 <= nsj <= 4 and 0 <= nlj <= 4):
            raise CompositionError(
                "R2.1: a play cannot hold more cards of a rank than the four packs"
            )
        return cls._get(base, nbase, n2, nsj, nlj)

    @classmethod
    def _get(cls, base: int, nbase: int, n2: int, nsj: int, nlj: int) -> Play:
        """``of`` without the range check, for generators whose counts come from a hand."""
        code = ((((base + 1) * 17 + nbase) * 17 + n2) * 5 + nsj) * 5 + nlj
        p = cls._interned.get(code)
        if p is None:
            p = cls._make(base, nbase, n2, nsj, nlj, code)
        return p

    @classmethod
    def _make(cls, base: int, nbase: int, n2: int, nsj: int, nlj: int, code: int) -> Play:
        if (base == NO_BASE) != (nbase == 0) or not (NO_BASE <= base <= RA):
            raise CompositionError(
                "R4.2: a play's base rank must be one of 3…A with at least one card"
            )
        if min(nbase, n2, nsj, nlj) < 0 or nbase > 16 or n2 > 16 or nsj > 4 or nlj > 4:
            raise CompositionError(
                "R2.1: a play cannot hold more cards of a rank than the four packs"
            )
        if nbase + n2 + nsj + nlj == 0:
            raise CompositionError("a play holds at least one card (R4.1)")
        p = cls(_MINT, base, nbase, n2, nsj, nlj, code)
        cls._interned[code] = p
        return p

    @classmethod
    def of_card(cls, rank: int) -> Play:
        """The one-card play of this rank index."""
        if rank <= RA:
            return cls._get(rank, 1, 0, 0, 0)
        return cls._get(NO_BASE, 0, int(rank == R2), int(rank == SJ), int(rank == LJ))

    @classmethod
    def from_counts(cls, counts: Sequence[int]) -> Play:
        """The play holding these rank counts; rejects two base ranks (R4.2)."""
        bases = [r for r in range(R3, RA + 1) if counts[r]]
        if len(bases) > 1:
            names = " and ".join(RANKS[r] for r in bases)
            raise CompositionError(f"R4.2: a play has one base rank, not {names}")
        base = bases[0] if bases else NO_BASE
        nbase = counts[base] if bases else 0
        return cls.of(base, nbase, counts[R2], counts[SJ], counts[LJ])

    @classmethod
    def parse(cls, text: object) -> Play:
        """Parse card text such as ``"7 7 2 SJ"`` (any order, case-insensitive, '10' = T)."""
        return cls.from_counts(parse_counts(check_text(text, "card text", CardError)))

    # -- R4 ----------------------------------------------------------------------------
    def counts(self) -> list[int]:
        """The play as a rank-count vector."""
        c = [0] * NUM_RANKS
        if self.base != NO_BASE:
            c[self.base] = self.nbase
        c[R2] += self.n2
        c[SJ] += self.nsj
        c[LJ] += self.nlj
        return c

    @property
    def is_dead(self) -> bool:
        """R4.5: a play with a big joker can never be beaten."""
        return self.nlj > 0

    @property
    def attached(self) -> int:
        """Number of attached cards (R4.10): cards whose rank differs from ``eff``."""
        if self.base != NO_BASE:
            return self.n2 + self.nsj + self.nlj
        if self.n2:
            return self.nsj + self.nlj
        if self.nsj:
            return self.nlj
        return 0

    @property
    def has_two(self) -> bool:
        """Whether any 2 is in the play."""
        return self.n2 > 0

    # -- R5 ----------------------------------------------------------------------------
    def beats(self, other: object) -> bool:
        """R5.1 ``can_beat(self, other)``: same size, other alive, higher eff, LJ ≥ other's SJ."""
        if not isinstance(other, Play):
            raise CompositionError(f"a play beats another play, not {type(other).__name__}")
        return (
            self.size == other.size
            and other.nlj == 0
            and self.eff > other.eff
            and self.nlj >= other.nsj
        )

    # -- R6 ----------------------------------------------------------------------------
    def is_gouji(self, rules: object) -> bool:
        """R6.1: a joker, or eff 2, or T…A with at least ``play.gouji_min`` cards."""
        minimum = getattr(rules, "play_gouji_min", None)
        if not isinstance(minimum, dict):
            raise CompositionError(f"R6.1 needs a rule set (make_rules), not {rules!r}")
        return gouji_flag(self, minimum)

    def is_pure_gouji(self, rules: Rules) -> bool:
        """R6.2: 够级 with no joker and no 2."""
        return self.is_gouji(rules) and not self.has_joker and self.n2 == 0

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[int, int, int, int, int]]:
        return (Play.of, (self.base, self.nbase, self.n2, self.nsj, self.nlj))


def gouji_flag(play: Play, gouji_min: Mapping[str, int]) -> bool:
    """R6.1 with an explicit minimum table (rank code → minimum size)."""
    if play.has_joker or play.eff == R2:
        return True
    need = gouji_min.get(RANKS[play.eff])
    return need is not None and play.size >= need


def remove(hand: Sequence[int], play: Play) -> list[int]:
    """The hand after the play, as a new count vector."""
    h = list(hand)
    if play.base != NO_BASE:
        h[play.base] -= play.nbase
    h[R2] -= play.n2
    h[SJ] -= play.nsj
    h[LJ] -= play.nlj
    return h


def holds(hand: Sequence[int], play: Play) -> bool:
    """Whether the hand contains every card of the play."""
    return (
        (play.base == NO_BASE or hand[play.base] >= play.nbase)
        and hand[R2] >= play.n2
        and hand[SJ] >= play.nsj
        and hand[LJ] >= play.nlj
    )


# -- generation from counts (docs/design.md §4: never by enumerating card subsets) ----------


def leads(hand: Sequence[int], twos_attach: bool, bie3: bool) -> Iterator[Play]:
    """Every composition the hand can lead (R4.2, R4.7), before situational rules."""
    of = Play._get
    h2, hs, hl = hand[R2], hand[SJ], hand[LJ]
    m2 = h2 if twos_attach else 0
    for r in range(R3, RA + 1):
        nr = hand[r]
        if not nr:
            continue
        if bie3 and r == R3:
            if sum(hand) == nr:  # R4.7: all the 3s, alone, as the final play
                yield of(R3, nr, 0, 0, 0)
            continue
        for nb in range(1, nr + 1):
            for n2 in range(m2 + 1):
                for ns in range(hs + 1):
                    for nl in range(hl + 1):
                        yield of(r, nb, n2, ns, nl)
    for n2 in range(1, h2 + 1):
        for ns in range(hs + 1):
            for nl in range(hl + 1):
                yield of(NO_BASE, 0, n2, ns, nl)
    for ns in range(1, hs + 1):
        for nl in range(hl + 1):
            yield of(NO_BASE, 0, 0, ns, nl)
    for nl in range(1, hl + 1):
        yield of(NO_BASE, 0, 0, 0, nl)


def responses(hand: Sequence[int], standing: Play, twos_attach: bool) -> Iterator[Play]:
    """Every composition from the hand that beats ``standing`` (R5.1). 3s never beat anything."""
    if standing.nlj:
        return
    of = Play._get
    size, eff, k = standing.size, standing.eff, standing.nsj
    h2, hs, hl = hand[R2], hand[SJ], hand[LJ]
    for r in range(eff + 1, RA + 1):
        nr = hand[r]
        if not nr:
            continue
        for nb in range(1, min(nr, size) + 1):
            rest = size - nb
            for nl in range(k, min(hl, rest) + 1):
                for ns in range(min(hs, rest - nl) + 1):
                    n2 = rest - nl - ns
                    if n2 <= h2 and (twos_attach or n2 == 0):
                        yield of(r, nb, n2, ns, nl)
    if eff < R2:
        for n2 in range(1, min(h2, size) + 1):
            rest = size - n2
            for nl in range(k, min(hl, rest) + 1):
                ns = rest - nl
                if ns <= hs:
                    yield of(NO_BASE, 0, n2, ns, nl)
    if eff < SJ:
        for ns in range(1, min(hs, size) + 1):
            nl = size - ns
            if k <= nl <= hl:
                yield of(NO_BASE, 0, 0, ns, nl)
    if eff < LJ and hl >= size >= k:
        yield of(NO_BASE, 0, 0, 0, size)


def is_composition_legal(play: Play, hand: Sequence[int], twos_attach: bool, bie3: bool) -> str:
    """Why a play cannot be made from this hand by composition alone, or '' if it can."""
    if not holds(hand, play):
        return "R4.1: the hand does not hold these cards"
    if not twos_attach and play.n2 and play.base != NO_BASE:
        return "R4.2: 2s cannot be attached in this variant (play.twos_attach = false)"
    if bie3 and play.base == R3:
        if play.n2 or play.nsj or play.nlj:
            return "R4.7: nothing may be attached to 3s under 憋3"
        if play.nbase != hand[R3]:
            return "R4.7: the 3s cannot be split under 憋3"
        if sum(hand) != play.nbase:
            return "R4.7: 3s may only be the final play under 憋3"
    return ""


def feasible(hand: Sequence[int], twos_attach: bool, bie3: bool) -> bool:
    """R8.5: can these cards be led out, every lead but the last carrying a joker?"""
    jokers = hand[SJ] + hand[LJ]
    b3 = bie3 and hand[R3] > 0
    k = 0
    for r in range(R3, RA + 1):
        if hand[r] and not (b3 and r == R3):
            k += 1
    if hand[R2] and (not twos_attach or k == 0):
        k += 1
    return jokers >= k if b3 else jokers >= k - 1
