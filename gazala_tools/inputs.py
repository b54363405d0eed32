"""The input boundary: every file the toolkit reads comes through here, capped and type-checked.

* :func:`read_file` / :func:`open_file`: regular files only (a FIFO, a device such as ``/dev/zero``,
  a directory or a socket is refused before a byte is read; a FIFO is opened non-blocking so it
  cannot hang), recorded as an input of the command (:func:`gazala_tools.fileio.note_input`), and
  read up to a cap (one byte more is enough to know a file is too large).
* :class:`ZipInput`: a zip archive whose members are read **streamed**: inflated here in bounded chunks
  whatever the method (stored, deflate, bzip2, LZMA; any other is refused by its name), counting the
  bytes that actually come out (declared sizes are not trusted), with a cap per member and a budget for
  the whole archive; member names that leave the archive are refused; a bad CRC, a wrong size, an
  encrypted member, a truncated or corrupt stream is a :class:`GazalaError`. The one way a zip member is
  read (issue 31).
* :func:`check_xml_budget`: elements, nesting and elements of named tags counted by a streaming pass
  before a tree is built.
* :func:`parse_xml_stdlib` and :func:`refuse_dtd`: XML whose parser refuses any DOCTYPE, whatever
  the encoding and however far into the file it stands (no DTD, no entity, no network).
* :func:`bounded_int`: integers from text with a digit cap (never near ``sys.set_int_max_str_digits``).
* :func:`image_header_size`, :func:`check_pixels`, :func:`open_image`: image sizes from headers only,
  refused before any pixel is allocated; Pillow's decompression-bomb and text-chunk limits are
  :class:`GazalaError`.

Pure Python (the standard library); :func:`open_image` imports Pillow when an edge calls it.
"""

from __future__ import annotations

import bz2
import contextlib
import copy
import errno
import io
import lzma
import os
import posixpath
import re
import stat
import struct
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final
from xml.etree import ElementTree
from xml.parsers import expat

from gazala_tools.errors import GazalaError
from gazala_tools.fileio import note_input

if TYPE_CHECKING:  # pragma: no cover
    from PIL import Image

__all__ = [
    "BOARD_IMAGE_FORMATS",
    "IMAGE_KINDS",
    "MAX_ARCHIVE_BYTES",
    "MAX_BOARD_BYTES",
    "MAX_FILE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_INT_DIGITS",
    "MAX_MEMBERS",
    "MAX_MEMBER_BYTES",
    "MAX_PIXELS_PER_BYTE",
    "MAX_RATIO",
    "MAX_SCAN_PIXELS",
    "MAX_XML_DEPTH",
    "SVG_HEAD_BYTES",
    "ZIP_METHODS",
    "XmlBudget",
    "ZipInput",
    "bounded_int",
    "check_pixels",
    "check_plausible",
    "check_xml_budget",
    "image_header_size",
    "inside_folder",
    "is_regular",
    "is_svg",
    "method_name",
    "open_file",
    "open_image",
    "parse_xml_stdlib",
    "read_file",
    "read_text",
    "refuse_doctype",
    "refuse_dtd",
    "safe_member_name",
    "sniff_image",
    "sniff_image_file",
    "svg_declared_size",
    "svg_size",
]

#: largest file read whole by default (data files, saves, buildFiles have their own lower caps)
MAX_FILE_BYTES: Final = 512 * 1024 * 1024
#: largest decompressed member of an archive, by default
MAX_MEMBER_BYTES: Final = 256 * 1024 * 1024
#: largest total decompressed bytes read from one archive, by default
MAX_ARCHIVE_BYTES: Final = 512 * 1024 * 1024
#: largest decompressed / compressed ratio of a member (a zip bomb's is in the millions)
MAX_RATIO: Final = 1000
#: most members an archive may list
MAX_MEMBERS: Final = 100_000
#: longest integer read from text (a coordinate, a count: 18 digits fit a 64-bit integer)
MAX_INT_DIGITS: Final = 18
#: most pixels of an image we read the header of and may decode (a 16,000 x 12,000 board)
MAX_IMAGE_PIXELS: Final = 200_000_000
#: the largest scan ``gazala digitize`` reads without ``--max-pixels`` (``digitize.image.MAX_PIXELS``)
MAX_SCAN_PIXELS: Final = 250_000_000
#: the image formats a module shows as a board, and the suffix a module stores each under
BOARD_IMAGE_FORMATS: Final = {"PNG": "png", "JPEG": "jpg", "GIF": "gif"}
#: largest board image file a module build reads (``gazala game new`` copies no larger scan)
MAX_BOARD_BYTES: Final = 256 * 1024 * 1024
#: deepest XML element nesting (a VASSAL buildFile is about 12 deep)
MAX_XML_DEPTH: Final = 256

_CHUNK: Final = 1 << 16


# --- regular files ---------------------------------------------------------------------------------
def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def is_regular(path: str | Path) -> bool:
    """True for a regular file (symlinks followed); never opens it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def open_file(path: str | Path, *, what: str = "input", cap: int = MAX_FILE_BYTES,
              error: type[GazalaError] = GazalaError) -> Iterator[IO[bytes]]:
    """A regular file of at most ``cap`` bytes opened for reading (recorded as an input)."""
    note_input(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; the type check below refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"cannot read {what} (no such file)", file=path) from None
    except IsADirectoryError:
        raise error(f"{what} is a directory", file=path, expected="a regular file") from None
    except OSError as exc:
        raise error(f"cannot read {what} ({exc.strerror})", file=path) from None
    except ValueError:  # a NUL byte in the name
        raise error(f"{what} has an invalid file name", file=path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{what} is {_kind(st.st_mode)}", file=path, expected="a regular file")
        if st.st_size > cap:
            raise error(f"{what} is {st.st_size:,} bytes", file=path, expected=f"at most {cap:,} bytes")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        yield fh


def read_file(path: str | Path, *, what: str = "input", cap: int = MAX_FILE_BYTES,
              error: type[GazalaError] = GazalaError) -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes (a file growing while read included)."""
    with open_file(path, what=what, cap=cap, error=error) as fh:
        try:
            data = fh.read(cap + 1)
        except OSError as exc:
            raise error(f"cannot read {what} ({exc.strerror or errno.errorcode.get(exc.errno or 0, exc)})",
                        file=path) from None
    if len(data) > cap:
        raise error(f"{what} is larger than {cap:,} bytes", file=path, expected=f"at most {cap:,} bytes")
    return data


def read_text(path: str | Path, *, what: str = "input", cap: int = MAX_FILE_BYTES,
              error: type[GazalaError] = GazalaError) -> str:
    """The UTF-8 text of a regular file (capped)."""
    data = read_file(path, what=what, cap=cap, error=error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text (byte {exc.start})", file=path, expected="UTF-8 text") from None


# --- paths inside a folder ------------------------------------------------------------------------
def _shown_path(name: str | Path) -> str:
    text = str(name)
    return repr(text if len(text) <= 80 else text[:77] + "...")


def inside_folder(path: str | Path, root: str | Path, *, name: str | Path | None = None, what: str = "path",
                  file: str | Path | None = None, place: str | None = None,
                  error: type[GazalaError] = GazalaError, folder: str = "game folder") -> Path:
    """``path`` resolved with every symlink followed, refused unless it lies inside ``root`` (resolved
    too): the one check of every path a game folder's data names (its data files, art files and each
    member of an art folder, ``extends``, help pages, board images, the plugin; docs/games.md "A game
    folder is a sandbox"). A symlink loop, a NUL byte or a name too long is refused the same way.
    ``name`` is the path as the data writes it (shown in the message; default ``path``). The
    resolved path is returned; it need not exist (callers say what a missing file means). ``folder`` names
    the sandbox in messages (an unzipped module is read the same way: ``module folder``)."""
    shown = _shown_path(path if name is None else name)
    try:
        base = Path(root).resolve()
        target = Path(path).resolve()
    except ValueError:  # a NUL byte
        raise error(f"{what} {shown} has a NUL byte", file=file, place=place, expected="a file name") from None
    except RuntimeError:  # Python 3.11-3.12: "Symlink loop from ..."
        raise error(f"{what} {shown} is a symlink loop", file=file, place=place,
                    expected=f"a file inside the {folder}") from None
    except OSError as exc:  # Python 3.13: ELOOP; a name too long
        problem = "is a symlink loop" if exc.errno == errno.ELOOP else f"cannot be resolved ({exc.strerror})"
        raise error(f"{what} {shown} {problem}", file=file, place=place,
                    expected=f"a file inside the {folder}") from None
    if target != base and base not in target.parents:
        raise error(f"{what} {shown} leaves the {folder} (a symlink, an absolute path or '..')",
                    file=file, place=place, expected=f"a file inside {base}")
    try:
        os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        pass  # a missing file: the caller says whether that is an error
    except OSError as exc:  # a name too long, a permission: nothing to read there
        raise error(f"{what} {shown} cannot be read ({exc.strerror})", file=file, place=place,
                    expected=f"a file inside the {folder}") from None
    return target


# --- zip archives ----------------------------------------------------------------------------------
_ZIP_ERRORS: Final = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, lzma.LZMAError, zlib.error,
                      NotImplementedError, RuntimeError, ValueError, struct.error, OverflowError)

#: the compression methods a member may use, each inflated in bounded chunks (:class:`_Inflater`)
ZIP_METHODS: Final = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate", zipfile.ZIP_BZIP2: "bzip2",
                      zipfile.ZIP_LZMA: "LZMA"}
#: names of the other methods of the zip specification (APPNOTE 4.4.5), for the refusal's message
_OTHER_METHODS: Final = {1: "Shrink", 2: "Reduce", 3: "Reduce", 4: "Reduce", 5: "Reduce", 6: "Implode",
                         9: "Deflate64", 10: "PKWARE DCL Implode", 16: "IBM z/OS CMPSC", 18: "IBM TERSE",
                         19: "IBM LZ77", 20: "Zstandard (old id)", 93: "Zstandard", 94: "MP3", 95: "XZ",
                         96: "JPEG", 97: "WavPack", 98: "PPMd", 99: "AES encryption"}
#: the smallest dictionary liblzma takes
_LZMA_DICT_MIN: Final = 4096


def method_name(method: int) -> str:
    """The name of a zip compression method (``Deflate64``, ``method 77``)."""
    return ZIP_METHODS.get(method) or _OTHER_METHODS.get(method) or f"method {method}"


class _Inflater:
    """One member's compressed bytes in, its bytes out, **at most** ``max_length`` bytes a call whatever
    the method: deflate (zlib), bzip2 (bz2) and LZMA (liblzma, raw LZMA1 behind the zip's 4-byte header and
    properties) all take an output bound, so a 700-byte bzip2 member that expands to 1 GiB gives a chunk at
    a time (``zipfile``'s own reader passes bzip2 and LZMA data to the decompressor unbounded)."""

    def __init__(self, method: int, limit: int) -> None:
        self.method = method
        self.limit = limit  # an LZMA dictionary beyond the bytes we accept is never needed
        self.tail = b""
        self.eof = False
        self._dec: Any = None
        if method == zipfile.ZIP_DEFLATED:
            self._dec = zlib.decompressobj(-15)
        elif method == zipfile.ZIP_BZIP2:
            self._dec = bz2.BZ2Decompressor()
        self._lzma_head = b""

    def _lzma(self, data: bytes) -> bytes:
        """Buffer the LZMA header (version, properties size, properties) and start the decoder."""
        self._lzma_head += data
        if len(self._lzma_head) < 4:
            return b""
        size = struct.unpack("<H", self._lzma_head[2:4])[0]
        if size != 5:
            raise zipfile.BadZipFile(f"LZMA properties of {size} bytes (expected 5)")
        if len(self._lzma_head) < 4 + size:
            return b""
        props, rest = self._lzma_head[4:9], self._lzma_head[9:]
        d = props[0]
        if d >= 9 * 5 * 5:
            raise zipfile.BadZipFile(f"bad LZMA properties byte {d}")
        lc, lp, pb = d % 9, d // 9 % 5, d // 45
        declared = struct.unpack("<I", props[1:5])[0]
        dict_size = max(min(declared, self.limit + 1), _LZMA_DICT_MIN)
        self._dec = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[
            {"id": lzma.FILTER_LZMA1, "lc": lc, "lp": lp, "pb": pb, "dict_size": dict_size}])
        self._lzma_head = b""
        return rest

    def feed(self, data: bytes, max_length: int) -> bytes:
        """Up to ``max_length`` bytes out of ``data`` (plus what an earlier call left unread)."""
        if self.method == zipfile.ZIP_STORED:
            data = self.tail + data
            self.tail = data[max_length:]
            return data[:max_length]
        if self.method == zipfile.ZIP_LZMA and self._dec is None:
            data = self._lzma(data)
            if self._dec is None:
                return b""
        dec = self._dec
        if self.method == zipfile.ZIP_DEFLATED:
            out = dec.decompress(self.tail + data, max_length)
            self.tail = dec.unconsumed_tail
            self.eof = dec.eof
            return bytes(out)
        if dec.eof:  # bz2/lzma: input after the end of the stream is ignored, as zipfile does
            self.eof = True
            return b""
        out = dec.decompress(data, max_length)
        self.eof = dec.eof
        return bytes(out)

    def pending(self) -> bool:
        """Whether more output may come without more input."""
        if self.method == zipfile.ZIP_STORED:
            return bool(self.tail)
        if self._dec is None or self.eof:
            return False
        if self.method == zipfile.ZIP_DEFLATED:
            return bool(self.tail)
        return not self._dec.needs_input


def safe_member_name(name: str) -> bool:
    """A member name that stays inside the archive (no absolute path, no ``..``, no drive)."""
    norm = posixpath.normpath(name.replace("\\", "/"))
    return not (name.startswith(("/", "\\")) or norm == ".." or norm.startswith("../")
                or ":" in name.split("/")[0] or "\x00" in name)


class ZipInput:
    """A zip archive read member by member within a per-member cap and a per-archive budget.

    The one rule of every compressed input (issue 31): a member is inflated in bounded chunks
    (:data:`_CHUNK` bytes out at a time) whatever its method, counted against the smallest of its cap,
    the archive's remaining budget and :data:`MAX_RATIO` times its compressed size, so memory never
    exceeds the cap plus a chunk; a method that cannot be inflated that way (Deflate64, PPMd, ...) or an
    encrypted member is refused with its name before a byte is inflated; the CRC and the size the
    directory declares are checked at the end."""

    def __init__(self, source: str | Path | bytes | IO[bytes], *, file: str | Path | None = None,
                 budget: int = MAX_ARCHIVE_BYTES, error: type[GazalaError] = GazalaError,
                 what: str = "archive") -> None:
        self.error = error
        self.budget = budget
        self.used = 0
        self._used_lock = threading.Lock()  # members may be copied from several threads at once
        self._owned: IO[bytes] | None = None
        if isinstance(source, bytes):
            self.file = str(file or "<bytes>")
            fh: IO[bytes] = io.BytesIO(source)
        elif isinstance(source, (str, Path)):
            self.file = str(file or source)
            self._cm = open_file(source, what=what, error=error)
            fh = self._owned = self._cm.__enter__()
        else:
            self.file = str(file or getattr(source, "name", "<stream>"))
            fh = source
        try:
            self.zip = zipfile.ZipFile(fh)
            infos = self.zip.infolist()
        except _ZIP_ERRORS as exc:
            self.close()
            raise error(f"not a readable zip archive ({exc})", file=self.file, expected=f"a zip {what}") from None
        if len(infos) > MAX_MEMBERS:
            self.close()
            raise error(f"zip lists {len(infos):,} members", file=self.file, expected=f"at most {MAX_MEMBERS:,}")
        for info in infos:
            if not safe_member_name(info.filename):
                self.close()
                raise error(f"zip member name {info.filename!r} points outside the archive", file=self.file,
                            place=f"zip entry {info.filename!r}", expected="relative member names without '..'")
        self.infos = infos
        self._by_name = {i.filename: i for i in reversed(infos)}  # the first of a repeated name, as before

    def __enter__(self) -> ZipInput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.zip.close()
        if self._owned is not None:
            self._cm.__exit__(None, None, None)
            self._owned = None

    def names(self) -> list[str]:
        return [i.filename for i in self.infos]

    def info(self, name: str) -> zipfile.ZipInfo | None:
        return self._by_name.get(name)

    def read(self, member: str | zipfile.ZipInfo, cap: int = MAX_MEMBER_BYTES) -> bytes:
        """A member's bytes, inflated in chunks: refused as soon as the bytes that come out pass
        ``cap``, the archive's remaining budget, or :data:`MAX_RATIO` times the compressed size."""
        out = io.BytesIO()  # getvalue() hands its buffer over: no second copy of the member
        self.copy(member, out.write, cap)
        return out.getvalue()

    def copy(self, member: str | zipfile.ZipInfo, write: Callable[[bytes], object],
             cap: int = MAX_MEMBER_BYTES) -> int:
        """Stream a member to ``write`` in chunks (never held whole), within the same limits as
        :meth:`read`; returns the bytes copied. A refused member may have been written in part."""
        info = self._info(member)
        limits = [(cap, "entry expands beyond the size cap"),
                  (self.budget - self.used, "the archive expands beyond its total size budget"),
                  (max(info.compress_size, 1024) * MAX_RATIO, "entry compression ratio looks like a zip bomb")]
        limit, problem = min(limits, key=lambda t: t[0])
        limit = max(limit, 0)
        place = f"zip entry {info.filename!r}"
        n = 0
        crc = 0
        try:
            for chunk in self._inflate(info, limit):
                n += len(chunk)
                if n > limit:
                    break
                crc = zlib.crc32(chunk, crc)
                write(chunk)
        finally:
            with self._used_lock:
                self.used += n
        if n > limit:
            raise self.error(problem, file=self.file, place=place, expected=f"at most {limit:,} bytes")
        if crc != info.CRC:
            raise self.error(f"bad CRC-32 of the entry (BadZipFile: {crc:08x}, its header says {info.CRC:08x})",
                             file=self.file, place=place, expected="an entry whose bytes match its CRC")
        if n != info.file_size:
            raise self.error(f"entry inflates to {n:,} bytes, its header says {info.file_size:,}", file=self.file,
                             place=place, expected="an entry of the size its header declares")
        return n

    def read_head(self, member: str | zipfile.ZipInfo, n: int) -> bytes:
        """The first ``n`` bytes of a member (an image header), charged to the budget; empty when the
        member is missing or cannot be read."""
        try:
            info = self._info(member)
        except GazalaError:
            return b""
        out = bytearray()
        try:
            for chunk in self._inflate(info, n):
                out += chunk[: n - len(out)]
                if len(out) >= n:
                    break
        except GazalaError:
            return b""
        finally:
            with self._used_lock:
                self.used += len(out)
        return bytes(out)

    def _info(self, member: str | zipfile.ZipInfo) -> zipfile.ZipInfo:
        info = self.info(member) if isinstance(member, str) else member
        if info is None:
            raise self.error(f"zip has no member {member!r}", file=self.file)
        return info

    def _inflate(self, info: zipfile.ZipInfo, limit: int) -> Iterator[bytes]:
        """The member's bytes in chunks of at most :data:`_CHUNK` (the raw bytes read through zipfile as a
        stored member, then inflated here with an output bound); a chunk past ``limit`` ends it."""
        place = f"zip entry {info.filename!r}"
        method = info.compress_type
        if method not in ZIP_METHODS:
            raise self.error(f"entry uses the compression method {method_name(method)} (id {method}), which is "
                             "not supported", file=self.file, place=place,
                             expected="stored, deflate, bzip2 or LZMA (" + ", ".join(
                                 f"{v} {k}" for k, v in ZIP_METHODS.items()) + ")")
        if info.flag_bits & 0x1:
            raise self.error("entry is encrypted", file=self.file, place=place, expected="an unencrypted entry")
        raw = copy.copy(info)
        raw.compress_type = zipfile.ZIP_STORED  # zipfile hands over the compressed bytes unchanged ...
        raw.file_size = info.compress_size
        with contextlib.suppress(AttributeError):
            del raw.CRC  # ... without checking them against the CRC of the inflated bytes
        inflater = _Inflater(method, limit)
        n = 0
        try:
            with self.zip.open(raw) as fh:
                exhausted = starved = False
                while not inflater.eof:
                    data = b""
                    if not exhausted and (starved or not inflater.pending()):
                        data = fh.read(_CHUNK)
                        exhausted = not data
                    chunk = inflater.feed(data, min(_CHUNK, limit + 1 - n))
                    starved = not chunk
                    if chunk:
                        n += len(chunk)
                        yield chunk
                        if n > limit:
                            return
                    elif exhausted and not data:
                        break
        except _ZIP_ERRORS as exc:
            raise self.error(f"cannot read zip entry ({type(exc).__name__}: {exc})", file=self.file, place=place,
                             expected=f"a readable {method_name(method)} entry") from None
        ends = method in (zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2) or (method == zipfile.ZIP_LZMA
                                                                       and info.flag_bits & 0x2)
        if ends and not inflater.eof:
            raise self.error(f"truncated {method_name(method)} stream", file=self.file, place=place,
                             expected=f"a complete {method_name(method)} stream")


# --- XML -------------------------------------------------------------------------------------------
def _refuse(file: str | Path, error: type[GazalaError]) -> GazalaError:
    return error("XML declares a DOCTYPE (refused: no DTDs, no entities, no XXE)", file=file,
                 expected="plain XML without <!DOCTYPE>")


def parse_xml_stdlib(data: bytes, *, file: str | Path, what: str = "XML",
                     error: type[GazalaError] = GazalaError) -> ElementTree.Element:
    """Parse small XML with the standard library's expat; any DOCTYPE or entity declaration is
    refused by the parser itself (in whatever encoding the document uses), nesting is capped."""

    class _Refused(Exception):
        pass

    builder = ElementTree.TreeBuilder()
    depth = 0

    def doctype(*_a: object) -> None:
        raise _Refused

    def on_start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        if depth > MAX_XML_DEPTH:
            raise _Refused(f"nested deeper than {MAX_XML_DEPTH} elements")
        builder.start(tag, attrs)

    def on_end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        builder.end(tag)

    raw = expat.ParserCreate()
    raw.StartDoctypeDeclHandler = doctype
    raw.EntityDeclHandler = doctype
    raw.StartElementHandler = on_start
    raw.EndElementHandler = on_end
    raw.CharacterDataHandler = builder.data
    try:
        raw.Parse(data, True)
        return builder.close()
    except _Refused as exc:
        if exc.args:
            raise error(f"{what} is {exc.args[0]}", file=file, expected="plain XML") from None
        raise _refuse(file, error) from None
    except (expat.ExpatError, AssertionError, ValueError, LookupError, UnicodeError) as exc:
        raise error(f"{what} is not well-formed XML ({exc})", file=file, expected="plain XML") from None


class _Doctype(Exception):
    pass


def _doctype(*_a: object) -> None:
    raise _Doctype


def _refusing_parser() -> expat.XMLParserType:
    """An expat parser that raises :class:`_Doctype` at any DOCTYPE or entity declaration."""
    raw = expat.ParserCreate()
    raw.StartDoctypeDeclHandler = _doctype
    raw.EntityDeclHandler = _doctype
    return raw


def refuse_doctype(data: bytes, *, file: str | Path, error: type[GazalaError] = GazalaError) -> None:
    """Refuse XML whose prolog has a DOCTYPE, before any other parser sees it: expat reads the prolog
    only (in whatever encoding the document declares) and stops at the root element."""

    class _Stop(Exception):
        pass

    def root(*_a: object) -> None:
        raise _Stop

    raw = _refusing_parser()
    raw.StartElementHandler = root
    try:
        raw.Parse(data, True)
    except _Doctype:
        raise _refuse(file, error) from None
    except (_Stop, expat.ExpatError, ValueError, LookupError, UnicodeError):
        return  # the root element was reached, or the parser that follows reports the syntax


class XmlBudget:
    """What a parsed XML document may hold, counted by a streaming pass before any tree is built
    (:func:`check_xml_budget`): elements in all, nesting, and elements of named tags (a buildFile's
    piece definitions)."""

    def __init__(self, elements: int, depth: int = MAX_XML_DEPTH, tags: dict[str, int] | None = None) -> None:
        self.elements = elements
        self.depth = depth
        self.tags = tags or {}


def check_xml_budget(data: bytes, budget: XmlBudget, *, file: str | Path, what: str = "XML",
                     error: type[GazalaError] = GazalaError) -> None:
    """Refuse, before a tree is built, XML with a DOCTYPE or more elements, deeper nesting or more elements
    of a named tag than ``budget`` allows (issue 31: 2.4 million empty elements in 9.6 MB took 1.2 GB to
    import). One streaming expat pass, no tree: about 0.25 s a million elements. A document expat cannot
    read to its end (a syntax error, an encoding it lacks) is held to a bound it cannot exceed: one element
    a ``<`` that is no end tag; the parser that follows reports the syntax."""

    class _Over(Exception):
        pass

    count = 0
    depth = 0
    tags = dict.fromkeys(budget.tags, 0)

    def start(tag: str, _attrs: object) -> None:
        nonlocal count, depth
        count += 1
        depth += 1
        if count > budget.elements:
            raise _Over(f"more than {budget.elements:,} elements", f"at most {budget.elements:,} elements")
        if depth > budget.depth:
            raise _Over(f"nested deeper than {budget.depth} elements", f"at most {budget.depth} levels")
        if tag in tags:
            tags[tag] += 1
            if tags[tag] > budget.tags[tag]:
                short = tag.rsplit(".", 1)[-1]
                raise _Over(f"more than {budget.tags[tag]:,} {short} elements", f"at most {budget.tags[tag]:,}")

    def end(_tag: str) -> None:
        nonlocal depth
        depth -= 1

    raw = _refusing_parser()
    raw.StartElementHandler = start
    raw.EndElementHandler = end
    try:
        raw.Parse(data, True)
    except _Doctype:
        raise _refuse(file, error) from None
    except _Over as exc:
        raise error(f"{what} has {exc.args[0]} (line {raw.CurrentLineNumber})", file=file,
                    expected=exc.args[1]) from None
    except (expat.ExpatError, ValueError, LookupError, UnicodeError):
        bound = data.count(b"<") - data.count(b"</")
        if bound > budget.elements:
            raise error(f"{what} cannot be read to its end and may hold more than {budget.elements:,} elements",
                        file=file, expected=f"well-formed UTF-8 XML of at most {budget.elements:,} elements") from None


def refuse_dtd(tree: object, *, file: str | Path, error: type[GazalaError] = GazalaError) -> None:
    """Refuse an lxml document that has a DOCTYPE or internal subset (``docinfo``), whatever its
    encoding; call it on every tree parsed with lxml (``resolve_entities=False``, ``no_network``)."""
    docinfo = getattr(tree, "docinfo", None)
    if docinfo is None:
        getroottree = getattr(tree, "getroottree", None)
        docinfo = getroottree().docinfo if getroottree is not None else None
    if docinfo is None:
        return
    if docinfo.doctype or docinfo.internalDTD is not None or docinfo.externalDTD is not None \
            or docinfo.system_url or docinfo.public_id:
        raise _refuse(file, error)


# --- numbers ---------------------------------------------------------------------------------------
def bounded_int(text: str, *, what: str, file: str | Path | None = None, place: str | None = None,
                lo: int | None = None, hi: int | None = None, digits: int = MAX_INT_DIGITS,
                error: type[GazalaError] = GazalaError) -> int:
    """``int(text)`` for a plain decimal of at most ``digits`` digits within ``lo..hi``."""
    s = text.strip()
    body = s[1:] if s[:1] in "+-" else s
    if not body or len(body) > digits or not body.isascii() or not body.isdigit():
        shown = s if len(s) <= 40 else s[:37] + "..."
        raise error(f"{what}: {shown!r} is not an integer", file=file, place=place,
                    expected=f"a decimal integer of at most {digits} digits")
    value = int(s)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise error(f"{what}: {value} is out of range", file=file, place=place,
                    expected=f"{'' if lo is None else lo}..{'' if hi is None else hi}")
    return value


# --- images ----------------------------------------------------------------------------------------
def image_header_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the first bytes of a PNG, GIF or JPEG (no decoding, bounded work), or the
    size an SVG's root element declares, or None when the header is not one of these."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return int(w), int(h)
    if data[:2] == b"\xff\xd8":
        i = 2
        for _ in range(10_000):  # markers; each step moves forward
            if i + 9 >= len(data):
                break
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                h, w = struct.unpack(">HH", data[i + 5 : i + 9])
                return int(w), int(h)
            seg = struct.unpack(">H", data[i + 2 : i + 4])[0]
            i += 2 + max(seg, 1)
    if is_svg(data):  # the size its <svg> element declares
        return svg_size(data)
    return None


#: an SVG's root element, and the attributes of it that give its size
_SVG_ROOT = re.compile(rb"<svg\b([^>]*)>", re.S)
_SVG_ATTR = re.compile(rb"""\b(width|height|viewBox)\s*=\s*["']([^"']*)["']""")
_SVG_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")
#: CSS pixels (96 per inch) per unit, as Batik and cairosvg read them
_SVG_UNIT: Final = {"px": 1.0, "": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


#: bytes of an SVG's start looked at for its root element (an illustration program's prolog, comments and
#: internal entity declarations come first: a few KB)
SVG_HEAD_BYTES: Final = 65536


def is_svg(data: bytes) -> bool:
    """True when ``data`` looks like an SVG document (its root element is ``<svg`` in the first 64 KB)."""
    head = data[:SVG_HEAD_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] == b"<" and _SVG_ROOT.search(head) is not None


#: the image formats of module and counter art, as :func:`sniff_image` names them
IMAGE_KINDS: Final = ("PNG", "GIF", "JPEG", "SVG")


def sniff_image(data: bytes) -> str | None:
    """The format of an image from its first bytes, whatever its file is called (VASSAL writes and modules
    name images without an extension: ``images/Captured by Red`` is a PNG): ``PNG``, ``GIF``, ``JPEG`` or
    ``SVG``, else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if is_svg(data):
        return "SVG"
    return None


def sniff_image_file(path: str | Path, *, what: str = "image", error: type[GazalaError] = GazalaError) -> str | None:
    """:func:`sniff_image` of a regular file's first bytes (at most :data:`SVG_HEAD_BYTES` read)."""
    with open_file(path, what=what, error=error) as fh:
        try:
            head = fh.read(SVG_HEAD_BYTES)
        except OSError as exc:
            raise error(f"cannot read {what} ({exc.strerror})", file=path) from None
    return sniff_image(head)


def _length(text: str) -> float | None:
    m = _SVG_LENGTH.match(text)
    return float(m.group(1)) * _SVG_UNIT[m.group(2) or ""] if m else None


def svg_size(data: bytes) -> tuple[int, int] | None:
    """Width and height in pixels the SVG declares (its root's width/height, else its viewBox), read
    from the first 64 KB without parsing the document; None when it declares none."""
    m = _SVG_ROOT.search(data[:SVG_HEAD_BYTES])
    if m is None:
        return None
    attrs = {k.decode(): v.decode("utf-8", "replace") for k, v in _SVG_ATTR.findall(m.group(1))}
    return svg_declared_size(attrs)


def svg_declared_size(attrs: dict[str, str]) -> tuple[int, int] | None:
    """Width and height in pixels of an ``<svg>`` element's ``width``, ``height`` and ``viewBox``
    attributes (CSS pixels, 96 per inch), or None when they give none."""
    w, h = _length(attrs.get("width", "")), _length(attrs.get("height", ""))
    box = [float(x) for x in re.findall(r"-?[0-9]*\.?[0-9]+", attrs.get("viewBox", ""))]
    if len(box) == 4 and (w is None or h is None):
        if w is None and h is None:
            w, h = box[2], box[3]
        elif w is None and h and box[3]:
            w = h * box[2] / box[3]
        elif h is None and w and box[2]:
            h = w * box[3] / box[2]
    if w is None or h is None:
        return None
    # a declared size is checked against a pixel cap next: 1e400 (infinite) or NaN is simply too large
    return tuple(max(round(v), 0) if v == v and abs(v) < 1e12 else 10**12 for v in (w, h))  # type: ignore[return-value]


def check_pixels(size: tuple[int, int], *, file: str | Path, what: str = "image",
                 max_pixels: int = MAX_IMAGE_PIXELS, error: type[GazalaError] = GazalaError) -> tuple[int, int]:
    w, h = size
    if w < 1 or h < 1 or w * h > max_pixels:
        raise error(f"{what} cannot be read: it declares {w} x {h} pixels", file=file,
                    expected=f"between 1 and {max_pixels:,} pixels")
    return w, h


#: most pixels one byte of an image file can hold, by format (a file declaring more is a pixel bomb:
#: Pillow would allocate the whole canvas before finding the data missing). PNG: deflate inflates a
#: byte to at most about 1,032 bytes, and a 1-bit image packs 8 pixels in a byte. GIF: a 12-bit LZW
#: code stands for at most 4,096 pixels (1.5 bytes). JPEG: every 8x8 block of the first scan costs a
#: DC code of at least one bit, so at most 64 pixels a bit.
MAX_PIXELS_PER_BYTE: Final = {"PNG": 8 * 1100, "GIF": 4096, "JPEG": 8 * 64, "MPO": 8 * 64}


def check_plausible(fmt: str | None, size: tuple[int, int], file_bytes: int, *, file: str | Path,
                    what: str = "image", error: type[GazalaError] = GazalaError) -> None:
    """Refuse an image whose file is too small to hold the pixels its header declares (a 225-byte
    PNG saying 240 Mpx, a 152-byte GIF whose screen is 6168 x 33024): Pillow would allocate the whole
    image before finding the data missing."""
    w, h = size
    per_byte = MAX_PIXELS_PER_BYTE.get(fmt or "")
    if per_byte is not None and w * h > file_bytes * per_byte:
        raise error(f"{what} cannot be read: it declares {w} x {h} pixels in {file_bytes:,} bytes", file=file,
                    expected="a complete image (its data is missing or truncated)")


def open_image(source: str | Path | bytes, *, file: str | Path | None = None, what: str = "image",
               max_pixels: int = MAX_IMAGE_PIXELS, max_bytes: int = MAX_FILE_BYTES,
               error: type[GazalaError] = GazalaError, load: bool = True) -> Image.Image:
    """A Pillow image, its size checked from the header before any pixel is decoded; every Pillow
    failure (truncated data, decompression bombs, oversized text chunks) is ``error``."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    name = file if file is not None else ("<bytes>" if isinstance(source, bytes) else source)
    data = source if isinstance(source, bytes) else read_file(source, what=what, cap=max_bytes, error=error)
    header = image_header_size(data[:262144])
    if header is not None:  # refused from the header, before Pillow allocates anything
        check_pixels(header, file=name, what=what, max_pixels=max_pixels, error=error)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
            check_pixels(img.size, file=name, what=what, max_pixels=max_pixels, error=error)
            check_plausible(img.format, img.size, len(data), file=name, what=what, error=error)
            if load:
                img.load()
    except GazalaError:
        raise
    except (OSError, ValueError, SyntaxError, EOFError, struct.error, MemoryError, UnidentifiedImageError,
            Image.DecompressionBombError, Image.DecompressionBombWarning, zlib.error, IndexError, TypeError,
            KeyError, ZeroDivisionError, OverflowError) as exc:
        raise error(f"{what} cannot be read ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})", file=name,
                    expected="a PNG, JPEG or GIF image") from None
    return img
