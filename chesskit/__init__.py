"""chesskit: a perft and move-generator debugging toolkit for chess programmers.

``from chesskit import Board`` gives the Python-facing board; it is loaded on first
use so that importing chesskit (and starting the CLI) stays cheap.
"""

__version__ = "0.1.0"

__all__ = ["Board", "__version__"]


def __getattr__(name: str):
    if name == "Board":
        from chesskit.board.board import Board

        return Board
    raise AttributeError(f"module 'chesskit' has no attribute {name!r}")
