"""perft and divide in the compiled core.

The tree walk uses an explicit stack (one move-buffer row, count and index per level)
instead of recursion: numba cannot cache a recursive function, and the loop is faster.
The last ply is counted in bulk (popcounts of target sets, no moves made).
"""

import numpy as np
from numba import njit

from .makemove import make, unmake
from .movegen import _generate


@njit(cache=True)
def _walk(T, bb, board, st, hist, hkeys, depth):
    """perft for depth >= 2."""
    moves = np.empty((depth, 256), dtype=np.int64)
    nmoves = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    nmoves[0] = _generate(T, bb, board, st, moves[0], False)
    total = np.int64(0)
    level = 0
    while level >= 0:
        i = index[level]
        if i < nmoves[level]:
            index[level] = i + 1
            make(T, bb, board, st, hist, hkeys, moves[level, i])
            if level == depth - 2:
                total += _generate(T, bb, board, st, moves[level + 1], True)
                unmake(bb, board, st, hist, hkeys)
            else:
                level += 1
                nmoves[level] = _generate(T, bb, board, st, moves[level], False)
                index[level] = 0
        else:
            level -= 1
            if level >= 0:
                unmake(bb, board, st, hist, hkeys)
    return total


@njit(cache=True)
def perft(T, bb, board, st, hist, hkeys, depth):
    """Leaf count of the tree of depth ``depth`` (``perft(0) == 1``)."""
    if depth == 0:
        return np.int64(1)
    if depth == 1:
        scratch = np.empty(256, dtype=np.int64)
        return np.int64(_generate(T, bb, board, st, scratch, True))
    return _walk(T, bb, board, st, hist, hkeys, depth)


@njit(cache=True)
def divide(T, bb, board, st, hist, hkeys, depth, root_moves, counts):
    """Write the root moves and the perft(depth - 1) below each; return how many (depth >= 1)."""
    n = _generate(T, bb, board, st, root_moves, False)
    for i in range(n):
        make(T, bb, board, st, hist, hkeys, root_moves[i])
        counts[i] = perft(T, bb, board, st, hist, hkeys, depth - 1)
        unmake(bb, board, st, hist, hkeys)
    return n
