"""Tribute (R16, R11.7, R11.8): what one game's result owes in the next game, and the cards.

The match layer turns a finished game's result into a list of ``Payment`` (``obligations``);
the next ``Game`` pays them in its tribute phase (R18 step 5) with ``tribute_cards`` and asks
the receivers of returnable tribute for their 还贡 (R16.7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gouji.engine.cards import LJ, NUM_RANKS, R2, SJ
from gouji.engine.pickling import by_fields
from gouji.engine.rules import Rules

#: Legal tribute cards, best first (R16.2).
TRIBUTE_RANKS = (LJ, SJ, R2)
SEATS = 6


@dataclass(frozen=True, slots=True)
class Payment:
    """One tribute obligation: ``payer`` gives ``cards`` cards to ``receiver``.

    ``kind`` is ``dian`` (点贡), ``ming`` / ``yu`` (a 明点 / 预点 settlement, paid with 点贡),
    ``shao`` (烧贡), ``luo`` (落贡) or ``chuan`` (串三户 tribute); ``returned`` marks 落贡
    that the receiver gives back (还贡, R16.7).
    """

    kind: str
    payer: int
    receiver: int
    cards: int
    returned: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON form (records)."""
        return {
            "kind": self.kind,
            "payer": self.payer,
            "receiver": self.receiver,
            "cards": self.cards,
            "returned": self.returned,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Payment:
        """Inverse of ``as_dict``; raises ValueError on a malformed entry."""
        try:
            p = cls(
                str(d["kind"]),
                int(d["payer"]),
                int(d["receiver"]),
                int(d["cards"]),
                bool(d.get("returned", False)),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"bad tribute entry {d!r}: {e}") from None
        if p.kind not in ("dian", "ming", "yu", "shao", "luo", "chuan"):
            raise ValueError(f"bad tribute kind {p.kind!r}")
        if not (0 <= p.payer < SEATS and 0 <= p.receiver < SEATS) or p.cards < 1:
            raise ValueError(f"bad tribute entry {d!r}")
        return p

    def __reduce__(self) -> tuple[object, tuple[type[Any], dict[str, Any]]]:
        return by_fields(self)  # a compiled frozen class (gouji.engine.pickling)


def _dian_payments(rules: Rules, result: Mapping[str, Any]) -> list[Payment]:
    """R11.7 点贡 and R11.8 declaration settlements (both paid as 点贡)."""
    opened: list[bool] = result.get("opened") or [True] * SEATS
    declared = {d["by"]: d for d in result.get("declarations", [])}
    out: list[Payment] = []
    for seat in range(SEATS):
        target = (seat + 3) % SEATS
        if not opened[seat]:  # seat owes its 对头 one card, unless the 对头 declared on it
            mutual = not opened[target]
            if mutual and rules.dian_mutual == "cancel":
                continue
            if target in declared:
                continue  # the declaration's amount replaces the normal 1 (R11.8)
            out.append(Payment("dian", seat, target, 1))
    for d in result.get("declarations", []):
        kind = "ming" if d["kind"] == "mingdian" else "yu"
        if d["succeeded"]:
            out.append(Payment(kind, d["on"], d["by"], int(d["cards"])))
        else:  # 翻车: the declarer pays its 对头
            out.append(Payment(kind, d["by"], d["on"], int(d["cards"])))
    return out


def obligations(
    rules: Rules, result: Mapping[str, Any], *, skip_all: bool = False
) -> list[Payment]:
    """R16.3–R16.8: the payments the next game owes after a game with this ``result``.

    ``skip_all`` is the unanimous skip agreement after a 串三户 (R16.11).
    """
    if not rules.trib_enabled or skip_all:
        return []
    places: list[int] = result["places"]
    chuan = result.get("chuan")
    by_place = {p: s for s, p in enumerate(places)}
    out: list[Payment] = []
    for kind in rules.trib_order:
        if kind == "dian":
            out += _dian_payments(rules, result)
        elif kind == "shao" and (chuan is None or rules.trib_chuan == "each_to_duitou"):
            out += [Payment("shao", v, b, 1) for b, v in result.get("burns", [])]  # R16.3
        elif kind == "luo":
            out += _luo_or_chuan(rules, by_place, chuan)
    if "luo" not in rules.trib_order:
        out += _luo_or_chuan(rules, by_place, chuan, luo=False)
    if rules.trib_same_team == "skip":
        out = [p for p in out if (p.payer & 1) != (p.receiver & 1)]
    return out


def _luo_or_chuan(
    rules: Rules, by_place: Mapping[int, int], chuan: int | None, luo: bool = True
) -> list[Payment]:
    """落贡 (R16.3), or after a 串三户 the 串 tribute in its place (R16.8)."""
    if chuan is not None:
        if rules.trib_chuan != "each_to_duitou":
            return []
        losers = [s for s in range(SEATS) if (s & 1) != chuan]
        return [Payment("chuan", s, (s + 3) % SEATS, 1) for s in losers]
    if not luo:
        return []
    back = rules.trib_return
    return [
        Payment("luo", by_place[6], by_place[1], 2, back),
        Payment("luo", by_place[5], by_place[2], 1, back),
    ]


def tribute_cards(hand: Sequence[int], owed: int, no_card: str) -> list[int]:
    """R16.2: the payer's highest legal tribute cards (LJ > SJ > 2), as ranks; with
    ``highest_any`` a shortfall is made up with its highest cards of any rank."""
    h = list(hand)
    out: list[int] = []
    for r in TRIBUTE_RANKS:
        while h[r] and len(out) < owed:
            h[r] -= 1
            out.append(r)
    if no_card == "highest_any":
        for r in range(NUM_RANKS - 1, -1, -1):
            while h[r] and len(out) < owed:
                h[r] -= 1
                out.append(r)
    return out
