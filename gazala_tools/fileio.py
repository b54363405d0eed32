"""Safe file output: every output is written atomically and never over or into an input.

One rule for every command (docs/reliability.md, "Inputs are never written"): the command in
progress (:func:`command_scope`, opened by the CLI) records its inputs, files as they are read
(:func:`note_input`, called by every reader) and folders as they are declared (:func:`note_input_folder`:
a game folder, a module folder, an imported folder, a folder named on the command line); every
output (:func:`atomic_open`, :func:`output_dir`, :func:`write_new_folder`, :func:`refuse_overwrite`)
is refused when it is one of the input files or lies inside one of the input folders, symlinks
resolved (and the same file or folder by device and inode), whatever the option that named it.

An output is written to an anonymous temporary file (``O_TMPFILE``) in the target's directory and
linked into place only when complete, so a killed command leaves neither a half-written output nor
a stray temporary file. A new folder is assembled in a hidden temporary folder beside it whose name
carries the writing process's id (:data:`TMP_FOLDER_MARK`); a later run removes one whose process
is gone (``kill -9`` leaves it behind).
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from gazala_tools.errors import GazalaError

__all__ = [
    "TMP_FOLDER_MARK",
    "atomic_open",
    "atomic_write_bytes",
    "atomic_write_text",
    "check_new_folder",
    "check_output",
    "command_scope",
    "declare_inputs",
    "note_input",
    "note_input_folder",
    "output_dir",
    "output_error",
    "process_alive",
    "refuse_input",
    "refuse_overwrite",
    "remove_stale_folders",
    "stale_folders",
    "temporary_folder",
    "write_new_folder",
]


class _Inputs:
    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.ids: set[tuple[int, int]] = set()
        self.folders: set[str] = set()
        self.folder_ids: set[tuple[int, int]] = set()


_INPUTS: contextvars.ContextVar[_Inputs | None] = contextvars.ContextVar("gazala_inputs", default=None)


@contextlib.contextmanager
def command_scope() -> Iterator[None]:
    """Record the inputs of one command: outputs written inside the scope may overwrite none of them."""
    token = _INPUTS.set(_Inputs())
    try:
        yield
    finally:
        _INPUTS.reset(token)


def _resolved(path: str | Path) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(str(path))


def _note(path: str | Path, *, folder: bool) -> None:
    seen = _INPUTS.get()
    if seen is None:
        return
    names, ids = (seen.folders, seen.folder_ids) if folder else (seen.paths, seen.ids)
    names.add(_resolved(path))
    with contextlib.suppress(OSError, ValueError):
        st = os.stat(path)
        ids.add((st.st_dev, st.st_ino))


def note_input(path: str | Path) -> None:
    """Record ``path`` as an input of the command in progress (no-op outside a command scope)."""
    _note(path, folder=False)


def note_input_folder(path: str | Path) -> None:
    """Record the folder ``path`` as an input of the command in progress: no output may be written
    anywhere inside it (no-op outside a command scope)."""
    _note(path, folder=True)


def declare_inputs(*paths: str | Path) -> None:
    """Record what a command line names as its inputs: a folder as an input folder, a file as an input
    file, and the folder of a bare ``buildFile``/``buildFile.xml`` (an unzipped module: its images/
    beside it) as an input folder. A name that is no file is skipped (the reader says what is wrong)."""
    for path in paths:
        p = Path(path)
        try:
            if p.is_dir():
                note_input_folder(p)
            elif p.is_file():
                note_input(p)
                if p.name in ("buildFile", "buildFile.xml"):
                    note_input_folder(p.parent)
        except (OSError, ValueError):  # a name too long, a NUL byte: no file, the reader refuses it
            continue


def _is_input(path: str | Path) -> bool:
    seen = _INPUTS.get()
    if seen is None:
        return False
    if _resolved(path) in seen.paths:
        return True
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False
    return (st.st_dev, st.st_ino) in seen.ids


def _input_folder_holding(path: str | Path) -> str | None:
    """The input folder that ``path`` is, or lies inside (symlinks resolved; every existing folder on
    the way compared by device and inode too, so a bind mount or a second name is caught), or None."""
    seen = _INPUTS.get()
    if seen is None or not (seen.folders or seen.folder_ids):
        return None
    resolved = Path(_resolved(path))
    for folder in (resolved, *resolved.parents):
        if str(folder) in seen.folders:
            return str(folder)
        with contextlib.suppress(OSError, ValueError):
            st = os.stat(folder)
            if (st.st_dev, st.st_ino) in seen.folder_ids:
                return str(folder)
    return None


def refuse_input(path: str | Path, *, what: str = "output") -> None:
    """The one output rule: raise (one clean error, nothing written) when ``path`` is an input of the
    command in progress or lies inside one of its input folders."""
    if _is_input(path):
        raise GazalaError(f"{what} would overwrite an input of this command", file=path,
                          expected="a different output path")
    folder = _input_folder_holding(path)
    if folder is not None:
        try:
            there = os.path.lexists(path)
        except (OSError, ValueError):
            there = False
        problem = (f"would overwrite an input of this command (a file in its input folder {_short(folder)})" if there
                   else f"would be written inside an input folder of this command ({_short(folder)})")
        raise GazalaError(f"{what} {problem}", file=path, expected="a path outside the command's input files and folders")


def _short(text: str) -> str:
    return text if len(text) <= 120 else text[:57] + "..." + text[-60:]


def _why(exc: OSError) -> str:
    return exc.strerror or errno.errorcode.get(exc.errno or 0, "") or type(exc).__name__


def output_error(exc: OSError | ValueError, path: str | Path, doing: str = "cannot write the output") -> GazalaError:
    """One clean error naming the output and the file system's reason (``No space left on device``)."""
    why = _why(exc) if isinstance(exc, OSError) else "invalid file name"
    return GazalaError(f"{doing} ({why})", file=path)


def output_dir(path: str | Path) -> Path:
    """An output folder, created with its parents; a name too long, a read-only file system or a
    file in the way is a clean :class:`GazalaError` naming it."""
    target = Path(path)
    refuse_input(target, what="output folder")
    try:
        if target.exists() and not target.is_dir():
            raise GazalaError("output is not a directory", file=path, expected="a directory (created if missing)")
        target.mkdir(parents=True, exist_ok=True)
    except GazalaError:
        raise
    except (OSError, ValueError) as exc:
        raise output_error(exc, path, "cannot create the output folder") from None
    return target


def refuse_overwrite(output: str | Path, inputs: Iterable[str | Path]) -> None:
    """Raise if ``output`` is the same file as any of ``inputs`` (or any input read so far)."""
    out = Path(output)
    for src in inputs:
        s = Path(src)
        try:
            same = out.exists() and s.exists() and os.path.samefile(out, s)
        except (OSError, ValueError):
            same = False
        if same or _resolved(out) == _resolved(s):
            raise GazalaError("output would overwrite an input", file=output, expected="a different output path")
    refuse_input(out)


def check_output(path: str | Path) -> Path:
    """The output path, refused (one clean error) when it is an input, a directory or not writable."""
    target = Path(path)
    refuse_input(target)
    try:
        if target.is_dir():
            raise GazalaError("output is a directory", file=path, expected="a file path")
        if target.exists() and not target.is_file():
            raise GazalaError("output is not a regular file", file=path, expected="a file path")
    except GazalaError:
        raise
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte
        raise output_error(exc, path) from None
    return target


def _link_tmpfile(fd: int, target: Path) -> None:
    """Give the anonymous file ``fd`` the name ``target`` (replacing it) in one rename."""
    # an explicit dst_dir_fd makes CPython call linkat(..., AT_SYMLINK_FOLLOW), which links the
    # anonymous file itself (plain link() would try to link the /proc symlink: EXDEV)
    dir_fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(100):
            name = target.parent / f".{target.name}.{os.urandom(6).hex()}.tmp"
            try:
                os.link(f"/proc/self/fd/{fd}", name.name, dst_dir_fd=dir_fd, follow_symlinks=True)
                break
            except FileExistsError:
                continue
        else:  # pragma: no cover - 100 random collisions
            raise GazalaError("cannot create a temporary name", file=target)
    finally:
        os.close(dir_fd)
    try:
        os.replace(name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
        raise


def _copy_to_named(fd: int, target: Path) -> str:
    out, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(out, _mode())
        os.lseek(fd, 0, os.SEEK_SET)
        while chunk := os.read(fd, 1 << 20):
            os.write(out, chunk)
        os.fsync(out)
    except BaseException:
        os.close(out)
        os.unlink(tmp)
        raise
    os.close(out)
    return tmp


def _mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def _write_errors(path: str | Path) -> Iterator[None]:
    """An error of the file system while the output is written (no space left, quota, a read-only or
    failing disk, a file too large) is a clean error naming the output; others pass unchanged."""
    try:
        yield
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS):
            raise output_error(exc, path) from None
        raise


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path``; on success it replaces ``path`` in one rename.

    Refuses (:class:`GazalaError`, nothing written) a ``path`` that is an input of the command,
    a directory, or in a directory that cannot be created or written.
    """
    target = check_output(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise output_error(exc, path, "cannot create the output's folder") from None
    anonymous = hasattr(os, "O_TMPFILE")
    try:
        if anonymous:
            try:
                fd = os.open(target.parent, os.O_TMPFILE | os.O_RDWR, _mode())
                tmp = None
            except OSError:
                anonymous = False
        if not anonymous:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            os.fchmod(fd, _mode())
    except OSError as exc:
        raise output_error(exc, path) from None
    try:
        with _write_errors(path), os.fdopen(fd, mode) as fh:  # a full disk in write() or in close()'s flush
            yield fh
            try:
                fh.flush()
                os.fsync(fh.fileno())
                if anonymous:
                    try:
                        _link_tmpfile(fh.fileno(), target)
                    except OSError:  # no /proc here: copy the finished file into a named temporary
                        tmp = _copy_to_named(fh.fileno(), target)
                        os.replace(tmp, target)
                        tmp = None
                elif tmp is not None:
                    os.replace(tmp, target)
                    tmp = None
            except OSError as exc:
                raise output_error(exc, path) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_open(path, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


#: what the name of a folder being assembled carries: ``.NAME.gazala-tmp-PID-RANDOM`` beside the target
TMP_FOLDER_MARK = ".gazala-tmp-"


def _tmp_prefix(name: str) -> str:
    """The start of the hidden temporary folder's name for the target ``name`` (short enough that the
    whole name fits NAME_MAX)."""
    return f".{name[:100]}{TMP_FOLDER_MARK}"


def process_alive(pid: int) -> bool:
    """Whether the process ``pid`` still runs (another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0  # another user's process (or a number no process has: then not alive)
    return True


def stale_folders(target: str | Path) -> list[Path]:
    """The temporary folders an earlier run left beside ``target`` when killed (``kill -9``, a power cut):
    those whose name carries :data:`TMP_FOLDER_MARK` and the id of a process that is gone (a folder of a
    process still running, another import, is not one)."""
    folder = Path(target)
    parent, prefix = folder.parent, _tmp_prefix(folder.name)
    try:
        entries = list(os.scandir(parent))
    except (OSError, ValueError):
        return []
    out: list[Path] = []
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        pid_text = entry.name[len(prefix):].split("-", 1)[0]
        if not pid_text.isdigit() or len(pid_text) > 9 or process_alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                out.append(Path(entry.path))
    return out


def remove_stale_folders(target: str | Path) -> list[Path]:
    """Remove the :func:`stale_folders` of ``target``; returns what was removed."""
    removed: list[Path] = []
    for path in stale_folders(target):
        with contextlib.suppress(OSError):
            shutil.rmtree(path)
            removed.append(path)
    return removed


def temporary_folder(target: str | Path) -> Path:
    """A new hidden temporary folder beside ``target`` named ``.NAME.gazala-tmp-PID-RANDOM`` (the stale ones
    of killed runs removed first): where a folder replacing ``target`` is assembled."""
    resolved = Path(target)
    remove_stale_folders(resolved)
    try:
        return Path(tempfile.mkdtemp(prefix=f"{_tmp_prefix(resolved.name)}{os.getpid()}-", dir=resolved.parent))
    except OSError as exc:
        raise GazalaError(f"cannot write here ({_why(exc)})", file=resolved.parent, expected="a writable folder") from None


def check_new_folder(target: str | Path, inputs: Iterable[str | Path] = (), *,
                     what: str = "the game folder") -> Path:
    """``target`` resolved, refused (one clean error, nothing written) unless it can become a new folder:
    it does not exist or is an empty folder, it is not inside an input of the command (a module folder,
    its images/, a game folder) and holds none, its parent exists, and its name is one the file system
    takes (300 characters: ``File name too long``). Called before any work (``game import``, ``game
    new``) and again by :func:`write_new_folder`."""
    folder = Path(target)
    try:
        resolved = folder.resolve()
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise GazalaError(f"{what} exists and is not empty", file=folder, expected="a new or empty folder")
        if not resolved.parent.is_dir():
            raise GazalaError("no such folder", file=resolved.parent,
                              expected="an existing parent folder for the new folder")
        if len(resolved.name.encode("utf-8", "surrogateescape")) > _name_max(resolved.parent):
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
    except GazalaError:
        raise
    except (OSError, ValueError, RuntimeError) as exc:
        why = _why(exc) if isinstance(exc, OSError) else "invalid file name"
        raise GazalaError(f"cannot write {what} ({why})", file=folder, expected="a new folder") from None
    refuse_input(folder, what=what)
    seen = _INPUTS.get()
    noted = [Path(p) for p in (*seen.paths, *seen.folders)] if seen is not None else []
    for src in (*map(Path, inputs), *noted):
        if resolved in (src.resolve(), *src.resolve().parents):
            raise GazalaError(f"{what} would hold an input of this command", file=folder, expected="a new folder")
    return resolved


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def write_new_folder(
    target: str | Path,
    files: Mapping[str, bytes | str | Path],
    inputs: Iterable[str | Path] = (),
    *,
    more: Callable[[Path], None] | None = None,
    what: str = "the game folder",
) -> None:
    """Create the folder ``target`` holding ``files``, all or nothing (``game new``, ``game import``).

    ``files``: relative name -> bytes, text (written as UTF-8) or a file to copy; a name may not leave
    the folder. ``more`` writes further files into the folder being assembled. Refused, with one clean
    error and nothing written, what :func:`check_new_folder` refuses. The folder is assembled in a hidden
    temporary folder beside the target (``.NAME.gazala-tmp-PID-...``: removed on every way out this process
    controls, and by the next run when the process was killed) and renamed into place (an empty target
    folder is replaced)."""
    folder = Path(target)
    resolved = check_new_folder(folder, inputs, what=what)
    tmp = temporary_folder(resolved)
    try:
        for name, data in files.items():
            path = tmp / name
            if not path.resolve().is_relative_to(tmp.resolve()) or path.resolve() == tmp.resolve():
                raise GazalaError(f"file name {name!r} would leave {what}", file=folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, Path):
                shutil.copyfile(data, path)
            else:
                path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        if more is not None:
            more(tmp)
        os.chmod(tmp, 0o755)
        os.rename(tmp, resolved)  # atomic; an empty target folder is replaced
    except OSError as exc:
        raise GazalaError(f"cannot write {what} ({_why(exc)})", file=folder) from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
