"""The one escaping helper of every report page (HTML, and the SVG inside it).

Every text that comes from an input (a piece, map, box, unit, side, hex, scenario or game name, a
rule message) is data: it reaches a page only through :func:`text` (element content and attribute
values alike, quotes included) or, inside a ``<script>``, through :func:`script_json`. Characters
that no HTML or XML document may hold (C0 controls but tab, newline and CR; lone surrogates;
U+FFFE/U+FFFF) become U+FFFD, so that a page always encodes and parses.

A page's head comes from :func:`head`: a ``Content-Security-Policy`` that allows nothing
(``default-src 'none'``) but images as ``data:`` URLs and the page's own inline style and script,
each by its SHA-256 hash computed when the page is made. A script or an event handler smuggled into
a page by a hostile name would not run even if it escaped escaping.

Text drawn into an image (boards, counters, charts, PNG reports) goes through :func:`drawable`:
Pillow's text layout (raqm and fribidi) fails on a paragraph break inside a line (CR, U+001C-U+001E,
U+0085, U+2029), and no font draws a control character.

Text the CLI writes to a terminal (stdout unless JSON, stderr) goes through :func:`terminal`: no
control character of an input reaches the terminal (``gazala.cli._streams``).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re

__all__ = [
    "NOT_DRAWN",
    "clean",
    "csp",
    "csp_hash",
    "drawable",
    "has_control",
    "head",
    "script_json",
    "terminal",
    "text",
]

#: characters no HTML/XML document may hold (U+FFFD instead)
_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
#: in a ``<script>``: what could end it or start a comment/markup, and JavaScript's line breaks
_SCRIPT = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


#: characters that no drawn text may hold: C0 and C1 controls (line breaks included: a drawn text is
#: one line), DEL, the paragraph separator, lone surrogates and U+FFFE/U+FFFF
NOT_DRAWN = re.compile("[\x00-\x1f\x7f-\x9f\u2029\ud800-\udfff\ufffe\uffff]")


def drawable(value: object) -> str:
    """``value`` as one line that Pillow can lay out and draw: each character of :data:`NOT_DRAWN`
    becomes a space (a name from a hostile save must not stop a report)."""
    return NOT_DRAWN.sub(" ", str(value))


def clean(value: object) -> str:
    """``value`` as a string holding only characters an HTML/XML document may hold."""
    return _INVALID.sub("\ufffd", str(value))


def text(value: object) -> str:
    """``value`` escaped for HTML or SVG element content or a quoted attribute value (``& < > " '``)."""
    return html.escape(clean(value), quote=True)


def script_json(value: object) -> str:
    """``value`` as JSON safe inside a ``<script>`` element: no ``</script>``, ``<!--``, ``&`` or
    U+2028/U+2029 (JavaScript line breaks before ES2019) survives as such."""
    out = json.dumps(value, ensure_ascii=False)
    return clean(re.sub("[<>&\u2028\u2029]", lambda m: _SCRIPT[m.group()], out))


def csp_hash(source: str) -> str:
    """The CSP source expression allowing exactly this inline ``<style>``/``<script>`` content."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def csp(*, styles: tuple[str, ...] = (), scripts: tuple[str, ...] = (), images: bool = True) -> str:
    """The policy of a report page: nothing from anywhere, but ``data:`` images and the given
    inline styles and scripts (by hash)."""
    parts = ["default-src 'none'", "base-uri 'none'", "form-action 'none'"]
    if images:
        parts.append("img-src data:")
    if styles:
        parts.append("style-src " + " ".join(csp_hash(s) for s in styles))
    if scripts:
        parts.append("script-src " + " ".join(csp_hash(s) for s in scripts))
    return "; ".join(parts)


def head(title: str, *, style: str = "", script: str = "", images: bool = True) -> str:
    """``<!DOCTYPE html>`` to ``</head>`` of a report page: charset, the CSP (before anything else
    it governs), the escaped ``title`` and the inline ``style``. The page's ``script`` (static
    code of ours, never input) is allowed by its hash; the caller places it as
    ``<script>{script}</script>``, byte for byte."""
    policy = csp(styles=(style,) if style else (), scripts=(script,) if script else (), images=images)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{text(policy)}">\n'
            f"<title>{text(title)}</title>\n" + (f"<style>{style}</style>" if style else "") + "</head>")


#: characters a terminal acts on instead of showing: C0 controls but tab and newline (ESC starts a
#: control sequence, BEL rings, CR and backspace overwrite what was shown), DEL, the C1 controls
#: (U+0080-U+009F: CSI U+009B is ESC [ to many terminals), and lone surrogates (no encoding writes them)
_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_TERMINAL_KEEP_CR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character :func:`terminal` would replace (a C0 or C1 control, DEL, a lone
    surrogate; tab and newline too): what a file name written for others may not hold."""
    return _TERMINAL.search(text) is not None or "\t" in text or "\n" in text


def terminal(value: object, *, keep_cr: bool = False) -> str:
    """``value`` safe to show on a terminal: each character of :data:`_TERMINAL` becomes ``?`` (as
    ``ls`` shows them), so a name from a hostile input can neither move the cursor, retitle the window,
    ring the bell nor overwrite what was shown. Data formats written as text keep their values: YAML
    escapes every control character itself. ``keep_cr``: keep carriage returns (a progress bar on stderr redraws
    its line with them). JSON output is not passed through this: it stays exact."""
    return (_TERMINAL_KEEP_CR if keep_cr else _TERMINAL).sub("?", str(value))
