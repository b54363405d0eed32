"""Issue 35 item 4: the log report is a step-through replay (docs/pbem.md, "The replay"): one self-contained
page, one script (allowed by its hash), the replay's data a hidden element's escaped text; in headless
Chromium every step draws and no Content-Security-Policy violation is reported, for a built-in game, an own
game folder and an imported module."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.cli import main as gazala
from tools.fuzz.hostile import hostile_log, injected, payload

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--enable-logging=stderr", "--v=0"]


def replay_data(page: str) -> dict[str, Any]:
    m = re.search(r'<div id="replay-data" hidden>(.*?)</div>', page, re.S)
    assert m is not None
    got: dict[str, Any] = json.loads(html.unescape(m.group(1)))
    return got


def test_the_replay_holds_every_step_move_and_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(LOGS / "rg-illegal.vlog"), "--format", "html", "--dpi", "20",
                   "-o", str(page)]) == 1
    capsys.readouterr()
    assert gazala(["referee", "log", str(LOGS / "rg-illegal.vlog"), "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    text = page.read_text(encoding="utf-8")
    data = replay_data(text)
    assert len(data["steps"]) == rep["steps"]
    moves = [(n + 1, m[0], m[1][-1]) for n, s in enumerate(data["steps"]) for m in s["moves"]]
    # a move off the board (to a box) ends on no hex: the piece leaves the board
    assert moves == [(m["step"], m["unit"], m["to"] if m["to"] in data["centres"] else "") for m in rep["moves"]]
    assert sum(len(s["findings"]) for s in data["steps"]) == len(rep["findings"])
    for m in rep["moves"]:  # every hex a move passes has its point on the board
        assert set(m["path"]) <= set(data["centres"])
    assert text.count("<script") == 1 and 'id="replay-slider"' in text and 'id="replay-prev"' in text


def test_hostile_names_stay_text_in_the_replay(tmp_path: Path) -> None:
    log, page = tmp_path / "hostile.vlog", tmp_path / "log.html"
    log.write_bytes(hostile_log(LOGS / "rg-illegal.vlog", payload()))
    assert gazala(["referee", "log", str(log), "--format", "html", "--dpi", "20", "-o", str(page)]) == 1
    text = page.read_text(encoding="utf-8")
    assert injected(text) == []
    assert replay_data(text)["steps"]  # the data still reads back


@pytest.fixture(scope="module")
def ragnarok_folder(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rg") / "ragnarok"
    assert gazala(["game", "import", str(corpus_dir / "hex-n-counters-template" / "ragnarok"), str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def ragnarok_log(corpus_dir: Path, vassal_harness: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log the engine writes for Ragnarok (zipped in a temporary folder: the corpus is read in place)."""
    import zipfile

    src = corpus_dir / "hex-n-counters-template" / "ragnarok"
    base = tmp_path_factory.mktemp("rglog")
    vmod = base / "ragnarok.vmod"
    with zipfile.ZipFile(vmod, "w") as z:
        for f in sorted(src.rglob("*")):
            if f.is_file():
                z.write(f, f.relative_to(src).as_posix())
    log = base / "moves.vlog"
    vassal_harness.log_moves(vmod, "At Start", log, [
        {"piece": "hero-odin", "map": "Main Map", "to": "0505"}, {"piece": "hero-loki", "map": "Main Map", "to": "0506"},
        {"piece": "hero-odin", "map": "Main Map", "to": "0707"}, {"piece": "hero-loki", "map": "Main Map", "to": "0707"}])
    return log


def _chromium() -> str:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("chromium not installed (scripts/apt-packages.txt lists it; run scripts/setup)")
    return browser


def self_test(page: Path, profile: Path) -> tuple[str, str]:
    """The page opened with ``#replay-selftest``: its result line, and the console's CSP messages."""
    run = subprocess.run([_chromium(), *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                          page.as_uri() + "#replay-selftest"], check=True, capture_output=True, timeout=180, text=True)
    m = re.search(r'<output id="replay-result">([^<]*)</output>', run.stdout)
    assert m is not None
    csp = "\n".join(line for line in run.stderr.splitlines() if "Content Security Policy" in line)
    return m.group(1), csp


@pytest.mark.browser
@pytest.mark.parametrize("log", ["rg-illegal.vlog", "bg-two-turns.vlog", "dg-feint.vlog"])
def test_every_step_draws_with_no_csp_violation(log: str, tmp_path: Path) -> None:
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(LOGS / log), "--format", "html", "--dpi", "20", "-o", str(page)]) in (0, 1)
    steps = len(replay_data(page.read_text(encoding="utf-8"))["steps"])
    result, csp = self_test(page, tmp_path / "p")
    assert (result, csp) == (f"ok {steps + 1} steps drawn", "")


@pytest.mark.browser
def test_the_self_test_fails_on_a_page_that_breaks_the_policy(tmp_path: Path) -> None:
    """The test can fail: an inline style forced into the page is a violation the console reports."""
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(LOGS / "rg-illegal.vlog"), "--format", "html", "--dpi", "20",
                   "-o", str(page)]) == 1
    forced = tmp_path / "forced.html"
    forced.write_text(page.read_text(encoding="utf-8").replace("<h1>", '<h1 style="color: red">', 1), encoding="utf-8")
    _result, csp = self_test(forced, tmp_path / "p")
    assert "style-src" in csp


@pytest.mark.browser
@pytest.mark.vassal
def test_an_imported_modules_log_replays_on_its_own_art(ragnarok_folder: Path, ragnarok_log: Path,
                                                        tmp_path: Path) -> None:
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(ragnarok_log), "--game", str(ragnarok_folder), "--format", "html",
                   "-o", str(page)]) == 1
    text = page.read_text(encoding="utf-8")
    data = replay_data(text)
    assert data["units"]["hero-odin-195"]["face"] and data["units"]["hero-loki-227"]["face"]  # the module's images
    odin = [m[1] for s in data["steps"] for m in s["moves"] if m[0] == "hero-odin-195"]
    assert odin[-1][0] == "0505" and odin[-1][-1] == "0707" and len(odin[-1]) > 2  # walked hex by hex
    result, csp = self_test(page, tmp_path / "p")
    assert (result, csp) == (f"ok {len(data['steps']) + 1} steps drawn", "")


@pytest.mark.browser
@pytest.mark.vassal
def test_an_own_game_folders_log_replays(vassal_harness: Any, tmp_path: Path) -> None:
    """River War (a game folder of data only): its module built, a log written by the engine, replayed."""
    folder = Path(__file__).resolve().parents[1] / "games" / "river-war"
    vmod = tmp_path / "rw.vmod"
    assert gazala(["module", "build", str(folder), "-o", str(vmod)]) == 0
    setup = vassal_harness.setups(vmod)[0]["name"]
    log = tmp_path / "rw.vlog"
    vassal_harness.log_moves(vmod, setup, log, [{"piece": "red-inf-1", "dx": 0, "dy": 60},
                                                {"piece": "blue-inf-1", "dx": 0, "dy": -60}])
    page = tmp_path / "rw.html"
    assert gazala(["referee", "log", str(log), "--game", str(folder), "--format", "html", "-o", str(page)]) in (0, 1)
    data = replay_data(page.read_text(encoding="utf-8"))
    assert len(data["steps"]) == 2 and data["faces"]
    result, csp = self_test(page, tmp_path / "p")
    assert (result, csp) == ("ok 3 steps drawn", "")
