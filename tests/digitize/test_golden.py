"""detect-grid's results on the evaluation subset are those recorded (tests/digitize/golden.py):
a refactoring of the stages (issue 26 item 5) changes no number by more than 1e-9. An intended
change of results records them anew (``python -m tests.digitize.golden --write``) and says why."""

from __future__ import annotations

import json

import pytest

from tests.digitize.golden import CASES, GOLDEN, differences, fingerprint


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_detect_grid_gives_the_recorded_results(name: str) -> None:
    want = json.loads(GOLDEN.read_text())[name]
    assert differences(want, json.loads(json.dumps(fingerprint(name))), name) == []
