"""SVG images (VASSAL draws .svg with Batik): drawn from their own bytes only, within the pixel caps,
every refusal one GazalaError naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from gazala_tools.errors import GazalaError
from gazala_tools.inputs import image_header_size
from gazala_tools.render.svg import MAX_SVG_BYTES, open_any_image, rasterise

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="10" height="10" fill="#f00"/></svg>'


def test_an_svg_is_drawn_at_its_declared_size_and_scaled_on_request() -> None:
    im = open_any_image(SVG, file="a.svg")
    assert im.size == (20, 10)
    assert im.getpixel((2, 2)) == (255, 0, 0, 255) and im.getpixel((15, 5))[3] == 0
    assert rasterise(SVG, file="a.svg", scale=10).size == (200, 100)
    assert image_header_size(SVG) == (20, 10)


@pytest.mark.parametrize("ref", ['<image href="file://{red}" width="10" height="10"/>',
                                 '<image xlink:href="{red}" width="10" height="10"/>',
                                 '<style>@import url(file://{dir}/x.css);</style>',
                                 '<use xlink:href="{red}#x"/>', '<rect width="9" height="9" fill="url({red}#g)"/>'])
def test_a_file_outside_the_svg_is_refused_and_never_read(tmp_path: Path, ref: str) -> None:
    red = tmp_path / "red.png"
    Image.new("RGB", (10, 10), (255, 0, 0)).save(red)
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
           f'height="10">{ref.format(red=red, dir=tmp_path)}</svg>').encode()
    with pytest.raises(GazalaError, match="outside the module"):
        rasterise(svg, file="hostile.svg")


@pytest.mark.parametrize("doctype", [
    '<!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE s [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'])
def test_xml_entities_are_refused_in_one_line_naming_the_file(doctype: str) -> None:
    svg = f'<?xml version="1.0"?>{doctype}<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' \
          '<text>&x;</text></svg>'
    with pytest.raises(GazalaError) as exc:
        rasterise(svg.encode(), file="evil.svg")
    assert "evil.svg" in str(exc.value) and "\n" not in str(exc.value)


def test_an_svg_declaring_too_many_pixels_is_refused_before_drawing() -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>'
    with pytest.raises(GazalaError, match="100000 x 100000"):
        open_any_image(svg, file="huge.svg")
    with pytest.raises(GazalaError, match="pixels"):
        rasterise(SVG, file="a.svg", scale=10_000)


def test_an_svg_without_size_or_too_many_bytes_is_refused() -> None:
    with pytest.raises(GazalaError, match="declares no size"):
        rasterise(b'<svg xmlns="http://www.w3.org/2000/svg"/>', file="a.svg")
    with pytest.raises(GazalaError, match="bytes"):
        rasterise(SVG + b" " * MAX_SVG_BYTES, file="a.svg")
    assert rasterise(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 15"/>', file="v.svg").size == (30, 15)
