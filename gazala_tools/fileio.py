"""Safe file output: every output is written atomically and never over an input.

Inputs are recorded as they are read (:func:`note_input`, called by every reader) for the command
in progress (:func:`command_scope`, opened by the CLI); :func:`atomic_open` refuses a target that
is, or resolves to, any of them, whatever the option that named it. An output is written to an
anonymous temporary file (``O_TMPFILE``) in the target's directory and linked into place only when
complete, so a killed command leaves neither a half-written output nor a stray temporary file.
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
    "atomic_open",
    "atomic_write_bytes",
    "atomic_write_text",
    "check_output",
    "command_scope",
    "note_input",
    "output_dir",
    "output_error",
    "refuse_overwrite",
    "write_new_folder",
]


class _Inputs:
    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.ids: set[tuple[int, int]] = set()


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


def note_input(path: str | Path) -> None:
    """Record ``path`` as an input of the command in progress (no-op outside a command scope)."""
    seen = _INPUTS.get()
    if seen is None:
        return
    seen.paths.add(_resolved(path))
    with contextlib.suppress(OSError, ValueError):
        st = os.stat(path)
        seen.ids.add((st.st_dev, st.st_ino))


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
    if _is_input(out):
        raise GazalaError("output would overwrite an input", file=output, expected="a different output path")


def check_output(path: str | Path) -> Path:
    """The output path, refused (one clean error) when it is an input, a directory or not writable."""
    target = Path(path)
    if _is_input(target):
        raise GazalaError("output would overwrite an input of this command", file=path,
                          expected="a different output path")
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
    error and nothing written: a target that exists and is not an empty folder, one that is or holds
    an input (``inputs``, or any input of the command read so far), and a missing parent. The folder
    is assembled in a temporary folder beside the target and renamed into place (an empty target
    folder is replaced)."""
    folder = Path(target)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise GazalaError(f"{what} exists and is not empty", file=folder, expected="a new or empty folder")
    resolved = folder.resolve()
    seen = _INPUTS.get()
    noted = [Path(p) for p in seen.paths] if seen is not None else []
    for src in (*map(Path, inputs), *noted):
        if resolved in (src.resolve(), *src.resolve().parents):
            raise GazalaError(f"{what} would hold an input of this command", file=folder, expected="a new folder")
    parent = resolved.parent
    if not parent.is_dir():
        raise GazalaError("no such folder", file=parent, expected="an existing parent folder for the new folder")
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{resolved.name}.", dir=parent))
    except OSError as exc:
        raise GazalaError(f"cannot write here ({_why(exc)})", file=parent, expected="a writable folder") from None
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
