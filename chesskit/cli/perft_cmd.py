"""``chesskit perft`` and ``chesskit divide``."""

from __future__ import annotations

import click

from chesskit.cli import output, stats_cmd
from chesskit.cli.options import (
    chess960_option,
    depth_argument,
    json_option,
    load_board,
    moves_option,
    parse_depth,
    position_argument,
)
from chesskit.timer import Timer

# From this depth on a terminal, count root move by root move to drive a progress bar.
PROGRESS_DEPTH = 5


stats_option = click.option(
    "--stats",
    is_flag=True,
    help="Also count the last ply's captures, en passant, castles, promotions, checks, "
    "discovered and double checks, and checkmates.",
)


@click.command()
@position_argument
@depth_argument
@moves_option
@chess960_option
@stats_option
@click.option("--all-depths", is_flag=True, help="With --stats: one row per depth 1..DEPTH (implies --stats).")
@json_option
def perft(
    position: str, depth: str, moves: str, chess960: bool, stats: bool, all_depths: bool, as_json: bool
) -> None:
    """Count the leaf nodes of the legal move tree of POSITION to DEPTH.

    POSITION is a quoted FEN, 'startpos', or a suite id such as 'kiwipete'.
    DEPTH is an integer >= 0 (perft 0 is 1).
    """
    depth_n = parse_depth(depth)
    board, ident = load_board(position, moves, chess960)
    if stats or all_depths:
        stats_cmd.perft_stats(board, ident, depth_n, all_depths, as_json)
        return
    board.perft(1)  # load (or compile) the move generator outside the timed run
    timer = Timer()
    if not as_json and depth_n >= PROGRESS_DEPTH and output.stderr_is_terminal():
        nodes = sum(count_by_root_move(board, depth_n, timer, f"perft {depth_n}").values())
    else:
        with timer:
            nodes = board.perft(depth_n)
    seconds = timer.elapsed_s
    nps = output.nodes_per_second(nodes, seconds)
    if as_json:
        output.emit_json(
            {"fen": board.fen(), "depth": depth_n, "nodes": nodes, "seconds": round(seconds, 6), "nps": nps}
        )
    elif output.stdout_is_terminal():
        _perft_table(board.fen(), ident, depth_n, nodes, timer, nps)
    else:
        click.echo(f"Nodes searched: {nodes}\nTime: {timer.display()}\nNodes/second: {nps}")


@click.command()
@position_argument
@depth_argument
@moves_option
@chess960_option
@stats_option
@json_option
def divide(position: str, depth: str, moves: str, chess960: bool, stats: bool, as_json: bool) -> None:
    """Perft of POSITION to DEPTH split by the first move.

    On a pipe the output is Stockfish's 'go perft' format (moves sorted by UCI):
    one 'e2e4: 600' line per legal move, a blank line, 'Nodes searched: 8902'.
    DEPTH is an integer >= 1.
    """
    depth_n = parse_depth(depth, minimum=1, why=" (divide splits the count by the first move)")
    board, ident = load_board(position, moves, chess960)
    if stats:
        stats_cmd.divide_stats(board, ident, depth_n, as_json)
        return
    board.divide(1)  # load (or compile) the move generator outside the timed run
    board.perft(1)
    timer = Timer()
    if not as_json and depth_n >= PROGRESS_DEPTH and output.stderr_is_terminal():
        counts = count_by_root_move(board, depth_n, timer, f"divide {depth_n}")
    else:
        with timer:
            counts = board.divide(depth_n)
    counts = dict(sorted(counts.items()))
    nodes = sum(counts.values())
    seconds = timer.elapsed_s
    nps = output.nodes_per_second(nodes, seconds)
    if as_json:
        output.emit_json(
            {
                "fen": board.fen(),
                "depth": depth_n,
                "nodes": nodes,
                "seconds": round(seconds, 6),
                "nps": nps,
                "moves": counts,
            }
        )
    elif output.stdout_is_terminal():
        _divide_table(board.fen(), ident, depth_n, counts, timer, nps)
    else:
        click.echo(output.stockfish_divide(counts), nl=False)


def count_by_root_move(board, depth: int, timer: Timer, label: str) -> dict[str, int]:
    """Divide computed one root move at a time, advancing a progress bar on stderr."""
    moves = sorted(board.legal_moves())
    counts: dict[str, int] = {}
    with output.progress(len(moves), label) as advance, timer:
        for move in moves:
            board.push(move)
            counts[move] = board.perft(depth - 1)
            board.pop()
            advance(1)
    return counts


def _heading(kind: str, depth: int, ident: str | None, fen: str):
    from rich.text import Text

    title = Text.assemble((f"{kind} {depth}", "bold"), "  ", (ident or "", "cyan"))
    return title, Text(fen, style="dim")


def _perft_table(fen: str, ident: str | None, depth: int, nodes: int, timer: Timer, nps: int):
    from rich.table import Table

    con = output.console()
    title, fen_line = _heading("perft", depth, ident, fen)
    con.print(title)
    con.print(fen_line)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column(justify="right")
    grid.add_row("nodes", f"[bold green]{nodes}[/]")
    grid.add_row("time", timer.display())
    grid.add_row("nodes/second", f"{nps:,}")
    con.print(grid)


def _divide_table(fen, ident, depth, counts: dict[str, int], timer: Timer, nps: int):
    from rich.table import Table

    con = output.console()
    title, fen_line = _heading("divide", depth, ident, fen)
    con.print(title)
    con.print(fen_line)
    nodes = sum(counts.values())
    table = Table(show_footer=True, box=None, padding=(0, 2))
    table.add_column("move", footer=f"{len(counts)} moves")
    table.add_column("nodes", justify="right", footer=f"[bold green]{nodes}[/]")
    for move, count in counts.items():
        table.add_row(move, str(count))
    con.print(table)
    con.print(f"[dim]time[/] {timer.display()}   [dim]nodes/second[/] {nps:,}")
