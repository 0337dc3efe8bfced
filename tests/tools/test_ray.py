"""Bots at scale on Ray (issue 12): ``--ray`` gives what ``--jobs`` gives for the same seed.

The cluster is a throwaway head on 127.0.0.1 (``gouji.tools.cluster.loopback_head``), started once
for the whole test run, whichever xdist workers the tests that use it land on (a head takes
about 10 s to start, mostly waiting for Ray's own processes): a small process holds it
(``HOLDER``) and tests/runservices.py stops that at the end of the run. The tests that need
no cluster stand a fake ``ray`` module in, so they run (and stay fast) with or without Ray
installed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

import runservices
from gouji import cli
from gouji.tools import arena
from gouji.tools.cluster import RAY_MISSING, ClusterError, Pool

pytestmark = pytest.mark.timeout(120)  # a cluster that never answers fails, never hangs

HAS_RAY = importlib.util.find_spec("ray") is not None  # found, not imported: see loopback_head
#: What differs between two runs of the same deals: the clock and where they ran.
RUN_KEYS = ("seconds", "decisions_per_s", "ms_per_decision", "jobs", "ray")


#: The process that holds the run's head: it leaves its starter's session, starts the head,
#: prints its address and Ray settings (the auth token: the drivers need them) as one JSON
#: line, and stops the head when terminated (SIGTERM: loopback_head's own clean-up).
HOLDER = """
import json, os, signal, sys
from gouji.tools.cluster import loopback_head
if os.fork():
    os._exit(0)
os.setsid()
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
with loopback_head(num_cpus=2) as address:
    env = {k: v for k, v in os.environ.items() if k.startswith("RAY_")}
    print(json.dumps({"pid": os.getpid(), "address": address, "env": env}), flush=True)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    while True:
        signal.pause()
"""


def _start_head() -> runservices.Service:
    holder = subprocess.run(
        [sys.executable, "-c", HOLDER], capture_output=True, text=True, timeout=90
    )
    if not holder.stdout:
        raise ClusterError(f"the Ray head did not start:\n{holder.stderr[-3000:]}")
    head = json.loads(holder.stdout)
    return {
        "pid": head["pid"],
        "stop": ["kill", "-TERM", str(head["pid"])],
        "remove": [],
        "info": {"address": head["address"], "env": json.dumps(head["env"])},
    }


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The test run's two-CPU loopback Ray head (one for every xdist worker); a driver left
    connected by a test that failed half-way is shut down with the module."""
    if not HAS_RAY:
        pytest.skip("ray is not installed: pip install 'gouji[cluster]'")
    head = runservices.shared("ray", runservices.run_dir(tmp_path_factory), _start_head)
    settings: dict[str, str] = json.loads(head["info"]["env"])
    if "ray" in sys.modules and any(os.environ.get(k) != v for k, v in settings.items()):
        raise RuntimeError("ray was imported before the head's settings were set")
    os.environ.update(settings)  # as loopback_head does for the process that started it
    try:
        yield head["info"]["address"]
    finally:
        ray = sys.modules.get("ray")
        if ray is not None and ray.is_initialized():  # a test that failed half-way
            ray.shutdown()


def _figures(result: arena.ArenaResult) -> dict[str, object]:
    d = result.as_dict()
    for key in RUN_KEYS:
        d.pop(key)
    return d


def test_arena_on_ray_equals_jobs(ray_address: str) -> None:
    """A league of three (nine deal tasks, one a Ray task) comes out as with two processes."""
    agents = ["heuristic", "greedy", "random"]
    on_ray = arena.run("OUTLINE_CLASSIC", agents, 3, seed=11, ray=ray_address)
    local = arena.run("OUTLINE_CLASSIC", agents, 3, seed=11, jobs=2)
    assert _figures(on_ray) == _figures(local)
    assert on_ray.ray == ray_address and on_ray.jobs == 2  # the head's two CPUs
    assert local.ray is None and local.as_dict()["ray"] is None
    assert f"on Ray at {ray_address}, 2 CPUs" in "\n".join(arena.report(on_ray))


def test_tournament_on_ray_equals_jobs(
    ray_address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tournament", "--teams", "4", "--duplicate", "--bot", "heuristic", "--json"]
    args += ["--preset", "OUTLINE_CLASSIC", "--seed", "3"]
    assert cli.main([*args, "--ray", ray_address]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert cli.main([*args, "--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == on_ray
    assert on_ray["winner"] is not None and len(on_ray["rounds"]) == 2


@pytest.mark.parametrize("command", ["arena", "tournament"])
def test_cli_without_ray_says_what_to_install(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    args = ["--agents", "greedy,random", "--deals", "1"] if command == "arena" else []
    assert cli.main([command, *args, "--ray"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'gouji[cluster]'" in err and err.startswith(f"gouji {command}: ")


def test_jobs_and_ray_are_one_or_the_other(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["arena", "--agents", "greedy,random", "--jobs", "2", "--ray"]) == 2
    assert "--jobs or --ray" in capsys.readouterr().err
    with pytest.raises(ValueError, match="one or the other"):
        arena.run("OUTLINE_CLASSIC", ["greedy", "random"], 1, jobs=2, ray="127.0.0.1:1")


class FakeRay(SimpleNamespace):
    """Enough of ``ray`` to see what ``Pool`` asks of it, without a cluster."""

    def __init__(self) -> None:
        super().__init__(inits=[], shutdowns=0, up=False)

    def is_initialized(self) -> bool:
        return bool(self.up)

    def init(self, **kwargs: Any) -> None:
        self.inits.append(kwargs)
        self.up = True

    def shutdown(self) -> None:
        self.shutdowns += 1
        self.up = False

    def remote(self, fn: Any) -> Any:
        return fn

    def get_runtime_context(self) -> Any:
        return SimpleNamespace(gcs_address="10.0.0.1:6379")

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 96.0}


def test_ray_without_an_address_is_ray_init_s_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ray`` alone: ``ray.init()`` finds a running cluster (RAY_ADDRESS, a local ``ray
    start``) or starts one; with an address it connects there. A Ray the caller started is
    used and left running."""
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    parser = cli.build_parser()
    assert parser.parse_args(["arena", "--agents", "a,b", "--ray"]).ray is True
    assert parser.parse_args(["tournament", "--ray", "ray://head:10001"]).ray == "ray://head:10001"
    assert parser.parse_args(["tournament"]).ray is False
    with Pool(ray=True) as pool:
        assert (pool.workers, pool.ray_address) == (96, "10.0.0.1:6379")
    with Pool(ray="auto"):
        pass
    assert [i["address"] for i in fake.inits] == [None, "auto"] and fake.shutdowns == 2
    fake.up = True  # the caller's own ray.init()
    with Pool(ray=True):
        pass
    assert len(fake.inits) == 2 and fake.up


def test_nothing_at_the_address_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray would retry for minutes; a host:port where nothing listens is an error now."""
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(ClusterError, match=r"no Ray cluster at 127\.0\.0\.1:1\b"):
        Pool(ray="127.0.0.1:1")
    assert fake.inits == []
    assert "gouji[cluster]" in RAY_MISSING
