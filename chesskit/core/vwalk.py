"""The perft walk of a variant: one compiled C function per rule set (``c_entry(vid)``).

Like the standard walk (``perft.py``: an explicit stack, the last ply counted in bulk,
the table probed two or more plies above the leaves, a prefix of forced moves for the
thread pool's tasks and depth 0 for move lists), but copy-make: a move is made on a copy
of its node's state row (``vstate.py``) and never unmade, so a variant may change
whatever it likes (explosions, pockets, counters). The rule set's functions (``vgen``,
``vmake``, ``vrules``: one per rule set in each) are chosen in Python and are constants of
the closure, so numba compiles only that variant's code; the standard walk compiles none
of it.

A node where the game is over (``vrules.GAME_OVER``) has no children. Saved and loaded
as machine code like the standard walk (``native.py``); its signature is
``walkargs.VARGS``.
"""

from types import FunctionType

from numba import carray

from .position import KEY
from .tt import probe, store
from .vgen import GENERATE
from .vmake import MAKE
from .vrules import GAME_OVER, LEAF_COUNT
from .vstate import NAMES, RULES, VBB_SIZE, VMAX_MOVES, VST_SIZE
from .walkargs import VARGS, numba_signature
from .wordcopy import copy_words


# the names the walk calls that are a rule set's own functions (``walk_function``)
HOOKS = ("generate", "make", "game_over", "leaf_count")


def walk_function(vid):
    """The walk of rule set ``vid`` as a Python function, for numba: ``_walk`` seeing that
    rule set's functions (``vgen.GENERATE[vid]``, ...) as its globals ``generate``,
    ``make``, ``game_over`` and ``leaf_count``. Chosen here, in Python, each is inlined
    once; a function that chose with ``if vid == ...`` would have numba inline every
    variant's code before pruning it (``vgen.GENERATE``). Globals rather than a closure:
    numba's cache (``c_entry(cache=True)``) keys a closure by its pickled cells, and a
    dispatcher pickles differently in every process; the function's name tells the
    rule sets' cache entries apart."""
    if vid not in GENERATE or RULES[vid] != vid:
        raise ValueError(f"no variant walk for rule set {vid}")
    scope = dict(_walk.__globals__)
    scope.update(zip(HOOKS, (GENERATE[vid], MAKE[vid], GAME_OVER[vid], LEAF_COUNT[vid])))
    walk = FunctionType(_walk.__code__, scope, f"walk_{NAMES[vid]}")
    walk.__qualname__ = walk.__name__
    walk.__doc__ = _walk.__doc__
    return walk


def c_entry(vid, cache=False):
    """The walk of variant rule set ``vid`` (``vstate.RULES``' values), compiled by numba
    as a C function. Row 0 of ``bb``, ``board`` and ``st`` is the position; they and
    ``moves`` have ``nprefix + depth + 1`` rows. Returns perft(``depth``) after the moves
    of ``prefix``, or with depth 0 the number of legal moves, written to
    ``moves[nprefix]``."""
    from numba import cfunc, types

    return cfunc(numba_signature(types, VARGS), cache=cache)(walk_function(vid))


# ``generate``, ``make``, ``game_over`` and ``leaf_count`` are not this module's: they are
# the rule set's, given by ``walk_function``.
def _walk(T_, nT, bb_, board_, st_, prefix_, nprefix, depth, tt_, ntt, moves_, nrows, nmoves_, index_, acc_,
         scratch_, leaf_bb_, leaf_st_):
    """A variant's walk (``c_entry``) before ``walk_function`` gives it its rule set's functions."""
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
            elif not game_over(bb, st):
                hit = probe(tt, bb[KEY], bb[KEY], left) if hashing and left >= 2 else -1
                if hit >= 0:
                    acc[level] = hit
                else:
                    n = generate(T, bb, board, st, moves[level], False)
                    nmoves[level] = n
                    if left == 2:
                        total = 0
                        for j in range(n):
                            total += leaf_count(T, bb, board, st, moves[level, j], leaf_bb, leaf_st, scratch)
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
            make(T, bbs[level + 1], boards[level + 1], sts[level + 1], moves[level, i])
            level += 1
            entering = True
        else:
            if hashing and level >= forced and plies - level >= 2:
                store(tt, bbs[level, KEY], bbs[level, KEY], plies - level, acc[level])
            if level > 0:
                acc[level - 1] += acc[level]
            level -= 1
    return acc[0]
