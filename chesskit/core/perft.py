"""perft in the compiled core (divide and the parallel split are in Board, in Python).

The tree walk uses an explicit stack (per level: a move-buffer row, the move count, the
next index and the running subtotal) instead of recursion: numba cannot cache a
recursive function, and the loop is faster. The last ply is counted in bulk (popcounts
of target sets, no moves made). Interior nodes two or more plies above the leaves are
looked up in and stored to the transposition table ``tt`` (an empty array disables it).

The walk borrows every array it touches (``noref.borrow``): without that, numba's
reference counting costs a third of the time in the bulk-counting loop. The entry point
allocates the walk's buffers and holds them until the walk returns, as borrowing needs.
"""

import numpy as np
from numba import njit

from .makemove import make, make_for_count, unmake
from .movegen import _generate, count_legal, generate
from .noref import borrow
from .position import KEY, MAX_MOVES
from .tt import probe, store


@njit(cache=True)
def _walk(T, bb, board, st, hist, hkeys, depth, tt, moves, nmoves, index, acc, scratch, leaf_bb, leaf_st):
    """perft for depth >= 2, with the buffers ``perft`` allocates."""
    T = borrow(T)
    bb = borrow(bb)
    board = borrow(board)
    st = borrow(st)
    hist = borrow(hist)
    hkeys = borrow(hkeys)
    tt = borrow(tt)
    moves = borrow(moves)
    nmoves = borrow(nmoves)
    index = borrow(index)
    acc = borrow(acc)
    scratch = borrow(scratch)
    leaf_bb = borrow(leaf_bb)
    leaf_st = borrow(leaf_st)
    nmoves[0] = generate(T, bb, board, st, moves[0])
    level = 0
    while level >= 0:
        i = index[level]
        if i < nmoves[level]:
            index[level] = i + 1
            remaining = depth - level - 1
            make(T, bb, board, st, hist, hkeys, moves[level, i])
            hit = probe(tt, bb[KEY], remaining)
            if hit >= 0:
                acc[level] += hit
            else:
                # one call site each for the generator's two modes: each is inlined here
                # whole, and a second copy would cost compile time, not speed
                n = _generate(T, bb, board, st, moves[level + 1], False)
                if remaining > 2:
                    level += 1
                    acc[level] = 0
                    index[level] = 0
                    nmoves[level] = n
                    continue
                sub = n  # a child one ply above the leaves (perft 2 only): its move count
                if remaining == 2:
                    # the node above the last ply: copy-make each of its moves on scratch
                    # arrays and count the replies in bulk
                    sub = 0
                    for j in range(n):
                        make_for_count(T, bb, board, st, moves[level + 1, j], leaf_bb, leaf_st)
                        sub += _generate(T, leaf_bb, board, leaf_st, scratch, True)
                    store(tt, bb[KEY], 2, sub)
                acc[level] += sub
            unmake(bb, board, st, hist, hkeys)
        else:
            if level > 0:
                store(tt, bb[KEY], depth - level, acc[level])
                acc[level - 1] += acc[level]
                unmake(bb, board, st, hist, hkeys)
            level -= 1
    return acc[0]


@njit(cache=True, nogil=True)
def perft(T, bb, board, st, hist, hkeys, depth, tt):
    """Leaf count of the tree of depth ``depth`` (``perft(0) == 1``)."""
    if depth == 0:
        return np.int64(1)
    if depth == 1:
        scratch = np.empty(MAX_MOVES, dtype=np.int64)
        return np.int64(count_legal(T, bb, board, st, scratch))
    hit = probe(tt, bb[KEY], depth)
    if hit >= 0:
        return hit
    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    nmoves = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    acc = np.zeros(depth, dtype=np.int64)
    scratch = np.empty(MAX_MOVES, dtype=np.int64)
    leaf_bb = np.empty_like(bb)
    leaf_st = st.copy()
    total = _walk(T, bb, board, st, hist, hkeys, depth, tt, moves, nmoves, index, acc, scratch, leaf_bb, leaf_st)
    store(tt, bb[KEY], depth, total)
    return total
