"""``perft --stats`` / ``perft --all-depths`` / ``divide --stats``: counting and rendering.

perft_cmd.py hands over to these when the flags are given. Three outputs as everywhere:
``--json`` (the counters under ``"stats"``, per root move under ``"move_stats"``), a rich
table on a terminal, and on a pipe plain whitespace-separated columns headed by the JSON
names, followed by the usual ``Nodes searched:`` line.
"""

from __future__ import annotations

import click

from chesskit.cli import output, perft_view
from chesskit.board.counters import counter_names, headings, only_stats, stats_by_depth, total
from chesskit.timer import Timer

# what the counters' walk runs with (``--json``'s "hash_mb" and "threads", as perft's):
# one thread and no table, whatever the defaults
STATS_SETTING = {"hash_mb": 0, "threads": 1}


def perft_stats(board, ident: str | None, depth: int, all_depths: bool, as_json: bool) -> None:
    """Print perft with the leaf-move counters: DEPTH's row, or one row per depth 1..DEPTH
    (``all_depths``; at DEPTH 0 its one row, as the wiki's tables start: 1 node, no leaf move)."""
    board.stats(1)  # load (or compile) the counters outside the timed run
    with Timer() as timer:
        count = lambda: stats_by_depth(board, depth) if depth > 0 else [board.stats(0)]  # noqa: E731
        flags = " --all-depths" if all_depths else " --stats"  # as given: --all-depths implies --stats
        rows = output.in_background(count, f"perft {depth}{flags}", wanted=not as_json)
    shown = list(enumerate(rows, start=1)) if all_depths and depth > 0 else [(depth, rows[-1])]
    nodes = rows[-1]["nodes"]
    names = counter_names(board)
    nps = output.nodes_per_second(nodes, timer.elapsed_s)
    if as_json:
        data = {
            "fen": board.shown_fen(),
            "variant": board.variant,
            "depth": depth,
            "nodes": nodes,
            "seconds": round(timer.elapsed_s, 6),
            "nps": nps,
            "stats": only_stats(rows[-1]),
            "notes": board.notes,
            **STATS_SETTING,
        }
        if all_depths:
            data["depths"] = [{"depth": d, "nodes": row["nodes"], "stats": only_stats(row)} for d, row in shown]
        output.emit_json(data)
    elif output.stdout_is_terminal():
        _table("perft", board, ident, depth, "depth", [(str(d), row) for d, row in shown], None, timer, nps, names, flags)
    else:
        lines = _plain_rows("depth", [(str(d), [row[name] for name in names]) for d, row in shown], names)
        lines += ["", f"Nodes searched: {nodes}", f"Time: {timer.display()}", f"Nodes/second: {nps}"]
        click.echo("\n".join(lines))


def divide_stats(board, ident: str | None, depth: int, as_json: bool) -> None:
    """Print divide with the leaf-move counters below each root move, and their total."""
    board.divide_stats(1)  # load (or compile) the counters outside the timed run
    with Timer() as timer:
        count = lambda: board.divide_stats(depth)  # noqa: E731
        rows = dict(sorted(output.in_background(count, f"divide {depth} --stats", wanted=not as_json).items()))
    names = counter_names(board)
    summed = total(rows, names)
    nodes = summed["nodes"]
    nps = output.nodes_per_second(nodes, timer.elapsed_s)
    if as_json:
        output.emit_json(
            {
                "fen": board.shown_fen(),
                "variant": board.variant,
                "depth": depth,
                "nodes": nodes,
                "seconds": round(timer.elapsed_s, 6),
                "nps": nps,
                "moves": {move: row["nodes"] for move, row in rows.items()},
                "stats": only_stats(summed),
                "move_stats": {move: only_stats(row) for move, row in rows.items()},
                "notes": board.notes,
                **STATS_SETTING,
            }
        )
    elif output.stdout_is_terminal():
        footer = (f"{len(rows)} moves", summed)
        _table("divide", board, ident, depth, "move", list(rows.items()), footer, timer, nps, names)
    else:
        table = [(move, [row[name] for name in names]) for move, row in rows.items()]
        lines = _plain_rows("move", [*table, ("total", [summed[name] for name in names])], names)
        lines += ["", f"Nodes searched: {nodes}", ""]
        click.echo("\n".join(lines))


def _plain_rows(first: str, rows: list[tuple[str, list]], names) -> list[str]:
    """The heading and ``rows`` (label, values) on a pipe, each column as wide as its
    widest cell (a 9-digit count pushed its row out of line)."""
    label = max([7, len(first), *(len(text) for text, _ in rows)])
    widths = [max([7, len(name), *(len(str(values[i])) for _, values in rows)]) for i, name in enumerate(names)]

    def line(text: str, values) -> str:
        cells = [f"{text:<{label}}"] + [f"{value!s:>{width}}" for value, width in zip(values, widths)]
        return "  ".join(cells).rstrip()

    return [line(first, names), *(line(text, values) for text, values in rows)]


def _table(kind, board, ident, depth, first, rows, footer, timer: Timer, nps: int, names, flags=" --stats") -> None:
    from rich.table import Table

    con = output.console()
    for line in perft_view.heading(kind, depth, ident, board.shown_fen(), board.variant, flags=flags):
        con.print(line)
    widths = {name: _width(name, rows, footer) for name in names}
    for part in _fitting(con.width, first, rows, footer, widths):
        table = Table(show_footer=footer is not None, box=None, padding=(0, 1))
        table.add_column(first, footer=footer[0] if footer else "", no_wrap=True)
        for name in part:
            table.add_column(
                headings()[name],
                justify="right",
                footer=f"[bold]{footer[1][name]}[/]" if footer else "",
                style="green" if name == "nodes" else None,
                no_wrap=True,
                min_width=widths[name],
            )
        for label, row in rows:
            table.add_row(label, *(str(row[name]) for name in part))
        con.print(table)
    con.print(f"[dim]time[/] {timer.display()}   [dim]nodes/second[/] {nps:,}")


def _width(name: str, rows, footer) -> int:
    """A counter's column: its longest number, or its heading."""
    numbers = [len(str(row[name])) for _, row in rows] + ([len(str(footer[1][name]))] if footer else [])
    return max(*numbers, len(headings()[name]))


def _fitting(width: int, first: str, rows, footer, widths: dict[str, int]) -> list[list[str]]:
    """The counters (``widths``: each one's column, in order) in runs whose table fits
    ``width`` columns, one table each: on a narrow terminal the numbers are never cut (an
    80-column one cut Kiwipete 4's node count to "40856…"); each table repeats the first
    column."""
    labels = [first, *(label for label, _ in rows), *([footer[0]] if footer else [])]
    lead = max(len(label) for label in labels) + 2  # the first column and its padding
    parts: list[list[str]] = [[]]
    used = lead
    for name, column in widths.items():
        need = column + 2
        if parts[-1] and used + need > width:
            parts.append([])
            used = lead
        parts[-1].append(name)
        used += need
    return parts
