"""Issue 22 item 3: every process-wide cache belongs to the object whose data it holds or is
bounded, and none is keyed by ``id()`` (the id of a dead object is reused by the next one, so an
id-keyed cache can hand one game's data to another). A long ``referee watch`` re-reads an edited
game folder again and again: the caches stay at their bounds.
"""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

from gazala_tools import filecache
from gazala_tools.filecache import BoundedDict, FileCache, ObjectCache
from gazala_tools.games import registry
from gazala_tools.games.registry import load_game_folder
from gazala_tools.referee import api

PACKAGE = Path(filecache.__file__).resolve().parent
RIVER_WAR = Path(__file__).resolve().parents[1] / "games" / "river-war"

#: module-level names bound to an empty dict/list/set that are not caches, with the reason
NOT_CACHES = {
    ("mapdata/checks.py", "_REGISTRY"): "the map checks, registered once at import by decorators",
    ("cli/__init__.py", "_STOPS"): "a stack of the signals received while a command runs, popped as it ends",
}
#: ``id(...)`` used as a key, not a process-wide cache, with the reason
ID_KEYS_ALLOWED = {
    "counters/loader.py": "marks the nodes of one YAML tree during one walk over it (all alive meanwhile)",
    "yamlnodes.py": "marks the nodes of one YAML tree during one walk over it (all alive meanwhile)",
    "vassal/lint.py": "marks the boards of one module during one lint pass over it (all alive meanwhile)",
}


def _modules() -> list[tuple[str, ast.Module]]:
    return [(p.relative_to(PACKAGE).as_posix(), ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted(PACKAGE.rglob("*.py"))]


def _is_id_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id"


def _id_keys(tree: ast.AST) -> list[int]:
    """Lines where ``id(...)`` is a key: ``d[id(x)]``, ``d.get(id(x))``, ``id(x) in d``, in a key tuple."""
    lines = []
    for node in ast.walk(tree):
        keys: list[ast.AST] = []
        if isinstance(node, ast.Subscript):
            keys.append(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in {
                "get", "pop", "setdefault", "add", "discard", "put"} and node.args:
            keys.append(node.args[0])
        elif isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops):
            keys.append(node.left)
        for key in keys:
            parts = key.elts if isinstance(key, ast.Tuple) else [key]
            if any(_is_id_call(p) for p in parts):
                lines.append(node.lineno)
    return lines


def test_no_cache_is_keyed_by_id() -> None:
    """Issue 22 item 3: none keyed by ``id()`` (yamlnodes' and the counters loader's walks excepted, named)."""
    found = {f"{name}:{line}" for name, tree in _modules() if name not in ID_KEYS_ALLOWED for line in _id_keys(tree)}
    assert found == set()


def test_the_id_scan_finds_an_id_keyed_cache() -> None:
    """The scan above can fail: the old ``_MANIFESTS.get(id(game))`` is found."""
    assert _id_keys(ast.parse("got = _MANIFESTS.get(id(game))\n_M[id(g), id(m)] = 1\nid(n) in seen\n")) == [1, 2, 3]


def _unbounded_caches(name: str, tree: ast.Module) -> list[str]:
    out = []
    for node in tree.body:
        target = value = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if not isinstance(target, ast.Name) or value is None:
            continue
        empty = (isinstance(value, ast.Dict | ast.List | ast.Set) and not getattr(value, "keys", getattr(value, "elts", None))
                 ) or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                       and value.func.id in {"dict", "list", "set", "OrderedDict", "defaultdict"}
                       and not value.args[value.func.id == "defaultdict":] and not value.keywords)
        if empty and (name, target.id) not in NOT_CACHES:
            out.append(f"{name}:{node.lineno} {target.id}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        takes = node.args.args or node.args.kwonlyargs or node.args.vararg or node.args.kwarg
        for dec in node.decorator_list:
            text = ast.unparse(dec)
            unbounded = text in {"functools.cache", "cache"} or (
                "lru_cache" in text and ("maxsize=None" in text or text.endswith("lru_cache")))
            if unbounded and takes:  # a cache of a function of no arguments holds one value
                out.append(f"{name}:{node.lineno} {node.name}")
    return out


def test_every_module_level_cache_is_bounded() -> None:
    """Issue 22 item 3: no module-level dict/list/set grows without bound, no unbounded functools cache."""
    found = [c for name, tree in _modules() for c in _unbounded_caches(name, tree)]
    assert found == []


def test_the_bound_scan_finds_an_unbounded_cache() -> None:
    src = "_CACHE: dict[int, str] = {}\n@functools.lru_cache(maxsize=None)\ndef f(x): ...\n@functools.cache\ndef g(): ...\n"
    assert _unbounded_caches("m.py", ast.parse(src)) == ["m.py:1 _CACHE", "m.py:3 f"]


def test_object_cache_compares_identity_and_stays_bounded() -> None:
    cache: ObjectCache[int] = ObjectCache(maxsize=3)
    keys = [object() for _ in range(10)]
    for i, k in enumerate(keys):
        cache.put(i, k)
    assert len(cache) == 3
    assert cache.get(keys[9]) == 9 and cache.get(keys[0]) is None
    assert cache.get(object()) is None  # an equal-looking new object is not a hit


def test_bounded_dict_and_file_cache_drop_the_least_recently_used(tmp_path: Path) -> None:
    d: BoundedDict[int, int] = BoundedDict(maxsize=2)
    d.put(1, 1)
    d.put(2, 2)
    assert d.get(1) == 1
    d.put(3, 3)
    assert (d.get(1), d.get(2), d.get(3), len(d)) == (1, None, 3, 2)
    fc: FileCache[str] = FileCache(maxsize=2)
    for i in range(5):
        f = tmp_path / f"{i}.yaml"
        f.write_text(str(i))
        assert fc.get(f, None, f.read_text) == str(i)
    assert len(fc) == 2


def test_a_long_watch_of_an_edited_game_folder_keeps_the_caches_bounded(tmp_path: Path) -> None:
    """Each edit of game.yaml is a new game (new map, rules, manifest): 12 edits leave at most the
    bounds in the game and rules caches (the old code kept all 12 of each); the manifest's index and the
    movement data belong to the rules (issue 34), so no cache of their own keeps the old ones."""
    folder = tmp_path / "river-war"
    shutil.copytree(RIVER_WAR, folder)
    game_file = folder / "game.yaml"
    stamp = game_file.stat().st_mtime_ns
    for i in range(12):
        os.utime(game_file, ns=(stamp + i * 10**9, stamp + i * 10**9))
        game = load_game_folder(folder)
        context = api.game_context(game)
        assert context.rules.manifest_units and context.rules.movement is context.rules.movement
    assert len(registry._CACHE) <= registry._CACHE.maxsize
    assert len(api._RULES) <= api._RULES.maxsize < 12


#: every module-level cache of the package (issue 34: the two that only refetched what a caller already had,
#: the manifest's index by game and the movement data by rules, went; what a command loads it passes down in
#: its ``GameContext`` / ``ModuleSource``), with what it keeps across commands or computes once
CACHES = {
    ("counters/loader.py", "_CACHE"): "counters.yaml per file version (map, counters and module commands)",
    ("games/registry.py", "_index"): "the built-in games' index file, per root",
    ("games/registry.py", "_CACHE"): "game.yaml per file version (a watch re-reads an edited folder)",
    ("games/scenarios.py", "_CACHE"): "scenarios.yaml per file version",
    ("games/tables.py", "_CACHE"): "tables.yaml per file version",
    ("mainjob.py", "_commands"): "the CLI's nouns and verbs (the parser built once)",
    ("mapdata/loader.py", "_CACHE"): "map.yaml per file version",
    ("numbering.py", "_REGEX_CACHE"): "a numbering's compiled label pattern",
    ("referee/api.py", "_RULES"): "a game's rules bound to its map, reused by the next command of the process",
    ("referee/imported.py", "_TABLES"): "an imported folder's units.yaml per file version",
    ("referee/movement.py", "_SIDES"): "hexsides between two hexes, computed",
    ("referee/movement.py", "_SIDE_TABLES"): "a map's hexside table, computed",
    ("referee/plugins.py", "_CLASSES"): "a game's plugin class (a folder's plugin file runs once per game version)",
    ("referee/plugins.py", "_RAN"): "which folder plugins ran (the reports say so)",
    ("referee/ruledata/section.py", "_EDGES"): "a map's edges, computed",
    ("referee/terrain.py", "_COSTS"): "a chart's compiled costs per map, computed",
    ("referee/terrain.py", "_CLOSED"): "a chart's prohibited hexes per map, computed",
    ("render/art.py", "art_root"): "the art sandbox of a folder",
    ("render/board.py", "font"): "fonts",
    ("render/boardart.py", "_reduced"): "a board scan reduced, per file version",
    ("render/boardart.py", "_face"): "counter faces drawn on a board, bounded in bytes",
    ("render/counters.py", "font"): "fonts",
    ("render/counters.py", "_fit_px"): "text fitting, computed",
    ("render/counters.py", "_text_mask"): "text masks, bounded in bytes",
    ("render/counters.py", "_unit_ground"): "unit symbols, bounded in bytes",
    ("render/counters.py", "_vertical_mask"): "vertical text masks, bounded in bytes",
    ("render/counters.py", "_ART_CACHE"): "decoded counter art, bounded in bytes",
    ("vassal/importer/units.py", "tokens"): "piece-name tokens, computed",
    ("vassal/lint.py", "engine_classes"): "the classes of the VASSAL jar (a packaged list)",
    ("vassal/lint.py", "engine_images"): "the images of the VASSAL jar (a packaged list)",
    ("vassal/module/charts.py", "_font"): "fonts",
    ("vassal/module/faces.py", "_font"): "fonts",
}
CACHE_TYPES = frozenset({"FileCache", "ObjectCache", "BoundedDict", "SizedDict"})


def _caches(name: str, tree: ast.Module) -> list[tuple[str, str]]:
    """Module-level names bound to a cache object, and module-level functions under a caching decorator."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if ast.unparse(node.value.func).rsplit(".", 1)[-1] in CACHE_TYPES and isinstance(target, ast.Name):
                out.append((name, target.id))
        elif isinstance(node, ast.FunctionDef) and any(
                "cache" in (text := ast.unparse(d)) and "cached_property" not in text for d in node.decorator_list):
            out.append((name, node.name))
    return out


def test_the_module_level_caches_are_these() -> None:
    """Issue 34: 34 module-level caches before, these 32 after; a new one is named here with what it keeps."""
    found = {c for name, tree in _modules() for c in _caches(name, tree)}
    assert found == set(CACHES)


def test_the_cache_scan_finds_a_cache() -> None:
    src = "_A: ObjectCache[int] = ObjectCache(maxsize=8)\n@functools.lru_cache(maxsize=4)\ndef f(x): ...\n"
    assert _caches("m.py", ast.parse(src)) == [("m.py", "_A"), ("m.py", "f")]
