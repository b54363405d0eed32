"""Headless Chromium driven over ``--remote-debugging-pipe`` (the DevTools protocol, standard library
only): one browser opens many pages, each checked in a few tens of milliseconds
(:meth:`Chromium.open`), for the ``html-report`` fuzz target's browser stage.

Chromium reads commands on its fd 3 and writes replies and events on its fd 4, each a JSON
message ended by a NUL byte.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio",
         "--disable-extensions", "--disable-default-apps"]
#: what a page tells after it loaded: its title, the elements a payload would add, its scripts
PROBE = ("JSON.stringify({title: document.title, "
         "pwned: document.querySelectorAll('[data-pwned], pwned, iframe, img, object, embed').length, "
         "scripts: document.scripts.length})")


class BrowserError(Exception):
    """Chromium did not answer as the protocol says (not a finding about a page)."""


def executable() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Chromium:
    """``with Chromium() as b: b.open(page)`` -> what :data:`PROBE` found, plus the CSP violations."""

    def __init__(self, exe: str | None = None, *, timeout: float = 30.0) -> None:
        exe = exe or executable()
        if exe is None:
            raise BrowserError("chromium not installed (scripts/apt-packages.txt lists it)")
        self.timeout = timeout
        self.profile = Path(tempfile.mkdtemp(prefix="gazala-chromium-"))
        to_r, to_w = os.pipe()  # we write commands -> its fd 3
        from_r, from_w = os.pipe()  # its fd 4 -> we read

        def fds() -> None:  # in the child: our pipe ends as its fds 3 and 4 (via fds >= 10: no clash)
            a, b = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4), close_fds=True)
        os.close(to_r)
        os.close(from_w)
        self.w, self.r = to_w, from_r
        self.buf = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Log.enable", "Runtime.enable"):
            self.call(domain, session=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for fd in (self.w, self.r):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    # --- the protocol -----------------------------------------------------------------------------
    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise BrowserError("chromium did not answer in time")
            chunk = os.read(self.r, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed its pipe")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, params: dict[str, Any] | None = None, *, session: bool = False) -> dict[str, Any]:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            if "method" in reply:
                self.events.append(reply)

    def _wait_event(self, method: str) -> None:
        deadline = time.monotonic() + self.timeout
        while not any(e["method"] == method for e in self.events):
            self.events.append(self._message(deadline))

    def open(self, page: Path) -> dict[str, Any]:
        """Load ``page``, let it run, and report ``title``, ``pwned`` (elements a payload adds),
        ``scripts`` and ``csp`` (the policy violations the browser logged: something in the page
        tried to run or load)."""
        self.events.clear()
        self.call("Page.navigate", {"url": page.resolve().as_uri()}, session=True)
        self._wait_event("Page.loadEventFired")
        result = self.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=True)
        found: dict[str, Any] = json.loads(result["result"]["value"])
        found["csp"] = sum(1 for e in self.events if e["method"] == "Log.entryAdded"
                           and "Content Security Policy" in e["params"]["entry"].get("text", ""))
        return found
