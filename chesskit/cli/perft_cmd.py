"""``chesskit perft`` and ``chesskit divide``."""

from __future__ import annotations

import click

from chesskit.cli import gpu_run, long_run, output, perft_view, stats_cmd
from chesskit.cli.cluster_cmd import cluster_options  # the options only: Dask loads on use
from chesskit.cli.options import (
    chess960_option,
    default_threads,
    depth_argument,
    depth_rule,
    device_option,
    hash_option,
    json_option,
    load_board,
    moves_option,
    parse_depth,
    position_argument,
    standard_only,
    strict_option,
    table_mb,
    threads_option,
    variant_option,
)
from chesskit.timer import Timer

# From this depth on a terminal, count the tree in parts to drive a progress bar.
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
@variant_option
@stats_option
@click.option(
    "--all-depths",
    is_flag=True,
    help="With --stats: one row per depth 1..DEPTH, at DEPTH 0 its one row (perft 0 is 1) (implies --stats).",
)
@hash_option
@threads_option
@cluster_options
@device_option
@strict_option
@json_option
def perft(
    position: str,
    depth: str,
    moves: str,
    chess960: bool,
    stats: bool,
    all_depths: bool,
    hash_mb: int | None,
    threads: int | None,
    cluster,
    device: str,
    strict: bool,
    as_json: bool,
    variant: str,
) -> None:
    """Count the leaf nodes of the legal move tree of POSITION to DEPTH.

    POSITION is a quoted FEN, 'startpos', or a suite id such as 'kiwipete'.
    DEPTH is an integer >= 0 (perft 0 is 1).
    """
    depth_n = parse_depth(depth)
    if device == "gpu":
        gpu_run.refuse(all_depths=all_depths, stats=stats, hash=hash_mb is not None, threads=threads is not None,
                       cluster=cluster is not None)
    standard_only(variant, gpu=device == "gpu", cluster=cluster is not None)
    board, ident = load_board(position, moves, chess960, strict, variant)
    if cluster is not None:  # --scheduler, --workers, --checkpoint or --split-depth: docs/cluster.md
        cluster.perft_command(board, ident, depth_n, hash_mb, as_json, stats=stats or all_depths)
        return
    if stats or all_depths:
        long_run.refuse_with_stats("--all-depths" if all_depths else "--stats", hash_mb, threads)
        stats_cmd.perft_stats(board, ident, depth_n, all_depths, as_json)
        return
    timer = Timer()
    if device == "gpu":
        nodes = gpu_run.count(board, depth_n, timer)[""]
    else:
        threads = threads or default_threads()
        board.warm_up(threads)  # load (or compile) the move generator outside the timed run
        long_run.note_long_run(board, depth_n, threads)
        hash_mb = table_mb(hash_mb, depth_n, board)
        nodes = sum(_count(board, depth_n, hash_mb, threads, timer, f"perft {depth_n}", as_json).values())
    seconds = timer.elapsed_s
    nps = output.nodes_per_second(nodes, seconds)
    setting = _setting(device, hash_mb, threads, depth_n)
    if as_json:
        output.emit_json(
            {
                "fen": board.shown_fen(),
                "variant": board.variant,
                "depth": depth_n,
                "nodes": nodes,
                "seconds": round(seconds, 6),
                "nps": nps,
                "notes": board.notes,
                **setting,
            }
        )
    elif output.stdout_is_terminal():
        perft_view.perft_table(board.shown_fen(), ident, depth_n, nodes, seconds, nps, perft_view.setting_rows(**setting),
                               board.variant)
    else:
        click.echo(perft_view.pipe_lines(nodes, seconds, nps))


# DEPTH at least 1 (divide splits the count by the first move)
DIVIDE_DEPTH = {"minimum": 1, "why": " (divide splits the count by the first move)"}


@depth_rule(**DIVIDE_DEPTH)
@click.command()
@position_argument
@depth_argument
@moves_option
@chess960_option
@variant_option
@stats_option
@hash_option
@threads_option
@device_option
@strict_option
@json_option
def divide(
    position: str, depth: str, moves: str, chess960: bool, stats: bool, hash_mb: int | None, threads: int | None,
    device: str, strict: bool, as_json: bool, variant: str,
) -> None:
    """Perft of POSITION to DEPTH split by the first move.

    On a pipe the output is Stockfish's 'go perft' format (moves sorted by UCI):
    one 'e2e4: 600' line per legal move, a blank line, 'Nodes searched: 8902'.
    DEPTH is an integer >= 1.
    """
    depth_n = parse_depth(depth, **DIVIDE_DEPTH)
    if device == "gpu":
        gpu_run.refuse(stats=stats, hash=hash_mb is not None, threads=threads is not None)
    standard_only(variant, gpu=device == "gpu")
    board, ident = load_board(position, moves, chess960, strict, variant)
    if stats:
        long_run.refuse_with_stats("--stats", hash_mb, threads)
        stats_cmd.divide_stats(board, ident, depth_n, as_json)
        return
    timer = Timer()
    if device == "gpu":
        counts = gpu_run.count(board, depth_n, timer, by_move=True)
    else:
        threads = threads or default_threads()
        board.warm_up(threads)  # load (or compile) the move generator outside the timed run
        long_run.note_long_run(board, depth_n, threads)
        hash_mb = table_mb(hash_mb, depth_n, board)
        counts = _count(board, depth_n, hash_mb, threads, timer, f"divide {depth_n}", as_json, by_move=True)
    counts = dict(sorted(counts.items()))
    nodes = sum(counts.values())
    seconds = timer.elapsed_s
    nps = output.nodes_per_second(nodes, seconds)
    setting = _setting(device, hash_mb, threads, depth_n)
    if as_json:
        output.emit_json(
            {
                "fen": board.shown_fen(),
                "variant": board.variant,
                "depth": depth_n,
                "nodes": nodes,
                "seconds": round(seconds, 6),
                "nps": nps,
                "moves": counts,
                "notes": board.notes,
                **setting,
            }
        )
    elif output.stdout_is_terminal():
        _divide_table(board, ident, depth_n, counts, timer, nps, perft_view.setting_rows(**setting))
    else:
        click.echo(output.stockfish_divide(counts), nl=False)


def _count(board, depth, hash_mb, threads, timer: Timer, label, as_json, by_move=False) -> dict[str, int]:
    """perft (as ``{"": nodes}``) or divide, timed; on a terminal with a progress bar
    (parts of the tree done, nodes so far, ETA) once the tree is deep enough to take a while."""
    run = board.divide if by_move else (lambda *a, **k: {"": board.perft(*a, **k)})
    if as_json or depth < PROGRESS_DEPTH or not output.stderr_is_terminal():
        with timer:
            return run(depth, hash_mb=hash_mb, threads=threads)
    with output.progress(1.0, label, counted=False) as advance, timer:
        last = [0.0]

        def report(done: int, total: int, nodes: int) -> None:
            advance(done / total - last[0])
            last[0] = done / total

        return run(depth, hash_mb=hash_mb, threads=threads, progress=report)


def _setting(device: str, hash_mb, threads, depth: int) -> dict:
    """What the count ran with, for ``--json``: the table in MiB (0: none) and the threads
    (one for a tree too shallow to share out); both null on the GPU, which has neither."""
    from chesskit.board.threads import threads_for

    if device == "gpu":
        return {"hash_mb": None, "threads": None}
    return {"hash_mb": hash_mb, "threads": threads_for(depth, threads)}


def _divide_table(board, ident, depth, counts: dict[str, int], timer: Timer, nps: int, setting=()):
    from rich.table import Table

    con = output.console()
    title, fen_line = perft_view.heading("divide", depth, ident, board.shown_fen(), board.variant)
    con.print(title)
    con.print(fen_line)
    nodes = sum(counts.values())
    table = Table(show_footer=True, box=None, padding=(0, 2))
    table.add_column("move", footer=f"{len(counts)} moves")
    table.add_column("nodes", justify="right", footer=f"[bold green]{nodes}[/]")
    for move, count in counts.items():
        table.add_row(move, str(count))
    con.print(table)
    con.print("   ".join(f"[dim]{name}[/] {value}" for name, value in (("time", timer.display()), ("nodes/second", f"{nps:,}"), *setting)))
