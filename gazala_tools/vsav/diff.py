"""What changed between two positions: pieces moved, added, removed or changed (by piece id)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gazala_tools.vsav.pieces import Piece, SavedPosition

__all__ = ["PositionDiff", "diff_positions"]


def _where(p: Piece) -> dict[str, Any]:
    return {"map": p.map, "x": p.x, "y": p.y, "location": p.location}


def _label(w: dict[str, Any]) -> str:
    if w["map"] is None:
        return "off-map"
    loc = f" {w['location']}" if w.get("location") else ""
    return f"{w['map']}{loc} ({w['x']},{w['y']})"


@dataclass
class PositionDiff:
    moved: list[dict[str, Any]] = field(default_factory=list)
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.moved or self.added or self.removed or self.changed)

    def as_dict(self) -> dict[str, Any]:
        return {"moved": self.moved, "added": self.added, "removed": self.removed, "changed": self.changed}

    def lines(self) -> list[str]:
        out: list[str] = []
        for m in self.moved:
            out.append(f"moved   {m['id']} {m['name']}: {_label(m['from'])} -> {_label(m['to'])}")
        for a in self.added:
            out.append(f"added   {a['id']} {a['name']}: {_label(a['at'])}")
        for r in self.removed:
            out.append(f"removed {r['id']} {r['name']}: {_label(r['at'])}")
        for c in self.changed:
            parts = [f"{k} {v['from']!r} -> {v['to']!r}" for k, v in c["properties"].items()]
            if c.get("name"):
                parts.insert(0, f"name {c['name']['from']!r} -> {c['name']['to']!r}")
            out.append(f"changed {c['id']} {c['label']}: " + "; ".join(parts))
        return out


def diff_positions(a: SavedPosition, b: SavedPosition) -> PositionDiff:
    """Pieces of ``b`` compared with ``a``: a move is a change of map or x/y (location shown when known)."""
    d = PositionDiff()
    for pid, pb in b.pieces.items():
        pa = a.pieces.get(pid)
        if pa is None:
            d.added.append({"id": pid, "name": pb.name, "at": _where(pb)})
            continue
        if (pa.map, pa.x, pa.y) != (pb.map, pb.x, pb.y):
            d.moved.append({"id": pid, "name": pb.name, "from": _where(pa), "to": _where(pb)})
        props_a, props_b = pa.properties, pb.properties
        changed = {
            k: {"from": props_a.get(k), "to": props_b.get(k)}
            for k in sorted(set(props_a) | set(props_b))
            if props_a.get(k) != props_b.get(k) and not k.startswith(("Old", "Clicked"))
        }
        entry: dict[str, Any] = {"id": pid, "label": pb.name, "properties": changed}
        if pa.name != pb.name:
            entry["name"] = {"from": pa.name, "to": pb.name}
        if changed or "name" in entry:
            d.changed.append(entry)
    for pid, pa in a.pieces.items():
        if pid not in b.pieces:
            d.removed.append({"id": pid, "name": pa.name, "at": _where(pa)})
    return d
