"""The source stays easy to see (issue 34, docs/architecture.md): small modules with one clear
job, small package folders, and a docstring at the top of each module that says what it is for.

What is counted, in ``src/gouji``:

- a module is a ``.py`` file (compiled ``.so`` files beside them are not counted); its size is
  its number of lines, comments, docstrings and blank lines included;
- the line limit also counts the web client's ES modules (``src/gouji/web/js/**/*.js``), sized
  the same way; the folder and docstring rules are for the Python package only;
- a package folder is ``src/gouji`` and every folder under it that holds an ``__init__.py``; its
  modules are the ``.py`` files directly in it, ``__init__.py`` included (subpackages and the
  web client's files are not);
- a module opens with a docstring when its first statement is a string that is not empty
  (``__init__.py`` included: it says what the package is for).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src" / "gouji"

#: The most lines a module may have.
MAX_LINES = 1200
#: The most ``.py`` files directly in one package folder (``__init__.py`` included).
MAX_MODULES = 15


def modules() -> list[Path]:
    """Every ``.py`` file of ``src/gouji``, in path order."""
    return sorted(SOURCE.rglob("*.py"))


def web_modules() -> list[Path]:
    """Every ES module of the web client (``src/gouji/web/js``), in path order."""
    return sorted((SOURCE / "web" / "js").rglob("*.js"))


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_modules_are_at_most_1200_lines() -> None:
    sizes = {
        path: len(path.read_text(encoding="utf-8").splitlines())
        for path in [*modules(), *web_modules()]
    }
    offenders = [f"{shown(path)}: {size} lines" for path, size in sizes.items() if size > MAX_LINES]
    assert not offenders, f"modules over {MAX_LINES} lines (split them by job):\n" + "\n".join(
        offenders
    )


def test_package_folders_hold_at_most_15_modules() -> None:
    folders = [SOURCE, *(init.parent for init in SOURCE.rglob("__init__.py"))]
    counts = {folder: len(list(folder.glob("*.py"))) for folder in sorted(set(folders))}
    offenders = [
        f"{shown(folder)}/: {count} modules"
        for folder, count in counts.items()
        if count > MAX_MODULES
    ]
    assert not offenders, (
        f"package folders with more than {MAX_MODULES} .py files directly in them (group them "
        "into subpackages):\n" + "\n".join(offenders)
    )


def test_every_module_opens_with_a_docstring() -> None:
    offenders = []
    for path in modules():
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if not docstring or not docstring.strip():
            offenders.append(shown(path))
    assert not offenders, (
        "modules that do not open with a docstring saying what they are for:\n"
        + "\n".join(offenders)
    )


def test_the_rules_count_what_they_say() -> None:
    """The three checks see the source: a module, a package folder and a docstring are found,
    and the web client's ES modules are counted too."""
    assert SOURCE / "__init__.py" in modules()
    assert SOURCE / "engine" / "referee" / "__init__.py" in modules()
    assert len(modules()) > 50
    assert SOURCE / "web" / "js" / "table.js" in web_modules()
