"""The ``gazala`` command: ``gazala <noun> <verb> [options]``.

Each noun is a module in this package that defines ``NOUN`` (its name), ``HELP`` and
``register(subparsers)``; nouns are discovered automatically, so adding one touches no other file.
The CLI owns output and exit codes:

* bad input (a :class:`~gazala_tools.errors.GazalaError`, or a usage error) is one line on stderr
  naming the file, the place and what was expected, and exit status 2; with ``--json`` the same is
  also printed on stdout as ``{"error": {"file", "place", "expected", "message"}}``;
* anything else is a bug: one line (the exception, "please report") and exit status 3, never a
  traceback (``GAZALA_DEBUG=1`` shows it);
* Ctrl-C, SIGTERM and SIGHUP stop cleanly (exit 130 / 143 / 129) with one line on stderr (``gazala: interrupted``,
  ``gazala: stopped by SIGTERM`` / ``SIGHUP``); outputs being written are discarded whole;
* stdout or stderr that cannot be written ends the command cleanly: a reader that went away (``| head -1``)
  exits 141 (as a program killed by SIGPIPE) with nothing more said, a full disk (``> /dev/full``) exits 2
  with one line; text on them carries no control character of an input (:mod:`._streams`), JSON stays exact.

Each command runs in a :func:`~gazala_tools.fileio.command_scope`: the inputs its command line names
(:data:`INPUT_ARGS`: files, and folders whole) are declared before it starts, every input it reads is
recorded, and no output may be written over any of them or inside any input folder (one rule, in
:mod:`gazala_tools.fileio`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import json
import logging
import os
import pkgutil
import signal
import sys
import traceback
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any, NoReturn

from gazala_tools import __version__
from gazala_tools.cli._streams import Stream, StreamClosed, silence
from gazala_tools.errors import GazalaError
from gazala_tools.fileio import command_scope
from gazala_tools.rules import plugins_allowed

__all__ = [
    "REPORT_URL",
    "GazalaError",
    "UsageError",
    "build_parser",
    "check_stop",
    "command_scope",
    "main",
    "plugins_allowed",
    "run",
]

REPORT_URL = "https://github.com/gazala-tools/gazala-tools/issues"

#: the argument names (argparse ``dest``) of every verb whose values are inputs: a game (id, folder or
#: game.yaml), a module (.vmod, module folder or buildFile), a save, a scan, a data YAML, a watched folder.
#: Outputs are ``output``, ``out_dir``, ``map_out`` and ``folder`` (the new folder of ``game new/import``).
INPUT_ARGS = ("game", "module", "source", "input", "before", "save", "a", "b", "image", "grid", "legend",
              "mapping", "map")


def declare_inputs(args: argparse.Namespace) -> None:
    """Declare the inputs the command line names (:data:`INPUT_ARGS`): a folder as an input folder (no
    output inside it), a file as an input file (a game id is declared by the registry when it is read)."""
    from gazala_tools.fileio import declare_inputs as declare

    for name in INPUT_ARGS:
        value = getattr(args, name, None)
        if isinstance(value, str) and value:
            declare(value)


class UsageError(GazalaError):
    """A command line that does not parse."""

    def message(self) -> str:
        return f"{self.place}: {self.problem} (see `{self.place} --help`)"

    def line(self) -> str:
        """The line printed on stderr: argparse's ``PROG: error: PROBLEM``, the command named once."""
        return f"{self.place}: error: {self.problem} (see `{self.place} --help`)"


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors raised as one-line :class:`UsageError` instead of printed."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, place=self.prog, expected="a command line as `--help` shows")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gazala",
        description="Hex-and-counter wargame tools for VASSAL: modules, referee, counter sheets.",
    )
    parser.add_argument("--version", action="version", version=f"gazala-tools {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    nouns = parser.add_subparsers(dest="noun", metavar="NOUN", required=True, parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is None:
            continue
        sub = nouns.add_parser(module.NOUN, help=module.HELP, description=module.HELP)
        register(sub)
    return parser


def _log_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: Any = None, line: str | None = None) -> None:
    """A Python warning of a library (Pillow's ``UserWarning`` on a palette image with transparency) is
    no message for the user: logged (shown with ``-v``), never printed with its source path."""
    text = " ".join(str(message).split())[:300]
    logging.getLogger("gazala_tools").info("note: %s: %s", category.__name__, text)


def _wants_json(argv: Sequence[str], args: argparse.Namespace | None) -> bool:
    if args is not None:
        return bool(getattr(args, "json", False)) or getattr(args, "format", None) == "json"
    return "--json" in argv or "--format=json" in argv


def _error_json(exc: GazalaError) -> str:
    return json.dumps({"error": {"file": exc.file, "place": exc.place, "expected": exc.expected,
                                 "message": exc.message()}})


#: the stop signals received by the command in progress (``stop_requested``)
_STOPS: list[int] = []


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    _STOPS.append(signum)
    raise SystemExit(128 + signum)


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _STOPS.append(signum)
    raise KeyboardInterrupt


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def check_stop() -> None:
    """Stop now if a stop signal came, even when its exception was lost on the way (raised inside a
    library that turned it into another error, or in a finalizer, where Python ignores it): a long
    loop (``referee watch``) calls this between files."""
    if _STOPS:
        if _STOPS[0] == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + _STOPS[0])


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | None = None
    _STOPS.clear()
    handlers = _Handlers.install()
    raw_out, raw_err = sys.stdout, sys.stderr
    out = Stream(raw_out, "standard output", strip=not _wants_json(argv, None))
    sys.stdout, sys.stderr = out, Stream(raw_err, "standard error", keep_cr=True)
    try:
        with command_scope(), warnings.catch_warnings():
            warnings.showwarning = _log_warning  # no Python warning text on stderr (issue 31 item 8)
            args = build_parser().parse_args(argv)
            out.strip = not _wants_json(argv, args)  # JSON exact; text safe for a terminal
            declare_inputs(args)
            logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
            with plugins_allowed(bool(getattr(args, "allow_plugin", False))):  # --allow-plugin (docs/games.md)
                result = args.func(args)
            sys.stdout.flush()  # a full disk shows at the flush: still this command's to report
        return int(result or 0)
    except GazalaError as exc:
        return _bad_input(exc, _wants_json(argv, args))
    except StreamClosed as exc:
        return _closed(exc)
    except KeyboardInterrupt:
        print("gazala: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exc:
        code = _exit_status(exc)
        if code is None:
            raise
        return code
    except Exception as exc:  # a bug, not bad input: one line, exit 3
        return _internal_error(exc)
    finally:
        _flush_streams()
        sys.stdout, sys.stderr = raw_out, raw_err
        handlers.restore()


@dataclass
class _Handlers:
    """The signal handlers a command replaced (None: left as they were), put back when it ends."""

    term: Any = None
    hangup: Any = None
    interrupt: Any = None

    @classmethod
    def install(cls) -> _Handlers:
        """Stop cleanly on SIGTERM, SIGHUP and SIGINT (unless SIGINT is ignored)."""
        handlers = cls()
        try:
            handlers.term = signal.signal(signal.SIGTERM, _on_sigterm)
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when SIGINT is ignored
                handlers.interrupt = signal.signal(signal.SIGINT, _on_sigint)
            if hasattr(signal, "SIGHUP"):  # a closed terminal: stop as cleanly as SIGTERM (temporary files removed)
                handlers.hangup = signal.signal(signal.SIGHUP, _on_sigterm)
        except ValueError:  # not the main thread (tests calling main() from a worker): keep the default
            handlers.term = None
        return handlers

    def restore(self) -> None:
        if self.term is not None:
            signal.signal(signal.SIGTERM, self.term)
        if self.hangup is not None:
            signal.signal(signal.SIGHUP, self.hangup)
        if self.interrupt is not None:
            signal.signal(signal.SIGINT, self.interrupt)


def _bad_input(exc: GazalaError, as_json: bool) -> int:
    """Bad input: one line on stderr (and the error as JSON on stdout with ``--json``), exit 2."""
    with contextlib.suppress(StreamClosed):
        if as_json:
            print(_error_json(exc))
            sys.stdout.flush()
    with contextlib.suppress(StreamClosed):
        print(exc.line() if isinstance(exc, UsageError) else f"gazala: error: {exc}", file=sys.stderr)
    return 2


def _exit_status(exc: SystemExit) -> int | None:
    """The status of a command that exited: a stop signal's (SIGTERM 143, SIGHUP 129, one line said), or 0
    (``--help``, ``--version``); None for any other exit (raised on)."""
    if isinstance(exc.code, int) and exc.code >= 128:  # a stop signal (SIGTERM 143, SIGHUP 129): one line
        with contextlib.suppress(OSError):  # a hung-up terminal may take no more output
            print(f"gazala: stopped by {_signal_name(exc.code - 128)}", file=sys.stderr)
        return exc.code
    if exc.code in (0, None):  # --help, --version: their text may not fit either
        try:
            sys.stdout.flush()
        except StreamClosed as closed:
            return _closed(closed)
        return 0
    return None


def _internal_error(exc: Exception) -> int:
    """A bug, not bad input: one line (the traceback with ``GAZALA_DEBUG=1``), exit 3."""
    if os.environ.get("GAZALA_DEBUG"):
        traceback.print_exc()
    text = " ".join(str(exc).split())[:300]
    print(f"gazala: internal error: {type(exc).__name__}: {text} (please report this at {REPORT_URL}, "
          "with the command and its input; GAZALA_DEBUG=1 shows the traceback)", file=sys.stderr)
    return 3


def _flush_streams() -> None:
    """Flush what the messages left buffered on the command's stdout and stderr; a stream that failed is
    silenced."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, Stream):
            with contextlib.suppress(StreamClosed):
                stream.flush()
            if stream.failed:
                silence(stream)


def _closed(exc: StreamClosed) -> int:
    """The exit of a command whose stdout or stderr could not be written: a reader that went away (``| head
    -1``) ends it as SIGPIPE would, silently (141); any other failure (a full disk) is one line, exit 2."""
    silence(exc.stream)
    if exc.errno == errno.EPIPE:
        return 128 + signal.SIGPIPE
    with contextlib.suppress(StreamClosed):
        print(f"gazala: error: {exc}", file=sys.stderr)
    return 2


def run() -> None:
    """The ``gazala`` command: :func:`main`, then exit with its status.

    An interrupted command exits 130 through ``os._exit`` (after flushing its output): CPython kills
    itself with SIGINT at exit when a KeyboardInterrupt once escaped code it ran through
    ``PyRun_String`` (an import that was interrupted), even though :func:`main` handled the interrupt,
    so the status would depend on where Ctrl-C landed."""
    code = main()
    if code == 130:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(130)
    sys.exit(code)


if __name__ == "__main__":
    run()
