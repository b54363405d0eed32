"""Container layer: from a file's bytes to the command string of a VASSAL save or log.

Forms read (detected by content, never by file name):

* zip (``.vsav``, ``.vlog``, 2.9-era ``.sav``/``.log``) whose ``savedGame`` entry holds the commands;
* the ``savedGame`` content itself, in any of its encodings, as a bare file:
  ``!VCSK`` + hex key + hex(byte XOR key) (VASSAL 3.2-3.7), XZ-compressed text (VASSAL 3.8,
  magic ``FD 37 7A 58 5A 00``), ``VOBS`` + key byte + (byte XOR key) (binary obfuscation as
  pywargame writes it), or plain text.

``!VOXZ`` and other binary headers are refused with :class:`UnsupportedFormatError`. Every other
problem is a :class:`VassalFormatError` naming the file, the place (zip entry, byte offset) and what
was expected. Sizes are capped against zip bombs; zip member names that leave the archive are refused.
"""

from __future__ import annotations

import lzma
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from gazala_tools.errors import UnsupportedFormatError, VassalFormatError
from gazala_tools.inputs import ZipInput, parse_xml_stdlib, read_file

__all__ = [
    "EMPTY_ZIP_MAGIC",
    "MAX_ARCHIVE_BYTES",
    "MAX_COMMAND_BYTES",
    "MAX_FILE_BYTES",
    "MAX_META_BYTES",
    "MAX_RATIO",
    "MODULEDATA_ENTRY",
    "SAVEDATA_ENTRY",
    "SAVEFILE_ENTRY",
    "VCSK",
    "VOBS",
    "VOXZ",
    "XZ_MAGIC",
    "ZIP_MAGIC",
    "SaveContainer",
    "decode_savefile",
    "read_container",
]

SAVEFILE_ENTRY = "savedGame"
SAVEDATA_ENTRY = "savedata"
MODULEDATA_ENTRY = "moduledata"

VCSK = b"!VCSK"
VOBS = b"VOBS"
VOXZ = b"!VOXZ"
XZ_MAGIC = b"\xfd7zXZ\x00"
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"

#: Largest input file accepted.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: Largest decoded command string (UTF-8 bytes); VASSAL saves of 100,000 pieces stay far below.
MAX_COMMAND_BYTES = 64 * 1024 * 1024
#: Most bytes decompressed from one zipped save, all entries together.
MAX_ARCHIVE_BYTES = 2 * MAX_COMMAND_BYTES + 16 * 1024 * 1024
#: Largest metadata entry (savedata/moduledata).
MAX_META_BYTES = 1024 * 1024
#: Largest compression ratio accepted for any zip entry or XZ stream.
MAX_RATIO = 1000

_NOT_HEX = re.compile(rb"[^0-9a-fA-F]")
_HEX_DIGITS = b"0123456789abcdefABCDEF"


@dataclass
class SaveContainer:
    """A save or log as stored: its command text, how it was encoded, and the rest of the zip."""

    text: str  #: the command string (ESC-separated commands)
    encoding: str  #: "vcsk" (hex obfuscated), "plain", "xz" or "vobs"
    zipped: bool  #: inside a zip (``savedGame`` entry) or a bare file
    key: int | None = None  #: obfuscation key, when obfuscated
    file: str = "<bytes>"
    #: every zip entry except ``savedGame``, in order, with its ZipInfo (for byte-exact copies)
    entries: list[tuple[zipfile.ZipInfo, bytes]] = field(default_factory=list)
    #: where ``savedGame`` stood among the zip entries
    save_index: int = 0
    save_info: zipfile.ZipInfo | None = None
    savedata: dict[str, str] = field(default_factory=dict)
    moduledata: dict[str, str] = field(default_factory=dict)

    @property
    def format(self) -> str:
        """e.g. ``vsav-zip/vcsk`` or ``bare/plain``."""
        return f"{'zip' if self.zipped else 'bare'}/{self.encoding}"

    @property
    def vassal_version(self) -> str | None:
        return self.savedata.get("VassalVersion") or self.moduledata.get("VassalVersion") or None

    @property
    def module_name(self) -> str | None:
        return self.moduledata.get("name") or None


def read_container(source: str | Path | bytes, *, name: str | None = None) -> SaveContainer:
    """Read a save/log from a path or from bytes (``name`` is then used in error messages)."""
    if isinstance(source, bytes):
        data = source
        file = name or "<bytes>"
    else:
        path = Path(source)
        file = name or str(path)
        data = read_file(path, what="save", cap=MAX_FILE_BYTES, error=VassalFormatError)
    if data[:4] in (ZIP_MAGIC, EMPTY_ZIP_MAGIC):
        return _read_zip(data, file)
    text, encoding, key = decode_savefile(data, file=file, place="byte 0")
    return SaveContainer(text=text, encoding=encoding, zipped=False, key=key, file=file)


def decode_savefile(data: bytes, *, file: str, place: str = SAVEFILE_ENTRY) -> tuple[str, str, int | None]:
    """The command text of a ``savedGame`` payload: (text, encoding, key)."""
    if data.startswith(VCSK):
        return _decode_vcsk(data, file, place), "vcsk", int(data[5:7], 16)
    if data.startswith(XZ_MAGIC):
        return _utf8(_unxz(data, file, place), file, place, 0), "xz", None
    if data.startswith(VOXZ):
        raise UnsupportedFormatError(
            "unsupported save format '!VOXZ'", file=file, place=place, expected="!VCSK, XZ, VOBS or plain text"
        )
    if data.startswith(VOBS):
        if len(data) < 5:
            raise VassalFormatError("VOBS header without a key", file=file, place=f"{place} byte 4", expected="a key byte")
        key = data[4]
        body = data[5:]
        _check_command_size(len(body), file, place)
        return _utf8(body.translate(_xor_table(key)), file, place, 5), "vobs", key
    head = data[:16]
    if head and (head[0] < 0x09 or 0x0D < head[0] < 0x20) and head[0] != 0x1B:
        raise UnsupportedFormatError(
            f"unsupported save format (starts with bytes {head[:8].hex()})",
            file=file,
            place=place,
            expected="a zip, !VCSK, XZ, VOBS or plain text save",
        )
    _check_command_size(len(data), file, place)
    return _utf8(data, file, place, 0), "plain", None


def _xor_table(key: int) -> bytes:
    return bytes(b ^ key for b in range(256))


def _decode_vcsk(data: bytes, file: str, place: str) -> str:
    body = data[5:]
    bad = _NOT_HEX.search(body) if body.translate(None, _HEX_DIGITS) else None
    if bad is not None:
        raise VassalFormatError(
            f"non-hex byte {body[bad.start():bad.start() + 1]!r} in obfuscated save",
            file=file,
            place=f"{place} byte {5 + bad.start()}",
            expected="hex digits after !VCSK",
        )
    if len(body) < 2:
        raise VassalFormatError("obfuscated save without a key", file=file, place=f"{place} byte 5", expected="two hex digits")
    if len(body) % 2:
        raise VassalFormatError(
            "odd number of hex digits in obfuscated save",
            file=file,
            place=f"{place} byte {len(data) - 1}",
            expected="pairs of hex digits",
        )
    _check_command_size(len(body) // 2, file, place)
    key = int(body[:2], 16)
    raw = bytes.fromhex(body[2:].decode("ascii")).translate(_xor_table(key))
    return _utf8(raw, file, place, 7, scale=2)


def _utf8(raw: bytes, file: str, place: str, base: int, scale: int = 1) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VassalFormatError(
            f"command text is not UTF-8 ({exc.reason})",
            file=file,
            place=f"{place} byte {base + exc.start * scale}",
            expected="UTF-8 text",
        ) from None


def _check_command_size(n: int, file: str, place: str) -> None:
    if n > MAX_COMMAND_BYTES:
        raise VassalFormatError(
            f"command text of {n} bytes", file=file, place=place, expected=f"at most {MAX_COMMAND_BYTES} bytes"
        )


def _unxz(data: bytes, file: str, place: str) -> bytes:
    limit = min(MAX_COMMAND_BYTES, max(len(data), 1) * MAX_RATIO)
    dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        out = dec.decompress(data, max_length=limit + 1)
    except lzma.LZMAError as exc:
        raise VassalFormatError(f"bad XZ stream ({exc})", file=file, place=place, expected="an XZ stream") from None
    if len(out) > limit:
        raise VassalFormatError(
            "XZ stream expands beyond the size cap", file=file, place=place, expected=f"at most {limit} bytes"
        )
    if not dec.eof:
        raise VassalFormatError("truncated XZ stream", file=file, place=place, expected="a complete XZ stream")
    return out


def _read_zip(data: bytes, file: str) -> SaveContainer:
    with ZipInput(data, file=file, budget=MAX_ARCHIVE_BYTES, error=VassalFormatError, what="save") as zf:
        save_info = None
        entries: list[tuple[zipfile.ZipInfo, bytes]] = []
        save_index = 0
        for info in zf.infos:
            if info.filename == SAVEFILE_ENTRY and save_info is None:
                save_info = info
                save_index = len(entries)
                continue
            cap = MAX_META_BYTES if info.filename in (SAVEDATA_ENTRY, MODULEDATA_ENTRY) else MAX_COMMAND_BYTES
            entries.append((info, zf.read(info, cap)))
        if save_info is None:
            raise VassalFormatError(
                "zip has no savedGame entry", file=file, place="zip directory",
                expected="a VASSAL save or log (savedGame entry)"
            )
        raw = zf.read(save_info, MAX_COMMAND_BYTES * 2 + 8)
    text, encoding, key = decode_savefile(raw, file=file, place=f"zip entry {SAVEFILE_ENTRY!r}")
    meta = {info.filename: body for info, body in entries}
    return SaveContainer(
        text=text,
        encoding=encoding,
        zipped=True,
        key=key,
        file=file,
        entries=entries,
        save_index=save_index,
        save_info=save_info,
        savedata=_metadata(meta.get(SAVEDATA_ENTRY), file, SAVEDATA_ENTRY),
        moduledata=_metadata(meta.get(MODULEDATA_ENTRY), file, MODULEDATA_ENTRY),
    )


def _metadata(data: bytes | None, file: str, entry: str) -> dict[str, str]:
    """The child elements of a ``savedata``/``moduledata`` document as text (no DTD, no entities)."""
    if not data:
        return {}
    root = parse_xml_stdlib(data, file=file, what=f"metadata entry {entry!r}", error=VassalFormatError)
    out: dict[str, str] = {}
    for child in root:
        if isinstance(child.tag, str) and child.tag not in out:
            out[child.tag] = (child.text or "").strip()
    return out
