"""How a perft result is shown, shared by ``perft`` on one machine and on a cluster: the
Stockfish-style lines for a pipe and the heading and table for a terminal (the heading is
also divide's, the leaf counters' and debug's)."""

from __future__ import annotations

from chesskit.cli import output
from chesskit.timer import format_seconds


def pipe_lines(nodes: int, seconds: float, nps: int) -> str:
    """The three lines ``go perft`` users expect: nodes, time and nodes per second."""
    return f"Nodes searched: {nodes}\nTime: {format_seconds(seconds)}\nNodes/second: {nps}"


def heading(kind: str, depth: int, ident: str | None, fen: str, variant: str = "chess", flags: str = ""):
    """The title (``perft 5  kiwipete``; ``flags`` after the depth: ``perft 2 --stats``; a
    variant's name after the id: ``perft 2  startpos  atomic``) and the dimmed FEN line
    above a result."""
    from rich.text import Text

    title = Text.assemble((f"{kind} {depth}{flags}", "bold"), "  ", (ident or "", "cyan"))
    if variant != "chess":
        title.append_text(Text.assemble("  ", (variant, "magenta")))
    return title, Text(fen, style="dim")


def setting_rows(hash_mb, threads) -> list[tuple[str, str]]:
    """The table and threads a count ran with, as (name, value) rows: none on the GPU
    (both None)."""
    if hash_mb is None:
        return []
    from chesskit.board.tablesize import mib_text

    return [("table", f"{mib_text(hash_mb)} MiB" if hash_mb else "none"), ("threads", str(threads))]


def perft_table(
    fen: str, ident: str | None, depth: int, nodes: int, seconds: float, nps: int, extra=(), variant: str = "chess"
) -> None:
    """The heading and a grid of nodes, time and nodes/second, then the ``extra`` (name, value) rows."""
    from rich.table import Table

    con = output.console()
    for line in heading("perft", depth, ident, fen, variant):
        con.print(line)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column(justify="right")
    grid.add_row("nodes", f"[bold green]{nodes}[/]")
    grid.add_row("time", format_seconds(seconds))
    grid.add_row("nodes/second", f"{nps:,}")
    for name, value in extra:
        grid.add_row(name, value)
    con.print(grid)
