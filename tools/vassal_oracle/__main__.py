"""``python -m tools.vassal_oracle``: is the VASSAL engine the ``vassal`` tests run ready?

Checks, without running it, what :class:`~tools.vassal_oracle.engine.Engine` and
:class:`~tools.vassal_oracle.harness.Harness` need: the shared VASSAL 3.7.26 jar (and that it says it
is 3.7.26), its ``debian-jars.txt`` and every jar it lists, Java, Xvfb and the harness files. Prints
nothing and exits 0 when all is there; else prints one line per missing thing (naming what to
install or set) and exits 1. ``scripts/setup-vassal`` runs it.
"""

from __future__ import annotations

import sys

from tools.vassal_oracle.engine import ENGINE_VERSION, jar_version
from tools.vassal_oracle.harness import Harness


def main() -> int:
    harness = Harness()
    problems = harness.missing()
    if harness.jar.is_file() and (version := jar_version(harness.jar)) != ENGINE_VERSION:
        problems.append(f"{harness.jar} is VASSAL {version}, not {ENGINE_VERSION} (its git.properties)")
    for problem in problems:
        print(f"[setup-vassal] missing: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
