"""Shared test support: the suite's depth, rule sets the spec's vectors name by shorthand
(docs/spec/vectors.md, preamble), position drivers and a free loopback port (every test
folder imports this module as ``support``)."""

from __future__ import annotations

import json
import os
import random
import socket
from collections.abc import Callable
from typing import Any

import pytest
from argon2 import PasswordHasher

from gouji import Game, timeout_action
from gouji.competition import EventError
from gouji.engine.cards import NUM_RANKS

#: The suite's depth, one switch for all of it: ``GOUJI_TEST_PROFILE=ci`` (the default) sizes
#: each sweep to what it proves (its coverage of src/gouji as at the deep size), ``deep``
#: plays the sweeps at their full size and gives Hypothesis ten times the examples
#: (tests/conftest.py loads the Hypothesis profile of the same name).
PROFILES = ("ci", "deep")
PROFILE = os.environ.get("GOUJI_TEST_PROFILE") or "ci"
if PROFILE not in PROFILES:
    raise RuntimeError(f"GOUJI_TEST_PROFILE is ci or deep, not {PROFILE!r}")
DEEP = PROFILE == "deep"


def sized(ci: int, deep: int) -> int:
    """A sweep's size (games, seeds, examples): ``ci`` by default, ``deep`` in the deep run."""
    return deep if DEEP else ci


#: OD: OUTLINE_CLASSIC with the outline's 打点 and tribute (打点 without 憋3).
OD_OVERRIDES: dict[str, object] = {
    "dian.enabled": True,
    "dian.qualifier": "outline",
    "dian.deadline": "outline",
    "dian.mutual": "exchange",
    "trib.enabled": True,
    "trib.order": ["dian", "luo"],
    "trib.return": True,
    "trib.return_rank_rule": True,
    "trib.shao": False,
}


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now (for a server a test
    starts: a process, a worker, a live server for the browser)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def end_round(g: Game) -> None:
    """Everybody asked declines (R19.2 defaults) until the current round ends."""
    rounds = g.round_no
    for _ in range(30):
        if g.round_no != rounds or g.is_over:
            return
        g.apply(timeout_action(g))
    raise AssertionError("the round did not end")


def hide_and_shuffle(g: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``g`` whose other active seats' cards are reshuffled among them (counts kept)."""
    h = g.clone()
    others = [s for s in range(6) if s != seat and g.active[s] and s != g.claimant]
    pool: list[int] = []
    for s in others:
        for r in range(NUM_RANKS):
            pool += [r] * g.hands[s][r]
    rng.shuffle(pool)
    for s in others:
        n = sum(g.hands[s])
        counts = [0] * NUM_RANKS
        for r in pool[:n]:
            counts[r] += 1
        pool = pool[n:]
        h.hands[s] = counts
    h._legal = None
    return h


def unchanged(ev: Any, call: Callable[[], object], match: str) -> None:
    """``call`` raises EventError and leaves the event exactly as it was (an event's calls
    change it completely or not at all)."""
    before = json.dumps(ev.to_dict(), sort_keys=True)
    with pytest.raises(EventError, match=match):
        call()
    assert json.dumps(ev.to_dict(), sort_keys=True) == before


#: argon2id at a test's cost (8 MiB, one pass) for the test servers: the accounts' own cost
#: (64 MiB, three passes; test_accounts.py checks the default) takes a core for 0.2 s a hash,
#: seconds in a loaded run
LIGHT_HASHER = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)

#: A room of a short game for the analyses' tests (复盘): 36 cards (six each of 10 … 2), random
#: bots (their mistakes get flagged), a fixed seed, the next game at once. At 200 steps a
#: decision (``ANALYSIS_STEPS``) its analysis takes about a second.
SHORT_GAME: dict[str, Any] = {
    "preset": "MATCH7",
    "overrides": {
        "deck.remove": {
            **dict.fromkeys("3456789", 16),
            **dict.fromkeys("TJQKA2", 10),
            "SJ": 4,
            "LJ": 4,
        }
    },
    "bots": 6,
    "bot": "random",
    "bot_delay_ms": 0,
    "next_delay_ms": 0,
    "timer_s": None,
    "seed": 5,
}
ANALYSIS_STEPS = 200
