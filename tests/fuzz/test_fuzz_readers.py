"""Issue 13, the short fuzz run of CI: every reader, fed seeded mutations of its inputs, returns or
raises GazalaError (exit 2) -- never another exception, never a hang, never a change to its input.

``GAZALA_FUZZ_INPUTS`` inputs per target (default 40: a few hundred in all, a few seconds each);
the long run with the memory check is ``scripts/fuzz N`` (docs/reliability.md).
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest

from tools.fuzz.run import run_one
from tools.fuzz.targets import TARGETS

INPUTS = int(os.environ.get("GAZALA_FUZZ_INPUTS", "40"))


#: the targets whose fuzz run takes over 5 s alone here (layers: 13 s): slow (scripts/test --quick leaves them out)
SLOW = {"game-folder", "html-report", "layers"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(TARGETS)])
def test_every_reader_gives_a_result_or_a_clean_error(name: str, tmp_path: Path) -> None:
    from tools.fuzz import run as fuzz_run

    target = TARGETS[name]
    rng = random.Random(f"ci-{name}")
    previous = signal.signal(signal.SIGALRM, fuzz_run._alarm)
    try:
        bad = []
        outcomes: dict[str, int] = {}
        for i in range(INPUTS):
            data = target.mutate(rng, rng.choice(target.seeds()))
            outcome, detail, _ = run_one(name, data, tmp_path, i)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            if outcome not in ("ok", "error"):
                bad.append((i, outcome, detail))
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert bad == [], f"{name}: {bad[:3]}"
    assert sum(outcomes.values()) == INPUTS


def test_the_folder_targets_audit_hook_sees_a_file_opened_outside_the_folder(tmp_path: Path) -> None:
    """Issue 21: ``scripts/fuzz`` counts files read outside a game folder; its audit hook must see them."""
    from tools.fuzz import folders

    inside, outside = tmp_path / "game", tmp_path / "secret.txt"
    inside.mkdir()
    (inside / "map.yaml").write_text("x")
    outside.write_text("secret")
    (inside / "link.yaml").symlink_to(outside)
    folders.watch_reads(inside)
    try:
        (inside / "map.yaml").read_text()
        (inside / "link.yaml").read_text()  # through a symlink of the folder
    finally:
        seen = folders.stop_watching()
    assert seen == [str(outside.resolve())]
