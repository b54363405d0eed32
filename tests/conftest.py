"""Shared test fixtures. The maps, blank test maps and game rules the tests share are in the plugin
``tests/support/fixtures.py``; area-specific fixtures live in tests/<area>/conftest.py."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest
from hypothesis import settings

# Speed is judged in benchmarks, never by a test's clock: hypothesis' per-example deadline (200 ms) would
# fail a property test on a loaded machine (xdist on two cores), so it is off for the whole suite.
settings.register_profile("gazala", deadline=None)
settings.load_profile("gazala")

pytest_plugins = ["tests.support.fixtures"]

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("GAZALA_SHARED", ROOT.parent / "shared")).resolve()


# --- what a test needs from outside the tree: one policy for all ---------------------------------
# A test that needs ../shared (the corpus, the rules texts, the engine) and does not find it fails
# with one clear message in CI (CI=true, or GAZALA_REQUIRE_VASSAL=1 as scripts/test sets) and skips
# with that message as its reason elsewhere. Tests reach ../shared only through `shared_path` or the
# fixtures below, never by a path of their own.


def strict() -> bool:
    """Must every outside need be met (CI)? Then a missing one fails instead of skipping."""
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("GAZALA_REQUIRE_VASSAL", "") not in ("", "0")


def missing(reason: str) -> NoReturn:
    """A test's outside need is not met: fail in CI, skip elsewhere, with ``reason`` either way."""
    if strict():
        pytest.fail(reason + " (required here: CI or GAZALA_REQUIRE_VASSAL is set)", pytrace=False)
    pytest.skip(reason)


def shared_path(*parts: str) -> Path:
    """A file or folder of ../shared (``GAZALA_SHARED``), or :func:`missing` when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        where = "/".join(parts) or "the folder itself"
        missing(f"../shared is absent or incomplete: {where} not found under {SHARED} (set GAZALA_SHARED)")
    return path


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return shared_path()


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return shared_path("corpus")


# --- the real VASSAL engine as a test oracle (marker `vassal`; docs/vassal-engine.md) -------------
# The engine is VASSAL 3.7.26 from the shared folder (SHARED/vassal/3.7.26/). Tests marked
# @pytest.mark.vassal skip, naming exactly what to install, when Java, Xvfb, the Debian jars or the
# engine jar are missing; in CI (CI=true or GAZALA_REQUIRE_VASSAL=1) that is a failure instead.

_ENGINE_STATUS: tuple[bool, str] | None = None


def _engine_status() -> tuple[bool, str]:
    global _ENGINE_STATUS
    if _ENGINE_STATUS is None:
        from tools.vassal_oracle.engine import Engine

        _ENGINE_STATUS = Engine().available()
    return _ENGINE_STATUS


def _engine_unavailable(reason: str) -> None:
    missing(reason)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("vassal") is not None:
        ok, reason = _engine_status()
        if not ok:
            _engine_unavailable(reason)


@pytest.fixture(scope="session")
def vassal_engine():  # type: ignore[no-untyped-def]
    """One :class:`tools.vassal_oracle.engine.Engine` (and one private Xvfb) per test session."""
    from tools.vassal_oracle.engine import Engine

    engine = Engine()
    ok, reason = engine.available()
    if not ok:
        _engine_unavailable(reason)
    yield engine
    engine.close()


def worker_cache(folder: Path) -> Path:
    """``folder``, or its own subfolder per pytest-xdist worker (``gw0``, ``gw1``...): what a test
    session writes into a fixed place must not be written by two workers at once."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return folder / worker if worker else folder


@pytest.fixture(scope="session")
def vassal_harness():  # type: ignore[no-untyped-def]
    """The shared folder's engine harness (:class:`tools.vassal_oracle.harness.Harness`): set-ups and
    logs played by VASSAL 3.7.26; its classes are compiled into .cache/vassal/harness (one folder per
    xdist worker: run.sh deletes and recompiles them in place). Each run has its own Xvfb display
    (``xvfb-run -a``), VASSAL.conf, temp folder and home; the engine fixture's Xvfb picks a free
    display itself (``-displayfd``), so workers never share one."""
    from tools.vassal_oracle.engine import CACHE
    from tools.vassal_oracle.harness import Harness

    harness = Harness(classes=worker_cache(CACHE / "harness"))
    ok, reason = harness.available()
    if not ok:
        _engine_unavailable(reason)
    return harness
