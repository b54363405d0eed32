"""A :class:`~.spec.ModuleSpec` of any game folder: its data plus its build configuration.

Nothing here is about one game. What a module holds comes from the game folder (``docs/games.md``)
and its build configuration (:mod:`.config`, ``docs/module.md``):

* board: rendered from ``map.yaml`` (:func:`~gazala_tools.render.board.render_board`), or the given
  image (a scan) on the grid of ``map.yaml``'s ``grid.pixels``; HexGridNumbering from ``game.yaml``;
* pieces: one palette piece per **unit** (the manifest has one counter per step; the module shows
  the steps as levels of a "Step" layer and the used sides as a "Used" layer), one per marker kind,
  one card per physical chit (chits go into the cups); faces drawn, or the counters' own art;
* sides, side colours and the turn track: ``game.yaml``;
* set-ups: ``scenarios.yaml`` resolved to one hex (or box) per unit
  (:func:`gazala_tools.games.scenarios.resolve_setup`), track markers at their start values;
* charts: ``tables.yaml`` drawn as pages (:mod:`.charts`) and an order of battle per side;
* dice, cups, prototypes' status layers, facing markers, track, boxes, help pages: the config.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
import re
from collections.abc import Callable, Iterable, MutableMapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gazala_tools.counters.loader import load_game_manifest
from gazala_tools.counters.model import Counter
from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.escape import head as page_head
from gazala_tools.escape import text as escape  # the one escaping helper of every page we write
from gazala_tools.games import Game, find_game
from gazala_tools.games.moduleyaml import HOLDING_BOX, HOLDING_COLUMNS, BoxesConfig
from gazala_tools.games.scenarios import Scenario, load_scenarios, resolve_setup
from gazala_tools.games.tables import load_tables
from gazala_tools.inputs import BOARD_IMAGE_FORMATS, MAX_BOARD_BYTES, read_file
from gazala_tools.mapdata.loader import load_game_map
from gazala_tools.vassal.gamelayout import numbering_for_size
from gazala_tools.vassal.module import faces
from gazala_tools.vassal.module.charts import render_table
from gazala_tools.vassal.module.config import (
    ModuleConfig,
    TrackConfig,
    config_game_ref,
    default_config,
    read_config,
)
from gazala_tools.vassal.module.spec import (
    CHIT,
    MARKER,
    UNIT,
    BoardSpec,
    ChartSpec,
    DeckSpec,
    FacingSpec,
    HelpSpec,
    ModuleSpec,
    PieceSpec,
    ScenarioSpec,
    StatusSpec,
    TrackSpec,
    slug,
)
from gazala_tools.vassal.module.spool import SpooledImages
from gazala_tools.wording import count

if TYPE_CHECKING:  # pragma: no cover
    from gazala_tools.counters.model import Manifest
    from gazala_tools.mapdata.model import GameMap

__all__ = [
    "BOARD_FORMATS",
    "DEFAULT_SIDE_COLOUR",
    "MAX_BOARD_PIXELS",
    "MAX_HELP_BYTES",
    "NEUTRAL_NAME",
    "PARALLEL_FACES",
    "PendingSpec",
    "counter_size",
    "default_description",
    "game_and_config",
    "help_page",
    "holding_track",
    "log",
    "module_spec",
    "start_module_spec",
]

log = logging.getLogger(__name__)

#: the side of markers that belong to no side, as the palette and the Side property show it
NEUTRAL_NAME = "Neutral"
#: a track marker of a side without a colour in game.yaml
DEFAULT_SIDE_COLOUR = (200, 200, 200)
#: largest board image read (bytes: ``inputs.MAX_BOARD_BYTES``, pixels): checked before it is decoded
MAX_BOARD_PIXELS = 400_000_000
MAX_HELP_BYTES = 4 * 1024 * 1024
BOARD_FORMATS = BOARD_IMAGE_FORMATS
#: a two-sided marker whose back adds to its box ("VP +10") says so in its back title
_FLIP_BONUS = re.compile(r"\+\s*(\d+)")


# --- which game, which configuration ----------------------------------------------------------------
def game_and_config(ref: str | Path | Game) -> tuple[Game, ModuleConfig]:
    """What ``gazala module build REF`` builds: a built-in id, a game folder (``module.yaml`` in it),
    or a build configuration YAML whose ``game:`` names the game (an id, or a folder relative to it)."""
    if not isinstance(ref, Game):
        p = Path(ref)
        if p.suffix.lower() in (".yaml", ".yml") and p.is_file() and p.name != "game.yaml":
            name, folder = config_game_ref(p)
            game = find_game(folder if folder is not None else name)
            return game, read_config(p, game)
    game = find_game(ref)
    if game.module_config is None:
        return game, default_config()
    return game, read_config(game.module_config, game)


# --- sides --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Sides:
    game: Game

    def name(self, side_id: str) -> str:
        """A side as the module shows it (game.yaml's name; markers of no side: Neutral)."""
        try:
            return self.game.side(side_id).name
        except KeyError:
            return NEUTRAL_NAME if side_id == "neutral" else side_id.replace("-", " ").title()

    def colour(self, side_id: str) -> tuple[int, int, int]:
        c = self.game.side(side_id).color
        return (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)) if c else DEFAULT_SIDE_COLOUR


# --- pieces -----------------------------------------------------------------------------------------
def _unit_name(c: Counter) -> str:
    return f"{c.designation} ({c.formation})" if c.formation else c.designation or c.id


def _panel(c: Counter, manifest: Manifest, panels: str) -> str:
    if panels == "formation":
        return c.formation or "Units"
    if panels == "type":
        return c.type.replace("-", " ").capitalize() or "Units"
    if panels == "nationality":
        nat = manifest.nationality(c)
        return nat.name if nat is not None else "Units"
    return "Units"


#: faces to draw before the work is shared among processes (below it, starting them costs more)
PARALLEL_FACES = 1500


def _draw(batch: Sequence[tuple[Counter, str]], dpi: float, size: int) -> list[bytes]:
    """PNG bytes of each (counter, side) of ``batch`` (run in a worker process for large games)."""
    return [faces.png_bytes(faces.face_image(c, side, dpi=dpi, size=size)) for c, side in batch]


def _jobs() -> int:
    """Processes to draw faces with: ``GAZALA_JOBS``, else the CPUs this process may use (at most 4)."""
    env = os.environ.get("GAZALA_JOBS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


#: the fields of a counter that show on its faces (all but its names): compared as a tuple, not
#: through ``dataclasses.replace`` (which re-runs the constructor, a tenth of a large game's drawing)
_LOOK_FIELDS = tuple(f.name for f in fields(Counter) if f.compare and f.name not in ("id", "unit_id", "provenance"))


class _Look:
    """What a face looks like: the counter without its names, and the side; hashed once (a
    counter's hash walks all its faces and values, and every face is looked up three times)."""

    __slots__ = ("_hash", "key")

    def __init__(self, c: Counter, side: str) -> None:
        self.key = (*(getattr(c, f) for f in _LOOK_FIELDS), side)
        self._hash = hash(self.key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Look) and self._hash == other._hash and self.key == other.key


class _Faces:
    """Face images of counters, named ``<id>-<side>.png``. Asking for a face names it; :meth:`start`
    then draws every face once (counters that look the same, eight Disrupted markers, share one
    drawing), in several processes for a large game. The bytes do not depend on how it was shared."""

    def __init__(self, images: MutableMapping[str, bytes], *, dpi: float, size: int, art_only: bool, file: str) -> None:
        self.images = images
        self.file = file
        self.dpi = dpi
        self.size = size
        self.art_only = art_only
        self.wanted: dict[str, _Look] = {}  #: image name -> what it looks like
        self.todo: dict[_Look, tuple[Counter, str]] = {}  #: a look -> a counter showing it
        self._sigs: list[_Look] = []  #: the looks being drawn, in order
        self._names: dict[_Look, list[str]] = {}  #: a look -> the images showing it
        self._n_drawn = 0  #: looks drawn and put into the images so far (in order)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        #: their images, from the workers (each part dropped once its images are put away)
        self._parts: list[concurrent.futures.Future[list[bytes]] | None] = []
        self._step = 1  #: looks per part
        self._n_first = 0  #: looks drawn first

    def __call__(self, c: Counter, side: str) -> str:
        name = f"{c.id}-{side}.png"
        if name not in self.wanted:
            if self.art_only and not c.art(side):
                raise GameDataError(f"counter {c.id!r} has no art (the build configuration says counters.art: images)",
                                    file=self.file, expected=f"{c.id}-{side}.png in the manifest's art folder, or art: in counters.yaml")
            look = _Look(c, side)
            self.todo.setdefault(look, (c, side))
            self.wanted[name] = look
        return name

    def start(self, first: Iterable[str] = ()) -> None:
        """Start drawing every face asked for: in worker processes for a large game, so that the
        caller draws the board and makes the set-ups meanwhile (:meth:`finish` collects them);
        at once, in this process, for a small one. The faces named in ``first`` are drawn first:
        :meth:`collect_first` has them while the others are being drawn."""
        early = dict.fromkeys(self.wanted[name] for name in first)
        self._sigs = [*early, *(sig for sig in self.todo if sig not in early)]
        self._n_first = len(early)
        for name, sig in self.wanted.items():
            self._names.setdefault(sig, []).append(name)
        batch = [self.todo[sig] for sig in self._sigs]
        jobs = _jobs() if len(batch) >= PARALLEL_FACES else 1
        if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
            self._step = -(-len(batch) // (4 * jobs))
            self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))
            self._parts = [self._pool.submit(_draw, batch[i:i + self._step], self.dpi, self.size)
                           for i in range(0, len(batch), self._step)]
        else:
            self._put(_draw(batch, self.dpi, self.size))

    def _put(self, drawn: list[bytes]) -> None:
        """The images of the next looks in order, under every name that shows them."""
        for sig, data in zip(self._sigs[self._n_drawn:self._n_drawn + len(drawn)], drawn, strict=True):
            for name in self._names[sig]:
                self.images["images/" + name] = data
        self._n_drawn += len(drawn)

    def _collect(self, n: int) -> None:
        """Wait until the first ``n`` looks are drawn and put into the images."""
        while self._n_drawn < n:  # the parts come back in order, each of ``_step`` looks but the last
            i = self._n_drawn // self._step
            part = self._parts[i]
            assert part is not None
            self._parts[i] = None
            self._put(part.result())

    def collect_first(self) -> None:
        """Put the faces named ``first`` in :meth:`start` into the images (waiting for them only)."""
        self._collect(self._n_first)

    def finish(self) -> None:
        """Wait for the faces :meth:`start` began and put them into the images."""
        self._collect(len(self._sigs))
        self.close()
        self.todo.clear()
        self._parts, self._names = [], {}

    def close(self) -> None:
        """Stop the worker processes (at once, when the build failed before :meth:`finish`)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def _pieces(game: Game, manifest: Manifest, cfg: ModuleConfig, images: MutableMapping[str, bytes], face: _Faces,
            sides: _Sides) -> tuple[list[PieceSpec], list[DeckSpec]]:
    pieces: list[PieceSpec] = []
    decks: dict[tuple[str, str], list[str]] = {}
    units: dict[str, list[Counter]] = {}
    for c in manifest.counters:
        if c.kind == "unit":
            units.setdefault(c.unit_id or c.id, []).append(c)
    seen_markers: set[str] = set()
    for c in manifest.counters:
        side = sides.name(c.side)
        if c.kind == "unit":
            uid = c.unit_id or c.id
            if uid not in units:
                continue
            steps = sorted(units.pop(uid), key=lambda x: -x.step)  # full strength first
            pieces.append(_unit_piece(uid, steps, c, side, manifest, cfg, face))
        elif c.kind == "chit" or c.type in cfg.cup_markers:
            pieces.append(_chit_piece(c, side, images, face))
            decks.setdefault((side, c.type), []).append(c.id)
        else:
            key = c.unit_id or c.id
            if key in seen_markers:
                continue
            seen_markers.add(key)
            pieces.append(_marker_piece(key, c, side, game, cfg, face))
    deck_specs = [
        DeckSpec(f"{side} {kind} chits" if side != NEUTRAL_NAME else f"{kind.capitalize()} chits", tuple(ids))
        for (side, kind), ids in decks.items()
    ]
    return pieces, deck_specs


def _unit_piece(uid: str, steps: list[Counter], c: Counter, side: str, manifest: Manifest, cfg: ModuleConfig,
                face: _Faces) -> PieceSpec:
    """A unit with its steps (full strength first): each step a front, the backs the used sides."""
    fronts = tuple(face(s, "front") for s in steps)
    backs: tuple[str, ...] = ()
    if all(s.back.state == "used" for s in steps):  # the back is the used side of that step
        backs = tuple(face(s, "back") for s in steps)
    elif len(steps) == 1 and c.reduced_back:  # the back is the reduced step
        fronts = (face(c, "front"), face(c, "back"))
    return PieceSpec(uid, _unit_name(c), UNIT, side, c.formation, c.type, fronts, backs,
                     group=_panel(c, manifest, cfg.panels),
                     properties={"Size": c.size, "Designation": c.designation,
                                 "Nationality": c.nationality, "SideId": c.side})


def _chit_piece(c: Counter, side: str, images: MutableMapping[str, bytes], face: _Faces) -> PieceSpec:
    """A chit drawn from a cup: masked (the mask image is added once a side and type)."""
    # a chit whose back only names its side ("Red") is a back, not a second face
    two_sided = c.back.title.strip().lower() not in (c.side, side.lower(), "")
    faces_ = (face(c, "front"), face(c, "back")) if two_sided else (face(c, "front"),)
    mask_name = f"mask-{c.side}-{c.type}.png"
    if "images/" + mask_name not in images:
        images["images/" + mask_name] = faces.png_bytes(
            faces.mask(f"{side} {c.type}".upper(), c.back.color or c.front.color, face.size))
    title = f"{c.front.title} / {c.back.title}" if two_sided else c.front.title
    return PieceSpec(c.id, f"{title} ({side} {c.type})", CHIT, side, "", c.type, faces_, mask=mask_name,
                     group=f"{side} {c.type}", properties={"ChitType": c.type, "SideId": c.side})


def _marker_piece(key: str, c: Counter, side: str, game: Game, cfg: ModuleConfig, face: _Faces) -> PieceSpec:
    """A marker: its back a second face when it says something, a track marker's flip bonus, a facing."""
    has_back = c.back.state != "blank" and (c.back.title or c.back.values) and c.back != c.front
    faces_ = (face(c, "front"), face(c, "back")) if has_back else (face(c, "front"),)
    title = c.front.title.title() if c.front.title else c.type
    props = {"MarkerType": c.type, "SideId": c.side}
    bonus = _FLIP_BONUS.search(c.back.title or "") if len(faces_) > 1 else None
    if bonus:  # a track marker whose back adds to its box ("VP +10")
        props["TrackFlipBonus"] = bonus.group(1)
    fm = cfg.facing_marker(c.type)
    facing = None if fm is None else FacingSpec(fm.layer, fm.states, fm.menu, fm.key.code)
    named = title + (f" ({side})" if c.side in game.side_ids else "")
    return PieceSpec(key, named, MARKER, side, "", c.type, faces_, properties=props, facing=facing,
                     group=fm.layer if fm is not None else "")


# --- tracks and boxes ---------------------------------------------------------------------------------
def _track(info: TrackConfig, game: Game, sides: _Sides, pieces: list[PieceSpec], images: MutableMapping[str, bytes],
           size: int) -> TrackSpec:
    """The track and its markers: each side's x1 marker (the manifest's, if it has one) and x10 marker."""
    track = TrackSpec(info.map, info.title, tuple(f"{info.box} {i}" for i in range(info.boxes)),
                      tuple(str(i) for i in range(info.boxes)), image=f"{slug(info.map)}.png", id=info.id)
    images["images/" + track.image] = faces.png_bytes(faces.track_board(
        track.title, [(track.rect(i), n) for i, n in enumerate(track.numbers)], track.width, track.height))
    index = {p.id: i for i, p in enumerate(pieces)}
    for side in game.sides:
        name = side.name
        for scale in (1, 10):
            pid = f"{side.id}-{info.marker_type}" + ("" if scale == 1 else f"-x{scale}")
            props = {"MarkerType": info.marker_type, "Track": info.map, "TrackScale": str(scale), "SideId": side.id}
            if pid in index:  # the manifest's marker: keep its faces, say how to read it
                p = pieces[index[pid]]
                pieces[index[pid]] = replace(p, group="Track", properties={**p.properties, **props})
                continue
            image = f"{pid}.png"
            label = info.marker.upper() if scale == 1 else f"{info.marker.upper()} x{scale}"
            images["images/" + image] = faces.png_bytes(faces.track_marker(label, name.upper(), sides.colour(side.id), size))
            title = f"{name} {info.marker}" + ("" if scale == 1 else f" x{scale}")
            pieces.append(PieceSpec(pid, title, MARKER, name, "", info.marker_type, (image,), group="Track",
                                    properties=props))
    return track


def holding_track(info: BoxesConfig) -> TrackSpec:
    """The layout of the named holding boxes on their map (a box per name, the name as its location;
    :func:`~gazala_tools.games.moduleyaml.holding_box_at` finds a box in a save by it)."""
    return TrackSpec(info.map, info.title, info.names, info.names, image=f"{slug(info.map)}.png",
                     columns=min(HOLDING_COLUMNS, len(info.names)), box=HOLDING_BOX, id="boxes")


def _holding(info: BoxesConfig, images: MutableMapping[str, bytes]) -> TrackSpec:
    """Named holding boxes on a map of their own, with their board image."""
    boxes = holding_track(info)
    images["images/" + boxes.image] = faces.png_bytes(faces.track_board(
        boxes.title, [(boxes.rect(i), n) for i, n in enumerate(boxes.numbers)], boxes.width, boxes.height))
    return boxes


def _track_starts(s: Scenario, track: TrackSpec | None, info: TrackConfig | None, game: Game,
                  pieces: Sequence[PieceSpec]) -> tuple[tuple[str, int], ...]:
    """Each side's x1 marker in its start box (0 unless the scenario says); a value past the last box
    puts the x10 marker on the tens."""
    if track is None or info is None:
        if s.tracks:
            first = s.tracks[0]
            raise GameDataError(f"scenario {s.id!r} starts track {first.track!r}, but the module has no track",
                                file=s.file, place=first.at, expected="a track in the build configuration")
        return ()
    start = {side.id: 0 for side in game.sides}
    for ts in s.tracks:
        if ts.track != info.id:
            raise GameDataError(f"scenario {s.id!r}: track {ts.track!r} is not the module's track", file=s.file,
                                place=ts.at, expected=f"track: {info.id}")
        start[ts.side] = ts.value
    ids = {p.id for p in pieces}
    out: list[tuple[str, int]] = []
    for side_id, value in start.items():
        ones, tens = f"{side_id}-{info.marker_type}", f"{side_id}-{info.marker_type}-x10"
        if value >= len(track.boxes):
            if value // 10 >= len(track.boxes):
                raise GameDataError(f"scenario {s.id!r}: {side_id} starts at {value}", file=s.file,
                                    expected=f"at most {10 * len(track.boxes) - 1} on a track of {len(track.boxes)} boxes")
            out += [(ones, value % 10), (tens, value // 10)]
        else:
            out.append((ones, value))
    missing = [pid for pid, _ in out if pid not in ids]
    if missing:  # pragma: no cover - _track makes every marker
        raise GameDataError(f"no track marker {missing[0]!r}")
    return tuple(out)


# --- set-ups ------------------------------------------------------------------------------------------
def _scenarios(game: Game, cfg: ModuleConfig, game_map: GameMap, manifest: Manifest, pieces: Sequence[PieceSpec],
               track: TrackSpec | None, holding: TrackSpec | None) -> list[ScenarioSpec]:
    units = [(c.unit_id or c.id, c.formation) for c in manifest.units if c.step == c.steps]
    palette = {p.id for p in pieces if p.kind == UNIT}
    wanted = cfg.scenarios
    chosen = [s for s in load_scenarios(game) if wanted is None or s.id in wanted]
    if wanted is not None:
        chosen.sort(key=lambda s: wanted.index(s.id))
    box_names = set(holding.boxes) if holding is not None else set()
    out: list[ScenarioSpec] = []
    for s in chosen:
        for p in s.setup:
            if p.box and p.box not in box_names:
                raise GameDataError(f"scenario {s.id!r} puts units in box {p.box!r}, which the module lacks",
                                    file=s.file, place=p.at,
                                    expected=("one of " + ", ".join(holding.boxes)) if holding is not None
                                    else "boxes: in the build configuration")
        setup = resolve_setup(s, game_map, units)
        missing = [uid for uid, _ in (*setup.hexes, *setup.boxes) if uid not in palette]
        if missing:  # pragma: no cover - every manifest unit has a palette piece
            raise GazalaError(f"set-up places {missing[0]!r}, which has no palette piece")
        out.append(ScenarioSpec(s.name, setup.hexes, s.start, s.source, used=setup.used,
                                track=_track_starts(s, track, cfg.track, game, pieces), boxes=setup.boxes))
    return out


# --- board ----------------------------------------------------------------------------------------------
def _given_board(path: Path, game_map: GameMap) -> tuple[str, bytes, tuple[int, int]]:
    """A board image as it is (no re-encoding): checked (size, format, pixels) before it is decoded,
    and its size must be the board size of ``map.yaml``'s ``grid.pixels``."""
    from gazala_tools.inputs import open_image

    data = read_file(path, what="board image", cap=MAX_BOARD_BYTES)
    if not data:
        raise GazalaError("board image is empty", file=path, expected="a PNG, JPEG or GIF image")
    with open_image(data, file=path, what="board image", max_pixels=MAX_BOARD_PIXELS, load=False) as im:  # header only
        fmt, (w, h) = im.format, im.size
    if fmt not in BOARD_FORMATS:
        raise GazalaError(f"board image is {fmt}", file=path, expected="PNG, JPEG or GIF")
    if w * h > MAX_BOARD_PIXELS:
        raise GazalaError(f"board image is {w} x {h} pixels", file=path, expected=f"at most {MAX_BOARD_PIXELS:,} pixels")
    px = game_map.pixels
    if (w, h) != (px.board_width, px.board_height):
        raise GazalaError(f"board image is {w} x {h} pixels, but map.yaml's grid.pixels says {px.board_width} x "
                          f"{px.board_height}", file=path, expected="the image the grid was measured on")
    return f"board.{BOARD_FORMATS[fmt]}", data, (w, h)


def _board(game_map: GameMap, cfg: ModuleConfig, dpi: float | None,
           images: MutableMapping[str, bytes], counter_mm: float = 0.0, title: str | None = None) -> tuple[BoardSpec, float, Any]:
    """The main board, the resolution counters are drawn at (pixels per inch of the board), and the
    board as an image when it was drawn here (else its file's bytes), for the About screen.

    A drawn board's size follows the grid (render/board.py), not ``grid.pixels``' board size; where
    the numbering counts from the far edge (``vDescend``/``hDescend``: VASSAL counts rows from the
    board's size), its offsets are moved so that every hex keeps the name it has on the map's board."""
    if cfg.board_art is not None:
        if dpi is not None and cfg.counter_size_px:
            log.warning("--dpi changes nothing here: the board is the given image %s and counters: size_px sets "
                        "the counters' side", cfg.board_art)
        name, data, (w, h) = _given_board(cfg.board_art, game_map)
        images["images/" + name] = data
        picture: Any = data
        geometry = game_map.geometry()
        board_dpi = _board_dpi(game_map, cfg, dpi)
    else:
        from gazala_tools.render.board import board_geometry, render_board

        dpi = dpi if dpi is not None else cfg.board_dpi
        at = float(dpi or game_map.pixels.dpi or 100)
        # hex numbers and place names where the module's counters do not hide them
        counter = counter_size(cfg, counter_mm, at) if counter_mm or cfg.counter_size_px else None
        img = render_board(game_map, dpi=dpi, counter_px=counter, title=title)
        geometry = board_geometry(game_map, dpi=dpi)
        name, (w, h) = "board.png", img.size
        images["images/board.png"] = faces.png_bytes(img)
        picture = img
        board_dpi = float(dpi or game_map.pixels.dpi or 100)
        scale = board_dpi / float(game_map.pixels.dpi or 100)
        numbering = numbering_for_size(game_map.grid.numbering, geometry, (round(game_map.pixels.board_width * scale),
                                       round(game_map.pixels.board_height * scale)), (w, h))
        board = BoardSpec(name, w, h, geometry.vassal_attrs(), numbering.vassal_attrs(),
                          game_map.pixels.edge_width, game_map.pixels.edge_height)
        return board, board_dpi, picture
    board = BoardSpec(name, w, h, geometry.vassal_attrs(), game_map.grid.numbering.vassal_attrs(),
                      game_map.pixels.edge_width, game_map.pixels.edge_height)
    return board, board_dpi, picture


def _board_dpi(game_map: GameMap, cfg: ModuleConfig, dpi: float | None) -> float:
    """The resolution :func:`_board` draws the board at (pixels per inch), known before it is drawn; for a
    given board image, the image's pixels per inch: ``--dpi``, else the map's (counters of a printed size
    are drawn that many pixels per inch)."""
    if cfg.board_art is not None:
        return float(dpi or game_map.pixels.dpi or 100)
    return float((dpi if dpi is not None else cfg.board_dpi) or game_map.pixels.dpi or 100)


def counter_size(cfg: ModuleConfig, counter_mm: float, board_dpi: float) -> int:
    """The side of a counter in board pixels: the configuration's ``counters.size_px``, else the
    manifest's printed size at the board's resolution."""
    return cfg.counter_size_px or max(24, round(counter_mm / 25.4 * board_dpi))


# --- charts and help ----------------------------------------------------------------------------------
def _table_charts(game: Game, cfg: ModuleConfig, images: MutableMapping[str, bytes]) -> list[ChartSpec]:
    """A chart page per rules table (tables.yaml), in the configuration's order, drawn as a PNG."""
    tables = {t.name: t for t in load_tables(game)}
    names = cfg.chart_tables if cfg.chart_tables is not None else tuple(tables)
    out: list[ChartSpec] = []
    for name in names:
        table = tables[name]
        images["images/" + table.image] = faces.png_bytes(render_table(table))
        out.append(ChartSpec(table.name, table.image))
    return out


def _oob_charts(pieces: Sequence[PieceSpec]) -> dict[str, ChartSpec]:
    """An order-of-battle chart per side (drawn by :func:`_draw_oob_charts` once the faces are)."""
    return {side: ChartSpec(f"{side} order of battle", f"oob-{slug(side)}.png")
            for side in dict.fromkeys(p.side for p in pieces if p.kind == UNIT)}


def _draw_oob_charts(charts: dict[str, ChartSpec], pieces: Sequence[PieceSpec], images: MutableMapping[str, bytes], size: int) -> None:
    """Each side's chart: each formation's units at full strength."""
    for side, chart in charts.items():
        rows: dict[str, list[bytes]] = {}
        for p in pieces:
            if p.kind == UNIT and p.side == side:
                rows.setdefault(p.formation or "Units", []).append(images["images/" + p.faces[0]])
        images["images/" + chart.image] = faces.order_of_battle_png(chart.name, list(rows.items()), size)


def _help_pages(cfg: ModuleConfig) -> tuple[HelpSpec, ...]:
    out: list[HelpSpec] = []
    for page in cfg.help:  # a regular file within the size cap (gazala_tools.inputs)
        out.append(HelpSpec(page.title, page.name, read_file(page.file, what="help page", cap=MAX_HELP_BYTES)))
    return tuple(out)


def help_page(spec_name: str, game: Game, cfg: ModuleConfig, pieces: Sequence[PieceSpec], scenarios: Sequence[ScenarioSpec],
              game_map: GameMap, track: TrackSpec | None = None, charts: Sequence[ChartSpec] = (),
              has_decks: bool = False) -> str:
    """The module's own help page: what it holds and the commands of its pieces."""
    track_html = "" if track is None else (
        f"<h2>{escape(track.map_name)}</h2><p>{escape(track.title)}. The {escape(track.map_name)} window (toolbar button) has "
        f"boxes {escape(track.boxes[0])} to {escape(track.boxes[-1])}; each side has a x1 and a x10 marker. A side's total "
        "is the sum of box number x <code>TrackScale</code> of its markers, plus <code>TrackFlipBonus</code> for a "
        "flipped marker. The set-ups start the x1 markers on the track.</p>")
    charts_html = "" if not charts else (
        "<h2>Charts</h2><ul>" + "".join(f"<li>{escape(c.name)}</li>" for c in charts) + "</ul>")
    units = [p for p in pieces if p.kind == UNIT]
    rows = "".join(
        f"<tr><td>{escape(s.name)}</td><td>{len(s.placements) + len(s.boxes)}</td><td>{escape(s.source)}</td></tr>"
        for s in scenarios
    )
    unit_keys = ["Ctrl+L lose a step, Ctrl+R recover a step (multi-step units)", "Ctrl+U used / unused side",
                 *(f"{s.key.text} {escape(s.name)}" for s in cfg.status), "Ctrl+D delete"]
    marker_keys = [f"{escape(f.layer)} markers ({escape(f.type)}): Ctrl+] / Ctrl+[ turn to point at a hexside, "
                   f"{f.key.text} {escape(f.menu)}" for f in cfg.facing]
    marker_keys.append("Two-sided markers and chits: Ctrl+F flip")
    if has_decks:
        marker_keys.append('Chit cups: the "Chit Cups" window holds one shuffled cup per side and chit type')
    layers = ", ".join(["Step", "Used", *(s.name for s in cfg.status)])
    # the same head as every page we write: its Content-Security-Policy allows nothing to load or run
    return page_head(spec_name, images=False) + f"""<body>
<h1>{escape(spec_name)}</h1>
<p>Built by gazala-tools from the game's data ({escape(game.provenance)}): map {escape(game_map.title)},
{len(game_map.grid)} hexes; {len(units)} units, {len(pieces) - len(units)} markers and chits.</p>
<h2>Sides</h2><p>{escape(", ".join(s.name for s in game.sides))}</p>
<h2>Unit commands</h2>
<ul>{"".join(f"<li>{k}</li>" for k in unit_keys)}</ul>
<h2>Markers and chits</h2>
<ul>{"".join(f"<li>{k}</li>" for k in marker_keys)}</ul>
<h2>Set-ups (File, New game)</h2><table border="1"><tr><th>set-up</th><th>units</th><th>source</th></tr>{rows}</table>
{track_html}{charts_html}
<h2>For programs</h2><p>Every piece carries the Marker properties UnitId (our stable id), Kind, Side, SideId, Formation,
Type and Steps (track markers also Track, TrackScale, TrackFlipBonus); layers {escape(layers)} report their state as
&lt;layer&gt;_Level and &lt;layer&gt;_Active.</p>
</body></html>
"""


# --- the whole module -----------------------------------------------------------------------------------
class PendingSpec:
    """A module's spec whose images are still being drawn (a large game's faces, in worker
    processes): its buildFile and set-up saves can be made meanwhile, from :attr:`spec`;
    :meth:`finish` waits for the faces and draws the images made from them (order of battle,
    About screen). :meth:`close` stops the workers when the build fails before."""

    def __init__(self, spec: ModuleSpec, complete: Callable[[], None], close: Callable[[], None]) -> None:
        self.spec = spec
        self._complete = complete
        self._close = close

    def finish(self) -> ModuleSpec:
        self._complete()
        return self.spec

    def close(self) -> None:
        self._close()


def default_description(name: str, pieces: Sequence[PieceSpec], scenarios: Sequence[ScenarioSpec]) -> str:
    """The module's description when its configuration gives none: what the module holds, and only that."""
    kinds = {k: sum(p.kind == k for p in pieces) for k in (UNIT, MARKER, CHIT)}
    parts = ["board", *(count(n, k) for k, n in kinds.items() if n)]
    if scenarios:
        parts.append(count(len(scenarios), "set-up"))
    return f"{name}: {', '.join(parts)} (gazala-tools)"


def module_spec(game: str | Path | Game, *, dpi: float | None = None, config: ModuleConfig | None = None,
                progress: Callable[[str], None] | None = None) -> ModuleSpec:
    """Everything the module of ``game`` holds (a built-in id, a game folder or a build configuration
    YAML; ``config`` overrides the game's own configuration)."""
    pending = start_module_spec(game, dpi=dpi, config=config, progress=progress)
    try:
        return pending.finish()
    finally:
        pending.close()


def start_module_spec(game: str | Path | Game, *, dpi: float | None = None, config: ModuleConfig | None = None,
                      progress: Callable[[str], None] | None = None) -> PendingSpec:
    """:func:`module_spec`, with the images that need the counter faces still to be drawn."""
    if config is None:
        g, cfg = game_and_config(game)
    else:  # the caller read the configuration already (build_game_module): not read again
        g, cfg = (game if isinstance(game, Game) else game_and_config(game)[0]), config
    note = progress or (lambda _what: None)
    sides = _Sides(g)
    game_map = load_game_map(g)
    manifest = load_game_manifest(g)
    images = SpooledImages()  # on disk until zipped: a few bytes of memory per image
    given = cfg.board_art is not None
    if given:  # a board image is only read and checked: before the counters, like a bad manifest
        board, board_dpi, picture = _board(game_map, cfg, dpi, images, manifest.counter_size_mm, title=g.name)
        note("board")
    else:
        board_dpi = _board_dpi(game_map, cfg, dpi)
    size = counter_size(cfg, manifest.counter_size_mm, board_dpi)
    face = _Faces(images, dpi=board_dpi, size=size, art_only=cfg.counter_art == "images",
                  file=manifest.source_file)
    pieces, decks = _pieces(g, manifest, cfg, images, face, sides)
    # a large game's faces are drawn in other processes while this one goes on; the full-strength
    # faces the order-of-battle charts show come first (those charts are drawn while the rest are)
    face.start(first=[p.faces[0] for p in pieces if p.kind == UNIT] if cfg.order_of_battle else ())
    try:
        return _spec_while_drawing(g, cfg, dpi, note, sides, game_map, manifest, images, face, pieces, decks, size,
                                   None if not given else (board, picture))
    except BaseException:
        face.close()
        raise


@dataclass(frozen=True)
class _Parts:
    """What a module holds besides its pieces and decks."""

    board: BoardSpec
    track: TrackSpec | None
    holding: TrackSpec | None
    status: tuple[StatusSpec, ...]
    scenarios: list[ScenarioSpec]
    charts: list[ChartSpec]


def _status_badges(cfg: ModuleConfig, images: MutableMapping[str, bytes], size: int) -> tuple[StatusSpec, ...]:
    """The units' status layers, each badge's image added to ``images``."""
    status = tuple(StatusSpec(s.name, s.key.code, f"status-{slug(s.name)}.png") for s in cfg.status)
    for s, spec_s in zip(cfg.status, status, strict=True):
        images["images/" + spec_s.image] = faces.png_bytes(faces.badge(s.badge, s.color, size))
    return status


def _module_spec(g: Game, cfg: ModuleConfig, name: str, pieces: list[PieceSpec], decks: list[DeckSpec], parts: _Parts,
                 game_map: GameMap, images: MutableMapping[str, bytes]) -> ModuleSpec:
    """The module: the game's, the configuration's and what was drawn for it."""
    return ModuleSpec(
        game=g.id,
        name=name,
        version=cfg.version,
        description=cfg.description or default_description(name, pieces, parts.scenarios),
        sides=tuple(s.name for s in g.sides),
        board=parts.board,
        pieces=tuple(pieces),
        turns=g.turns,
        dice=cfg.dice,
        decks=tuple(decks),
        scenarios=tuple(parts.scenarios),
        charts=tuple(parts.charts),
        track=parts.track,
        holding=parts.holding,
        status=parts.status,
        palette_columns=cfg.columns,
        help_pages=_help_pages(cfg),
        about_image="about.png",
        help_html=help_page(name, g, cfg, pieces, parts.scenarios, game_map, parts.track, parts.charts, bool(decks)),
        images=images,
        vassal_version=cfg.vassal_version,
    )


def _spec_while_drawing(g: Game, cfg: ModuleConfig, dpi: float | None, note: Callable[[str], None], sides: _Sides,
                        game_map: GameMap, manifest: Manifest, images: MutableMapping[str, bytes], face: _Faces,
                        pieces: list[PieceSpec], decks: list[DeckSpec], size: int,
                        given: tuple[BoardSpec, Any] | None) -> PendingSpec:
    """The rest of :func:`start_module_spec`, done while the faces are drawn."""
    if given is None:
        board, _dpi, picture = _board(game_map, cfg, dpi, images, manifest.counter_size_mm, title=g.name)
        note("board")
    else:
        board, picture = given
    track = _track(cfg.track, g, sides, pieces, images, size) if cfg.track is not None else None
    holding = _holding(cfg.boxes, images) if cfg.boxes is not None else None
    status = _status_badges(cfg, images, size)
    scenarios = _scenarios(g, cfg, game_map, manifest, pieces, track, holding)
    note("set-ups")
    tables = _table_charts(g, cfg, images)
    name = cfg.name or g.name
    oob = _oob_charts(pieces) if cfg.order_of_battle else {}
    charts = tables + list(oob.values())
    n_units = sum(p.kind == UNIT for p in pieces)

    def complete() -> None:
        face.collect_first()
        _draw_oob_charts(oob, pieces, images, size)
        face.finish()
        note("counters")
        images["images/about.png"] = faces.png_bytes(faces.about(
            name, [f"{n_units} units, {len(game_map.grid)} hexes; data {g.provenance}", "built by gazala-tools"], picture))
        note("charts")

    spec = _module_spec(g, cfg, name, pieces, decks, _Parts(board, track, holding, status, scenarios, charts),
                        game_map, images)
    return PendingSpec(spec, complete, face.close)
