"""The Python board API: FEN parsing and validation (``fen``), the ``Board`` over the
compiled core (``board``), perft and divide on one thread or a pool of them, and
``usable_cores`` (``threads``), the leaf counters (``counters``) and the consistency
checker's Python side (``debug``).

May import: ``chesskit.vocab``, ``chesskit.invariants``, ``chesskit.errors``, ``chesskit.timer`` and
``chesskit.core``. Never the compare machinery, suites, the cluster or the CLI.
``from chesskit.board import Board`` loads the board (and numba) on first use only.
"""

__all__ = ["Board"]


def __getattr__(name: str):
    if name == "Board":
        from chesskit.board.board import Board

        return Board
    raise AttributeError(f"module 'chesskit.board' has no attribute {name!r}")
