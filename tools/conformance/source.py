"""Bring one public module out of a fetched repository snapshot into a temporary folder.

A snapshot (``fetch github:owner/name``) is a bare git directory under ``/work/.mirror/owner+name/``;
its largest files (4 MiB and more) and Git LFS content may be missing. :func:`extract` copies the
module folder (or the committed ``.vmod``) of one commit out of it file by file, so a missing blob
costs that file only, and says which files were missing. Nothing is written into the project.
"""

from __future__ import annotations

import os
import subprocess
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

#: where ``fetch`` puts snapshots
MIRROR = Path(os.environ.get("GAZALA_MIRROR", "/work/.mirror"))
#: a Git LFS pointer file starts so; its content is not in the snapshot
LFS_HEAD = b"version https://git-lfs.github.com/spec/"


@dataclass
class Extracted:
    module: Path  #: a .vmod (zipped here from the folder when the repository holds the folder)
    folder: Path | None  #: the unzipped module folder, when the repository holds one
    files: int = 0
    size: int = 0  #: bytes of the module's files
    missing: list[str] = field(default_factory=list)  #: files the snapshot lacks (large or LFS)


def git_dir(repo: str) -> Path:
    """The bare git directory of a fetched ``owner/name``."""
    base = MIRROR / repo.replace("/", "+") / "repo"
    if (base / ".git").is_dir():
        return base / ".git"
    if base.is_dir():
        return base
    raise FileNotFoundError(f"{repo} is not fetched (no {base}); fetch github:{repo} first")


def _git(gd: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", f"--git-dir={gd}", *args], input=data, capture_output=True, check=True).stdout


def head(repo: str) -> str:
    return _git(git_dir(repo), "rev-parse", "HEAD").decode().strip()


def tree(repo: str, commit: str) -> list[tuple[str, str, int | None]]:
    """Every file of ``commit``: (path, blob id, size or None when the snapshot lacks the blob)."""
    out = _git(git_dir(repo), "ls-tree", "-r", "-l", "-z", commit)
    rows: list[tuple[str, str, int | None]] = []
    for rec in out.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, blob, size = meta.split()
        if kind != b"blob" or mode == b"120000":
            continue
        rows.append((path.decode("utf-8", "surrogateescape"), blob.decode(), int(size) if size.isdigit() else None))
    return rows


def find_modules(repo: str, commit: str) -> list[str]:
    """Module folders (a folder with a buildFile) and committed .vmod files of ``commit``."""
    found: list[str] = []
    for path, _blob, size in tree(repo, commit):
        p = PurePosixPath(path)
        if "__MACOSX" in p.parts:
            continue
        if p.name in ("buildFile.xml", "buildFile"):
            folder = str(p.parent)
            if folder not in found:
                found.append(folder)
        elif p.suffix == ".vmod" and size is not None and size > 1024:
            found.append(path)
    return found


def extract(repo: str, commit: str, where: str, dest: Path) -> Extracted:
    """Copy module ``where`` (a folder of the repository, ``.`` for its root, or a .vmod) of ``commit``
    into ``dest``: a .vmod is copied as it is; a folder is copied file by file and zipped into a .vmod
    beside it (``buildFile.xml`` first, as VASSAL writes it)."""
    gd = git_dir(repo)
    rows = tree(repo, commit)
    dest.mkdir(parents=True, exist_ok=True)
    if where.endswith(".vmod"):
        blob = next((b for p, b, s in rows if p == where and s is not None), None)
        if blob is None:
            raise FileNotFoundError(f"{repo}@{commit[:10]}: {where} is not in the snapshot")
        data = _git(gd, "cat-file", "blob", blob)
        if data.startswith(LFS_HEAD):
            raise FileNotFoundError(f"{repo}@{commit[:10]}: {where} is a Git LFS pointer (content not stored)")
        out = dest / PurePosixPath(where).name
        out.write_bytes(data)
        return Extracted(out, None, 1, len(data))
    prefix = "" if where in (".", "") else where.rstrip("/") + "/"
    folder = dest / "module"
    ext = Extracted(dest / "module.vmod", folder)
    for path, blob, size in rows:
        if not path.startswith(prefix):
            continue
        rel = path[len(prefix):]
        if "__MACOSX" in rel.split("/") or rel.startswith(".git"):
            continue
        if size is None:
            ext.missing.append(rel)
            continue
        try:
            data = _git(gd, "cat-file", "blob", blob)
        except subprocess.CalledProcessError:
            ext.missing.append(rel)
            continue
        if data.startswith(LFS_HEAD):
            ext.missing.append(rel)
            continue
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        ext.files += 1
        ext.size += len(data)
    _zip(folder, ext.module)
    return ext


def _zip(folder: Path, out: Path) -> None:
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    first = [n for n in ("buildFile.xml", "buildFile", "moduledata") if n in names]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in first + [n for n in names if n not in first]:
            z.write(folder / name, name)
