"""Issue 21 item 1: every report escapes every text that comes from an input. Each report kind is
rendered with hostile names (``tools.fuzz.hostile.PAYLOADS``: markup breaking out of text, of quoted
attributes, of the title, style, script and SVG) from each input field, and the page is parsed: no
element, attribute or comment of a payload survives."""

from __future__ import annotations

from pathlib import Path

from gazala_tools.cli import main as gazala
from tools.fuzz.hostile import PAYLOADS, hostile_log, injected, payload

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"


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
