"""``chesskit debug``: the consistency checker over every node of a perft tree."""

from __future__ import annotations

import dataclasses

import click

from chesskit.cli import output, perft_view
from chesskit.cli.options import (
    chess960_option,
    depth_argument,
    json_option,
    load_board,
    moves_option,
    strict_option,
    variant_option,
    parse_depth,
    position_argument,
)
from chesskit.board.debug import DebugResult, InvariantError, run_checks
from chesskit.board import vdebug
from chesskit.board.vdebug import VFAULTS
from chesskit.errors import InputError
from chesskit.invariants import FAULTS
from chesskit.timer import Timer


@click.command()
@position_argument
@depth_argument
@moves_option
@chess960_option
@variant_option
@click.option(
    "--fen-depth",
    metavar="D",
    help="Read the FEN back at every node down to ply D, at most DEPTH (default DEPTH-1: every "
    "node moves are generated from; each costs ~0.3 ms, so the leaves are left out).",
)
@click.option("--inject", type=click.Choice(sorted({*FAULTS, *VFAULTS})), hidden=True, help="Inject a fault (tests).")
@strict_option
@json_option
def debug(
    position: str,
    depth: str,
    moves: str,
    chess960: bool,
    variant: str,
    fen_depth: str | None,
    inject: str | None,
    strict: bool,
    as_json: bool,
) -> None:
    """Check the board's invariants at every node of POSITION's tree to DEPTH.

    After every make and every unmake: bitboards against the square array, the Zobrist
    key against one computed from scratch, castling rights, the en-passant square, the
    clocks, the side that moved not in check, the generated moves against a simple
    make-and-test generator, unmake restoring every field; and the FEN read back.
    On the first violation it prints the move path, the FEN before the move, the move,
    the invariant's name and the expected and actual values, and exits 1.
    """
    depth_n = parse_depth(depth)
    fen_n = None if fen_depth is None else parse_depth(fen_depth, name="--fen-depth")
    if fen_n is not None and fen_n > depth_n:
        raise InputError(
            f"bad --fen-depth {fen_n}: deeper than DEPTH {depth_n}, the tree's last ply "
            f"(--fen-depth {depth_n} reads the FEN back at the leaves too)"
        )
    board, ident = load_board(position, moves, chess960, strict, variant)
    faults = FAULTS if board.variant == "chess" else VFAULTS
    if inject is not None and inject not in faults:
        raise InputError(f"--inject {inject}: not a fault of {'standard chess' if board.variant == 'chess' else 'a variant'}'s checker")
    board.debug(0)  # load (or compile) the checker outside the timed run
    checks = run_checks if board.variant == "chess" else vdebug.run_checks
    with Timer() as timer:  # a bar with the time elapsed on a terminal, after half a second
        result = output.in_background(lambda: checks(board, depth_n, inject, fen_n), "debug", not as_json)
    if result.violation is not None and board.move_stack:  # the path from POSITION
        full = board.move_stack + result.violation.path
        result = dataclasses.replace(result, violation=dataclasses.replace(result.violation, path=full))
    if as_json:
        output.emit_json({**result.to_json(), "variant": board.variant, "notes": board.notes})
    elif output.stdout_is_terminal():
        _render_terminal(result, board, ident, depth_n, timer)
    else:
        _render_plain(result, timer)
    if result.violation is not None:
        raise InvariantError(result.violation)


def _render_plain(result: DebugResult, timer: Timer) -> None:
    if result.violation is not None:
        click.echo(result.violation.describe())
        return
    click.echo(f"ok: no invariant violated\nNodes: {result.nodes}\nChecks: {result.checks}\nTime: {timer.display()}")


def _render_terminal(result: DebugResult, board, ident: str | None, depth: int, timer: Timer) -> None:
    from rich.table import Table
    from rich.text import Text

    con = output.console()
    for line in perft_view.heading("debug", depth, ident, board.shown_fen(), board.variant):
        con.print(line)
    v = result.violation
    if v is None:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim")
        grid.add_column(justify="right")
        grid.add_row("nodes", str(result.nodes))
        grid.add_row("checks", f"{result.checks:,}")
        grid.add_row("time", timer.display())
        con.print(grid)
        con.print(Text("ok: no invariant violated", style="bold green"))
        return
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column(overflow="fold")
    grid.add_row("invariant", Text(v.check, style="bold red"))
    grid.add_row("path", " ".join(v.path) or "(start position)")
    grid.add_row("fen", v.fen)
    grid.add_row("move", v.move or "-")
    grid.add_row("expected", Text(v.expected, style="green"))
    grid.add_row("actual", Text(v.actual, style="red"))
    con.print(grid)
