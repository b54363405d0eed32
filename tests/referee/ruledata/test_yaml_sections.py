"""Issue 34 item 2, "one reader for YAML sections": :class:`gazala_tools.yamlnodes.Section` reads a
section key by key, every error at its ``file:line:column`` and key path, with "did you mean" for an
unknown key; :func:`gazala_tools.yamlnodes.error_at` is the one error at a place kept from a read."""

from __future__ import annotations

import pytest

from gazala_tools.errors import GameDataError, GazalaError
from gazala_tools.yamlnodes import Doc, Section, compose_text, error_at

TEXT = """\
supply:
  rule: "5.0"
  sides:
    - {side: red, max-length: 7}
    - {side: blue, max-length: seven}
"""


def section(text: str = TEXT) -> Section:
    doc = Doc("game.yaml", GameDataError)
    return Section(doc, compose_text(text, "game.yaml", "rules", GameDataError), "rules",
                   frozenset({"supply"}))


def test_a_nested_value_is_read_with_its_default_and_key_path() -> None:
    supply = section().sub("supply", frozenset({"rule", "sides"}))
    red, blue = supply.each("sides", frozenset({"side", "max-length"}))
    assert supply.text("rule") == "5.0" and red.integer("max-length") == 7 and red.boolean("direct", False) is False
    with pytest.raises(GameDataError) as info:
        blue.integer("max-length")
    assert str(info.value) == "game.yaml:5:32: rules.supply.sides[1].max-length must be an integer, got 'seven'"


def test_an_unknown_key_says_which_was_meant() -> None:
    with pytest.raises(GameDataError) as info:
        section("suply: {}\n")
    assert str(info.value).startswith("game.yaml:1:1: rules: unknown key 'suply' (did you mean 'supply'?)")


def test_a_missing_key_names_the_section_and_the_key() -> None:
    supply = section().sub("supply")
    with pytest.raises(GameDataError, match=r"^game.yaml:2:3: rules.supply: missing 'sources'"):
        supply.text("sources")


def test_an_error_at_a_kept_place_names_file_and_place() -> None:
    e = error_at(GameDataError, "scenarios.yaml", "12:5", "scenario 'a': unit 'x' placed twice", "each unit once")
    assert isinstance(e, GameDataError)
    assert str(e) == "scenarios.yaml:12:5: scenario 'a': unit 'x' placed twice (expected each unit once)"
    assert str(error_at(GazalaError, "", None, "no file")) == "no file"
