"""``chesskit compare``: descend automatically to the node where an engine goes wrong."""

from __future__ import annotations

import click

from chesskit.board.fen import format_fen, parse_fen
from chesskit.cli import output
from chesskit.cli.html_out import check_writable, crash_report, html_option, write_compare
from chesskit.cli.engine_options import (
    EngineOptions,
    castling_spelling,
    engine_dialect,
    engine_options,
    note_dialect,
)
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
from chesskit.cli.regression_view import engine_call
from chesskit.cli.run_options import bisect_option, start_failed, starting
from chesskit.compare.regression import from_report
from chesskit.errors import EngineError, MismatchError
from chesskit.suites.positions import resolve_position


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
    from chesskit.compare.descent import descend
    from chesskit.compare.statecmp import state_checker

    depth_n = parse_depth(depth, minimum=1, why=" (compare starts from a divide)")
    budget = parse_count(state_pushes, "--state-pushes")
    check_writable(html_path, engine_opts.input_files())
    # the moves are checked by chesskit before any engine sees them: Stockfish
    # silently ignores an illegal move in 'position ... moves'
    board, ident = load_board(position, moves, chess960, strict)
    prefix = board.move_stack
    position_fen, chesskit_fen = _position_fens(position, board, engine_fen)
    try:
        eng = engine_opts.open()
    except EngineError as err:  # a Python adapter that cannot be imported
        raise start_failed(err, bisect) from None
    try:
        try:
            spoken = starting(bisect, engine_dialect)(eng)
        except EngineError as err:
            raise start_failed(err, bisect) from None
        checker = state_checker(eng, position_fen, prefix, board.chess960, budget)
        with output.progress(depth_n, "compare") as advance, crash_report(html_path, position_fen, board.chess960, eng.name):
            report = descend(
                board,
                eng,
                depth_n,
                position_fen,
                prefix,
                checker=checker,
                engine_name=eng.name,
                on_step=lambda step: advance(1),
            )
    finally:
        eng.close()
    report.chesskit_fen = chesskit_fen
    note_dialect(spoken, as_json, eng)
    regression = from_report(report, ident or "compare", engine_call(engine_opts))
    show(report, as_json, spoken, board.notes, regression, castling_spelling(eng))
    write_compare(html_path, report, board.notes, regression)
    if not report.agree:
        raise MismatchError(report.summary())


def _position_fens(position: str, board, engine_fen: str = "typed") -> tuple[str, str]:
    """The FEN of POSITION (a FEN or a suite id's, before --moves) to give the engine, and
    the one chesskit counts.

    They differ only for a position that cannot arise in a game: chesskit reads it without
    the castling rights it drops and the en-passant square it ignores, and the engine gets
    it as typed (engines read those in their own ways: Stockfish looks for another rook for
    a right whose rook is missing), or with ``engine_fen="chesskit"`` as chesskit reads it."""
    fen, _ = resolve_position(position)
    typed = " ".join(fen.split())
    if not board.notes:
        return typed, typed
    ours = format_fen(parse_fen(fen, board.chess960))
    return (ours if engine_fen == "chesskit" else typed), ours


def show(
    report, as_json: bool, dialect=None, position_notes: list[str] = (), regression=None, castling: str | None = None
) -> None:
    from chesskit.cli import compare_render, regression_view

    if as_json:
        data = report.to_json()
        if dialect is not None:
            data["dialect"] = {k: v for k, v in dialect.items() if k != "about"}
        # "king-takes-rook": the engine wrote standard castles as e1h1 (read as e1g1)
        data["castling_spelling"] = castling
        # "notes" already holds the missing and extra moves' classification
        data["position_notes"] = list(position_notes)
        data["regression"] = regression_view.to_json(regression)
        output.emit_json(data)
    elif output.stdout_is_terminal():
        compare_render.render_terminal(report, output.console())
        regression_view.echo(regression, terminal=True)
    else:
        click.echo(compare_render.plain_text(report), nl=False)
        regression_view.echo(regression)
