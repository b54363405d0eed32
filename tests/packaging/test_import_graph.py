"""Issue 22 item 3, "one direction of imports": the packages of ``gazala_tools`` import each other in
one direction, counting every import the program runs, at module level and inside functions
(``tools/importgraph.py`` reads them with ``ast``), and, since issue 34 item 3, every import for
annotations only (under ``if TYPE_CHECKING``): not one at run time, but a cycle of them is still a
circle a reader must hold in their head, so none may close a cycle of modules or go up the layers.

The layers, lowest first (``docs/dev/architecture.md``, "Core and edges"); a package imports only
packages of lower layers, never one of its own layer or above:

- core, pure typed Python: ``gazala_tools`` (``__version__``) < ``errors hexes wording escape`` < ``fileio filecache`` < ``inputs numbering``
  < ``yamlnodes grid`` < ``hexgrid squaregrid`` (VASSAL's pixel geometry, pure) < ``games`` (the registry,
  game.yaml) < ``mapdata counters vsav`` (map.yaml, counters.yaml, the VASSAL save format, pure)
  < ``referee`` < ``rules`` (the plugins build on the referee, never the reverse);
- edges, third-party libraries: ``geometry render`` < ``vassal`` (the module builder draws with render)
  < ``digitize``;
- the command: ``cli`` < ``mainjob __main__``.

An import inside a function is there to keep start-up fast (the CLI imports an edge only in the
command that needs it), never to hide a cycle: it obeys the same layers, and no module cycle may close
through one (the module-level test below). Where the core needs what only an edge can read (a
module's map layouts, read with lxml), the edge passes a reader in: ``read_layouts=`` of
``referee.api.load`` / ``check_file`` / ``logcheck.check_log``. Where a lower module only needs to
*type* against a higher one, it names a ``typing.Protocol`` of its own layer (the referee's modules
below the engine read the bound rules as ``referee.bound.BoundData`` / ``referee.context.BoundRules``;
``games.scenarios`` reads a map as ``SetupMap``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tools.importgraph import cycles, graph, imports, module_graph, module_imports

CORE = (
    ("gazala_tools",),  # the package's own __init__: its version
    ("errors", "hexes", "wording", "escape"),
    ("fileio", "filecache"),
    ("inputs", "numbering"),
    ("yamlnodes", "grid"),
    ("hexgrid", "squaregrid"),
    ("games",),
    ("mapdata", "counters", "vsav"),
    ("referee",),
    ("rules",),
)
EDGES = (
    ("geometry", "render"),
    ("vassal",),
    ("digitize",),
)
TOP = (("cli",), ("mainjob", "__main__"))
LAYERS = (*CORE, *EDGES, *TOP)

def package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def layer_of(pkg: str) -> int:
    name = pkg.removeprefix("gazala_tools.")
    for i, layer in enumerate(LAYERS):
        if name in layer:
            return i
    raise AssertionError(f"{pkg} is in no layer: add it to LAYERS (and to docs/dev/architecture.md)")


def test_every_package_has_a_layer() -> None:
    edges, _ = graph()
    for pkg in {*edges, *(d for ds in edges.values() for d in ds)}:
        layer_of(pkg)


def test_no_package_cycle_counting_imports_inside_functions() -> None:
    edges, _ = graph()
    assert cycles(edges) == []


def test_no_package_cycle_counting_annotation_imports() -> None:
    edges, _ = graph(annotations=True)
    assert cycles(edges) == []


def test_every_import_goes_down_the_layers() -> None:
    """Module level, inside a function or for annotations only: the core imports no edge, an edge no
    command, and within the core and the edges each package only the layers below its own."""
    upward = sorted({(f"{m}:{line}", name) for m, line, name, _inside in imports(annotations=True)
                     if layer_of(package(name)) >= layer_of(package(m))})
    assert upward == []


def test_no_import_inside_a_function_hides_a_module_cycle() -> None:
    """A function-level import is allowed only where a module-level one would be too: made module-level,
    none would close a cycle of modules, inside a package or across packages (issue 22 item 5)."""
    assert cycles(module_graph()) == []


def test_no_module_cycle_of_module_level_imports() -> None:
    assert cycles(module_graph(top_level=True)) == []


def test_no_module_cycle_counting_annotation_imports() -> None:
    """Issue 34 item 3: no module of ``gazala_tools`` imports, at module level, inside a function or
    under ``if TYPE_CHECKING``, a module that imports it back, directly or through others."""
    assert cycles(module_graph(annotations=True)) == []


def test_the_rules_engine_is_one_package_without_a_circle() -> None:
    """Issue 34 item 3: the engine built on ``generic`` (and through it ``movement``, ``sequence``,
    ``statuses``, ``units``, ``victory``, ``ruledata.movement``) while each of them imported the engine
    for its annotations: a circle of 8 modules. They now read the bound rules as a protocol below
    them, and none of the modules the engine stands on imports it, not even for an annotation."""
    edges = module_graph(annotations=True)
    below: set[str] = set()
    todo = ["gazala_tools.referee.engine"]
    while todo:
        for name in edges.get(todo.pop(), ()):
            if name not in below:
                below.add(name)
                todo.append(name)
    referee = "gazala_tools.referee."
    assert {f"{referee}{m}" for m in ("generic", "movement", "sequence", "statuses", "units", "victory",
                                      "ruledata.movement", "context", "bound")} <= below
    assert sorted(m for m in below if "gazala_tools.referee.engine" in edges.get(m, ())) == []


def test_the_referee_imports_no_rules_plugin() -> None:
    """Issue 22 item 3: ``referee`` <-> ``rules`` was a cycle; the referee now finds a plugin by its path."""
    found = [(m, line) for m, line, name, _inside in imports(annotations=True)
             if m.startswith("gazala_tools.referee") and name.startswith("gazala_tools.rules")]
    assert found == []


def test_the_compatibility_shims_are_gone() -> None:
    """Issue 34 item 3: ``vassal.grid`` (now ``hexgrid``), ``vassal.saves`` (now ``vsav``, with
    ``vassal.buildfile.read_layouts`` for a module's location names) and ``render.escape`` (now
    ``escape``) re-exported moved names; every importer uses the real module, and the shims are gone."""
    shims = ("gazala_tools.vassal.grid", "gazala_tools.vassal.saves", "gazala_tools.render.escape",
             "gazala_tools.vassal.squaregrid")
    assert [name for name in shims if importlib.util.find_spec(name) is not None] == []
    assert [(m, line, name) for m, line, name, _inside in module_imports() if name in shims] == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "gazala_tools"
    for name, body in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    return root


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    """The tests above can fail: two packages importing each other are a cycle, also when one of the
    imports is inside a function; an import under ``if TYPE_CHECKING`` is none at run time, and one
    counting annotation imports."""
    root = _tree(tmp_path, {
        "a/__init__.py": "from gazala_tools.b import x\n",
        "b/__init__.py": "def f():\n    from gazala_tools import a\n",
        "c/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from gazala_tools.a import y\n",
        "a/back.py": "import gazala_tools.c\n",
    })
    assert cycles(graph(root, top_level=True)[0]) == []
    assert cycles(graph(root)[0]) == [["gazala_tools.a", "gazala_tools.b"]]
    assert ("gazala_tools.c", "gazala_tools.a") not in {(m, n) for m, _l, n, _i in imports(root)}
    assert cycles(graph(root, annotations=True)[0]) == [["gazala_tools.a", "gazala_tools.b", "gazala_tools.c"]]


def test_the_module_cycle_finder_finds_a_cycle_inside_a_package(tmp_path: Path) -> None:
    """Inside one package: ``p.one`` imports ``p.two`` at module level, ``p.two`` imports ``p.one`` in a
    function (``from gazala_tools.p import one`` names the module); a downward lazy import is no cycle."""
    root = _tree(tmp_path, {
        "p/__init__.py": "",
        "p/one.py": "from gazala_tools.p.two import g\n",
        "p/two.py": "def g():\n    from gazala_tools.p import one\n",
        "p/three.py": "def h():\n    from gazala_tools.p.two import g\n",
    })
    assert cycles(module_graph(root, top_level=True)) == []
    assert cycles(module_graph(root)) == [["gazala_tools.p.one", "gazala_tools.p.two"]]


def test_the_module_cycle_finder_finds_a_cycle_of_annotation_imports(tmp_path: Path) -> None:
    """``p.engine`` imports ``p.generic``, which imports ``p.engine`` only to annotate with it: no cycle
    at run time, one counting annotation imports; typing against ``p.bound`` below both is none."""
    back = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from gazala_tools.p.{} import Rules\n"
    engine = {"p/__init__.py": "", "p/engine.py": "from gazala_tools.p import generic\n"}
    root = _tree(tmp_path / "before", {**engine, "p/generic.py": back.format("engine")})
    assert cycles(module_graph(root)) == []
    assert cycles(module_graph(root, annotations=True)) == [["gazala_tools.p.engine", "gazala_tools.p.generic"]]
    root = _tree(tmp_path / "after", {**engine, "p/generic.py": back.format("bound"), "p/bound.py": "class Rules: ...\n"})
    assert cycles(module_graph(root, annotations=True)) == []
