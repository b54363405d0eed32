"""Counter faces come from the counters renderer; a plain face stands in if it is missing or fails."""

from __future__ import annotations

import pytest

from gazala_tools.counters import load_manifest
from gazala_tools.vassal.module import faces


@pytest.fixture(scope="module")
def manifest():  # type: ignore[no-untyped-def]
    return load_manifest("gazala-rg")


def test_faces_have_the_counter_size(manifest) -> None:  # type: ignore[no-untyped-def]
    c = manifest["axis-21pz-5-1-s3"]
    assert faces.face_image(c, "front", dpi=100, size=62).size == (62, 62)


@pytest.mark.parametrize("broken", [None, "raises"])
def test_a_missing_or_failing_renderer_gives_a_plain_face(manifest, monkeypatch, broken) -> None:  # type: ignore[no-untyped-def]
    def boom(*_a, **_k):  # type: ignore[no-untyped-def]
        raise RuntimeError("renderer bug")

    monkeypatch.setattr(faces, "_renderer", lambda: None if broken is None else boom)
    for c in (manifest["axis-21pz-5-1-s3"], manifest["breach-1"], manifest["axis-tac-combat-1"]):
        img = faces.face_image(c, "back", dpi=100, size=62)
        assert img.size == (62, 62)


def test_status_badge_is_transparent_around_its_band() -> None:
    img = faces.badge("DIS", (200, 30, 30), 62)
    assert img.mode == "RGBA" and img.getpixel((0, 0))[3] == 0 and img.getpixel((31, 31))[3] > 0
