"""Random playouts: invariants over random games of every preset (docs/design.md §4, issue 2
item 4).

Every game ends; cards are conserved; places are a permutation of 1–6; every accepted action
was legal (checked independently of ``legal_actions``); illegal and malformed actions are
rejected with a rule-citing message and change nothing; ``from_record(record())`` reproduces
the game; a seat's view does not change when cards it cannot see are shuffled; at the end the
revolutionary's place follows R15.4 and the seats left holding cards follow R11.5.

The deep run (``GOUJI_TEST_PROFILE=deep``) plays 1,000 games of each main preset and 200 of
each other one. The default run plays the first 100 and 50 and the few seeds of ``RARE``: that
reaches every line and branch of src/gouji the deep run reaches (coverage, game by game).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from gouji import Game, IllegalAction, Play, make_rules
from gouji.engine.cards import NUM_RANKS, counts_text
from gouji.engine.gamelog import private_events, public_events
from gouji.engine.plays import holds, is_composition_legal, leads
from gouji.engine.referee.game import PRIVATE_PENDING
from support import hide_and_shuffle, sized

PRESETS = ("OUTLINE_FULL", "OUTLINE_CLASSIC")
GAMES_PER_PRESET = sized(100, 1000)
OTHER_PRESETS = ("LAIWU", "AUDIT", "LIANG4", "MATCH7")
OTHER_GAMES = sized(50, 200)
CHUNKS = sized(1, 4)  # of each main preset's games, for the workers of ``pytest -n``
#: seeds past the default run's first ones, each for paths none of its other games reaches
#: (found with coverage over the deep run, game by game; the deep run plays them anyway),
#: with what shows that the game still reaches them (None: nothing in the game shows it)
RARE: dict[tuple[str, int], Callable[[Game], bool] | None] = {
    # R9.4 (a), R9.5: a 够死级 against an 对头 that went out in the round uses the one chance
    ("OUTLINE_CLASSIC", 159): lambda g: any(
        t == "gousiji" and (s + 3) % 6 != g.revolutionary for s, t in g.log
    ),
    # R15.4, AMB-75: the revolutionary's teammates take 头科 and 二科 after a forced 三科
    ("OUTLINE_CLASSIC", 424): lambda g: any(t == "moved 4" for _s, t in g.log),
    # R10.3: a seat's view checked in the first round, closed rounds hidden (view.py)
    ("MATCH7", 53): None,
}
RULE_ID = re.compile(r"R\d+(\.\d+)?")


def fingerprint(g: Game) -> tuple[Any, ...]:
    """Everything an action could change."""
    return (
        g.to_act,
        g.pending,
        tuple(tuple(h) for h in g.hands),
        tuple(g.places),
        len(g.log),
        len(g.actions),
        g.standing,
        g.owner,
        tuple(g.status),
        g.burner,
        tuple(g.opened),
    )


def check_accepted(g: Game, text: str) -> None:
    """Independent referee of an action about to be applied (R4, R5, R7.6, R8)."""
    word, _, cards = text.partition(" ")
    seat = g.to_act
    assert seat is not None and (g.active[seat] or g.pending in ("yudian",))
    if word in ("play", "burn"):
        play = Play.parse(cards)
        hand = g.hands[seat]
        assert holds(hand, play), (text, g.hand(seat))
        assert not is_composition_legal(play, hand, g.rules.play_twos_attach, g.rules.bie3_enabled)
        if g.pending in ("respond", "rang_return", "burn_offer"):
            assert g.standing is not None and play.beats(g.standing), (text, g.standing)
        else:
            assert g.pending == "lead"
    elif word == "pass":
        assert g.pending in ("respond", "rang_return"), "R4.1: a lead cannot be passed"
    elif word == "rang":
        assert g.pending == "respond" and seat == (g.owner + 3) % 6 and not g.standing_protected
    elif word == "kou":
        assert g.pending == "kou" and seat == (g.owner + 3) % 6
    elif word == "tiao":
        assert g.pending == "lead" and g.rules.info_tiao and not g.rules.bie3_enabled
    elif word == "order":  # R10.2: the claimant's first active teammate, else itself
        c = g.claimant
        mates = [q for q in ((c + 2) % 6, (c + 4) % 6) if g.active[q]]
        assert g.pending == "order" and seat == (mates[0] if mates else c)
        claimed = [0] * NUM_RANKS
        for chunk in cards.split("|"):
            claimed = [a + b for a, b in zip(claimed, Play.parse(chunk).counts(), strict=True)]
        assert claimed == g.hands[c], (text, g.hand(c))


def illegal_candidates(g: Game, rng: random.Random) -> list[str]:
    """Actions that must be rejected now."""
    seat = g.to_act
    assert seat is not None
    legal = {a.text for a in g.legal_actions()}
    out = ["", "play", "play 7 8", "fly 7", "pass 7", "play 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7"]
    out += [t for t in ("pass", "rang", "kou", "noburn", "geming", "hui 3") if t not in legal]
    hand = g.hands[seat]
    own = [p.text for p in leads(hand, True, False)]
    rng.shuffle(own)
    out += [f"play {t}" for t in own[:5] if f"play {t}" not in legal]
    missing = [r for r in range(NUM_RANKS) if not hand[r]]
    if missing:
        counts = [0] * NUM_RANKS
        counts[rng.choice(missing)] = 1
        out.append(f"play {counts_text(counts)}")
    return [t for t in out if t not in legal]


def play_checked(preset: str, seed: int) -> Game:
    """One random game with every invariant checked along the way."""
    rules = make_rules(preset)
    g = Game.new(rules, seed)
    rng = random.Random(seed * 7919 + 1)
    deck = g.count_cards()
    steps = 0
    while not g.is_over:
        legal = g.legal_actions()
        assert legal, "a seat to act always has a legal action"
        if rng.random() < 0.04:
            before = fingerprint(g)
            for text in illegal_candidates(g, rng):
                with pytest.raises(IllegalAction) as err:
                    g.apply(text)
                msg = str(err.value)
                assert RULE_ID.search(msg) or "malformed" in msg or "unknown" in msg, msg
                assert fingerprint(g) == before, text
        if rng.random() < 0.02 and g.pending not in PRIVATE_PENDING:
            seat = rng.randrange(6)
            assert hide_and_shuffle(g, seat, rng).view(seat) == g.view(seat)
        action = legal[rng.randrange(len(legal))]
        check_accepted(g, action.text)
        g.apply(action)
        assert g.count_cards() == deck
        steps += 1
        assert steps < 5000, "a game must end"
    assert sorted(p for p in g.places if p is not None) == [1, 2, 3, 4, 5, 6]
    assert sum(map(sum, g.hands)) == 0 or all(not a for a in g.active)
    res = g.result()
    assert len(res["team_scores"]) == 2
    check_revolutionary_place(g, res)
    check_early_end_opened(g)
    check_events_are_known(g)
    return g


def check_events_are_known(g: Game) -> None:
    """Front ends render events from data: every log line, public or private, is one the
    event reader knows (gouji.engine.gamelog), never the catch-all ``other``."""
    unknown = [e for e in public_events(g.log) if e["type"] == "other"]
    for seat in range(6):
        unknown += [e for e in private_events(g._private, seat) if e["type"] == "other"]
    assert not unknown, unknown[:3]


def check_revolutionary_place(g: Game, res: dict[str, Any]) -> None:
    """R15.4 / AMB-75: the revolutionary holds 三科 exactly when its two teammates hold 头科 and
    二科 (the other team is then 串三户), else 四科."""
    r = g.revolutionary
    if r is None:
        return
    top = {g.places[(r + 2) % 6], g.places[(r + 4) % 6]} == {1, 2}
    assert g.places[r] == (3 if top else 4), g.places
    if top:
        assert res["chuan"] == r % 2


def check_early_end_opened(g: Game) -> None:
    """R11.5 / AMB-76, refereed from the log: the seats still holding cards at the end (placed
    by R9.9) count as opened exactly when their R11.4 deadline was still open; a deadline
    closes only by the final play of a 头科 or 二科, never by a forced place."""
    if not g.rules.dian_enabled:
        return
    forced = {s for s, t in g.log if t.split()[0] in ("men", "broken_burn")}
    stuck = {s for s, t in g.log if t == "four_unlocked"}  # R13.5 (d): can no longer open
    went_out = {
        g.places[s]: s
        for s in range(6)
        if s != g.revolutionary and s not in forced and not sum(g.hands[s])
    }
    deadline = g.rules.dian_deadline
    lenient = g.rules.bie3_enabled and g.rules.bie3_men == "lenient"
    for s in range(6):
        hand = g.hands[s]
        if not sum(hand) or s in stuck or (lenient and hand[0] == sum(hand)):
            continue
        if deadline == "touke":
            closed = 1 in went_out
        else:
            closed = 2 in went_out or (
                deadline == "outline" and 1 in went_out and (went_out[1] + 3) % 6 == s
            )
        if not closed:
            assert g.opened[s], (s, g.places, g.log[-12:])
        else:
            assert (s, "opened_at_end") not in g.log, s


def _cases() -> list[tuple[str, tuple[int, ...]]]:
    """Each preset's seeds (the main presets' in ``CHUNKS`` parts), and the rare ones."""
    out: list[tuple[str, tuple[int, ...]]] = []
    for preset in PRESETS + OTHER_PRESETS:
        games = GAMES_PER_PRESET if preset in PRESETS else OTHER_GAMES
        parts = CHUNKS if preset in PRESETS else 1
        seeds = sorted({*range(games), *(s for p, s in RARE if p == preset)})
        out += [(preset, tuple(seeds[c::parts])) for c in range(parts)]
    return out


@pytest.mark.parametrize(
    ("preset", "seeds"),
    [pytest.param(p, seeds, id=f"{p}-{seeds[0]}") for p, seeds in _cases()],
)
def test_random_playouts(preset: str, seeds: tuple[int, ...]) -> None:
    for seed in seeds:
        g = play_checked(preset, seed)
        if seed % 10 == 0:
            rec = json.loads(json.dumps(g.record()))
            again = Game.from_record(rec)
            assert fingerprint(again) == fingerprint(g)
            assert again.log == g.log and again.result() == g.result()
        reached = RARE.get((preset, seed))
        assert reached is None or reached(g), (
            f"{preset} seed {seed} no longer reaches what RARE keeps it for: choose another "
            "seed whose game does (the deep run plays them all)"
        )


def test_view_detects_visible_differences() -> None:
    """The view test above could fail: a seat's own cards do show in its view."""
    g = Game.new(make_rules("OUTLINE_FULL"), 5)
    rng = random.Random(1)
    while g.pending != "lead" or g.round_no < 3:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    seat = g.to_act
    assert seat is not None
    other = (seat + 1) % 6
    changed = hide_and_shuffle(g, seat, rng)
    if changed.hands[other] != g.hands[other]:
        assert changed.view(other) != g.view(other)
    assert changed.view(seat) == g.view(seat)


def test_midgame_record_and_clone() -> None:
    """A record made mid-game replays to the same state; a clone is independent."""
    g = Game.new(make_rules("OUTLINE_CLASSIC"), 11)
    rng = random.Random(2)
    for _ in range(120):
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    again = Game.from_record(g.record())
    assert fingerprint(again) == fingerprint(g)
    c = g.clone()
    before = fingerprint(g)
    while not c.is_over:
        legal = c.legal_actions()
        c.apply(legal[rng.randrange(len(legal))])
    assert fingerprint(g) == before
    assert fingerprint(Game.from_record(c.record())) == fingerprint(c)
