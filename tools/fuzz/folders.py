"""Hostile game folders for the fuzzer (issue 21): symlinks, ``extends``, art folders, plugins.

An input is a *recipe*: one directive a line, applied to a fresh copy of River War, with a secret file
and an image planted outside the folder (``work/outside``)::

    link map.yaml @secret          # a symlink in the folder (@secret, @photo, @etc: outside targets)
    extends ../outside/secret.yaml # map.yaml extends this
    artfolder art                  # counters.yaml: art: {folder: art}
    front art/x.png                # red-inf-1's art: {front: ...}
    plugin rules.py                # game.yaml: rules.plugin
    pysrc rules.py                 # a harmless plugin source file
    pyc rules.py                   # a forged __pycache__ pyc beside it (mtime and size match)
    help doc.html / board b.png    # module.yaml: a help page / the board image
    png art/x.png                  # a small image inside the folder

The folder is then read as commands read it (``map check``, ``counters list``, ``referee check`` with
and without ``--allow-plugin``, its tables, scenarios and module configuration). Besides the usual
contract (a result or a clean error), an audit hook on ``open`` records every file opened while the
folder is read: one outside the folder, the package, Python's own files or the input position is a
**read outside** (:class:`ReadOutside`); a forged ``.pyc`` that runs, or any file the command writes
into the folder, is a bug.
"""

from __future__ import annotations

import builtins
import os
import random
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
       b"\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")
SECRET = "root:x:0:0:FUZZ-SECRET:/root:/bin/bash\n"
PLUGIN = "from gazala_tools.referee.engine import RulesPlugin\n\n\nclass Rules(RulesPlugin):\n    pass\n"
FORGED = "import builtins\nbuiltins.GAZALA_FORGED_PYC_RAN = True\n" + PLUGIN
#: names the recipes use (data files, art, plugin files, folders)
NAMES = ("map.yaml", "counters.yaml", "tables.yaml", "scenarios.yaml", "module.yaml", "game.yaml", "movement.yaml",
         "art", "art/red-inf-1-front.png", "art/red-inf-1-back.png", "art/x.png", "rules.py", "sub/rules.py",
         "doc.html", "b.png", "base.yaml", "sub/base.yaml", "loop.png", "a", "b")
TARGETS = ("@secret", "@photo", "@etc", "@outside", "../outside/secret.yaml", "../outside/photo.png", "../outside",
           "../../../../../../etc/passwd", "/etc/passwd", "map.yaml", "art", "x.png", "loop.png", "a", "b", ".", "..",
           "sub/../../outside", "art/x.png", "rules.py", "\x00", "x" * 300)
VALUES = (*TARGETS, "cauldron-dg", "gazala-rg", "base.yaml", "sub/base.yaml", "art/x.png", "rules.py", "sub/rules.py",
          "this", "antigravity", "os", "gazala_tools.rules.rg", "gazala_tools.rules.nothing", "doc.html", "b.png")
KINDS = ("link", "link", "link", "extends", "artfolder", "front", "plugin", "pysrc", "pyc", "help", "board", "png")
SEEDS = (
    "link map.yaml @secret\n",
    "link counters.yaml ../outside/secret.yaml\n",
    "extends /etc/passwd\n",
    "extends ../outside/secret.yaml\n",
    "link base.yaml @secret\nextends base.yaml\n",
    "artfolder art\nlink art/red-inf-1-front.png @photo\npng art/red-inf-1-back.png\n",
    "link art @outside\nartfolder art\n",
    "link loop.png loop.png\nfront loop.png\n",
    "plugin rules.py\npysrc rules.py\npyc rules.py\n",
    "plugin rules.py\nlink rules.py ../outside/evil.py\n",
    "plugin this\n",
    "link doc.html @secret\nhelp doc.html\n",
    "link b.png @photo\nboard b.png\n",
    "link a b\nlink b a\nextends a\n",
)


class ReadOutside(Exception):
    """A file outside the game folder (and the package, Python, the command's own inputs) was opened."""


# --- the audit hook ----------------------------------------------------------------------------------
_WATCH: dict[str, Any] = {"on": False, "allowed": (), "outside": []}


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not _WATCH["on"] or event != "open" or not args:
        return
    path = args[0]
    if isinstance(path, int) or path is None:
        return
    try:
        real = os.path.realpath(os.fsdecode(path))
    except (ValueError, OSError, TypeError):
        return
    if not any(real == a or real.startswith(a + os.sep) for a in _WATCH["allowed"]):
        _WATCH["outside"].append(real)


_INSTALLED: list[bool] = []


def _python_roots() -> list[str]:
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots.update(p for p in sysconfig.get_paths().values() if p)
    roots.update(p for p in sys.path if p and os.path.isdir(p) and p not in ("/", "/tmp"))
    return [os.path.realpath(r) for r in roots]


def watch_reads(*allowed: Path) -> None:
    """Record every file opened from now on that lies outside ``allowed`` (and the package, Python)."""
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED.append(True)
    import gazala_tools
    from gazala_tools.games import mapdata_root, modules_root

    assert gazala_tools.__file__ is not None
    package = Path(gazala_tools.__file__).parent
    roots = [*(str(p.resolve()) for p in (*allowed, package, mapdata_root(), modules_root())), *_python_roots(),
             "/dev", "/proc", "/sys", "/usr/share/fonts", "/usr/lib", "/etc/localtime", "/etc/ld.so.cache"]
    _WATCH.update(on=True, allowed=tuple(roots), outside=[])


def stop_watching() -> list[str]:
    _WATCH["on"] = False
    return list(_WATCH["outside"])


# --- recipes -----------------------------------------------------------------------------------------
def mutate_recipe(rng: random.Random, seed: bytes) -> bytes:
    """A seed recipe with directives added, dropped or changed (or a fresh one of random directives)."""
    lines = seed.decode("utf-8", "replace").splitlines() if rng.random() < 0.6 else []
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        if lines and op < 0.2:
            lines.pop(rng.randrange(len(lines)))
            continue
        kind = rng.choice(KINDS)
        if kind == "link":
            line = f"link {rng.choice(NAMES)} {rng.choice(TARGETS)}"
        elif kind in ("pysrc", "pyc", "png"):
            line = f"{kind} {rng.choice(NAMES)}"
        else:
            line = f"{kind} {rng.choice(VALUES)}"
        lines.insert(rng.randint(0, len(lines)), line)
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


def _target(token: str, out: Path) -> str:
    return {"@secret": str(out / "secret.yaml"), "@photo": str(out / "photo.png"), "@etc": "/etc/passwd",
            "@outside": str(out)}.get(token, token)


def _yaml_text(value: str) -> str:
    return '"' + value.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'


def _edit(game: Path, name: str, old: str, new: str, *, prepend: bool = False) -> None:
    path = game / name
    if path.is_symlink() or not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    path.write_text(new + text if prepend else text.replace(old, new, 1), encoding="utf-8")


def build(recipe: str, game: Path, out: Path, river_war: Path) -> list[Path]:
    """River War in ``game`` with ``recipe`` applied; the secret and image in ``out``. Returns the
    files the recipe planted in the folder (a forged pyc)."""
    shutil.copytree(river_war, game)
    out.mkdir(exist_ok=True)
    (out / "secret.yaml").write_text(SECRET, encoding="utf-8")
    (out / "photo.png").write_bytes(PNG)
    (out / "evil.py").write_text(FORGED, encoding="utf-8")
    planted: list[Path] = []
    for line in recipe.splitlines()[:12]:
        parts = line.split(" ", 2)
        if len(parts) < 2:
            continue
        kind, arg = parts[0], parts[1]
        extra = parts[2] if len(parts) > 2 else ""
        try:
            here = game / arg
            if kind in ("link", "pysrc", "pyc", "png") and (".." in Path(arg).parts or Path(arg).is_absolute()):
                continue  # the recipe builds inside the folder only
            if kind == "link":
                here.parent.mkdir(parents=True, exist_ok=True)
                if here.is_symlink() or here.is_file():
                    here.unlink()
                elif here.is_dir():
                    shutil.rmtree(here)
                here.symlink_to(_target(extra, out))
            elif kind == "extends":
                _edit(game, "map.yaml", "", f"extends: {_yaml_text(_target(arg, out))}\n", prepend=True)
            elif kind == "artfolder":
                _edit(game, "counters.yaml", "total: 19\n", f"total: 19\nart: {{folder: {_yaml_text(_target(arg, out))}}}\n")
            elif kind == "front":
                _edit(game, "counters.yaml", "values: [3, 4, 4], provenance: original}",
                      f"values: [3, 4, 4], provenance: original, art: {{front: {_yaml_text(_target(arg, out))}}}}}")
            elif kind == "plugin":
                _edit(game, "game.yaml", "rules:\n", f"rules:\n  plugin: {_yaml_text(arg)}\n")
            elif kind == "help":
                _edit(game, "module.yaml", "", f"help:\n  - {{title: Notes, file: {_yaml_text(_target(arg, out))}}}\n",
                      prepend=True)
            elif kind == "board":
                _edit(game, "module.yaml", "board: {art: render, dpi: 100}",
                      f"board: {{art: {_yaml_text(_target(arg, out))}, dpi: 100}}")
            elif kind == "png" and not here.exists():
                here.parent.mkdir(parents=True, exist_ok=True)
                here.write_bytes(PNG)
            elif kind == "pysrc" and not here.exists():
                here.parent.mkdir(parents=True, exist_ok=True)
                here.write_text(PLUGIN, encoding="utf-8")
            elif kind == "pyc" and here.is_file() and not here.is_symlink():
                planted.append(_forge_pyc(here))
        except (OSError, ValueError):
            continue  # a recipe the file system cannot make (a name too long, a NUL): nothing planted
    return planted


def _forge_pyc(source: Path) -> Path:
    """A ``__pycache__`` pyc of hostile code whose recorded mtime and size match ``source``."""
    import importlib.util
    from importlib._bootstrap_external import _code_to_timestamp_pyc  # type: ignore[attr-defined]

    st = source.stat()
    pyc = Path(importlib.util.cache_from_source(str(source)))
    pyc.parent.mkdir(exist_ok=True)
    code = compile(FORGED, str(source), "exec")
    pyc.write_bytes(bytes(_code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)))
    return pyc


def listing(game: Path) -> set[str]:
    out: set[str] = set()
    for root, dirs, files in os.walk(game, followlinks=False):
        for n in (*dirs, *files):
            out.add(os.path.relpath(os.path.join(root, n), game))
    return out


def judge(folder: Path, before: set[str], outside: list[str], clean: list[str], *, secret: str, what: str,
          note: str = "") -> None:
    """After a hostile folder was read: a file read outside it or an error message quoting ``secret`` (the
    content outside) is a :class:`ReadOutside`, a file written into it a bug."""
    from tools.fuzz.base import Bug

    if outside:
        raise ReadOutside(f"read outside the {what}: {sorted(set(outside))[:3]}")
    written = listing(folder) - before
    if written:
        raise Bug(f"wrote into the {what}: {sorted(written)[:3]}{note}")
    if any(secret in c for c in clean):
        raise ReadOutside(f"an error message quotes the secret outside the {what}")


def forged_ran() -> bool:
    ran = bool(getattr(builtins, "GAZALA_FORGED_PYC_RAN", False))
    if ran:
        del builtins.GAZALA_FORGED_PYC_RAN  # type: ignore[attr-defined]
    return ran
