"""How a piece is drawn as text, one owner for every board a terminal shows (``show`` and
``compare`` in ``chesskit.cli.boardview``, the explorer in ``chesskit.explore.app``): the
figurines, and the placement field read square by square.

Pure data, in the base layer: no import, and not hashed into the compile cache's name
(as ``chesskit.vocab`` is), so an edit here recompiles nothing.
"""

from __future__ import annotations

# Outlined figurines for White, solid for Black, both drawn in black: readable on light
# and dark squares alike, in any colour mode. Keyed by FEN letter.
FIGURINES = dict(zip("KQRBNPkqrbnp", "♔♕♖♗♘♙♚♛♜♝♞♟"))


def _rows(fen: str) -> list[str]:
    """The 8 ranks of the placement field, rank 8 first, each empty square a '.', a
    crazyhouse FEN's promoted marks (``~``) kept after their pieces and its pockets
    (``[Qn]``, or a ninth rank) left out."""
    return ["".join("." * int(c) if c.isdigit() else c for c in row) for row in fen.split()[0].split("[")[0].split("/")[:8]]


def ranks(fen: str) -> list[str]:
    """The 8 ranks of the placement field, rank 8 first, as 8 characters each ('.' empty);
    a crazyhouse FEN's pockets and promoted marks (``[Qn]``, ``~``) are left out."""
    return [row.replace("~", "") for row in _rows(fen)]


def promoted(fen: str) -> set[str]:
    """The squares (``"h1"``) of the pieces a crazyhouse FEN marks promoted (``Q~``): the
    pieces that go back to a pocket as pawns when captured. Empty for any other FEN."""
    marked = set()
    for index, row in enumerate(_rows(fen)):
        file = 0
        for c in row:
            if c != "~":
                file += 1
            elif file:
                marked.add("abcdefgh"[file - 1] + str(8 - index))
    return marked
