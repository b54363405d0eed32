"""The component tree of a module, built from a :class:`~.spec.ModuleSpec` (vassal-format.md §2).

Order of the root's children follows what VASSAL writes and requires (§2.4, §7.1):
``BasicCommandEncoder`` first, then the singletons, prototypes, maps (BoardPicker before any
DrawPile), the piece palette and the toolbar components.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from lxml import etree

from gazala_tools.vassal.gamelayout import MAIN_BOARD, MAIN_MAP
from gazala_tools.vassal.module.gpids import assign_gpids, next_piece_slot_id
from gazala_tools.vassal.module.pieces import piece_slot_text, prototypes
from gazala_tools.vassal.module.spec import CHIT, UNIT, ModuleSpec, PieceSpec, TrackSpec, turn_labels
from gazala_tools.vassal.module.traits import se
from gazala_tools.vassal.module.xml import BOARDS, MAP, MODULE, WIDGET, element, serialize

__all__ = [
    "CUPS_BOARD",
    "CUPS_MAP",
    "HELP_FILE",
    "MIN_OPENING_ZOOM",
    "OPENING_VIEW",
    "PIECE_SIZE",
    "PLAIN_MAP_CHILDREN",
    "ZOOM_LEVELS",
    "Built",
    "build_buildfile",
    "opening_zoom",
    "zoom_start",
]

CUPS_MAP = "Chit Cups"
CUPS_BOARD = "Cups"
HELP_FILE = "help/module.html"
PIECE_SIZE = 64  #: palette slot size (pixels)

#: Map children a new map gets in the editor, with no attributes needed (§2.5 Map).
PLAIN_MAP_CHILDREN = (
    "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
    "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver",
)


@dataclass(frozen=True)
class Built:
    """A buildFile and what a test or a save writer needs to know about it."""

    xml: bytes
    gpids: Mapping[str, int]  #: piece id -> gpid
    next_piece_slot_id: int


def _map(
    parent: etree._Element,
    name: str,
    *,
    launch: bool = False,
    button: str = "",
    mark_moved: str = "Always",
) -> etree._Element:
    return element(
        parent,
        f"{MODULE}.Map",
        {
            "mapName": name,
            "allowMultiple": False,
            "backgroundcolor": "255,255,255",
            "buttonName": button or name,
            "edgeHeight": 0,
            "edgeWidth": 0,
            "launch": launch,
            "markMoved": mark_moved,
        },
    )


ZOOM_LEVELS: Final = (0.25, 0.5, 0.75, 1.0, 1.5)
#: the view the main map should fit when it opens (a laptop screen less VASSAL's toolbars and palette)
OPENING_VIEW: Final = (1600, 900)
#: below this scale a 1/2-inch counter's values are no longer legible: the map opens no smaller
MIN_OPENING_ZOOM: Final = 0.5


def opening_zoom(width: int, height: int) -> float:
    """The scale the main map opens at: the largest zoom level at which the whole board fits
    :data:`OPENING_VIEW`, so a player sees the set-up at once (not the top-left corner of a large
    map), but never below :data:`MIN_OPENING_ZOOM`."""
    vw, vh = OPENING_VIEW
    fitting = [z for z in ZOOM_LEVELS if width * z <= vw and height * z <= vh and z <= 1.0]
    return float(max([MIN_OPENING_ZOOM, *fitting]))


def zoom_start(levels: tuple[float, ...], zoom: float) -> int:
    """Zoomer's ``zoomStart`` for ``zoom``: 1-based, counted from the most zoomed-in level
    (vassal-format.md, Zoomer)."""
    return sorted(levels, reverse=True).index(zoom) + 1


def _map_tools(m: etree._Element, *, levels: tuple[float, ...] = ZOOM_LEVELS, zoom: float = 1.0) -> None:
    element(m, f"{MAP}.StackMetrics", {"disabled": False, "exSepX": 6, "exSepY": 18, "unexSepX": 2, "unexSepY": 4})
    for child in PLAIN_MAP_CHILDREN:
        element(m, f"{MAP}.{child}")
    element(m, f"{MAP}.CounterDetailViewer", {"delay": 700, "display": "from top-most layer only", "minDisplayPieces": 2,
                                              "showgraph": True, "showtext": True, "summaryReportFormat": "$LocationName$",
                                              "zoomlevel": 1.0})
    element(m, f"{MAP}.Zoomer", {"zoomLevels": ",".join(map(str, levels)), "zoomStart": zoom_start(levels, zoom)})
    element(m, f"{MAP}.HighlightLastMoved", {"color": "255,0,0", "enabled": True, "thickness": 2})


def _main_map(root: etree._Element, spec: ModuleSpec) -> None:
    b = spec.board
    m = _map(root, MAIN_MAP)
    if b.edge_width or b.edge_height:
        m.set("edgeHeight", str(b.edge_height))
        m.set("edgeWidth", str(b.edge_width))
    picker = element(m, f"{MAP}.BoardPicker", {"slotHeight": 125, "slotScale": 0.2, "slotWidth": 350, "title": "Choose Boards"})
    board = element(picker, f"{BOARDS}.Board", {"image": b.image, "name": MAIN_BOARD, "reversible": False})
    grid = element(board, f"{BOARDS}.board.HexGrid", {"color": "0,0,0", "dotsVisible": False, "visible": False, **b.grid_attrs})
    element(
        grid,
        f"{BOARDS}.board.mapgrid.HexGridNumbering",
        {"color": "0,0,0", "fontSize": 9, "hDrawOff": 0, "rotateText": 0, "vDrawOff": 0, "visible": False, **b.numbering_attrs},
    )
    _map_tools(m, zoom=opening_zoom(b.width + 2 * b.edge_width, b.height + 2 * b.edge_height))


def _cups_map(root: etree._Element, spec: ModuleSpec, gpids: Mapping[str, int]) -> None:
    if not spec.decks:
        return
    m = _map(root, CUPS_MAP, launch=True, mark_moved="Never")
    picker = element(m, f"{MAP}.BoardPicker", {"slotHeight": 125, "slotScale": 0.2, "slotWidth": 350, "title": "Choose Boards"})
    width = 40 + 160 * len(spec.decks)
    element(picker, f"{BOARDS}.Board", {"color": "230,220,200", "height": 200, "name": CUPS_BOARD, "reversible": False,
                                        "width": width})
    _map_tools(m, levels=(0.5, 1.0), zoom=1.0)
    by_id = {p.id: p for p in spec.pieces}
    for i, deck in enumerate(spec.decks):
        pile = element(
            m,
            f"{MAP}.DrawPile",
            {
                "allowMultiple": False,
                "allowSelect": True,
                "color": "0,0,0",
                "draw": True,
                "drawFaceUp": not deck.face_down,
                "faceDown": "Always" if deck.face_down else "Never",
                "height": 80,
                "name": deck.name,
                # no owningBoard: "" would name no board, and a named board may be chosen only after
                # the decks' setup (SetupStack.isOwningBoardActive); x, y are then map coordinates
                "reshufflable": False,
                "reversible": False,
                "shuffle": "Always",
                "width": 80,
                "x": 100 + 160 * i,
                "y": 100,
            },
        )
        for pid in deck.pieces:
            _slot(pile, by_id[pid], gpids[pid])


def _track_map(root: etree._Element, track: TrackSpec | None) -> None:
    """A track (or the holding boxes): a map whose board is the track image, each box a Zone named
    as its location."""
    if track is None:
        return
    m = _map(root, track.map_name, launch=True, mark_moved="Never")  # a toolbar button shows it
    picker = element(m, f"{MAP}.BoardPicker", {"slotHeight": 125, "slotScale": 0.2, "slotWidth": 350, "title": "Choose Boards"})
    board = element(picker, f"{BOARDS}.Board", {"image": track.image, "name": track.map_name, "reversible": False})
    zoned = element(board, f"{BOARDS}.board.ZonedGrid")
    for i, name in enumerate(track.boxes):
        x0, y0, x1, y1 = track.rect(i)
        element(zoned, f"{BOARDS}.board.mapgrid.Zone",
                {"highlightProperty": "", "locationFormat": "$name$", "name": name,
                 "path": f"{x0},{y0};{x1 - 1},{y0};{x1 - 1},{y1 - 1};{x0},{y1 - 1}", "useHighlight": False,
                 "useParentGrid": True})
    cx, cy = track.centre(0)
    element(zoned, f"{BOARDS}.board.SquareGrid",  # the background grid: snaps a marker to its box centre
            {"color": "0,0,0", "cornersLegal": False, "dotsVisible": False, "dx": float(track.box),
             "dy": float(track.box), "edgesLegal": False, "range": "Metric", "snapTo": True, "visible": False,
             "x0": cx, "y0": cy})
    _map_tools(m, levels=(0.5, 1.0), zoom=0.5)


def _slot(parent: etree._Element, p: PieceSpec, gpid: int) -> None:
    element(
        parent,
        f"{WIDGET}.PieceSlot",
        {"entryName": p.name, "gpid": gpid, "height": PIECE_SIZE, "width": PIECE_SIZE},
        text=piece_slot_text(p, gpid),
    )


def _palette(root: etree._Element, spec: ModuleSpec, gpids: Mapping[str, int]) -> None:
    window = element(root, f"{MODULE}.PieceWindow", {"hidden": False, "name": "Counters", "scale": 1.0,
                                                    "text": "Counters", "tooltip": "Show the counter palette"})
    tabs = element(window, f"{WIDGET}.TabWidget", {"entryName": "Counters"})
    in_decks = {pid for d in spec.decks for pid in d.pieces}
    sections: dict[str, dict[str, list[PieceSpec]]] = {}
    for p in spec.pieces:
        if p.id in in_decks:
            continue
        if p.kind == UNIT:
            section = p.side or "Units"
            group = p.group or p.formation or "Units"
        elif p.kind == CHIT:
            section, group = "Chits", p.group or p.side or "Chits"
        else:
            section, group = "Markers", p.group or "Markers"
        sections.setdefault(section, {}).setdefault(group, []).append(p)
    for section, groups in sections.items():
        lst = element(tabs, f"{WIDGET}.ListWidget", {"divider": 150, "entryName": section, "height": 0, "scale": 1.0, "width": 0})
        for group, members in groups.items():
            panel = element(lst, f"{WIDGET}.PanelWidget", {"entryName": group, "fixed": False,
                                                          "nColumns": spec.palette_columns, "scale": 1.0,
                                                          "vert": False})
            for p in members:
                _slot(panel, p, gpids[p.id])


def _toolbar(root: etree._Element, spec: ModuleSpec) -> None:
    for d in spec.dice:
        element(
            root,
            f"{MODULE}.DiceButton",
            {
                "addToTotal": 0,
                "nDice": d.n_dice,
                "nSides": d.n_sides,
                "name": d.name,
                "plus": d.plus,
                "prompt": False,
                "reportFormat": "** $name$ = $result$ *** <$PlayerName$>",
                "reportTotal": d.report_total,
                "sortDice": False,
                "text": d.name,
                "tooltip": d.tooltip or f"Roll {d.name}",
            },
        )
    tracker = element(
        root,
        f"{MODULE}.turn.TurnTracker",
        {
            "buttonText": "Turn",
            "length": -1,
            "lengthStyle": "Maximum",
            "name": "Turn",
            "reportFormat": "* <$PlayerId$> Turn updated from $oldTurn$ to $newTurn$",
            "turnFormat": "$level1$",
        },
    )
    if spec.turns:
        element(
            tracker,
            f"{MODULE}.turn.ListTurnLevel",
            {"list": se(list(turn_labels(spec.turns)), ","), "name": "Turn", "property": "Turn",
             "turnFormat": "$value$"},
        )
    else:  # the game's turn labels are not known: numbered turns
        element(
            tracker,
            f"{MODULE}.turn.CounterTurnLevel",
            {"incr": 1, "loop": False, "loopLimit": -1, "name": "Turn", "property": "Turn", "start": 1,
             "turnFormat": "Turn $value$"},
        )


def _charts(root: etree._Element, spec: ModuleSpec) -> None:
    if not spec.charts:
        return
    window = element(root, f"{MODULE}.ChartWindow", {"name": "Charts", "text": "Charts", "tooltip": "Show the charts"})
    tabs = element(window, f"{WIDGET}.TabWidget", {"entryName": "Charts"})
    for chart in spec.charts:
        element(tabs, f"{WIDGET}.Chart", {"chartName": chart.name, "fileName": chart.image})


def _documentation(root: etree._Element, spec: ModuleSpec) -> None:
    """The Help menu: the About screen, the module's help page and the game's own pages."""
    doc = element(root, f"{MODULE}.Documentation")
    if spec.about_image:
        element(doc, f"{MODULE}.documentation.AboutScreen", {"fileName": spec.about_image, "title": f"About {spec.name}"})
    if spec.help_html:
        element(doc, f"{MODULE}.documentation.HelpFile", {"fileName": HELP_FILE, "fileType": "archive",
                                                          "title": f"{spec.name}: module help"})
    for page in spec.help_pages:
        element(doc, f"{MODULE}.documentation.HelpFile", {"fileName": page.name, "fileType": "archive",
                                                          "title": page.title})


def build_buildfile(spec: ModuleSpec) -> Built:
    """The buildFile.xml bytes of ``spec`` and the gpid of every piece."""
    gpids = assign_gpids(p.id for p in spec.pieces)
    nxt = next_piece_slot_id(gpids.values())
    root = element(
        None,
        "VASSAL.build.GameModule",
        {
            "ModuleOther1": "",
            "ModuleOther2": "",
            "VassalVersion": spec.vassal_version,
            "description": spec.description,
            "name": spec.name,
            "nextPieceSlotId": nxt,
            "version": spec.version,
        },
    )
    element(root, f"{MODULE}.BasicCommandEncoder")
    _documentation(root, spec)
    roster = element(root, f"{MODULE}.PlayerRoster", {"buttonKeyStroke": "", "buttonText": "Retire",
                                                      "buttonToolTip": "Switch sides, become observer, or release faction"})
    for side in spec.sides:
        element(roster, "entry", text=side)
    element(root, f"{MODULE}.GlobalOptions", {"autoReport": "Always", "nonOwnerUnmaskable": "Never",
                                              "playerIdFormat": "$PlayerName$", "promptString": "Opponents can unmask pieces"})
    element(root, f"{MODULE}.Chatter")
    element(root, f"{MODULE}.KeyNamer")
    protos = element(root, f"{MODULE}.PrototypesContainer")
    facing_keys = sorted({p.facing.key for p in spec.pieces if p.facing is not None})
    for proto in prototypes(spec.status, facing_keys):
        element(protos, f"{MODULE}.PrototypeDefinition", {"description": proto.description, "name": proto.name},
                text=proto.text)
    _main_map(root, spec)
    _cups_map(root, spec, gpids)
    _track_map(root, spec.track)
    _track_map(root, spec.holding)
    _palette(root, spec, gpids)
    _toolbar(root, spec)
    _charts(root, spec)
    for scenario in spec.scenarios:
        element(root, f"{MODULE}.PredefinedSetup", {"file": scenario.file, "isMenu": False, "name": scenario.name,
                                                    "useFile": True})
    return Built(serialize(root), gpids, nxt)
