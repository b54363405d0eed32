"""What the ``gazala`` command prints reads right (issue 23 item 6): counts in the right number, a
module description naming only what the module holds, one ``error:`` prefix, no progress bar in a log,
and one HTML report per scenario that says which scenario and turn it checked."""

from __future__ import annotations

import io
import sys
import tomllib
from pathlib import Path

import pytest

from gazala_tools.cli import main
from gazala_tools.cli.counters import _progress
from gazala_tools.referee.logcheck import LogReport, Phase, render_text
from gazala_tools.vassal.module.games import default_description
from gazala_tools.vassal.module.spec import CHIT, UNIT, PieceSpec
from gazala_tools.wording import count

ROOT = Path(__file__).resolve().parents[2]


def test_a_count_of_one_takes_the_singular() -> None:
    assert (count(0, "set-up"), count(1, "set-up"), count(2, "phase")) == ("0 set-ups", "1 set-up", "2 phases")
    assert count(3, "box", "boxes") == "3 boxes"


def test_a_log_of_one_phase_says_1_phase() -> None:
    rep = LogReport(source="a.vlog", game="gazala-rg", steps=1, reading="whole",
                    phases=[Phase(1, 1, 1, None, "log start")])
    first = render_text(rep).splitlines()[0]
    assert first.endswith("1 step, 0 moves, 1 phase"), first


def _piece(pid: str, kind: str) -> PieceSpec:
    return PieceSpec(pid, pid, kind, "axis", "", "inf", ("a.png",))


def test_the_default_module_description_lists_only_what_the_module_has() -> None:
    text = default_description("River War", [_piece("u1", UNIT), _piece("u2", UNIT)], [])
    assert text == "River War: board, 2 units (gazala-tools)"
    assert "markers" not in text and "chits" not in text and "set-up" not in text
    assert default_description("G", [_piece("u", UNIT), _piece("c", CHIT)], []) == "G: board, 1 unit, 1 chit (gazala-tools)"


def test_a_usage_error_names_the_command_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "show", "gazala-rg", "--no-such-option"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gazala: error: unrecognized arguments: --no-such-option") and err.count("gazala:") == 1


def test_no_progress_bar_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    with _progress(10, "faces", disabled=False) as bar:
        assert bar.disable
        bar.update(10)
    assert log.getvalue() == ""


def test_the_project_license_is_an_spdx_expression() -> None:
    """setuptools deprecates ``license = {text = ...}`` (PEP 639): a plain SPDX string, and a setuptools
    that reads one."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["license"] == "MIT"
    assert "setuptools>=77" in meta["build-system"]["requires"]


def test_the_main_job_writes_one_report_per_scenario_naming_it(tmp_path: Path) -> None:
    """``scripts/run``: RG's two scenarios set up alike (RG 17.0), yet each report says which one it checked."""
    from gazala_tools.mainjob import _run_steps, referee_setups

    assert main(["module", "build", "gazala-rg", "-o", str(tmp_path / "gazala-rg.vmod")]) == 0
    assert _run_steps(referee_setups("gazala-rg", tmp_path)) in (0, 1)
    reports = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("referee-*.html")}
    assert sorted(reports) == ["referee-campaign-game-may-27-am-june-13-14.html",
                               "referee-scenario-one-may-27-am-june-1-2.html"]
    one, campaign = reports["referee-scenario-one-may-27-am-june-1-2.html"], reports[
        "referee-campaign-game-may-27-am-june-13-14.html"]
    assert one != campaign
    assert '<span id="scenario">Scenario One (May 27 AM - June 1-2)</span>' in one and "Campaign" not in one
    assert '<span id="scenario">Campaign Game (May 27 AM - June 13-14)</span>' in campaign
    for html in (one, campaign):
        assert "turn May 27 AM" in html
