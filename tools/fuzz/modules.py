"""Fuzz targets of crafted modules (issue 31 item 9): zip members in every method (bzip2 and LZMA bombs
included), prototypes that multiply, buildFiles that are large once parsed, numbers from a module out of
range, and unzipped module folders with members symlinked out.

Each target reads its input the way ``module lint``, ``grid locate``, ``vsav dump`` and ``game import``'s
reader do (in-process, for speed); the generators are :mod:`tools.fuzz.crafted`'s. ``TARGETS`` is picked up
by :mod:`tools.fuzz.targets` (its ``EXTRA`` list): a new family of targets is a module named there that
ends with ``register(TARGETS)``.
"""

from __future__ import annotations

import random
import shutil
import zipfile
import zlib
from functools import cache
from pathlib import Path

from tools.fuzz import crafted, mutate
from tools.fuzz.base import Bug, Target, cli
from tools.fuzz.crafted import Member, deflated, module_zip, stored, zip_members
from tools.fuzz.targets import register

#: sizes the bombs inflate to (the largest well past every cap)
BOMB_SIZES = (1 << 20, 64 << 20, 300 << 20, 1 << 30, 3 << 30)
#: method ids a member may claim: the four we stream, then Deflate64, Implode, PPMd, AES, nonsense
METHODS = (0, 8, 12, 14, 9, 6, 98, 99, 0xFFFF)


def _member(rng: random.Random, name: str, body: bytes) -> Member:
    """``body`` as a member in a random method, or a bomb in its place, or lying in its headers."""
    import bz2
    import lzma

    op = rng.random()
    if op < 0.25:  # deflate inflates 1,032 bytes a byte at most: its bombs stay small (and quick to make)
        kind = rng.choice(("bzip2", "lzma", "deflate"))
        sizes = BOMB_SIZES[:2] if kind == "deflate" else BOMB_SIZES
        return crafted.bomb(name, kind, rng.choice(sizes))
    method = rng.choice(METHODS[:4]) if op < 0.85 else rng.choice(METHODS)
    crc, size = zlib.crc32(body), len(body)
    if method == zipfile.ZIP_DEFLATED:
        data = deflated(name, body).data
    elif method == zipfile.ZIP_BZIP2:
        data = bz2.compress(body)
    elif method == zipfile.ZIP_LZMA:
        data = crafted.lzma_props() + lzma.compress(body, format=lzma.FORMAT_RAW, filters=[crafted._LZMA_FILTER])
    else:
        data = body
    flags = 0x2 if method == zipfile.ZIP_LZMA else 0
    lie = rng.random()
    if lie < 0.1:
        data = data[: rng.randrange(len(data) + 1)]  # truncated
    elif lie < 0.15:
        crc ^= 1 << rng.randrange(32)
    elif lie < 0.2:
        size = rng.choice((0, 10, size + 1, 0xFFFFFFFF))
    elif lie < 0.23:
        flags |= 1  # encrypted
    return Member(name, data, method, crc, size, flags)


def _mutate_zip(rng: random.Random, seed: bytes) -> bytes:
    members = mutate.members_of(seed)
    if rng.random() < 0.3:  # the set-up save inside the module, rebuilt the same way
        for i, (name, body) in enumerate(members):
            if name.endswith(".vsav"):
                members[i] = (name, _mutate_zip(rng, body))
    out: list[Member] = []
    for name, body in members:
        out.append(_member(rng, name, body) if rng.random() < 0.5 else deflated(name, body))
    return zip_members(out)


@cache
def _module_seeds() -> tuple[bytes, ...]:
    with_setup = module_zip(crafted._with_setup(crafted.PLAIN_BUILDFILE), stored("s.vsav", crafted.save_zip()))
    return (module_zip(crafted.grid_buildfile(image="b.png"), deflated("images/b.png", mutate.png(40, 30))),
            with_setup, module_zip(crafted.prototype_bomb(levels=2, fan=3, slots=2)))


def _save_seeds() -> list[bytes]:
    return [crafted.save_zip(), crafted.save_zip(stored("savedGame", b"begin_save\x1bend_save"))]


def _read_module(path: Path) -> None:
    """What ``module lint``, ``grid locate`` and ``game import``'s reader do with a module (in-process)."""
    from gazala_tools.errors import GazalaError
    from gazala_tools.vassal.importer.reader import read_module
    from gazala_tools.vassal.lint import lint_module

    cli("grid", "locate", path, "10", "10")
    for read in (lint_module, read_module):
        try:
            read(path)
        except GazalaError:
            raise
        except Exception as exc:  # the library contract: GazalaError only
            raise Bug(f"{read.__name__}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}") from exc


def _run_module(path: Path, work: Path) -> None:
    _read_module(path)


def _run_save(path: Path, work: Path) -> None:
    cli("vsav", "dump", path, "--json")


# --- prototypes and large buildFiles --------------------------------------------------------------------
def _shape(rng: random.Random) -> bytes:
    """A buildFile that multiplies: prototypes (deep, wide, cyclic), floods of elements, of piece slots,
    of roster entries, deep nesting, large texts and attributes: sizes around each cap."""
    kind = rng.randrange(7)
    if kind == 0:
        return crafted.prototype_bomb(levels=rng.randint(1, 6), fan=rng.choice((1, 2, 10, 100, 300)),
                                      slots=rng.choice((1, 5, 50)))
    if kind == 1:  # a cycle, self or mutual, with a fan
        fan = rng.choice((1, 2, 3))
        protos = "".join(f'<{crafted.PROTO} name="P{i}">'
                         f'{crafted._xml_text(crafted.piece_text([f"prototype;P{(i + 1) % 2}"] * fan))}</{crafted.PROTO}>'
                         for i in range(2))
        slot = (f'<{crafted.SLOT} entryName="u" gpid="1">{crafted._xml_text(crafted.piece_text(["prototype;P0"]))}'
                f'</{crafted.SLOT}>')
        return crafted.with_pieces(crafted.PLAIN_BUILDFILE, protos + slot)
    if kind == 2:
        return crafted.empty_elements(rng.choice((1000, 149_000, 151_000, 600_000)))
    if kind == 3:
        return crafted.roster(rng.choice((2, 100, 101, 5000, 50_000)))
    if kind == 4:
        return crafted.many_slots(rng.choice((10, 1000, 19_000, 21_000)))
    if kind == 5:
        depth = rng.choice((200, 255, 257, 5000))
        return crafted.with_pieces(crafted.PLAIN_BUILDFILE, "<d>" * depth + "</d>" * depth)
    size = rng.choice((1 << 20, 9_000_000, 11_000_000))
    return crafted.big_text(size) if rng.random() < 0.5 else crafted.big_attribute(size)


def _mutate_shape(rng: random.Random, seed: bytes) -> bytes:
    return module_zip(_shape(rng))


# --- numbers from a module ------------------------------------------------------------------------------
HOSTILE_NUMBERS = ("inf", "-inf", "nan", "1e308", "-1e308", "1e-5", "0", "-0", "-40", "2", "1.5", "99999999999",
                   "-99999999999", "2147483647", "-2147483648", "1" * 5000, "²", "١٢", "1_0", " 12 ", "+12", "0x10",
                   "", "1e", "4e5", "1000001")
NUMBER_PLACES = ('dx="40"', 'dy="46"', 'x0="0"', 'y0="0"', 'width="400"', 'height="400"', "hOff", "vOff", "hLeading",
                 "vLeading", "gpid", "zone", "stack", "square")


def _numbers(rng: random.Random) -> bytes:
    value = rng.choice(HOSTILE_NUMBERS)
    place = rng.choice(NUMBER_PLACES)
    xml = crafted.grid_buildfile(image="b.png" if rng.random() < 0.5 else "").decode()
    if "=" in place:
        key = place.split("=")[0]
        xml = xml.replace(place, f'{key}="{value}"', 1)
    elif place in ("hOff", "vOff", "hLeading", "vLeading"):
        xml = xml.replace("HexGridNumbering ", f'HexGridNumbering {place}="{value}" ')
    elif place == "gpid":
        xml = crafted.many_slots(2).decode().replace('gpid="1"', f'gpid="{value}"')
    elif place == "zone":
        zone = (f'<VASSAL.build.module.map.boardPicker.board.ZonedGrid><VASSAL.build.module.map.boardPicker.board.'
                f'mapgrid.Zone name="z" path="0,0;{value},0;0,5"/></VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
                '</VASSAL.build.module.map.boardPicker.Board>')
        xml = xml.replace("</VASSAL.build.module.map.boardPicker.Board>", zone, 1)
    elif place == "stack":
        slot = (f'<{crafted.SLOT} entryName="u" gpid="9">{crafted._xml_text(crafted.piece_text(["mark;Side;Red"]))}'
                f"</{crafted.SLOT}>")
        xml = xml.replace("</VASSAL.build.module.Map>", f'<VASSAL.build.module.map.SetupStack name="s" x="{value}" '
                          f'y="5">{slot}</VASSAL.build.module.map.SetupStack></VASSAL.build.module.Map>')
    else:
        xml = xml.replace("board.HexGrid", "board.SquareGrid").replace("mapgrid.HexGridNumbering",
                                                                        "mapgrid.SquareGridNumbering")
        xml = xml.replace('dx="40"', f'dx="{value}"', 1)
    return xml.encode()


def _mutate_numbers(rng: random.Random, seed: bytes) -> bytes:
    members = [deflated("buildFile.xml", _numbers(rng))]
    if b'image="b.png"' in members[0].data or rng.random() < 0.5:
        w, h = rng.choice(((40, 30), (400, 400)))
        members.append(deflated("images/b.png", mutate.png(w, h)))
    return zip_members(members)


# --- module folders -------------------------------------------------------------------------------------
FOLDER_LINKS = ("buildFile.xml", "images/b.png", "s.vsav", "moduledata", "images")


def _folder_seeds() -> list[bytes]:
    return [b"link buildFile.xml\n", b"link images/b.png\n", b"link s.vsav\n", b"plain\n"]


def _mutate_folder(rng: random.Random, seed: bytes) -> bytes:
    lines = [f"link {rng.choice(FOLDER_LINKS)}" for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.3:
        lines.append("loop images/c.png")
    lines.append(rng.choice(("named folder", "named file")))
    return "\n".join(lines).encode()


def _build_folder(recipe: str, mod: Path, outside: Path) -> None:
    (mod / "images").mkdir(parents=True)
    outside.mkdir()
    xml = crafted._with_setup(crafted.grid_buildfile(image="b.png"))
    files = {"buildFile.xml": xml, "images/b.png": mutate.png(40, 30), "s.vsav": crafted.save_zip(),
             "moduledata": crafted.MODULEDATA}
    secret = crafted.SECRET.encode()
    for name, body in files.items():
        (mod / name).write_bytes(body)
        (outside / name.replace("/", "_")).write_bytes(body.replace(b"Hostile", secret) if name.endswith(".xml")
                                                       else body)
    for line in recipe.splitlines():
        op, _, name = line.partition(" ")
        target = mod / name
        if op == "link" and name in FOLDER_LINKS:
            if target.is_symlink():  # linked out already (a recipe may name it twice)
                continue
            if target.is_dir():
                shutil.rmtree(target)
                target.symlink_to(outside, target_is_directory=True)
            else:
                target.unlink(missing_ok=True)
                target.symlink_to(outside / name.replace("/", "_"))
        elif op == "loop" and name:
            target.unlink(missing_ok=True)
            target.symlink_to(target)


def _run_folder(path: Path, work: Path) -> None:
    """An unzipped module with members symlinked out, read by lint, locate and the importer's reader; every
    file opened meanwhile must lie inside the folder (:mod:`tools.fuzz.folders`' audit hook)."""
    from gazala_tools.errors import GazalaError
    from tools.fuzz import folders

    recipe = path.read_bytes().decode("utf-8", "replace")
    mod, outside = work / f"mod-{path.stem}", work / f"outside-{path.stem}"
    clean: list[str] = []
    try:
        _build_folder(recipe, mod, outside)
        before = folders.listing(mod)
        src = mod / "buildFile.xml" if "named file" in recipe else mod
        folders.watch_reads(mod)
        try:
            try:
                _read_module(src)
            except GazalaError as exc:
                clean.append(str(exc))
        finally:
            seen = folders.stop_watching()
        folders.judge(mod, before, seen, clean, secret=crafted.SECRET, what="module folder")
    finally:
        shutil.rmtree(mod, ignore_errors=True)
        shutil.rmtree(outside, ignore_errors=True)
    if clean:
        raise GazalaError(clean[0])


TARGETS = (
    Target("module-zip", ".vmod", lambda: list(_module_seeds()), _mutate_zip, _run_module),
    Target("save-zip", ".vsav", _save_seeds, _mutate_zip, _run_save),
    Target("module-multiplies", ".vmod", lambda: [b""], _mutate_shape, _run_module),
    Target("module-numbers", ".vmod", lambda: [b""], _mutate_numbers, _run_module),
    Target("module-folder", ".recipe", _folder_seeds, _mutate_folder, _run_folder),
)
register(TARGETS)
