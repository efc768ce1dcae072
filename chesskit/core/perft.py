"""perft and divide in the compiled core.

The tree walk uses an explicit stack (per level: a move-buffer row, the move count, the
next index and the running subtotal) instead of recursion: numba cannot cache a
recursive function, and the loop is faster. The last ply is counted in bulk (popcounts
of target sets, no moves made). Interior nodes two or more plies above the leaves are
looked up in and stored to the transposition table ``tt`` (an empty array disables it).
"""

import numpy as np
from numba import njit, prange

from .makemove import make, make_for_count, make_move, unmake, unmake_move
from .movegen import _generate, count_legal, generate
from .position import KEY
from .tt import probe, store


@njit(cache=True)
def _walk(T, bb, board, st, hist, hkeys, depth, tt):
    """perft for depth >= 2."""
    moves = np.empty((depth, 256), dtype=np.int64)
    nmoves = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    acc = np.zeros(depth, dtype=np.int64)
    leaf_bb = np.empty_like(bb)
    leaf_st = st.copy()
    nmoves[0] = generate(T, bb, board, st, moves[0])
    level = 0
    while level >= 0:
        i = index[level]
        if i < nmoves[level]:
            index[level] = i + 1
            remaining = depth - level - 1
            if remaining == 1:
                # the last ply: copy-make on scratch arrays, count the replies in bulk
                make_for_count(T, bb, board, st, moves[level, i], leaf_bb, leaf_st)
                acc[level] += _generate(T, leaf_bb, board, leaf_st, moves[level + 1], True)
                continue
            make(T, bb, board, st, hist, hkeys, moves[level, i])
            hit = probe(tt, bb[KEY], remaining)
            if hit >= 0:
                acc[level] += hit
                unmake(bb, board, st, hist, hkeys)
                continue
            level += 1
            acc[level] = 0
            index[level] = 0
            nmoves[level] = _generate(T, bb, board, st, moves[level], False)
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
        scratch = np.empty(256, dtype=np.int64)
        return np.int64(count_legal(T, bb, board, st, scratch))
    hit = probe(tt, bb[KEY], depth)
    if hit >= 0:
        return hit
    total = _walk(T, bb, board, st, hist, hkeys, depth, tt)
    store(tt, bb[KEY], depth, total)
    return total


@njit(cache=True, nogil=True)
def split(T, bb, board, st, hist, hkeys, plies, tasks):
    """Write every move sequence of ``plies`` (1 or 2) plies from the position as a row
    of ``tasks`` (-1 pads a sequence cut short by mate or stalemate); return how many."""
    first = np.empty(256, dtype=np.int64)
    second = np.empty(256, dtype=np.int64)
    n1 = generate(T, bb, board, st, first)
    n = 0
    for i in range(n1):
        if plies == 1:
            tasks[n, 0] = first[i]
            tasks[n, 1] = -1
            n += 1
            continue
        make_move(T, bb, board, st, hist, hkeys, first[i])
        n2 = generate(T, bb, board, st, second)
        if n2 == 0:
            tasks[n, 0] = first[i]
            tasks[n, 1] = -1
            n += 1
        for j in range(n2):
            tasks[n, 0] = first[i]
            tasks[n, 1] = second[j]
            n += 1
        unmake_move(bb, board, st, hist, hkeys)
    return n


@njit(cache=True, parallel=True, nogil=True)
def run_tasks(T, bb, board, st, hist, hkeys, tasks, ntasks, depth, tt, results):
    """In parallel: for each task row, make its moves on a private copy of the position
    and store perft of what is left of ``depth`` in ``results``. A sequence cut short
    ends in a position with no moves, whose perft at any depth >= 1 is 0."""
    for t in prange(ntasks):
        b2, q2, s2, h2, k2 = bb.copy(), board.copy(), st.copy(), hist.copy(), hkeys.copy()
        left = depth
        for j in range(2):
            if tasks[t, j] >= 0:
                make_move(T, b2, q2, s2, h2, k2, tasks[t, j])
                left -= 1
        results[t] = perft(T, b2, q2, s2, h2, k2, left, tt)


@njit(cache=True, nogil=True)
def divide(T, bb, board, st, hist, hkeys, depth, tt, root_moves, counts):
    """Write the root moves and the perft(depth - 1) below each; return how many (depth >= 1)."""
    n = generate(T, bb, board, st, root_moves)
    for i in range(n):
        make_move(T, bb, board, st, hist, hkeys, root_moves[i])
        counts[i] = perft(T, bb, board, st, hist, hkeys, depth - 1, tt)
        unmake_move(bb, board, st, hist, hkeys)
    return n
