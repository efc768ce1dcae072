"""Rendering shared by the commands, and the CLI's single error boundary.

Three output modes: ``--json`` prints one JSON object on one line; otherwise a terminal
gets rich tables and progress bars and a pipe gets plain text (for divide, exactly
Stockfish's ``go perft`` lines). rich is imported only when a terminal needs it, so a
piped or ``--json`` run never pays for it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
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


_NUMBER_AS_OPTION = re.compile(r"-\d+")


def error_line(err: BaseException) -> tuple[str, int]:
    """The one stderr line and the exit code for an exception that ends the CLI."""
    if isinstance(err, ChesskitError):
        return str(err), err.exit_code
    if isinstance(err, click.exceptions.NoSuchOption) and _NUMBER_AS_OPTION.fullmatch(
        err.option_name
    ):
        # `chesskit perft startpos -1`: click sees an option; the user meant a depth.
        return f"bad depth {err.option_name!r}: DEPTH must be an integer >= 0", InputError.exit_code
    if isinstance(err, click.ClickException):
        message = err.format_message()
        if isinstance(err, click.UsageError):
            if "unexpected extra argument" in message:
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


INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug in chesskit, never a user's mistake


def fail(err: BaseException) -> None:
    """Print ``chesskit: <message>`` on stderr as one line and exit with the error's code."""
    message, code = error_line(err)
    message = " ".join(message.split())  # one line, whatever the message held
    if os.environ.get("CHESSKIT_DEBUG") and code == INTERNAL_ERROR:
        raise err
    click.echo(f"{PROG}: {message}", err=True)
    sys.exit(code)
