"""The Python board API: FEN parsing and validation (``fen``), the ``Board`` over the
compiled core with perft and divide (``board``), the leaf counters (``counters``) and the
consistency checker's Python side (``debug``).

May import: ``chesskit.vocab``, ``chesskit.errors``, ``chesskit.timer`` and
``chesskit.core``. Never the compare machinery, suites, the cluster or the CLI.
``from chesskit.board import Board`` loads the board (and numba) on first use only.
"""

__all__ = ["Board"]


def __getattr__(name: str):
    if name == "Board":
        from chesskit.board.board import Board

        return Board
    raise AttributeError(f"module 'chesskit.board' has no attribute {name!r}")
