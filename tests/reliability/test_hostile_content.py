"""Issue 21 item 4: hostile text in a game folder and hostile output targets end in one clean line (exit 2).

Each test fails on the code before issue 21: designations with control characters reached lxml and the
text layout (exit 3), output errors (read-only folder, full disk, a name too long) escaped as OSError.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import Run

RIVER_WAR = Path(__file__).parents[1] / "games" / "river-war"


def _river_war(tmp_path: Path, designation: str) -> Path:
    folder = tmp_path / "rw"
    shutil.copytree(RIVER_WAR, folder)
    counters = folder / "counters.yaml"
    text = counters.read_text()
    assert 'designation: "1/1"' in text
    counters.write_text(text.replace('designation: "1/1"', f'designation: "{designation}"', 1))
    return folder


# designations as written in counters.yaml (YAML double-quoted escapes) and what the error says
HOSTILE_DESIGNATIONS = [
    ("A\\e[31mB", "an ESC (U+001B)"),
    ("A\\0B", "a NUL (U+0000)"),
    ("A\\x07B", "a control character (U+0007)"),
    ("A\\nB", "a line break (U+000A)"),
    ("A\\rB", "a carriage return (U+000D)"),
    ("A\\tB", "a tab (U+0009)"),
    ("A\\x85B", "a control character (U+0085)"),
    ("AB\\\\", "ends with a backslash"),
]


@pytest.mark.parametrize(("designation", "says"), HOSTILE_DESIGNATIONS)
@pytest.mark.parametrize("command", [["counters", "sheet"], ["counters", "contact"], ["module", "build"]])
def test_designation_with_a_control_character_is_refused_at_load(
        tmp_path: Path, run: Run, designation: str, says: str, command: list[str]) -> None:
    folder = _river_war(tmp_path, designation)
    out = tmp_path / "out.bin"
    code, _out, err = run(*command, folder, "-o", out)
    assert code == 2, err
    line = err.strip()
    assert "\n" not in line and "\x1b" not in line and "\x00" not in line
    # file:line:col of the designation's value in counters.yaml
    assert f"{folder / 'counters.yaml'}:14:75: designation" in line
    assert says in line
    assert not out.exists()


def test_designation_with_other_printable_unicode_still_builds(tmp_path: Path, run: Run) -> None:
    folder = _river_war(tmp_path, "1/1 \\u2028 Ä \\\\ x")
    code, _out, err = run("module", "build", folder, "-o", tmp_path / "m.vmod")
    assert code == 0, err
