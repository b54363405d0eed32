"""Every face of every game renders, at the size asked for, and shows what the rules colour-code."""

from __future__ import annotations

import numpy as np
import pytest

from gazala_tools.counters import load_manifest, parse_manifest
from gazala_tools.counters.model import UNIT_TYPES
from gazala_tools.games import builtin_ids
from gazala_tools.render.counters import contact_sheet, face_pixels, render_face
from gazala_tools.render.symbols import SYMBOL_TYPES, draw_unit_symbol

GAMES = builtin_ids()

RED = (200, 16, 46)


def _red_pixels(img) -> int:  # type: ignore[no-untyped-def]
    a = np.asarray(img).astype(int)
    return int((np.abs(a - np.array(RED)).sum(axis=2) < 40).sum())


@pytest.mark.parametrize("game", GAMES)
def test_every_face_renders_at_its_size(game: str) -> None:
    m = load_manifest(game)
    px = face_pixels(m.counter_size_mm, 100)
    for c in m:
        for side in ("front", "back"):
            img = render_face(c, side, dpi=100, supersample=1)
            assert img.size == (px, px), (c.id, side)
            assert img.mode == "RGB"
            # something is drawn on every face: not a single flat colour
            assert len(img.getcolors(maxcolors=1 << 16) or [0, 0]) > 1, (c.id, side)


def test_rg_face_size_at_300_dpi_and_bleed() -> None:
    c = load_manifest("gazala-rg")["axis-21pz-5-1-s3"]
    assert render_face(c, dpi=300).size == (188, 188)  # 5/8 in = 187.5 px
    assert render_face(c, dpi=300, bleed_mm=1.0).size == (188 + 2 * 12, 188 + 2 * 12)


def test_2_2_3_red_hard_value_only_where_it_may_attack_armor() -> None:
    m = load_manifest("gazala-rg")
    assert _red_pixels(render_face(m["axis-21pz-5-1-s3"], dpi=300)) > 50
    assert _red_pixels(render_face(m["axis-21pz-39-at"], dpi=300)) > 50
    assert _red_pixels(render_face(m["axis-pavia-27"], dpi=300)) == 0


def test_faces_differ_where_the_counter_differs() -> None:
    m = load_manifest("gazala-rg")
    a = np.asarray(render_face(m["axis-21pz-5-1-s3"], "front", dpi=150))
    used = np.asarray(render_face(m["axis-21pz-5-1-s3"], "back", dpi=150))
    reduced = np.asarray(render_face(m["axis-21pz-5-1-s1"], "front", dpi=150))
    assert used.mean() > a.mean()  # the used side is paler (2.2.3)
    assert (a != reduced).any()
    chit = m["axis-action-15pz-21pz-1"]
    assert (
        np.asarray(render_face(chit, "front", dpi=150)) != np.asarray(render_face(chit, "back", dpi=150))
    ).any()


def test_nationality_colour_is_the_background() -> None:
    m = load_manifest("gazala-rg")
    for cid, nat in [("axis-pavia-27", "it"), ("allied-1ff-marine", "fr"), ("allied-3ind-2-lcr", "in")]:
        img = render_face(m[cid], dpi=100)
        want = m.nationalities[nat].color
        assert "#{:02x}{:02x}{:02x}".format(*img.getpixel((img.width - 4, img.height // 2))) == want


def test_every_unit_type_has_a_distinct_symbol() -> None:
    from PIL import Image, ImageDraw

    seen = set()
    for t in SYMBOL_TYPES:
        img = Image.new("L", (90, 60), 255)
        draw_unit_symbol(ImageDraw.Draw(img), (5, 5, 85, 55), t, width=3, ink=0, fill=255)
        seen.add(img.tobytes())
    assert len(seen) == len(SYMBOL_TYPES)
    assert set(SYMBOL_TYPES) == set(UNIT_TYPES)  # every type a manifest may use has a symbol
    with pytest.raises(ValueError, match="no symbol"):
        draw_unit_symbol(ImageDraw.Draw(img), (5, 5, 85, 55), "cavalry-of-the-sea", width=3)


def test_contact_sheet_holds_every_face() -> None:
    m = parse_manifest(
        "game: t\nnationalities: {de: {name: G, side: axis, color: '#999999'}}\n"
        "units:\n  - {id: a, nationality: de, designation: A, type: hq, size: XX, values: [1, 1, 1]}\n"
        "markers:\n  - {id: n, count: 3, front: {title: '7', icon: number}}\n"
    )
    img = contact_sheet(m.counters, dpi=50, columns=4, gap_px=2)
    w = face_pixels(12.7, 50)
    assert img.size == (4 * (w + 2) + 2, 2 * (w + 2) + 2)
