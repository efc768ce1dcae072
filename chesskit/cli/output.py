"""Rendering shared by the commands, and the CLI's single error boundary.

Three output modes: ``--json`` prints one JSON object on one line; otherwise a terminal
gets rich tables and progress bars and a pipe gets plain text (for divide, exactly
Stockfish's ``go perft`` lines). rich is imported only when a terminal needs it, so a
piped or ``--json`` run never pays for it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import sys
import threading
import time
from typing import Callable, Iterator

import click

from chesskit.errors import ChesskitError, InputError

PROG = "chesskit"


# --------------------------------------------------------------------------- modes


def stdout_is_terminal() -> bool:
    """True when stdout is an interactive terminal: draw with rich."""
    return sys.stdout.isatty()


def stderr_is_terminal() -> bool:
    """True when stderr is an interactive terminal: progress bars may be drawn there."""
    return sys.stderr.isatty()


def console(stderr: bool = False):
    """A rich Console on the current stdout (or stderr); imports rich on first use."""
    from rich.console import Console

    return Console(file=sys.stderr if stderr else sys.stdout, highlight=False)


def notes(lines, where: str = "") -> None:
    """One stderr line per reason the position cannot arise in a game (it is still
    counted); ``where`` (a suite's ``file:line``) goes in front of each."""
    for line in lines:
        prefix = f"{where}: " if where else ""
        click.echo(f"{PROG}: note: {prefix}this position cannot arise in a game: {line}", err=True)


def emit_json(obj: dict) -> None:
    """Print ``obj`` as one JSON object on one line."""
    click.echo(json.dumps(obj))


# --------------------------------------------------------------------------- numbers


def nodes_per_second(nodes: int, seconds: float) -> int:
    return int(nodes / seconds) if seconds > 0 else 0


def stockfish_divide(moves: dict[str, int]) -> str:
    """Stockfish's ``go perft`` output for a divide, byte for byte except the move order.

    Stockfish prints the moves in its own generation order; chesskit sorts them by UCI
    string so the output is stable. Like Stockfish, the text ends with an empty line.
    """
    lines = [f"{move}: {count}" for move, count in sorted(moves.items())]
    total = sum(moves.values())
    return "\n".join(lines) + f"\n\nNodes searched: {total}\n\n"


# --------------------------------------------------------------------------- progress


@contextlib.contextmanager
def progress(
    total: float, description: str, counted: bool = True
) -> Iterator[Callable[[float], None]]:
    """Yield an ``advance(amount)`` callable that drives a transient rich progress bar on
    stderr when stderr is a terminal, and does nothing otherwise.

    ``counted`` shows "done/total" (root moves, say); otherwise a percentage (when the
    total is a weight such as expected nodes)."""
    if not stderr_is_terminal():
        yield lambda amount=1: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn() if counted else TaskProgressColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(description, total=total)
        yield lambda amount=1: bar.advance(task, amount)


# --------------------------------------------------------------------------- errors


class Interrupted(ChesskitError):
    """Ctrl-C (or SIGTERM, SIGHUP): reported like any other error, with the shell's
    conventional 128 + the signal's number (130 for Ctrl-C)."""

    exit_code = 130

    def __init__(self, signum: int = signal.SIGINT):
        self.exit_code = 128 + int(signum)
        super().__init__(interrupt_message(signum))


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


class OutputClosed(ChesskitError):
    """The reader of stdout went away (``chesskit suite | head -1``): stop quietly.

    Not a mismatch and not an error worth a line: exit 141, what the shell reports
    for a writer killed by SIGPIPE (128 + 13), and print nothing.
    """

    exit_code = 128 + 13

    def __init__(self):
        super().__init__("")


# Set by the signal handler that ``interrupt_guard`` installs: once Ctrl-C (or SIGTERM,
# SIGHUP) has come, whatever exception it turned into (numba's compiler, say, can swallow
# the KeyboardInterrupt and raise something else) is reported as interrupted.
_interrupted = threading.Event()
_signum = signal.SIGINT  # the signal that interrupted the run

# The signals handled like Ctrl-C: the run stops, engines are killed, exit 128 + signal.
STOP_SIGNALS = tuple(
    sig for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if sig
)

# How long the main thread has to notice a Ctrl-C before the watchdog ends the process.
INTERRUPT_GRACE_S = 1.0


def interrupted_signal() -> int:
    """The signal that interrupted the run (SIGINT when none did, as for a bare Ctrl-C)."""
    return _signum if _interrupted.is_set() else signal.SIGINT


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
      ``INTERRUPT_GRACE_S`` (or has not finished within it after a second signal).

    A signal that was ignored when chesskit started (``nohup`` ignores SIGHUP) stays ignored.
    """
    global _signum
    _interrupted.clear()
    _signum = signal.SIGINT
    previous_hook = sys.unraisablehook
    previous_handlers: dict[int, object] = {}
    watchdog = None
    if threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        for sig in STOP_SIGNALS:
            if sig == signal.SIGINT or signal.getsignal(sig) is signal.SIG_DFL:
                previous_handlers[sig] = signal.signal(sig, _on_signal)
        watchdog = _Watchdog.start()

    def unraisable(info) -> None:
        if _interrupted.is_set() or isinstance(info.exc_value, KeyboardInterrupt):
            return
        previous_hook(info)

    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        if watchdog is not None:
            watchdog.stop()
        for sig, handler in previous_handlers.items():
            signal.signal(sig, handler)
        # left silenced after an interrupt: the interpreter's shutdown may still collect
        # half-built compiler objects
        if not _interrupted.is_set():
            sys.unraisablehook = previous_hook


def _on_signal(signum, frame):
    global _signum
    if _interrupted.is_set():
        return  # the first one is being handled: let the cleanup finish
    _signum = signum
    _interrupted.set()
    raise KeyboardInterrupt


def kill_engines() -> None:
    """SIGKILL every engine process group still running (only if engines were loaded)."""
    proc = sys.modules.get("chesskit.compare.engines.proc")
    if proc is not None:
        proc.kill_all_groups()


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
        taken = False  # a signal the main thread took earlier
        while True:
            try:
                data = os.read(self.read_fd, 64)
            except OSError:
                return
            if not data:  # stop() closed the write end
                return
            got = [sig for sig in STOP_SIGNALS if sig in data]
            if not got:
                continue
            if taken:
                time.sleep(INTERRUPT_GRACE_S)  # a second signal: cleanup gets one more grace
            elif _interrupted.wait(INTERRUPT_GRACE_S):
                taken = True
                continue  # the main thread took it: the usual path reports it
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


_NUMBER_AS_OPTION = re.compile(r"-\d+")


def _is_broken_pipe(err: BaseException) -> bool:
    return isinstance(err, BrokenPipeError) or (isinstance(err, OSError) and err.errno == errno.EPIPE)


def error_line(err: BaseException) -> tuple[str, int]:
    """The one stderr line and the exit code for an exception that ends the CLI."""
    if _interrupted.is_set():
        code = 128 + int(_signum)
        if isinstance(err, ChesskitError) and err.exit_code in (Interrupted.exit_code, code):
            return str(err), code  # its own words (a cluster run says how to resume)
        return interrupt_message(_signum), code
    if isinstance(err, ChesskitError):
        return str(err), err.exit_code
    if _is_broken_pipe(err):
        return "", OutputClosed.exit_code
    if _out_of_memory(err):
        return (
            f"out of memory{_memory_limit()}: {_what(err)} (a smaller --hash or DEPTH needs less)",
            OUT_OF_MEMORY,
        )
    if isinstance(err, OSError) and err.errno in _UNWRITABLE:
        return f"cannot write the output: {err.strerror or err}", InputError.exit_code
    if isinstance(err, click.exceptions.NoSuchOption) and _NUMBER_AS_OPTION.fullmatch(
        err.option_name
    ):
        # `chesskit perft startpos -1`: click sees an option; the user meant a depth.
        return f"bad depth {err.option_name!r}: DEPTH must be an integer >= 0", InputError.exit_code
    if isinstance(err, click.ClickException):
        message = err.format_message()
        # click's IntRange calls a non-number "not a valid integer range"
        message = message.replace("is not a valid integer range", "is not an integer")
        if isinstance(err, click.UsageError):
            if "unexpected extra argument" in message and _looks_like_split_fen(err.ctx):
                message += " (a FEN has spaces: quote it)"
            if err.ctx is not None:
                message = message.rstrip(".") + f" (see '{err.ctx.command_path} --help')"
        return message, err.exit_code
    if isinstance(err, (KeyboardInterrupt, click.Abort)):
        return "interrupted", Interrupted.exit_code
    if _memory_limit() and isinstance(err, (OSError, SystemError, ImportError)):
        # under `ulimit -v`, an allocation that fails inside a library (numba's loader,
        # numpy) surfaces as OSError, SystemError or a failed import rather than
        # MemoryError; any other error stays what it is, a bug (exit 70)
        return (
            f"failed under the memory limit{_memory_limit()}, probably out of memory: {_what(err)}",
            OUT_OF_MEMORY,
        )
    return (
        f"internal error: {_what(err)} (this is a bug; set CHESSKIT_DEBUG=1 for the traceback)",
        INTERNAL_ERROR,
    )


def _looks_like_split_fen(ctx: click.Context | None) -> bool:
    """True when the POSITION given looks like the first field of an unquoted FEN."""
    if ctx is None:
        return True
    position = ctx.params.get("position")
    return position is None or "/" in str(position)


INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug in chesskit, never a user's mistake
OUT_OF_MEMORY = 4  # the machine (or `ulimit -v`) ran out of memory during the run

# A write failed because of where the output goes, not because of chesskit: a full disk
# (`> /dev/full`), a quota, a file too large, a read-only or failing device.
_UNWRITABLE = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO}


def _what(err: BaseException) -> str:
    """``Type: message`` on one line, even when ``str(err)`` raises."""
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - a message is not worth a second error
        text = ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _out_of_memory(err: BaseException) -> bool:
    return isinstance(err, MemoryError) or (isinstance(err, OSError) and err.errno == errno.ENOMEM)


def _memory_limit() -> str:
    """`` (ulimit -v 512 MiB)`` when the process runs under an address-space limit, else ''."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, AttributeError):
        return ""
    if soft == resource.RLIM_INFINITY:
        return ""
    return f" (ulimit -v {soft // (1024 * 1024)} MiB)"


def fail(err: BaseException) -> None:
    """Print ``chesskit: <message>`` on stderr as one line and exit with the error's code.

    A closed stdout prints nothing (and stdout is pointed at /dev/null so the
    interpreter's last flush cannot complain either)."""
    message, code = error_line(err)
    message = " ".join(message.split())  # one line, whatever the message held
    if os.environ.get("CHESSKIT_DEBUG") and code == INTERNAL_ERROR:
        raise err
    if code == OutputClosed.exit_code:
        silence_stdout()
        end(code)
    try:
        click.echo(f"{PROG}: {message}", err=True)
    except OSError:  # stderr is gone too: the exit code is all that is left
        pass
    end(code)


def end(code: int) -> None:
    """Exit with ``code``: ``sys.exit``, unless a compiled walk is still running on a
    thread (a threaded perft that was interrupted): the interpreter would wait for it
    before exiting, for minutes, so the output is flushed and the process ends at once."""
    threads = sys.modules.get("chesskit.board.threads")
    if threads is None or not threads.walks_left_running():
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


def silence_stdout() -> None:
    """Point stdout at /dev/null (after its reader went away), dropping what is buffered."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (click's test runner): nothing will flush to a pipe
