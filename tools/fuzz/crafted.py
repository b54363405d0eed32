"""Crafted hostile modules, saves and game folders of issue 31, made small and on the fly (never committed).

Building blocks:

* :func:`zip_members`: a zip written by hand, each member with the compression method, flags, CRC and
  sizes we choose (``zipfile`` would refuse to write most of what an attacker sends);
* :func:`bzip2_zeros`, :func:`lzma_zeros`, :func:`deflate_zeros`: streams of zeros of any length in a few
  hundred bytes (bzip2: one compressed block repeated bit by bit; LZMA: the periodic middle of a stream
  of zeros repeated; neither compresses the gigabyte it decodes to, so a 1 GiB bomb is made in well under
  a second);
* :func:`module_zip`, :func:`setup_save`: a ``.vmod`` around a buildFile, a save around command text.

The cases themselves, one per failure issue 31 lists (``CASES``: name -> maker writing its input into a
folder and returning the ``gazala`` argv and the exit statuses its documented result may have), are run
each in its own process, measured with ``wait4``: by ``tests/reliability/test_hostile_modules.py`` and by
``scripts/fuzz --attacks``.
"""

from __future__ import annotations

import atexit
import bz2
import lzma
import shutil
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tools.fuzz.samples import buildfile

GIB = 1 << 30
MIB = 1 << 20


# --- zips by hand -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Member:
    """One zip member as stored: ``data`` is what follows the local header (already compressed)."""

    name: str
    data: bytes
    method: int = zipfile.ZIP_STORED
    crc: int = 0
    size: int = 0  #: the uncompressed size both headers declare
    flags: int = 0


def stored(name: str, body: bytes) -> Member:
    return Member(name, body, zipfile.ZIP_STORED, zlib.crc32(body), len(body))


def deflated(name: str, body: bytes) -> Member:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return Member(name, c.compress(body) + c.flush(), zipfile.ZIP_DEFLATED, zlib.crc32(body), len(body))


def zip_members(members: list[Member]) -> bytes:
    """A zip archive of ``members`` exactly as given (local headers, central directory, end record)."""
    out = bytearray()
    central = bytearray()
    for m in members:
        name = m.name.encode("utf-8")
        offset = len(out)
        fields = (20, m.flags, m.method, 0, 0x21, m.crc, len(m.data), m.size, len(name), 0)
        out += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", *fields) + name + m.data
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, *fields, 0, 0, 0, 0, offset) + name
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(out), 0)
    return bytes(out + central + end)


# --- streams of zeros -------------------------------------------------------------------------------
def _gf2_times(mat: list[int], vec: int) -> int:
    total = 0
    i = 0
    while vec:
        if vec & 1:
            total ^= mat[i]
        vec >>= 1
        i += 1
    return total


def _gf2_square(mat: list[int]) -> list[int]:
    return [_gf2_times(mat, mat[n]) for n in range(32)]


def _crc_zeros_shift(crc: int, n: int) -> int:
    """zlib's ``crc32_combine`` with an all-zero second part: the CRC of (bytes with ``crc``) + n zeros."""
    crc ^= 0xFFFFFFFF
    odd = [0xEDB88320] + [1 << i for i in range(31)]  # the operator for one zero bit
    even = _gf2_square(odd)  # two bits
    odd = _gf2_square(even)  # four bits
    while n:
        even = _gf2_square(odd)
        if n & 1:
            crc = _gf2_times(even, crc)
        n >>= 1
        if not n:
            break
        odd = _gf2_square(even)
        if n & 1:
            crc = _gf2_times(odd, crc)
        n >>= 1
    return crc ^ 0xFFFFFFFF


def crc32_zeros(n: int) -> int:
    """The CRC-32 of ``n`` zero bytes, in O(log n) steps (never the gigabyte itself)."""
    return _crc_zeros_shift(0, n)


class _Bits:
    def __init__(self, data: bytes = b"") -> None:
        self.value = int.from_bytes(data, "big") if data else 0
        self.n = len(data) * 8

    def add(self, value: int, bits: int) -> None:
        self.value = (self.value << bits) | (value & ((1 << bits) - 1))
        self.n += bits

    def get(self, start: int, bits: int) -> int:
        return (self.value >> (self.n - start - bits)) & ((1 << bits) - 1)

    def to_bytes(self) -> bytes:
        pad = -self.n % 8
        return (self.value << pad).to_bytes((self.n + pad) // 8, "big")


_BZ_BLOCK = 0x314159265359
_BZ_END = 0x177245385090


@cache
def _bzip2_block() -> tuple[int, int, int, int]:
    """One bzip2 block of zeros as bits (value, length), its CRC and how many zeros it decodes to."""
    zeros = 45_000_000  # within one 900 kB block after bzip2's first run-length stage
    data = bz2.compress(bytes(zeros), 9)
    bits = _Bits(data)
    start = 32  # after "BZh9"
    assert bits.get(start, 48) == _BZ_BLOCK
    for pad in range(8):  # the end-of-stream marker, its combined CRC, then up to 7 padding bits
        end = bits.n - pad - 80
        if bits.get(end, 48) == _BZ_END:
            break
    else:  # pragma: no cover - bz2 always ends a stream so
        raise AssertionError("no bzip2 end-of-stream marker")
    assert end > start
    length = end - start
    block = bits.get(start, length)
    crc = bits.get(start + 48, 32)
    return block, length, crc, zeros


def bzip2_zeros(n: int) -> tuple[bytes, int]:
    """A bzip2 stream of at least ``n`` zero bytes: (stream, exact number of zeros). Hundreds of bytes a
    gigabyte (one block of 45 MB of zeros, repeated bit for bit)."""
    block, length, crc, zeros = _bzip2_block()
    count = max(1, -(-n // zeros))
    out = _Bits(b"BZh9")
    combined = 0
    for _ in range(count):
        out.add(block, length)
        combined = (((combined << 1) | (combined >> 31)) & 0xFFFFFFFF) ^ crc
    out.add(_BZ_END, 48)
    out.add(combined, 32)
    return out.to_bytes(), count * zeros


_LZMA_FILTER = {"id": lzma.FILTER_LZMA1, "preset": 0, "dict_size": 1 << 20, "lc": 3, "lp": 0, "pb": 2}


@cache
def _lzma_parts() -> tuple[bytes, bytes, bytes, int, int]:
    """An LZMA1 stream of 8 MiB of zeros cut where it repeats: (head, period, rest, base zeros, zeros a
    period)."""
    base = 8 * MIB
    data = lzma.compress(bytes(base), format=lzma.FORMAT_RAW, filters=[_LZMA_FILTER])
    mid = len(data) // 2
    for p in range(1, 2000):
        if data[mid:mid + 400] == data[mid + p:mid + p + 400]:
            break
    else:  # pragma: no cover
        raise AssertionError("no period in an LZMA stream of zeros")
    head, period, rest = data[:mid], data[mid:mid + p], data[mid:]
    dec = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[_LZMA_FILTER])
    got = 0
    buf = head + period + rest
    while not dec.eof:
        out = dec.decompress(buf, 4 * MIB)
        buf = b""
        got += len(out)
    return head, period, rest, base, got - base


def lzma_zeros(n: int) -> tuple[bytes, int]:
    """A raw LZMA1 stream (with its end marker) of at least ``n`` zero bytes: (stream, exact zeros)."""
    head, period, rest, base, per = _lzma_parts()
    k = max(0, -(-(n - base) // per))
    return head + period * k + rest, base + k * per


def lzma_props() -> bytes:
    """The zip LZMA member header (APPNOTE 5.8.8): version, properties size, then lc/lp/pb and dict size."""
    d = _LZMA_FILTER["lc"] + _LZMA_FILTER["lp"] * 9 + _LZMA_FILTER["pb"] * 45
    return struct.pack("<BBHBI", 9, 20, 5, d, _LZMA_FILTER["dict_size"])


@cache
def deflate_zeros(n: int) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    step = bytes(16 * MIB)
    parts = [c.compress(step) for _ in range(n // len(step))]
    parts.append(c.compress(bytes(n % len(step))))
    return b"".join(parts) + c.flush()


def bomb(name: str, method: str, n: int = GIB) -> Member:
    """A member ``name`` of ``n`` zeros (at least) compressed with ``method`` (bzip2, LZMA, deflate)."""
    if method == "bzip2":
        data, size = bzip2_zeros(n)
        return Member(name, data, zipfile.ZIP_BZIP2, crc32_zeros(size), size)
    if method == "lzma":
        data, size = lzma_zeros(n)
        return Member(name, lzma_props() + data, zipfile.ZIP_LZMA, crc32_zeros(size), size, flags=0x2)
    if method == "deflate":
        return Member(name, deflate_zeros(n), zipfile.ZIP_DEFLATED, crc32_zeros(n), n)
    raise ValueError(method)


# --- modules and saves ------------------------------------------------------------------------------
MODULEDATA = b"<?xml version='1.0'?><data><name>Crafted</name><version>1</version></data>"


def module_zip(xml: bytes | Member, *extra: Member) -> bytes:
    """A ``.vmod``: the buildFile (bytes, deflated; or a member as given), moduledata and ``extra``."""
    first = xml if isinstance(xml, Member) else deflated("buildFile.xml", xml)
    return zip_members([first, deflated("moduledata", MODULEDATA), *extra])


SAVE_TEXT = "begin_save\x1bend_save"


def save_zip(saved: Member | None = None) -> bytes:
    """A zipped save: ``savedGame`` (plain command text, or the member given) and ``savedata``."""
    return zip_members([saved or deflated("savedGame", SAVE_TEXT.encode()),
                        deflated("savedata", b"<?xml version='1.0'?><data><version>1</version></data>")])


Maker = Callable[[Path], list[str]]


@dataclass(frozen=True)
class Case:
    """An input of issue 31 and what must come of it: ``exits`` the statuses its documented result has,
    ``stderr`` a text its one stderr line must hold (for exit 2)."""

    make: Maker
    exits: tuple[int, ...] = (2,)
    stderr: str = ""
    slow: bool = False  #: over 5 s on a loaded machine (a test marked ``slow``)


CASES: dict[str, Case] = {}


def case(name: str, *, exits: tuple[int, ...] = (2,), stderr: str = "", slow: bool = False) -> Callable[[Maker], Maker]:
    def register(make: Maker) -> Maker:
        CASES[name] = Case(make, exits, stderr, slow)
        return make

    return register


#: the time a case may take: 30 s of CPU (user + system: what the command costs, on a quiet machine its wall
#: time), and a wall time that still catches a hang on a machine shared by eight (load 17 on 2 cores
#: stretches 7 s of CPU to 68 s)
TIME_LIMIT = 30.0
WALL_LIMIT = 180.0


def measure(name: str, work: Path, python: str | None = None) -> dict[str, object]:
    """Run case ``name`` as its own ``gazala`` process in ``work``, measured with ``wait4`` by a small process
    of its own (:func:`benchmarks.common.run_measured`: not the RSS of a large parent): exit status,
    seconds (wall and CPU), peak MiB, its stderr lines, whether an input changed and whether it passed its
    contract."""
    import hashlib
    import os
    import subprocess
    import sys

    from benchmarks.common import run_measured

    c = CASES[name]
    argv = c.make(work)
    before = {p: hashlib.sha256(p.read_bytes()).digest() for p in work.rglob("*") if p.is_file()}
    err_file = work.parent / f".{work.name}.stderr"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("GAZALA_DEBUG", None)
    with err_file.open("w+b") as err:
        m = run_measured([python or sys.executable, "-m", "gazala_tools", *argv], cwd=work, env=env,
                         stdout=subprocess.DEVNULL, stderr=err)
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    err_file.unlink()
    changed = sorted(str(p) for p, h in before.items() if not p.is_file() or hashlib.sha256(p.read_bytes()).digest() != h)
    ok = (m.code in c.exits and m.cpu < TIME_LIMIT and m.wall < WALL_LIMIT and m.peak_mb < 1024 and not changed
          and not any("Traceback" in x for x in lines)
          and (m.code != 2 or (len(lines) == 1 and c.stderr in lines[0])))
    return {"case": name, "exit": m.code, "seconds": round(m.wall, 2), "cpu_s": round(m.cpu, 2),
            "peak_mib": round(m.peak_mb),
            "stderr": lines, "changed": changed, "ok": ok}


PLAIN_BUILDFILE = buildfile().encode()


# --- the cases of issue 31 --------------------------------------------------------------------------
def _write(d: Path, name: str, data: bytes) -> Path:
    p = d / name
    p.write_bytes(data)
    return p


def _bomb_inputs(m: str) -> dict[str, bytes]:
    """The inputs a bomb of method ``m`` hides in, by file name."""
    setup = module_zip(_with_setup(PLAIN_BUILDFILE), stored("s.vsav", save_zip(bomb("savedGame", m))))
    return {"bomb.vsav": save_zip(bomb("savedGame", m)), "bomb.vmod": module_zip(bomb("buildFile.xml", m)),
            "image.vmod": module_zip(buildfile(image="b.png").encode(), bomb("images/b.png", m)),
            "meta.vmod": zip_members([deflated("buildFile.xml", PLAIN_BUILDFILE), bomb("moduledata", m)]),
            "setup.vmod": setup}


#: where a bomb hides, the command that reads it, the exit statuses of its documented result, the text of
#: its one error line; a set-up save the module cannot give is reported (import report, lint finding)
BOMB_CASES = (
    ("savedGame of 1 GiB: vsav dump", ["vsav", "dump", "bomb.vsav"], (2,), "savedGame"),
    ("savedGame of 1 GiB: referee check", ["referee", "check", "bomb.vsav", "--game", "gazala-rg"], (2,), "savedGame"),
    ("buildFile of 1 GiB: module lint", ["module", "lint", "bomb.vmod"], (2,), "buildFile.xml"),
    ("buildFile of 1 GiB: grid locate", ["grid", "locate", "bomb.vmod", "10", "10"], (2,), "buildFile.xml"),
    ("buildFile of 1 GiB: game import", ["game", "import", "bomb.vmod", "out"], (2,), "buildFile.xml"),
    ("board image of 1 GiB: grid locate", ["grid", "locate", "image.vmod", "10", "10"], (0, 2), ""),
    ("moduledata of 1 GiB: referee check --module", ["referee", "check", "p.yaml", "--module", "meta.vmod"],
     (0, 1, 2), ""),
    ("set-up save of 1 GiB: game import", ["game", "import", "setup.vmod", "out"], (0, 2), ""),
    ("set-up save of 1 GiB: module lint", ["module", "lint", "setup.vmod"], (1,), ""),
)

for _method in ("bzip2", "lzma"):
    for _name, _argv, _exits, _stderr in BOMB_CASES:
        def _bomb_maker(d: Path, m: str = _method, argv: list[str] = _argv) -> list[str]:
            file = next(a for a in argv if a.endswith((".vsav", ".vmod")))
            _write(d, file, _bomb_inputs(m)[file])
            (d / "p.yaml").write_text("game: gazala-rg\nunits: []\n")
            return argv

        case(f"{_method} {_name}", exits=_exits, stderr=_stderr)(_bomb_maker)


def _with_setup(xml: bytes, file: str = "s.vsav") -> bytes:
    setup = (f'<VASSAL.build.module.PredefinedSetup name="Start" file="{file}" useFile="true" isMenu="false"/>'
             '</VASSAL.build.GameModule>')
    return xml.replace(b"</VASSAL.build.GameModule>", setup.encode())


@case("Deflate64 member: vsav dump", stderr="Deflate64")
def _deflate64(d: Path) -> list[str]:
    body = deflated("savedGame", SAVE_TEXT.encode())
    _write(d, "d64.vsav", zip_members([Member(body.name, body.data, 9, body.crc, body.size)]))
    return ["vsav", "dump", "d64.vsav"]


# --- what multiplies: prototypes, a large parsed buildFile, long lists ---------------------------------
SLOT = "VASSAL.build.widget.PieceSlot"
PROTO = "VASSAL.build.module.PrototypeDefinition"
ROSTER = "VASSAL.build.module.PlayerRoster"


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\t", "&#9;")


def piece_text(traits: list[str], name: str = "P") -> str:
    """A PieceSlot's ``+/null/TYPE/STATE`` with ``traits`` (outermost first) around a BasicPiece."""
    from gazala_tools.vsav.traits import join_chain

    types = [*traits, f"piece;;;;{name}"]
    return "+/null/" + join_chain(types).replace("/", "\\/") + "/" + join_chain(
        ["" for _ in traits] + ["null;0;0;0;0"]).replace("/", "\\/")


def with_pieces(xml: bytes, body: str) -> bytes:
    """The buildFile with ``body`` (XML) added at the end of its root."""
    return xml.replace(b"</VASSAL.build.GameModule>", body.encode() + b"</VASSAL.build.GameModule>")


def prototype_bomb(levels: int = 4, fan: int = 100, slots: int = 1) -> bytes:
    """Prototypes ``levels`` deep, each naming the next ``fan`` times (a 92 KB buildFile for 4 x 100)."""
    protos = [f'<{PROTO} name="L{levels}">{_xml_text(piece_text(["mark;Bomb"]))}</{PROTO}>']
    for level in range(levels - 1, 0, -1):
        protos.append(f'<{PROTO} name="L{level}">{_xml_text(piece_text([f"prototype;L{level + 1}"] * fan))}</{PROTO}>')
    pieces = "".join(f'<{SLOT} entryName="u{i}" gpid="{i + 1}">{_xml_text(piece_text(["prototype;L1"]))}</{SLOT}>'
                     for i in range(slots))
    return with_pieces(PLAIN_BUILDFILE, "<VASSAL.build.module.PrototypesContainer>" + "".join(protos)
                       + "</VASSAL.build.module.PrototypesContainer><VASSAL.build.module.PieceWindow name=\"w\">"
                       + pieces + "</VASSAL.build.module.PieceWindow>")


def empty_elements(n: int = 2_400_000) -> bytes:
    return with_pieces(PLAIN_BUILDFILE, "<a/>" * n)


def roster(n: int = 400_000) -> bytes:
    return with_pieces(PLAIN_BUILDFILE, f"<{ROSTER}>" + "".join(f"<entry>S{i}</entry>" for i in range(n))
                       + f"</{ROSTER}>")


def many_slots(n: int) -> bytes:
    text = _xml_text(piece_text(["mark;Side;Red"]))
    return with_pieces(PLAIN_BUILDFILE, '<VASSAL.build.module.PieceWindow name="w">' + "".join(
        f'<{SLOT} entryName="u{i}" gpid="{i + 1}">{text}</{SLOT}>' for i in range(n))
        + "</VASSAL.build.module.PieceWindow>")


def _filler(n: int, seed: int = 31) -> str:
    """``n`` characters that deflate about 500:1 (under the zip ratio cap, as the red team's 60 MB from
    66 KB): runs of ``x`` broken by a random letter every 600 characters or so."""
    import random

    rng = random.Random(seed)
    parts: list[str] = []
    left = n
    while left > 0:
        run = min(left, rng.randrange(400, 800))
        parts.append("x" * (run - 1) + rng.choice("abcdefghij"))
        left -= run
    return "".join(parts)


def big_attribute(n: int = 60_000_000) -> bytes:
    return with_pieces(PLAIN_BUILDFILE, f'<b v="{_filler(n)}"/>')


def big_text(n: int = 60_000_000) -> bytes:
    return with_pieces(PLAIN_BUILDFILE, f"<b>{_filler(n)}</b>")


def big_slots(n: int = 6, size: int = 9_900_000) -> bytes:
    """``n`` piece slots of ``size`` characters of text each (libxml2 takes text nodes to 10 MB)."""
    text = _xml_text(piece_text(["mark;Side;Red"]))
    return with_pieces(PLAIN_BUILDFILE, '<VASSAL.build.module.PieceWindow name="w">' + "".join(
        f'<{SLOT} entryName="u{i}" gpid="{i + 1}">{text}{_filler(size, i)}</{SLOT}>' for i in range(n))
        + "</VASSAL.build.module.PieceWindow>")


def many_attributes(n: int = 140_000, size: int = 430) -> bytes:
    """``n`` elements of ``size`` bytes each (60 MB), under the element cap."""
    k = size - 10
    filler = _filler(k * n)
    return with_pieces(PLAIN_BUILDFILE, "".join(f'<b v="{filler[i * k:(i + 1) * k]}"/>' for i in range(n)))


def _vmod(d: Path, xml: bytes, name: str = "m.vmod") -> str:
    _write(d, name, module_zip(xml))
    return name


@cache
def _kept() -> Path:
    """A temporary folder for the large modules, removed when the process ends."""
    keep = Path(tempfile.mkdtemp(prefix="gazala-crafted-"))
    atexit.register(shutil.rmtree, keep, ignore_errors=True)
    return keep


#: each large module, made once per process and kept in :func:`_kept` (not in memory: up to 60 MB each)
_MADE: dict[str, Path] = {}


def _made_module(d: Path, what: str, make: Callable[[], bytes], name: str = "m.vmod") -> str:
    """:func:`_vmod` of ``make()``, made once for every command run on it, copied into ``d``."""
    if what not in _MADE:
        _MADE[what] = _kept() / _vmod(_kept(), make(), f"{len(_MADE)}.vmod")
    shutil.copyfile(_MADE[what], d / name)
    return name


for _what, _make in (("prototypes 4 x 100", prototype_bomb), ("2.4 million empty elements", empty_elements),
                     ("400,000 roster entries", roster), ("300,000 piece slots", lambda: many_slots(300_000)),
                     ("19,000 piece slots", lambda: many_slots(19_000)),
                     ("a 60 MB attribute", big_attribute), ("60 MB of text", big_text),
                     ("6 piece slots of 10 MB", big_slots), ("140,000 elements of 430 bytes", many_attributes)):
    for _verb in ("lint", "locate", "import"):
        def _maker(d: Path, make: Callable[[], bytes] = _make, verb: str = _verb, what: str = _what) -> list[str]:
            m = _made_module(d, what, make)
            return {"lint": ["module", "lint", m], "locate": ["grid", "locate", m, "10", "10"],
                    "import": ["game", "import", m, "out"]}[verb]

        case(f"buildFile {_what}: {_verb}", exits=(0, 1, 2), slow=_what != "prototypes 4 x 100")(_maker)


@case("game.yaml with 40,000 sides: game show", exits=(0, 2))
def _many_sides(d: Path) -> list[str]:
    root = Path(__file__).resolve().parents[2]
    game = d / "g"
    shutil.copytree(root / "tests" / "games" / "river-war", game)
    text = (game / "game.yaml").read_text()
    extra = "".join(f"  - {{id: s{i}, name: Side {i}}}\n" for i in range(40_000 - 2))
    (game / "game.yaml").write_text(text.replace("\nturns:", "\n" + extra + "turns:", 1))
    return ["game", "show", "g"]


# --- numbers from a module --------------------------------------------------------------------------
def grid_buildfile(grid: str = "", numbering: str = "", image: str = "") -> bytes:
    """The sample buildFile with HexGrid attributes (``dx="inf"``...) and numbering attributes replaced."""
    xml = buildfile(numbering, image)
    if grid:
        xml = xml.replace('dx="40" dy="46" x0="0" y0="0"', grid)
    return xml.encode()


GRID_NUMBERS = ('dx="inf" dy="46" x0="0" y0="0"', 'dx="1e308" dy="46" x0="0" y0="0"',
                'dx="40" dy="1e308" x0="0" y0="0"', 'dx="40" dy="46" x0="99999999999" y0="0"',
                'dx="40" dy="46" x0="0" y0="-99999999999"', 'dx="1e-5" dy="46" x0="0" y0="0"',
                'dx="40" dy="1e-5" x0="0" y0="0"', 'dx="nan" dy="46" x0="0" y0="0"')
NUMBERING_NUMBERS = ('hOff="2147483647"', 'vOff="2147483647"', 'hOff="-2147483648"')

for _grid in GRID_NUMBERS:
    for _verb in ("import", "locate", "lint"):
        def _grid_maker(d: Path, grid: str = _grid, verb: str = _verb) -> list[str]:
            m = _vmod(d, grid_buildfile(grid))
            return {"lint": ["module", "lint", m], "locate": ["grid", "locate", m, "10", "10"],
                    "import": ["game", "import", m, "out"]}[verb]

        _attr = next(a for a in _grid.split() if not a.endswith(('="40"', '="46"', '="0"')))
        case(f"HexGrid {_attr}: {_verb}", exits=(1, 2) if _verb == "lint" else (2,),
             stderr="" if _verb == "lint" else _attr.split("=")[0])(_grid_maker)

for _num in NUMBERING_NUMBERS:
    for _verb in ("import", "locate"):
        def _num_maker(d: Path, num: str = _num, verb: str = _verb) -> list[str]:
            m = _vmod(d, grid_buildfile(numbering=num))
            return {"locate": ["grid", "locate", m, "10", "10"], "import": ["game", "import", m, "out"]}[verb]

        case(f"HexGridNumbering {_num}: {_verb}", stderr=_num.split("=")[0])(_num_maker)

for _gpid in ("1" * 5000, "²"):
    def _gpid_maker(d: Path, gpid: str = _gpid) -> list[str]:
        text = _xml_text(piece_text(["mark;Side;Red"]))
        m = _vmod(d, with_pieces(PLAIN_BUILDFILE, f'<VASSAL.build.module.PieceWindow name="w"><{SLOT} entryName="u" '
                                 f'gpid="{gpid}">{text}</{SLOT}></VASSAL.build.module.PieceWindow>'))
        return ["module", "lint", m]

    case(f"gpid {_gpid[:8]}{'...' if len(_gpid) > 8 else ''}: lint", exits=(0,))(_gpid_maker)


# --- module folders: a buildFile.xml that is a symlink out ------------------------------------------
SECRET = "CRAFTED-SECRET-OUTSIDE"


def _symlinked_folder(d: Path) -> Path:
    """An unzipped module whose buildFile.xml is a symlink to a buildFile outside it (a readable one, so
    that only the sandbox can refuse it)."""
    outside = d / "outside.xml"
    outside.write_bytes(PLAIN_BUILDFILE.replace(b'name="Hostile"', f'name="{SECRET}"'.encode()))
    mod = d / "mod"
    (mod / "images").mkdir(parents=True)
    (mod / "buildFile.xml").symlink_to(outside)
    return mod


for _verb in ("lint", "lint file", "locate", "import", "import file"):
    def _link_maker(d: Path, verb: str = _verb) -> list[str]:
        mod = _symlinked_folder(d)
        src = str(mod / "buildFile.xml") if verb.endswith("file") else "mod"
        return {"lint": ["module", "lint", src], "locate": ["grid", "locate", src, "10", "10"],
                "import": ["game", "import", src, "out"]}[verb.split()[0]]

    case(f"module folder, buildFile.xml a symlink out: {_verb}", stderr="leaves the module folder")(_link_maker)
