"""``chesskit compare``: descend automatically to the node where an engine goes wrong."""

from __future__ import annotations

import contextlib

import click

from chesskit.cli import output
from chesskit.cli.html_out import check_writable, crash_report, html_option, write_compare
from chesskit.cli.engine_options import EngineOptions, engine_dialect, engine_options, note_dialect, parse_state_pushes
from chesskit.cli.options import (
    chess960_option,
    depth_argument,
    depth_rule,
    json_option,
    load_board,
    moves_option,
    parse_depth,
    position_argument,
    strict_option,
    variant_option,
)
from chesskit.cli.regression_view import engine_call
from chesskit.cli.run_options import bisect_option, start_failed, starting
from chesskit.errors import EngineError, MismatchError


# DEPTH at least 1 (compare starts from a divide)
COMPARE_DEPTH = {"minimum": 1, "why": " (compare starts from a divide)"}


@depth_rule(**COMPARE_DEPTH)
@click.command()
@position_argument
@depth_argument
@engine_options
@moves_option
@chess960_option
@variant_option
@click.option(
    "--state-pushes",
    metavar="N",
    default="2000",
    show_default=True,
    help="For a --python adapter with fen(): how many pushes the full-state sweep may make (0: only along the descent).",
)
@click.option(
    "--engine-fen",
    type=click.Choice(["typed", "chesskit"]),
    default="typed",
    metavar="WHICH",
    help="The FEN of POSITION the engine is given: 'typed' (the default) as typed, or 'chesskit' as chesskit "
    "reads it (for a position that cannot arise in a game: without the en-passant square it ignores and the "
    "castling rights it drops). The report says which FEN each side counted.",
)
@strict_option
@bisect_option
@html_option
@json_option
def compare(
    position: str,
    depth: str,
    engine_opts: EngineOptions,
    moves: str,
    chess960: bool,
    variant: str,
    state_pushes: str,
    engine_fen: str,
    strict: bool,
    bisect: bool,
    html_path: str | None,
    as_json: bool,
) -> None:
    """Find the first node where an engine's perft disagrees with chesskit's.

    Both divide POSITION at DEPTH; chesskit follows a root move whose counts differ
    one ply deeper, and so on, until the move lists themselves differ. It reports the
    path, the FEN, the board, the missing and extra moves with their likely cause, and
    the counts at every step. A --python adapter with fen() also has its full state
    (placement, side, castling, en passant, clocks) compared after pushes and pops.

    An engine that fails on the way (crashes, hangs, prints what cannot be read) is named
    with the node it was asked about: the position that crashes it is a finding too.

    Exit codes: 0 agree, 1 disagree, 2 bad input, 3 the engine failed, 4 out of memory
    (125 with --bisect when the engine cannot be started: git bisect run skips the commit).
    """
    from chesskit.api.comparison import compare_board
    from chesskit.api.position import engine_fens

    depth_n = parse_depth(depth, **COMPARE_DEPTH)
    budget = parse_state_pushes(engine_opts, state_pushes)
    check_writable(html_path, engine_opts.input_files())
    # the moves are checked by chesskit before any engine sees them: Stockfish
    # silently ignores an illegal move in 'position ... moves'
    board, ident = load_board(position, moves, chess960, strict, variant)
    position_fen, chesskit_fen = engine_fens(position, board, engine_fen)
    try:
        eng = engine_opts.api_engine(variant)
    except EngineError as err:  # a Python adapter that cannot be imported
        raise start_failed(err, bisect) from None
    try:
        try:
            starting(bisect, engine_dialect)(eng.backend)
        except EngineError as err:
            raise start_failed(err, bisect) from None
        with (
            output.progress(depth_n, "compare") as advance,
            crash_report(html_path, position_fen, board.chess960, eng.name, board.variant),
            _json_if_interrupted(as_json),
        ):
            result = compare_board(
                eng, board, position_fen, depth_n, budget, lambda step: advance(1), ident, engine_call(engine_opts),
                chesskit_fen,
            )
    finally:
        eng.close()
    note_dialect(dialect_of(result), as_json, eng.backend)
    try:
        show(result, as_json)
    finally:  # written if stdout was closed (| head: the descent is done), then exit 141
        write_compare(html_path, result.report, board.notes, result.regression)
    if not result.agree:
        raise MismatchError(result.summary())


@contextlib.contextmanager
def _json_if_interrupted(as_json: bool):
    """``--json`` of a run stopped in its descent (Ctrl-C, a CI job's SIGTERM): the steps so
    far, ``"agree"`` false where a step's counts differed, else null (not known), and suite's
    ``"interrupted"`` key (it printed nothing: QA 42c)."""
    try:
        yield
    except KeyboardInterrupt as err:
        report = getattr(err, "compare_report", None)
        if as_json and report is not None:
            from chesskit.cli.signals import interrupt_message, interrupted_signal

            data = report.to_json()
            data["agree"] = False if any(step.differing() for step in report.steps) else None
            output.emit_json({**data, "interrupted": interrupt_message(interrupted_signal())})
        raise


def dialect_of(result):
    """The dialect the engine spoke, with its description, for the note on stderr."""
    return None if result.dialect is None else {**result.dialect, "about": result.dialect_about}


def show(result, as_json: bool) -> None:
    """Print a ``chesskit.api.CompareResult``: its JSON, rich on a terminal, plain on a pipe."""
    from chesskit.cli import compare_render, regression_view

    if as_json:
        output.emit_json(result.to_json())
    elif output.stdout_is_terminal():
        compare_render.render_terminal(result.report, output.console())
        regression_view.echo(result.regression, terminal=True)
    else:
        click.echo(compare_render.plain_text(result.report), nl=False)
        regression_view.echo(result.regression)
