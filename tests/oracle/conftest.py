"""Fixtures for the engine-oracle tests: the recorded engine answers and the modules they came from."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "engine"


@cache
def make_fixtures() -> ModuleType:
    """tests/oracle/make_fixtures.py (the generator) as a module: it knows how the modules were built."""
    spec = importlib.util.spec_from_file_location("gazala_make_engine_fixtures", HERE / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def load_engine_fixture(name: str) -> dict[str, Any]:
    """A recorded fixture, e.g. ``engine_fixture("ragnarok")``."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session")
def engine_fixture() -> Callable[[str], dict[str, Any]]:
    """``engine_fixture("ragnarok")``: a recorded fixture of tests/fixtures/engine/."""
    return load_engine_fixture


@pytest.fixture(scope="session")
def template_vmod(corpus_dir: Path) -> Path:
    path = corpus_dir / make_fixtures().TEMPLATE_REL
    if not path.is_file():
        pytest.fail(f"corpus module missing: {path}")
    return Path(path)


@pytest.fixture(scope="session")
def ragnarok_vmod(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    """The Ragnarok test module, built exactly as the fixture was (board size from the fixture)."""
    size = tuple(load_engine_fixture("ragnarok")["module"]["board_size"])
    out = tmp_path_factory.mktemp("ragnarok")
    return Path(make_fixtures().build_ragnarok_module(out, corpus_dir, size))


@pytest.fixture(scope="session")
def rg_vmod(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Our module of Gazala (RG), built by ``gazala module build``: set-ups, a Turn Tracker, chit cups."""
    from gazala_tools.cli import main as gazala

    out = tmp_path_factory.mktemp("rg") / "gazala-rg.vmod"
    assert gazala(["module", "build", "gazala-rg", "-o", str(out)]) == 0
    return out
