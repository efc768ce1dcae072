"""The perft walk of a variant: one compiled C function per rule set (``c_entry(vid)``).

Like the standard walk (``perft.py``: an explicit stack, the last ply counted in bulk,
the table probed two or more plies above the leaves, a prefix of forced moves for the
thread pool's tasks and depth 0 for move lists), but copy-make: a move is made on a copy
of its node's state row (``vstate.py``) and never unmade, so a variant may change
whatever it likes (explosions, pockets, counters). The variant id is a constant of the
closure, so numba compiles only that variant's branches of the hooks (``vgen``,
``vmake``, ``vrules``); the standard walk compiles none of them.

A node where the game is over (``vrules.game_over``) has no children. Saved and loaded
as machine code like the standard walk (``native.py``); its signature is
``walkargs.VARGS``.
"""

from numba import carray

from .position import KEY
from .tt import probe, store
from .vgen import vgenerate
from .vmake import vmake
from .vrules import game_over, leaf_count
from .vstate import RULES, VBB_SIZE, VMAX_MOVES, VST_SIZE
from .walkargs import VARGS, numba_signature
from .wordcopy import copy_words


def c_entry(vid, cache=False):
    """The walk of variant rule set ``vid`` (``vstate.RULES``' values), compiled by numba
    as a C function. Row 0 of ``bb``, ``board`` and ``st`` is the position; they and
    ``moves`` have ``nprefix + depth + 1`` rows. Returns perft(``depth``) after the moves
    of ``prefix``, or with depth 0 the number of legal moves, written to
    ``moves[nprefix]``."""
    from numba import cfunc, types

    if vid == 0 or RULES[vid] != vid:
        raise ValueError(f"no variant walk for rule set {vid}")

    @cfunc(numba_signature(types, VARGS), cache=cache)
    def walk(T_, nT, bb_, board_, st_, prefix_, nprefix, depth, tt_, ntt, moves_, nrows, nmoves_, index_, acc_,
             scratch_, leaf_bb_, leaf_st_):
        T = carray(T_, (nT,))
        bbs, boards, sts = carray(bb_, (nrows, VBB_SIZE)), carray(board_, (nrows, 64)), carray(st_, (nrows, VST_SIZE))
        prefix, tt = carray(prefix_, (nprefix,)), carray(tt_, (ntt,))
        moves = carray(moves_, (nrows, VMAX_MOVES))
        nmoves, index, acc = carray(nmoves_, (nrows,)), carray(index_, (nrows,)), carray(acc_, (nrows,))
        scratch = carray(scratch_, (VMAX_MOVES,))
        leaf_bb, leaf_st = carray(leaf_bb_, (VBB_SIZE,)), carray(leaf_st_, (VST_SIZE,))
        forced = nprefix
        plies = forced + depth
        hashing = ntt > 0
        level = 0
        entering = True
        while level >= 0:
            if entering:
                entering = False
                index[level] = 0
                acc[level] = 0
                nmoves[level] = 0
                bb, board, st = bbs[level], boards[level], sts[level]
                left = plies - level
                if level < forced:
                    moves[level, 0] = prefix[level]
                    nmoves[level] = 1
                elif not game_over(vid, bb, st):
                    hit = probe(tt, bb[KEY], left) if hashing and left >= 2 else -1
                    if hit >= 0:
                        acc[level] = hit
                    else:
                        n = vgenerate(vid, T, bb, board, st, moves[level], False)
                        nmoves[level] = n
                        if left == 2:
                            total = 0
                            for j in range(n):
                                total += leaf_count(vid, T, bb, board, st, moves[level, j], leaf_bb, leaf_st, scratch)
                            acc[level] = total
                            index[level] = n
                        elif left < 2:
                            acc[level] = n  # perft 1, or the move list (depth 0)
                            index[level] = n
            i = index[level]
            if i < nmoves[level]:
                index[level] = i + 1
                copy_words(bbs[level + 1], bbs[level], VBB_SIZE)
                copy_words(boards[level + 1], boards[level], 64)
                copy_words(sts[level + 1], sts[level], VST_SIZE)
                vmake(vid, T, bbs[level + 1], boards[level + 1], sts[level + 1], moves[level, i])
                level += 1
                entering = True
            else:
                if hashing and level >= forced and plies - level >= 2:
                    store(tt, bbs[level, KEY], plies - level, acc[level])
                if level > 0:
                    acc[level - 1] += acc[level]
                level -= 1
        return acc[0]

    return walk
