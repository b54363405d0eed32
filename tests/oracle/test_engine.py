"""The engine harness itself: it loads modules, finds what the engine ignores, reads and writes saves.

Tests marked ``vassal`` run the real VASSAL 3.7.26 engine (Java + Xvfb, one JVM per call).
"""

from __future__ import annotations

import fcntl
import random
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gazala_tools.vassal.buildfile import read_layouts
from tools.vassal_oracle import engine as engine_module
from tools.vassal_oracle.engine import (
    ENGINE_VERSION,
    Engine,
    EngineError,
    is_routine,
    manifest_class_path,
    problems,
)

Fixture = Callable[[str], dict[str, Any]]

MINIMAL = """<?xml version="1.0" encoding="UTF-8"?>
<VASSAL.build.GameModule name="Minimal" version="0.1" VassalVersion="{vassal_version}" nextPieceSlotId="3">
  <VASSAL.build.module.BasicCommandEncoder/>
  <VASSAL.build.module.Map mapName="Main Map" edgeWidth="20" edgeHeight="10"{map_extra}>
    <VASSAL.build.module.map.BoardPicker>
      <VASSAL.build.module.map.boardPicker.Board name="Board" width="600" height="500">
        <VASSAL.build.module.map.boardPicker.board.HexGrid dx="56.0" dy="64.0" x0="{x0}" y0="40">
          <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>
        </VASSAL.build.module.map.boardPicker.board.HexGrid>
      </VASSAL.build.module.map.boardPicker.Board>
    </VASSAL.build.module.map.BoardPicker>
    <VASSAL.build.module.map.StackMetrics/>
    <VASSAL.build.module.map.PieceMover/>{map_child}
  </VASSAL.build.module.Map>
  <VASSAL.build.module.PieceWindow name="Pieces">
    <VASSAL.build.widget.ListWidget entryName="Units">
      <VASSAL.build.widget.PieceSlot entryName="1st Infantry" gpid="1" height="64" width="64">+/null/piece;;;;1st Infantry/null;0;0;1;0</VASSAL.build.widget.PieceSlot>
      <VASSAL.build.widget.PieceSlot entryName="2nd Panzer" gpid="2" height="64" width="64">+/null/piece;;;;2nd Panzer/null;0;0;2;0</VASSAL.build.widget.PieceSlot>
    </VASSAL.build.widget.ListWidget>
  </VASSAL.build.module.PieceWindow>
</VASSAL.build.GameModule>
"""

MODULEDATA = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1"><version>0.1</version><VassalVersion>{vassal_version}</VassalVersion><name>Minimal</name></data>
"""


def minimal_module(
    tmp: Path, *, map_extra: str = "", map_child: str = "", x0: str = "40", vassal_version: str = "3.6.0"
) -> Path:
    """The spec's minimal module (vassal-format.md 2.6) with a hex grid and two piece slots."""
    vmod = tmp / f"minimal-{vassal_version}.vmod"
    build = MINIMAL.format(map_extra=map_extra, map_child=map_child, x0=x0, vassal_version=vassal_version)
    with zipfile.ZipFile(vmod, "w") as zf:
        zf.writestr("buildFile.xml", build)
        zf.writestr("moduledata", MODULEDATA.format(vassal_version=vassal_version))
    return vmod


# --- without the engine ------------------------------------------------------------------------------


def test_unavailable_engine_names_what_to_install(tmp_path: Path) -> None:
    ok, reason = Engine(jar=tmp_path / "Vengine-3.7.26.jar").available()
    assert not ok and str(tmp_path / "Vengine-3.7.26.jar") in reason and "GAZALA_SHARED" in reason
    ok, reason = Engine(java="no-such-java-here", xvfb="no-such-xvfb-here").available()
    assert not ok and "openjdk-17-jdk" in reason and "xvfb" in reason
    with pytest.raises(EngineError, match="GAZALA_SHARED"):
        Engine(jar=tmp_path / "Vengine-3.7.26.jar").module(tmp_path / "m.vmod")


def test_a_missing_debian_jar_is_named_by_its_package(tmp_path: Path) -> None:
    jar = tmp_path / "Vengine-x.jar"
    jar.write_bytes(b"")
    (tmp_path / "debian-jars.txt").write_text("swingx-core.jar\nno-such-library-here.jar\n")
    (reason,) = Engine(jar=jar).missing()
    assert reason.endswith("no-such-library-here.jar (no known Debian package: see " + str(tmp_path / "debian-jars.txt") + ")")


def test_every_runtime_jar_of_the_shared_engine_has_its_debian_package_in_setup(shared_dir: Path) -> None:
    """scripts/setup installs scripts/apt-packages.txt: it must cover debian-jars.txt of the engine."""
    from tools.vassal_oracle.engine import DEBIAN_PACKAGES, debian_jars, engine_jar

    jars = debian_jars(engine_jar())
    assert "swingx-core.jar" in jars and len(jars) >= 20
    assert set(jars) <= set(DEBIAN_PACKAGES), sorted(set(jars) - set(DEBIAN_PACKAGES))
    apt = Path(__file__).resolve().parents[2] / "scripts" / "apt-packages.txt"
    listed = {line.split("#")[0].strip() for line in apt.read_text().splitlines()} - {""}
    needed = {DEBIAN_PACKAGES[j] for j in jars} | {"openjdk-17-jdk", "xvfb", "xauth"}
    assert needed <= listed, sorted(needed - listed)


def jar_with_manifest(path: Path, manifest: str) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("META-INF/MANIFEST.MF", manifest)
    return path


def test_a_jars_manifest_class_path_is_read_with_its_continuation_lines(tmp_path: Path) -> None:
    jar = jar_with_manifest(
        tmp_path / "a.jar", "Manifest-Version: 1.0\r\nClass-Path: /usr/lib/jvm/rt.jar lib/o\r\n ne.jar .\r\nX: y\r\n"
    )
    assert manifest_class_path(jar) == ["/usr/lib/jvm/rt.jar", "lib/one.jar", "."]
    assert manifest_class_path(jar_with_manifest(tmp_path / "b.jar", "Manifest-Version: 1.0\n")) == []
    (tmp_path / "c.jar").write_bytes(b"not a zip")
    assert manifest_class_path(tmp_path / "c.jar") == []


def test_the_class_archive_holds_the_jars_before_one_that_names_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The JVM cannot archive a class path holding a non-empty folder (Debian's gnu-getopt.jar names
    ``.``): the archive takes the jars before it, which every run's class path starts with."""
    monkeypatch.setattr(engine_module, "DEBIAN_JAR_DIR", tmp_path)
    engine = jar_with_manifest(tmp_path / "Vengine-x.jar", "Manifest-Version: 1.0\n")
    jar_with_manifest(tmp_path / "one.jar", "Class-Path: two.jar\n")
    jar_with_manifest(tmp_path / "getopt.jar", "Class-Path: /usr/lib/rt.jar .\n")
    jar_with_manifest(tmp_path / "after.jar", "Manifest-Version: 1.0\n")
    (tmp_path / "debian-jars.txt").write_text("one.jar\ngetopt.jar\nafter.jar\n")
    e = Engine(jar=engine, cache=tmp_path / "cache")
    assert e.archive_jars() == [engine, tmp_path / "one.jar"]
    assert e.classpath().startswith(":".join(map(str, e.archive_jars())) + ":")
    name = e.archive().name
    jar_with_manifest(tmp_path / "one.jar", "Class-Path: two.jar three.jar\n")  # a jar changed: another archive
    assert e.archive().name != name and e.archive().parent == tmp_path / "cache"


def test_an_archive_the_jvm_cannot_make_is_not_tried_again(tmp_path: Path) -> None:
    """A failed dump leaves a ``.failed`` note with the reason; runs then start without an archive."""
    e = Engine(cache=tmp_path, java="false")
    class_list = tmp_path / "classes.lst"
    class_list.write_text("java/lang/Object\n")
    archive = tmp_path / "classes-x.jsa"
    e._dump_archive(class_list, archive)
    assert not archive.exists() and (tmp_path / "classes-x.jsa.failed").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classes-x.jsa.failed", "classes.lst"]


# --- with the engine ---------------------------------------------------------------------------------


@pytest.mark.vassal
def test_a_run_leaves_a_class_archive_the_next_runs_map(vassal_engine: Engine, tmp_path: Path) -> None:
    """After a run the engine's classes are in a class-data archive, and the JVM maps it with a run's
    class path (``-Xshare:on`` refuses to start when it cannot)."""
    with (vassal_engine.cache / "classes.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be making it: wait for it
    vassal_engine.module(minimal_module(tmp_path))  # maps it, or (none yet) makes it
    archive = vassal_engine.archive()
    assert archive.is_file() and archive.stat().st_size > 10_000_000
    cp = vassal_engine.classpath([vassal_engine.compiled()])
    run = [vassal_engine.java, "-Xshare:on", f"-XX:SharedArchiveFile={archive}", "-cp", cp, "-version"]
    assert subprocess.run(run, capture_output=True, check=False, timeout=120).returncode == 0
    wrong = [*run[:4], str(tmp_path) + ":" + cp, "-version"]  # another class path: not this archive's
    assert subprocess.run(wrong, capture_output=True, check=False, timeout=120).returncode != 0


@pytest.mark.vassal
def test_a_clean_module_loads_without_errors_or_dropped_parts(vassal_engine: Engine, tmp_path: Path) -> None:
    r = vassal_engine.module(minimal_module(tmp_path))
    assert r["vassal_version"] == ENGINE_VERSION
    assert problems(r) == []
    assert r["dialogs"] == []  # VassalVersion 3.6.0 is older than the engine: no "Version Mismatch"
    rt = r["roundtrip"]
    assert rt["dropped_elements"] == [] and rt["dropped_attributes"] == []
    (main,) = r["maps"]
    assert main["name"] == "Main Map" and main["edge"] == [20, 10]
    (board,) = main["boards"]
    assert (board["name"], board["width"], board["height"]) == ("Board", 600, 500)
    grid = board["grid"]
    assert grid["class"].endswith(".HexGrid")
    assert (grid["attrs"]["dx"], grid["attrs"]["dy"], grid["attrs"]["x0"]) == ("56.0", "64.0", "40")
    assert grid["children"][0]["attrs"]["stagger"] == "true"
    slots = {s["gpid"]: s for s in r["piece_slots"]}
    assert slots["1"]["valid"] and slots["1"]["type"] == "piece;;;;1st Infantry"
    assert slots["2"]["piece_name"] == "2nd Panzer"


@pytest.mark.vassal
def test_round_trip_reports_what_the_engine_ignores(vassal_engine: Engine, tmp_path: Path) -> None:
    vmod = minimal_module(
        tmp_path,
        map_extra=' bogusAttr="1"',
        map_child="\n    <VASSAL.build.module.map.NoSuchComponent/>",
        x0="33.2",
    )
    r = vassal_engine.module(vmod)
    rt = r["roundtrip"]
    assert ["GameModule[0](Minimal)/Map[0](Main Map)", "bogusAttr", "1"] in rt["dropped_attributes"]
    dropped = rt["dropped_elements"]
    assert any(d.endswith("/NoSuchComponent[0]") for d in dropped), dropped
    # a HexGrid whose x0 is not an integer is dropped whole (vassal-format.md 1.3)
    assert any(d.endswith("/Board[0](Board)/HexGrid[0]") for d in dropped), dropped
    assert r["maps"][0]["boards"][0]["grid"] is None
    # VASSAL reports only its first internal error of a session (here the HexGrid), so the round
    # trip, not the log, is what finds every dropped part
    assert 'NumberFormatException: For input string: "33.2"' in " ".join(problems(r))


@pytest.mark.vassal
def test_the_template_module_as_the_engine_sees_it(vassal_engine: Engine, template_vmod: Path) -> None:
    r = vassal_engine.module(template_vmod)
    assert r["dialogs"] == [] and r["log"] == []  # saved by 3.7.9, we run 3.7.26
    maps = {m["name"]: m for m in r["maps"]}
    grid = maps["Main Map"]["boards"][0]["grid"]
    assert grid["attrs"]["dx"] == "80.88337155288302" and grid["attrs"]["sideways"] == "false"
    with zipfile.ZipFile(template_vmod) as zf:
        xml = zf.read("buildFile.xml").decode()
    slots_in_file = xml.count("<VASSAL.build.widget.PieceSlot ") + xml.count("<VASSAL.build.widget.CardSlot ")
    assert len(r["piece_slots"]) == slots_in_file and all(s["valid"] for s in r["piece_slots"])
    # 3.7.26 knows every attribute 3.7.9 wrote (3.6 dropped Map onlyReportChangedLocation, for one)
    rt = r["roundtrip"]
    assert rt["dropped_elements"] == [] and rt["dropped_attributes"] == []
    # and writes its own defaults back: GlobalOptions minMaxHeap (new), palette slot widths
    assert rt["added_attributes"] == [["GameModule[0](Hex'n'Counters template)/GlobalOptions[0]", "minMaxHeap", "0"]]


@pytest.mark.vassal
@pytest.mark.parametrize(
    ("vassal_version", "notice"), [("3.6.0", False), ("3.7.26", False), ("3.7.27", True), ("3.8.0", True)]
)
def test_version_mismatch_only_for_a_module_newer_than_the_engine(
    vassal_engine: Engine, tmp_path: Path, vassal_version: str, notice: bool
) -> None:
    """VASSAL warns when a module's VassalVersion is newer than itself, and only then."""
    r = vassal_engine.module(minimal_module(tmp_path, vassal_version=vassal_version))
    assert r["module"]["VassalVersion"] == vassal_version
    titles = [d["title"] for d in r["dialogs"]]
    assert titles == (["Version Mismatch"] if notice else [])
    if notice:
        assert f"This module was created using version {vassal_version} of VASSAL" in r["dialogs"][0]["text"]
        assert problems(r) == [f"dialog 'Version Mismatch': {r['dialogs'][0]['text']}"]


@pytest.mark.vassal
def test_locate_reproduces_the_recorded_fixture(
    vassal_engine: Engine, template_vmod: Path, engine_fixture: Fixture
) -> None:
    section = engine_fixture("jzhex-template")["sections"]["Main Map"]
    rows = random.Random(7).sample(section["points"], 150)
    located = vassal_engine.locate(template_vmod, [("Main Map", x, y) for _k, x, y, *_ in rows])
    got = [
        [x, y, loc.location, *loc.snap, loc.board] for (_k, x, y, *_), loc in zip(rows, located, strict=True)
    ]
    assert got == [row[1:] for row in rows]


@pytest.mark.vassal
def test_read_save_matches_our_location_names(
    vassal_engine: Engine, ragnarok_vmod: Path, corpus_dir: Path
) -> None:
    save = corpus_dir / "hex-n-counters-template" / "ragnarok" / "ragnarok-start.vsav"
    r = vassal_engine.read_save(ragnarok_vmod, save)
    assert r["game_started"]
    pieces = r["pieces"]
    assert len(pieces) == 99 and all(p["id"] and p["type"] and p["map"] for p in pieces)
    assert sum(p["map"] == "Main Map" for p in pieces) == 13  # the rest wait on the deployment map
    layouts = {lay.name: lay for lay in read_layouts(ragnarok_vmod)}
    bad = []
    for p in pieces:
        ours = layouts[p["map"]].locate(p["x"], p["y"]).name
        if ours != p["location"] or p["location_property"] != p["location"]:
            bad.append((p["name"], p["map"], p["x"], p["y"], p["location"], p["location_property"], ours))
    assert not bad, bad[:10]
    assert {p["location"] for p in pieces} >= {"Endurance 019", "offboard"}
    assert all(p["stack"] is not None for p in pieces), "VASSAL puts pieces on a map into stacks"


@pytest.mark.vassal
def test_write_save_then_read_it_back(vassal_engine: Engine, tmp_path: Path) -> None:
    vmod = minimal_module(tmp_path)
    out = tmp_path / "game.vsav"
    placements = [
        {"slot": "1", "map": "Main Map", "x": 60, "y": 50},  # hex 0101 (board (40,40) + edge 20/10)
        {"slot": "2nd Panzer", "map": "Main Map", "x": 60, "y": 50},  # stacks on it
        {"slot": "2", "map": "Main Map", "x": 118, "y": 85, "snap": True},  # snaps to 0202's centre
    ]
    w = vassal_engine.write_save(vmod, out, placements)
    assert problems(w) == []
    assert all(is_routine(d) for d in w["dialogs"]) and len(w["dialogs"]) >= 2  # choose side, new log
    assert [p["location"] for p in w["pieces"]] == ["0101", "0101", "0202"]
    with zipfile.ZipFile(out) as zf:
        assert {"savedGame", "savedata", "moduledata"} <= set(zf.namelist())
        assert zf.read("savedGame").startswith(b"!VCSK")
    r = vassal_engine.read_save(vmod, out)
    got = sorted((p["name"], p["x"], p["y"], p["location"]) for p in r["pieces"])
    assert got == [
        ("1st Infantry", 60, 50, "0101"),
        ("2nd Panzer", 60, 50, "0101"),
        ("2nd Panzer", 116, 82, "0202"),
    ]
    stacks = {p["stack"] for p in r["pieces"] if (p["x"], p["y"]) == (60, 50)}
    assert len(stacks) == 1 and None not in stacks


@pytest.mark.vassal
def test_failures_are_clear_errors(vassal_engine: Engine, tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="module not found"):
        vassal_engine.module(tmp_path / "missing.vmod")
    with pytest.raises(EngineError, match="watchdog"):
        Engine(timeout=0).module(minimal_module(tmp_path))
    with pytest.raises(EngineError, match="no valid piece slot"):
        vassal_engine.write_save(
            minimal_module(tmp_path), tmp_path / "x.vsav", [{"slot": "99", "map": "Main Map", "x": 1, "y": 1}]
        )
