"""A move generator written in Python, run through a small adapter in a child process.

``--python MODULE:ATTR`` (or ``path/to/file.py:ATTR``) names a callable - usually
a class - that returns an object with::

    set_fen(fen)           # may also accept a `chess960` keyword; with --variant it is
                           # called with `variant=NAME` (atomic, crazyhouse, ...) too
    legal_moves()          # iterable of UCI strings
    push(uci)
    pop()
    fen()                  # optional: lets compare check the whole state

`divide` is a plain perft over those four calls, run inside the child. The hooks are
also exposed one by one, so compare can check the adapter's `fen()` after every push and
pop.

The adapter runs in its own process (``pyhost.py``) in its own process group, like a UCI
engine: whatever it does - print (its stdout goes to its stderr, which chesskit passes
on to its own stderr line by line, never to its stdout), raise any exception, call
``os._exit``, start processes, crash or hang - it is an `EngineError` naming the adapter
and what happened (exit 3), and no process of it outlives the run. With a `timeout`, a
call (or a whole divide) that runs too long has
the process killed; the next call starts a fresh one.
"""

from __future__ import annotations

import io
import json
import os
import selectors
import subprocess
import sys
import threading
import time
from collections import deque

from chesskit.compare.engines.base import UCI_MOVE, Engine, check_depth, one_line, seconds_text
from chesskit.compare.engines.proc import (
    MAX_ANSWER,
    describe_exit,
    kill_group,
    read_lines,
    report_survivors,
    spawn,
    too_much_output,
)
from chesskit.errors import EngineError, EngineNotStarted, InputError

# The folder that holds the chesskit package: the child imports pyhost from there.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# How long starting the adapter (Python, its imports, its constructor) may take at least,
# whatever --timeout says: a small --timeout is meant for the calls, not for the start.
LOAD_TIMEOUT = 30.0
_HOST = "import sys; sys.path.insert(0, sys.argv[1]); from chesskit.compare.engines.pyhost import serve; serve()"


def check_spec(spec: str, option: str = "--python") -> None:
    """Refuse (InputError, exit 2: the option is wrong, not the engine) a ``--python``
    value that does not name a callable, with the form it takes."""
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr:
        example = f"{where or 'myengine.py'}:{attr or 'Adapter'}" if sep else f"{spec or 'myengine.py'}:Adapter"
        raise InputError(
            f"{option} {spec!r} must be MODULE:ATTR or path/to/file.py:ATTR, the callable that makes "
            f"the adapter (such as {example!r})"
        )


class PythonEngine(Engine):
    """A Python move generator behind the set_fen/legal_moves/push/pop adapter."""

    def __init__(self, spec: str, timeout: float | None = None, variant: str = "chess"):
        self.name = spec
        self.timeout = timeout
        self.variant = variant
        self._proc: subprocess.Popen | None = None
        self._buffer = bytearray()
        self._stderr_tail: deque[str] = deque(maxlen=10)
        self._stderr_thread: threading.Thread | None = None
        check_spec(spec)
        try:
            info = self._start()
        except BaseException:
            self._stop()
            raise
        self._has_fen = bool(info["has_fen"])

    # -- the hooks ----------------------------------------------------------------

    def has_fen(self) -> bool:
        return self._has_fen

    def set_fen(self, fen: str, chess960: bool = False) -> None:
        self._request({"op": "set_fen", "fen": fen, "chess960": chess960}, "set_fen()")

    def legal_moves(self) -> list[str]:
        return self._request({"op": "legal_moves"}, "legal_moves()")

    def push(self, uci: str) -> None:
        self._request({"op": "push", "uci": uci}, f"push({uci!r})")

    def pop(self) -> None:
        self._request({"op": "pop"}, "pop()")

    def fen(self) -> str:
        if not self.has_fen():
            raise self.error("has no fen() method")
        return self._request({"op": "fen"}, "fen()")

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        check_depth(depth)
        request = {"op": "divide", "fen": fen, "depth": depth, "moves": list(moves), "chess960": chess960}
        return self._request(request, "the divide")

    def close(self) -> None:
        self._stop()

    # -- the child process ---------------------------------------------------------

    def start(self) -> None:
        if self._proc is None:
            self._start()

    def _start(self) -> dict:
        """Start the host process and load the adapter in it; its answer to ``load``."""
        proc = spawn(
            [sys.executable, "-c", _HOST, _ROOT],
            self.name,
            stdin=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._proc = proc
        self._buffer.clear()
        self._stderr_tail.clear()
        self._stderr_thread = threading.Thread(
            target=_pump_stderr, args=(proc.stderr, self._stderr_tail), daemon=True
        )
        self._stderr_thread.start()
        load = {"op": "load", "spec": self.name, "path": list(sys.path), "uci": UCI_MOVE.pattern}
        if self.variant != "chess":
            load["variant"] = self.variant
        # starting Python and importing the adapter's module get at least LOAD_TIMEOUT
        try:
            return self._request(load, f"{self.name.rpartition(':')[2]}()", start=False, at_least=LOAD_TIMEOUT)
        except EngineNotStarted:
            raise
        except EngineError as err:  # an adapter that does not load never started, as a missing program
            raise EngineNotStarted(str(err)) from None

    def _request(self, request: dict, label: str, start: bool = True, at_least: float = 0.0):
        """Send one request and wait for its answer; every failure is an EngineError."""
        if self._proc is None:
            if not start:  # pragma: no cover - _start sets it
                raise self.error("is not running")
            self._start()
        proc = self._proc
        try:
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise self._died(label) from None
        line = self._read_answer(label, at_least)
        try:
            reply = json.loads(line)
        except ValueError:
            self._stop()
            raise self.error(f"answered {label} with something chesskit cannot read") from None
        if "error" in reply:
            raise self.error(str(reply["error"]) + self._below(request, reply.get("below")))
        return reply.get("ok")

    def _below(self, request: dict, below) -> str:
        """Where under the node asked a divide failed (``below``: the moves the adapter had
        played itself), as the error says it: ``; that was below the position asked, after e1f1
        a6e2 (fen ...)``; nothing where it failed at that node. chesskit makes every call of
        the walk, so it knows the node, which the node asked would not show."""
        if not below or not isinstance(below, list):
            return ""
        from chesskit.compare.engines.base import node_board
        from chesskit.errors import ChesskitError

        moves = [str(move) for move in below]
        where = f"; that was below the position asked, after {' '.join(moves)}"
        try:
            board = node_board(request["fen"], [*request["moves"], *moves], request["chess960"], self.variant)
        except (ChesskitError, ValueError):  # a move chesskit finds illegal: the moves alone
            return where
        return f"{where} (fen {board.shown_fen()})"

    def _read_answer(self, label: str, at_least: float = 0.0) -> bytes:
        """One answer line from the host, within the timeout and MAX_ANSWER bytes."""
        proc = self._proc
        limit = None if self.timeout is None else max(self.timeout, at_least)
        deadline = None if limit is None else time.monotonic() + limit
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                end = self._buffer.find(b"\n")
                if end >= 0:
                    line = bytes(self._buffer[:end])
                    del self._buffer[: end + 1]
                    return line
                if len(self._buffer) > MAX_ANSWER:
                    self._stop()
                    raise self.error(str(too_much_output(label)))
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    self._stop()
                    raise self.error(f"did not finish {label} within {seconds_text(limit)} s")
                if not sel.select(remaining):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise self._died(label)
                self._buffer += chunk

    def _died(self, label: str) -> EngineError:
        """The error for a host that exited (the adapter called os._exit, crashed, ...)."""
        proc = self._proc
        try:
            what = describe_exit(proc.wait(timeout=2))
        except subprocess.TimeoutExpired:
            what = "closed its output"
        self._stop()
        tail = [line for line in self._stderr_tail if line.strip()]
        shown = f"last output: {one_line(tail[-1])!r}" if tail else "it printed nothing"
        return self.error(f"{what} during {label} (its Python process ended); {shown}")

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        kill_group(proc)
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=1)
            if self._stderr_thread.is_alive():
                # a process the adapter started outside its group holds stderr open: closing
                # it would wait for the reader thread for ever; it is left to that thread
                report_survivors(self.name, [proc.stderr])
                return
        try:
            proc.stderr.close()
        except (OSError, ValueError):
            pass

    def __del__(self):  # a dropped engine does not leave its process running
        try:
            self._stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def _pump_stderr(stream, tail: deque) -> None:
    """Pass the host's stderr (the adapter's prints and its own stderr) on to chesskit's
    stderr as it comes, line by line, and keep its last lines in ``tail`` for an error
    message; a function, not a method, so the thread does not keep the engine alive."""
    try:
        for line in read_lines(io.TextIOWrapper(stream, "utf-8", "replace"), truncate=True):
            _echo(line)
            if line.strip():
                tail.append(line)
    except (OSError, ValueError):
        pass


def _echo(line: str) -> None:
    """One line of the adapter's output on chesskit's stderr (whatever sys.stderr is now)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed: the adapter's output is only kept
        pass
