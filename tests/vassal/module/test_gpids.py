"""Stable gpids: a hash of our piece id, unique, Java ints, nextPieceSlotId above them (§3.1, §7.9)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gazala_tools.vassal.module.gpids import GPID_MAX, GPID_MIN, assign_gpids, gpid_hash, next_piece_slot_id

ids = st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=60, unique=True)


def test_gpid_is_a_fixed_function_of_the_id() -> None:
    # pinned: a change here breaks "Refresh Counters" for every module already in players' hands
    assert gpid_hash("axis-21pz-5-1") == gpid_hash("axis-21pz-5-1")
    assert assign_gpids(["axis-21pz-5-1"]) == {"axis-21pz-5-1": gpid_hash("axis-21pz-5-1")}
    assert gpid_hash("axis-21pz-5-1") == 14754992


@given(ids)
def test_gpids_are_unique_java_ints_in_range(piece_ids: list[str]) -> None:
    g = assign_gpids(piece_ids)
    assert len(set(g.values())) == len(piece_ids)
    assert all(GPID_MIN <= v < GPID_MAX < 2**31 for v in g.values())
    assert next_piece_slot_id(g.values()) > max(g.values())
    assert next_piece_slot_id(g.values()) < 2**31


@given(ids, st.text(min_size=1, max_size=20))
def test_adding_a_counter_keeps_every_other_gpid(piece_ids: list[str], extra: str) -> None:
    before = assign_gpids(piece_ids)
    after = assign_gpids([*piece_ids, extra])
    changed = [pid for pid in piece_ids if before[pid] != after[pid]]
    # only a hash collision with the new id can move one (resolved in sorted order)
    assert len(changed) <= 1


def test_order_of_the_input_does_not_matter() -> None:
    a = [f"unit-{i}" for i in range(300)]
    assert assign_gpids(a) == assign_gpids(list(reversed(a)))


def test_a_collision_is_resolved_deterministically(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import gazala_tools.vassal.module.gpids as gp

    monkeypatch.setattr(gp, "gpid_hash", lambda _pid: GPID_MIN + 5)
    assert gp.assign_gpids(["b", "a", "c"]) == {"a": GPID_MIN + 5, "b": GPID_MIN + 6, "c": GPID_MIN + 7}
