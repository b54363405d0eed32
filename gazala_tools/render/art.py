"""Module and counter art as the commands draw it (issue 33 items 2 and 3, issue 31 item 2).

* **Images by their bytes**: an image's format is its content's (:func:`gazala_tools.inputs.sniff_image`:
  PNG, GIF, JPEG, SVG), whatever its name says (``images/Captured by Red`` is a PNG).
* **One bad image never aborts**: inside ``with drawing_placeholders() as problems:`` a counter face whose
  art cannot be drawn is drawn as a marked placeholder (:func:`gazala_tools.render.counters.placeholder`) and the image and its reason
  are recorded (:class:`ArtProblems`) for the command's summary; outside it the error goes up.
* :func:`image_problem`: why a module's image cannot be drawn, or None (``game import`` reports it,
  ``module lint`` warns with the pieces that use it).
* :func:`folder_resolver` / :func:`member_resolver`: how an SVG reads the files it refers to, inside a game
  folder (:func:`gazala_tools.inputs.inside_folder`) or a module (its members), and nowhere else.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar, cast

from gazala_tools.errors import GazalaError
from gazala_tools.filecache import SizedDict
from gazala_tools.inputs import image_header_size, inside_folder, is_regular, read_file, sniff_image
from gazala_tools.render.budget import ArtBudget, command_budget
from gazala_tools.render.svg import MAX_SVG_BYTES, Resolver

__all__ = [
    "MAX_ART_PIXELS",
    "ArtProblems",
    "F",
    "art_root",
    "drawing_placeholders",
    "folder_resolver",
    "image_cache",
    "image_problem",
    "member_resolver",
    "placeholders_on",
    "sandbox_of",
]

#: the largest counter art (and the largest layer of an imported piece) decoded, in pixels
MAX_ART_PIXELS: Final = 25_000_000


# --- one bad image never aborts ----------------------------------------------------------------------
@dataclass
class ArtProblems:
    """The images a command could not draw: file -> reason, and the counters that show each."""

    reasons: dict[str, str] = field(default_factory=dict)
    counters: dict[str, list[str]] = field(default_factory=dict)

    def add(self, file: str, reason: str, counter: str = "") -> None:
        self.reasons.setdefault(file, reason)
        users = self.counters.setdefault(file, [])
        if counter and counter not in users:
            users.append(counter)

    def __len__(self) -> int:
        return len(self.reasons)

    def lines(self) -> list[str]:
        """One line per image: the file, what uses it and why it is a placeholder."""
        out = []
        for file, reason in self.reasons.items():
            users = self.counters.get(file, [])
            shown = ", ".join(users[:3]) + (f" and {len(users) - 3} more" if len(users) > 3 else "")
            out.append(f"{file}: drawn as a placeholder{f' for {shown}' if shown else ''}: {reason}")
        return out

    def records(self) -> list[dict[str, object]]:
        return [{"image": f, "reason": r, "counters": self.counters.get(f, [])} for f, r in self.reasons.items()]


_PROBLEMS: contextvars.ContextVar[ArtProblems | None] = contextvars.ContextVar("gazala_art_problems", default=None)


@contextlib.contextmanager
def drawing_placeholders(budget: ArtBudget | None = None) -> Iterator[ArtProblems]:
    """A command that draws art: faces whose art cannot be drawn become placeholders (recorded in the
    :class:`ArtProblems` given), and the command has one art budget (:mod:`.budget`)."""
    problems = ArtProblems()
    token = _PROBLEMS.set(problems)
    try:
        with command_budget(budget):
            yield problems
    finally:
        _PROBLEMS.reset(token)


def placeholders_on() -> ArtProblems | None:
    """The open command's record of images not drawn, or None (then an error goes up)."""
    return _PROBLEMS.get()


# --- caches of images, bounded in bytes (issue 31 item 2) -----------------------------------------------
F = TypeVar("F", bound=Callable[..., Any])


def _weight(value: object) -> int:
    """Bytes an image (or a tuple holding images) keeps alive; 64 for anything else."""
    if isinstance(value, tuple):
        return 64 + sum(_weight(v) for v in value)
    size, bands = getattr(value, "size", None), getattr(value, "getbands", None)
    if isinstance(size, tuple) and len(size) == 2 and callable(bands):
        return int(size[0]) * int(size[1]) * len(bands()) + 64
    return 64


def image_cache(max_bytes: int) -> Callable[[F], F]:
    """``functools.lru_cache`` for a function of hashable positional arguments that makes images, bounded by
    the bytes the images weigh (:class:`gazala_tools.filecache.SizedDict`), not by their count: a thousand
    faces at 1,200 dpi are not a thousand faces at 100."""

    def decorate(fn: F) -> F:
        cache: SizedDict[tuple[Any, ...], Any] = SizedDict(max_bytes, _weight)

        @functools.wraps(fn)
        def cached(*args: Any) -> Any:
            got = cache.get(args)
            if got is None:
                got = cache.put(args, fn(*args))
            return got

        cached.cache = cache  # type: ignore[attr-defined]
        return cast(F, cached)

    return decorate


# --- sandboxes -----------------------------------------------------------------------------------------
def folder_resolver(root: str | Path) -> Resolver:
    """The files an SVG inside the folder ``root`` may read: regular files inside it (every symlink
    followed and checked, :func:`gazala_tools.inputs.inside_folder`), at most :data:`MAX_SVG_BYTES` each."""
    base = Path(root)

    def resolve(name: str) -> bytes | None:
        p = inside_folder(base / name, base, name=name, what="file an SVG refers to")
        if not is_regular(p):
            return None
        return read_file(p, what="file an SVG refers to", cap=MAX_SVG_BYTES)

    return resolve


def member_resolver(read: Callable[[str], bytes | None]) -> Resolver:
    """The files an SVG inside a module may read: the module's members (``read(name)``: the bytes of a
    member, None when there is none; a zip or a folder read through its own sandbox)."""
    return read


@functools.lru_cache(maxsize=256)
def art_root(folder: str) -> str:
    """The sandbox of counter art in ``folder``: the nearest folder up that holds ``game.yaml`` or
    ``counters.yaml`` (the game folder the loader checked the art inside), else ``folder`` itself."""
    p = Path(folder)
    for candidate in (p, *p.parents):
        if is_regular(candidate / "game.yaml") or is_regular(candidate / "counters.yaml"):
            return str(candidate)
    return folder


def sandbox_of(path: str | Path) -> tuple[str, Resolver]:
    """An art file's name inside its sandbox (``/``-separated) and the sandbox's resolver."""
    p = Path(path)
    root = Path(art_root(str(p.parent)))
    try:
        name = p.relative_to(root).as_posix()
    except ValueError:
        name = p.name
        root = p.parent
    return name, folder_resolver(root)


# --- why an image cannot be drawn --------------------------------------------------------------------
def image_problem(name: str, read: Callable[[str], bytes | None], *, max_pixels: int = MAX_ART_PIXELS,
                  draw: bool = True, file_size: int | None = None) -> str | None:
    """Why the module image ``name`` (a member name such as ``images/a.svg``) cannot be drawn, or None when
    it can: its format from its bytes (PNG, GIF, JPEG, SVG), its pixels within ``max_pixels``, an SVG
    parsed, resolved inside the module (``read``) and costed. With ``draw`` (the default) the SVG is also
    drawn at a small size and a raster decoded, charged to the open command's art budget; without it
    nothing is decoded (a raster's header is checked against its file size: ``game import`` checks every
    piece image so); then ``file_size``, when given, is the file's size and ``read(name)`` may give only the
    file's first 256 KiB for a raster (``module lint`` reads no more of a PNG, GIF or JPEG)."""
    from gazala_tools.inputs import check_pixels, check_plausible
    from gazala_tools.render.svg import check_cost, open_any_image, prepare, rasterise

    try:
        data = read(name)
    except GazalaError as exc:
        return exc.problem
    if data is None:
        return "the module has no such file"
    kind = sniff_image(data)
    if kind is None:
        return "it is not a PNG, GIF, JPEG or SVG image (its bytes say so, whatever its name)"
    try:
        if not draw:
            if kind == "SVG":  # parsed, resolved and costed at its declared size; cairo is not called
                prep = prepare(data, file=name, name=name, resolve=read, max_pixels=max_pixels)
                check_cost(prep, prep.size, file=name, max_pixels=max_pixels)
            else:
                head = image_header_size(data[:262144]) or (0, 0)
                check_pixels(head, file=name, max_pixels=max_pixels)
                check_plausible(kind, head, len(data) if file_size is None else file_size, file=name)
            return None
        if kind == "SVG":
            size = image_header_size(data)
            scale = 1.0 if size is None else min(1.0, 64 / max(1, *size))  # drawn small: the check, not the art
            rasterise(data, file=name, what="image", scale=scale, max_pixels=max_pixels, resolve=read, name=name)
        else:
            open_any_image(data, file=name, what="image", max_pixels=max_pixels).close()
    except GazalaError as exc:
        return exc.problem
    return None
