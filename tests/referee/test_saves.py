"""Saves of our module give the same findings as the equivalent position YAML.

The save is written from the module's own palette pieces (prototypes expanded) with our save
writer, status layers switched on in the trait states as VASSAL stores them, then read back through
the save reader. (A save written by the real VASSAL engine is the oracle test still to add.)
"""

from __future__ import annotations

import pytest

from gazala_tools.referee.api import check_file
from gazala_tools.rules.rg import breaches_of
from gazala_tools.vassal.buildfile import read_layouts
from tests.support.fixtures import rg_rules

#: (unit id, hex, active layers, step level) and the same as position YAML
UNITS = [
    ("axis-21pz-5-1", "1621", (), 1),
    ("axis-21pz-5-2", "1521", ("Disrupted",), 2),
    ("allied-3ind-2-lcr", "1520", ("Out of Supply",), 1),
]
BREACH = ("1216", 1, 2)  # marker in 1216 pointing NE (1216/1315), breached


@pytest.fixture(scope="module")
def module_file(tmp_path_factory):
    from gazala_tools.vassal.module.build import build_buildfile
    from gazala_tools.vassal.module.games import module_spec

    path = tmp_path_factory.mktemp("module") / "buildFile.xml"
    path.write_bytes(build_buildfile(module_spec("gazala-rg", dpi=20)).xml)
    return path


def _slot_by_unit_id(module_file):
    from gazala_tools.vsav.traits import decode_piece
    from tools.saves import module_pieces

    out = {}
    for sp in module_pieces(module_file):
        d = decode_piece(sp.type, sp.state)
        props = d.properties()
        out[props.get("UnitId", "")] = (sp, props)
    return out


def _set_layers(sp, layers, level, rotation=None):
    from gazala_tools.vsav.traits import decode_piece, join_chain

    d = decode_piece(sp.type, sp.state)
    states = []
    for tr in d.traits:
        state = tr.state
        name = tr.fields()[18] if tr.id == "emb2;" and len(tr.fields()) > 18 else ""
        if name in layers:
            state = "1"
        if name in ("Step", "Breach"):
            state = str(level)
        if tr.id == "rotate;" and rotation is not None:
            state = str(rotation)
        states.append(state)
    return join_chain(states)


def _placement(slots, rg_map, uid, label, state=None):
    from gazala_tools.render.board import board_geometry
    from gazala_tools.vsav.writer import PiecePlacement

    sp, _ = slots[uid]
    x, y = board_geometry(rg_map, dpi=20).hex_center(rg_map.hex(label))
    return PiecePlacement(sp.type, sp.state if state is None else state, "Main Map", x, y)


def test_save_and_yaml_give_the_same_report(module_file, rg_map, tmp_path):
    from gazala_tools.vsav.writer import new_save_tree
    from tools.saves import write_new_save

    slots = _slot_by_unit_id(module_file)
    ids = {uid for uid, _h, _l, _s in UNITS}
    missing = ids - set(slots)
    if missing:
        pytest.fail(f"module lacks units {missing}; update the test to the manifest ids")
    placements = [_placement(slots, rg_map, uid, label, _set_layers(slots[uid][0], layers, level))
                  for uid, label, layers, level in UNITS]
    breach_id = next(k for k, (_sp, p) in slots.items() if p.get("Kind") == "breach")
    state = _set_layers(slots[breach_id][0], (), BREACH[2], rotation=BREACH[1])
    placements.append(_placement(slots, rg_map, breach_id, BREACH[0], state))
    save = tmp_path / "game.vsav"
    write_new_save(save, new_save_tree(placements, first_id=1000), module_name="Gazala: The Cauldron")

    yaml_pos = tmp_path / "game.yaml"
    yaml_pos.write_text(
        "game: gazala-rg\nturn: May 29\nunits:\n"
        '  - {id: axis-21pz-5-1, hex: "1621"}\n'
        '  - {id: axis-21pz-5-2, hex: "1521", steps: 2, markers: [disrupted]}\n'
        '  - {id: allied-3ind-2-lcr, hex: "1520", markers: [out-of-supply]}\n'
        'breaches: [{hexside: "1216/1315", state: breached}]\n'
    )
    from_save = check_file(save, module=module_file, read_layouts=read_layouts, turn="May 29")
    from_yaml = check_file(yaml_pos)
    assert from_save.position.units == from_yaml.position.units
    assert [b.hexside for b in breaches_of(from_save.position)] == [b.hexside for b in breaches_of(from_yaml.position)]
    a, b = from_save.report.to_dict(), from_yaml.report.to_dict()
    a.pop("source"), b.pop("source")
    assert a == b


def test_fix_writes_the_supply_markers_the_supply_phase_requires(module_file, rg_map, tmp_path):
    from gazala_tools.cli import main
    from gazala_tools.vsav.writer import new_save_tree
    from tools.saves import write_new_save

    slots = _slot_by_unit_id(module_file)
    ring = ["1509", "1511", "1410", "1610", "1411", "1611"]  # around 1510
    allied = [k for k, (_s, p) in slots.items() if p.get("Kind") == "unit" and p.get("Side") == "Allied"][:6]
    sp, _ = slots["axis-21pz-5-1"]
    placements = [_placement(slots, rg_map, "axis-21pz-5-1", "1510", _set_layers(sp, ("Out of Supply",), 1))]
    for uid, h in zip(allied, ring, strict=True):
        state = _set_layers(slots[uid][0], ("Out of Supply",) if h == "1509" else (), 1)
        placements.append(_placement(slots, rg_map, uid, h, state))
    save, fixed = tmp_path / "in.vsav", tmp_path / "fixed.vsav"
    write_new_save(save, new_save_tree(placements, first_id=1000), module_name="Gazala: The Cauldron")
    before = check_file(save, module=module_file, read_layouts=read_layouts)
    assert before.report.supply["axis-21pz-5-1"].value == "isolated"
    assert len(before.report.markers) == 2
    assert main(["referee", "check", str(save), "--module", str(module_file), "--fix", "-o", str(fixed)]) == 0
    after = check_file(fixed, module=module_file, read_layouts=read_layouts)
    u = {x.id: x for x in after.position.units}
    assert u["axis-21pz-5-1"].markers == {"isolated"} and u[allied[0]].markers == frozenset()
    assert after.report.markers == []  # nothing left to change


def test_save_of_another_module_through_a_mapping(module_file, rg_map, tmp_path):
    """Pieces named only by their names (as in another module of the game) through --mapping: a
    regex per unit, marker pieces marking the units of their stack."""
    from gazala_tools.cli import main
    from gazala_tools.vsav.writer import new_save_tree
    from tools.saves import write_new_save

    slots = _slot_by_unit_id(module_file)
    placements = [_placement(slots, rg_map, uid, label)
                  for uid, label in [("axis-21pz-5-1", "1621"), ("allied-3ind-2-lcr", "1520"), ("out-of-supply", "1520")]]
    save = tmp_path / "other.vsav"
    write_new_save(save, new_save_tree(placements, first_id=1000), module_name="Some other Gazala module")
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text(
        "units:\n"
        '  - {match: "^5/1 \\\\(21 PZ\\\\)", id: axis-21pz-5-1}\n'
        '  - {match: "^(?P<id>2 Lcr)", side: allied, type: infantry, formation: 3 Ind}\n'
        "markers:\n"
        '  - {match: "^Out Of", marker: out-of-supply}\n'
    )
    checked = check_file(save, module=module_file, read_layouts=read_layouts, mapping=mapping, turn="May 28")
    units = {u.id: u for u in checked.position.units}
    assert set(units) == {"axis-21pz-5-1", "2 Lcr"}
    assert units["axis-21pz-5-1"].steps == 3 and units["axis-21pz-5-1"].formation == "21 PZ"
    assert units["2 Lcr"].markers == {"out-of-supply"} and rg_map.label(units["2 Lcr"].hex) == "1520"
    assert [m.to_dict() for m in checked.report.markers] == [
        {"unit": "2 Lcr", "add": None, "remove": "out-of-supply", "rule": "5.0"}]
    bad = tmp_path / "bad.yaml"
    bad.write_text("units: [{match: '(', id: x}]\n")
    assert main(["referee", "check", str(save), "--module", str(module_file), "--mapping", str(bad)]) == 2


def test_8_3_units_below_the_grid_wait_on_the_turn_record_track(rg_map):
    from gazala_tools.referee.engine import Referee
    from gazala_tools.referee.saves import position_from_pieces
    from gazala_tools.vsav import PieceView

    props = {"Kind": "unit", "UnitId": "allied-3ind-2-lcr", "Side": "Allied", "Type": "motorized-infantry",
             "Formation": "3 Ind", "Steps": "1"}
    x, y = rg_map.geometry().hex_center(rg_map.hex("1520"))
    on_grid = PieceView(id="1", name="2 Lcr", map="Main Map", x=x, y=y, properties=props)
    below = PieceView(id="2", name="11 Cav", map="Main Map", x=300, y=rg_map.pixels.board_height + 500,
                      properties={**props, "UnitId": "allied-3ind-11-cav"})
    elsewhere = PieceView(id="3", name="18 Cav", map="Notes", x=5, y=5, properties={**props, "UnitId": "allied-3ind-18-cav"})
    rules = rg_rules(rg_map)
    p = position_from_pieces([on_grid, below, elsewhere], rules=rules)
    assert [(u.id, rg_map.label(u.hex) if u.hex else u.box) for u in p.units] == [
        ("allied-3ind-2-lcr", "1520"), ("allied-3ind-11-cav", "turn-record"), ("allied-3ind-18-cav", "Notes")]
    [f] = Referee(rules).check(p).by_rule("8.3")
    assert f.units == ("allied-3ind-18-cav",)


def test_the_turn_comes_from_the_turn_tracker(module_file, rg_map, tmp_path):
    from gazala_tools.vsav.commands import Group, Turn
    from gazala_tools.vsav.writer import new_save_tree
    from tools.saves import write_new_save

    slots = _slot_by_unit_id(module_file)
    tree = new_save_tree([_placement(slots, rg_map, "axis-21pz-5-1", "1621")], first_id=1000)
    assert isinstance(tree, Group)
    tree.items.insert(-1, Turn("TURNTurn0\t0|3;0;0;" + ",".join(["true"] * 13)))
    save = tmp_path / "turn.vsav"
    write_new_save(save, tree, module_name="Gazala: The Cauldron")
    assert check_file(save, module=module_file, read_layouts=read_layouts).position.turn == "May 29"
    assert check_file(save, module=module_file, read_layouts=read_layouts, turn="June 1-2").position.turn == "June 1-2"


def test_a_save_is_read_once_per_command(module_file, rg_map, tmp_path, monkeypatch):
    """Game detection, the position and --fix all use the one ``read_save`` of the command (issue 15,
    part 7): the container is opened and the commands decoded once."""
    import gazala_tools.vsav as saves
    import gazala_tools.vsav.container as container
    from gazala_tools.cli import main
    from gazala_tools.vsav.writer import new_save_tree
    from tools.saves import write_new_save

    slots = _slot_by_unit_id(module_file)
    sp, _ = slots["axis-21pz-5-1"]
    save, fixed = tmp_path / "in.vsav", tmp_path / "fixed.vsav"
    placements = [_placement(slots, rg_map, "axis-21pz-5-1", "1510", _set_layers(sp, ("Out of Supply",), 1))]
    write_new_save(save, new_save_tree(placements, first_id=1000), module_name="Gazala: The Cauldron")
    calls: list[str] = []
    real = container.read_container

    def counting(source, **kw):
        calls.append(str(source))
        return real(source, **kw)

    monkeypatch.setattr(saves, "read_container", counting)
    monkeypatch.setattr(container, "read_container", counting)
    assert main(["referee", "check", str(save), "--module", str(module_file), "--fix", "-o", str(fixed)]) == 0
    assert calls == [str(save)]
