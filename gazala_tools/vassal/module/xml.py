"""The buildFile as VASSAL writes it: lxml elements named by Java class, attributes in alphabetical
order (how the JDK DOM hands them to ``setAttribute``; vassal-format.md §1.3), piece definitions as
plain escaped text (never CDATA), and ``standalone="no"``.
"""

from __future__ import annotations

from collections.abc import Mapping

from lxml import etree

__all__ = ["BOARDS", "MAP", "MODULE", "WIDGET", "element", "serialize"]

MODULE = "VASSAL.build.module"
MAP = f"{MODULE}.map"
BOARDS = f"{MAP}.boardPicker"
WIDGET = "VASSAL.build.widget"


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def element(
    parent: etree._Element | None,
    tag: str,
    attrs: Mapping[str, object] | None = None,
    *,
    text: str | None = None,
) -> etree._Element:
    """A child element of ``parent`` (or a root) with ``attrs`` sorted by name; ``None`` values skipped."""
    items = sorted((k, _value(v)) for k, v in (attrs or {}).items() if v is not None)
    el = etree.Element(tag) if parent is None else etree.SubElement(parent, tag)
    for k, v in items:
        el.set(k, v)
    if text is not None:
        el.text = text
    return el


def serialize(root: etree._Element) -> bytes:
    """UTF-8 XML with the declaration VASSAL writes (``standalone="no"``), 4-space indented."""
    etree.indent(root, space="    ")
    body: bytes = etree.tostring(root, encoding="UTF-8", xml_declaration=False)
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + b"\n"
