"""Fixtures of the log referee tests (issue 14): the engine-written logs and their expectations."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

LOG_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "logs"


@pytest.fixture(scope="session")
def log_dir() -> Path:
    """Logs VASSAL 3.7.26 wrote through the shared harness (``logmoves.LOGS``), stored for runs without Java."""
    return LOG_DIR
