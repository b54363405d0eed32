"""``gazala module build DIR`` of an imported folder (issue 25 item 2): the module again.

The buildFile is put back together from ``module.yaml``'s kept components and each counter's kept slot
definition (:func:`.kept.assemble`); every file under ``vmod/`` goes into the zip by its member name,
streamed (never held whole). Entries are in a fixed order (the buildFile, ``moduledata``, then by name) with
one timestamp, so the same folder gives the same bytes, and importing the result gives the same folder.
"""

from __future__ import annotations

import os
import re
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gazala_tools.errors import GazalaError, VassalFormatError
from gazala_tools.fileio import atomic_open, note_input_folder, refuse_overwrite
from gazala_tools.inputs import MAX_MEMBERS, inside_folder, open_file, read_text
from gazala_tools.vassal.buildfile import MAX_BUILDFILE_BYTES
from gazala_tools.vassal.importer.kept import assemble
from gazala_tools.vassal.module.package import STORED, ZIP_DATE, member_name
from gazala_tools.yamlnodes import MAX_DEPTH

__all__ = [
    "MAX_YAML_BYTES",
    "READ_BATCH",
    "READ_THREADS",
    "SMALL_FILE",
    "Rebuilt",
    "is_imported",
    "kept_module",
    "rebuild",
]

#: largest data file of an imported folder read (module.yaml holds the whole component tree)
MAX_YAML_BYTES = 4 * MAX_BUILDFILE_BYTES
#: files read ahead at once while the zip is written, in batches of READ_BATCH; each at most SMALL_FILE
READ_THREADS = 8
READ_BATCH = 256
SMALL_FILE = 1 << 20
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Rebuilt:
    output: Path
    name: str
    version: str
    counters: int
    files: int
    bytes: int


def is_imported(folder: str | Path) -> bool:
    """Whether ``folder`` is a game folder written by ``game import`` (its module.yaml keeps ``vassal:``)."""
    cfg = Path(folder) / "module.yaml"
    if not Path(folder).is_dir() or not cfg.is_file():
        return False
    with open_file(cfg, what="module.yaml", cap=MAX_YAML_BYTES) as fh:
        for raw in fh:
            if raw.startswith(b"vassal:"):
                return True
    return False


def _yaml(folder: Path, name: str, marks: dict[tuple[str, ...], str] | None = None) -> dict[str, Any]:
    """A data file of the folder as plain data, every scalar as its text (all the rebuild reads is text).
    Built from the parser's events, without YAML's constructors (a tenth of the time for a 10,000-counter
    manifest); an alias is refused (``game import`` writes none), so no document can expand. ``marks``
    gets the ``LINE:COL`` of each scalar value two levels deep at most, by its keys (``("vassal",
    "buildfile")``), for errors that name their place."""
    path = inside_folder(folder / name, folder, name=name, what="data file")
    text = read_text(path, what=name, cap=MAX_YAML_BYTES)
    root = _plain_data(text, path, marks)
    if not isinstance(root, dict):
        raise GazalaError("not a mapping", file=path, expected="the YAML mapping `game import` writes")
    return root


def _plain_data(text: str, path: Path, marks: dict[tuple[str, ...], str] | None) -> Any:
    """The document ``text`` (of ``path``) built from the parser's events (see :func:`_yaml`)."""
    stack: list[Any] = []
    keys: list[str | None] = []
    names: list[str] = []  # the keys leading to the innermost mapping (while every level is one)
    root: Any = None

    def add(value: Any) -> None:
        nonlocal root
        if not stack:
            root = value
        elif isinstance(stack[-1], list):
            stack[-1].append(value)
        elif keys[-1] is None:
            keys[-1] = value if isinstance(value, str) else str(value)
        else:
            stack[-1][keys[-1]] = value
            keys[-1] = None

    try:
        for ev in yaml.parse(text, Loader=_Loader):
            if isinstance(ev, yaml.ScalarEvent):
                if marks is not None and keys and keys[-1] is not None and len(names) == len(stack) - 1 <= 1 \
                        and ev.start_mark is not None:
                    marks[(*names, keys[-1])] = f"{ev.start_mark.line + 1}:{ev.start_mark.column + 1}"
                add(ev.value)
            elif isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    raise GazalaError(f"nesting deeper than {MAX_DEPTH}", file=path)
                value: Any = {} if isinstance(ev, yaml.MappingStartEvent) else []
                if stack and len(names) == len(stack) - 1 and isinstance(stack[-1], dict) and keys[-1] is not None:
                    names.append(keys[-1])
                add(value)
                stack.append(value)
                keys.append(None)
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                stack.pop()
                keys.pop()
                del names[max(len(stack) - 1, 0):]
            elif isinstance(ev, yaml.AliasEvent):
                raise GazalaError("YAML alias (*name) in a file `game import` writes without any", file=path,
                                  expected="no aliases")
    except yaml.YAMLError as exc:
        raise GazalaError(f"not YAML ({str(exc).splitlines()[0]})", file=path) from None
    return root


#: what no XML text may hold (XML 1.0 "Char"): C0 controls but tab, newline and CR; lone surrogates; U+FFFE/U+FFFF
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _slots(counters: dict[str, Any], file: Path) -> dict[str, str]:
    """Each counter's kept slot definition by counter id; one that no buildFile can hold (a control character
    an edit put in) is refused naming the counter."""
    out: dict[str, str] = {}
    for section in ("markers", "chits"):
        for i, c in enumerate(counters.get(section) or []):
            v = c.get("vassal") if isinstance(c, dict) else None
            if isinstance(v, dict) and isinstance(v.get("slot"), str):
                bad = _NOT_XML.search(v["slot"])
                if bad is not None:
                    raise GazalaError(f"counter {str(c.get('id'))[:80]!r}: its vassal: slot holds {bad.group()!r} at "
                                      f"character {bad.start() + 1}, which a buildFile cannot hold",
                                      file=file, place=f"{section}[{i}]",
                                      expected="a slot definition without control characters (tab is kept)")
                out[str(c.get("id"))] = v["slot"]
    return out


def _members(folder: Path, files: str) -> list[tuple[str, Path]]:
    """Every file under ``files`` (member name, path), sorted. A symlink is followed only when it stays in
    the game folder (the sandbox: docs/games.md); a symlinked folder is refused (not walked)."""
    folder = folder.resolve()
    base = inside_folder(folder / files, folder, name=files, what="module files folder")
    out: list[tuple[str, Path]] = []
    for dirpath, dirs, names in os.walk(base):  # symlinked folders are listed in dirs, never entered
        for d in dirs:
            if os.path.islink(os.path.join(dirpath, d)):
                raise GazalaError("a symlinked folder among the module's files", file=Path(dirpath) / d,
                                  expected="plain folders under " + files)
        for n in names:
            p = Path(dirpath, n)
            rel = p.relative_to(base)
            if os.path.islink(p):  # only a link can lead out of the (resolved) folder
                inside_folder(p, folder, name=Path(files) / rel, what="module file")
            out.append((member_name(rel.as_posix(), file=p, what="module file"), p))
            if len(out) > MAX_MEMBERS:
                raise GazalaError(f"more than {MAX_MEMBERS:,} module files", file=base)
    return sorted(out)


def kept_module(folder: Path, marks: dict[tuple[str, ...], str] | None = None) -> dict[str, Any]:
    """module.yaml's ``vassal:`` of an imported folder (every scalar as its text); ``marks`` as :func:`_yaml`."""
    kept = _yaml(folder, "module.yaml", marks).get("vassal")
    if not isinstance(kept, dict) or not isinstance(kept.get("components"), list):
        raise VassalFormatError("module.yaml keeps no module (vassal: components)", file=folder / "module.yaml",
                                expected="a folder written by `gazala game import`")
    root = kept.get("root")
    if root is not None and not (isinstance(root, dict) and isinstance(root.get("tag", ""), str)
                                 and isinstance(root.get("attributes") or {}, dict)):
        raise VassalFormatError("the module's root is not a tag and its attributes", file=folder / "module.yaml",
                                place="vassal.root", expected="{tag: VASSAL.build.GameModule, attributes: {name: ...}}")
    return kept


def rebuild(folder: str | Path, out: str | Path) -> Rebuilt:
    """Write the module of imported ``folder`` to ``out`` (atomically, never over one of its files)."""
    folder = Path(folder)
    cfg_file = folder / "module.yaml"
    marks: dict[tuple[str, ...], str] = {}
    kept = kept_module(folder, marks)
    counters = _yaml(folder, "counters.yaml")
    slots = _slots(counters, folder / "counters.yaml")
    root = kept.get("root") or {}
    xml = assemble(str(root.get("tag", "VASSAL.build.GameModule")), root.get("attributes") or {},
                   [str(c) for c in kept["components"]], slots, file=str(cfg_file),
                   eol="\r\n" if kept.get("newline") == "crlf" else "\n")
    buildfile = member_name(str(kept.get("buildfile") or "buildFile.xml"), file=cfg_file,
                            place=marks.get(("vassal", "buildfile")), what="vassal: buildfile")
    members = [(n, p) for n, p in _members(folder, str(kept.get("files") or "vmod")) if n != buildfile]
    order = sorted(members, key=lambda m: (m[0] != "moduledata", m[0]))
    note_input_folder(folder)  # the one output rule: nothing of the build inside the folder it reads
    refuse_overwrite(out, [cfg_file, folder / "counters.yaml"])
    with atomic_open(out, "wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf, \
            ThreadPoolExecutor(READ_THREADS) as pool:
        zf.writestr(_info(buildfile), xml)
        for start in range(0, len(order), READ_BATCH):
            batch = order[start:start + READ_BATCH]
            # small files are read ahead by several threads (reading waits on the disk); the others streamed
            for (name, path), data in zip(batch, pool.map(_small, [p for _n, p in batch]), strict=True):
                with zf.open(_info(name), "w") as dst:
                    if data is not None:
                        dst.write(data)
                        continue
                    with open_file(path, what="module file", cap=1 << 40) as src:
                        while chunk := src.read(1 << 20):
                            dst.write(chunk)
    attrs = root.get("attributes") or {}
    return Rebuilt(Path(out), str(attrs.get("name", "")), str(attrs.get("version", "")), len(slots),
                   len(members) + 1, Path(out).stat().st_size)


def _small(path: Path) -> bytes | None:
    """The bytes of a file of at most :data:`SMALL_FILE` bytes, else None (it is streamed)."""
    with open_file(path, what="module file", cap=1 << 40) as fh:
        data = fh.read(SMALL_FILE + 1)
    return data if len(data) <= SMALL_FILE else None


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(member_name(name, file="module"), date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_STORED if name.lower().endswith(STORED) else zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    info.create_system = 3
    return info
