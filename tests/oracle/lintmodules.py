"""Small VASSAL modules for the lint-against-the-engine tests (test_lint_engine.py): each holds one
finding class of issue 33 item 4, in a clean form the engine loads and plays without a word and in a
broken form the engine complains about. Built from text here (no third-party module)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

PKG = "VASSAL.build.module.map.boardPicker"

HEAD = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.6.0" description="lint test" name="{name}" nextPieceSlotId="{next_id}" version="1.0">
    <VASSAL.build.module.BasicCommandEncoder/>
    <VASSAL.build.module.Documentation/>
    <VASSAL.build.module.PlayerRoster buttonKeyStroke="" buttonText="Retire" buttonToolTip="Switch sides"/>
    <VASSAL.build.module.GlobalOptions autoReport="Always" nonOwnerUnmaskable="Never" playerIdFormat="$PlayerName$" promptString=""/>
    <VASSAL.build.module.Chatter/>
    <VASSAL.build.module.KeyNamer/>
    <VASSAL.build.module.PrototypesContainer/>
"""
MAP_PARTS = """        <VASSAL.build.module.map.StackMetrics disabled="false" exSepX="6" exSepY="18" unexSepX="2" unexSepY="4"/>
        <VASSAL.build.module.map.ForwardToKeyBuffer/>
        <VASSAL.build.module.map.Scroller/>
        <VASSAL.build.module.map.MenuDisplayer/>
        <VASSAL.build.module.map.StackExpander/>
        <VASSAL.build.module.map.PieceMover/>
        <VASSAL.build.module.map.KeyBufferer/>
"""
MODULEDATA = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1">
  <version>1.0</version>
  <VassalVersion>3.6.0</VassalVersion>
  <dateSaved>1767225600000</dateSaved>
  <name>{name}</name>
</data>
"""


def piece(name: str, image: str = "unit.png", layer: str | None = None, gpid: int | None = 1) -> str:
    """A piece slot: a BasicPiece with ``image``, under a one-level Layer of image ``layer`` when given."""
    basic = f"piece;;;{image};{name}"
    gp = f' gpid="{gpid}"' if gpid is not None else ""
    if layer is None:
        text = f"+/null/{basic}/null;0;0;{gpid or ''};0"
    else:
        emb = (f"emb2;;130;;;130;;;130;;;;1;false;0;0;{layer};;true;Badge;;;false;;1;1;true;;;;;;1.0;;true")
        text = f"+/null/{emb}\t{basic}/1\tnull;0;0;{gpid or ''};0"
    return f'<VASSAL.build.widget.PieceSlot entryName="{name}"{gp} height="40" width="40">{text}</VASSAL.build.widget.PieceSlot>'


def png(w: int, h: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (w, h), (200, 190, 150)).save(buf, "PNG")
    return buf.getvalue()


def zoned_board(stacks: str) -> str:
    """A 600x400 board: a zoned grid of a plain zone "Box A", a zone with a region grid (region "Camp"),
    and a numbered background hex grid; ``stacks`` go into a sub-folder of the map."""
    return f"""    <VASSAL.build.module.Map allowMultiple="false" edgeHeight="0" edgeWidth="0" launch="false" mapName="Main Map">
        <VASSAL.build.module.map.BoardPicker slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">
            <{PKG}.Board image="board.png" name="Board" reversible="false">
                <{PKG}.board.ZonedGrid>
                    <{PKG}.board.mapgrid.Zone locationFormat="$name$" name="Box A" path="400,0;600,0;600,150;400,150" useHighlight="false" useParentGrid="false"/>
                    <{PKG}.board.mapgrid.Zone locationFormat="$name$" name="Camps" path="400,200;600,200;600,400;400,400" useHighlight="false" useParentGrid="false">
                        <{PKG}.board.RegionGrid fontsize="9" snapto="true" visible="false">
                            <{PKG}.board.Region name="Camp" originx="500" originy="300"/>
                        </{PKG}.board.RegionGrid>
                    </{PKG}.board.mapgrid.Zone>
                    <{PKG}.board.HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="56.0" dy="64.0" edgesLegal="false" sideways="false" snapTo="true" visible="false" x0="40" y0="40">
                        <{PKG}.board.mapgrid.HexGridNumbering color="0,0,0" first="H" fontSize="9" hDescend="false" hDrawOff="0" hLeading="1" hOff="1" hType="N" locationFormat="$gridLocation$" rotateText="0" sep="" stagger="true" vDescend="false" vDrawOff="0" vLeading="1" vOff="1" vType="N" visible="false"/>
                    </{PKG}.board.HexGrid>
                </{PKG}.board.ZonedGrid>
            </{PKG}.Board>
        </VASSAL.build.module.map.BoardPicker>
{MAP_PARTS}        <VASSAL.build.module.folder.MapSubFolder description="" name="Set-up">
{stacks}
        </VASSAL.build.module.folder.MapSubFolder>
    </VASSAL.build.module.Map>
"""


def stack(name: str, location: str, slot: str) -> str:
    return (f'            <VASSAL.build.module.map.SetupStack location="{location}" name="{name}" owningBoard="Board" '
            f'useGridLocation="true" x="0" y="0">{slot}</VASSAL.build.module.map.SetupStack>')


def chart_window_map() -> str:
    """A chart window holding a map widget: a map (``WidgetMap``) of one 300x200 board, "Display"."""
    return f"""    <VASSAL.build.module.ChartWindow hotkey="" name="Charts" text="Charts">
        <VASSAL.build.widget.TabWidget entryName="Charts">
            <VASSAL.build.widget.MapWidget entryName="Display">
                <VASSAL.build.widget.WidgetMap allowMultiple="false" edgeHeight="0" edgeWidth="0" launch="false" mapName="Display">
                    <VASSAL.build.module.map.BoardPicker slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">
                        <{PKG}.Board color="255,255,255" height="200" name="Display board" reversible="false" width="300"/>
                    </VASSAL.build.module.map.BoardPicker>
{MAP_PARTS}                </VASSAL.build.widget.WidgetMap>
            </VASSAL.build.widget.MapWidget>
        </VASSAL.build.widget.TabWidget>
    </VASSAL.build.module.ChartWindow>
"""


def palette(*slots: str) -> str:
    return ('    <VASSAL.build.module.PieceWindow hidden="false" name="Pieces" scale="1.0" text="Pieces">\n'
            '        <VASSAL.build.widget.ListWidget entryName="Pieces" divider="150" scale="1.0">\n'
            + "".join(f"            {s}\n" for s in slots)
            + "        </VASSAL.build.widget.ListWidget>\n    </VASSAL.build.module.PieceWindow>\n")


def module(out: Path, body: str, *, name: str = "Lint Test", next_id: str = "10",
           images: dict[str, bytes] | None = None, files: dict[str, bytes] | None = None) -> Path:
    """Write a .vmod: the buildFile (``body`` after the usual singletons), moduledata, the images."""
    xml = HEAD.format(name=name, next_id=next_id) + body + "</VASSAL.build.GameModule>\n"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", xml)
        z.writestr("moduledata", MODULEDATA.format(name=name))
        for n, data in (images or {}).items():
            z.writestr(f"images/{n}", data)
        for n, data in (files or {}).items():
            z.writestr(n, data)
    return out


def with_setup(src: Path, out: Path, save: bytes, setup: str = "Start") -> Path:
    """A copy of module ``src`` with ``save`` as its predefined set-up ``setup``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "buildFile.xml":
                data = data.replace(b"</VASSAL.build.GameModule>",
                                    f'    <VASSAL.build.module.PredefinedSetup file="start.vsav" isMenu="false" '
                                    f'name="{setup}" useFile="true"/>\n</VASSAL.build.GameModule>'.encode())
            zout.writestr(info, data)
        zout.writestr("start.vsav", save)
    return out
