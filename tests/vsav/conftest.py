"""Fixtures for the save reader/writer tests: the real corpus files and generated saves."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.saves import sample_commands

#: every (style, log steps) the generated corpus covers
STYLES = [("3.7", 0), ("3.6", 0), ("3.2", 0), ("3.7", 16), ("3.6", 9)]


@pytest.fixture(scope="session")
def ragnarok_save(corpus_dir: Path) -> Path:
    return corpus_dir / "hex-n-counters-template" / "ragnarok" / "ragnarok-start.vsav"


@pytest.fixture(scope="session")
def ragnarok_buildfile(corpus_dir: Path) -> Path:
    return corpus_dir / "hex-n-counters-template" / "ragnarok" / "buildFile.xml"


@pytest.fixture(scope="session")
def template_vmod(corpus_dir: Path) -> Path:
    return corpus_dir / "hex-n-counters-template" / "jzhex-n-counters-template-v12-379.vmod"


@pytest.fixture(scope="session")
def generated_texts() -> dict[str, str]:
    return {f"{style}-log{steps}": sample_commands(40, style=style, log_steps=steps) for style, steps in STYLES}
