"""The real VASSAL engine as a test oracle (docs/vassal-engine.md).

:class:`Engine` runs a small Java CLI (``tools/vassal_oracle/oracle/Oracle.java``) against the VASSAL
3.7.26 engine jar of the shared folder (``$GAZALA_SHARED/vassal/3.7.26/Vengine-3.7.26.jar``, by
default ``../shared`` beside the repository) and the Debian jars its ``debian-jars.txt`` lists.
Each call is one JVM (``GameModule`` is a process-wide singleton) under a private Xvfb display, with
a private ``VASSAL.conf`` directory, temp directory and logback configuration, and a watchdog; it
answers with one JSON object. :mod:`tools.vassal_oracle.harness` runs the shared folder's own
harness (set-ups, logs) the same way.

Nothing here is needed at run time by the toolkit itself: it proves our readers and writers
against VASSAL.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol, TextIO

from gazala_tools.errors import GazalaError

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("GAZALA_VASSAL_CACHE", ROOT / ".cache" / "vassal"))
ORACLE_SRC = Path(__file__).resolve().parent / "oracle"
DEBIAN_JAR_DIR = Path("/usr/share/java")

#: The engine the ``vassal`` tests run: ``VASSAL.Info.getVersion()`` of the shared jar, which is
#: also the ``git.version`` in the jar's ``git.properties``.
ENGINE_VERSION = "3.7.26"

#: Debian package of every jar an engine's ``debian-jars.txt`` may name (the packages are in
#: scripts/apt-packages.txt; tests/oracle/test_engine.py checks that both lists cover the file).
DEBIAN_PACKAGES: dict[str, str] = {
    "slf4j-api.jar": "libslf4j-java",
    "logback-classic.jar": "liblogback-java",
    "logback-core.jar": "liblogback-java",
    "commons-lang3.jar": "libcommons-lang3-java",
    "commons-io.jar": "libcommons-io-java",
    "commons-codec.jar": "libcommons-codec-java",
    "miglayout-core.jar": "libmiglayout-java",
    "miglayout-swing.jar": "libmiglayout-java",
    "TimingFramework.jar": "libtimingframework-java",
    "maven-artifact-3.x.jar": "libmaven3-core-java",
    "httpcore5.jar": "libhttpcore5-java",
    "httpcore5-h2.jar": "libhttpcore5-java",
    "httpclient5.jar": "libhttpclient5-java",
    "batik-all.jar": "libbatik-java",
    "xmlgraphics-commons.jar": "libxmlgraphics-commons-java",
    "xml-apis-ext.jar": "libxml-commons-external-java",
    "swingx-core.jar": "libswingx-java",
    "jsoup.jar": "libjsoup-java",
    "asm.jar": "libasm-java",
    "plexus-utils2.jar": "libplexus-utils2-java",
    "gnu-getopt.jar": "libgetopt-java",
    "jl.jar": "libjlayer-java",
    "commons-logging.jar": "libcommons-logging-java",
}

#: the client compiler only (a run is seconds long); the JVM's own warnings (a class-data archive it
#: cannot map, say) on stderr, not in the JSON answer's stdout
JVM_FLAGS = (
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-Xss4m",
    "-Xmx1g",
    "-Djava.awt.headless=false",
    "-Xlog:disable",
    "-Xlog:all=warning:stderr",
)

LOGBACK_XML = """<configuration>
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>{log}</file>
    <encoder><pattern>%d{{HH:mm:ss.SSS}} %-5level %logger{{36}} - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
"""


def shared_dir() -> Path:
    """The shared folder: ``$GAZALA_SHARED``, else ``shared`` beside the repository."""
    return Path(os.environ.get("GAZALA_SHARED", ROOT.parent / "shared")).resolve()


def engine_jar(version: str = ENGINE_VERSION) -> Path:
    """``$GAZALA_VENGINE_JAR``, else the shared ``vassal/VERSION/Vengine-VERSION.jar``."""
    env = os.environ.get("GAZALA_VENGINE_JAR")
    if env and version == ENGINE_VERSION:
        return Path(env).resolve()
    return shared_dir() / "vassal" / version / f"Vengine-{version}.jar"


def debian_jars(jar: Path) -> list[str]:
    """The runtime jars (names in /usr/share/java) listed by ``debian-jars.txt`` beside ``jar``."""
    listing = jar.parent / "debian-jars.txt"
    return [line.strip() for line in listing.read_text(encoding="utf-8").splitlines() if line.strip()]


def _jar_text(jar: Path, member: str) -> str | None:
    """The text of ``member`` of ``jar`` (None when the jar or the member cannot be read)."""
    try:
        with zipfile.ZipFile(jar) as zf:
            return zf.read(member).decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None


def manifest_class_path(jar: Path) -> list[str]:
    """The entries of the ``Class-Path`` of ``jar``'s manifest (none when it has none or cannot be read)."""
    text = _jar_text(jar, "META-INF/MANIFEST.MF")
    if text is None:
        return []
    # a manifest line goes on in the next line that starts with a space
    lines = text.replace("\r\n", "\n").replace("\n ", "").splitlines()
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip().lower() == "class-path":
            return value.split()
    return []


def jar_version(jar: Path) -> str | None:
    """``git.version`` of the engine jar's ``git.properties`` (None when it has none)."""
    text = _jar_text(jar, "git.properties")
    if text is None:
        return None
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "git.version":
            return value.strip()
    return None


@cache
def _sha256(path: Path, size: int, mtime: float) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_sha256(path: Path) -> str:
    st = path.stat()
    return _sha256(path, st.st_size, st.st_mtime)


def missing_requirements(
    jar: Path, *, java: str = "java", javac: str = "javac", programs: Mapping[str, str] | None = None
) -> list[str]:
    """What is missing to run ``jar`` (each item names what to install or set; empty when ready).

    ``programs`` maps further executables to the Debian package that provides them.
    """
    problems: list[str] = []
    packages: list[str] = []

    def need(pkg: str) -> None:
        if pkg not in packages:
            packages.append(pkg)

    if shutil.which(java) is None or shutil.which(javac) is None:
        need("openjdk-17-jdk")
    for program, pkg in (programs or {}).items():
        if shutil.which(program) is None:
            need(pkg)
    listing = jar.parent / "debian-jars.txt"
    if not jar.is_file():
        problems.append(
            f"the VASSAL engine jar {jar} (from the shared folder: ../shared beside the repository, or set GAZALA_SHARED)"
        )
    elif not listing.is_file():
        problems.append(f"{listing}, the engine's list of Debian runtime jars")
    else:
        for name in debian_jars(jar):
            if not (DEBIAN_JAR_DIR / name).is_file():
                package = DEBIAN_PACKAGES.get(name)
                if package is None:
                    problems.append(f"{DEBIAN_JAR_DIR / name} (no known Debian package: see {listing})")
                else:
                    need(package)
    if packages:
        problems.insert(0, "apt-get install -y --no-install-recommends " + " ".join(packages))
    return problems


class EngineError(GazalaError):
    """The VASSAL engine could not be run, timed out, or failed on the input."""


@dataclass(frozen=True)
class Located:
    """What the engine says about one map point (``Map.locationName``, ``snapTo``, ``findBoard``)."""

    map: str
    x: int
    y: int
    location: str
    snap: tuple[int, int]
    board: str | None


class _Xvfb:
    """One private Xvfb server for the life of an :class:`Engine` (display found with -displayfd)."""

    def __init__(self, binary: str) -> None:
        read_fd, write_fd = os.pipe()
        self.proc = subprocess.Popen(
            [binary, "-displayfd", str(write_fd), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        os.close(write_fd)
        number = b""
        timer = threading.Timer(15.0, self.proc.kill)
        timer.start()
        try:
            with os.fdopen(read_fd, "rb") as fh:
                number = fh.readline().strip()
        finally:
            timer.cancel()
        if not number.isdigit():
            self.stop()
            raise EngineError(f"Xvfb ({binary}) did not start", expected="a working X virtual framebuffer")
        self.display = f":{number.decode()}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)


class Engine:
    """Runs the VASSAL engine (3.7.26 by default), one JVM per call. Use :meth:`available` first."""

    def __init__(
        self,
        jar: str | Path | None = None,
        *,
        timeout: float = 180.0,
        cache: str | Path | None = None,
        java: str = "java",
        javac: str = "javac",
        xvfb: str = "Xvfb",
    ) -> None:
        self.cache = Path(cache) if cache is not None else CACHE
        self.jar = Path(jar).resolve() if jar is not None else engine_jar()
        self.timeout = timeout
        self.java, self.javac, self.xvfb = java, javac, xvfb
        self._x: _Xvfb | None = None
        self._lock = threading.Lock()

    # -- availability -----------------------------------------------------------------------------

    def missing(self) -> list[str]:
        """What is missing to run the engine, each naming what to install (empty when ready)."""
        return missing_requirements(self.jar, java=self.java, javac=self.javac, programs={self.xvfb: "xvfb"})

    def available(self) -> tuple[bool, str]:
        """``(True, "")`` when java, Xvfb, the engine jar and its Debian jars are all there."""
        problems = self.missing()
        if problems:
            return False, "VASSAL engine oracle unavailable; install: " + "; ".join(problems)
        return True, ""

    def classpath(self, extra: Sequence[Path] = ()) -> str:
        """The engine jar, the Debian jars of its ``debian-jars.txt``, then ``extra``."""
        return os.pathsep.join(
            str(p) for p in [self.jar, *(DEBIAN_JAR_DIR / j for j in debian_jars(self.jar)), *extra]
        )

    # -- compile ------------------------------------------------------------------------------------

    def sources(self) -> list[Path]:
        return sorted(ORACLE_SRC.rglob("*.java"))

    def compiled(self) -> Path:
        """The oracle's class directory, compiled with javac when its sources (or the jar) change."""
        h = hashlib.sha256()
        for src in self.sources():
            h.update(src.relative_to(ORACLE_SRC).as_posix().encode())
            h.update(src.read_bytes())
        h.update(file_sha256(self.jar).encode())
        out = self.cache / f"oracle-{h.hexdigest()[:16]}"
        if (out / "Oracle.class").is_file():
            return out
        self.cache.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".oracle-", dir=self.cache))
        try:
            cmd = [self.javac, "-nowarn", "-encoding", "UTF-8", "-d", str(tmp), "-cp", self.classpath()]
            proc = subprocess.run(
                [*cmd, *map(str, self.sources())], capture_output=True, text=True, timeout=300, check=False
            )
            if proc.returncode != 0:
                raise EngineError(f"javac failed: {proc.stderr.strip()[-2000:]}", file=ORACLE_SRC)
            try:
                tmp.rename(out)
            except OSError:  # another process won the race
                shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        for old in self.cache.glob("oracle-*"):
            if old != out:
                shutil.rmtree(old, ignore_errors=True)
        log.info("compiled the VASSAL oracle into %s", out)
        return out

    # -- a class-data archive ------------------------------------------------------------------------

    def archive_jars(self) -> list[Path]:
        """The leading jars of the class path a class-data-sharing archive can hold: the engine jar and
        the Debian jars up to the first whose manifest's ``Class-Path`` names a folder (the JVM cannot
        archive a class path that holds a non-empty folder; Debian's ``gnu-getopt.jar`` names ``.``).
        A run's class path starts with them, as an archive's must."""
        jars: list[Path] = []
        for jar in [self.jar, *(DEBIAN_JAR_DIR / j for j in debian_jars(self.jar))]:
            if any(not entry.endswith(".jar") for entry in manifest_class_path(jar)):
                break
            jars.append(jar)
        return jars

    def archive(self) -> Path:
        """Where the class-data archive of this java and :meth:`archive_jars` is (or will be) kept."""
        h = hashlib.sha256()
        java = shutil.which(self.java) or self.java
        for f in [Path(java).resolve(), *self.archive_jars()]:
            st = f.stat() if f.exists() else None
            h.update(f"{f}\0{st.st_size if st else -1}\0{st.st_mtime_ns if st else -1}\n".encode())
        return self.cache / f"classes-{h.hexdigest()[:16]}.jsa"

    def _dump_archive(self, class_list: Path, archive: Path) -> None:
        """Write ``archive`` from the classes a run loaded (``class_list``), atomically; on failure
        a ``.failed`` file beside it (with the JVM's message) stops later runs from trying again."""
        tmp = archive.with_name(f".{archive.name}.{os.getpid()}")
        cmd = [
            self.java,
            "-Xshare:dump",
            "-Xlog:disable",
            "-Xlog:all=error:stderr",
            f"-XX:SharedClassListFile={class_list}",
            f"-XX:SharedArchiveFile={tmp}",
            "-cp",
            os.pathsep.join(map(str, self.archive_jars())),
        ]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
            if proc.returncode == 0 and tmp.is_file():
                os.replace(tmp, archive)
                for old in self.cache.glob("classes-*.jsa*"):
                    if old.name != archive.name:
                        old.unlink(missing_ok=True)
                log.info("wrote the engine's class-data archive %s", archive)
                return
            reason = (proc.stderr or proc.stdout).strip()[-1500:]
        except (OSError, subprocess.TimeoutExpired) as e:
            reason = str(e)
        finally:
            tmp.unlink(missing_ok=True)
        log.warning("no class-data archive for the engine (runs start without one): %s", reason)
        archive.with_name(archive.name + ".failed").write_text(reason + "\n", encoding="utf-8")

    @contextlib.contextmanager
    def _class_sharing(self, priv: Path) -> Iterator[list[str]]:
        """The JVM flags of one run for class data sharing: map the archive when there is one (a JVM
        start loads some 6,000 classes from the jars: 2.2-2.7 s of CPU a run without it, 1.8-1.9 s with
        it); else, when no other process is making it, list the classes this run loads and make the
        archive of them once it ends. The archive changes no class: only where the JVM reads it from."""
        archive = self.archive()
        if archive.is_file():
            yield [f"-XX:SharedArchiveFile={archive}"]
            return
        if archive.with_name(archive.name + ".failed").exists():
            yield []
            return
        self.cache.mkdir(parents=True, exist_ok=True)
        with (self.cache / "classes.lock").open("a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # another process is making it
                yield []
                return
            class_list = priv / "classes.lst"
            yield [f"-XX:DumpLoadedClassList={class_list}"]
            if class_list.is_file() and not archive.is_file():
                self._dump_archive(class_list, archive)

    # -- running ------------------------------------------------------------------------------------

    def _display(self) -> str:
        with self._lock:
            if self._x is None or self._x.proc.poll() is not None:
                self._x = _Xvfb(self.xvfb)
                atexit.register(self.close)
            return self._x.display

    def close(self) -> None:
        """Stop the private Xvfb (also done at interpreter exit)."""
        with self._lock:
            if self._x is not None:
                self._x.stop()
                self._x = None

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, command: str, *args: str | Path) -> dict[str, Any]:
        """Run one oracle command and return its JSON object (raises :class:`EngineError` if not ok)."""
        ok, reason = self.available()
        if not ok:
            raise EngineError(reason)
        classes = self.compiled()
        display = self._display()
        with (
            tempfile.TemporaryDirectory(prefix="gazala-vassal-", ignore_cleanup_errors=True) as private,
            contextlib.ExitStack() as stack,
        ):
            priv = Path(private)
            for sub in ("conf", "tmp", "home"):
                (priv / sub).mkdir()
            logback = priv / "logback.xml"
            logback.write_text(LOGBACK_XML.format(log=priv / "vassal.log"), encoding="utf-8")
            sharing = stack.enter_context(self._class_sharing(priv))
            cmd = [
                self.java,
                *JVM_FLAGS,
                *sharing,
                f"-Doracle.timeout={int(self.timeout)}",
                f"-DVASSAL.conf={priv / 'conf'}",
                f"-Djava.io.tmpdir={priv / 'tmp'}",
                f"-Duser.home={priv / 'home'}",
                f"-Dlogback.configurationFile={logback}",
                "-cp",
                self.classpath([classes]),
                "Oracle",
                command,
                *(str(Path(a).resolve()) if isinstance(a, Path) else a for a in args),
            ]
            env = {k: v for k, v in os.environ.items() if not k.startswith(("JAVA_TOOL", "_JAVA"))}
            env["DISPLAY"] = display
            try:
                proc = subprocess.run(
                    cmd,
                    cwd=priv,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=self.timeout + 30,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                raise EngineError(
                    f"VASSAL oracle '{command}' timed out after {self.timeout + 30:.0f} s"
                ) from None
            result = last_json(proc.stdout)
            if result is None:
                tail = (proc.stderr or "").strip()[-1500:]
                raise EngineError(
                    f"VASSAL oracle '{command}' died (exit {proc.returncode}) without a result: {tail}"
                )
            if not result.get("ok"):
                if result.get("threads"):
                    log.warning(
                        "VASSAL oracle '%s' hung; thread stacks: %s", command, json.dumps(result["threads"])
                    )
                raise EngineError(
                    f"VASSAL oracle '{command}' failed: {result.get('error')}",
                    file=str(args[0]) if args else None,
                )
            return result

    # -- commands -----------------------------------------------------------------------------------

    def module(self, vmod: str | Path) -> dict[str, Any]:
        """Load a module: build errors, dialogs, maps/boards/grids, piece slots, buildFile round trip."""
        return self.run("module", Path(vmod))

    def locate(self, vmod: str | Path, points: Iterable[tuple[str, int, int]]) -> list[Located]:
        """``Map.locationName``/``snapTo``/``findBoard`` for each ``(map, x, y)`` in map coordinates.

        A game is started first (``GameState.setup(true)``), so each map has its default boards; it is not a
        player's new game: at-start stacks and decks are not placed (:meth:`new_game` places them).
        """
        pts = [(str(m), int(x), int(y)) for m, x, y in points]
        return self.locate_raw(vmod, pts)[1]

    def locate_raw(
        self, vmod: str | Path, points: Sequence[tuple[str, int, int]]
    ) -> tuple[dict[str, Any], list[Located]]:
        """As :meth:`locate`, also returning the whole JSON answer (boards in use, dialogs...)."""
        with tempfile.TemporaryDirectory(prefix="gazala-points-", ignore_cleanup_errors=True) as tmp:
            pf = Path(tmp) / "points.tsv"
            for m, _x, _y in points:
                if "\t" in m or "\n" in m:
                    raise EngineError(f"map name {m!r} contains a tab or newline")
            pf.write_text("".join(f"{m}\t{x}\t{y}\n" for m, x, y in points), encoding="utf-8")
            result = self.run("locate", Path(vmod), pf)
        rows = result.pop("points")
        located = [
            Located(m, x, y, row[0], (int(row[1]), int(row[2])), row[3])
            for (m, x, y), row in zip(points, rows, strict=True)
        ]
        return result, located

    def new_game(self, vmod: str | Path, out: str | Path) -> dict[str, Any]:
        """A new game as the player's "New Game" starts one (at-start stacks and decks placed, a map whose
        boards the player would choose given its first), saved to ``out``: its pieces as :meth:`read_save`."""
        return self.run("new-game", Path(vmod), Path(out))

    def read_save(self, vmod: str | Path, vsav: str | Path) -> dict[str, Any]:
        """Decode and execute a save: every piece (id, name, map, x, y, board, location, stack, type, state)."""
        return self.run("read-save", Path(vmod), Path(vsav))

    def write_save(
        self, vmod: str | Path, out: str | Path, placements: Iterable[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """Start a game (``setup(true)``: at-start stacks and decks are **not** placed, so the save holds only
        the pieces placed here; :meth:`new_game` is a player's new game), clone palette pieces and place them,
        and save to ``out``.

        Each placement: ``{"slot": gpid or PieceSlot name, "map": map name, "x": int, "y": int}``,
        optionally ``"snap": true`` (snap to the grid first) and ``"id"`` (piece id).
        """
        with tempfile.TemporaryDirectory(prefix="gazala-place-", ignore_cleanup_errors=True) as tmp:
            pf = Path(tmp) / "placements.json"
            pf.write_text(json.dumps({"pieces": [dict(p) for p in placements]}), encoding="utf-8")
            return self.run("write-save", Path(vmod), Path(out), pf)

    def log_steps(
        self, vmod: str | Path, setup: str, out: str | Path, steps: Iterable[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """Open set-up ``setup`` as a player, make each step as its own logged Step, write ``out`` (.vlog).

        ``setup`` is a set-up's name or ``"#N"`` (the N-th set-up that opens a file). A step is one of:

        - a move, as the shared harness's ``log-moves`` makes it: ``{"piece": id or name}`` and a
          destination: ``"to"`` (a location name such as ``"1521"``), ``"x", "y"`` (map coordinates) or
          ``"dx", "dy"``; optional ``"map"`` (default: the piece's) and ``"snap": true``;
        - the Turn Tracker's "+" button pressed: ``{"turn": "next"}`` (``"prev"``: "-"); optional
          ``"tracker"`` (its name or id, default: the first);
        - a chit drawn from a deck: ``{"draw": deck name, "map": ..., "x": ..., "y": ...}`` (a destination as
          for a move), ``"piece"`` naming the chit ("Draw specific card") or ``"top": true`` (the deck's
          top piece; with neither the deck draws as it would for a player, shuffled if it shuffles),
          dragged out and dropped through the map's ``PieceMover``.

        The answer has ``steps`` (per step: ``step``, ``kind``, ``logged`` (commands logged), and for a
        move or a draw ``piece``, ``name``, ``from``, ``from_xy``, ``to``, ``to_xy`` (a draw also ``deck``,
        ``deck_count_before``, ``deck_count_after``, ``deck_top_before``); for a turn
        ``tracker``, ``from_turn``, ``to_turn``, ``from_state``, ``to_state``), ``logged_commands`` and
        ``written``.
        """
        out_path = Path(out).resolve()
        if not out_path.parent.is_dir():
            raise EngineError("the folder of the log to write does not exist", file=str(out_path))
        with tempfile.TemporaryDirectory(prefix="gazala-steps-", ignore_cleanup_errors=True) as tmp:
            sf = Path(tmp) / "steps.json"
            sf.write_text(json.dumps({"steps": [dict(s) for s in steps]}), encoding="utf-8")
            return self.run("log-steps", Path(vmod), setup, out_path, sf)


class Runnable(Protocol):
    """An engine tool (:class:`Engine`, :class:`tools.vassal_oracle.harness.Harness`)."""

    def available(self) -> tuple[bool, str]: ...


def cannot_run(*tools: Runnable, err: TextIO | None = None) -> bool:
    """True, having said why on ``err`` (stderr), when one of ``tools`` cannot run; the scripts that
    write engine fixtures stop then."""
    for tool in tools:
        ok, reason = tool.available()
        if not ok:
            print(reason, file=err or sys.stderr)
            return True
    return False


#: Dialogs the engine shows in normal operation (not problems): the set-up wizard's "Choose side"
#: page (with its password prompt) and the new-log prompt when a game starts, and the save-comment
#: prompt. A "Version Mismatch" notice (a module made with a newer VASSAL than the engine) is a
#: problem: our modules target VassalVersion 3.6.0, which 3.7.26 loads without one.
ROUTINE_DIALOGS: tuple[tuple[str, str], ...] = (
    ("", "Join game as which side?"),
    ("", "Start new Logfile?"),
    ("Enter File Comments", ""),
)


def is_routine(dialog: Mapping[str, Any]) -> bool:
    """Whether an answer's dialog (``{"title", "text"}``) is one of :data:`ROUTINE_DIALOGS`."""
    title, text = str(dialog.get("title") or ""), str(dialog.get("text") or "")
    return any(title == t and (not snippet or snippet in text) for t, snippet in ROUTINE_DIALOGS)


def problems(result: Mapping[str, Any], *, include_routine: bool = False) -> list[str]:
    """Every dialog text and WARN/ERROR log line of an oracle answer: its build errors and warnings.

    The routine prompts of :data:`ROUTINE_DIALOGS` are left out unless ``include_routine``.
    """
    out: list[str] = []
    for d in result.get("dialogs", []):
        if is_routine(d) and not include_routine:
            continue
        out.append(f"dialog {str(d.get('title') or '')!r}: {d.get('text') or ''}")
    out += [str(line) for line in result.get("log", [])]
    return out


def last_json(stdout: str) -> dict[str, Any] | None:
    """The last line of ``stdout`` that is a JSON object (None when there is none or it is broken)."""
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except json.JSONDecodeError:
                return None
            return value if isinstance(value, dict) else None
    return None
