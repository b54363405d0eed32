"""A module build configuration as data: ``modules/<id>.yaml`` (built-in games) or ``module.yaml``
in a game folder (``docs/module.md``, "The build configuration"; ``docs/games.md``).

It says how the module of a game is built: board art (rendered from the map data, or a given
image such as a scan, on the grid of ``map.yaml``'s ``grid.pixels``), counter art, palette layout,
prototypes (status layers, markers that face a hexside), chit cups, dice, the VP / losses track,
holding boxes, charts, help pages, which scenarios become predefined set-ups, and the module's
version and ``VassalVersion``. Paths are relative to the game folder and may not leave it. Every
error names the file, line and column and the bad value (:mod:`gazala_tools.yamlnodes`).

The builder (:mod:`.games`) holds no game facts: what is game-specific is here, in ``game.yaml``
(sides, turns), ``scenarios.yaml``, ``tables.yaml`` and ``counters.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import yaml

from gazala_tools.errors import GameDataError
from gazala_tools.games.moduleyaml import (
    BOARD_KEYS,
    MAX_BOXES,
    RENDER,
    BoxesConfig,
    board_art,
    boxes,
    folder_file,
)
from gazala_tools.games.moduleyaml import name as _name
from gazala_tools.games.scenarios import load_scenarios
from gazala_tools.games.tables import load_tables
from gazala_tools.vassal.module import traits as t
from gazala_tools.vassal.module.spec import DiceSpec
from gazala_tools.yamlnodes import COLOR_RE, Doc, compose, did_you_mean

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.games import Game

__all__ = [
    "CHART_KEYS",
    "COUNTER_ART",
    "COUNTER_KEYS",
    "CUP_KEYS",
    "DICE_KEYS",
    "FACING_KEYS",
    "HELP_KEYS",
    "HELP_SUFFIXES",
    "KEY_RE",
    "PALETTE_KEYS",
    "PANELS",
    "PROTO_KEYS",
    "RESERVED_HELP",
    "RESERVED_KEYS",
    "STATUS_KEYS",
    "TOP_KEYS",
    "TRACK_KEYS",
    "VERSION_RE",
    "FacingMarker",
    "HelpPage",
    "Keystroke",
    "ModuleConfig",
    "StatusLayer",
    "TrackConfig",
    "config_game_ref",
    "default_config",
    "keystroke",
    "read_config",
]

TOP_KEYS: Final = frozenset({
    "game", "name", "description", "version", "vassal_version", "board", "counters", "palette", "prototypes",
    "cups", "dice", "track", "boxes", "charts", "help", "scenarios", "vassal",
})  # fmt: skip
COUNTER_KEYS: Final = frozenset({"art", "size_px"})
PALETTE_KEYS: Final = frozenset({"panels", "columns"})
PROTO_KEYS: Final = frozenset({"status", "facing"})
STATUS_KEYS: Final = frozenset({"name", "key", "badge", "color"})
FACING_KEYS: Final = frozenset({"type", "layer", "states", "menu", "key"})
CUP_KEYS: Final = frozenset({"markers"})
DICE_KEYS: Final = frozenset({"name", "dice", "sides", "add", "total", "tooltip"})
TRACK_KEYS: Final = frozenset({"id", "map", "title", "box", "boxes", "marker", "marker_type", "source"})
CHART_KEYS: Final = frozenset({"tables", "order_of_battle"})
HELP_KEYS: Final = frozenset({"title", "file"})

#: counter art: our renderer (a counter's own art files win), or the art files only
COUNTER_ART: Final = ("render", "images")
#: palette panels of the units (one tab per side): by formation, type, nationality, or one panel
PANELS: Final = ("formation", "type", "nationality", "none")
HELP_SUFFIXES: Final = (".html", ".htm")
#: keys the builder's own commands use (pieces.py): a status layer may not take one
RESERVED_KEYS: Final = {"Ctrl+D": "Delete", "Ctrl+L": "Lose step", "Ctrl+R": "Recover step", "Ctrl+U": "Used",
                        "Ctrl+F": "Flip", "Ctrl+]": "Rotate CW", "Ctrl+[": "Rotate CCW", "Ctrl+M": "Mask"}
#: names the module itself gives a help page
RESERVED_HELP: Final = ("module.html",)
KEY_RE: Final = re.compile(r"^((?:(?:Ctrl|Shift|Alt)\+)+)([A-Z0-9\[\]])$")
VERSION_RE: Final = re.compile(r"^\d+(\.\d+){1,3}$")


@dataclass(frozen=True)
class Keystroke:
    text: str  #: as written ("Ctrl+Shift+D")
    code: str  #: VASSAL's ``code,modifiers``


@dataclass(frozen=True)
class StatusLayer:
    """A status every unit may show (prototype ``Unit``): layer ``name`` (``<name>_Active``), a key,
    and the badge drawn over the counter."""

    name: str
    key: Keystroke
    badge: str
    color: tuple[int, int, int]


@dataclass(frozen=True)
class FacingMarker:
    """Markers of ``type`` turn to point at one of the six hexsides and show ``states`` in turn
    (layer ``layer``: ``<layer>_Level`` 1, 2, ...); their piece ``Kind`` is the type."""

    type: str
    layer: str
    states: tuple[str, ...]
    menu: str
    key: Keystroke


@dataclass(frozen=True)
class TrackConfig:
    """A numbered track on a map of its own: boxes ``<box> 0`` .. ``<box> boxes-1``, a x1 and a x10
    marker per side (a manifest marker ``<side>-<marker_type>`` is that side's x1 marker)."""

    id: str
    map: str
    title: str
    box: str
    boxes: int
    marker: str
    marker_type: str
    source: str = ""


@dataclass(frozen=True)
class HelpPage:
    title: str
    file: Path  #: the HTML file in the game folder
    name: str  #: its path inside the module (``help/<file name>``)


@dataclass(frozen=True)
class ModuleConfig:
    """How to build a game's module; :func:`default_config` when a game has none."""

    file: str = ""  #: the YAML it was read from ("" = defaults)
    game: str = ""  #: ``game:`` as written
    name: str = ""  #: module name ("" = the game's name)
    description: str = ""
    version: str = "1.0"
    vassal_version: str = "3.6.0"
    board_art: Path | None = None  #: a given board image; None = rendered from the map data
    board_dpi: float | None = None
    counter_art: str = RENDER
    counter_size_px: int | None = None
    panels: str = "formation"
    columns: int = 6
    status: tuple[StatusLayer, ...] = ()
    facing: tuple[FacingMarker, ...] = ()
    cup_markers: tuple[str, ...] = ()  #: marker types drawn from a cup like chits
    dice: tuple[DiceSpec, ...] = ()
    track: TrackConfig | None = None
    boxes: BoxesConfig | None = None
    chart_tables: tuple[str, ...] | None = None  #: table names in order; None = every table
    order_of_battle: bool = True
    help: tuple[HelpPage, ...] = ()
    scenarios: tuple[str, ...] | None = None  #: scenario ids; None = every scenario

    def facing_marker(self, marker_type: str) -> FacingMarker | None:
        return next((f for f in self.facing if f.type == marker_type), None)


def default_config() -> ModuleConfig:
    """A game without a build configuration: rendered board and counters, every table and scenario."""
    return ModuleConfig()


def keystroke(doc: Doc, node: yaml.Node, what: str) -> Keystroke:
    """``Ctrl+Shift+D`` as VASSAL's plain keystroke ``code,modifiers``."""
    text = doc.scalar(node, what)
    m = KEY_RE.match(text)
    if not m or "Ctrl+" not in m.group(1):
        raise doc.err(node, f"{what}: {text!r} is not a key", expected="Ctrl+KEY, Ctrl+Shift+KEY or Ctrl+Alt+KEY (A-Z, 0-9, [ ])")
    mods = {part for part in m.group(1).split("+") if part}
    bits = sum({"Ctrl": t.CTRL, "Shift": t.SHIFT, "Alt": t.ALT}[x] for x in mods)
    canonical = "+".join(x for x in ("Ctrl", "Shift", "Alt") if x in mods) + "+" + m.group(2)
    if canonical in RESERVED_KEYS:
        raise doc.err(node, f"{what}: {text} is the module's {RESERVED_KEYS[canonical]} key",
                      expected="a key the module does not use (" + ", ".join(RESERVED_KEYS) + ")")
    return Keystroke(canonical, t.key(m.group(2), bits))


def _color(doc: Doc, node: yaml.Node, what: str) -> tuple[int, int, int]:
    text = doc.scalar(node, what)
    if not COLOR_RE.match(text):
        raise doc.err(node, f"{what}: {text!r} is not a colour", expected="#rrggbb")
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


class _Reader:
    def __init__(self, file: Path, game: Game) -> None:
        self.file = file
        self.game = game
        self.doc = Doc(file, GameDataError)

    def path(self, node: yaml.Node, what: str, suffixes: tuple[str, ...]) -> Path:
        """A file of the game folder named in the config (``game.file``: never outside the folder)."""
        return folder_file(self.doc, self.game, node, what, suffixes)

    def read(self, root: yaml.Node) -> ModuleConfig:
        d = self.doc
        m = d.mapping(root, "module config", TOP_KEYS)
        out: dict[str, object] = {"file": str(self.file), "game": d.string(m, "game", "module config", "")}
        self._read_titles(m, out)
        self._read_art(m, out)
        self._read_prototypes(m, out)
        if "cups" in m:
            c = d.mapping(m["cups"], "cups", CUP_KEYS)
            if "markers" in c:
                out["cup_markers"] = tuple(d.ident(n, f"cups.markers[{i}]") for i, n in enumerate(d.seq(c["markers"], "cups.markers")))
        if "dice" in m:
            out["dice"] = tuple(d.each(m["dice"], "dice", self.dice))
            names = [x.name for x in out["dice"]]  # type: ignore[attr-defined]
            if len(set(names)) != len(names):
                raise d.err(m["dice"], "dice: two dice buttons have the same name", expected="distinct names")
        if "track" in m:
            out["track"] = self.track(m["track"])
        if "boxes" in m:
            out["boxes"] = boxes(d, m["boxes"])
        if "charts" in m:
            c = d.mapping(m["charts"], "charts", CHART_KEYS)
            if "tables" in c:
                out["chart_tables"] = self.tables(c["tables"])
            if "order_of_battle" in c:
                out["order_of_battle"] = d.boolean(c["order_of_battle"], "charts.order_of_battle")
        if "help" in m:
            out["help"] = self.help(m["help"])
        if "scenarios" in m:
            out["scenarios"] = self.scenarios(m["scenarios"])
        self.check_maps(m, out)
        return ModuleConfig(**out)  # type: ignore[arg-type]

    def _read_titles(self, m: dict[str, yaml.Node], out: dict[str, object]) -> None:
        """``name``, ``description``, ``version`` and ``vassal_version``."""
        d = self.doc
        for key in ("name", "description"):
            if key in m:
                out[key] = _name(d, m[key], key) if key == "name" else d.scalar(m[key], key)
        for key in ("version", "vassal_version"):
            if key in m:
                v = d.scalar(m[key], key)
                if not VERSION_RE.match(v):
                    raise d.err(m[key], f"{key}: {v!r} is not a version", expected="numbers joined by dots, e.g. 3.6.0")
                out[key] = v

    def _read_art(self, m: dict[str, yaml.Node], out: dict[str, object]) -> None:
        """``board``, ``counters`` and ``palette``: the art and how the pieces are laid out."""
        d = self.doc
        board = self.section(m, "board", BOARD_KEYS)
        if (art := board_art(d, self.game, board)) is not None:
            out["board_art"] = art
        self.opt(out, "board_dpi", board, "board.dpi", lambda n, w: float(d.integer(n, w, lo=10, hi=1200)))
        counters = self.section(m, "counters", COUNTER_KEYS)
        self.opt(out, "counter_art", counters, "counters.art", lambda n, w: d.choice(n, w, COUNTER_ART))
        self.opt(out, "counter_size_px", counters, "counters.size_px", lambda n, w: d.integer(n, w, lo=16, hi=1024))
        palette = self.section(m, "palette", PALETTE_KEYS)
        self.opt(out, "panels", palette, "palette.panels", lambda n, w: d.choice(n, w, PANELS))
        self.opt(out, "columns", palette, "palette.columns", lambda n, w: d.integer(n, w, lo=1, hi=50))

    def _read_prototypes(self, m: dict[str, yaml.Node], out: dict[str, object]) -> None:
        """``prototypes``: the status layers (else the game's markers that are statuses) and facings."""
        d = self.doc
        if "prototypes" in m:
            pr = d.mapping(m["prototypes"], "prototypes", PROTO_KEYS)
            if "status" in pr:
                out["status"] = tuple(d.each(pr["status"], "prototypes.status", self.status))
                self.status_are_markers(pr["status"], out["status"])  # type: ignore[arg-type]
            if "facing" in pr:
                out["facing"] = tuple(d.each(pr["facing"], "prototypes.facing", self.facing))
            self.distinct_keys(pr, out)
        if "status" not in out and (derived := self.markers_as_status()):
            out["status"] = derived

    def section(self, m: dict[str, yaml.Node], key: str, keys: frozenset[str]) -> dict[str, yaml.Node]:
        """The mapping under ``key`` (empty when the config leaves it out)."""
        return self.doc.mapping(m[key], key, keys) if key in m else {}

    @staticmethod
    def opt(out: dict[str, object], field: str, sec: dict[str, yaml.Node], what: str,
            read: Callable[[yaml.Node, str], object]) -> None:
        """``out[field]`` read from the section's last key of ``what``, when the config gives it."""
        key = what.rsplit(".", 1)[-1]
        if key in sec:
            out[field] = read(sec[key], what)

    def game_markers(self) -> dict[str, dict[str, object]] | None:
        """The game's markers (``game.yaml`` ``rules.markers``: id -> entry), None when it declares none."""
        got = (self.game.rules or {}).get("markers")
        if not isinstance(got, dict):
            return None
        return {str(k): (v if isinstance(v, dict) else {}) for k, v in got.items()}

    def status_are_markers(self, node: yaml.Node, status: tuple[StatusLayer, ...]) -> None:
        """The module and the referee read one list of markers: a status layer is one of the game's
        markers (by its ``name``) when the game declares them."""
        markers = self.game_markers()
        if markers is None:
            return
        names = [str(v.get("name") or k.replace("-", " ").title()) for k, v in markers.items()]
        for i, (sl, n) in enumerate(zip(status, self.doc.seq(node, "prototypes.status"), strict=True)):
            if sl.name not in names:
                raise self.doc.err(n, f"prototypes.status[{i}].name: {sl.name!r} is not a marker of the game"
                                   f"{did_you_mean(sl.name, names)}",
                                   expected="a name of game.yaml rules.markers (" + ", ".join(names) + ")")

    def markers_as_status(self) -> tuple[StatusLayer, ...]:
        """Without ``prototypes.status``: a status layer for each of the game's markers that gives a
        ``key`` (with its ``badge`` and ``color``)."""
        out = []
        for mid, v in (self.game_markers() or {}).items():
            if not v.get("key"):
                continue
            name = str(v.get("name") or mid.replace("-", " ").title())
            doc = self.doc
            key_node = yaml.ScalarNode("tag:yaml.org,2002:str", str(v["key"]))
            color = (_color(doc, yaml.ScalarNode("tag:yaml.org,2002:str", str(v["color"])), f"markers.{mid}.color")
                     if v.get("color") else (120, 120, 120))
            out.append(StatusLayer(name, keystroke(doc, key_node, f"rules.markers.{mid}.key"),
                                   str(v.get("badge") or name[:3].upper()), color))
        return tuple(out)

    def status(self, node: yaml.Node, what: str) -> StatusLayer:
        d = self.doc
        s = d.mapping(node, what, STATUS_KEYS)
        d.require(s, node, what, "name", "key")
        name = _name(d, s["name"], f"{what}.name")
        badge = d.scalar(s["badge"], f"{what}.badge") if "badge" in s else name[:3].upper()
        color = _color(d, s["color"], f"{what}.color") if "color" in s else (120, 120, 120)
        return StatusLayer(name, keystroke(d, s["key"], f"{what}.key"), badge, color)

    def facing(self, node: yaml.Node, what: str) -> FacingMarker:
        d = self.doc
        f = d.mapping(node, what, FACING_KEYS)
        d.require(f, node, what, "type", "layer", "states", "key")
        states = tuple(_name(d, n, f"{what}.states[{i}]") for i, n in enumerate(d.seq(f["states"], f"{what}.states")))
        if not 1 <= len(states) <= 10:
            raise d.err(f["states"], f"{what}.states: {len(states)} states", expected="1 to 10 states")
        layer = _name(d, f["layer"], f"{what}.layer")
        menu = _name(d, f["menu"], f"{what}.menu") if "menu" in f else " / ".join(states)
        return FacingMarker(d.ident(f["type"], f"{what}.type"), layer, states, menu, keystroke(d, f["key"], f"{what}.key"))

    def distinct_keys(self, pr: dict[str, yaml.Node], out: dict[str, object]) -> None:
        keys: list[str] = [s.key.text for s in out.get("status", ())]  # type: ignore[attr-defined]
        keys += [f.key.text for f in out.get("facing", ())]  # type: ignore[attr-defined]
        names = [s.name for s in out.get("status", ())] + [f.layer for f in out.get("facing", ())]  # type: ignore[attr-defined]
        for what, items in (("key", keys), ("layer name", names)):
            dup = next((k for k in items if items.count(k) > 1), None)
            if dup is not None:
                raise self.doc.err(pr.get("status") or pr.get("facing"), f"prototypes: {what} {dup!r} used twice",
                                   expected=f"a distinct {what} per status layer and facing marker")
        clash = {"Step", "Used", "Face", "Facing"} & set(names)
        if clash:
            raise self.doc.err(pr.get("status") or pr.get("facing"), f"prototypes: layer name {sorted(clash)[0]!r} is the module's own",
                               expected="another name (Step, Used, Face and Facing are taken)")

    def dice(self, node: yaml.Node, what: str) -> DiceSpec:
        d = self.doc
        x = d.mapping(node, what, DICE_KEYS)
        d.require(x, node, what, "name", "sides")
        return DiceSpec(
            _name(d, x["name"], f"{what}.name"),
            d.integer(x["dice"], f"{what}.dice", lo=1, hi=100) if "dice" in x else 1,
            d.integer(x["sides"], f"{what}.sides", lo=2, hi=1000),
            d.integer(x["add"], f"{what}.add", lo=-1000, hi=1000) if "add" in x else 0,
            d.boolean(x["total"], f"{what}.total") if "total" in x else False,
            d.scalar(x["tooltip"], f"{what}.tooltip") if "tooltip" in x else "",
        )

    def track(self, node: yaml.Node) -> TrackConfig:
        d = self.doc
        x = d.mapping(node, "track", TRACK_KEYS)
        d.require(x, node, "track", "id", "map", "marker_type")
        name = _name(d, x["map"], "track.map")
        marker_type = d.ident(x["marker_type"], "track.marker_type")
        return TrackConfig(
            id=d.ident(x["id"], "track.id"),
            map=name,
            title=d.scalar(x["title"], "track.title") if "title" in x else name,
            box=_name(d, x["box"], "track.box") if "box" in x else name,
            boxes=d.integer(x["boxes"], "track.boxes", lo=2, hi=MAX_BOXES) if "boxes" in x else 20,
            marker=_name(d, x["marker"], "track.marker") if "marker" in x else marker_type,
            marker_type=marker_type,
            source=d.string(x, "source", "track", ""),
        )

    def tables(self, node: yaml.Node) -> tuple[str, ...]:
        d = self.doc
        known = {tb.name: tb for tb in load_tables(self.game)}
        out: list[str] = []
        for i, n in enumerate(d.seq(node, "charts.tables")):
            name = d.scalar(n, f"charts.tables[{i}]")
            if name not in known:
                raise d.err(n, f"charts.tables[{i}]: {name!r} is not a table of tables.yaml",
                            expected=", ".join(known) or "a tables.yaml in the game folder")
            if name in out:
                raise d.err(n, f"charts.tables[{i}]: {name!r} listed twice")
            out.append(name)
        return tuple(out)

    def help(self, node: yaml.Node) -> tuple[HelpPage, ...]:
        d = self.doc
        out: list[HelpPage] = []
        for i, n in enumerate(d.seq(node, "help")):
            what = f"help[{i}]"
            h = d.mapping(n, what, HELP_KEYS)
            d.require(h, n, what, "title", "file")
            file = self.path(h["file"], f"{what}.file", HELP_SUFFIXES)
            name = f"help/{file.name}"
            if file.name in RESERVED_HELP or any(p.name == name for p in out):
                raise d.err(h["file"], f"{what}.file: a help page is already called {file.name!r} in the module",
                            expected="another file name (module.html is the module's own page)")
            out.append(HelpPage(_name(d, h["title"], f"{what}.title"), file, name))
        return tuple(out)

    def scenarios(self, node: yaml.Node) -> tuple[str, ...]:
        d = self.doc
        known = [s.id for s in load_scenarios(self.game)]
        out: list[str] = []
        for i, n in enumerate(d.seq(node, "scenarios")):
            sid = d.ident(n, f"scenarios[{i}]")
            if sid not in known or sid in out:
                raise d.err(n, f"scenarios[{i}]: {sid!r} is not a scenario of scenarios.yaml, or listed twice",
                            expected=", ".join(known) or "a scenarios.yaml in the game folder")
            out.append(sid)
        return tuple(out)

    def check_maps(self, m: dict[str, yaml.Node], out: dict[str, object]) -> None:
        track, boxes = out.get("track"), out.get("boxes")
        if isinstance(track, TrackConfig) and isinstance(boxes, BoxesConfig):
            if track.map == boxes.map:
                raise self.doc.err(m["boxes"], f"boxes.map: {boxes.map!r} is the track's map too", expected="another map name")
            if any(b.startswith(track.box + " ") for b in boxes.names):
                raise self.doc.err(m["boxes"], "boxes.names: a box is named like a track box", expected=f"names not starting {track.box!r}")


def read_config(file: Path, game: Game) -> ModuleConfig:
    """Parse and check the build configuration ``file`` of ``game``."""
    doc = Doc(file, GameDataError)
    root = compose(file, "module config", GameDataError)
    reader = _Reader(file, game)
    cfg = reader.read(root)
    if cfg.game and file.parent != game.folder and cfg.game != game.id and Path(cfg.game).name != game.folder.name:
        m = doc.mapping(root, "module config")
        raise doc.err(m["game"], f"game: {cfg.game!r} is not {game.id!r}", expected=f"game: {game.id}")
    return cfg


def config_game_ref(file: Path) -> tuple[str, Path | None]:
    """What a stand-alone config's ``game:`` names: a built-in id, or a folder (relative to the config)."""
    doc = Doc(file, GameDataError)
    root = compose(file, "module config", GameDataError)
    m = doc.mapping(root, "module config", TOP_KEYS)
    doc.require(m, root, "module config", "game")
    ref = doc.scalar(m["game"], "game")
    from gazala_tools.games import is_builtin

    if is_builtin(ref):
        return ref, None
    folder = (file.parent / ref).resolve()
    if not (folder / "game.yaml").is_file():
        raise doc.err(m["game"], f"game: {ref!r} is neither a built-in game nor a game folder",
                      expected="a built-in game id or a folder with game.yaml (relative to this file)")
    return ref, folder
