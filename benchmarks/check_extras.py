"""Every optional extra is whole: a fresh virtual environment per extra, gouji installed in it
with that extra only, then the commands the documents give for it, at small sizes.

A test cannot check this (tests install nothing, and the development environment has every
extra at once), so this script does, with network access to PyPI:

    .venv/bin/python benchmarks/check_extras.py         # none, arena, cluster, env, bench
    .venv/bin/python benchmarks/check_extras.py --extras cluster,env --keep

gouji is built once into a wheel (from the working tree, or ``--ref HEAD`` for the committed
tree) and installed as ``pip install 'gouji[EXTRA] @ file://…whl'``: what a user of the
published package gets, not an editable install that sees the checkout. ``none`` is the plain
install (``pip install gouji``: play, serve, the tournament), which must also say what to
install when the arena is asked for. Prints a table of extra / step / result / seconds and the
output of each failed step; exits 1 on any failure. Ray is a large download: ``cluster`` takes
minutes the first time (pip's cache makes reruns faster; ``--no-cache`` for a clean download).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The plain install, without an extra.
NONE = "none"


@dataclass(frozen=True)
class Check:
    """One documented command, run in the extra's environment from a scratch directory.

    ``{src}`` in ``argv`` is the source tree (for examples/ and benchmarks/, which the wheel
    does not hold). A check that must fail (``rc`` ≠ 0) must print ``expect`` and no
    traceback: a missing extra is named, not crashed on.
    """

    label: str
    argv: tuple[str, ...]
    rc: int = 0
    expect: str = ""


#: ``gouji serve`` for real: it starts, answers the lobby, a static file, a rules page and
#: /readyz from the installed package (the wheel must hold the web client), and stops cleanly
#: on Ctrl-C.
SERVE = """
import signal, socket, subprocess, sys, time, urllib.request
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
p = subprocess.Popen(["gouji", "serve", "--port", str(port), "--db", "sqlite:///check.db"])
paths = ["/readyz", "/", "/static/js/common.js", "/rules/OUTLINE_FULL"]
try:
    deadline = time.monotonic() + 60
    while paths:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{paths[0]}", timeout=5) as r:
                print(paths.pop(0), r.status, len(r.read()), "bytes")
        except OSError as e:
            if p.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"{paths[0]}: {e}")
            time.sleep(0.3)
finally:
    p.send_signal(signal.SIGINT)
    rc = p.wait(30)
sys.exit(f"gouji serve exited {rc} on SIGINT" if rc else 0)
"""

#: PettingZoo's own checks on the environment, as docs/env.md gives them (fewer cycles).
ENV_API = """
from pettingzoo.test import api_test, seed_test
from gouji.env import env
api_test(env(), num_cycles=50)
seed_test(env, num_cycles=50)
"""

ARENA = ("gouji", "arena", "--agents", "heuristic,random", "--deals", "2", "--seed", "1")
TOURNAMENT = ("gouji", "tournament", "--teams", "2", "--games", "1")

#: The documented commands of each extra (README, docs/env.md, docs/scaling.md,
#: docs/strength.md, docs/performance.md), smallest sizes that still run the code paths.
CHECKS: dict[str, tuple[Check, ...]] = {
    NONE: (
        Check(
            "gouji selfplay", ("gouji", "selfplay", "--preset", "OUTLINE_CLASSIC", "--seed", "3")
        ),
        Check("gouji rules", ("gouji", "rules", "--preset", "LAIWU")),
        Check("gouji bench", ("gouji", "bench", "--games", "5")),
        Check("gouji tournament", TOURNAMENT),
        Check("gouji serve --help", ("gouji", "serve", "--help")),
        Check("gouji serve: lobby, static, rules, Ctrl-C", ("python", "-c", SERVE)),
        Check(
            "gouji arena names its extra",
            ARENA,
            rc=2,
            expect="pip install 'gouji[arena]'",
        ),
    ),
    "arena": (
        Check("gouji arena", ARENA),
        Check("gouji arena --jobs 2", (*ARENA, "--jobs", "2")),
        Check(
            "gouji arena league --plot",
            (
                "gouji",
                "arena",
                "--agents",
                "heuristic,greedy,random",
                "--deals",
                "2",
                "--seed",
                "1",
                "--plot",
                "league.png",
            ),
            expect="plot written to league.png",
        ),
        Check(
            "gouji arena --ray names its extra",
            (*ARENA, "--ray"),
            rc=2,
            expect="pip install 'gouji[cluster]'",
        ),
    ),
    "cluster": (
        Check("gouji arena --ray", (*ARENA, "--ray")),
        Check("gouji tournament --ray", (*TOURNAMENT, "--ray")),
    ),
    "env": (
        Check("pettingzoo api_test, seed_test", ("python", "-c", ENV_API)),
        Check(
            "examples/random_agents.py",
            ("python", "{src}/examples/random_agents.py", "--games", "2", "--seed", "0"),
        ),
    ),
    "bench": (
        Check(
            "benchmarks/compare_rlcard.py",
            ("python", "{src}/benchmarks/compare_rlcard.py", "--games", "20", "--seconds", "1"),
        ),
    ),
}


@dataclass
class Row:
    """One line of the report: a step of one extra and how it went."""

    extra: str
    step: str
    ok: bool
    seconds: float
    output: str = ""


def run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int, str]:
    """Exit status and stdout+stderr together; a timeout counts as a failure (status -1)."""
    try:
        p = subprocess.run(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        out = e.output.decode(errors="replace") if isinstance(e.output, bytes) else e.output
        return -1, f"{out or ''}\n(timed out after {timeout:.0f} s)"
    return p.returncode, p.stdout


def build_wheel(work: Path, ref: str | None) -> Path:
    """gouji's wheel, built once for every environment (the same package in each)."""
    src = ROOT
    if ref is not None:  # the committed tree: others' uncommitted work stays out
        src = work / "src"
        src.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref], check=True, stdout=subprocess.PIPE
        )
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    dist = work / "dist"
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)]
    rc, out = run(cmd, work, dict(os.environ), 600)
    if rc != 0:
        sys.exit(f"building the wheel failed:\n{out}")
    (wheel,) = dist.glob("gouji-*.whl")
    return wheel


def clean_env(venv: Path) -> dict[str, str]:
    """The environment of a user who activated the venv: nothing of ours leaks in (no
    PYTHONPATH, no other venv, no RAY_ADDRESS pointing at someone's cluster)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "RAY_ADDRESS"}
    }
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def install(extra: str, venv: Path, wheel: Path, args: argparse.Namespace) -> tuple[int, str]:
    """A fresh venv with gouji and ``extra`` only, as a user makes it."""
    spec = f"gouji @ {wheel.as_uri()}" if extra == NONE else f"gouji[{extra}] @ {wheel.as_uri()}"
    env = clean_env(venv)
    steps: list[list[str]]
    if args.installer == "uv":
        uv = shutil.which("uv") or sys.exit("--installer uv: uv is not on PATH (pip install uv)")
        python = ["--python", str(venv / "bin" / "python")]
        steps = [
            [uv, "venv", "-q", "--python", args.python, str(venv)],
            [uv, "pip", "install", "-q", *python, *(["--no-cache"] if args.no_cache else []), spec],
        ]
    else:
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
        pip += ["--disable-pip-version-check", *(["--no-cache-dir"] if args.no_cache else [])]
        steps = [[args.python, "-m", "venv", str(venv)], [*pip, spec]]
    out = ""
    for cmd in steps:
        rc, text = run(cmd, venv.parent, env, args.install_timeout)
        out += text
        if rc != 0:
            return rc, out
    return 0, out


def check_extra(extra: str, wheel: Path, work: Path, args: argparse.Namespace) -> list[Row]:
    """Install ``extra`` in its own venv and run its checks; one row a step."""
    venv = work / f"venv-{extra}"
    scratch = work / f"run-{extra}"
    scratch.mkdir()
    spec = "gouji" if extra == NONE else f"gouji[{extra}]"
    print(f"[{extra}] installing {spec} …", file=sys.stderr, flush=True)
    start = time.perf_counter()
    rc, out = install(extra, venv, wheel, args)
    step = f"{'uv pip' if args.installer == 'uv' else 'pip'} install '{spec}'"
    rows = [Row(extra, step, rc == 0, time.perf_counter() - start, out)]
    if rc != 0:
        return rows
    env = clean_env(venv)
    for check in CHECKS.get(extra, ()):
        print(f"[{extra}] {check.label} …", file=sys.stderr, flush=True)
        argv = [a.replace("{src}", str(ROOT)) for a in check.argv]
        start = time.perf_counter()
        rc, out = run(argv, scratch, env, args.timeout)
        seconds = time.perf_counter() - start
        ok = rc == check.rc and check.expect in out
        if check.rc != 0:  # a clear message, not a crash
            ok = ok and "Traceback" not in out
        if not ok:
            want = f"exit {check.rc}" + (f" and {check.expect!r}" if check.expect else "")
            out = f"$ {' '.join(check.argv)[:200]}\nexit {rc}, expected {want}\n{out}"
        rows.append(Row(extra, check.label, ok, seconds, out))
    return rows


def report(rows: list[Row], totals: dict[str, float], verbose: bool = False) -> list[str]:
    """The table, each extra's wall time, then the tail of every failed step's output (of
    every step with ``verbose``)."""
    width = max(len(r.step) for r in rows)
    lines = [f"{'extra':<8} {'step':<{width}} {'result':<7} {'s':>6}"]
    for r in rows:
        lines.append(
            f"{r.extra:<8} {r.step:<{width}} {'ok' if r.ok else 'FAILED':<7} {r.seconds:6.1f}"
        )
    lines.append("")
    lines.extend(f"{extra}: {seconds:.0f} s in all" for extra, seconds in totals.items())
    for r in rows:
        if verbose or not r.ok:
            tail = "\n".join(r.output.strip().splitlines()[-40:])
            lines += ["", f"--- {r.extra}: {r.step} {'ok' if r.ok else 'FAILED'}", tail]
    return lines


def main() -> None:
    """Check the extras asked for (all with documented commands by default); exit 1 on any
    failure."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--extras",
        default=",".join(CHECKS),
        help=f"comma-separated, of {NONE} (the plain install), {', '.join(declared)} "
        "(an extra without commands here is only installed)",
    )
    parser.add_argument("--ref", help="build gouji from this git ref (e.g. HEAD), not the tree")
    parser.add_argument("--python", default=sys.executable, help="the venvs' interpreter")
    parser.add_argument("--installer", choices=("pip", "uv"), default="pip")
    parser.add_argument("--no-cache", action="store_true", help="download everything afresh")
    parser.add_argument("--keep", action="store_true", help="keep the venvs (path printed)")
    parser.add_argument("--verbose", action="store_true", help="every step's output")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a command")
    parser.add_argument("--install-timeout", type=float, default=1200, help="seconds an install")
    args = parser.parse_args()
    extras = [e.strip() for e in args.extras.split(",") if e.strip()]
    unknown = [e for e in extras if e != NONE and e not in declared]
    if unknown:
        parser.error(f"no such extra in pyproject.toml: {', '.join(unknown)}")

    work = Path(tempfile.mkdtemp(prefix="gouji-extras-"))
    rows: list[Row] = []
    totals: dict[str, float] = {}
    try:
        start = time.perf_counter()
        wheel = build_wheel(work, args.ref)
        rows.append(Row("-", f"build {wheel.name}", True, time.perf_counter() - start))
        for extra in extras:
            start = time.perf_counter()
            rows += check_extra(extra, wheel, work, args)
            totals[extra] = time.perf_counter() - start
    finally:
        if args.keep:
            print(f"kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(report(rows, totals, args.verbose)))
    sys.exit(0 if all(r.ok for r in rows) else 1)


if __name__ == "__main__":
    main()
