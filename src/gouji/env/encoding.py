"""The fixed action encoding: every action the engine can offer ↔ one index of ``Discrete(N)``.

The index space does not depend on the rule set, the game or the seat, so one policy head
serves every preset. It is a flattened, factored layout (docs/env.md):

====================  =========  =============================================================
block                 size       actions
====================  =========  =============================================================
words                 20         ``pass``, ``rang``, ``noburn``, … (``WORD_ACTIONS``, in order)
会                    4          ``hui 3``, ``hui 4``, ``hui 3 4``, ``hui 5``
order                 1          ``order …``: the claim's order the engine lists (R10.2)
还贡                  15         ``huan <card>``, one per rank ``3`` … ``LJ``
play                  82,024     ``play <cards>``: every composition of the four packs
burn                  82,024     ``burn <cards>``: the same compositions
====================  =========  =============================================================

A composition (R4.2) is ``base × nbase + 2 × n2 + SJ × nsj + LJ × nlj``; its offset inside the
play or burn block is mixed-radix: for a base rank ``b`` (0 = ``3`` … 11 = ``A``)
``b·6800 + (nbase−1)·425 + n2·25 + nsj·5 + nlj`` (``nbase`` 1…16, ``n2`` 0…16, ``nsj`` and
``nlj`` 0…4); without a base rank ``81600 + n2·25 + nsj·5 + nlj − 1``. Every index decodes to
exactly one action; ``order`` decodes to the one order the engine lists (only the canonical
order is offered, docs/decisions.md D19), so it needs the legal actions.

Pure Python but for :func:`action_mask`; the engine itself never imports this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from gouji.engine.actions import BURN, HUAN, ORDER, PLAY, WORDS, Action, IllegalAction
from gouji.engine.cards import NUM_RANKS, RA
from gouji.engine.plays import NO_BASE, Play

#: The one-word actions, in index order: the engine's own order. The encoding is pinned by its
#: size and this order in tests/env/test_env.py: a new word changes the encoding's version there.
WORD_ACTIONS: tuple[str, ...] = WORDS
HUI_ACTIONS: tuple[str, ...] = ("3", "4", "3 4", "5")

# composition radices (the four packs: 16 of each rank 3…2, 4 of each joker, R2.1)
MAX_BASE = 16
MAX_TWOS = 16
MAX_JOKER = 4
_NLJ = MAX_JOKER + 1
_NSJ = MAX_JOKER + 1
_N2 = MAX_TWOS + 1
_PER_NBASE = _N2 * _NSJ * _NLJ  # 425
_PER_BASE = MAX_BASE * _PER_NBASE  # 6800
_BASES = RA + 1  # 12 base ranks, 3 … A
_NO_BASE_START = _BASES * _PER_BASE  # 81600
N_COMPOSITIONS = _NO_BASE_START + _PER_NBASE - 1  # 82024

WORDS_START = 0
HUI_START = WORDS_START + len(WORD_ACTIONS)  # 20
ORDER_INDEX = HUI_START + len(HUI_ACTIONS)  # 24
HUAN_START = ORDER_INDEX + 1  # 25
PLAY_START = HUAN_START + NUM_RANKS  # 40
BURN_START = PLAY_START + N_COMPOSITIONS  # 82064
N_ACTIONS = BURN_START + N_COMPOSITIONS  # 164088

#: The blocks of the index space: (name, first index, size), in order.
BLOCKS: tuple[tuple[str, int, int], ...] = (
    ("word", WORDS_START, len(WORD_ACTIONS)),
    ("hui", HUI_START, len(HUI_ACTIONS)),
    ("order", ORDER_INDEX, 1),
    ("huan", HUAN_START, NUM_RANKS),
    ("play", PLAY_START, N_COMPOSITIONS),
    ("burn", BURN_START, N_COMPOSITIONS),
)

_WORD_INDEX = {w: WORDS_START + i for i, w in enumerate(WORD_ACTIONS)}
_HUI_INDEX = {h: HUI_START + i for i, h in enumerate(HUI_ACTIONS)}
_cache: dict[Action, int] = {}  # interned actions (all but orders) → index


class Factors(NamedTuple):
    """An index read as its factors. ``kind``: ``word``, ``hui``, ``order``, ``huan``, ``play``
    or ``burn``; ``word`` the word or 会 choice; for cards, the composition: ``base`` (rank index
    0…11, or −1 for none), ``nbase``, ``n2``, ``nsj``, ``nlj`` (``huan``: one card, ``base`` −1
    and the rank in ``rank``)."""

    kind: str
    word: str = ""
    rank: int = -1
    base: int = NO_BASE
    nbase: int = 0
    n2: int = 0
    nsj: int = 0
    nlj: int = 0


def composition_index(play: Play) -> int:
    """The offset of a play's composition inside the play (or burn) block."""
    if play.base != NO_BASE:
        return play.base * _PER_BASE + (play.nbase - 1) * _PER_NBASE + _tail(play)
    return _NO_BASE_START + _tail(play) - 1


def _tail(play: Play) -> int:
    return (play.n2 * _NSJ + play.nsj) * _NLJ + play.nlj


def composition(offset: int) -> Play:
    """The play at this offset of the play (or burn) block."""
    if not 0 <= offset < N_COMPOSITIONS:
        raise ValueError(f"a composition offset is 0…{N_COMPOSITIONS - 1}, not {offset}")
    if offset < _NO_BASE_START:
        base, rest = divmod(offset, _PER_BASE)
        nbase, rest = divmod(rest, _PER_NBASE)
        nbase += 1
    else:
        base, nbase, rest = NO_BASE, 0, offset - _NO_BASE_START + 1
    n2, rest = divmod(rest, _NSJ * _NLJ)
    nsj, nlj = divmod(rest, _NLJ)
    return Play.of(base, nbase, n2, nsj, nlj)


def encode(action: Action | str) -> int:
    """The index of an action (or action text). Any order of a claim encodes to ``ORDER_INDEX``."""
    if isinstance(action, str):
        action = Action.parse(action)
    i = _cache.get(action)
    if i is not None:
        return i
    kind = action.kind
    if kind == ORDER:
        return ORDER_INDEX
    if action.play is not None:
        if kind == HUAN:
            if action.play.size != 1:
                raise IllegalAction(f"还贡 returns one card, not {action.play.text!r}")
            i = HUAN_START + action.play.eff
        elif kind in (PLAY, BURN):
            start = PLAY_START if kind == PLAY else BURN_START
            i = start + composition_index(action.play)
        else:  # pragma: no cover - every card-carrying kind is listed above
            raise ValueError(f"no index for action kind {kind!r}")
    elif action.hui:
        i = _HUI_INDEX[action.hui]
    else:
        found = _WORD_INDEX.get(kind)
        if found is None:
            raise ValueError(f"no index for action {action.text!r}")
        i = found
    _cache[action] = i
    return i


def decode(index: int, legal: Sequence[Action] | None = None) -> Action:
    """The action at ``index``. ``ORDER_INDEX`` needs ``legal`` (the engine's legal actions):
    it decodes to the order listed there, and raises ``IllegalAction`` when none is."""
    i = int(index)
    if not 0 <= i < N_ACTIONS:
        raise ValueError(f"an action index is 0…{N_ACTIONS - 1}, not {index}")
    if i >= BURN_START:
        return Action.burn(composition(i - BURN_START))
    if i >= PLAY_START:
        return Action.of_play(composition(i - PLAY_START))
    if i >= HUAN_START:
        return Action.of_play(Play.of_card(i - HUAN_START), HUAN)
    if i == ORDER_INDEX:
        for a in legal or ():
            if a.kind == ORDER:
                return a
        raise IllegalAction("R10.2: no claim's order is due (index 'order')")
    if i >= HUI_START:
        return Action.of_hui(HUI_ACTIONS[i - HUI_START])
    return Action.word(WORD_ACTIONS[i])


def factors(index: int) -> Factors:
    """The index read as its block and composition (for factored or hierarchical policies)."""
    i = int(index)
    if not 0 <= i < N_ACTIONS:
        raise ValueError(f"an action index is 0…{N_ACTIONS - 1}, not {index}")
    if i >= PLAY_START:
        kind = "burn" if i >= BURN_START else "play"
        p = composition(i - (BURN_START if kind == "burn" else PLAY_START))
        return Factors(kind, base=p.base, nbase=p.nbase, n2=p.n2, nsj=p.nsj, nlj=p.nlj)
    if i >= HUAN_START:
        return Factors("huan", rank=i - HUAN_START)
    if i == ORDER_INDEX:
        return Factors("order")
    if i >= HUI_START:
        return Factors("hui", word=HUI_ACTIONS[i - HUI_START])
    return Factors("word", word=WORD_ACTIONS[i])


def text_of(index: int, legal: Sequence[Action] | None = None) -> str:
    """Engine text of an index (``order`` alone names the claim's order when ``legal`` does
    not hold it)."""
    if int(index) == ORDER_INDEX and not any(a.kind == ORDER for a in legal or ()):
        return ORDER
    return decode(index, legal).text


def legal_indices(legal: Iterable[Action]) -> list[int]:
    """The indices of the legal actions, in the engine's order."""
    return [encode(a) for a in legal]


def action_mask(legal: Iterable[Action]) -> npt.NDArray[np.int8]:
    """An int8 vector of ``N_ACTIONS``: 1 exactly at the legal actions' indices."""
    return mask_of(legal_indices(legal))


def mask_of(indices: Sequence[int]) -> npt.NDArray[np.int8]:
    """An int8 vector of ``N_ACTIONS``: 1 exactly at these indices."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    if indices:
        mask[list(indices)] = 1
    return mask
