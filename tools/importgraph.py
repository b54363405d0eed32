"""The import graph of ``gazala_tools`` (issue 22 item 3), read with ``ast``: every ``import`` of
every module, top-level and inside functions, between packages (:func:`graph`) and between modules
(:func:`module_graph`). Imports under ``if TYPE_CHECKING`` are not imports at run time: they count
only with ``annotations=True`` (issue 34 item 3: an annotation-only cycle is still a cycle a reader
must hold in their head, so the tests forbid those too).

``python tools/importgraph.py`` prints the package cycles and the module cycles (strongly connected
components of more than one node; "top-level" when module-level imports alone make them, else a
function-level import hides them, or an import for annotations only closes them), the imports inside functions that go upward (against the layers of
``tests/packaging/test_import_graph.py``), and the count of function-level imports per package.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "gazala_tools"


def package_of(module: str) -> str:
    """``gazala_tools.referee.engine`` -> ``gazala_tools.referee``; top-level modules stand alone."""
    parts = module.split(".")
    return ".".join(parts[:2])


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            out.update(id(n) for n in ast.walk(node))
    return out


def _imported(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:  # relative: resolve against the importing module's package
        base = module.split(".")[: -node.level] if not module.endswith("__init__") else module.split(".")
        return [".".join([*base, node.module]) if node.module else ".".join(base)]
    return [node.module] if node.module else []


def _function_nodes(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.update(id(n) for n in ast.walk(node) if n is not node)
    return out


@functools.cache
def _parsed(path: Path, mtime_ns: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _parse(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once per file version (the tests read the package many times)."""
    return _parsed(path, path.stat().st_mtime_ns)


def _version(root: Path) -> tuple[tuple[str, int], ...]:
    return tuple((str(p), p.stat().st_mtime_ns) for p in sorted(root.rglob("*.py")))


def imports(root: Path = ROOT, *, annotations: bool = False) -> list[tuple[str, int, str, bool]]:
    """Every import of another package: (importing module, line, imported module, inside a function),
    as :func:`module_imports` reads them (``from gazala_tools import fileio`` imports ``gazala_tools.fileio``)."""
    return list(_imports(root, _version(root), annotations))


@functools.cache
def _imports(root: Path, _version: tuple[tuple[str, int], ...], annotations: bool
             ) -> tuple[tuple[str, int, str, bool], ...]:
    return tuple((m, line, name, inside) for m, line, name, inside in module_imports(root, annotations=annotations)
                 if package_of(name) != package_of(m))


def graph(root: Path = ROOT, *, top_level: bool = False, annotations: bool = False
          ) -> tuple[dict[str, set[str]], Counter[str]]:
    """Package -> packages it imports (only at module level when ``top_level``; also under ``if
    TYPE_CHECKING`` when ``annotations``); and the number of imports inside functions per package."""
    edges: dict[str, set[str]] = defaultdict(set)
    local: Counter[str] = Counter()
    for path in sorted(root.rglob("*.py")):
        src = package_of(_module_name(path, root))
        tree = _parse(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                local[src] += sum(isinstance(n, ast.Import | ast.ImportFrom) for n in ast.walk(node))
    for module, _line, name, inside in imports(root, annotations=annotations):
        if not (top_level and inside):
            edges[package_of(module)].add(package_of(name))
    return edges, local


def _modules(root: Path) -> set[str]:
    return {_module_name(path, root) for path in root.rglob("*.py")}


def module_imports(root: Path = ROOT, *, annotations: bool = False) -> list[tuple[str, int, str, bool]]:
    """Every import of another module of the package: (importing module, line, imported module, inside a
    function); with ``annotations``, also those under ``if TYPE_CHECKING``. ``from pkg import sub``
    imports the module ``pkg.sub`` when there is one, else ``pkg``; a name that is no module of the
    package stands for the nearest package above it."""
    return list(_module_imports(root, _version(root), annotations))


@functools.cache
def _module_imports(root: Path, _version: tuple[tuple[str, int], ...], annotations: bool
                    ) -> tuple[tuple[str, int, str, bool], ...]:
    known = _modules(root)
    out: list[tuple[str, int, str, bool]] = []
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path, root)
        tree = _parse(path)
        skip = set() if annotations else _type_checking_nodes(tree)
        inner = _function_nodes(tree)
        for node in ast.walk(tree):
            if id(node) in skip or not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for base in _imported(node, module):
                names = [base]
                if isinstance(node, ast.ImportFrom):
                    names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
                for name in dict.fromkeys(names):
                    while name not in known and "." in name:
                        name = name.rsplit(".", 1)[0]
                    if name in known and name != module:
                        out.append((module, node.lineno, name, id(node) in inner))
    return tuple(out)


def module_graph(root: Path = ROOT, *, top_level: bool = False, annotations: bool = False) -> dict[str, set[str]]:
    """Module -> modules of the package it imports (only at module level when ``top_level``; also under
    ``if TYPE_CHECKING`` when ``annotations``)."""
    edges: dict[str, set[str]] = defaultdict(set)
    for module, _line, name, inside in module_imports(root, annotations=annotations):
        if not (top_level and inside):
            edges[module].add(name)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one package (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main() -> int:
    edges, local = graph()
    top, _ = graph(top_level=True)
    found = cycles(edges)
    for comp in cycles(top):
        print("package cycle of top-level imports:", " ".join(comp))
    for comp in found:
        print("package cycle:", " ".join(comp))
    typed = [comp for comp in cycles(graph(annotations=True)[0]) if comp not in found]
    for comp in typed:
        print("package cycle closed by an annotation import:", " ".join(comp))
    top_modules = cycles(module_graph(top_level=True))
    for comp in top_modules:
        print("module cycle of top-level imports:", " ".join(comp))
    run_modules = cycles(module_graph())
    for comp in run_modules:
        if comp not in top_modules:
            print("module cycle hidden by a function-level import:", " ".join(comp))
    typed_modules = [comp for comp in cycles(module_graph(annotations=True)) if comp not in run_modules]
    for comp in typed_modules:
        print("module cycle closed by an annotation import:", " ".join(comp))
    print("function-level imports:", sum(local.values()), dict(local.most_common()))
    return 1 if found or typed or run_modules or typed_modules else 0


if __name__ == "__main__":
    sys.exit(main())
