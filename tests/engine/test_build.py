"""The two builds (issue 24): the compiled engine and bots, and the same sources as Python.

``make test`` runs the suite against the build the install made (compiled where a C compiler
is present); these tests check that the build is the one expected, that the switch between
builds works, and that both play exactly the same games.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import gouji.build
from gouji import Game, make_rules

ROOT = Path(__file__).resolve().parents[2]
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "GOUJI_PURE"}


def run_python(code: str, *, pure: bool) -> str:
    """``code``'s output in a fresh interpreter, pure or as installed."""
    env = {**CHILD_ENV, "GOUJI_PURE": "1"} if pure else CHILD_ENV
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_compiled_list_is_the_build_hooks() -> None:
    """gouji.build turns aside exactly what hatch_build.py compiles."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["include"]
    names = {p.removeprefix("/src/").removesuffix(".py").replace("/", ".") for p in include}
    assert names == set(gouji.build.COMPILED_MODULES)
    assert "gouji.build" not in names and "gouji" not in names  # they choose the build


def test_the_build_that_runs_is_the_one_expected() -> None:
    """``make test`` names the build its install made (GOUJI_EXPECT_BUILD); what runs must
    be it — a compiler on the machine and a pure run would be a build that silently failed."""
    running = gouji.build.running()
    expected = os.environ.get("GOUJI_EXPECT_BUILD")
    if os.environ.get("GOUJI_PURE", "") not in ("", "0"):
        assert running == {"build": "pure", "why": "GOUJI_PURE is set"}
    elif expected:
        assert running["build"] == expected, running["why"]
    mod = sys.modules["gouji.engine.referee.game"]
    assert (running["build"] == "compiled") == (not str(mod.__file__).endswith(".py"))


def test_gouji_pure_turns_every_compiled_module_aside() -> None:
    code = (
        "import sys, gouji.build, gouji.agents.search, gouji.engine.match;"
        "print(gouji.build.running()['build']);"
        "print(all(sys.modules[m].__file__.endswith('.py')"
        " for m in gouji.build.COMPILED_MODULES if m in sys.modules))"
    )
    assert run_python(code, pure=True).split() == ["pure", "True"]


def test_bench_json_says_which_build_ran() -> None:
    """``gouji bench --json`` names the build, so a figure says what it measured."""
    installed = run_python("import gouji.build; print(gouji.build.running()['build'])", pure=False)
    for pure in (True, False):
        out = run_python(
            "from gouji.cli import main; main(['bench', '--games', '2', '--json'])", pure=pure
        )
        figures = json.loads(out.strip().splitlines()[-1])
        assert figures["build"] == ("pure" if pure else installed.strip())
        assert figures["build_why"]


PLAY_BOTH = """
import json, random
from gouji import Game, make_rules
from gouji.tools.arena import AgentSpec, play_game
out = []
presets = ("OUTLINE_FULL", "OUTLINE_CLASSIC", "LAIWU", "AUDIT", "LIANG4", "MATCH7", "COMP2")
for seed, preset in enumerate(presets):
    g = Game.new(make_rules(preset), seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    out.append(json.dumps([g.record(), g.result(), g.view(seed % 6)], sort_keys=True))
specs = (AgentSpec("heuristic"), AgentSpec("search", (("steps", 150), ("budget_ms", 6e4))))
o = play_game(make_rules("OUTLINE_FULL"), specs, 5, 1)
out.append(json.dumps([o.points, o.decisions, o.deal_key]))
print(json.dumps(out))
"""


@pytest.mark.skipif(
    os.environ.get("GOUJI_PURE", "") in ("", "0"),
    reason="compares both builds: runs in `make test-pure` (CI), not twice",
)
def test_both_builds_play_the_same_games() -> None:
    """Random games of every preset (record, result, a seat's view) and a bot game (the
    heuristic against a search bounded by its steps) are the same, byte for byte."""
    pure = run_python(PLAY_BOTH, pure=True)
    installed = run_python(PLAY_BOTH, pure=False)
    assert json.loads(pure) == json.loads(installed)
    assert len(json.loads(pure)) == 8


def test_clone_copies_every_field() -> None:
    """Game.clone lists its fields (a compiled Game has no __dict__): every attribute a game
    has is in the lists, so a field added later cannot be left out of clones."""
    from gouji.engine.referee import game as engine

    g = Game.new(make_rules("LAIWU"), 4)
    attrs = set(vars(g)) if hasattr(g, "__dict__") else set(type(g).__mypyc_attrs__)  # type: ignore[attr-defined]
    attrs.discard("__dict__")
    listed = set(engine._SHARED_FIELDS) | set(engine._LIST_FIELDS)
    assert attrs == listed
    c = g.clone()
    for name in engine._LIST_FIELDS:
        assert getattr(c, name) == getattr(g, name)
        assert getattr(c, name) is not getattr(g, name)


def test_a_stale_compiled_build_is_not_used(tmp_path: Path) -> None:
    """In a checkout, compiled modules older than their sources (an edit since the last
    install) are turned aside with a warning rather than run stale."""
    if gouji.build.running()["build"] != "compiled":
        pytest.skip("needs the compiled build")
    tree = tmp_path / "checkout"
    (tree / "src").mkdir(parents=True)
    (tree / "pyproject.toml").write_text("")
    src = Path(gouji.build.PACKAGE)
    subprocess.run(["cp", "-a", str(src), str(tree / "src" / "gouji")], check=True)
    for lib in src.parent.glob("*__mypyc*"):
        subprocess.run(["cp", "-a", str(lib), str(tree / "src")], check=True)
    code = "import gouji.build; print(gouji.build.running()['build'])"
    env = {**CHILD_ENV, "PYTHONPATH": str(tree / "src")}
    fresh = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert fresh.stdout.split() == ["compiled"], fresh.stderr
    os.utime(tree / "src" / "gouji" / "engine" / "referee" / "game.py")  # edited after the build
    stale = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert stale.stdout.split() == ["pure"]
    assert re.search(r"older than the source of gouji\.engine\.referee\.game", stale.stderr)


def test_games_and_matches_deep_copy_and_pickle_whole() -> None:
    """A compiled class cannot be rebuilt without its __init__: Game and Match carry their
    fields (the server deep-copies a match before a sanction; pools pickle games)."""
    import copy
    import pickle
    import random

    from gouji import Match
    from gouji.engine import match as series

    m = Match(make_rules("MATCH7"), 6)
    attrs = set(vars(m)) if hasattr(m, "__dict__") else set(type(m).__mypyc_attrs__)  # type: ignore[attr-defined]
    attrs.discard("__dict__")
    assert attrs == set(series.MATCH_FIELDS)
    rng = random.Random(6)
    for _ in range(150):
        m.apply(rng.choice(m.legal_actions()))
    for again in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert again.record() == m.record()
        assert again.game is again.games[-1] and again.game is not m.game
        action = m.legal_actions()[0]
        again.apply(action)
        assert len(again.game.actions) == len(m.game.actions) + 1  # independent
    g = Game.new(make_rules("LAIWU"), 2)
    for again_g in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert again_g.record() == g.record() and again_g.hands == g.hands
        assert again_g.hands is not g.hands
