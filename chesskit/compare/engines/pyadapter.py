"""A move generator written in Python, loaded in-process through a small adapter.

``--python MODULE:ATTR`` (or ``path/to/file.py:ATTR``) names a callable - usually
a class - that returns an object with::

    set_fen(fen)           # may also accept a `chess960` keyword
    legal_moves()          # iterable of UCI strings
    push(uci)
    pop()
    fen()                  # optional: lets compare check the whole state

`divide` is a plain perft over those four calls.  The hooks are also exposed
one by one, so compare can check the adapter's `fen()` after every push and pop.
Anything the adapter raises becomes an `EngineError` naming the adapter, the
call and the exception; with a `timeout`, a call that runs too long is
interrupted (SIGALRM, main thread on POSIX only; elsewhere the limit is checked
between calls).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

from chesskit.compare.engines.base import UCI_MOVE, Engine, add_divide_entry, check_depth, normalise_move, one_line
from chesskit.errors import EngineError

REQUIRED = ("set_fen", "legal_moves", "push", "pop")


class _Timeout(BaseException):
    """Raised by the alarm inside the adapter; BaseException so `except Exception` cannot eat it."""


class PythonEngine(Engine):
    """A Python move generator behind the set_fen/legal_moves/push/pop adapter."""

    def __init__(self, spec: str, timeout: float | None = None):
        self.name = spec
        self.timeout = timeout
        factory = _load(spec)
        self.adapter = self._call(factory, f"{spec.rpartition(':')[2]}()")
        missing = [m for m in REQUIRED if not callable(getattr(self.adapter, m, None))]
        if missing:
            raise self.error(f"returned an object without {', '.join(missing)}() (type {type(self.adapter).__name__})")
        self._fen_method = getattr(self.adapter, "fen", None)
        self._takes_chess960 = _accepts_keyword(self.adapter.set_fen, "chess960")

    # -- the hooks, each turning the adapter's exceptions into EngineError -----

    def has_fen(self) -> bool:
        return callable(self._fen_method)

    def set_fen(self, fen: str, chess960: bool = False) -> None:
        if self._takes_chess960:
            self._call(self.adapter.set_fen, f"set_fen({fen!r})", fen, chess960=chess960)
        else:
            self._call(self.adapter.set_fen, f"set_fen({fen!r})", fen)

    def legal_moves(self) -> list[str]:
        moves = self._call(lambda: list(self.adapter.legal_moves()), "legal_moves()")
        for move in moves:
            if not isinstance(move, str) or not UCI_MOVE.fullmatch(move):
                raise self.error(f"legal_moves() returned {move!r}, which is not a UCI move string")
        return [normalise_move(move) for move in moves]

    def push(self, uci: str) -> None:
        self._call(self.adapter.push, f"push({uci!r})", uci)

    def pop(self) -> None:
        self._call(self.adapter.pop, "pop()")

    def fen(self) -> str:
        if not self.has_fen():
            raise self.error("has no fen() method")
        text = self._call(self._fen_method, "fen()")
        if not isinstance(text, str):
            raise self.error(f"fen() returned {text!r}, not a string")
        return text

    # -- divide ---------------------------------------------------------------

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        check_depth(depth)
        self._deadline = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            self.set_fen(fen, chess960)
            for move in moves:
                self.push(move)
            result: dict[str, int] = {}
            for move in self.legal_moves():
                if depth == 1:
                    add_divide_entry(self, result, move, 1)
                    continue
                self.push(move)
                add_divide_entry(self, result, move, self._perft(depth - 1))
                self.pop()
            return result
        finally:
            self._deadline = None

    def _perft(self, depth: int) -> int:
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self.push(move)
            total += self._perft(depth - 1)
            self.pop()
        return total

    # -- calling into the adapter ---------------------------------------------

    _deadline: float | None = None

    def _call(self, fn, label: str, *args, **kwargs):
        """`fn(*args, **kwargs)` with the adapter's failures turned into EngineError."""
        limit = self.timeout
        if self._deadline is not None:
            limit = self._deadline - time.monotonic()
            if limit <= 0:
                raise self._timed_out("the divide")
        try:
            with _alarm(limit):
                return fn(*args, **kwargs)
        except _Timeout:
            raise self._timed_out("the divide" if self._deadline is not None else label) from None
        except EngineError:
            raise
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - any adapter failure is reported, not propagated
            raise self.error(f"raised {type(exc).__name__} in {label}: {one_line(exc) or '(no message)'}") from None

    def _timed_out(self, what: str) -> EngineError:
        self._deadline = None
        return self.error(f"did not finish {what} within {self.timeout:g} s")


def _load(spec: str):
    """The attribute named by `module:attr` or `path/to/file.py:attr`."""
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr:
        raise EngineError(f"python engine {spec!r} must be MODULE:ATTR or path/to/file.py:ATTR")
    try:
        if where.endswith(".py") or os.sep in where or os.path.isfile(where):
            module = _import_file(where, spec)
        else:
            if os.getcwd() not in sys.path:
                sys.path.append(os.getcwd())
            module = importlib.import_module(where)
    except EngineError:
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's module failed to import
        raise EngineError(f"engine {spec!r} could not be imported: {type(exc).__name__}: {one_line(exc)}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise EngineError(f"engine {spec!r} was not found: module {where!r} has no attribute {attr!r}")
    if not callable(factory):
        raise EngineError(f"engine {spec!r} is not callable ({attr} is of type {type(factory).__name__})")
    return factory


def _import_file(path: str, spec: str):
    """Import a .py file by path; its directory goes on sys.path for its own imports."""
    if not os.path.isfile(path):
        raise EngineError(f"engine {spec!r} was not found (no such file {path!r})")
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    loaded = sys.modules.get(stem)
    if loaded is not None and os.path.abspath(getattr(loaded, "__file__", "") or "") == path:
        return loaded
    name = stem if loaded is None else f"_chesskit_adapter_{abs(hash(path))}_{stem}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _accepts_keyword(fn, keyword: str) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == keyword or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


@contextmanager
def _alarm(seconds: float | None):
    """Raise _Timeout in the running code after `seconds` (POSIX main thread only)."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def ring(signum, frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
