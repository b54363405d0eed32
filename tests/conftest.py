"""Shared test fixtures. Area-specific fixtures live in tests/<area>/conftest.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("GAZALA_SHARED", ROOT.parent / "shared")).resolve()
CORPUS = SHARED / "corpus"
SEEDS = SHARED / "seeds"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"../shared not found at {SHARED} (set GAZALA_SHARED)")
    return SHARED


@pytest.fixture(scope="session")
def corpus_dir(shared_dir: Path) -> Path:
    return shared_dir / "corpus"


# --- the real VASSAL engine as a test oracle (marker `vassal`; docs/vassal-engine.md) -------------
# The engine is VASSAL 3.7.26 from the shared folder (SHARED/vassal/3.7.26/). Tests marked
# @pytest.mark.vassal skip, naming exactly what to install, when Java, Xvfb, the Debian jars or the
# engine jar are missing. Set GAZALA_REQUIRE_VASSAL=1 (CI) to make that a failure instead of a skip.

_ENGINE_STATUS: tuple[bool, str] | None = None


def _engine_status() -> tuple[bool, str]:
    global _ENGINE_STATUS
    if _ENGINE_STATUS is None:
        from tools.vassal_oracle.engine import Engine

        _ENGINE_STATUS = Engine().available()
    return _ENGINE_STATUS


def _engine_unavailable(reason: str) -> None:
    if os.environ.get("GAZALA_REQUIRE_VASSAL", "") not in ("", "0"):
        pytest.fail(reason + " (GAZALA_REQUIRE_VASSAL is set)")
    pytest.skip(reason)


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


@pytest.fixture(scope="session")
def vassal_harness():  # type: ignore[no-untyped-def]
    """The shared folder's engine harness (:class:`tools.vassal_oracle.harness.Harness`): set-ups and
    logs played by VASSAL 3.7.26; its classes are compiled into .cache/vassal/harness."""
    from tools.vassal_oracle.harness import Harness

    harness = Harness()
    ok, reason = harness.available()
    if not ok:
        _engine_unavailable(reason)
    return harness
