"""``fuzz --time``: one deadline for the whole run: generating, comparing, the descent and shrinking.

The deadline is checked before every engine call and perft of the fuzzer's own loops.
A call already started is not abandoned (it is the run's overshoot), so none is started
whose estimated cost does not fit in the time left: a depth is estimated from the one
before it (its time, times the growth of chesskit's node count from the depth before),
and a depth is only started when it *and* the descent that a difference found there
needs (about as much again: depth d, d-1, ... at the failing node) still fit.
"""

from __future__ import annotations

import math
import time
from typing import Callable

# A difference at depth d is chased by compare's descent: divides at d, d-1, ..., 1 along
# one path, about as much as depth d itself; a little more for the slack of the estimate.
DESCENT_SHARE = 1.2
# The share of the run's time kept for shrinking the position the engine crashed on, once it
# has: the positions stop there (a crash is shrunk after them; without it never was, the
# positions taking all the time)
CRASH_SHRINK_SHARE = 0.25


class OutOfTime(Exception):
    """The next step would not end before the deadline: the run stops here."""


class Deadline:
    """The end of a run on ``clock`` (``seconds`` None: no end), and the time the last
    compared depth took (``spent``), which estimates the next one and a descent."""

    def __init__(self, seconds: float | None = None, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.seconds = seconds
        self.end = math.inf if seconds is None else clock() + seconds
        self.spent = 0.0

    @property
    def bounded(self) -> bool:
        return self.end != math.inf

    def left(self) -> float:
        return self.end - self.clock()

    def check(self, estimate: float = 0.0) -> None:
        """Raise ``OutOfTime`` unless more than ``estimate`` seconds are left."""
        if self.bounded and self.left() <= estimate:
            raise OutOfTime()

    def crash_reserve(self) -> float:
        """The seconds kept for shrinking a crash (``CRASH_SHRINK_SHARE`` of the run; 0 unbounded)."""
        return self.seconds * CRASH_SHRINK_SHARE if self.bounded else 0.0

    def describe(self) -> str:
        # not the seconds this deadline was given: what --time left after the engine's
        # start (3 s read as "2.99998 s"); the user knows the --time they gave
        return "the --time limit ran out"
