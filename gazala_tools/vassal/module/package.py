"""The ``.vmod`` zip (vassal-format.md §2.1-2.3): ``buildFile.xml``, ``moduledata``, ``images/``,
the help pages and the predefined set-ups; written atomically, never over an input.

Reproducible: two builds of the same input give the same bytes. Entries are in a fixed order
(``buildFile.xml``, ``moduledata``, then sorted by name), every entry has the same timestamp and
mode, ``dateSaved`` is fixed, and images are encoded without time stamps. The date is
``SOURCE_DATE_EPOCH`` when it is set (the reproducible-builds convention), else 2026-01-01.
"""

from __future__ import annotations

import io
import os
import posixpath
import time
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO

from gazala_tools.errors import GazalaError
from gazala_tools.escape import has_control
from gazala_tools.fileio import atomic_open, atomic_write_bytes, refuse_overwrite
from gazala_tools.inputs import safe_member_name
from gazala_tools.vsav.writer import metadata_xml

__all__ = [
    "BUILD_DATE_MS",
    "BUILD_EPOCH",
    "STORED",
    "ZIP_DATE",
    "member_name",
    "moduledata",
    "vmod_bytes",
    "vmod_entries",
    "write_vmod",
    "write_zip",
    "zip_bytes",
]


def _build_epoch() -> int:
    try:
        epoch = int(os.environ.get("SOURCE_DATE_EPOCH", ""))
    except ValueError:
        epoch = 0
    return epoch if 315_532_800 <= epoch < 4_102_444_800 else 1_767_225_600  # zip dates: 1980-2099


BUILD_EPOCH = _build_epoch()
#: ``dateSaved`` of the module and its set-up saves (milliseconds)
BUILD_DATE_MS = BUILD_EPOCH * 1000
#: the zip timestamp of every entry
ZIP_DATE = time.gmtime(BUILD_EPOCH)[:6]
#: already-compressed files stored as they are (deflating them again gains nothing)
STORED = (".png", ".jpg", ".jpeg", ".gif", ".vsav")


def member_name(name: str, *, file: str | Path, place: str | None = None, what: str = "member name") -> str:
    """``name`` as a member of the written .vmod, refused unless it stays inside the archive for whoever
    unpacks it: relative, no ``..``, no drive, no backslash, no control character, not a folder
    (``buildfile: ../../evil.xml`` or ``/etc/passwd`` in a hand-edited module.yaml). Any other character is
    a name's text (a no-break space, a joiner, a bidi mark: real modules' files have them)."""
    plain = (name and safe_member_name(name) and "\\" not in name and posixpath.normpath(name) == name
             and not name.endswith("/") and not has_control(name) and len(name) <= 1000)
    if not plain:
        shown = name if len(name) <= 80 else name[:77] + "..."
        raise GazalaError(f"{what} {shown!r} would leave the module (or is no file name)", file=file, place=place,
                          expected="a relative name inside the .vmod, such as buildFile.xml or images/a.png")
    return name


def moduledata(name: str, version: str, vassal_version: str, description: str, *, date_ms: int | None = None) -> bytes:
    """``moduledata`` (§2.3); its ``<name>`` equals the buildFile root ``name``."""
    date = str(BUILD_DATE_MS if date_ms is None else date_ms)
    fields = {"version": version, "VassalVersion": vassal_version, "dateSaved": date, "description": description,
              "name": name}
    return metadata_xml(fields, with_name=True)


def write_zip(fh: IO[bytes], entries: Iterable[tuple[str, bytes]], *, stored: tuple[str, ...] = STORED) -> None:
    """A zip of ``entries`` written to ``fh`` one entry at a time, in the order given: same timestamp
    and mode for all, names ending in ``stored`` not compressed, the others deflated."""
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(member_name(name, file="module"), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.lower().endswith(stored) else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # unix, whatever the building machine
            zf.writestr(info, data)


def zip_bytes(entries: Iterable[tuple[str, bytes]], *, stored: tuple[str, ...] = STORED) -> bytes:
    """:func:`write_zip` in memory."""
    buf = io.BytesIO()
    write_zip(buf, entries, stored=stored)
    return buf.getvalue()


def vmod_entries(buildfile: bytes, metadata: bytes, files: Mapping[str, bytes],
                 over: Mapping[str, bytes] | None = None) -> Iterator[tuple[str, bytes]]:
    """The module's entries in their order: ``buildFile.xml`` and ``moduledata`` first, then
    ``files`` and ``over`` (which wins for a name in both) by name, each read as it is zipped."""
    over = over or {}
    yield "buildFile.xml", buildfile
    yield "moduledata", metadata
    for name in sorted({*files, *over}):
        yield name, over[name] if name in over else files[name]


def vmod_bytes(buildfile: bytes, metadata: bytes, files: Mapping[str, bytes]) -> bytes:
    """The zip of :func:`vmod_entries`, in memory."""
    return zip_bytes(vmod_entries(buildfile, metadata, files))


def write_vmod(out: str | Path, data: bytes | Iterable[tuple[str, bytes]], *, inputs: Iterable[str | Path] = ()) -> int:
    """Write the module atomically (with the usual umask mode, so it can be shared): its bytes, or
    its entries zipped one at a time as they come (:func:`vmod_entries`). Returns its size in bytes."""
    refuse_overwrite(out, inputs)
    if isinstance(data, bytes):
        atomic_write_bytes(out, data)
        return len(data)
    with atomic_open(out, "wb") as fh:
        write_zip(fh, data)
        return fh.tell()
