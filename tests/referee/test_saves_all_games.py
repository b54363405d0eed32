"""DG, SPI and BG: a save of our module gives the same report as the equivalent position YAML.

The save is written from each game's module palette pieces (prototypes expanded) with our save
writer, then read back through the referee's save reader (as ``tests/referee/test_saves.py`` does
for RG).
"""

from __future__ import annotations

import pytest

from gazala_tools.cli import main
from gazala_tools.mapdata import load_map
from gazala_tools.referee.api import check_file
from gazala_tools.vassal.buildfile import read_layouts

#: per game: the turn, and the hexes for the first two Axis and first two Allied palette units
CASES = {
    "cauldron-dg": ("12", ["0608", "0709", "1515", "1410"]),
    "cauldron-spi": ("9", ["0608", "2010", "2009", "1515"]),
    "batalha": ("5", ["W05", "M08", "M09", "P12"]),
}
MODULE_NAMES = {"cauldron-dg": "Cauldron", "cauldron-spi": "Cauldron", "batalha": "Batalha de Gazala"}


def palette(module_file):
    from gazala_tools.vsav.traits import decode_piece
    from tools.saves import module_pieces

    out = {}
    for sp in module_pieces(module_file):
        props = decode_piece(sp.type, sp.state).properties()
        if props.get("Kind") == "unit":
            out.setdefault(props.get("Side"), []).append((props["UnitId"], sp))
    return out


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """Each game's module buildFile, built once."""
    from gazala_tools.vassal.module.build import build_buildfile
    from gazala_tools.vassal.module.games import module_spec

    out = {}
    for game in CASES:
        out[game] = tmp_path_factory.mktemp(game) / "buildFile.xml"
        out[game].write_bytes(build_buildfile(module_spec(game, dpi=20)).xml)
    return out


def placed(u):
    return (u.id, u.side, u.type, u.formation, u.hex, u.box, u.markers, u.steps, u.full_steps)


def write_save(game, module_file, placed, path):
    """A save of ``game`` with palette pieces ``[(unit id, slot piece, hex label)]`` on the map."""
    from gazala_tools.render.board import board_geometry
    from gazala_tools.vsav.writer import PiecePlacement, new_save_tree
    from tools.saves import write_new_save

    game_map = load_map(game)
    geo = board_geometry(game_map, dpi=20)
    placements = []
    for _uid, sp, label in placed:
        x, y = geo.hex_center(game_map.hex(label))
        placements.append(PiecePlacement(sp.type, sp.state, "Main Map", x, y))
    write_new_save(path, new_save_tree(placements, first_id=1000), module_name=MODULE_NAMES[game])
    return path


@pytest.mark.parametrize("game", sorted(CASES))
def test_save_and_yaml_give_the_same_report(game, modules, tmp_path):
    module_file = modules[game]
    turn, hexes = CASES[game]
    units = palette(module_file)
    chosen = [(uid, sp, h) for (uid, sp), h in zip([*units["Axis"][:2], *units["Allied"][:2]], hexes, strict=True)]
    save = write_save(game, module_file, chosen, tmp_path / "game.vsav")
    yaml_pos = tmp_path / "game.yaml"
    yaml_pos.write_text(f'game: {game}\nturn: "{turn}"\nunits:\n'
                        + "".join(f'  - {{id: {uid}, hex: "{h}"}}\n' for uid, _sp, h in chosen))

    from_save = check_file(save, game=game, module=module_file, read_layouts=read_layouts, turn=turn)
    from_yaml = check_file(yaml_pos)
    # steps too: a DG/BG counter with a depleted/reduced back is a two-step unit in both inputs
    assert sorted(map(placed, from_save.position.units)) == sorted(map(placed, from_yaml.position.units))
    a, b = from_save.report.to_dict(), from_yaml.report.to_dict()
    a.pop("source"), b.pop("source")
    assert a == b
    assert a["findings"]  # the position says something


def test_dg_17_0_rommels_feint_from_two_saves_through_the_cli(modules, tmp_path, capsys):
    """Turn 1: the Allied unit next to the German may move, the other may not (``--before`` save)."""
    import json

    game, module_file = "cauldron-dg", modules["cauldron-dg"]
    units = palette(module_file)
    (g, gsp), (near, nsp), (far, fsp) = units["Axis"][0], units["Allied"][0], units["Allied"][1]
    before = write_save(game, module_file, [(g, gsp, "1010"), (near, nsp, "1011"), (far, fsp, "2020")],
                        tmp_path / "before.vsav")
    after = write_save(game, module_file, [(g, gsp, "1010"), (near, nsp, "1213"), (far, fsp, "2120")],
                       tmp_path / "after.vsav")
    common = ["--game", game, "--module", str(module_file), "--turn", "1", "--json"]
    assert main(["referee", "check", str(after), "--before", str(before), *common]) == 1
    errors = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "17.0"]
    assert [f["units"] for f in errors] == [[far]] and errors[0]["hexes"] == ["2020", "2120"]
    assert main(["referee", "check", str(after), *common]) == 0  # one save alone: nothing to compare
    assert not [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "17.0"]


def at_step(sp, level):
    """The palette piece ``sp`` with its Step layer at ``level`` (1 full strength, 2 the reduced back)."""
    import dataclasses

    from gazala_tools.vsav.traits import decode_piece, join_chain

    traits = decode_piece(sp.type, sp.state).traits
    states = [str(level) if t.id == "emb2;" and t.fields()[18:19] == ["Step"] else t.state for t in traits]
    assert states != [t.state for t in traits] or level == 1  # the piece has a Step layer
    return dataclasses.replace(sp, state=join_chain(states))


@pytest.mark.parametrize("game", ["cauldron-dg", "batalha"])
def test_a_reduced_unit_is_one_step_of_two_in_save_and_yaml(game, modules, tmp_path):
    """A DG/BG unit is two steps: full strength 2, its depleted / reduced back 1 (the Step layer's
    second level in a save, ``steps: 1`` in a position YAML)."""
    from gazala_tools.vsav.traits import decode_piece

    module_file = modules[game]
    uid, sp = next((u, sp) for u, sp in palette(module_file)["Allied"]
                   if decode_piece(sp.type, sp.state).properties().get("Steps") == "2")
    where = CASES[game][1][2]
    full = check_file(write_save(game, module_file, [(uid, sp, where)], tmp_path / "full.vsav"), game=game,
                      module=module_file, read_layouts=read_layouts).position.unit(uid)
    save = write_save(game, module_file, [(uid, at_step(sp, 2), where)], tmp_path / "reduced.vsav")
    from_save = check_file(save, game=game, module=module_file, read_layouts=read_layouts).position.unit(uid)
    yaml_pos = tmp_path / "reduced.yaml"
    yaml_pos.write_text(f'game: {game}\nunits:\n  - {{id: {uid}, hex: "{where}", steps: 1}}\n')
    from_yaml = check_file(yaml_pos).position.unit(uid)
    assert (full.steps, full.full_steps, full.reduced) == (2, 2, False)
    assert (from_save.steps, from_save.full_steps, from_save.reduced) == (1, 2, True)
    assert from_yaml == from_save


def test_bg_7_0_recovery_of_a_reduced_unit_from_a_save_through_the_cli(modules, tmp_path, capsys):
    """BG 7.0 reads the reduced side from the save's Step layer (no ``reduced`` key) and draws the line."""
    import json

    from gazala_tools.vsav.traits import decode_piece

    game, module_file = "batalha", modules["batalha"]
    uid, sp = next((u, sp) for u, sp in palette(module_file)["Allied"]
                   if decode_piece(sp.type, sp.state).properties().get("Steps") == "2")
    save = write_save(game, module_file, [(uid, at_step(sp, 2), "M09")], tmp_path / "reduced.vsav")
    assert main(["referee", "check", str(save), "--game", game, "--module", str(module_file), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    recovery = [f for f in out["findings"] if f["rule"] == "7.0"]
    assert recovery and recovery[0]["units"] == [uid] and recovery[0]["severity"] == "warning"
    lines = [p for p in out["paths"] if p["kind"] == "recovery"]
    assert len(lines) == 1 and lines[0]["hexes"][0] == "M09" and lines[0]["hexes"] == recovery[0]["hexes"]


@pytest.mark.parametrize("game", sorted(CASES))
def test_every_module_unit_has_the_steps_the_referee_reads_from_the_manifest(game, modules):
    """The module's Step layer (``Steps``) and the referee's manifest reading agree for every unit:
    two steps for a counter with a depleted / reduced back, one otherwise."""
    from gazala_tools.referee.api import manifest_specs
    from gazala_tools.vsav.traits import decode_piece

    specs = manifest_specs(game)
    assert specs is not None
    got = {uid: int(decode_piece(sp.type, sp.state).properties()["Steps"])
           for side in palette(modules[game]).values() for uid, sp in side}
    assert got and got == {uid: specs[uid]["steps"] for uid in got}
    assert set(got.values()) == ({1} if game == "cauldron-spi" else {1, 2} if game == "cauldron-dg" else {2})
