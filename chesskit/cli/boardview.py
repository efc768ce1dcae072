"""Drawing a board: the plain text of ``show`` and the rich board of ``show`` and ``compare``."""

from __future__ import annotations

from collections.abc import Callable

from chesskit.glyphs import FIGURINES, promoted, ranks
from chesskit.vocab import FILE_NAMES as FILES

# (light, dark) square backgrounds by colour depth
SQUARES = {"rich": ("#f0d9b5", "#b58863"), "basic": ("white", "yellow")}


def colour_depth(con) -> str:
    """``"rich"`` on a console with 256 colours or more, else ``"basic"``."""
    return "rich" if con.color_system in ("truecolor", "256") else "basic"


def plain_lines(fen: str) -> list[str]:
    """The board as text, rank 8 first, then the file letters; a crazyhouse piece marked
    promoted has its ``~`` after the letter (``Q~``), in the gap before the next square."""
    marked = promoted(fen)
    lines = [
        f"{rank}  " + "".join(p + ("~" if f"{file}{rank}" in marked else " ") for file, p in zip(FILES, row)).rstrip()
        for rank, row in zip(range(8, 0, -1), ranks(fen))
    ]
    return [*lines, "   " + " ".join(FILES)]


def rich_board(fen: str, background: Callable[[str, bool], str], brackets: Callable[[str], str] | None = None):
    """The board as a rich ``Text``; ``background(square name, light)`` colours each square;
    a crazyhouse piece marked promoted has a ``~`` after its figurine. ``brackets(square)``
    (for a console without colour, NO_COLOR: the colours are the marks) gives a square's
    pair of brackets, ``"()"`` or ``"[]"``, or ``""`` for none (QA 41c)."""
    from rich.text import Text

    marked = promoted(fen)
    board = Text()
    for rank, row in zip(range(8, 0, -1), ranks(fen)):
        board.append(f"{rank} ", style="dim")
        for file, piece in zip(FILES, row):
            light = (FILES.index(file) + rank) % 2 == 0  # a1 is dark
            square = f"{file}{rank}"
            bg = background(square, light)
            pair = brackets(square) if brackets is not None else ""
            before, after = pair if pair else (" ", "~" if square in marked else " ")
            if piece == ".":
                board.append(f"{before} {after}" if pair else "   ", style=f"on {bg}")
            else:
                board.append(f"{before}{FIGURINES[piece]}{after}", style=f"bold black on {bg}")
        board.append("\n")
    board.append("   " + "  ".join(FILES), style="dim")
    return board
