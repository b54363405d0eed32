"""The shared folder's VASSAL harness (``$GAZALA_SHARED/vassal/harness/run.sh``) from Python.

:class:`Harness` runs one harness command per call (``setups``, ``log-moves``, ``read-log``, or any
other through :meth:`Harness.run`) and returns its JSON answer as a dict. The harness
(``EngineHarness.java``, a sibling of our ``Oracle.java``) drives VASSAL 3.7.26 as a player: it
opens a module's predefined set-up, moves pieces one logged step at a time and writes the ``.vlog``,
or steps through a log and reports what moved. ``run.sh`` compiles it on first use into
``GZ_HARNESS_CLASSES``, which we point at ``.cache/vassal/harness`` (never into the shared folder),
and runs each command in a fresh JVM under its own ``xvfb-run`` display with a private
``VASSAL.conf``, temp directory and home.

Nothing here is needed at run time by the toolkit: it writes engine-made logs for tests (issue 14)
and proves our readers against the engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tools.vassal_oracle.engine import (
    CACHE,
    ENGINE_VERSION,
    EngineError,
    engine_jar,
    jar_version,
    last_json,
    missing_requirements,
    shared_dir,
)

#: Executables run.sh uses besides java/javac, and the Debian package of each.
HARNESS_PROGRAMS = {"xvfb-run": "xvfb", "Xvfb": "xvfb", "xauth": "xauth", "timeout": "coreutils"}


class Harness:
    """Runs ``run.sh ENGINE COMMAND ARGS...`` of the shared harness and parses its JSON answer.

    ``engine`` is an engine tag of the shared ``vassal/`` folder (``"3.7.26"``) or the path of an
    engine jar with its ``debian-jars.txt`` beside it. ``timeout`` bounds one command (seconds).
    """

    def __init__(
        self,
        engine: str | Path = ENGINE_VERSION,
        *,
        shared: str | Path | None = None,
        classes: str | Path | None = None,
        timeout: float = 180.0,
    ) -> None:
        self.shared = Path(shared).resolve() if shared is not None else shared_dir()
        self.dir = self.shared / "vassal" / "harness"
        if isinstance(engine, Path):
            self.jar = engine.resolve()
        elif shared is None:
            self.jar = engine_jar(engine)
        else:
            self.jar = self.shared / "vassal" / engine / f"Vengine-{engine}.jar"
        self.classes = Path(classes) if classes is not None else CACHE / "harness"
        self.timeout = timeout

    # -- availability -------------------------------------------------------------------------------

    def missing(self) -> list[str]:
        """What is missing to run the harness, each naming what to install or set (empty when ready)."""
        problems = missing_requirements(self.jar, programs=HARNESS_PROGRAMS)
        for name in ("run.sh", "EngineHarness.java"):
            if not (self.dir / name).is_file():
                problems.append(f"the engine harness {self.dir / name} (from the shared folder, or set GAZALA_SHARED)")
        return problems

    def available(self) -> tuple[bool, str]:
        """``(True, "")`` when the harness, its engine jar, Java, Xvfb and the Debian jars are there."""
        problems = self.missing()
        if problems:
            return False, "VASSAL engine harness unavailable; install: " + "; ".join(problems)
        return True, ""

    def version(self) -> str | None:
        """The engine jar's ``git.version`` (``"3.7.26"``), None when it has none."""
        return jar_version(self.jar)

    # -- running ------------------------------------------------------------------------------------

    def run(self, command: str, *args: str | Path) -> dict[str, Any]:
        """Run one harness command; ``Path`` arguments are passed as absolute paths.

        Returns the JSON answer (it has ``ok``, ``command``, ``vassal_version``, ``dialogs``, ``log``,
        ``chat`` and the command's own fields); raises :class:`EngineError` when the harness cannot
        run, times out, dies without an answer or answers ``ok: false``.
        """
        ok, reason = self.available()
        if not ok:
            raise EngineError(reason)
        self.classes.mkdir(parents=True, exist_ok=True)
        cmd = [
            "bash",
            str(self.dir / "run.sh"),
            str(self.jar),  # run.sh takes a jar path as well as a tag; its debian-jars.txt is beside it
            command,
            *(str(a.resolve()) if isinstance(a, Path) else a for a in args),
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JAVA_TOOL", "_JAVA", "ORACLE_"))}
        env.update(
            GZ_HARNESS_CLASSES=str(self.classes.resolve()),
            ORACLE_TIMEOUT_IN=str(int(self.timeout)),  # the JVM's own watchdog
            ORACLE_TIMEOUT=str(int(self.timeout) + 30),  # `timeout` around xvfb-run
            # the client compiler only, as our own engine runs (engine.JVM_FLAGS): a harness run is
            # a few seconds long, and the optimising compiler's threads cost it a third of its CPU
            JAVA_TOOL_OPTIONS="-XX:TieredStopAtLevel=1",
        )
        try:
            proc = subprocess.run(
                cmd, env=env, capture_output=True, text=True, timeout=self.timeout + 90, check=False
            )
        except subprocess.TimeoutExpired:
            raise EngineError(f"VASSAL harness '{command}' timed out after {self.timeout + 90:.0f} s") from None
        result = last_json(proc.stdout)
        if result is None:
            tail = (proc.stderr or "").strip()[-1500:]
            raise EngineError(f"VASSAL harness '{command}' died (exit {proc.returncode}) without a result: {tail}")
        if not result.get("ok"):
            raise EngineError(
                f"VASSAL harness '{command}' failed: {result.get('error')}", file=str(args[0]) if args else None
            )
        return result

    # -- commands -----------------------------------------------------------------------------------

    def setups(self, vmod: str | Path) -> list[dict[str, Any]]:
        """The module's predefined set-ups: ``[{"name", "file", "useFile", "isMenu"}, ...]``."""
        setups: list[dict[str, Any]] = self.run("setups", Path(vmod))["setups"]
        return setups

    def log_moves(
        self, vmod: str | Path, setup: str, out: str | Path, moves: Iterable[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """Open set-up ``setup`` as a player, make each move as its own logged step, write ``out`` (.vlog).

        ``setup`` is a set-up's name or ``"#N"`` (the N-th set-up that opens a file). Each move:
        ``{"piece": piece id or name}`` plus a destination: ``"to": location name`` (for example
        ``"1521"``: that hex's centre), or ``"x", "y"`` in map coordinates, or ``"dx", "dy"`` from where
        the piece is; optional ``"map"`` (default: the piece's map) and ``"snap": true``. The answer has
        ``moves`` (per move: ``piece``, ``name``, ``from``, ``from_xy``, ``to``, ``to_xy``, ``command``),
        ``logged_commands``, ``written`` and ``pieces_after`` (every piece once the moves are made).
        """
        out_path = Path(out).resolve()
        if not out_path.parent.is_dir():
            raise EngineError("the folder of the log to write does not exist", file=out_path)
        with tempfile.TemporaryDirectory(prefix="gazala-moves-", ignore_cleanup_errors=True) as tmp:
            mf = Path(tmp) / "moves.json"
            mf.write_text(json.dumps({"moves": [dict(m) for m in moves]}), encoding="utf-8")
            return self.run("log-moves", Path(vmod), setup, out_path, mf)

    def read_log(self, vmod: str | Path, vlog: str | Path) -> dict[str, Any]:
        """Load a log and Step through it: ``log_steps``, ``steps`` and the final ``pieces``.

        ``steps``: per step ``{"step": n, "changed": [{"id", "name", "from", "to", "to_xy": "x,y"}]}``
        (``from``/``to`` are location names); ``pieces`` as for :meth:`Engine.read_save`.
        """
        return self.run("read-log", Path(vmod), Path(vlog))
