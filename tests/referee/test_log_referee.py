"""``gazala referee log``: every move of a VASSAL log, on logs VASSAL 3.7.26 wrote (stored copies, written
again by ``python -m tools.make_referee_logs``; ``test_log_engine.py`` makes them again with the engine). Each illegal move is found at its step
with its rule section; legal logs have no movement findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gazala_tools.cli import main as gazala
from gazala_tools.referee.findings import Severity
from gazala_tools.referee.logcheck import READ_CHITS, READ_WHOLE, LogReport, check_log
from gazala_tools.vassal.buildfile import read_layouts
from tests.referee.logmoves import EXPECT, LEGAL_WITH_WARNINGS, LOGS


def found(rep: LogReport) -> set[tuple[int, str, str, str]]:
    return {(f.step, f.kind, f.finding.rule, f.unit) for f in rep.findings}


@pytest.mark.parametrize("name", sorted(LOGS))
def test_each_illegal_move_is_found_at_its_step_and_legal_logs_have_none(name: str, log_dir: Path) -> None:
    rep, _ = check_log(log_dir / f"{name}.vlog")
    assert rep.steps == len(LOGS[name][1])
    want = EXPECT.get(name, set())
    assert want <= found(rep), sorted(found(rep))
    moves_flagged = {(s, u) for s, k, _r, u in found(rep) if k == "move"}
    assert moves_flagged == {(s, u) for s, k, _r, u in want if k == "move"}
    if not want:
        assert rep.legal and rep.findings == []
    if name in LEGAL_WITH_WARNINGS:
        assert rep.legal and {f.finding.severity for f in rep.findings} == {Severity.WARNING}


@pytest.mark.parametrize(("log", "step", "route", "mp", "why"), [
    ("rg-detours", 1, "1421-1520-1521", "4", "moves from one enemy ZOC hex directly to another (1421 to 1521), 9.0"),
    ("rg-detours", 2, "0806-0905-0906-0807", "3", "crosses an escarpment off a road (0806 to 0807), 8.0"),
    ("dg-detour", 1, "0132-0232-0233", "2", "crosses an escarpment hexside off a trail or road (0132 to 0233), 16.0"),
])
def test_a_detour_is_warned_with_its_route_and_the_rule_the_direct_route_breaks(
        log_dir: Path, log: str, step: int, route: str, mp: str, why: str) -> None:
    # RG 9.0 / RG 8.0 / DG 16.0: the drag ends one hex away, but only a longer route is legal
    rep, _ = check_log(log_dir / f"{log}.vlog")
    f = next(f for f in rep.findings if f.step == step)
    assert f.finding.severity is Severity.WARNING
    assert f"is legal only by {route}, {mp} MP: the direct route {why}" in f.finding.message
    m = next(m for m in rep.moves if m.step == step)
    assert "-".join(m.path) == route and m.direct == (m.path[0], m.path[-1])


def test_paths_direct_judges_each_drag_as_the_direct_route(log_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a group who moves hex by hex: the same drags are errors
    rep, _ = check_log(log_dir / "rg-detours.vlog", paths="direct")
    assert not rep.legal
    assert {(f.step, f.finding.rule, f.finding.severity) for f in rep.move_findings()} == {
        (1, "9.0", Severity.ERROR), (2, "8.0", Severity.ERROR)}
    assert [m.path for m in rep.moves] == [("1421", "1521"), ("0806", "0807")]
    assert gazala(["referee", "log", str(log_dir / "dg-detour.vlog"), "--paths", "direct"]) == 1
    assert "step 1: axis-cr-15-sch-2 0132 -> 0233: [16.0] error" in capsys.readouterr().out
    assert gazala(["referee", "log", str(log_dir / "dg-detour.vlog")]) == 0


def test_rg_9_0_zoc_to_zoc_names_the_hexes_of_the_step(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "rg-illegal.vlog")
    f = next(f for f in rep.findings if f.finding.rule == "9.0")
    assert (f.from_hex, f.to_hex) == ("1422", "1319")
    assert f.finding.hexes == ("1220", "1319") and "from one enemy ZOC hex directly to another" in f.finding.message


def test_rg_8_0_escarpment_is_crossed_only_along_a_road_and_the_detour_is_too_long(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "rg-illegal.vlog")
    f = next(f for f in rep.findings if f.finding.rule == "8.0")
    assert "escarpment off a road" in f.finding.message and "within its 6 movement points left" in f.finding.message


def test_rg_phases_are_read_from_the_action_chits_drawn(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "rg-illegal.vlog")
    assert rep.reading == f"{READ_CHITS} mark the phases"
    assert [(p.first_step, p.last_step, p.started_by) for p in rep.phases] == [
        (1, 1, "log start"), (2, 9, "chit 22 Arm (Allied action)"), (10, 10, "chit 150 Inf (Allied action)")]
    # 10.0 stacking is judged at the end of the action phase, once
    assert [f.step for f in rep.findings if f.finding.rule == "10.0"] == [9]


def test_rg_movement_points_start_again_in_each_action_phase(log_dir: Path) -> None:
    # step 1 spends 5 of 6 points; the 22 Arm chit starts a new phase, so step 3 has 6 again
    rep, _ = check_log(log_dir / "rg-illegal.vlog")
    assert "within its 6 movement points left" in next(f.finding.message for f in rep.findings if f.step == 3)


def test_bg_a_log_without_turn_or_chits_is_one_movement_phase(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "bg-illegal.vlog")
    assert rep.reading == READ_WHOLE and len(rep.phases) == 1


def test_bg_4_0_costs_from_the_terrain_chart(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "bg-illegal.vlog")
    msgs = {f.step: f.finding.message for f in rep.findings if f.kind == "move" and f.finding.rule == "4.0"}
    assert "impassable sea" in msgs[3]
    # step 4: K09 to J04 costs the 1st Army Tank Brigade all its 10 points, through minefield hexes
    # that cost an Allied unit no extra point (9.1: "Unidades do Eixo ... pagam 1 ponto a mais")
    assert 4 not in msgs
    assert "sea inlet" in msgs[5]
    assert "0 of its 10" in msgs[8]  # its points were spent at step 4
    legal, _ = check_log(log_dir / "bg-legal.vlog")
    paths = {m.unit: m.path for m in legal.moves}
    assert paths["allied-50-150"][0] == "J10" and paths["allied-50-150"][-1] == "C09"


def test_bg_4_1_2_a_unit_stops_on_entering_an_engagement_zone(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "bg-illegal.vlog")
    f = next(f for f in rep.findings if f.finding.rule == "4.1.2")
    assert f.step == 2 and "after entering an enemy engagement zone" in f.finding.message


def test_position_checks_can_be_left_out(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "rg-illegal.vlog", position_checks=False)
    assert {f.kind for f in rep.findings} == {"move"}


def test_cli_text_json_and_exit_status(log_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gazala(["referee", "log", str(log_dir / "bg-legal.vlog")]) == 0
    assert "no findings: every move is legal" in capsys.readouterr().out
    assert gazala(["referee", "log", str(log_dir / "rg-legal.vlog")]) == 0
    assert "no error: every move is legal (see the warnings)" in capsys.readouterr().out
    assert gazala(["referee", "log", str(log_dir / "rg-illegal.vlog"), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is False and data["steps"] == 10
    f = next(f for f in data["findings"] if f["rule"] == "14.0")
    assert (f["step"], f["unit"], f["from"], f["to"], f["kind"]) == (5, "axis-trieste-65-1", "0517", "0815", "move")
    assert data["moves"][0] == {"step": 1, "unit": "allied-201gd-2-sg", "side": "allied", "from": "1504", "to": "2304",
                                "path": data["moves"][0]["path"], "phase": 1}


def test_cli_refuses_a_save_and_png(log_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "x.vsav"
    save.write_bytes((log_dir / "rg-legal.vlog").read_bytes())
    assert gazala(["referee", "log", str(save)]) == 2
    assert "not a VASSAL log" in capsys.readouterr().err
    assert gazala(["referee", "log", str(log_dir / "rg-legal.vlog"), "--format", "png"]) == 2


def test_mapping_works_for_logs(log_dir: Path, tmp_path: Path) -> None:
    mapping = tmp_path / "map.yaml"
    mapping.write_text('units:\n  - {match: "^5 GH \\\\(150", id: allied-150inf-5-gh}\n'
                       '  - {match: "^4 GH \\\\(150", id: allied-150inf-4-gh}\n', encoding="utf-8")
    rep, replay = check_log(log_dir / "rg-illegal.vlog", mapping=mapping, game="gazala-rg")
    assert {u.id for u in replay.units.values()} == {"allied-150inf-5-gh", "allied-150inf-4-gh"}
    assert {(f.step, f.finding.rule) for f in rep.move_findings()} == {(6, "8.1"), (6, "7.0")}


def test_with_the_module_locations_are_the_same(log_dir: Path, tmp_path: Path) -> None:
    vmod = tmp_path / "rg.vmod"
    assert gazala(["module", "build", "gazala-rg", "-o", str(vmod)]) == 0
    a, _ = check_log(log_dir / "rg-illegal.vlog")
    b, _ = check_log(log_dir / "rg-illegal.vlog", module=vmod, read_layouts=read_layouts)
    assert found(a) == found(b) and [m.to_dict() for m in a.moves] == [m.to_dict() for m in b.moves]


@pytest.mark.browser
def test_html_report_steps_beside_the_board_in_headless_chromium(log_dir: Path, tmp_path: Path) -> None:
    import shutil
    import subprocess

    from PIL import Image

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("chromium not installed (scripts/apt-packages.txt lists it; run scripts/setup)")
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(log_dir / "rg-illegal.vlog"), "--format", "html", "--dpi", "40",
                   "-o", str(page)]) == 1
    base = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={tmp_path / 'p'}"]
    shot = tmp_path / "shot.png"
    subprocess.run([*base, f"--screenshot={shot}", "--window-size=1400,1000", page.as_uri() + "#step-4"],
                   check=True, capture_output=True, timeout=120)
    img = Image.open(shot).convert("RGB")
    rgb = img.tobytes()
    red = sum(1 for i in range(0, len(rgb), 3) if abs(rgb[i] - 220) < 15 and rgb[i + 1] < 40 and rgb[i + 2] < 40)
    assert red > 50  # the illegal moves' paths
    dom = subprocess.run([*base, "--dump-dom", page.as_uri() + "#step-4"], check=True, capture_output=True,
                         timeout=120, text=True).stdout
    assert 'id="verdict">ILLEGAL' in dom
    assert dom.count('class="move') == 8  # every move drawn
    assert 'id="step-4" data-step="4" class="step bad selected"' in dom or 'class="step bad selected"' in dom
    assert 'href="#step-5">[14.0]' in dom  # the finding links to its step


def test_watch_checks_every_move_of_a_log(log_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    inbox, out = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    out.mkdir()
    shutil.copy(log_dir / "bg-illegal.vlog", inbox / "turn3.vlog")
    assert gazala(["referee", "watch", str(inbox), "--once", "--out-dir", str(out), "--format", "html"]) == 0
    text = capsys.readouterr().out
    assert f"== {inbox / 'turn3.vlog'}" in text and "step 2: allied-50-150 C09 -> D09: [4.1.2]" in text
    assert 'id="verdict">ILLEGAL' in (out / "turn3.vlog.html").read_text(encoding="utf-8")


def test_the_turn_tracker_ends_a_phase_and_7_0_counts_per_turn(log_dir: Path) -> None:
    # VASSAL logs each press of the tracker's "+" as a Step of its own (its report and the new state):
    # pressed on to May 27 PM and May 28, then the 150 Inf chit is drawn: no 7.0 finding (May 27 only)
    rep, _ = check_log(log_dir / "rg-two-turns.vlog")
    assert rep.steps == 12
    assert "the Turn Tracker" in rep.reading and "action chits drawn" in rep.reading
    assert [(p.first_step, p.turn, p.started_by) for p in rep.phases] == [
        (1, "May 27 AM", "log start"), (2, "May 27 AM", "chit 22 Arm (Allied action)"),
        (10, "May 27 PM", "turn May 27 PM"), (11, "May 28", "turn May 28"),
        (12, "May 28", "chit 150 Inf (Allied action)")]
    assert "7.0" not in {f.finding.rule for f in rep.findings if f.kind == "position"}
    same = check_log(log_dir / "rg-illegal.vlog")[0]
    assert {(f.step, f.finding.rule) for f in same.move_findings()} == {(f.step, f.finding.rule)
                                                                       for f in rep.move_findings()}


def test_dg_17_0_rommels_feint_is_judged_for_every_move_on_the_start_of_the_allied_movement(log_dir: Path) -> None:
    # 17.0: on game turn 1 no Allied unit may move unless adjacent to an Axis unit. 7 Mot is beside
    # 15 Pz's 8-1 once it has moved (step 1): judged where the Allied movement starts, after it
    rep, _ = check_log(log_dir / "dg-feint.vlog")
    got = {(f.step, f.unit): f.finding.message for f in rep.findings if f.finding.rule == "17.0"}
    assert set(got) == {(3, "allied-1sa-1"), (4, "allied-1sa-2")}
    assert "not adjacent to an Axis unit" in got[(3, "allied-1sa-1")]
    assert [m.to_box for m in rep.moves if m.step == 4] == ["turn-record"]  # 17.0 also when it leaves the map


def test_spi_17_0_command_control_turn_1_within_three_hexes(log_dir: Path) -> None:
    rep, _ = check_log(log_dir / "spi-command.vlog")
    assert [(f.step, f.unit, f.finding.rule) for f in rep.findings] == [(2, "allied-1sa-1", "17.0")]
    assert "not within 3 hexes of an Axis unit" in rep.findings[0].finding.message
    legal, _ = check_log(log_dir / "spi-legal.vlog")
    assert legal.legal and legal.findings == []


def test_rg_7_0_barred_formations_are_found_with_or_without_chits(log_dir: Path) -> None:
    # 7.0: "On May 27 AM and May 27 PM no Allied units of the 9 Indian, 69 Infantry, 150 Infantry, 201
    # Guards, or 1 Free Fr. brigades may be activated. No Axis units of the Pavia and Trieste divisions"
    rep, _ = check_log(log_dir / "rg-illegal.vlog")
    barred = {(f.step, f.unit) for f in rep.move_findings() if f.finding.rule == "7.0"}
    assert barred == {(1, "allied-201gd-2-sg"), (3, "allied-201gd-2-sg"), (5, "axis-trieste-65-1"),
                      (6, "allied-150inf-5-gh"), (7, "axis-pavia-27")}
    assert rep.unchecked == []  # the log shows the chits drawn


def test_rg_7_0_every_moving_unit_is_activated_by_the_chit_or_an_extra_move(log_dir: Path) -> None:
    # 22 Arm's chit: its units move; 13.2 an Extra Move drawn before it activates 8 RTR of 1 ATB; then
    # 11 Cav of 3 Ind is not accounted for (the chit's own units moved, so it did not activate one
    # unit of another formation instead)
    rep, _ = check_log(log_dir / "rg-activations.vlog")
    got = {(f.step, f.unit): f.finding.message for f in rep.move_findings() if f.finding.rule == "7.0"}
    assert set(got) == {(5, "allied-3ind-11-cav"), (6, "allied-9ind-3-12-fr")}
    assert "moves in the 22 Arm action but was not activated" in got[(5, "allied-3ind-11-cav")]
    assert "may be activated then" in got[(6, "allied-9ind-3-12-fr")]


def test_rg_7_0_is_listed_unchecked_when_the_log_shows_no_chit(log_dir: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    rep, _ = check_log(log_dir / "rg-detours.vlog")
    assert [u.split(":")[0] for u in rep.unchecked] == ["7.0"]
    gazala(["referee", "log", str(log_dir / "rg-detours.vlog")])
    assert "unchecked: 7.0: the log shows no action chit drawn" in capsys.readouterr().out


def test_a_log_over_two_turns_is_judged_phase_by_phase(log_dir: Path) -> None:
    # DG 17.0 binds game turn 1 only: the tracker moved on (step 3) before 1 SA's moves, they are legal
    rep, _ = check_log(log_dir / "dg-feint-turn-2.vlog")
    assert rep.steps == 5 and "the Turn Tracker" in rep.reading
    assert [(p.first_step, p.last_step, p.turn) for p in rep.phases] == [(1, 2, "1"), (3, 5, "2")]
    assert "17.0" not in {f.finding.rule for f in rep.findings}
    assert {f.finding.rule for f in check_log(log_dir / "dg-feint.vlog")[0].findings} == {"17.0"}


def test_movement_points_start_again_when_the_turn_tracker_moves(log_dir: Path) -> None:
    # BG: 1 ATB spent its 10 points at step 4; on the next turn (the tracker moved on at step 8) it has 10 again
    same, _ = check_log(log_dir / "bg-illegal.vlog")
    assert (8, "4.0") in {(f.step, f.finding.rule) for f in same.move_findings()}
    rep, _ = check_log(log_dir / "bg-two-turns.vlog")
    assert len(rep.phases) == 2 and rep.phases[1].first_step == 8
    msgs = {f.step: f.finding.message for f in rep.move_findings() if f.finding.rule == "4.0"}
    assert "more than the 10 of its 10 it has left this phase" in msgs[9]  # was "0 of its 10" in one turn
    assert "0 of its 10" in next(f.finding.message for f in same.move_findings() if f.step == 8)


def test_html_draws_the_direct_route_beside_the_dashed_route_assumed(log_dir: Path, tmp_path: Path) -> None:
    page = tmp_path / "d.html"
    assert gazala(["referee", "log", str(log_dir / "rg-detours.vlog"), "--format", "html", "--dpi", "20",
                   "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count('<polyline class="direct"') == 2
    assert html.count('class="move detour"') == 2 and 'stroke-dasharray="6 4"' in html
    assert "direct route 1421 1521 (breaks a rule)" in html and "(a detour: the direct route 0806 0807" in html
