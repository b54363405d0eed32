"""What a module is built from: plain data, no XML (style principle 8).

:func:`gazala_tools.vassal.module.games.module_spec` fills a :class:`ModuleSpec` from a game folder
(map data, counter manifest, scenarios, tables) and its build configuration;
:func:`gazala_tools.vassal.module.build.build_buildfile` turns one into a buildFile. Images are
named here and supplied as bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gazala_tools.games.moduleyaml import TRACK_MARGIN, TRACK_TOP, box_rect
from gazala_tools.games.tables import slug

#: What a palette piece is; decides its prototype and behaviour. A marker that faces a hexside
#: (:class:`FacingSpec`) is of kind MARKER with ``facing`` set; its ``Kind`` property is its type.
UNIT, MARKER, CHIT = "unit", "marker", "chit"

__all__ = [
    "PRE_GAME_TURN",
    "BoardSpec",
    "ChartSpec",
    "DeckSpec",
    "DiceSpec",
    "FacingSpec",
    "HelpSpec",
    "ModuleSpec",
    "PieceSpec",
    "ScenarioSpec",
    "StatusSpec",
    "TrackSpec",
    "setup_file",
    "slug",
    "turn_labels",
    "turn_state",
]


@dataclass(frozen=True)
class FacingSpec:
    """A marker that points at one of six hexsides and shows ``states`` in turn (layer ``layer``)."""

    layer: str
    states: tuple[str, ...]
    menu: str
    key: str  #: VASSAL keystroke ``code,modifiers``


@dataclass(frozen=True)
class StatusSpec:
    """A status layer of every unit (prototype ``Unit``): ``<name>_Active``, a key, its badge image."""

    name: str
    key: str  #: VASSAL keystroke ``code,modifiers``
    image: str  #: the badge drawn over the counter (in ``images/``)


@dataclass(frozen=True)
class PieceSpec:
    """One palette piece (a counter), named by our stable id.

    ``faces``: image names of its step levels, full strength first (one face: no step layer).
    ``used``: images of the used side of each step (RG backs), drawn over the face when "Used".
    ``properties``: extra Marker properties (besides UnitId, Side, Formation, Type, Steps, Kind).
    """

    id: str
    name: str
    kind: str = UNIT
    side: str = ""
    formation: str = ""
    type: str = ""
    faces: tuple[str, ...] = ()
    used: tuple[str, ...] = ()  #: used-side images, one per step (RG backs)
    mask: str | None = None  #: image others see while the chit is hidden (chits drawn from a cup)
    group: str = ""  #: palette panel (default: formation, or the kind for markers/chits)
    properties: Mapping[str, str] = field(default_factory=dict)
    facing: FacingSpec | None = None  #: a marker pointing at a hexside (faces = its states)

    @property
    def steps(self) -> int:
        return max(1, len(self.faces))


@dataclass(frozen=True)
class DiceSpec:
    name: str
    n_dice: int
    n_sides: int
    plus: int = 0  #: added to each die (d10 0-9: n_sides 10, plus -1)
    report_total: bool = False
    tooltip: str = ""


@dataclass(frozen=True)
class DeckSpec:
    """A chit cup: a face-down, shuffled deck of pieces on the "Chit Cups" map."""

    name: str
    pieces: tuple[str, ...]  #: piece ids
    face_down: bool = True


@dataclass(frozen=True)
class ScenarioSpec:
    """An at-start set-up: piece id -> hex label (or an off-map box name)."""

    name: str
    placements: tuple[tuple[str, str], ...]
    turn: str = ""
    source: str = ""  #: the rule it follows
    used: tuple[str, ...] = ()  #: piece ids that start used side up
    track: tuple[tuple[str, int], ...] = ()  #: piece id -> box of the VP track (markers at start)
    boxes: tuple[tuple[str, str], ...] = ()  #: piece id -> holding box name

    @property
    def file(self) -> str:
        """The set-up's save inside the module (``PredefinedSetup`` ``file``)."""
        return setup_file(self.name)


def setup_file(scenario_name: str) -> str:
    """Where the module keeps the set-up save of the scenario called ``scenario_name``."""
    return f"setups/{slug(scenario_name)}.vsav"


@dataclass(frozen=True)
class BoardSpec:
    """The main map's board: image and HexGrid/HexGridNumbering attributes (VASSAL strings)."""

    image: str
    width: int
    height: int
    grid_attrs: Mapping[str, str]
    numbering_attrs: Mapping[str, str]
    edge_width: int = 0
    edge_height: int = 0


@dataclass(frozen=True)
class ChartSpec:
    """A chart (an image in ``images/``) in the Charts window."""

    name: str
    image: str


@dataclass(frozen=True)
class TrackSpec:
    """A numbered track (VP track) on a map of its own: ``len(boxes)`` boxes in rows of ``columns``.

    Box ``i`` is a Zone named ``boxes[i]`` (its location name); a background square grid snaps a
    dropped marker to the box centre. Coordinates are map = board pixels (the map has no edge).
    """

    map_name: str
    title: str
    boxes: tuple[str, ...]  #: location names, box 0 first
    numbers: tuple[str, ...]  #: what each box shows
    image: str = "vp-track.png"
    columns: int = 10
    box: int = 72  #: box side (pixels)
    id: str = ""  #: the track's id (scenarios' track start values name it)
    margin: int = TRACK_MARGIN
    top: int = TRACK_TOP  #: room for the title

    @property
    def rows(self) -> int:
        return -(-len(self.boxes) // self.columns)

    @property
    def width(self) -> int:
        return 2 * self.margin + self.columns * self.box

    @property
    def height(self) -> int:
        return self.top + self.rows * self.box + self.margin

    def rect(self, i: int) -> tuple[int, int, int, int]:
        """Box ``i``: left, top, right, bottom (right/bottom exclusive)."""
        return box_rect(i, columns=self.columns, box=self.box, margin=self.margin, top=self.top)

    def centre(self, i: int) -> tuple[int, int]:
        x0, y0, x1, y1 = self.rect(i)
        return (x0 + x1) // 2, (y0 + y1) // 2


@dataclass(frozen=True)
class HelpSpec:
    """A help page of the Help menu: an HTML file stored in the module as ``name`` (``help/...``)."""

    title: str
    name: str
    data: bytes


@dataclass(frozen=True)
class ModuleSpec:
    game: str
    name: str
    version: str
    description: str
    sides: tuple[str, ...]
    board: BoardSpec
    pieces: tuple[PieceSpec, ...]
    turns: tuple[str, ...] = ()
    dice: tuple[DiceSpec, ...] = ()
    decks: tuple[DeckSpec, ...] = ()
    scenarios: tuple[ScenarioSpec, ...] = ()
    help_html: str = ""
    help_pages: tuple[HelpSpec, ...] = ()  #: the game's own help pages (Help menu)
    charts: tuple[ChartSpec, ...] = ()
    about_image: str = ""  #: the About screen (Help menu), an image in ``images/``
    track: TrackSpec | None = None  #: the VP track (a map of its own)
    holding: TrackSpec | None = None  #: named holding boxes (a map of their own)
    status: tuple[StatusSpec, ...] = ()  #: status layers of every unit
    palette_columns: int = 6  #: counters per row in a palette panel
    images: Mapping[str, bytes] = field(default_factory=dict)  #: images/<name> -> bytes
    vassal_version: str = "3.6.0"

    def piece(self, piece_id: str) -> PieceSpec:
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)


#: The first entry of every turn list we write. VASSAL's ``TurnLevel`` starts a new game at list
#: index 1 (``current = 1``) without resetting list levels, while an engine that does reset starts
#: at index 0: with this entry first, a new game opens on the first real turn in the first case
#: and one click before it in the second. Set-ups set their start turn explicitly anyway.
PRE_GAME_TURN = "Set-up"


def turn_labels(turns: tuple[str, ...]) -> tuple[str, ...]:
    """The ``ListTurnLevel`` list of a module whose game has the turn record ``turns``."""
    return (PRE_GAME_TURN, *turns) if turns else ()


def turn_state(turns: tuple[str, ...], turn: str) -> str:
    """The ``TurnTracker`` state (``TURN`` command) that shows ``turn`` (the first turn if unknown).

    With labels: ``currentLevel|current;currentSubLevel;first;active flags`` (``ListTurnLevel``).
    Without (numbered turns): ``currentLevel|current;currentSubLevel;loop;loopLimit``
    (``CounterTurnLevel``, start 1, no loop), ``turn`` being the number.
    """
    if not turns:
        number = int(turn) if turn.strip().isdigit() else 1
        return f"0|{number};0;false;-1"
    labels = turn_labels(turns)
    current = labels.index(turn) if turn in labels[1:] else 1
    return f"0|{current};0;0;" + ",".join("true" for _ in labels)

