"""deploy/ agrees with the code: haproxy.cfg is what ``haproxy_config`` makes (and HAProxy
accepts it), the compose workers, the systemd unit and the image run command lines that
``gouji serve`` parses, the README's one-liners make what they say, and every file named
exists. Fast: no container, no database, no server."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gouji.cli import build_parser
from gouji.server.site.supervisor import Worker, haproxy_config

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NAMES = ("w1", "w2", "w3")
COMPOSE_WORKERS = [Worker(name, name, 8000) for name in NAMES]
ETC = "/etc/gouji/"  # the unit's settings; deploy/etc/gouji/ holds the ones to install


def haproxy_bin() -> str | None:
    found = shutil.which("haproxy")
    if found is None and Path("/usr/sbin/haproxy").is_file():
        found = "/usr/sbin/haproxy"
    return found


def haproxy_check(*configs: Path, unresolved_ok: bool = False) -> None:
    haproxy = haproxy_bin()
    if haproxy is None:
        pytest.skip("HAProxy is not installed (apt-get install haproxy): config not checked")
    cmd = [haproxy, "-c", "-q"] + (["-dr"] if unresolved_ok else [])
    for cfg in configs:
        cmd += ["-f", str(cfg)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def serve_args(argv: list[str]) -> Any:
    """``gouji serve …`` parsed by the real parser (argparse exits on anything it refuses)."""
    assert Path(argv[0]).name == "gouji", argv
    try:
        args = build_parser().parse_args(argv[1:])
    except SystemExit:
        pytest.fail(f"gouji refuses {shlex.join(argv)} (its message is above)")
    assert args.command == "serve"
    return args


# ---------------------------------------------------------------------- haproxy.cfg
def test_haproxy_cfg_is_the_generated_one() -> None:
    text = (DEPLOY / "haproxy.cfg").read_text()
    assert text == haproxy_config(COMPOSE_WORKERS, ":8000"), (
        "deploy/haproxy.cfg differs from haproxy_config(): regenerate it (deploy/README.md)"
    )


def test_haproxy_accepts_the_cfg() -> None:
    # -dr: w1, w2, w3 resolve only inside the compose network
    haproxy_check(DEPLOY / "haproxy.cfg", unresolved_ok=True)


# ---------------------------------------------------------------------- compose.yaml
def load_compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml", reason="PyYAML (installed with uvicorn[standard])")
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def command_of(service: dict[str, Any]) -> list[str]:
    cmd = service["command"]
    return shlex.split(cmd) if isinstance(cmd, str) else [str(part) for part in cmd]


def address_of(service: dict[str, Any]) -> str:
    return str(service["networks"]["site"]["ipv4_address"])


def test_compose_services() -> None:
    services = load_compose()["services"]
    assert {"db", *NAMES, "proxy"} <= set(services)

    db = services["db"]
    assert str(db["image"]).startswith("postgres:16")
    assert "healthcheck" in db
    assert any(str(v).endswith(":/var/lib/postgresql/data") for v in db["volumes"])

    parsed = {name: serve_args(command_of(services[name])) for name in NAMES}
    assert [args.worker_id for args in parsed.values()] == list(NAMES)  # unique, in order
    dbs = {args.db for args in parsed.values()}
    assert len(dbs) == 1, dbs
    assert dbs.pop().startswith("postgresql://")
    for name, args in parsed.items():
        service = services[name]
        assert (args.host, args.port, args.log_format, args.workers) == ("0.0.0.0", 8000, "json", 1)
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["restart"] == "unless-stopped"
        assert "/readyz" in " ".join(service["healthcheck"]["test"])
    # haproxy.cfg's servers are these workers
    assert [Worker(n, n, parsed[n].port) for n in NAMES] == COMPOSE_WORKERS

    proxy = services["proxy"]
    assert str(proxy["image"]).startswith("haproxy:")
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in proxy["volumes"]
    assert any(str(p).endswith("8000:8000") for p in proxy["ports"])
    # the proxy knows the workers' fixed addresses; they trust its X-Forwarded-For
    assert proxy["extra_hosts"] == [f"{n}:{address_of(services[n])}" for n in NAMES]
    for name in NAMES:
        assert services[name]["environment"]["FORWARDED_ALLOW_IPS"] == address_of(proxy)


def test_compose_files_exist() -> None:
    compose = load_compose()
    for name, service in compose["services"].items():
        build = service.get("build")
        if build is not None:
            context = DEPLOY / build["context"]
            assert (context / build["dockerfile"]).is_file(), name
        for volume in service.get("volumes", []):
            source = str(volume).split(":")[0]
            if source.startswith("."):
                assert (DEPLOY / source).is_file(), f"{name}: {source}"
            else:
                assert source in compose["volumes"], f"{name}: {source}"


def test_prometheus_scrapes_every_worker() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML (installed with uvicorn[standard])")
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    targets = [
        t for job in config["scrape_configs"] for s in job["static_configs"] for t in s["targets"]
    ]
    assert sorted(targets) == [w.address for w in COMPOSE_WORKERS]


# ---------------------------------------------------------------------- Dockerfile
def dockerfile() -> list[str]:
    """The instructions, continuation lines joined, comments dropped."""
    text = (DEPLOY / "Dockerfile").read_text()
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    return [ln.strip() for ln in "\n".join(lines).replace("\\\n", " ").splitlines() if ln.strip()]


def test_dockerfile() -> None:
    steps = dockerfile()
    assert steps[0] == "FROM python:3.11-slim"
    runs = " ".join(s for s in steps if s.startswith("RUN "))
    assert re.search(r"pip install \.(\s|$)", runs), "the package, without extras"
    users = [s.split()[1] for s in steps if s.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    (cmd,) = [s for s in steps if s.startswith("CMD ")]
    serve_args(json.loads(cmd.removeprefix("CMD ")))
    # what it copies is in the build context (the repository's root) and not ignored
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text().split()
    for step in steps:
        if step.startswith("COPY "):
            for source in step.split()[1:-1]:
                assert (ROOT / source).exists(), source
                assert f"!{source}" in ignore or f"!{source}/" in ignore, source


# ---------------------------------------------------------------------- systemd unit
def env_file(path: Path) -> dict[str, str]:
    """systemd's EnvironmentFile: KEY=VALUE lines, # and ; comments."""
    env = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        key, sep, value = line.partition("=")
        assert sep and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key), f"{path}: {line!r}"
        env[key] = value.strip().strip("\"'")
    return env


def unit_service(instance: str) -> dict[str, list[str]]:
    """The [Service] settings of gouji@INSTANCE.service, specifiers expanded."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in (DEPLOY / "gouji@.service").read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            value = value.replace("%i", instance).replace("%%", "%")
            settings.setdefault(key, []).append(value)
    return settings


def exec_argv(line: str, env: dict[str, str]) -> list[str]:
    """ExecStart= as systemd splits it: ``$NAME`` alone is split at whitespace (zero words
    or more), ``${NAME}`` is replaced within its word (a variable missing fails here)."""
    argv: list[str] = []
    for word in shlex.split(line):
        alone = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", word)
        if alone:
            argv += env.get(alone[1], "").split()
        else:
            argv.append(re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: env[m[1]], word))
    return argv


def test_unit_execstart_parses_for_every_worker() -> None:
    ports = []
    for i, name in enumerate(NAMES, 1):
        service = unit_service(name)
        env: dict[str, str] = {}
        for path in service["EnvironmentFile"]:
            assert path.startswith(ETC), path  # and required: no "-" before it
            shipped = DEPLOY / "etc" / "gouji" / path.removeprefix(ETC)
            assert shipped.is_file(), f"{path}: no {shipped.relative_to(ROOT)} to install"
            env |= env_file(shipped)
        (line,) = service["ExecStart"]
        args = serve_args(exec_argv(line, env))
        assert args.worker_id == name
        assert args.db == env["GOUJI_DB"] and args.db.startswith("postgresql://")
        assert ":" not in args.db.removeprefix("postgresql://").split("@")[0], "password: env"
        assert (args.host, args.log_format, args.workers) == ("127.0.0.1", "json", 1)
        assert args.port == 8000 + i  # what the README's HAProxy one-liner lists
        ports.append(args.port)
        assert service["User"] == ["gouji"]
    assert len(set(ports)) == len(ports)


# ---------------------------------------------------------------------- README
def run_one_liner(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<deploy/README.md>", "exec"), {})
    return out.getvalue()


def test_readme_one_liners(tmp_path: Path) -> None:
    text = (DEPLOY / "README.md").read_text()
    made: dict[str, str] = {}
    for code, target in re.findall(r"python -c '([^']*haproxy_config[^']*)' > (\S+)", text):
        made.setdefault(target, run_one_liner(code))  # every one runs; the first of a file counts
    assert made["deploy/haproxy.cfg"] == (DEPLOY / "haproxy.cfg").read_text()
    local = made["/etc/haproxy/gouji.cfg"]  # the first: the systemd workers of this folder
    ports = [int(env_file(DEPLOY / "etc" / "gouji" / f"{n}.env")["GOUJI_PORT"]) for n in NAMES]
    assert local == haproxy_config(
        [Worker(n, "127.0.0.1", p) for n, p in zip(NAMES, ports, strict=True)], ":8000"
    )
    cfg = tmp_path / "gouji.cfg"
    cfg.write_text(local)
    haproxy_check(cfg)
