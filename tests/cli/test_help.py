"""``gazala help [TOPIC]`` prints the user documentation, and no help text cites a file the user of a
wheel does not have (issue 23 item 4; the wheel itself: tests/packaging/test_wheel.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gazala_tools.cli import build_parser, main
from gazala_tools.mainjob import _choices

ROOT = Path(__file__).resolve().parents[2]


def test_help_prints_a_topic_as_the_docs_say_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help", "referee"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")


def test_help_without_a_topic_lists_every_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help"]) == 0
    out = capsys.readouterr().out
    for page in (ROOT / "docs").glob("*.md"):
        assert f"  {page.stem} " in out


def test_an_unknown_topic_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help", "no-such-topic"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "referee" in err


def _texts(parser: object) -> list[str]:
    out = [str(getattr(parser, "description", "") or "")]
    for action in getattr(parser, "_actions", []):
        out.append(str(action.help or ""))
    for sub in _choices(parser).values():  # type: ignore[arg-type]
        out += _texts(sub)
    return out


def test_no_help_text_cites_a_docs_file() -> None:
    cited = [t for t in _texts(build_parser()) if re.search(r"docs/[\w-]+\.md", t)]
    assert not cited
