"""Small VASSAL modules made of piece art (issues 31 and 33): the tests of art budgets, the fuzzer's
``svg-amplification`` and ``layers`` targets and ``scripts/bench art`` build them here.

:func:`art_module` writes a ``.vmod`` whose palette holds one piece slot per :class:`Piece`: its
BasicPiece image and, on top, its layers (``emb2`` traits, each showing one image; the first hidden one is
the back, as a "Flip" layer), with the images given as bytes. Hostile images for the issue's cases come
from :func:`svg_uses`, :func:`svg_pattern`, :func:`svg_declaring`, :func:`png_1bit` and :func:`png_flat`.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gazala_tools.vsav import sequence

#: the image of a "Flip" layer: a piece whose back shows it has a layered back, drawn at import
FLIP = "flip.png"
SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
#: a layer trait (VASSAL's ``Embellishment``) of one image; its state "1" shows it, "-1" hides it
LAYER = "emb2;Flip;128;A;;128;;;128;;;;1;false;0;0;{image};;true;Flip;;;false;;1;1;false;70,130;;;Flip;1.0;;true"


@dataclass(frozen=True)
class Piece:
    name: str
    image: str  #: the BasicPiece image
    layers: tuple[str, ...] = ()  #: images shown on top, each its own layer
    flip: str = ""  #: an image shown on the back only (a hidden "Flip" layer)


def slot_text(piece: Piece, gpid: int) -> str:
    """The piece slot's definition ``+/null/TYPE/STATE``, layers outermost first."""
    traits = [(LAYER.format(image=piece.flip), "-1")] if piece.flip else []
    traits += [(LAYER.format(image=img), "1") for img in piece.layers]
    type_, state = f"piece;;;{piece.image};{piece.name}", f"null;0;0;{gpid};0"
    for t, s in reversed(traits):
        type_, state = sequence.encode([t, type_], "\t"), sequence.encode([s, state], "\t")
    return sequence.encode(["+", "null", type_, state], "/")


def buildfile(pieces: Sequence[Piece]) -> str:
    slots = "".join(f'<VASSAL.build.widget.PieceSlot entryName="{p.name}" gpid="{i + 1}" height="75" width="75">'
                    f"{_xml(slot_text(p, i + 1))}</VASSAL.build.widget.PieceSlot>" for i, p in enumerate(pieces))
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            f'<VASSAL.build.GameModule name="Art" version="1.0" VassalVersion="3.7.9" nextPieceSlotId="{len(pieces) + 1}">'
            '<VASSAL.build.module.PieceWindow name="Pieces"><VASSAL.build.widget.PanelWidget entryName="all">'
            f"{slots}</VASSAL.build.widget.PanelWidget></VASSAL.build.module.PieceWindow>"
            "</VASSAL.build.GameModule>")


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def art_module(path: Path, pieces: Sequence[Piece], images: dict[str, bytes]) -> Path:
    """A ``.vmod`` of ``pieces`` with ``images`` (member names under ``images/``)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", buildfile(pieces))
        z.writestr("moduledata", "<?xml version='1.0'?><data><name>Art</name><version>1.0</version></data>")
        for name, data in images.items():
            z.writestr(f"images/{name}", data)
    return path


# --- images ------------------------------------------------------------------------------------------------
def svg_face(colour: str = "#c00", size: int = 75) -> bytes:
    """A small face (about 150 bytes): a ground and a disc."""
    return (f'{SVG_HEAD} width="{size}" height="{size}"><rect width="{size}" height="{size}" fill="{colour}"/>'
            f'<circle cx="{size // 2}" cy="{size // 2}" r="{size // 4}" fill="#fff"/></svg>').encode()


def svg_uses(levels: int = 4, fan: int = 10) -> bytes:
    """``fan ** levels`` draws of one group through nested ``<use>`` (4 levels of 10: 10,000, in about 1 KB)."""
    defs = '<g id="g0"><rect width="2" height="2" fill="#048"/></g>'
    for lvl in range(1, levels + 1):
        defs += f'<g id="g{lvl}">' + "".join(f'<use xlink:href="#g{lvl - 1}" x="{i}"/>' for i in range(fan)) + "</g>"
    return f'{SVG_HEAD} width="75" height="75"><defs>{defs}</defs><use xlink:href="#g{levels}"/></svg>'.encode()


def svg_pattern(tile: int = 20000) -> bytes:
    """About 300 bytes filling a square with a pattern whose tile is ``tile`` pixels square."""
    return (f'{SVG_HEAD} width="75" height="75"><defs><pattern id="p" width="{tile}" height="{tile}" '
            'patternUnits="userSpaceOnUse"><rect width="9" height="9" fill="#800"/></pattern></defs>'
            '<rect width="75" height="75" fill="url(#p)"/></svg>').encode()


def svg_declaring(w: int, h: int) -> bytes:
    """An SVG of about 130 bytes that declares ``w`` x ``h`` pixels."""
    return f'{SVG_HEAD} width="{w}" height="{h}"><rect width="9" height="9"/></svg>'.encode()


def svg_nested(depth: int) -> bytes:
    return (f'{SVG_HEAD} width="75" height="75">' + "<g>" * depth + "</g>" * depth + "</svg>").encode()


def svg_laughs(levels: int = 10) -> bytes:
    """The billion laughs: ten entities of ten references each."""
    ents = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, levels))
    return (f'<?xml version="1.0"?><!DOCTYPE svg [{ents}]>{SVG_HEAD} width="75" height="75">'
            f"<text>&l{levels - 1};</text></svg>").encode()


def _png(width: int, height: int, mode: int, depth: int, row: bytes) -> bytes:
    z = zlib.compressobj(9)
    data = b"".join(z.compress(b"\0" + row) for _ in range(height)) + z.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, mode, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def png_1bit(side: int) -> bytes:
    """A 1-bit grey PNG of ``side`` x ``side`` (9400: about 11 KB for 88 Mpx)."""
    return _png(side, side, 0, 1, b"\0" * ((side + 7) // 8))


def png_flat(side: int, colour: tuple[int, int, int] = (20, 120, 40)) -> bytes:
    """A flat RGB PNG of ``side`` x ``side`` (5000: about 75 KB)."""
    return _png(side, side, 2, 8, bytes(colour) * side)


def png_bytes(side: int, colour: tuple[int, int, int]) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (side, side), colour).save(buf, "PNG")
    return buf.getvalue()
