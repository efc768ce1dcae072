"""perft on an NVIDIA GPU with numba-cuda (``--device gpu``; ``pip install 'chesskit-perft[gpu]'``).

Imported only for ``--device gpu``: nothing else in chesskit imports CUDA. The GPU has no
move generator of its own: ``rules`` compiles the core's functions (``core/movegen``,
``core/makemove``) for the GPU, ``kernels`` calls them, ``walk`` drives the kernels level
by level from the host, and ``device`` finds a usable GPU or says in one line why not.

``perft(board, depth)`` and ``divide(board, depth)`` take a ``chesskit.board.Board``.
"""

from __future__ import annotations


def open_walk(cap: int | None = None):
    """A ``walk.Walk`` on this machine's GPU: ``InputError`` (exit 2) first, in one line,
    where numba-cuda, a CUDA driver or a GPU is missing."""
    from .device import require

    require()
    from .walk import Walk

    return Walk(cap)


def perft(board, depth: int, cap: int | None = None) -> int:
    """perft(``depth``) of ``board`` counted on the GPU."""
    return open_walk(cap).perft(board, depth)


def divide(board, depth: int, cap: int | None = None) -> dict[str, int]:
    """perft(``depth - 1``) after each legal move of ``board``, counted on the GPU, by UCI move."""
    return open_walk(cap).divide(board, depth)
