"""复盘 (gouji.review.analysis): built positions where one choice is clearly worse must be flagged,
positions with equal choices must not, and noise alone flags (almost) nothing.

Positions are built on a small deck (``deck.remove`` leaves exactly the cards in the hands),
so the seat's own information already says which cards the others hold between them — but
never who holds which: the analysis still samples the hidden hands."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gouji import Game, make_rules
from gouji.agents import get
from gouji.cli import main
from gouji.engine.actions import TIAO
from gouji.engine.cards import RANKS, deck_counts, parse_counts
from gouji.review.analysis import (
    CLASSES,
    MIN_SAMPLES,
    THRESHOLDS,
    AnalysisError,
    Task,
    _verdict,
    analyse,
    classify,
    compare,
    judge,
    plan,
    team_value,
    unit_of,
)

STEPS = 12000


def tiny(
    hands: Sequence[str],
    starter: int,
    preset: str = "OUTLINE_FULL",
    places: dict[int, int] | None = None,
) -> Game:
    """A game from ``hands`` on a deck of exactly those cards."""
    full = deck_counts({})
    held = [sum(parse_counts(h)[r] for h in hands) for r in range(len(full))]
    remove = {RANKS[r]: full[r] - held[r] for r in range(len(full)) if full[r] > held[r]}
    rules = make_rules(preset, {"deck.remove": remove})
    return Game.from_hands(rules, list(hands), starter, places=places or {})


def finished(g: Game, script: Sequence[str]) -> dict[str, Any]:
    """The record of ``g`` after ``script``, played to its end by heuristic bots."""
    for text in script:
        g.apply(text)
    bot = get("heuristic", seed=0)
    while not g.is_over:
        seat, legal = g.to_act, g.legal_actions()
        assert seat is not None
        g.apply(legal[0] if len(legal) == 1 else bot.act(g.view(seat), legal))
    return g.record()


def verdict(g: Game, script: Sequence[str], seat: int = 0, steps: int = STEPS) -> dict[str, Any]:
    """The judgement of ``seat``'s decision that ends ``script`` (its last action)."""
    index = len(g.actions) + len(script) - 1
    p = plan(finished(g, script), [seat])
    task = next(t for t in p.tasks if t.index == index)
    assert task.taken.text == script[-1]
    return judge(task, steps)


# The joker position: P0 leads with 憋3 on; the others hold three of the four big jokers and
# P0's teammates hold almost nothing. Alone, the small joker is beaten at once and P0's 9 9
# and 3 are stranded; with the pair it leads 9 9 SJ, which only the big jokers can answer.
JOKER = ["SJ 9 9 3", "LJ 8 8 7 3", "4 3", "LJ 10 10 6 3", "5 3", "LJ J J 7 3"]


def test_leading_a_joker_into_a_lost_round_is_flagged() -> None:
    v = verdict(tiny(JOKER, 0), ["play SJ"])
    assert v["class"] == "blunder" and v["best"] == "play 9 9 SJ"
    assert v["loss_low"] >= THRESHOLDS[2] * 2  # beyond the noise, in outline points


def test_breaking_bie3_too_early_is_flagged() -> None:
    """憋3 (R12): P0 holds SJ 9 3 and answers P5's 8. The 9 keeps the small joker to win the
    lead it needs for its 3; the joker now wins the round but leaves it leading the 9, which
    the others beat, and then holding only its 3: 闷."""
    hands = ["SJ 9 3", "10 4 3", "Q 5 3", "J 6 3", "K 6 3", "8 7 3"]
    v = verdict(tiny(hands, 5), ["play 8", "play SJ"])
    assert v["class"] == "blunder" and v["best"] == "play 9"


def test_passing_a_certain_kaidian_is_flagged() -> None:
    """打点 (R11) under LIANG4: P2 is 头科, so P0 must open before 二科's final play. P5
    leads Q Q and P0 answers first: its A A wins the round (nothing left beats it) and opens;
    a pass lets P1 go out with K K as 二科, which closes P0's deadline: 不开点."""
    hands = ["A A 5", "K K", "", "8 8 7", "9 4", "Q Q 6"]
    v = verdict(tiny(hands, 5, preset="LIANG4", places={2: 1}), ["play Q Q", "pass"])
    assert v["class"] == "blunder" and v["best"] == "play A A"


def test_burning_a_teammates_winning_play_is_flagged() -> None:
    """P2's K K wins the round and its 3 then goes out as 头科; P0 is offered the burn (R8.3,
    teammates first) and takes it, which beats its own teammate for nothing (R8.7)."""
    hands = ["LJ LJ SJ 3", "Q Q 7 3", "K K 3", "J J 6 3", "9 9 3", "10 10 4 3"]
    v = verdict(tiny(hands, 2), ["play K K", "burn LJ LJ"])
    assert v["class"] == "blunder" and v["best"] == "noburn"


@pytest.mark.parametrize("lead", ["play 9", "play T"])
def test_equal_choices_are_not_flagged(lead: str) -> None:
    """P0 leads, and nothing left beats its 9 or its 10: either wins the round, then the
    other, then the 3 goes out — the same game whichever comes first."""
    hands = ["T 9 3", "6 4 3", "5 5 3", "7 4 3", "6 5 3", "8 7 3"]
    v = verdict(tiny(hands, 0), [lead])
    assert v["class"] == "good" and v["loss"] == v["loss_low"] == 0
    assert [c["gain"] for c in v["candidates"]] == [0, 0]  # the same on every sample


def test_noise_alone_flags_almost_nothing() -> None:
    """Six candidates of the same worth (independent noise of the spread of real play-outs,
    6 points): the loss beyond ``Z`` standard errors flags at most 2% of decisions."""
    rng = random.Random(5)

    def draw(live: list[int]) -> tuple[list[float], int]:
        return [rng.gauss(0.0, 6.0) for _ in live], 60 * len(live)

    trials = 300
    flagged = 0
    for _ in range(trials):
        outcomes, n, _spent = compare(draw, 6, 0, 2.0, 20000)
        assert n >= MIN_SAMPLES
        task = _task_stub()
        v = _verdict(task, [_action(i) for i in range(6)], outcomes, 0, n, 0)
        flagged += v["class"] != "good"
    assert flagged <= 0.02 * trials


def _action(i: int) -> Any:
    from gouji.engine.actions import Action

    return Action.parse(f"play {RANKS[i + 1]}")


def _task_stub() -> Task:
    g = tiny(JOKER, 0)
    legal = tuple(g.legal_actions())
    return Task(0, 0, g.view(0), legal, _action(0), 2.0)


def test_classes_count_the_loss_beyond_noise_in_the_presets_unit() -> None:
    assert unit_of("outline") == 2 and unit_of("comp2") == 1 and unit_of("match7") == 2
    assert [classify(x, 2.0) for x in (0.0, 0.49, 0.5, 1.0, 1.99, 2.0)] == [
        "good",
        "good",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
    ]
    assert CLASSES[0] == "good"


def test_the_hidden_hands_do_not_change_the_judgement() -> None:
    """P1's and P5's hands swapped (the same sizes): P0's view is the same, and so is the
    analysis of its lead."""
    swapped = [JOKER[0], JOKER[5], *JOKER[2:5], JOKER[1]]
    a = verdict(tiny(JOKER, 0), ["play 9 9"], steps=3000)
    b = verdict(tiny(swapped, 0), ["play 9 9"], steps=3000)
    assert a == b


def test_not_opening_counts_against_the_team_where_points_do_not() -> None:
    g = tiny(["A A 5", "K K", "", "8 8 7", "9 4", "Q Q 6"], 5, preset="LIANG4", places={2: 1})
    record = finished(g, ["play Q Q", "pass"])
    end = Game.from_record(record)
    res = end.result()
    raw = res["team_points"]
    not_opened = [s for s in range(6) if not res["opened"][s]]
    assert 0 in not_opened  # P0 passed its 开点
    expected = raw[0] - raw[1] - sum(1 if s % 2 == 0 else -1 for s in not_opened)
    assert team_value(end, 0) == expected == -team_value(end, 1)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A whole game of 普通 bots on a deck without the 5s to 10s (short, for speed)."""
    g = Game.new(make_rules("LIANG4", {"deck.remove": {r: 16 for r in "56789T"}}), 701)
    bots = [get("intermediate", seed=701 + s) for s in range(6)]
    while not g.is_over:
        seat, legal = g.to_act, g.legal_actions()
        assert seat is not None
        g.apply(legal[0] if len(legal) == 1 else bots[seat].act(g.view(seat), legal))
    return g.record()


def test_the_same_record_seed_and_steps_give_the_same_analysis(record: dict[str, Any]) -> None:
    one = analyse(record, [0, 3], steps=400, jobs=1)
    two = analyse(record, [0, 3], steps=400, jobs=2)
    assert one == two
    assert one["seed"] == 1 and one["steps"] == 400  # the defaults fix the seed
    other = analyse(record, [0, 3], steps=400, seed=2)
    values = [[c["value"] for c in d["candidates"]] for d in one["decisions"]]
    assert values != [[c["value"] for c in d["candidates"]] for d in other["decisions"]]


def test_the_analysis_lists_every_decision_and_sums_them_up(record: dict[str, Any]) -> None:
    seats = list(range(6))
    p = plan(record, seats)
    result = analyse(record, steps=200)
    assert [d["index"] for d in result["decisions"]] == [t.index for t in p.tasks]
    assert p.skipped["forced"] > 0
    for d in result["decisions"]:
        assert d["class"] in CLASSES and d["action"] in [c["action"] for c in d["candidates"]]
        taken = next(c for c in d["candidates"] if c["action"] == d["action"])
        assert taken["gain"] == 0 and d["loss"] >= d["loss_low"] >= 0
        assert len(d["candidates"]) >= 2 and d["samples"] >= MIN_SAMPLES
    for s in result["summary"]:
        mine = [d for d in result["decisions"] if d["seat"] == s["seat"]]
        assert s["decisions"] == len(mine) == sum(s["classes"].values())
        assert s["average_loss"] == pytest.approx(
            sum(d["loss"] for d in mine) / len(mine), abs=1e-3
        )
        marked = sorted((d for d in mine if d["class"] != "good"), key=lambda d: -d["loss_low"])
        assert s["costliest"] == [d["index"] for d in marked[:3]]


def test_records_that_cannot_be_analysed_are_refused(record: dict[str, Any]) -> None:
    with pytest.raises(AnalysisError, match="finished"):
        plan({**record, "actions": record["actions"][:40]})
    with pytest.raises(AnalysisError, match="cannot be replayed"):
        plan({**record, "actions": ["play LJ", *record["actions"]]})
    with pytest.raises(AnalysisError, match="seats"):
        plan(record, [6])
    with pytest.raises(AnalysisError, match="steps"):
        analyse(record, steps=0)


def test_the_command_prints_json_and_refuses_clearly(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path), "--seat", "2", "--steps", "200", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seats"] == [2] and {d["seat"] for d in out["decisions"]} == {2}
    d = out["decisions"][0]
    assert {"index", "seat", "action", "candidates", "class", "best", "loss"} <= set(d)
    assert {"action", "value", "value_ci", "gain", "gain_ci", "samples"} <= set(d["candidates"][0])
    assert main(["analyse", str(path), "--seat", "2", "--steps", "200"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("复盘:") and "P2:" in text
    path.write_text(json.dumps({**record, "actions": record["actions"][:10]}))
    assert main(["analyse", str(path)]) == 2
    assert "finished" in capsys.readouterr().err


def test_a_tiaopai_claim_is_never_a_candidate_nor_a_crash() -> None:
    """挑牌 (R10.2, OUTLINE_CLASSIC): the play-outs never claim, so where the only other
    choice was a claim the decision is forced, and a claim made is left unjudged."""
    rules = make_rules("OUTLINE_CLASSIC", {"deck.remove": {r: 16 for r in "345678"}})
    g = Game.new(rules, 0)
    bot = get("heuristic", seed=0)
    offered = claimed = 0
    while not g.is_over:
        seat, legal = g.to_act, g.legal_actions()
        assert seat is not None
        tiao = [a for a in legal if a.kind == TIAO]
        offered += bool(tiao)
        if tiao and offered == 3:  # the third time a claim is offered, it is made
            g.apply(tiao[0])
            claimed += 1
            continue
        g.apply(legal[0] if len(legal) == 1 else bot.act(g.view(seat), legal))
    assert claimed
    result = analyse(g.record(), steps=200)
    assert result["skipped"]["forced"] > 0 and result["skipped"]["claim"] == 1
    for d in result["decisions"]:
        assert all(c["action"] != "tiao" for c in d["candidates"])
