"""Stable piece-slot ids (gpid) from our stable piece ids.

VASSAL links a placed piece to its palette slot by gpid ("Refresh Counters", Place/Replace traits;
vassal-format.md §3.1). Sequential numbers would renumber every slot after an inserted one, so a
gpid is a hash of the piece id into ``[GPID_MIN, GPID_MAX)``: adding or removing a counter leaves
every other gpid as it was. gpids must be plain decimal ints (Java ``int``); ``nextPieceSlotId``
(the next id VASSAL's editor hands out) is set above all of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

__all__ = ["GPID_MAX", "GPID_MIN", "assign_gpids", "gpid_hash", "next_piece_slot_id"]

GPID_MIN = 1_000_000
GPID_MAX = 1_000_000_000


def gpid_hash(piece_id: str) -> int:
    """The preferred gpid of ``piece_id`` (sha256, so it is the same on every machine and run)."""
    digest = hashlib.sha256(piece_id.encode("utf-8")).digest()
    return GPID_MIN + int.from_bytes(digest[:8], "big") % (GPID_MAX - GPID_MIN)


def assign_gpids(piece_ids: Iterable[str]) -> dict[str, int]:
    """A unique gpid per id: its hash, or on a (rare) collision the next free number.

    Collisions are resolved in sorted id order, so the result does not depend on input order.
    """
    ids = sorted(set(piece_ids))
    out: dict[str, int] = {}
    used: set[int] = set()
    for pid in ids:
        g = gpid_hash(pid)
        while g in used:
            g = GPID_MIN + (g + 1 - GPID_MIN) % (GPID_MAX - GPID_MIN)
        used.add(g)
        out[pid] = g
    return out


def next_piece_slot_id(gpids: Iterable[int]) -> int:
    """``nextPieceSlotId``: above every gpid used (§3.1, §7.9)."""
    return max(gpids, default=GPID_MIN - 1) + 1
