"""A real browser for the report tests: Debian's ``chromium``, headless, driven over the
DevTools protocol on a pipe (``--remote-debugging-pipe``: commands in on fd 3, answers out
on fd 4, each JSON message ended by a NUL byte). No network, no extra Python package.

``browser`` (one per test module) opens pages (``browser.open(path)``): each page records
its console errors, uncaught exceptions, log errors and every request that is not a local
file, evaluates JavaScript, takes screenshots and prints to PDF.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import chess
import pytest

from helpers import ENGINES, missing, pc_perft

TIMEOUT = 30.0  # a command's answer; the first page load of a cold browser takes a few seconds
LOCAL = ("file:", "data:", "about:", "blob:")


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    def __init__(self, exe: str, profile: Path):
        cmd_read, self._cmd = os.pipe()  # we write commands, chromium reads fd 3
        self._out, out_write = os.pipe()  # chromium writes fd 4, we read
        # copies above the low fds, so that dup2 onto 3 and 4 in the child clobbers nothing
        child_in = fcntl.fcntl(cmd_read, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(out_write, fcntl.F_DUPFD_CLOEXEC, 10)

        def to_fds_3_and_4() -> None:
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.proc = subprocess.Popen(
            [
                exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--hide-scrollbars", "--mute-audio", "--force-device-scale-factor=1", "about:blank",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=to_fds_3_and_4, close_fds=False, start_new_session=True,
        )  # fmt: skip
        for fd in (cmd_read, out_write, child_in, child_out):
            os.close(fd)
        self._buffer = b""
        self._id = 0
        self.events: list[dict] = []

    def _message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._out, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._cmd, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            answer = self._message(deadline)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_event(self, method: str, session: str) -> dict:
        deadline = time.monotonic() + TIMEOUT
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._message(deadline))

    def open(self, path: Path, dark: bool = False, width: int = 1200, height: int = 900) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable", session=session)
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.send("Emulation.setDeviceMetricsOverride", metrics, session)
        scheme = {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}
        self.send("Emulation.setEmulatedMedia", {"features": [scheme]}, session)
        self.send("Page.navigate", {"url": Path(path).resolve().as_uri()}, session)
        self.wait_event("Page.loadEventFired", session)
        return Page(self, target, session)

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (OSError, EOFError, TimeoutError, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        try:  # its renderer and zygote helpers too
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        os.close(self._cmd)
        os.close(self._out)


class Page:
    def __init__(self, browser: Browser, target: str, session: str):
        self.browser, self.target, self.session = browser, target, session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def eval(self, expression: str):
        answer = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, log errors and requests for
        anything but a local file, since the page was opened (the page's own file aside)."""
        self.eval("0")  # let pending events arrive before they are read
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                found.append(f"console {params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params.get('exceptionDetails')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                found.append(f"log: {params['entry'].get('text')}")
            elif method == "Network.requestWillBeSent" and not params["request"]["url"].startswith(LOCAL):
                found.append(f"request: {params['request']['url']}")
            elif method == "Network.loadingFailed":
                found.append(f"failed load: {params.get('errorText')}")
        return found

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])
        Path(path).write_bytes(data)
        return data

    def pdf(self) -> bytes:
        return base64.b64decode(self.send("Page.printToPDF", {"printBackground": False})["data"])

    def close(self) -> None:
        self.browser.send("Target.closeTarget", {"targetId": self.target})


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    exe = chromium_path()
    if exe is None:
        missing("a Chromium browser (chromium)", "apt-get install chromium (Debian)")
    started = Browser(exe, tmp_path_factory.mktemp("chromium-profile"))
    try:
        started.send("Browser.getVersion")
        yield started
    finally:
        started.close()


# ------------------------------------------------------------------ the reports under test

EP_BELOW = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"  # f7f5, then e5f6 e.p.
BARE_KINGS = "8/8/8/8/8/8/8/k6K w - - 0 1"


@dataclass
class Reports:
    folder: Path
    compare: Path  # compare EP_BELOW 2 against bug_no_ep: path f7f5, e5f6 missing
    compare_result: object
    suite: Path  # a mismatch (EP_BELOW), a pass (BARE_KINGS), a line that cannot be run
    suite_result: object
    suite_file: Path


def _run(*args: str):
    from click.testing import CliRunner

    from chesskit.cli.main import main

    return CliRunner().invoke(main, list(args), prog_name="chesskit")


@pytest.fixture(scope="session")
def reports(tmp_path_factory) -> Reports:
    """The compare and suite reports, written once by the CLI against the engine that never
    generates en passant; the suite's counts are python-chess's."""
    folder = tmp_path_factory.mktemp("reports")
    script = str(ENGINES / "bug_no_ep.py")
    compare = folder / "compare.html"
    compare_result = _run("compare", EP_BELOW, "2", "--script", script, "--html", str(compare))
    suite_file = folder / "tiny.epd"
    lines = [
        f"{EP_BELOW} ;D1 {pc_perft(chess.Board(EP_BELOW), 1)} ;D2 {pc_perft(chess.Board(EP_BELOW), 2)} ;id \"ep-below\" ;tags \"ep ep-capture\"",
        f"{BARE_KINGS} ;D1 {pc_perft(chess.Board(BARE_KINGS), 1)} ;id \"bare-kings\"",
        "this is not a FEN ;D1 1 ;id \"broken\"",
    ]
    suite_file.write_text("\n".join(lines) + "\n")
    suite = folder / "suite.html"
    suite_result = _run("suite", str(suite_file), "--script", script, "--html", str(suite))
    return Reports(folder, compare, compare_result, suite, suite_result, suite_file)
