"""Ctrl-C, SIGTERM and SIGHUP: one line and 128 + the signal, promptly, whatever runs.

``interrupt_guard`` wraps one CLI run: a handler turns the signal into KeyboardInterrupt
for the main thread, and a watchdog thread ends the process when the main thread cannot
take it (it is inside compiled code). ``Interrupted`` is the error the boundary
(``cli/boundary.py``) reports for it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import Iterator

from chesskit.cli.output import PROG
from chesskit.errors import ChesskitError


class Interrupted(ChesskitError):
    """Ctrl-C (or SIGTERM, SIGHUP): reported like any other error, with the shell's
    conventional 128 + the signal's number (130 for Ctrl-C); ``found``: what the run found
    before it was stopped and has not shown (the notes on its KeyboardInterrupt)."""

    exit_code = 130

    def __init__(self, signum: int = signal.SIGINT, found: str = ""):
        self.exit_code = 128 + int(signum)
        super().__init__(interrupt_message(signum) + (f": {found}" if found else ""))


def notes_of(err: BaseException) -> str:
    """What a stopped run found and has not shown: the notes on its KeyboardInterrupt
    (fuzz's difference, its seed), joined; "" for none."""
    return "; ".join(str(note) for note in getattr(err, "__notes__", ()))


def interrupt_message(signum: int) -> str:
    """``interrupted`` for Ctrl-C, ``terminated (SIGTERM)`` / ``hung up (SIGHUP)`` otherwise."""
    if signum == signal.SIGINT:
        return "interrupted"
    if signum == getattr(signal, "SIGHUP", None):
        return "hung up (SIGHUP)"
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    return f"terminated ({name})"


# Set by the signal handler that ``interrupt_guard`` installs: once Ctrl-C (or SIGTERM,
# SIGHUP) has come, whatever exception it turned into (numba's compiler, say, can swallow
# the KeyboardInterrupt and raise something else) is reported as interrupted.
_interrupted = threading.Event()
_signum = signal.SIGINT  # the signal that interrupted the run
# Set when the KeyboardInterrupt the handler raised landed where Python cannot raise it (a
# destructor, a weakref or gc callback: "Exception ignored in ...") and was dropped there:
# the watchdog signals the main thread once more, and the handler raises it again.
_lost = False
_echoes = 0  # how many of those signals the watchdog is yet to read back from its pipe

# Ctrl-Cs that a ``sigint_sets`` handler took (explore's line mode: they stop a count, not
# the run): the watchdog, which sees every signal, lets that many be.
_diverted = 0

# The signals handled like Ctrl-C: the run stops, engines are killed, exit 128 + signal.
STOP_SIGNALS = tuple(
    sig for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if sig
)

# How long the main thread has to notice a Ctrl-C before the watchdog ends the process.
INTERRUPT_GRACE_S = 1.0


def interrupted_signal() -> int:
    """The signal that interrupted the run (SIGINT when none did, as for a bare Ctrl-C)."""
    return _signum if _interrupted.is_set() else signal.SIGINT


def stopped_by() -> int | None:
    """The signal that interrupted this run, None while none has."""
    return _signum if _interrupted.is_set() else None


@contextlib.contextmanager
def interrupt_guard() -> Iterator[None]:
    """For the duration of one CLI run, make Ctrl-C, SIGTERM and SIGHUP end it promptly as
    one line and 128 + the signal, with every engine process group killed:

    - a Python handler remembers the signal and raises KeyboardInterrupt, so the run
      unwinds through its ``with`` blocks (engines closed, checkpoint closed); a second
      signal does not interrupt that cleanup;
    - Python's "Exception ignored ..." tracebacks of what it interrupts (a callback or a
      destructor inside numba's compiler) are not printed;
    - compiled code (a perft walk) holds the main thread and cannot run Python signal
      handlers until it returns, which may be minutes away: a watchdog thread, woken by
      the signal through ``signal.set_wakeup_fd``, kills the engines' process groups,
      prints the line and exits when the main thread has not taken the signal within
      ``INTERRUPT_GRACE_S`` (or has not finished within it after a second signal);
    - a KeyboardInterrupt that lands where Python cannot raise it (a destructor, a gc or
      weakref callback) is dropped there: the watchdog has the main thread take it again
      (a signal to that thread, once it is out of the unraisable hook), and a run whose
      code kept it and went on to its end still ends as interrupted (128 + the signal).

    A signal that was ignored when chesskit started (``nohup`` ignores SIGHUP, a shell's
    ``&`` SIGINT) stays ignored; the others are still handled.
    """
    global _signum, _lost, _echoes, _diverted, _previous_hook, _ask_fd
    _interrupted.clear()
    _signum, _lost, _echoes, _diverted = signal.SIGINT, False, 0, 0
    previous_hook = _previous_hook = sys.unraisablehook
    previous_handlers: dict[int, object] = {}
    watchdog = None
    if threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) in (signal.default_int_handler, signal.SIG_IGN)
    ):
        # each signal as it was: Python's own Ctrl-C handler, or the default of SIGTERM and
        # SIGHUP, is taken over; one ignored (a job started with `&` ignores SIGINT) stays
        # ignored, and the others are still handled (they were not, and a background
        # chesskit ended by SIGTERM left its engines running)
        for sig in STOP_SIGNALS:
            if signal.getsignal(sig) is (signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL):
                previous_handlers[sig] = signal.signal(sig, _on_signal)
        watchdog = _Watchdog.start()
        _ask_fd = watchdog.write_fd if watchdog is not None else None
    sys.unraisablehook = _unraisable
    try:
        yield
        if _interrupted.is_set():
            # the run went on to its end: whatever took the KeyboardInterrupt kept it
            raise Interrupted(_signum)
    finally:
        _ask_fd = None
        if watchdog is not None:
            watchdog.stop()
        for sig, handler in previous_handlers.items():
            signal.signal(sig, handler)
        # left silenced after an interrupt: the interpreter's shutdown may still collect
        # half-built compiler objects
        if not _interrupted.is_set():
            sys.unraisablehook = previous_hook


# While a guard runs: the hook it replaced, and the watchdog's pipe (None without one).
_previous_hook = sys.unraisablehook
_ask_fd: int | None = None
_ASK = 0  # the byte on the watchdog's pipe that asks for the interrupt again (no signal is 0)


def _unraisable(info) -> None:
    """Python's "Exception ignored in ..." (a destructor, a callback): our dropped
    KeyboardInterrupt is asked for again; nothing is printed after a Ctrl-C."""
    if isinstance(info.exc_value, KeyboardInterrupt):
        _ask_again()
        return
    if not _interrupted.is_set():
        _previous_hook(info)


def _ask_again() -> None:
    """The handler's KeyboardInterrupt was dropped where it landed: the watchdog has the
    main thread take it again, at its next step outside this hook."""
    global _lost
    if _ask_fd is None or not _interrupted.is_set():
        return  # not ours, or no watchdog to ask
    _lost = True
    try:
        os.write(_ask_fd, bytes([_ASK]))
    except OSError:
        pass


def _on_signal(signum, frame):
    global _signum, _lost
    if _interrupted.is_set():
        if not _lost:
            return  # the first one is being handled: let the cleanup finish
        if _in_the_hook(frame):
            _ask_again()  # raised here it would be dropped once more
            return
        _lost = False
        raise KeyboardInterrupt  # the first one was dropped where it landed
    _signum = signum
    _interrupted.set()
    raise KeyboardInterrupt


def _in_the_hook(frame) -> bool:
    while frame is not None:
        if frame.f_code in (_unraisable.__code__, _ask_again.__code__):
            return True
        frame = frame.f_back
    return False


def kill_engines() -> None:
    """SIGKILL every engine process group still running (only if engines were loaded)."""
    proc = sys.modules.get("chesskit.compare.engines.proc")
    if proc is not None:
        proc.kill_all_groups()


@contextlib.contextmanager
def sigint_sets(event: threading.Event) -> Iterator[None]:
    """While it runs, Ctrl-C only sets ``event`` and the run goes on (explore's line mode:
    Ctrl-C stops the running count and the prompt comes back, as in a shell). SIGTERM and
    SIGHUP, and Ctrl-C before and after, end the run as ``interrupt_guard`` says. In the main
    thread only, and not where Ctrl-C is ignored (a job started with ``&``)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return

    def take(signum, frame) -> None:
        global _diverted
        _diverted += 1
        event.set()

    previous = signal.signal(signal.SIGINT, take)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _take_diverted(signum: int) -> bool:
    """Whether ``signum`` was a Ctrl-C a ``sigint_sets`` handler took (counted off once)."""
    global _diverted
    if signum != signal.SIGINT or _diverted <= 0:
        return False
    _diverted -= 1
    return True


class _Watchdog:
    """A daemon thread that reads the signal wakeup pipe; see ``interrupt_guard``."""

    def __init__(self, read_fd: int, write_fd: int, previous_fd: int):
        self.read_fd, self.write_fd, self.previous_fd = read_fd, write_fd, previous_fd
        self.thread = threading.Thread(target=self._run, name="chesskit-sigint", daemon=True)

    @classmethod
    def start(cls) -> _Watchdog | None:
        try:
            read_fd, write_fd = os.pipe()
            os.set_blocking(write_fd, False)
            previous_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
        except (OSError, ValueError):  # no pipes, or not allowed here: go without
            return None
        watchdog = cls(read_fd, write_fd, previous_fd)
        watchdog.thread.start()
        return watchdog

    def _run(self) -> None:
        global _echoes
        taken = False  # a signal the main thread took earlier
        while True:
            try:
                data = os.read(self.read_fd, 64)
            except OSError:
                return
            if not data:  # stop() closed the write end
                return
            if _ASK in data:  # the interrupt was dropped: once the main thread is past the hook
                time.sleep(0.01)
                _echoes += 1  # the signal below comes back on this pipe
                # a signal, not _thread.interrupt_main: it also ends a blocking call
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            got = [sig for sig in data if sig in STOP_SIGNALS]
            while got and _echoes and got[-1] == signal.SIGINT:
                got.pop()
                _echoes -= 1
            if not got:
                continue
            if taken:
                time.sleep(INTERRUPT_GRACE_S)  # a second signal: cleanup gets one more grace
            elif _interrupted.wait(INTERRUPT_GRACE_S):
                taken = True
                continue  # the main thread took it: the usual path reports it
            if _take_diverted(got[0]):
                continue  # a sigint_sets handler took it: the run goes on
            if signal.getsignal(got[0]) is not _on_signal:
                continue  # someone else handles it now
            self._exit(got[0])

    @staticmethod
    def _exit(signum: int) -> None:
        global _signum
        if not _interrupted.is_set():
            _signum = signum
            _interrupted.set()
        try:
            kill_engines()
            os.write(2, f"{PROG}: {interrupt_message(_signum)}\n".encode())
        finally:
            os._exit(128 + int(_signum))

    def stop(self) -> None:
        try:
            signal.set_wakeup_fd(self.previous_fd)
        except (OSError, ValueError):
            pass
        os.close(self.write_fd)
        self.thread.join(timeout=1)
        os.close(self.read_fd)
