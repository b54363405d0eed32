"""A counter's own art in ``counters.yaml``: the images an entry names (``art: {front, back}``) and the
naming convention of ``art: {folder, required}`` (``<id>-front.png``), every file inside the game folder."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from gazala_tools.counters.model import Counter
from gazala_tools.counters.schema import ART_KEYS, ART_SUFFIXES, ManifestError
from gazala_tools.counters.section import ManifestSection
from gazala_tools.inputs import inside_folder, sniff_image_file

__all__ = ["CounterArt", "GivenArt"]

#: the front and back images an entry names (None: not named)
GivenArt = tuple[Path | None, Path | None]


class CounterArt:
    """The art of a manifest's counters; paths are relative to ``folder`` (the game folder, or a
    stand-alone manifest's folder) and never leave it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.by_name: dict[str, Path] = {}  #: the convention folder's images by file name
        self.required = False

    def convention(self, top: ManifestSection) -> None:
        """``art: {folder, required}``: every image file of the folder, by name, for the convention."""
        if not top.given("art"):
            return
        a = top.sub("art", ART_KEYS)
        self.required = a.boolean("required", False)
        if "folder" not in a:
            if self.required:
                raise a.err(None, "'required' without 'folder'", expected="art: {folder: DIR, required: true}")
            return
        name = a.text("folder")
        folder = self.path(a, "folder", is_dir=True)
        with os.scandir(folder) as it:
            images = sorted(e.name for e in it if e.name.lower().endswith(ART_SUFFIXES))
        for image in images:  # each member resolves inside the game folder too (a symlink may not lead out)
            p = self.inside(a, "folder", f"art folder member {name}/{image}", folder / image, f"{name}/{image}")
            if p.is_file():
                self.by_name[image] = p

    def inside(self, s: ManifestSection, key: str, what: str, path: Path, name: str) -> Path:
        """``path`` resolved inside the game folder (:func:`gazala_tools.inputs.inside_folder`), or refused
        at ``key`` of ``s``."""
        try:
            return inside_folder(path, self.folder, name=name, what=what, error=ManifestError)
        except ManifestError as exc:
            raise s.err(key, exc.problem, exc.expected) from None

    def path(self, s: ManifestSection, key: str, *, is_dir: bool = False) -> Path:
        """The file (or folder) ``key`` names: inside the game folder, existing, an image."""
        value = s.text(key)
        if not value.strip():
            raise s.err(key, f"{value!r} is not a path", expected="a path relative to the game folder")
        p = self.inside(s, key, "folder" if is_dir else "image", self.folder / value, value)
        if is_dir:
            if not p.is_dir():
                raise s.err(key, f"{value!r} is not a folder", expected="a folder of counter images")
        elif not p.is_file():
            raise s.err(key, f"{value!r} not found", expected=f"an image file ({', '.join(ART_SUFFIXES)})")
        elif p.suffix.lower() not in ART_SUFFIXES and sniff_image_file(p, what=s.what(key), error=ManifestError) is None:
            # an image is known by its bytes (issue 33 item 3): a module's `images/Captured by Red` is a PNG
            raise s.err(key, f"{value!r} is not an image file", expected=", ".join(ART_SUFFIXES))
        return p

    def found(self, *stems: str) -> Path | None:
        """The convention's image for the first of ``stems`` that has one (``<stem>.png`` ...)."""
        for stem in stems:
            for suffix in ART_SUFFIXES:
                hit = self.by_name.get(stem + suffix)
                if hit is not None:
                    return hit
        return None

    def given(self, a: ManifestSection) -> GivenArt:
        """``art: {front, back}`` of an entry (or of one step of a unit); an empty ``a``: none."""
        if not a:
            return None, None
        if "front" not in a:
            raise a.err(None, "no front image", expected="art: {front: FILE, back: FILE}")
        return self.path(a, "front"), (self.path(a, "back") if "back" in a else None)

    def on(self, c: Counter, given: GivenArt, entry: ManifestSection) -> Counter:
        """``c`` with its art: the images the entry names, else the convention's (``<id>-front.png``,
        then ``<unit id>-front.png``). A back may be left out only when it shows what the front shows."""
        front, back = given
        if front is None and self.by_name:
            front = self.found(f"{c.id}-front", f"{c.unit_id}-front")
            back = self.found(f"{c.id}-back", f"{c.unit_id}-back")
        if front is None:
            if self.required:
                raise entry.err(None, f"no art for counter {c.id!r}", expected=f"{c.id}-front.png (or "
                                f"{c.unit_id}-front.png) in the art folder, or art: {{front, back}}")
            return c
        if back is None:
            if c.back != c.front:
                raise entry.err(None, f"counter {c.id!r} has front art but no back art", expected=f"{c.id}-back.png "
                                "in the art folder or art.back (its back differs from its front)")
            back = front
        return replace(c, front_art=str(front), back_art=str(back))
