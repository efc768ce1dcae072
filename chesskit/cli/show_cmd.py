"""``chesskit show``: draw a position with its state and legal moves."""

from __future__ import annotations

import click

from chesskit.board.describe import describe, game_status, variant_lines
from chesskit.cli import output
from chesskit.cli.html_out import check_writable, write_file
from chesskit.cli.boardview import SQUARES, colour_depth, plain_lines, rich_board
from chesskit.cli.options import (
    chess960_option,
    json_option,
    load_board,
    moves_option,
    position_argument,
    strict_option,
    variant_option,
)

# (light, dark) backgrounds of the last move's squares, by colour depth
LAST_MOVE = {"rich": ("#cdd26a", "#aaa23a"), "basic": ("bright_green", "green")}


@click.command()
@position_argument
@moves_option
@chess960_option
@variant_option
@strict_option
@click.option("--svg", "svg_path", metavar="FILE", help="Also write the board as an SVG image to FILE.")
@json_option
def show(
    position: str, moves: str, chess960: bool, variant: str, strict: bool, svg_path: str | None, as_json: bool
) -> None:
    """Draw POSITION with side to move, castling rights, en passant, clocks and legal moves
    (and a variant's pockets and check counters)."""
    check_writable(svg_path, option="--svg")
    board, ident = load_board(position, moves, chess960, strict, variant)
    if svg_path is not None:
        from chesskit.report.svg import board_svg

        last = board.move_stack[-1] if board.move_stack else None
        svg = board_svg(board.shown_fen(), last_move=last, chess960=board.chess960, variant=getattr(board, "variant", "chess"))
        write_file(svg_path, svg + "\n", "--svg")
    info = describe(board, ident)
    if as_json:  # the id names the position --moves started from: the moves say where it stands now
        output.emit_json({**info, "moves": list(board.move_stack)})
        return
    # the id names the position --moves started from
    label = f"{ident} after {' '.join(board.move_stack)}" if ident and board.move_stack else ident
    if output.stdout_is_terminal():
        _render_terminal(info, board.move_stack[-1] if board.move_stack else None, label)
    else:
        _render_plain(info, label)


def _state_lines(info: dict) -> list[tuple[str, str]]:
    moves = info["legal_moves"]
    return [
        ("fen", info["fen"]),
        *variant_lines(info),
        ("side to move", info["turn"] + game_status(info)),
        ("castling", info["castling"]),
        ("en passant", info["ep"] or "-"),
        ("halfmove clock", str(info["halfmove"])),
        ("fullmove number", str(info["fullmove"])),
        ("chess960", "yes" if info["chess960"] else "no"),
        (f"legal moves ({len(moves)})", " ".join(moves) or "none"),
    ]


def _render_plain(info: dict, label: str | None) -> None:
    for line in plain_lines(info["fen"]):
        click.echo(line)
    click.echo()
    if label:
        click.echo(f"id: {label}")
    for name, value in _state_lines(info):
        click.echo(f"{name}: {value}")


def _render_terminal(info: dict, last_move: str | None, label: str | None) -> None:
    from rich.table import Table
    from rich.text import Text

    con = output.console()
    depth = colour_depth(con)
    highlighted = set()
    if last_move:
        highlighted = {last_move[0:2], last_move[2:4]}

    def background(square: str, light: bool) -> str:
        palette = LAST_MOVE if square in highlighted else SQUARES
        return palette[depth][0 if light else 1]

    board = rich_board(info["fen"], background, (lambda sq: "[]" if sq in highlighted else "") if con.no_color else None)

    state = Table.grid(padding=(0, 2))
    state.add_column(style="dim")
    state.add_column(overflow="fold")
    if label:
        state.add_row("id", Text(label, style="cyan"))
    for name, value in _state_lines(info):
        state.add_row(name, value)
    con.print(board)
    con.print()
    con.print(state)
