"""The FEN of every node along a move path, for a report's step boards.

The path is replayed with chesskit's own ``Board`` (the moves are UCI, legal: they came
from chesskit's divides), so the boards show exactly the nodes that were compared. A
Chess960 node's FEN is written in Shredder-FEN (``Board.shown_fen``), as every FEN shown is.
"""

from __future__ import annotations

from chesskit.errors import ChesskitError


def path_fens(root_fen: str | None, chess960: bool | None, path: list[str], variant: str = "chess") -> list[str | None]:
    """``[root, after path[0], after path[:2], ...]``: ``len(path) + 1`` FENs, None from the
    first node that cannot be set up or reached (a report is drawn whatever its data)."""
    fens: list[str | None] = [None] * (len(path) + 1)
    if not root_fen:
        return fens
    from chesskit.board.board import Board  # loads the compiled core: only when drawing a path

    try:
        board = Board(root_fen, chess960=chess960, variant=variant)
        fens[0] = board.shown_fen()
        for i, move in enumerate(path, 1):
            board.push(move)
            fens[i] = board.shown_fen()
    except ChesskitError:
        pass
    return fens
