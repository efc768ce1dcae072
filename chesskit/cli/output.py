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
    """Ctrl-C: reported like any other error, with the shell's conventional 130."""

    exit_code = 130

    def __init__(self):
        super().__init__("interrupted")


class OutputClosed(ChesskitError):
    """The reader of stdout went away (``chesskit suite | head -1``): stop quietly.

    Not a mismatch and not an error worth a line: exit 141, what the shell reports
    for a writer killed by SIGPIPE (128 + 13), and print nothing.
    """

    exit_code = 128 + 13

    def __init__(self):
        super().__init__("")


# Set by the SIGINT handler that ``interrupt_guard`` installs: once Ctrl-C has been
# pressed, whatever exception it turned into (numba's compiler, say, can swallow the
# KeyboardInterrupt and raise something else) is reported as "interrupted".
_interrupted = threading.Event()

# How long the main thread has to notice a Ctrl-C before the watchdog ends the process.
INTERRUPT_GRACE_S = 1.0


@contextlib.contextmanager
def interrupt_guard() -> Iterator[None]:
    """For the duration of one CLI run, make Ctrl-C end it promptly as one line and 130.

    - a Python SIGINT handler remembers the Ctrl-C and raises KeyboardInterrupt;
    - Python's "Exception ignored ..." tracebacks of what it interrupts (a callback or a
      destructor inside numba's compiler) are not printed;
    - compiled code (a perft walk) holds the main thread and cannot run Python signal
      handlers until it returns, which may be minutes away: a watchdog thread, woken by
      the signal through ``signal.set_wakeup_fd``, prints the line and exits with 130
      when the main thread has not taken the Ctrl-C within ``INTERRUPT_GRACE_S``.
    """
    _interrupted.clear()
    previous_hook = sys.unraisablehook
    previous_handler = None
    watchdog = None
    if threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        previous_handler = signal.signal(signal.SIGINT, _on_sigint)
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
        if previous_handler is not None:
            signal.signal(signal.SIGINT, previous_handler)
        # left silenced after an interrupt: the interpreter's shutdown may still collect
        # half-built compiler objects
        if not _interrupted.is_set():
            sys.unraisablehook = previous_hook


def _on_sigint(signum, frame):
    _interrupted.set()
    raise KeyboardInterrupt


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
        while True:
            try:
                data = os.read(self.read_fd, 64)
            except OSError:
                return
            if not data:  # stop() closed the write end
                return
            if signal.SIGINT not in data:
                continue
            if _interrupted.wait(INTERRUPT_GRACE_S):
                continue  # the main thread took it: the usual path reports it
            if signal.getsignal(signal.SIGINT) is not _on_sigint:
                continue  # someone else handles Ctrl-C now
            _interrupted.set()
            try:
                os.write(2, f"{PROG}: interrupted\n".encode())
            finally:
                os._exit(Interrupted.exit_code)

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
    if _interrupted.is_set() and getattr(err, "exit_code", None) != Interrupted.exit_code:
        return "interrupted", Interrupted.exit_code
    if isinstance(err, ChesskitError):
        return str(err), err.exit_code
    if _is_broken_pipe(err):
        return "", OutputClosed.exit_code
    if isinstance(err, MemoryError):
        # a --hash larger than this machine's memory, say: the request, not chesskit, is at fault
        detail = f" ({err})" if str(err) else ""
        return (
            f"out of memory{detail}: ask for less (a smaller --hash MiB or DEPTH)",
            InputError.exit_code,
        )
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
    return (
        f"internal error: {type(err).__name__}: {err} "
        f"(this is a bug; set CHESSKIT_DEBUG=1 for the traceback)",
        INTERNAL_ERROR,
    )


def _looks_like_split_fen(ctx: click.Context | None) -> bool:
    """True when the POSITION given looks like the first field of an unquoted FEN."""
    if ctx is None:
        return True
    position = ctx.params.get("position")
    return position is None or "/" in str(position)


INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug in chesskit, never a user's mistake


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
        sys.exit(code)
    try:
        click.echo(f"{PROG}: {message}", err=True)
    except OSError:  # stderr is gone too: the exit code is all that is left
        pass
    sys.exit(code)


def silence_stdout() -> None:
    """Point stdout at /dev/null (after its reader went away), dropping what is buffered."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (click's test runner): nothing will flush to a pipe
