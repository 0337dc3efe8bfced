"""The layers of gouji hold inside the suite, not only in `make test`'s lint step: `pytest` alone
catches an import that points up a layer (docs/architecture.md).

The contracts are those of ``.importlinter`` at the root of the repository, checked by
``lint-imports`` (import-linter) as `make test` runs it. Every import counts: those inside a
function (lazy) and those under ``TYPE_CHECKING`` too. Two more checks keep the check honest:

- the same configuration, run on a tree of empty stand-in modules with the names it cites, passes
  as it is and breaks on each forbidden arrow added to it (one per contract), so a contract that
  names a module wrongly or checks nothing cannot pass silently;
- the engine imports nothing outside the standard library (and of gouji only itself): a
  whitelist, which import-linter's forbidden contract (a list of the packages gouji installs)
  can only approximate.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from importlinter import api

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / ".importlinter"
PACKAGE = "gouji"
ENGINE = "gouji.engine"


def lint_imports(config: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on ``config`` in a process of its own, from ``cwd`` (it puts ``cwd`` first
    on the import path, so a stand-in ``gouji`` there shadows the installed one)."""
    program = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert program is not None, "lint-imports is not installed: pip install -e '.[dev]'"
    return subprocess.run(
        [program, "--no-cache", "--no-logo", str(config)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_layers_hold() -> None:
    result = lint_imports(CONFIG, ROOT)
    assert result.returncode == 0, (
        "an import crosses a layer of .importlinter (docs/architecture.md says which way the "
        f"arrows point):\n{result.stdout}{result.stderr}"
    )


def layers_of(contract_id: str) -> set[str]:
    """The modules named in the layers of one contract of ``.importlinter``."""
    for contract in api.read_configuration(str(CONFIG))["contracts_options"]:
        if contract["id"] == contract_id:
            layers: list[str] = contract["layers"]
            return {n.strip() for layer in layers for n in layer.replace(":", "|").split("|")}
    raise AssertionError(f"no contract {contract_id!r} in .importlinter")


def children(package: str) -> set[str]:
    """The modules and packages directly in ``package`` (its ``__init__`` and data aside)."""
    folder = ROOT / "src" / Path(*package.split("."))
    found = {p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")}
    found |= {p.name for p in folder.iterdir() if (p / "__init__.py").exists()}
    return {f"{package}.{name}" for name in found}


@pytest.mark.parametrize(
    ("contract_id", "package"), [("parts", "gouji"), ("server", "gouji.server")]
)
def test_every_part_is_in_a_layer(contract_id: str, package: str) -> None:
    """A new part or server domain cannot escape the contracts: each one is given its layer."""
    missing = children(package) - layers_of(contract_id)
    assert not missing, (
        f"give {sorted(missing)} a layer in .importlinter's [importlinter:contract:{contract_id}] "
        "(and docs/architecture.md)"
    )


# -- the check itself ------------------------------------------------------------------------


def cited_modules() -> set[str]:
    """Every module of gouji that a contract of ``.importlinter`` names."""
    names: set[str] = set()
    for contract in api.read_configuration(str(CONFIG))["contracts_options"]:
        for key in ("layers", "source_modules", "forbidden_modules", "modules"):
            for entry in contract.get(key, []):
                for name in entry.replace(":", "|").split("|"):
                    name = name.strip().strip("()")
                    if name == PACKAGE or name.startswith(PACKAGE + "."):
                        names.add(name)
    return names


def stand_in_tree(where: Path) -> None:
    """An empty package ``gouji`` in ``where`` with every module the contracts name (each a
    package, so that a module may also be the parent of another)."""
    for name in {PACKAGE} | cited_modules():
        folder = where.joinpath(*name.split("."))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").touch()


def add_import(where: Path, importer: str, statement: str) -> None:
    """``statement`` inside a function of ``importer``: a lazy import, which counts as well."""
    module = where.joinpath(*importer.split("."), "__init__.py")
    module.write_text(f"def later() -> None:\n    {statement}\n")


def test_the_contracts_pass_on_their_own_names(tmp_path: Path) -> None:
    stand_in_tree(tmp_path)
    result = lint_imports(CONFIG, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


#: One arrow each contract forbids: (importer, import statement, the contract's name starts so).
FORBIDDEN_ARROWS = [
    ("gouji.engine", "import gouji.server", "The parts"),
    ("gouji.agents", "import gouji.tools", "The parts"),
    ("gouji.tools", "from gouji import review", "The parts"),
    ("gouji.engine.referee", "import gouji.agents", "The engine imports no other part"),
    ("gouji.engine", "import numpy", "The engine imports no other part"),
    ("gouji.engine.referee", "from gouji.engine import match", "The referee"),
    ("gouji.server.plumbing", "import gouji.server.tables", "The server"),
    ("gouji.server.tables", "import gouji.server.events", "The server"),
]


@pytest.mark.parametrize(("importer", "statement", "contract"), FORBIDDEN_ARROWS)
def test_a_forbidden_arrow_is_caught(
    tmp_path: Path, importer: str, statement: str, contract: str
) -> None:
    stand_in_tree(tmp_path)
    add_import(tmp_path, importer, statement)
    result = lint_imports(CONFIG, tmp_path)
    report = result.stdout + result.stderr
    assert result.returncode == 1, report
    broken = report.split("Broken contracts", 1)[-1]
    assert contract in broken, report
    assert f"{importer} ->" in broken, report


# -- the engine: the standard library only -----------------------------------------------------


def outside_the_standard_library(graph: grimp.ImportGraph, package: str) -> list[str]:
    """Each import of a module of ``package`` that is neither of ``package`` nor of the standard
    library, as ``importer -> imported (l.N: the line)``."""
    found: list[str] = []
    for importer in sorted(m for m in graph.modules if m == package or m.startswith(package + ".")):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            inside = imported == package or imported.startswith(package + ".")
            top = imported.split(".", 1)[0]
            if inside or top in sys.stdlib_module_names or top == "__future__":
                continue
            details = graph.get_import_details(importer=importer, imported=imported)
            lines = [f"l.{d['line_number']}: {d['line_contents']}" for d in details] or ["l.?"]
            found.extend(f"{importer} -> {imported} ({line})" for line in lines)
    return found


def test_the_engine_needs_only_the_standard_library() -> None:
    graph = grimp.build_graph(PACKAGE, include_external_packages=True)
    offenders = outside_the_standard_library(graph, ENGINE)
    assert not offenders, (
        "the engine (compiled with mypyc, docs/architecture.md) imports only the standard "
        "library and itself:\n" + "\n".join(offenders)
    )


def test_an_import_outside_the_standard_library_is_caught() -> None:
    graph = grimp.ImportGraph()
    for module in (
        "gouji",
        "gouji.engine",
        "gouji.engine.cards",
        "gouji.agents",
        "json",
    ):
        graph.add_module(module)
    graph.add_import(
        importer="gouji.engine.cards",
        imported="json",
        line_number=1,
        line_contents="import json",
    )
    graph.add_import(
        importer="gouji.engine.cards",
        imported="gouji.engine",
        line_number=2,
        line_contents="import gouji.engine",
    )
    assert outside_the_standard_library(graph, ENGINE) == []
    graph.add_module("numpy", is_squashed=True)
    graph.add_import(
        importer="gouji.engine.cards",
        imported="numpy",
        line_number=3,
        line_contents="import numpy",
    )
    graph.add_import(
        importer="gouji.engine",
        imported="gouji.agents",
        line_number=4,
        line_contents="import x",
    )
    assert outside_the_standard_library(graph, ENGINE) == [
        "gouji.engine -> gouji.agents (l.4: import x)",
        "gouji.engine.cards -> numpy (l.3: import numpy)",
    ]
