"""A module build draws its large images a band at a time (issue 26 item 1): the bytes are those
of the whole image, so builds stay reproducible and unchanged."""

from __future__ import annotations

import io

from PIL import Image

from gazala_tools.vassal.module import faces


def _face(colour: tuple[int, int, int], mode: str = "RGB") -> bytes:
    buf = io.BytesIO()
    Image.new(mode, (32, 32), colour if mode == "RGB" else (*colour, 128)).save(buf, "PNG")
    return buf.getvalue()


def test_the_order_of_battle_drawn_formation_by_formation_is_the_whole_chart_byte_for_byte() -> None:
    rows = [(f"Formation {i}", [_face((20 * i % 255, 90, 200)) for _ in range(i % 7 + 1)]) for i in range(12)]
    rows.append(("Translucent", [_face((200, 30, 30), "RGBA")]))
    whole = faces.png_bytes(faces.order_of_battle("Red order of battle", rows, 32))
    assert faces.order_of_battle_png("Red order of battle", rows, 32) == whole
    assert Image.open(io.BytesIO(whole)).size[1] > 256  # taller than one block of png_bytes


def test_png_bytes_of_bands_are_png_bytes_of_the_image() -> None:
    img = Image.linear_gradient("L").convert("RGB").resize((70, 600))
    bands = [img.crop((0, top, 70, min(600, top + 37))) for top in range(0, 600, 37)]
    assert faces.png_bytes_of_bands(70, 600, bands) == faces.png_bytes(img)
    assert Image.open(io.BytesIO(faces.png_bytes(img))).convert("RGB").tobytes() == img.tobytes()


def test_spooled_images_give_back_what_was_put_in_and_the_last_bytes_of_a_name() -> None:
    from gazala_tools.vassal.module.spool import SpooledImages

    images = SpooledImages()
    images["images/a.png"] = b"first"
    images["images/b.png"] = b""
    images["images/a.png"] = b"second, longer"
    assert dict(images) == {"images/a.png": b"second, longer", "images/b.png": b""}
    assert "images/b.png" in images and "images/c.png" not in images
    del images["images/b.png"]
    assert list(images) == ["images/a.png"] and len(images) == 1
    images.close()
