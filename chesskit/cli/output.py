"""Rendering shared by the commands: the three output modes.

``--json`` prints one JSON object on one line; otherwise a terminal gets rich tables and
progress bars and a pipe gets plain text (for divide, exactly Stockfish's ``go perft``
lines). rich is imported only when a terminal needs it, so a piped or ``--json`` run
never pays for it. Signals are ``cli/signals.py``'s, errors and exit codes
``cli/boundary.py``'s.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Callable, Iterator

import click

PROG = "chesskit"


# --------------------------------------------------------------------------- modes


def stdout_is_terminal() -> bool:
    """True when stdout is an interactive terminal: draw with rich."""
    return sys.stdout.isatty()


def stderr_is_terminal() -> bool:
    """True when stderr is an interactive terminal that can redraw a line: progress bars may
    be drawn there (not on a dumb one, ``TERM=dumb``, where a transient bar left an empty
    line behind)."""
    return sys.stderr.isatty() and os.environ.get("TERM", "").lower() not in _DUMB


# the terminals rich cannot redraw a line on (its Console.is_dumb_terminal)
_DUMB = ("dumb", "unknown")


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
    lines = "".join(f"{move}: {count}\n" for move, count in sorted(moves.items()))
    return f"{lines}\nNodes searched: {sum(moves.values())}\n\n"  # no move: one empty line, as Stockfish


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


# a count that reports no progress shows its bar once it has run this long
BUSY_AFTER_S = 0.5


def in_background(work: Callable[[], object], description: str, wanted: bool = True):
    """``work()``'s answer (or what it raised). When ``wanted`` and stderr is a terminal,
    it runs on a thread of its own (it must release the GIL: the compiled walks do), and
    once it has run ``BUSY_AFTER_S`` a transient bar with the time elapsed shows that it is
    counting: for a count that reports no progress of its own (``--stats``). Ctrl-C ends
    the wait at once (the thread is a daemon)."""
    if not wanted or not stderr_is_terminal():
        return work()
    import threading

    answer: dict = {}

    def run() -> None:
        try:
            answer["value"] = work()
        except BaseException as err:  # noqa: BLE001 - raised again below, in the caller's thread
            answer["error"] = err

    thread = threading.Thread(target=run, name="chesskit-count", daemon=True)
    thread.start()
    thread.join(BUSY_AFTER_S)
    if thread.is_alive():
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console(stderr=True), transient=True) as bar:
            bar.add_task(description, total=None)
            while thread.is_alive():
                thread.join(0.1)
    if "error" in answer:
        raise answer["error"]
    return answer["value"]
