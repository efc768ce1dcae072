"""``chesskit compare``: descend automatically to the node where an engine goes wrong."""

from __future__ import annotations

import click

from chesskit.cli import output
from chesskit.cli.engine_options import EngineOptions, engine_options, note_dialect
from chesskit.cli.options import (
    chess960_option,
    depth_argument,
    json_option,
    load_board,
    moves_option,
    strict_option,
    parse_count,
    parse_depth,
    position_argument,
)
from chesskit.errors import MismatchError


@click.command()
@position_argument
@depth_argument
@engine_options
@moves_option
@chess960_option
@click.option(
    "--state-pushes",
    metavar="N",
    default="2000",
    show_default=True,
    help="For a --python adapter with fen(): how many pushes the full-state sweep may make (0: only along the descent).",
)
@strict_option
@json_option
def compare(
    position: str,
    depth: str,
    engine_opts: EngineOptions,
    moves: str,
    chess960: bool,
    state_pushes: str,
    strict: bool,
    as_json: bool,
) -> None:
    """Find the first node where an engine's perft disagrees with chesskit's.

    Both divide POSITION at DEPTH; chesskit follows a root move whose counts differ
    one ply deeper, and so on, until the move lists themselves differ. It reports the
    path, the FEN, the board, the missing and extra moves with their likely cause, and
    the counts at every step. A --python adapter with fen() also has its full state
    (placement, side, castling, en passant, clocks) compared after pushes and pops.

    Exit codes: 0 agree, 1 disagree, 2 bad input, 3 the engine failed, 4 out of memory.
    """
    from chesskit.api.compare import compare_board
    from chesskit.api.position import engine_fen

    depth_n = parse_depth(depth, minimum=1, why=" (compare starts from a divide)")
    budget = parse_count(state_pushes, "--state-pushes")
    # the moves are checked by chesskit before any engine sees them: Stockfish
    # silently ignores an illegal move in 'position ... moves'
    board, ident = load_board(position, moves, chess960, strict)
    eng = engine_opts.api_engine()
    try:
        with output.progress(depth_n, "compare") as advance:
            result = compare_board(eng, board, engine_fen(position, board), depth_n, budget, lambda step: advance(1))
    finally:
        eng.close()
    note_dialect(dialect_of(result), as_json)
    show(result, as_json)
    if not result.agree:
        raise MismatchError(result.summary())


def dialect_of(result):
    """The dialect the engine spoke, with its description, for the note on stderr."""
    return None if result.dialect is None else {**result.dialect, "about": result.dialect_about}


def show(result, as_json: bool) -> None:
    """Print a ``chesskit.api.CompareResult``: its JSON, rich on a terminal, plain on a pipe."""
    from chesskit.cli import compare_render

    if as_json:
        output.emit_json(result.to_json())
    elif output.stdout_is_terminal():
        compare_render.render_terminal(result.report, output.console())
    else:
        click.echo(compare_render.plain_text(result.report), nl=False)
