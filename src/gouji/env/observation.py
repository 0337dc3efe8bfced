"""The observation vector: one seat's ``view`` (``gouji.engine.referee.view``, the one place that
filters hidden information) turned into a fixed float32 vector. Nothing else of the game is read.

Seats are relative to the observer: position ``k`` of a per-seat slice is seat
``(observer + k) % 6`` — 0 the observer, 1 its 下家, 2 and 4 its teammates, 3 its 对头, 5 its
上家. ``SLICES`` names every slice (docs/env.md lists them with their meaning).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gouji.engine.cards import NUM_RANKS, RANKS, deck_counts, parse_counts
from gouji.engine.plays import Play
from gouji.engine.rules import Rules

SEATS = 6
PLACES = 7  # none, 1 = 头科 … 6 = 大落
#: Decision phases (``view["phase"]``, then the match's prompts), in slice order.
PHASES: tuple[str, ...] = (
    "yudian",
    "geming",
    "renounce",
    "hui",
    "hui5",
    "huan",
    "huan_check",
    "mingdian",
    "lead",
    "order",
    "respond",
    "rang_return",
    "burn_offer",
    "kou",
    "over",
    "swap",
    "skip",
)
STATUSES = ("active", "passed", "rang")
HEADS = ("live", "dead_level", "none")
ROUND_CAP = 500  # round numbers and play counts are clipped here
TOTAL_CAP = 1000  # match totals are clipped to ±this
GAMES_CAP = 100

# (name, size, low, high, meaning) in vector order; docs/env.md repeats the meanings
_LAYOUT: tuple[tuple[str, int, float, float, str], ...] = (
    ("seat", SEATS, 0, 1, "the observer's seat (absolute, 0…5), one-hot"),
    ("team", 1, 0, 1, "the observer's team: 0 = A (seats 0 2 4), 1 = B (1 3 5)"),
    ("phase", len(PHASES), 0, 1, "the decision now asked, one-hot (PHASES)"),
    ("to_act", SEATS, 0, 1, "who decides (relative), where the observer may know it"),
    ("hand", NUM_RANKS, 0, 16, "own cards by rank 3…LJ"),
    ("played", NUM_RANKS, 0, 16, "cards played on the table so far, by rank"),
    ("unseen", NUM_RANKS, 0, 16, "deck − own hand − played: in other hands or set aside"),
    ("sizes", SEATS, 0, 216, "hand sizes (relative; the public count, D34)"),
    ("set_aside", SEATS, 0, 216, "cards each seat set aside (revolution, 闷, broken burn)"),
    ("places", SEATS * PLACES, 0, 1, "per seat: no place, 1 … 6, one-hot"),
    ("active", SEATS, 0, 1, "seats still in play"),
    ("status", SEATS * len(STATUSES), 0, 1, "per seat this round: active, passed, rang"),
    ("heads", SEATS * len(HEADS), 0, 1, "per seat: 对头 live, 够死级 right, 无头 (R9)"),
    ("opened", SEATS, 0, 1, "开点 (R11; zeros where 打点 is off)"),
    ("men", SEATS, 0, 1, "闷'd seats"),
    ("revolutionary", SEATS, 0, 1, "the revolutionary (R15), one-hot"),
    ("renounced", 1, 0, 1, "its 对头 renounced (R15.5)"),
    ("declared", SEATS * 2, 0, 1, "per seat: declared 预点, declared 明点"),
    ("hui", 3, 0, 1, "会3, 会4, 会5 in force"),
    ("opener", SEATS, 0, 1, "the opener, one-hot"),
    ("first_taker", SEATS, 0, 1, "the first taker, one-hot (zeros before the opening)"),
    ("starter", SEATS, 0, 1, "the starter, one-hot (zeros before the opening)"),
    ("standing", NUM_RANKS, 0, 16, "the play to beat, by rank (zeros: none)"),
    ("standing_eff", NUM_RANKS, 0, 1, "its effective rank (R4.3), one-hot"),
    ("standing_flags", 6, 0, 1, "present, dead (LJ), protected 够级, 够死级, qualifies, size/40"),
    ("owner", SEATS, 0, 1, "who made it, one-hot"),
    ("chaos", 1, 0, 1, "四人乱缠 (R9.6)"),
    ("round", 2, 0, ROUND_CAP, "round number, plays made this round"),
    ("round_plays", SEATS * NUM_RANKS, 0, 16, "per seat: its latest play this round, by rank"),
    ("burner", SEATS, 0, 1, "a burning seat, one-hot (R8.4)"),
    ("victim", SEATS, 0, 1, "the seat it burns, one-hot"),
    ("burns", SEATS, 0, 16, "successful burns, per burner"),
    ("rang_by", SEATS, 0, 1, "the seat whose 让牌 is running (R7.6)"),
    ("claimant", SEATS, 0, 1, "a 挑牌 claimant (R10.2), one-hot"),
    ("claim", NUM_RANKS, 0, 16, "the claimed hand (public), by rank"),
    ("huan_offer", NUM_RANKS + SEATS, 0, 1, "还贡 check: the card offered, who returns it"),
    ("laiwu", SEATS * 3, 0, 1, "per seat (R13.5): 4s lock lifted, 4s due, may no longer 开壶"),
    ("must_lead", NUM_RANKS, 0, 1, "the base rank the first lead must have (亮4, R3.8)"),
    ("cancelled", SEATS, 0, 16, "turns still to cancel, per seat (R19.4)"),
    ("gousiji", SEATS * 2, 0, 16, "per seat: 够死级 used, 够死级 wins"),
    ("match", 4, -TOTAL_CAP, TOTAL_CAP, "game number, match length (0: one game), totals"),
)

#: name → (slice of the vector, meaning)
SLICES: dict[str, tuple[slice, str]] = {}
_low: list[float] = []
_high: list[float] = []
for _name, _size, _lo, _hi, _meaning in _LAYOUT:
    SLICES[_name] = (slice(len(_low), len(_low) + _size), _meaning)
    _low += [float(_lo)] * _size
    _high += [float(_hi)] * _size
OBS_SIZE = len(_low)
OBS_LOW: npt.NDArray[np.float32] = np.array(_low, dtype=np.float32)
OBS_HIGH: npt.NDArray[np.float32] = np.array(_high, dtype=np.float32)
_AT = {name: s.start for name, (s, _m) in SLICES.items()}
_SEATS_FROM = [[(me + k) % SEATS for k in range(SEATS)] for me in range(SEATS)]
_POSITION_OF = [[(s - me) % SEATS for s in range(SEATS)] for me in range(SEATS)]
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_STATUS_INDEX = {p: i for i, p in enumerate(STATUSES)}
_HEAD_INDEX = {p: i for i, p in enumerate(HEADS)}
_RANK_OF = {code: r for r, code in enumerate(RANKS)}
_play_cache: dict[str, list[int]] = {}  # play texts: at most the compositions of the packs


def _counts(text: str) -> list[int]:
    """Rank counts of canonical card text (what views hold); other text the slow way."""
    c = [0] * NUM_RANKS
    try:
        for tok in text.split():
            c[_RANK_OF[tok]] += 1
    except KeyError:
        return parse_counts(text)
    return c


def _play_counts(text: str) -> list[int]:
    c = _play_cache.get(text)
    if c is None:
        c = _play_cache[text] = _counts(text)
    return c


class ObservationEncoder:
    """Encodes views of games under one rule set (``match_length``: 0 for a single game)."""

    def __init__(self, rules: Rules, match_length: int = 0) -> None:
        self.deck = deck_counts(rules.deck_remove)
        self.match_length = match_length
        self.four_rule = rules.laiwu_four_rule  # the laiwu slice is all zeros otherwise

    def encode(self, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """The observation vector of ``view`` (a ``Game.view`` or ``Match.view`` of a seat)."""
        me: int = view["seat"]
        st: Mapping[str, Any] = view["state"]
        buf = [0.0] * OBS_SIZE
        at = _AT
        seats = _SEATS_FROM[me]  # position k ↔ absolute seat seats[k]
        pos = _POSITION_OF[me]  # absolute seat s ↔ position pos[s]

        def one(name: str, seat: int | None) -> None:
            if seat is not None and seat >= 0:
                buf[at[name] + pos[seat]] = 1.0

        def per_seat(name: str, values: list[Any]) -> None:
            base = at[name]
            for k in range(SEATS):
                buf[base + k] = float(values[seats[k]])

        buf[at["seat"] + me] = 1.0
        buf[at["team"]] = float(me & 1)
        match: Mapping[str, Any] | None = view.get("match")
        prompt = match["prompt"] if match is not None else None
        p = _PHASE_INDEX.get(prompt or view["phase"])
        if p is not None:
            buf[at["phase"] + p] = 1.0
        if match is not None and prompt:
            one("to_act", match["prompt_to"])
        else:
            one("to_act", view["to_act"])
        hand = _counts(view["hand"])
        played = st["played"]
        deck = self.deck
        base_h, base_p, base_u = at["hand"], at["played"], at["unseen"]
        for r in range(NUM_RANKS):
            h, pl = hand[r], played[r]
            buf[base_h + r] = float(h)
            buf[base_p + r] = float(pl)
            buf[base_u + r] = float(deck[r] - h - pl)
        per_seat("sizes", st["sizes"])
        per_seat("set_aside", st["dead"])
        per_seat("active", st["active"])
        places, statuses, heads = view["places"], view["statuses"], view["heads"]
        b_place, b_status, b_head = at["places"], at["status"], at["heads"]
        for k in range(SEATS):
            s = seats[k]
            buf[b_place + k * PLACES + (places[s] or 0)] = 1.0
            buf[b_status + k * 3 + _STATUS_INDEX[statuses[s]]] = 1.0
            buf[b_head + k * 3 + _HEAD_INDEX[heads[s]]] = 1.0
        if view["opened"] is not None:
            per_seat("opened", view["opened"])
        for s in view["men"]:
            one("men", s)
        one("revolutionary", view["revolutionary"])
        buf[at["renounced"]] = float(st["renounced"])
        base = at["declared"]
        for s, kind in view["declarations"]:
            buf[base + pos[s] * 2 + (0 if kind == "yudian" else 1)] = 1.0
        hui = view["hui"]
        if hui:
            base = at["hui"]
            for i, code in enumerate(("3", "4", "5")):
                if code in hui.split():
                    buf[base + i] = 1.0
        one("opener", st["opener"])
        one("first_taker", view["first_taker"])
        one("starter", view["starter"])
        standing = view["standing"]
        if standing:
            play = Play.parse(standing)
            c = _play_counts(standing)
            base = at["standing"]
            for r in range(NUM_RANKS):
                buf[base + r] = float(c[r])
            buf[at["standing_eff"] + play.eff] = 1.0
            base = at["standing_flags"]
            buf[base] = 1.0
            buf[base + 1] = float(play.is_dead)
            buf[base + 2] = float(view["protected"])
            buf[base + 3] = float(st["s_dead_level"])
            buf[base + 4] = float(st["s_qualifies"])
            buf[base + 5] = play.size / 40.0  # the largest composition: 16 + 16 + 4 + 4
            one("owner", view["owner"])
        buf[at["chaos"]] = float(view["chaos"])
        round_plays = view["round_plays"]
        buf[at["round"]] = float(min(view["round"], ROUND_CAP))
        buf[at["round"] + 1] = float(min(len(round_plays), ROUND_CAP))
        base = at["round_plays"]
        latest: dict[int, str] = {}
        for s, text in round_plays:
            latest[s] = text
        for s, text in latest.items():
            c = _play_counts(text)
            b = base + pos[s] * NUM_RANKS
            for r in range(NUM_RANKS):
                if c[r]:
                    buf[b + r] = float(c[r])
        if view["burner"] is not None:
            one("burner", view["burner"])
            one("victim", st["victim"])
        for burner, _victim in view["burns"]:
            b = at["burns"] + pos[burner]
            buf[b] = min(buf[b] + 1.0, 16.0)
        one("rang_by", st["rang_by"])
        claim = view.get("claim")
        if claim is not None:
            one("claimant", claim["seat"])
            c = _counts(claim["cards"])
            base = at["claim"]
            for r in range(NUM_RANKS):
                buf[base + r] = float(c[r])
        offer = view.get("huan_offer")
        if offer is not None:
            base = at["huan_offer"]
            buf[base + _RANK_OF[offer["card"]]] = 1.0
            buf[base + NUM_RANKS + pos[offer["by"]]] = 1.0
        if self.four_rule:
            base = at["laiwu"]
            four_free, four_due, no_open = st["four_free"], st["four_due"], st["no_open"]
            for k in range(SEATS):
                s = seats[k]
                buf[base + k * 3] = float(four_free[s])
                buf[base + k * 3 + 1] = float(four_due[s])
                buf[base + k * 3 + 2] = float(no_open[s])
        if st["must_lead_base"] >= 0:
            buf[at["must_lead"] + st["must_lead_base"]] = 1.0
        cancelled = st["cancelled"]
        if any(cancelled):
            per_seat("cancelled", [min(n, 16) for n in cancelled])
        base = at["gousiji"]
        used, wins = st["gsj_used"], st["gsj_wins"]
        for k in range(SEATS):
            s = seats[k]
            buf[base + k * 2] = float(used[s])
            buf[base + k * 2 + 1] = float(min(wins[s], 16))
        base = at["match"]
        if match is not None:
            totals = match["totals"]
            buf[base] = float(min(match["game"], GAMES_CAP))
            buf[base + 1] = float(min(self.match_length, GAMES_CAP))
            buf[base + 2] = float(max(-TOTAL_CAP, min(TOTAL_CAP, totals[me & 1])))
            buf[base + 3] = float(max(-TOTAL_CAP, min(TOTAL_CAP, totals[1 - (me & 1)])))
        else:
            buf[base] = 1.0
        return np.array(buf, dtype=np.float32)
