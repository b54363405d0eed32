"""Hostile-input helpers: run the CLI in-process and get (exit status, stdout, stderr)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gazala_tools.cli import main

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def _run(*argv: str) -> tuple[int, str, str]:
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    return _run
