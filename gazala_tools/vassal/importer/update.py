"""``gazala game import --update MODULE DIR``: the module read again, every edit of the user kept (issue 35).

The import records the SHA-256 of each data file it writes (``import-report.yaml``'s ``written``). On
``--update`` the new import is assembled beside ``DIR`` and then:

* a data file the user never touched (its hash is the recorded one) is replaced by the new one;
* ``units.yaml``: every line the user changed (it differs from what the old import inferred, kept in
  the old report's ``units``) is kept over the new inference, line by line; a changed line naming a
  piece the module no longer has is bad input (exit 2, with "did you mean");
* any other data file the user edited (``game.yaml`` with their ``rules:``, ``counters.yaml``,
  ``map.yaml``, ...) is kept byte for byte, and the report says that the module's version differs;
* every file the import does not write (a rules plugin, notes, ``tables.yaml`` ...) is kept;
* ``art/`` and ``vmod/`` are the new module's.

The report's ``update`` section says what changed: counters added and removed, pieces whose
classification changed, the files kept. The swap is two renames (the old folder is removed only after
the new one is in place).
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

from gazala_tools.errors import GazalaError
from gazala_tools.fileio import process_alive, refuse_input, temporary_folder, write_new_folder
from gazala_tools.inputs import read_text
from gazala_tools.vassal.buildfile import ModuleSource
from gazala_tools.vassal.importer.kept import dump as dump_yaml
from gazala_tools.yamlnodes import did_you_mean

__all__ = [
    "MAX_DATA_BYTES",
    "REPORT",
    "WRITTEN",
    "aside_prefix",
    "finish_update",
    "merge_units",
    "recover",
    "sha",
]

#: the data files an import writes (the others of a folder are the user's)
WRITTEN = ("game.yaml", "map.yaml", "counters.yaml", "module.yaml", "scenarios.yaml", "units.yaml")
REPORT = "import-report.yaml"
MAX_DATA_BYTES = 256 * 1024 * 1024
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


def _read(folder: Path, name: str) -> str | None:
    p = folder / name
    if not p.is_file():
        return None
    return read_text(p, what=name, cap=MAX_DATA_BYTES)


def _load(text: str, file: Path) -> Any:
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise GazalaError(f"not YAML ({str(exc).splitlines()[0]})", file=file, expected="YAML") from None


def _entries(doc: Any) -> dict[str, dict[str, Any]]:
    pieces = doc.get("pieces") if isinstance(doc, dict) else None
    return {str(k): dict(v) for k, v in pieces.items() if isinstance(v, dict)} if isinstance(pieces, dict) else {}


def _old_inferred(report: Any) -> dict[str, dict[str, Any]]:
    """What the old import inferred for each counter (units.yaml's line as it wrote it)."""
    units = report.get("units") if isinstance(report, dict) else None
    if not isinstance(units, dict):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for cid, e in (units.get("inferred") or {}).items():
        out[str(cid)] = {k: v for k, v in e.items() if k != "evidence"}
    for cid, e in (units.get("not classified") or {}).items():
        out[str(cid)] = {"name": e.get("name"), "kind": "counter"}
    return out


def merge_units(new_text: str, user_text: str, old_report: Any, file: Path,
                head: str) -> tuple[str, list[str], list[str]]:
    """units.yaml of the update: the new inference, each line the user changed kept over it, and each other
    key (``main-grid``, ``sides``) the user changed (it differs from what the old import wrote, kept in the old
    report's ``units: head``; a folder of an import before that record: the new import's)."""
    new_doc = _load(new_text, file)
    user_doc = _load(user_text, file)
    user = _entries(user_doc)
    old = _old_inferred(old_report)
    old_head = (old_report.get("units") or {}).get("head") if isinstance(old_report, dict) else None
    keys: list[str] = []
    if isinstance(old_head, dict) and isinstance(user_doc, dict):
        for key in sorted((set(old_head) | set(user_doc)) - {"pieces"}):
            if key in user_doc and user_doc[key] != old_head.get(key):
                new_doc[key] = user_doc[key]
                keys.append(key)
            elif key not in user_doc and key in old_head:  # the user removed it
                new_doc.pop(key, None)
                keys.append(key)
    new = _entries(new_doc)
    kept: list[str] = []
    for cid, entry in user.items():
        if old.get(cid) == entry:
            continue  # the old inference, untouched: the new one replaces it
        if cid not in new:
            raise GazalaError(f"your line for {cid!r} names a piece the module does not have{did_you_mean(cid, new)}",
                              file=file, place=f"pieces.{cid}", expected="a counter id of counters.yaml")
        if new[cid] != entry:
            new[cid] = entry
            kept.append(cid)
    new_doc["pieces"] = new
    new_doc = {**{k: v for k, v in new_doc.items() if k != "pieces"}, "pieces": new}  # the pieces last, as written
    return head + dump_yaml(new_doc), kept, keys


def _counter_ids(text: str | None, file: Path) -> set[str]:
    if text is None:
        return set()
    doc = _load(text, file)
    out: set[str] = set()
    for section in ("units", "chits", "markers"):
        for c in (doc or {}).get(section) or []:
            if isinstance(c, dict) and "id" in c:
                out.add(str(c["id"]))
    return out


def finish_update(folder: Path, files: dict[str, str], binary: Mapping[str, bytes], src: ModuleSource,
                  more: Callable[[Path], None], report: dict[str, Any], *, named: bool = True) -> dict[str, Any]:
    """Replace ``folder`` (an imported game folder) by the new import (``files``, ``binary``, the module's
    files copied by ``more``), keeping the user's edits; returns the new report with its ``update`` section.
    ``named``: the module has a name (else the report's ``module`` is its file's name, which versions change):
    a module of another name than the folder's is refused."""
    folder = Path(folder)
    recover(folder)
    old_report_text = _read(folder, REPORT)
    if old_report_text is None or not (folder / "module.yaml").is_file():
        raise GazalaError("not a folder written by `gazala game import`", file=folder,
                          expected=f"a game folder with {REPORT} and module.yaml (import it first)")
    old_report = _load(old_report_text, folder / REPORT)
    was, now = (old_report or {}).get("module") if isinstance(old_report, dict) else None, report.get("module")
    if named and isinstance(was, str) and was != now:  # its saves name another module: the referee refuses them
        raise GazalaError(f"the folder was imported from the module {was!r}, not from {now!r}", file=src.path,
                          expected=f"a version of {was!r} (another module: import it into a new folder)")
    out_files: dict[str, str | bytes | Path] = dict(binary)
    changes: dict[str, Any] = {"kept your edits": [], "module's version differs": [], "kept your files": []}
    written = _merge_data_files(folder, files, old_report, out_files, changes)
    _keep_user_files(folder, {*written, REPORT}, out_files, changes)
    before = _counter_ids(_read(folder, "counters.yaml"), folder / "counters.yaml")
    after = _counter_ids(files.get("counters.yaml"), folder / "counters.yaml")
    changes["counters added"] = sorted(after - before)
    changes["counters removed"] = sorted(before - after)
    old_units = _old_inferred(old_report)
    new_units = report.get("units", {})
    new_kinds = {**{c: e.get("kind") for c, e in (new_units.get("inferred") or {}).items()},
                 **{c: "counter" for c in (new_units.get("not classified") or {})}}
    changes["classification changed"] = sorted(f"{c}: {old_units[c].get('kind')} -> {k}" for c, k in new_kinds.items()
                                                if c in old_units and old_units[c].get("kind") != k)
    report["update"] = changes  # the report as the import wrote it (its first line: the head), with the update
    text = files[REPORT]
    out_files[REPORT] = (text[: text.index("\n") + 1] if text.startswith("#") else "") + dump_yaml(report)
    refuse_input(folder, what="the game folder")  # never inside the module it is updated from
    tmp_parent = temporary_folder(folder.resolve())  # removed by the next run when this one is killed
    try:
        staged = tmp_parent / "new"
        write_new_folder(staged, out_files, [src.path], more=more)
        _swap(staged, folder, folder.resolve().parent / f"{aside_prefix(folder.name)}{os.getpid()}")
    except OSError as exc:
        raise GazalaError(f"cannot replace the folder ({exc.strerror or exc})", file=folder) from None
    finally:
        shutil.rmtree(tmp_parent, ignore_errors=True)
    return report


def _merge_data_files(folder: Path, files: Mapping[str, str], old_report: Any,
                      out_files: dict[str, str | bytes | Path], changes: dict[str, Any]) -> list[str]:
    """Each data file an import writes: the new one where the user never touched theirs (its hash is the one
    recorded), units.yaml merged line by line, any other the user edited kept byte for byte. Returns their names."""
    recorded = (old_report or {}).get("written") or {}
    head = "".join(line for line in files["units.yaml"].splitlines(keepends=True) if line.startswith("#"))
    written = sorted((set(files) | set(recorded) | set(WRITTEN)) - {REPORT})  # every data file an import writes
    for name in written:
        new_text = files.get(name)
        user_text = _read(folder, name)
        # a file the import did not record (a folder of an older import) counts as edited: it is kept
        edited = user_text is not None and sha(user_text) != recorded.get(name)
        if user_text is None or not edited:
            if new_text is not None:
                out_files[name] = new_text
            continue
        if name == "units.yaml" and new_text is not None:
            merged, lines, keys = merge_units(new_text, user_text, old_report, folder / name, head)
            out_files[name] = merged
            changes["kept your edits"].append(f"units.yaml: {len(lines)} line(s) you changed"
                                              + "".join(f", {k}" for k in keys)
                                              + (": " + ", ".join(lines[:50]) if lines else ""))
            continue
        out_files[name] = user_text
        changes["kept your edits"].append(name)
        if new_text is not None and user_text != new_text:
            changes["module's version differs"].append(name)
    return written


def _keep_user_files(folder: Path, owned: set[str], out_files: dict[str, str | bytes | Path],
                     changes: dict[str, Any]) -> None:
    """Every file of ``folder`` the import does not write (notes, a rules plugin, tables.yaml), but under
    vmod/ and art/ (the new module's): kept. A symbolic link is not followed (its target may lie anywhere):
    listed as not kept."""
    for dirpath, dirs, names in os.walk(folder):
        rel_dir = Path(dirpath).relative_to(folder)
        if rel_dir.parts and rel_dir.parts[0] in ("vmod", "art"):
            dirs[:] = []
            continue
        dirs[:] = [d for d in dirs if not (not rel_dir.parts and d in ("vmod", "art"))]
        for n in [*names, *(d for d in dirs if os.path.islink(os.path.join(dirpath, d)))]:
            rel = (rel_dir / n).as_posix()
            if rel in owned:
                continue
            if os.path.islink(os.path.join(dirpath, n)):
                changes.setdefault("not kept (symbolic links)", []).append(rel)
                continue
            out_files[rel] = Path(dirpath, n)
            changes["kept your files"].append(rel)


def aside_prefix(name: str) -> str:
    """The name a folder being replaced is moved aside to (``.NAME.gazala-aside-PID``): never one of the
    temporary folders a later run removes (:func:`gazala_tools.fileio.stale_folders`), so that the user's
    folder is never removed by accident."""
    return f".{name[:100]}.gazala-aside-"


def _swap(staged: Path, folder: Path, aside: Path) -> None:
    """Put ``staged`` in the place of ``folder``: one atomic exchange where the system has it (Linux
    ``renameat2(RENAME_EXCHANGE)``: the old folder ends at ``staged``), else two renames through ``aside``
    (a run killed between them leaves the user's folder at ``aside``: :func:`recover` puts it back), the old
    folder then removed."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    exchange = getattr(libc, "renameat2", None)
    if exchange is not None:
        at_cwd, rename_exchange = -100, 2
        if exchange(at_cwd, os.fsencode(staged), at_cwd, os.fsencode(folder), rename_exchange) == 0:
            return
        if ctypes.get_errno() not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), str(folder))
    os.rename(folder, aside)
    try:
        os.rename(staged, folder)
    except OSError:
        os.rename(aside, folder)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def recover(folder: Path) -> None:
    """Undo an update killed between the two renames of :func:`_swap`: ``folder`` is missing and a folder
    set aside by a process that is gone is there: it is put back (never removed)."""
    if os.path.lexists(folder):
        return
    prefix = aside_prefix(folder.name)
    try:
        entries = sorted(os.scandir(folder.parent or "."), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(prefix):]
        if entry.name.startswith(prefix) and pid.isdigit() and entry.is_dir(follow_symlinks=False) \
                and not process_alive(int(pid)):
            os.rename(entry.path, folder)
            return
