"""The ``.vmod`` zip (vassal-format.md §2.1-2.3): ``buildFile.xml``, ``moduledata``, ``images/``,
the help page and the predefined set-ups; written atomically, never over an input.
"""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from gazala_tools.fileio import atomic_write_bytes, refuse_overwrite
from gazala_tools.vassal.saves.writer import metadata_xml

#: fixed zip timestamp, so two builds of the same data give the same bytes
ZIP_DATE = (2026, 1, 1, 0, 0, 0)


def moduledata(name: str, version: str, vassal_version: str, description: str, *, date_ms: int | None = None) -> bytes:
    """``moduledata`` (§2.3); its ``<name>`` equals the buildFile root ``name``."""
    date = str(int(time.time() * 1000) if date_ms is None else date_ms)
    fields = {"version": version, "VassalVersion": vassal_version, "dateSaved": date, "description": description,
              "name": name}
    return metadata_xml(fields, with_name=True)


def vmod_bytes(buildfile: bytes, metadata: bytes, files: Mapping[str, bytes]) -> bytes:
    """The zip: ``buildFile.xml`` and ``moduledata`` first, then ``files`` (already-compressed PNGs stored)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in [("buildFile.xml", buildfile), ("moduledata", metadata), *sorted(files.items())]:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.lower().endswith((".png", ".jpg", ".gif", ".vsav")) else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return buf.getvalue()


def write_vmod(out: str | Path, data: bytes, *, inputs: Iterable[str | Path] = ()) -> None:
    """Write the module atomically (with the usual umask mode, so it can be shared)."""
    refuse_overwrite(out, inputs)
    atomic_write_bytes(out, data)
