"""An engine over many positions: one position's engine failure is that position's result.

``Clocked`` bounds each answer of the engine by what is left of one position's time
(``--position-timeout``) on top of the engine's own per-answer ``--timeout``; past it the
engine is stopped and the error says so. ``EngineFailure`` is what a suite or a fuzz run
keeps of an ``EngineError`` (why, on which count, at which node of compare's descent),
and ``restart`` closes the engine, its whole process group killed and reaped, so the
next position starts a fresh process (every back end starts one on its next question;
``start_again`` starts it before the position's clock does).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

from chesskit.errors import EngineError, EngineNotStarted, InputError
from chesskit.typed import plain_float

# The engine's methods that ask it something (and may start it): each is bounded.
_ASKS = frozenset({"divide", "perft", "dialect_info", "ready_for", "set_fen", "legal_moves", "push", "pop", "fen"})
# the most --position-timeout takes: as --timeout's (compare.engines.base.MAX_TIMEOUT)
MAX_POSITION_TIMEOUT = 1e6


class PositionTimeout(EngineError):
    """The engine ran past ``--position-timeout`` on one position."""


@dataclass(frozen=True)
class EngineFailure:
    """Why the engine failed on a position: ``reason`` is the one-line error; ``depth`` the
    count it failed on (None: starting); ``path`` the moves to the node of compare's descent
    it was asked about when it failed (None: not in a descent); ``timed_out``: it ran past
    --position-timeout; ``not_started``: it could not be started at all (missing, not
    executable), whatever the position."""

    reason: str
    depth: int | None = None
    path: list[str] | None = None
    fen: str | None = None
    timed_out: bool = False
    not_started: bool = False

    @classmethod
    def of(cls, err: EngineError, depth: int | None) -> EngineFailure:
        timed_out, not_started = isinstance(err, PositionTimeout), isinstance(err, EngineNotStarted)
        return cls(str(err), depth, err.path, err.fen, timed_out, not_started)

    @property
    def in_descent(self) -> bool:
        return self.path is not None

    def to_json(self) -> dict:
        return {
            "reason": self.reason,
            "depth": self.depth,
            "path": self.path,
            "node_fen": self.fen,
            "timed_out": self.timed_out,
        }


def position_timeout_ok(seconds: float) -> bool:
    """Whether ``seconds`` is a position timeout a run takes (the option's and the API's rule)."""
    return 0 < seconds <= MAX_POSITION_TIMEOUT and math.isfinite(seconds)


def parse_position_timeout(text: str | None) -> float | None:
    """``--position-timeout SECONDS`` (None: not given)."""
    if text is None:
        return None
    value = plain_float(text)
    if value is None or not position_timeout_ok(value):
        raise InputError(
            f"bad --position-timeout {text!r}: must be a positive number of seconds up to {MAX_POSITION_TIMEOUT:.0f}"
        )
    return value


class Clocked:
    """``engine`` with every question bounded by what is left of ``seconds`` (None: only by
    the engine's own timeout) from now: the engine's ``timeout`` is lowered to it for the
    question. A question past the end raises PositionTimeout (the engine stopped itself on
    its timeout, as on any). Everything else is the engine's."""

    def __init__(self, engine, seconds: float | None, clock: Callable[[], float] = time.monotonic):
        self.engine = engine
        self.seconds = seconds
        self._clock = clock
        self._end = None if seconds is None else clock() + seconds

    def __getattr__(self, name: str):
        if name == "total_only":  # a property that may start the engine
            return self._bounded(lambda: self.engine.total_only)
        value = getattr(self.engine, name)
        if name in _ASKS and callable(value):
            return lambda *args, **kwargs: self._bounded(lambda: value(*args, **kwargs))
        return value

    def within(self, ask: Callable[[], object]):
        """``ask()`` (the engine's start, its dialect found) bounded like a question."""
        return self._bounded(ask)

    def _bounded(self, ask: Callable[[], object]):
        if self._end is None:
            return ask()
        left = self._end - self._clock()
        if left <= 0:
            raise self._timeout(None)
        own = getattr(self.engine, "timeout", None)
        lowered = own is None or own > left
        if lowered:
            self.engine.timeout = left
        try:
            return ask()
        except EngineError as err:
            if lowered and self._clock() >= self._end:
                raise self._timeout(err) from None
            raise
        finally:
            if lowered:
                self.engine.timeout = own

    def _timeout(self, err: EngineError | None) -> PositionTimeout:
        name = getattr(self.engine, "name", "engine")
        said = "" if err is None else str(err)
        named = f"engine {name!r} "
        if said.startswith(named):  # the engine's command once in the line, not twice
            said = "it " + said[len(named):]
        asked = f" (it was stopped: {said})" if err is not None else ""
        return PositionTimeout(f"engine {name!r} did not finish the position within --position-timeout {self.seconds:g} s{asked}")


def restart(engine) -> None:
    """Stop the engine after a failure (its process group killed and reaped): its next
    question starts a fresh process."""
    try:
        engine.close()
    except EngineError:  # pragma: no cover - close never asks the engine anything
        pass


def start_again(engine) -> None:
    """Start the engine that ``restart`` stopped, before the next position's questions and
    within its own --timeout (not the position's --position-timeout, which is for answers:
    an engine slower to start than that failed every position after its first failure,
    never having seen them). An EngineError says it was starting again."""
    start = getattr(engine, "start", None)  # an object of the caller's may have none
    if not callable(start):
        return
    try:
        start()
    except EngineNotStarted:  # its command's fault (gone, not executable): the run ends
        raise
    except EngineError as err:
        raise EngineError(f"{err} (starting it again after its failure on the position before)") from None
