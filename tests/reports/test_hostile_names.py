"""Issue 21 item 1: every report escapes every text that comes from an input. Each report kind is
rendered with hostile names (``tools.fuzz.hostile.PAYLOADS``: markup breaking out of text, of quoted
attributes, of the title, style, script and SVG) from each input field, and the page is parsed: no
element, attribute or comment of a payload survives."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest

from gazala_tools.cli import main as gazala
from tools.fuzz.hostile import (
    MAPPING_YAML,
    PAYLOADS,
    hostile_game,
    hostile_log,
    hostile_position,
    hostile_save,
    injected,
    payload,
)

TESTS = Path(__file__).resolve().parents[1]
LOGS = TESTS / "fixtures" / "logs"
RIVER_WAR = TESTS / "games" / "river-war"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every hostile input: a game folder (game, side, turn, place names, rule texts), a position
    YAML of it (unit id, box), a save (piece names, map name) with its mapping, a log (map name)."""
    d = tmp_path_factory.mktemp("hostile")
    name = payload()
    game = hostile_game(RIVER_WAR, d / "game", name)
    save, mapping, log = d / "s.vsav", d / "mapping.yaml", d / "l.vlog"
    save.write_bytes(hostile_save(name))
    mapping.write_text(MAPPING_YAML, encoding="utf-8")
    log.write_bytes(hostile_log(LOGS / "rg-illegal.vlog", name))
    return {"game": game, "position": hostile_position(game, d / "p.yaml", name), "save": save, "mapping": mapping,
            "log": log}


#: each report kind: (id, command line after `gazala`, with {names} of the hostile inputs)
REPORTS = {
    "check-position": ["referee", "check", "{position}", "--game", "{game}"],
    "check-save": ["referee", "check", "{save}", "--game", "gazala-rg", "--mapping", "{mapping}"],
    "log": ["referee", "log", "{log}"],
}


def command(kind: str, hostile: dict[str, Path], *extra: str) -> list[str]:
    return [a.format(**{k: str(v) for k, v in hostile.items()}) for a in REPORTS[kind]] + list(extra)


@pytest.mark.parametrize("kind", sorted(REPORTS))
def test_every_html_report_escapes_every_hostile_name(kind: str, hostile: dict[str, Path], tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    assert gazala(command(kind, hostile, "--format", "html", "--dpi", "20", "-o", str(page))) == 1
    html = page.read_text(encoding="utf-8")
    raw = PAYLOADS[0]
    assert raw not in html and raw in unescape(html)  # the names are in the page, as text
    assert injected(html) == []
    assert "default-src 'none'" in csp_of(html)


def test_watch_reports_escape_hostile_names(hostile: dict[str, Path], tmp_path: Path) -> None:
    """``referee watch --out-dir --format html`` writes the same pages for a log and a position."""
    import shutil

    inbox, out = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    out.mkdir()
    shutil.copy(hostile["log"], inbox / "l.vlog")
    shutil.copy(hostile["position"], inbox / "p.yaml")
    assert gazala(["referee", "watch", str(inbox), "--once", "--game", str(hostile["game"]), "--out-dir", str(out),
                   "--format", "html", "--dpi", "20"]) == 0
    shutil.move(inbox / "p.yaml", tmp_path / "p.yaml")
    assert gazala(["referee", "watch", str(inbox), "--once", "--out-dir", str(out), "--format", "html",
                   "--dpi", "20"]) == 0
    pages = sorted(p.name for p in out.iterdir())
    assert pages == ["l.vlog.html", "p.yaml.html"]
    for p in pages:
        html = (out / p).read_text(encoding="utf-8")
        assert injected(html) == [], p


def test_log_report_escapes_a_moves_from_and_to_box(tmp_path: Path) -> None:
    """The box of a move is the map name the piece has in the log (``_where`` printed it raw)."""
    log = tmp_path / "hostile.vlog"
    log.write_bytes(hostile_log(LOGS / "rg-illegal.vlog", payload()))
    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(log), "--format", "html", "-o", str(page)]) == 1
    html = page.read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=document.title=&#x27;PWNED&#x27;" in html  # the name is shown, as text
    assert injected(html) == []


def test_each_payload_alone_is_found_when_unescaped() -> None:
    """The checker itself: every payload, printed raw into a page, is caught."""
    for p in PAYLOADS:
        assert injected(f"<html><body><p>{p}</p></body></html>") != [], p


def csp_of(html: str) -> str:
    import re

    m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert m is not None, "no Content-Security-Policy meta"
    return m.group(1).replace("&#x27;", "'")


def test_each_report_page_forbids_every_script_but_its_own_by_hash(tmp_path: Path) -> None:
    """``default-src 'none'``; images only as data: URLs; the page's own inline style and script
    allowed by their SHA-256, computed from the page as written."""
    import base64
    import hashlib
    import re

    page = tmp_path / "log.html"
    assert gazala(["referee", "log", str(LOGS / "rg-illegal.vlog"), "--format", "html", "-o", str(page)]) == 1
    html = page.read_text(encoding="utf-8")
    policy = csp_of(html)
    assert html.index("Content-Security-Policy") < html.index("<style>") < html.index("<script>")
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'none'" and directives["img-src"] == "data:"

    def sha(body: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"

    (script,) = re.findall(r"<script>(.*?)</script>", html, re.S)
    (style,) = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert directives["script-src"] == sha(script) and directives["style-src"] == sha(style)
    assert "unsafe" not in policy


def test_the_helper_escapes_text_attributes_and_script_json() -> None:
    from gazala_tools.escape import script_json, text

    assert text("<a href='x' title=\"y\">&\x00\x1b\ud800") == "&lt;a href=&#x27;x&#x27; title=&quot;y&quot;&gt;&amp;\ufffd\ufffd\ufffd"
    js = script_json({"name": "</script><!--\u2028\u2029&"})
    assert "</" not in js and "<!--" not in js and "\u2028" not in js and "\u2029" not in js and "&" not in js
    import json

    assert json.loads(js) == {"name": "</script><!--\u2028\u2029&"}
