"""Words for what the toolkit prints: counts with the noun in the right number."""

from __future__ import annotations

__all__ = ["count"]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: ``count(1, "set-up")`` is ``"1 set-up"``,
    ``count(2, "set-up")`` is ``"2 set-ups"``; ``plural`` for a noun that does not take an "s"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
