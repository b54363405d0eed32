"""Fuzzing: mutated and truncated saves of every form give a position or the typed error, nothing else.

The default run feeds 3 x 1,500 = 4,500 generated inputs (hypothesis); set GAZALA_FUZZ_EXAMPLES to
run more.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gazala_tools.errors import VassalFormatError
from gazala_tools.vsav import read_save
from tools.saves import FORMS, sample_commands, sample_file

EXAMPLES = int(os.environ.get("GAZALA_FUZZ_EXAMPLES", "1500"))
TEXT = sample_commands(6, style="3.7", log_steps=5)
SEEDS = [sample_file(TEXT, zipped=z, encoding=e) for z, e in FORMS]
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


def _read(data: bytes) -> None:
    try:
        save = read_save(data, name="fuzz.vsav")
        save.as_dict()
    except VassalFormatError as exc:
        assert "fuzz.vsav" in str(exc)


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        if op == "flip":
            data[i] = draw(st.integers(0, 255))
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del data[i : i + draw(st.integers(1, 16))]
        else:
            del data[i:]
    return bytes(data)


@pytest.mark.slow
@FUZZ
@given(mutated(SEEDS))
def test_fuzz_mutated_containers(data: bytes) -> None:
    _read(data)


PLAIN_CHARS = st.sampled_from([*"\x1b\t/;\\',@+-DM0123456789ab", "null", "stack", "piece;", "LOG\t", "begin_save", "end_save"])


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_fuzz_mutated_command_text(data: st.DataObject) -> None:
    text = TEXT
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(text)))
        j = min(len(text), i + data.draw(st.integers(0, 20)))
        text = text[:i] + "".join(data.draw(st.lists(PLAIN_CHARS, max_size=6))) + text[j:]
    _read(text.encode("utf-8"))


@FUZZ
@given(st.integers(0, len(SEEDS) - 1), st.floats(0, 1))
def test_fuzz_truncated(which: int, frac: float) -> None:
    seed = SEEDS[which]
    _read(seed[: int(len(seed) * frac)])
