"""What the imported-module referee tests read of a ``referee check --json`` report (hex and square
grids alike): the report itself, and the positions table's rows by label."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main


def check_json(save: Path, folder: Path, capsys: pytest.CaptureFixture[str], code: int) -> dict[str, Any]:
    """``referee check SAVE --game FOLDER --json``, which must exit ``code``; its report."""
    capsys.readouterr()
    assert main(["referee", "check", str(save), "--game", str(folder), "--json"]) == code
    got: dict[str, Any] = json.loads(capsys.readouterr().out)
    return got


def rows_of(rep: dict[str, Any]) -> dict[str, str]:
    """The positions table's rows (rule ``positions``), by the label each starts with; boxes left out."""
    return {f["message"].split(":")[0]: f["message"] for f in rep["findings"]
            if f["rule"] == "positions" and not f["message"].startswith("in ")}
