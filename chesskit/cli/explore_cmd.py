"""``chesskit explore``: walk the divide tree by hand, full screen (Textual) or line by line.

Wiring only: the state is ``chesskit.explore.state.Explorer``, the line mode
``chesskit.explore.repl``, the full-screen app ``chesskit.explore.app`` (the one module that
imports Textual, loaded only here, when the app runs)."""

from __future__ import annotations

import os
import sys

import click

from chesskit.cli.engine_options import EngineOptions, engine_options, parse_state_pushes
from chesskit.cli.options import (
    chess960_option,
    depth_rule,
    json_option,
    load_board,
    moves_option,
    parse_depth,
    position_argument,
    strict_option,
    variant_option,
)
from chesskit.errors import InputError

DEFAULT_DEPTH = "3"


# DEPTH at least 1 (explore shows a divide)
EXPLORE_DEPTH = {"minimum": 1, "why": " (explore shows a divide)"}


@depth_rule(**EXPLORE_DEPTH)
@click.command()
@position_argument
@click.argument("depth", metavar="[DEPTH]", required=False, default=DEFAULT_DEPTH)
@engine_options
@moves_option
@chess960_option
@variant_option
@strict_option
@click.option(
    "--state-pushes",
    metavar="N",
    default="2000",
    show_default=True,
    help="For a --python adapter with fen(): how many pushes the full-state sweep of 'a' may make (0: only along the descent).",
)
@click.option(
    "--repl",
    is_flag=True,
    help="Line mode: perftree's commands (fen, moves, depth, go, diff, child, parent) read from "
    "stdin; used anyway when stdin or stdout is not a terminal.",
)
@json_option
def explore(
    position: str,
    depth: str,
    engine_opts: EngineOptions,
    moves: str,
    chess960: bool,
    variant: str,
    strict: bool,
    state_pushes: str,
    repl: bool,
    as_json: bool,
) -> None:
    """Walk POSITION's divide tree by hand, with an engine's counts beside chesskit's.

    Full screen: the board, the state, and the divide at DEPTH (default 3) with the
    engine's counts beside chesskit's, rows that differ marked. Keys: Enter descends
    into the selected move, Backspace goes back up, a runs compare's descent to the
    failing node, d/+/- change the depth, f copies the FEN, m types a move, s shows
    the CPW counters, e shows the last error (or the finding) whole, Esc cancels a count (g counts
    again), q quits; Ctrl-C stops the
    running count, else quits (exit 130). Without an engine it walks chesskit's own tree.
    Type 'help' in --repl mode for its commands; there Ctrl-C stops the running count and
    the prompt comes back.

    --json prints the first view as one object instead (the divide at POSITION with the
    engine's counts beside chesskit's) and exits: 1 when they differ, 3 when the engine failed.

    Exit codes: 0 ok, 1 the counts differ (--json), 2 bad input, 3 the engine failed (--repl
    and the full screen: the last failure's code).
    """
    from chesskit.board.threads import usable_cores
    from chesskit.explore.state import Explorer

    if as_json and repl:
        # --json prints the first view and exits: the REPL would never read a line
        raise InputError(
            "--json and --repl contradict each other: --json prints the first view and exits, "
            "--repl reads commands; give one of them"
        )
    depth_n = parse_depth(depth, **EXPLORE_DEPTH)
    pushes = parse_state_pushes(engine_opts, state_pushes)
    board, _ = load_board(position, moves, chess960, strict, variant)
    open_engine = (lambda: engine_opts.open(variant)) if engine_opts.given else None
    explorer = Explorer(board, depth_n, _engine_fen(position, board), open_engine, usable_cores(), pushes)
    try:
        if engine_opts.given:
            _start_engine(explorer, engine_opts)
        if as_json:
            code = _emit_first_view(explorer)
        elif repl or not _full_screen():
            code = _run_repl(explorer, chess960, strict, variant)
        else:
            from chesskit.cli.signals import Interrupted
            from chesskit.explore.app import INTERRUPTED, run_app

            code = run_app(explorer)
            if code == INTERRUPTED:  # Ctrl-C with no count running: ended as Ctrl-C ends a run
                raise Interrupted()
    finally:
        explorer.close()
    _exit(code)


def _emit_first_view(explorer) -> int:
    """``--json``: the divide at the start node as one object; the exit code (0 the counts
    agree or there is no engine, 1 they differ, 3 the engine failed)."""
    from chesskit.cli import output

    divide = explorer.divide()
    output.emit_json(
        {
            "fen": divide.fen,
            "variant": explorer.board().variant,
            "chess960": bool(explorer.board().chess960),  # the fen's castling letters say it, not to every reader
            "depth": explorer.depth,
            "engine": explorer.engine_name if explorer.has_engine else None,
            "moves": [
                {"move": row.move, "san": row.san or None, "chesskit": row.ours, "engine": row.theirs, "status": row.status}
                for row in divide.rows()
            ],
            "total": divide.total,
            "engine_total": divide.engine_total,
            "agree": divide.agree,
            "missing": divide.missing(),
            "extra": divide.extra(),
            "engine_error": divide.engine_error,
            "notes": list(explorer.notes),
        }
    )
    # and one line on stderr, as compare --json gives (the exit code alone said nothing)
    if divide.engine_error is not None:
        click.echo(f"{output.PROG}: {divide.engine_error}", err=True)
        return 3
    if divide.agree is False:
        differs = [row.move for row in divide.rows() if row.status == "differs"]
        parts = [("missing", divide.missing()), ("extra", divide.extra()), ("counts differ for", differs)]
        why = "; ".join(f"{what} {' '.join(moves)}" for what, moves in parts if moves) or "the totals differ"
        click.echo(
            f"{output.PROG}: the engine's divide differs at {divide.fen} depth {explorer.depth}: total "
            f"{divide.engine_total} against chesskit's {divide.total} ({why})",
            err=True,
        )
        return 1
    return 0


def _start_engine(explorer, engine_opts: EngineOptions) -> None:
    """Start the explorer's engine now, before any screen or prompt, so that an engine that
    cannot start is one line and its exit code, as compare gives it: 2 for an
    ``--engine-option`` it does not offer or a value it refuses, 3 for an engine not found or
    failing as it starts. One that fails later is shown by the explorer, which opens a fresh
    one for the next question. A one-shot ``--engine-cmd`` is first run by the first count
    (starting it is asking it a question, and its failure is shown beside chesskit's counts)."""
    from chesskit.cli.engine_options import engine_dialect
    from chesskit.compare.engines.proc import resolve_program

    engine = explorer.engine()
    if engine_opts.engine is not None:
        engine_dialect(engine)  # its process started, its options set, its dialect found
    elif engine_opts.script is not None:  # a script runs per question: here, that it is there
        resolve_program(engine_opts.script, engine.name)


def _engine_fen(position: str, board) -> str:
    """The FEN the engine is given, as compare gives it by default (POSITION as typed)."""
    from chesskit.api.position import engine_fen

    return engine_fen(position, board)


def _full_screen() -> bool:
    """A terminal on both ends that can draw a full screen."""
    return _stdin().isatty() and sys.stdout.isatty() and os.environ.get("TERM", "") not in ("", "dumb")


def _stdin():
    """The commands' input: stdin, or no input at all when it is closed (``<&-``)."""
    import io

    return sys.stdin if sys.stdin is not None else io.StringIO("")


def _run_repl(explorer, chess960: bool, strict: bool, variant: str = "chess") -> int:
    from chesskit.explore.repl import Repl

    def load_position(text: str):
        board, _ = load_board(text, "", chess960, strict, variant)
        return board, _engine_fen(text, board)

    stdin = _stdin()
    from chesskit.cli.signals import sigint_sets

    repl = Repl(explorer, load_position, _describe, sys.stdout, sys.stderr, prompt=stdin.isatty(), interruptible=sigint_sets)
    return repl.run(stdin)


def _describe(board) -> list[str]:
    """The ``board`` command: show's plain drawing and state lines."""
    from chesskit.cli.boardview import plain_lines
    from chesskit.board.describe import describe
    from chesskit.cli.show_cmd import _state_lines

    info = describe(board, None)
    return [*plain_lines(info["fen"]), "", *(f"{name}: {value}" for name, value in _state_lines(info))]


def _exit(code: int) -> None:
    """End with ``code``. A count the user walked away from may still run: on a daemon
    thread it never holds up the exit; a threaded walk's pool would, so then the process
    ends at once (``boundary.end``)."""
    from chesskit.board.threads import walks_left_running
    from chesskit.cli.boundary import end

    if code or walks_left_running():
        end(code)
