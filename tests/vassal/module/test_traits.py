"""Trait strings exactly as vassal-format.md gives them (§1.1, §3.3, §3.4, §3.6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gazala_tools.vassal.module import traits as t
from gazala_tools.vsav import sequence
from gazala_tools.vsav.traits import decode_piece

TAB = "\t"

# §3.6, written with real TABs for ⇥
EMB2_EXAMPLE = (
    "emb2;;130;;Flip;130;;;130;;;;1;false;0;0;inf_full.png,inf_reduced.png;,+ (reduced);true;Step;;;false;;1;1;"
    "true;;70,130;;;1.0;;true"
)
FULLTYPE_3_6 = (
    "delete;Delete;68,130;" + TAB + EMB2_EXAMPLE + "\\" + TAB + "mark;Side\\\\" + TAB + "piece;;;inf_full.png;1st Infantry"
)
FULLSTATE_3_6 = TAB + "1\\" + TAB + "Allies\\\\" + TAB + "null;0;0;1;0"


def worked_example() -> list[t.TraitSpec]:
    return [
        t.delete("Delete", t.key("D")),
        t.layer("Step", ["inf_full.png", "inf_reduced.png"], ["", "+ (reduced)"], increase=("Flip", t.key("F")), loop=True),
        t.marker({"Side": "Allies"}),
        t.basic_piece("1st Infantry", "inf_full.png", gpid="1"),
    ]


def test_3_6_worked_example_fulltype_and_fullstate() -> None:
    full_type, full_state = t.chain(worked_example())
    assert full_type == FULLTYPE_3_6
    assert full_state == FULLSTATE_3_6


def test_3_6_piece_slot_body_escapes_slash_at_the_command_level() -> None:
    body = t.piece_text(worked_example())
    assert body == "+/null/" + FULLTYPE_3_6 + "/" + FULLSTATE_3_6
    traits = [*worked_example()[:-1], t.basic_piece("5/1 Pz", "", gpid="7")]
    body = t.piece_text(traits)
    assert "5\\/1 Pz" in body
    tokens = sequence.decode(body[2:], "/")
    assert tokens[0] == "null" and decode_piece(tokens[1], tokens[2]).common_name() == "5/1 Pz"


def test_3_4_1_embellishment_has_33_fields_and_version_1() -> None:
    layer = t.layer("Step", ["inf_full.png", "inf_reduced.png"], ["", "+ (reduced)"], increase=("Flip", t.key("F")), loop=True)
    assert layer.type == EMB2_EXAMPLE
    fields = sequence.decode(layer.type[len("emb2;"):], ";")
    assert len(fields) == 33 and fields[24] == "1"
    assert layer.state == "1"


def test_3_4_1_inactive_layer_state_is_minus_one() -> None:
    assert t.layer("Used", ["u.png"], activate=("Used", t.key("U")), always_active=False).state == "-1"


def test_3_4_2_marker_keys_and_values_are_comma_separated() -> None:
    m = t.marker({"Side": "Allies", "Class": "Infantry"})
    assert (m.type, m.state) == ("mark;Side,Class", "Allies,Infantry")
    assert t.marker({"Name": "Ariete, 132/8"}).state == "Ariete\\, 132/8"


def test_3_4_3_label_example() -> None:
    lab = t.label(text="Hello", menu="Change Label", key_stroke=t.key("L"))
    assert lab.type == "label;76,130;Change Label;10;;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;;false"
    assert lab.state == "Hello"


def test_3_4_4_rotate_example() -> None:
    r = t.rotate(6, facing=2)
    assert (r.type, r.state) == ("rotate;6;93,130;91,130;Rotate CW;Rotate CCW;;;;;;;;true", "2")


def test_3_4_5_delete_example() -> None:
    assert t.delete().type == "delete;Delete;68,130;" and t.delete().state == ""


def test_3_4_7_report_example_escapes_the_key_array() -> None:
    r = t.report([t.key("F")], "$location$: $newPieceName$ *")
    assert (r.type, r.state) == ("report;70\\,130;$location$: $newPieceName$ *;;;;false", "-1")


def test_3_4_8_prototype_name_is_raw_and_may_not_hold_a_semicolon() -> None:
    assert t.prototype("Unit").type == "prototype;Unit"
    with pytest.raises(ValueError):
        t.prototype("a;b")


def test_3_4_11_mask_example_shape() -> None:
    m = t.mask("mask.png", key_stroke=t.key("M"))
    assert m.type == "obs;77,130;mask.png;Mask;I;?;player:;Peek;;true;;" and m.state == "null;"


def test_3_3_basic_piece_palette_state() -> None:
    b = t.basic_piece("1st Infantry", "inf_full.png", gpid="1")
    assert (b.type, b.state) == ("piece;;;inf_full.png;1st Infantry", "null;0;0;1;0")
    assert t.basic_piece("").type == "piece;;;;"


def test_1_2_keystrokes() -> None:
    assert t.key("F") == "70,130"
    assert t.key("T", t.CTRL + t.SHIFT) == "84,195"
    assert t.key(127, 0) == "127,0"


def test_1_1_a_token_ending_in_backslash_is_refused() -> None:
    with pytest.raises(ValueError):
        t.marker({"Note": "ends with \\"})


def test_chain_must_end_with_the_basic_piece() -> None:
    with pytest.raises(ValueError):
        t.chain([t.delete()])


names = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\\\x1b\r\n\t"), max_size=12)


@given(name=names, side=names, fmt=names)
def test_any_text_survives_the_nesting(name: str, side: str, fmt: str) -> None:
    """Whatever the names hold (; , / TAB quotes), VASSAL's decoder gets them back (§1.1 nesting)."""
    traits = [t.report([t.key("F")], fmt), t.marker({"Side": side}), t.basic_piece(name, "x.png", gpid="5")]
    body = t.piece_text(traits)
    tokens = sequence.decode(body[2:], "/")
    piece = decode_piece(tokens[1], tokens[2])
    assert piece.common_name() == name
    assert piece.properties()["Side"] == side
    assert piece.traits[0].fields()[1] == fmt
