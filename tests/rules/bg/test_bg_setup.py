"""BG 11.1 set-up by place names on the built-in map: a legal position, as the rulebook gives it."""

from __future__ import annotations

from gazala_tools.referee.api import manifest_specs, position_from_data
from gazala_tools.referee.engine import Referee
from tests.support.fixtures import bg_rules

#: 11.1.1 / 11.1.2: units that start in named places (manifest ids)
SETUP_11_1 = {
    "allied-1atb": "Sidi Muftah",  # 1ª Bgda de Tanques
    "allied-50-150": "Got el Ualeb",  # 150ª Bgda
    "allied-1arm-22": "Bir el Harmat",  # 22ª Bgda Blda
    "allied-7arm-7mot": "Retma",  # 7ª Bgda Mtz
    "allied-201g": "Knightsbridge",  # 201ª Bgda de Guardas
    "allied-1fl": "Bir Hacheim",  # 1ª Bgda Franceses Livres
    "axis-9b": "Sidi Breghisc",  # 9º Regimento Bersaglieri
}


def test_11_1_named_set_up_is_legal_and_the_allies_hold_every_objective(bg_map):
    rules = bg_rules(bg_map)
    units = [{"id": uid, "hex": bg_map.label(bg_map.place(place).hex)} for uid, place in SETUP_11_1.items()]
    position = position_from_data(rules, {"game": "batalha", "turn": "1", "units": units},
                             manifest=manifest_specs("batalha"))
    r = Referee(rules).check(position)
    assert r.legal, [f.message for f in r.errors()]
    assert not r.by_rule("4.1")  # the Bersaglieri at Sidi Breghisc are within 20 hexes of a west road hex
    assert r.vp["objectives"] == {"Tobruk": "allied", "Bir Hacheim": "allied", "El Adem": "allied",
                                  "Knightsbridge": "allied"}
    assert (r.vp["axis"], r.vp["allied"], r.vp["ahead"]) == (0, 110, "allied")
