"""Packaging hook: the built-in game folders (``mapdata/``), module build configurations
(``modules/``) and the user documentation (``docs/*.md``, for ``gazala help``) are package data of
the wheel, installed as ``gazala_tools/data/<folder>/`` and read through ``importlib.resources`` (``gazala_tools.games.registry``). Everything else is in
pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("mapdata", "modules")
#: the user documentation, for ``gazala help``: the top level of ``docs/`` (not ``docs/dev/``)
DOCS = "docs"
DATA_SUFFIXES = {".yaml", ".yml", ".html", ".png", ".jpg", ".jpeg", ".txt", ".md", ".json", ".py"}


class BuildPyWithGameData(build_py):
    """build_py, then copy the game data folders into the built package."""

    def run(self) -> None:
        super().run()
        here = Path(__file__).resolve().parent
        for name in DATA_FOLDERS:
            src = here / name
            if not src.is_dir():
                continue
            dst = Path(self.build_lib) / "gazala_tools" / "data" / name
            if dst.exists():
                shutil.rmtree(dst)
            for f in sorted(src.rglob("*")):
                if f.is_file() and f.suffix.lower() in DATA_SUFFIXES and "__pycache__" not in f.parts:
                    target = dst / f.relative_to(src)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(f, target)
        docs = Path(self.build_lib) / "gazala_tools" / "data" / DOCS
        if docs.exists():
            shutil.rmtree(docs)
        docs.mkdir(parents=True)
        for f in sorted((here / DOCS).glob("*.md")):
            shutil.copy2(f, docs / f.name)


setup(cmdclass={"build_py": BuildPyWithGameData})
