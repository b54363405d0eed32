"""``gazala counters``: list, images, sheet, contact; --json summaries; bad input exits 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from gazala_tools.cli import main


def _json(capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(capsys.readouterr().out)


def test_list_json_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["counters", "list", "gazala-rg", "--json"]) == 0
    out = _json(capsys)
    assert out["total"] == 168 and out["counts"]["unit"] == 108
    rec = next(c for c in out["counters"] if c["id"] == "axis-21pz-5-1-s3")
    assert rec["front"] == "12 12 24" and rec["back"] == "12 12 –" and rec["steps"] == 3


def test_images_named_by_stable_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = ["axis-21pz-5-1-s2", "breach-3"]
    assert (
        main(
            [
                "counters",
                "images",
                "gazala-rg",
                "-o",
                str(tmp_path),
                "--dpi",
                "150",
                "--only",
                *ids,
                "--json",
                "--no-progress",
            ]
        )
        == 0
    )
    out = _json(capsys)
    assert out["faces"] == 4
    for i in ids:
        for side in ("front", "back"):
            img = Image.open(tmp_path / f"{i}-{side}.png")
            assert img.size == (94, 94)  # 5/8 in at 150 dpi
    index = json.loads((tmp_path / "faces.json").read_text())
    assert index["counters"]["breach-3"]["back_image"] == "breach-3-back.png"


def test_sheet_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "s.pdf"
    argv = ["counters", "sheet", "cauldron-spi", "-o", str(pdf), "--page", "letter", "--dpi", "60",
            "--back-offset", "0.5,-0.25", "--size", "5/8 in", "--json", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    out = _json(capsys)
    assert out["counters"] == 120 and out["size_mm"] == 15.875 and out["back_offset_mm"] == [0.5, -0.25]
    assert pdf.read_bytes().startswith(b"%PDF")


def test_fold_layout_and_contact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "counters",
                "sheet",
                "batalha",
                "-o",
                str(tmp_path / "f.pdf"),
                "--layout",
                "fold",
                "--dpi",
                "60",
                "--json",
                "--no-progress",
            ]
        )
        == 0
    )
    assert _json(capsys)["layout"] == "fold"
    assert (
        main(["counters", "contact", "batalha", "-o", str(tmp_path / "c.png"), "--dpi", "40", "--json"]) == 0
    )
    assert _json(capsys)["faces"] == 124


@pytest.mark.parametrize(
    "argv",
    [
        ["counters", "list", "no-such-game"],
        ["counters", "sheet", "gazala-rg", "-o", "x.pdf", "--back-offset", "left"],
        ["counters", "sheet", "gazala-rg", "-o", "x.pdf", "--size", "huge"],
        ["counters", "images", "gazala-rg", "-o", "/tmp", "--only", "axis-nobody"],
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gazala: error:") and err.count("\n") == 1
