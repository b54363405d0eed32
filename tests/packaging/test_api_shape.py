"""The shape of the API (issue 34 item 6): every public module of ``gazala_tools`` says what it
exports (``__all__``, each name defined), the core's docstring examples run as doctests, and (issue 34
item 3) each public class name is defined once."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path
from types import ModuleType

import pytest

import gazala_tools

#: the core (docs/dev/architecture.md "Core and edges"): pure Python; its examples are doctests
CORE = ("hexes", "numbering", "grid", "hexgrid", "errors", "fileio", "inputs", "yamlnodes", "games", "mapdata",
        "counters", "vsav", "referee", "rules")


def public_modules() -> list[str]:
    """Every module file of the package (namespace packages such as ``referee`` included) whose
    dotted name has no part starting with ``_``."""
    root = Path(gazala_tools.__file__).parent
    names = []
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts[1:]):
            names.append(".".join(parts))
    return sorted(names)


def core_modules() -> list[str]:
    return [m for m in public_modules() if m.split(".")[1:2] and m.split(".")[1] in CORE]


def test_every_public_module_declares_all_and_defines_each_name() -> None:
    problems: list[str] = []
    for name in public_modules():
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", None)
        if exported is None:
            problems.append(f"{name}: no __all__")
            continue
        problems += [f"{name}: __all__ names {n!r}, which it does not define" for n in exported
                     if not hasattr(module, n)]
    assert problems == []


def test_the_core_is_found() -> None:
    """The doctest list below is not empty by accident (a renamed package)."""
    assert {m.split(".")[1] for m in core_modules()} == set(CORE)


def _run_doctests(module: ModuleType) -> tuple[int, list[str]]:
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    tried = 0
    for test in finder.find(module, module.__name__):
        result = runner.run(test, out=out.append)
        tried += result.attempted
    return tried, out if runner.failures else []


@pytest.mark.parametrize("name", core_modules())
def test_the_core_docstring_examples_run(name: str) -> None:
    _tried, failures = _run_doctests(importlib.import_module(name))
    assert failures == [], "".join(failures)


def test_the_core_has_docstring_examples() -> None:
    """The core documents its main values by examples that run (hexes, numbering, games, counters)."""
    tried = {name: _run_doctests(importlib.import_module(name))[0] for name in
             ("gazala_tools.hexes", "gazala_tools.numbering", "gazala_tools.games", "gazala_tools.counters")}
    assert all(n > 0 for n in tried.values()), tried


def class_modules(root: Path) -> dict[str, list[str]]:
    """Each public (no leading ``_``) top-level class name under ``root`` -> the modules defining it."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(module)
    return found


def test_each_public_class_name_is_defined_once() -> None:
    """One name, one concept: a class another module also defines is renamed to what it holds
    (``vsav.pieces.SavedPosition`` beside ``referee.position.Position``) or imported from the one."""
    found = class_modules(Path(gazala_tools.__file__).parent)
    assert {"Position", "Section", "Cell", "Hex"} <= found.keys()  # the walk reads the package
    assert {name: modules for name, modules in found.items() if len(modules) > 1} == {}


def test_a_class_name_defined_twice_is_reported_with_its_modules(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("class Thing:\n    pass\n\n\nclass _Private:\n    pass\n")
    (pkg / "sub" / "b.py").write_text("class Thing:\n    class Inner:\n        pass\n\n\nclass _Private:\n    pass\n")
    assert class_modules(pkg) == {"Thing": ["pkg.a", "pkg.sub.b"]}


#: longest a function of the package may be (issue 34: "48 functions are over 50 lines"; each was split
#: along its steps), lines from its ``def`` to its last line, nested functions measured on their own
MAX_FUNCTION_LINES = 50


def long_functions(root: Path) -> list[str]:
    """``path:line name (N lines)`` of every function under ``root`` longer than :data:`MAX_FUNCTION_LINES`."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({n} lines)")
    return out


def test_every_function_of_the_package_is_at_most_50_lines() -> None:
    assert long_functions(Path(gazala_tools.__file__).parent) == []


def test_a_long_function_is_reported_with_its_place(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}", encoding="utf-8")
    assert long_functions(tmp_path) == [f"m.py:5 long ({MAX_FUNCTION_LINES + 1} lines)"]
