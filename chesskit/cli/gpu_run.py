"""``--device gpu`` for ``perft``, ``divide`` and ``suite``: the glue to ``chesskit.gpu`` (imported
here only when asked for, so the CPU path never loads CUDA)."""

from __future__ import annotations

from chesskit.errors import InputError
from chesskit.timer import Timer

_OPTION = {
    "stats": "--stats", "all_depths": "--all-depths", "hash": "--hash", "threads": "--threads",
    "cluster": "the cluster options",
}


def refuse(**given: bool) -> None:
    """One line (exit 2) for an option the GPU walk does not take."""
    for name, present in given.items():
        if present:
            verb = "are" if name == "cluster" else "is"  # "the cluster options" are plural
            raise InputError(f"--device gpu counts nodes only: {_OPTION[name]} {verb} for the CPU walk")


def count(board, depth: int, timer: Timer, by_move: bool = False) -> dict[str, int]:
    """perft (as ``{"": nodes}``) or divide on the GPU, timed; the kernels are compiled (or
    loaded) and the buffers made before the timer starts."""
    from chesskit.gpu import open_walk

    walk = open_walk()  # InputError (exit 2) where no GPU can be used
    walk.warm_up(board, depth)
    with timer:
        return walk.divide(board, depth) if by_move else {"": walk.perft(board, depth)}


def suite_walk(depth: int):
    """The GPU walk that counts a suite (``suites.session.execute``) to ``depth`` at most,
    its kernels compiled (or loaded) and its buffers made before the first count is timed."""
    from chesskit.board.board import Board
    from chesskit.gpu import open_walk

    walk = open_walk()  # InputError (exit 2) where no GPU can be used
    walk.warm_up(Board(), depth)
    return walk
