"""The child process that runs a Python adapter for ``PythonEngine`` (``pyadapter.py``).

The adapter is the user's code: it may print, call ``os._exit``, start processes, raise
anything (a ``BaseException`` subclass, ``SystemExit``, an exception whose ``str()``
raises), exhaust memory or crash the interpreter. Run here, in its own process group,
none of that can reach chesskit: its prints go to this process's stderr (fd 1 is pointed
at fd 2), anything it raises is one error answer, and when this process dies or hangs
chesskit reports the engine as failed (exit 3) and kills the whole group.

The protocol: one JSON object per line on stdin, one answer per line on the private
descriptor that was stdout when the process started::

    > {"op": "load", "spec": "eng.py:Adapter", "path": [...], "uci": "<move regex>"}
    < {"ok": {"has_fen": true, "chess960": true}}
    > {"op": "divide", "fen": "...", "depth": 3, "moves": [], "chess960": false}
    < {"ok": {"e2e4": 600, ...}}
    > {"op": "push", "uci": "e2e4"}
    < {"error": "raised ValueError in push('e2e4'): ..."}
    < {"error": "raised ValueError in legal_moves(): ...", "below": ["e2e4", "e7e5"]}

A divide's error says ``below``: the moves it had played itself under the node asked.

Ops: ``load``, ``set_fen``, ``legal_moves``, ``push``, ``pop``, ``fen``, ``divide``. An
error answer holds the text that follows ``engine '<name>' `` in the message.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import inspect
import itertools
import json
import os
import re
import sys

from chesskit.compare.engines.base import NULL_MOVE, add_divide_entry, normalise_move, one_line
from chesskit.variants import a_position

REQUIRED = ("set_fen", "legal_moves", "push", "pop")
# No chess position has more than 218 legal moves: a longer list is the adapter's bug
# (and is not read to its end, however long it is).
MAX_LIST = 1000


class Failure(Exception):
    """An answer that is an error: ``str()`` follows ``engine '<name>' ``. ``below``: the
    moves a divide had played itself under the node it was asked about when it failed."""

    below: list[str] = []


def describe(exc: BaseException) -> str:
    """``str(exc)`` on one line, even when ``str()`` itself raises."""
    try:
        text = one_line(exc)
    except BaseException:  # noqa: BLE001 - the adapter's __str__ is user code too
        return "(its message cannot be shown: str() failed)"
    return text or "(no message)"


def call(fn, label: str, *args, **kwargs):
    """``fn(*args, **kwargs)``; whatever it raises becomes a Failure naming ``label``."""
    try:
        return fn(*args, **kwargs)
    except Failure:
        raise
    except BaseException as exc:  # noqa: BLE001 - any adapter failure is an answer, not our exit
        raise Failure(f"raised {type(exc).__name__} in {label}: {describe(exc)}") from None


class Host:
    def __init__(self):
        self.adapter = None
        self.uci = None
        self.fen_method = None
        self.takes_chess960 = False
        self.variant = "chess"

    # -- loading ------------------------------------------------------------------

    def load(self, spec: str, path: list[str], uci: str, variant: str = "chess") -> dict:
        self.uci = re.compile(uci)
        sys.path[:] = list(path)
        factory = _load(spec)
        self.adapter = call(factory, f"{spec.rpartition(':')[2]}()")
        missing = [m for m in REQUIRED if not callable(getattr(self.adapter, m, None))]
        if missing:
            raise Failure(
                f"returned an object without {', '.join(missing)}() (type {type(self.adapter).__name__})"
            )
        fen = getattr(self.adapter, "fen", None)
        self.fen_method = fen if callable(fen) else None
        self.takes_chess960 = _accepts_keyword(self.adapter.set_fen, "chess960")
        self.variant = variant
        if variant != "chess" and not _accepts_keyword(self.adapter.set_fen, "variant"):
            raise Failure(f"cannot be given {a_position(variant)}: its set_fen() takes no 'variant' keyword")
        return {"has_fen": self.fen_method is not None, "chess960": self.takes_chess960}

    # -- the hooks ----------------------------------------------------------------

    def set_fen(self, fen: str, chess960: bool = False) -> None:
        extra = {} if self.variant == "chess" else {"variant": self.variant}
        if self.takes_chess960:
            call(self.adapter.set_fen, f"set_fen({fen!r})", fen, chess960=chess960, **extra)
        else:
            call(self.adapter.set_fen, f"set_fen({fen!r})", fen, **extra)

    def legal_moves(self) -> list[str]:
        moves = call(lambda: list(itertools.islice(self.adapter.legal_moves(), MAX_LIST + 1)), "legal_moves()")
        if len(moves) > MAX_LIST:
            raise Failure(f"legal_moves() returned more than {MAX_LIST} moves (a position has at most 218)")
        plain = []
        for move in moves:
            if not isinstance(move, str) or not (self.uci.fullmatch(move) or move == NULL_MOVE):
                shown = call(repr, "legal_moves() (the repr() of what it returned)", move)
                raise Failure(f"legal_moves() returned {one_line(shown)}, which is not a UCI move string")
            plain.append(normalise_move(str.lower(move)))  # a plain str, whatever its class
        return plain

    def push(self, uci: str) -> None:
        call(self.adapter.push, f"push({uci!r})", uci)

    def pop(self) -> None:
        call(self.adapter.pop, "pop()")

    def fen(self) -> str:
        if self.fen_method is None:
            raise Failure("has no fen() method")
        text = call(self.fen_method, "fen()")
        if not isinstance(text, str):
            raise Failure(f"fen() returned {one_line(call(repr, 'fen() (the repr() of what it returned)', text))}, not a string")
        return text

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        self.set_fen(fen, chess960)
        for move in moves:
            self.push(move)
        walk: list[str] = []  # the moves played below the node asked: where a failure is
        try:
            result: dict[str, int] = {}
            for move in self.legal_moves():  # a move listed twice or 0000: kept, see add_divide_entry
                if depth == 1:
                    add_divide_entry(result, move, 1)
                    continue
                self._played(move, walk)
                add_divide_entry(result, move, self._perft(depth - 1, walk))
                self._undone(walk)
            return result
        except Failure as failure:
            failure.below = list(walk)
            raise

    def _perft(self, depth: int, walk: list[str]) -> int:
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self._played(move, walk)
            total += self._perft(depth - 1, walk)
            self._undone(walk)
        return total

    def _played(self, move: str, walk: list[str]) -> None:
        self.push(move)
        walk.append(move)

    def _undone(self, walk: list[str]) -> None:
        self.pop()
        walk.pop()

    # -- the loop -----------------------------------------------------------------

    def answer(self, request: dict):
        op = request["op"]
        args = {k: v for k, v in request.items() if k != "op"}
        if op == "load":
            return self.load(**args)
        if op in ("set_fen", "legal_moves", "push", "pop", "fen", "divide"):
            return getattr(self, op)(**args)
        raise Failure(f"(chesskit sent an unknown request {op!r})")


def _load(spec: str):
    """The attribute named by `module:attr` or `path/to/file.py:attr`."""
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr:
        raise Failure("must be MODULE:ATTR or path/to/file.py:ATTR")
    try:
        if where.endswith(".py") or os.sep in where or os.path.isfile(where):
            module = _import_file(where)
        else:
            if os.getcwd() not in sys.path:
                sys.path.append(os.getcwd())
            module = importlib.import_module(where)
    except Failure:
        raise
    except BaseException as exc:  # noqa: BLE001 - the user's module failed to import
        raise Failure(f"could not be imported: {type(exc).__name__}: {describe(exc)}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise Failure(f"was not found: module {where!r} has no attribute {attr!r}")
    if not callable(factory):
        raise Failure(f"is not callable ({attr} is of type {type(factory).__name__})")
    return factory


def _import_file(path: str):
    """Import a .py file by path; its directory goes on sys.path for its own imports."""
    if os.path.isdir(path):
        raise Failure(f"is not a Python file ({path!r} is a directory: give FILE.py:ATTR or MODULE:ATTR)")
    if not os.path.isfile(path):
        raise Failure(f"was not found (no such file {path!r})")
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = os.path.splitext(os.path.basename(path))[0]
    if name in sys.modules:  # a module of that name is loaded already (chesskit's own?)
        name = f"_chesskit_adapter_{name}"
    # read as Python source whatever its name ends with: a perftree script named
    # `perftree` is an adapter too (without a loader there is no spec for it)
    loader = importlib.machinery.SourceFileLoader(name, path)
    module_spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module


def _accepts_keyword(fn, keyword: str) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except BaseException:  # noqa: BLE001 - a signature is user code too (__signature__)
        return False
    return any(p.name == keyword or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def serve() -> None:
    """Answer requests from stdin until it closes. The adapter's prints go to stderr."""
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # whatever writes to fd 1 (print, C code, a child) lands on stderr
    sys.stdout = sys.stderr
    requests = sys.stdin.buffer
    host = Host()
    while True:
        line = requests.readline()
        if not line:
            return
        try:
            reply = {"ok": host.answer(json.loads(line))}
        except Failure as failure:
            reply = {"error": str(failure)}
            if failure.below:
                reply["below"] = failure.below
        try:
            text = json.dumps(reply)
        except (TypeError, ValueError) as exc:
            text = json.dumps({"error": f"answered with something chesskit cannot read: {describe(exc)}"})
        answers.write(text + "\n")
        answers.flush()


if __name__ == "__main__":
    serve()
