"""A stopwatch: every timing chesskit reports goes through ``Timer``.

>>> t = Timer(clock=iter([10.0, 12.5]).__next__)
>>> _ = t.start()
>>> t.stop()
2.5
>>> t.display()
'00:00:02.50'
"""

from __future__ import annotations

import time
from typing import Callable


class Timer:
    """Start/stop stopwatch over ``time.perf_counter`` (or any injected ``clock``).

    Elapsed time accumulates over start/stop pairs until ``reset()``; the
    ``elapsed_*`` properties include the running interval, so they can be read
    while the timer runs. Used as a context manager it starts on entry and
    stops on exit.
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter):
        self._clock = clock
        self._accumulated = 0.0
        self._started_at: float | None = None

    @property
    def running(self) -> bool:
        return self._started_at is not None

    def start(self) -> Timer:
        """Start (or resume) timing; starting a running timer changes nothing."""
        if self._started_at is None:
            self._started_at = self._clock()
        return self

    def stop(self) -> float:
        """Stop timing and return the total elapsed seconds."""
        if self._started_at is not None:
            self._accumulated += self._clock() - self._started_at
            self._started_at = None
        return self._accumulated

    def reset(self) -> None:
        """Zero the elapsed time and stop."""
        self._accumulated = 0.0
        self._started_at = None

    @property
    def elapsed_s(self) -> float:
        if self._started_at is None:
            return self._accumulated
        return self._accumulated + (self._clock() - self._started_at)

    @property
    def elapsed_ms(self) -> float:
        return self.elapsed_s * 1000.0

    def display(self) -> str:
        """The elapsed time as ``hh:mm:ss.dd`` (hundredths truncated, hours may exceed 99)."""
        return format_seconds(self.elapsed_s)

    __str__ = display

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<Timer {self.display()} {state}>"

    def __enter__(self) -> Timer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def format_seconds(seconds: float) -> str:
    """Format a duration as ``hh:mm:ss.dd``."""
    # round(..., 6) first so 0.29 s shows as .29, not .28 from 28.999999999999996
    hundredths = int(round(max(seconds, 0.0) * 100, 6))
    hours, rest = divmod(hundredths, 360_000)
    minutes, rest = divmod(rest, 6_000)
    secs, hundredths = divmod(rest, 100)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{hundredths:02d}"
