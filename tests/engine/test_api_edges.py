"""The engine's public edges refuse wrong kinds of argument with the project's own errors.

A compiled function would refuse them with a bare ``TypeError`` from its annotations (issue
24); these run against whichever build is loaded (``make test`` the compiled one, ``make
test-pure`` the sources), so both builds give the same errors with the same words.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from gouji import (
    Action,
    ConfigError,
    Game,
    IllegalAction,
    Match,
    MatchError,
    Play,
    RecordError,
    SanctionError,
    make_rules,
)
from gouji.engine.cards import CardError, CompositionError
from gouji.engine.referee.record import replay

OF = make_rules("OUTLINE_FULL")


def game() -> Game:
    return Game.new(OF, 3)


def state(g: Game) -> str:
    return json.dumps({"record": g.record(), "view": g.view(None)}, sort_keys=True)


# (what is called, the error, words its message must hold)
Case = tuple[Callable[[], object], type[Exception], str]

SETUP: dict[str, Case] = {
    "preset not text": (lambda: make_rules(5), ConfigError, "unknown preset 5"),
    "overrides a list": (lambda: make_rules("LAIWU", [1]), ConfigError, "overrides map"),
    "override key not text": (lambda: make_rules("LAIWU", {1: 2}), ConfigError, "unknown"),
    "rules a preset name": (lambda: Game.new("OUTLINE_FULL", 1), ConfigError, "make_rules"),
    "seed text": (lambda: Game.new(OF, "7"), ConfigError, "seed must be a whole number"),
    "seed float": (lambda: Game.new(OF, 1.5), ConfigError, "seed must be a whole number"),
    "opener text": (lambda: Game.new(OF, 1, opener="1"), ConfigError, "opener must be a seat"),
    "opener 6": (lambda: Game.new(OF, 1, opener=6), ConfigError, "0…5 or None, not 6"),
    "first taker float": (lambda: Game.new(OF, 1, first_taker=1.0), ConfigError, "first taker"),
    "first_game text": (lambda: Game.new(OF, 1, first_game="no"), ConfigError, "True or False"),
    "hui5 team 2": (lambda: Game.new(OF, 1, hui5_team=2), ConfigError, "team 0 or 1"),
    "tribute text": (lambda: Game.new(OF, 1, tribute="x"), ConfigError, "list of payments"),
    "hands a number": (lambda: Game.from_hands(OF, 5), ConfigError, "six hands"),
    "starter text": (
        lambda: Game.from_hands(OF, ["3"] * 6, "1"),
        ConfigError,
        "starter must be a seat",
    ),
    "hand of floats": (
        lambda: Game.from_hands(OF, [[1.0] * 15] + ["3"] * 5),
        ConfigError,
        "hand of P0",
    ),
    "places keys text": (
        lambda: Game.from_hands(OF, ["3"] * 6, places={"0": 1}),
        ConfigError,
        "placed seat",
    ),
    "match seed text": (lambda: Match(OF, "7"), MatchError, "seed must be a whole number"),
    "match games text": (lambda: Match(OF, 1, games="3"), MatchError, "number of games"),
    "match rules text": (lambda: Match("OUTLINE_FULL", 1), MatchError, "make_rules"),
    "record a number": (lambda: replay(5), RecordError, "JSON object"),
    "record a list": (lambda: Game.from_record([]), RecordError, "JSON object"),
    "action a number": (lambda: Action.parse(5), IllegalAction, "an action is text"),
    "cards a number": (lambda: Play.parse(5), CardError, "card text must be text"),
    "play rank text": (lambda: Play.of("3", 1), CompositionError, "whole number"),
    "beats a string": (lambda: Play.parse("7").beats("6"), CompositionError, "another play"),
    "is_gouji a name": (lambda: Play.parse("2").is_gouji("LAIWU"), CompositionError, "R6.1"),
}


@pytest.mark.parametrize("name", sorted(SETUP))
def test_setup_refuses_wrong_kinds(name: str) -> None:
    call, error, words = SETUP[name]
    with pytest.raises(error, match=words):
        call()


GAME_CALLS: dict[str, tuple[Callable[[Any], object], type[Exception], str]] = {
    "apply a number": (lambda g: g.apply(5), IllegalAction, "text or an Action, not int"),
    "apply None": (lambda g: g.apply(None), IllegalAction, "not NoneType"),
    "apply a seat as text": (
        lambda g: g.apply(g.legal_actions()[0], seat="0"),
        IllegalAction,
        "acting seat",
    ),
    "view text": (lambda g: g.view("1"), ValueError, "seat 0…5 or None, not '1'"),
    "view float": (lambda g: g.view(1.0), ValueError, "not 1.0"),
    "view 9": (lambda g: g.view(9), ValueError, "not 9"),
    "hand text": (lambda g: g.hand("1"), ValueError, "a hand's seat"),
    "sanction seat text": (lambda g: g.sanction("warning", "1"), SanctionError, "0…5"),
    "sanction points float": (
        lambda g: g.sanction("penalty", 0, points=1.5),
        SanctionError,
        "whole number",
    ),
    "sanction kind number": (lambda g: g.sanction(5, 0), SanctionError, "unknown sanction"),
    "sanction article number": (
        lambda g: g.sanction("warning", 0, article=5),
        SanctionError,
        "article",
    ),
}


@pytest.mark.parametrize("name", sorted(GAME_CALLS))
def test_game_calls_refuse_wrong_kinds_and_change_nothing(name: str) -> None:
    call, error, words = GAME_CALLS[name]
    g = game()
    before = state(g)
    with pytest.raises(error, match=words):
        call(g)
    assert state(g) == before


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda m: m.apply(5), IllegalAction, "text or an Action"),
        (lambda m: m.view("x"), ValueError, "seat 0…5 or None"),
        (lambda m: m.sanction("warning", "1"), SanctionError, "0…5"),
        (lambda m: m.sanction("penalty", 0, points="2"), SanctionError, "whole number"),
    ],
)
def test_match_calls_refuse_wrong_kinds(
    call: Callable[[Any], object], error: type[Exception], words: str
) -> None:
    m = Match(OF, 4)
    before = json.dumps(m.record(), sort_keys=True)
    with pytest.raises(error, match=words):
        call(m)
    assert json.dumps(m.record(), sort_keys=True) == before


def test_next_game_refuses_a_wrong_count_between_games() -> None:
    m = Match(OF, 4)
    rng = random.Random(4)
    while not m.game.is_over:
        m.apply(rng.choice(m.legal_actions()))
    while m.to_act is not None:  # the swap prompt, if any
        m.apply(m.legal_actions()[-1])
    for bad, words in (("1", "whole number"), (7, "between 0 and 6"), (True, "whole number")):
        with pytest.raises(MatchError, match=words):
            m.next_game(bad)
    assert len(m.games) == 1
    m.next_game(0)
    assert len(m.games) == 2


def test_rule_sets_deals_and_levels_survive_pickling() -> None:
    """Process pools and Ray send these by pickle: a compiled frozen dataclass too."""
    from gouji.agents.levels import BY_KEY
    from gouji.engine.deal import deal
    from gouji.engine.tribute import Payment

    rules = make_rules("LAIWU", {"bie3.enabled": False})
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and again.spec() == rules.spec()
    d = deal(random.Random(1), 0, {})
    assert pickle.loads(pickle.dumps(d)) == d
    assert pickle.loads(pickle.dumps(BY_KEY["master"])) == BY_KEY["master"]
    p = Payment(kind="shao", payer=1, receiver=0, cards=2)
    assert pickle.loads(pickle.dumps(p)) == p
    g = Game.new(OF, 9)
    assert pickle.loads(pickle.dumps(g.legal_actions())) == g.legal_actions()  # interned


def test_plays_and_actions_are_made_by_their_factories_only() -> None:
    """Every play and action is interned (compared by identity): the constructor is closed."""
    with pytest.raises(TypeError, match=r"Play\.of"):
        Play(object(), 5, 1, 0, 0, 0, 0)
    with pytest.raises(TypeError, match=r"Action\.of_play"):
        Action(object(), "pass", "pass")
    assert Play.parse("7 7") is Play.of(4, 2)
    assert Action.parse("pass") is Action.word("pass")


def test_every_refusal_path_keeps_its_own_error() -> None:
    """Each ``except`` clause of the parsers and replays (compiled code once held a
    CardError in a variable typed for a CompositionError and failed with TypeError)."""
    with pytest.raises(IllegalAction, match="malformed action 'burn mingdian'"):
        Action.parse("burn mingdian")  # not a card: CardError inside
    with pytest.raises(IllegalAction, match=r"R4\.2"):
        Action.parse("play 7 8")  # two base ranks: CompositionError inside
    rec = Game.new(OF, 5).record()
    for bad, words in (
        ({**rec, "rules": {"preset": "NOPE"}}, "record rules"),
        ({**rec, "start": {"seed": "x"}}, "record start"),
        ({**rec, "actions": ["play LJ LJ LJ LJ LJ"]}, "cannot be replayed"),
        ({k: v for k, v in rec.items() if k != "actions"}, "missing a field"),
    ):
        with pytest.raises(RecordError, match=words):
            replay(bad)
    m = Match(OF, 2).record()
    with pytest.raises(MatchError, match="match record"):
        Match.from_record({**m, "games": [{"actions": ["nonsense"], "prompts": []}]})
