"""Leaf-move counters of a variant (``perft --stats --variant NAME``), compiled per rule set.

A row of counters (int64[N_VCOUNTERS]) describes the moves made at one ply, like the
standard ``stats.py`` (whose indices 0..8 it keeps) plus the variants' own:

  DROPS            crazyhouse drops                DROP_CHECKS  drops that give check
  PROMOTED_CAPTURES  captures of a piece marked promoted (crazyhouse: it goes to the pocket as a pawn)
  EXPLODED         pieces an atomic capture removes (the capturer, the captured piece and
                   the non-pawns around)          KING_EXPLOSIONS  captures that blow up the enemy king
  THIRD_CHECKS     3check: the mover's third check (the game is won)
  GOAL             kingofthehill: the mover's king reaches d4/e4/d5/e5; racingkings: the
                   mover's king steps onto the eighth rank
  KING_PROMOTIONS  antichess: promotions to a king
  NO_PIECES        the side to move has no piece left (antichess: it wins; horde: White lost)
  NO_MOVES         antichess: the side to move has pieces but no legal move (it wins)

Checks are those of the variant (``vrules.checkers``, which ``show`` and the explorer ask
too): the side to move's king attacked (atomic: not while the kings touch); a side without
a king is never in check, nor one in antichess or racing kings. A checkmate is a check
after which the side to move has no legal move by the variant's move rules (whether or not
the game also ended by the variant's own goal, counted apart). Every move is made (copy-make, as in
``vwalk.py``), the last ply's too: the counters need the position after it.

Compiled per rule set like the variant walk (``vwalk.walk_function``): the rule set's
functions (``vgen.GENERATE[vid]``, ``vmake.MAKE``, ``vrules.GAME_OVER``) and its id are
globals of the walk and of its per-move count, chosen in Python, so numba inlines that rule
set's code only, its generator twice (the node's moves, the replies that decide a mate or
antichess's no-moves win); a walk that chose with ``if vid == ...`` had every variant's
generator inlined at every call site (minutes of compile per variant). Compiled only when
--stats asks for it. Definitions for users: docs/variants.md, "Counters".
"""

from types import FunctionType

import numpy as np
from numba import njit

from .bitboard import ONE, RANK_8, ZERO, lsb, popcount
from .move import CAPTURE, CASTLING, DROP, EN_PASSANT, castle_squares, from_sq, promotion, to_sq
from .position import KING, OCC, STM, occ_of
from .stats import CAPTURES, CASTLES, CHECKS, DISCOVERY, DOUBLE, EN_PASSANTS, MATES, NODES, PROMOTIONS
from .vgen import GENERATE
from .vmake import MAKE
from .vrules import CENTRE, GAME_OVER
from .vrules import checkers as variant_checkers
from .vstate import (
    ANTICHESS,
    ATOMIC,
    CRAZYHOUSE,
    HORDE,
    KINGOFTHEHILL,
    NAMES,
    PROMOTED,
    RACINGKINGS,
    RULES,
    THREECHECK,
    VBB_SIZE,
    VMAX_MOVES,
    VST_SIZE,
)
from .vstate import CHECKS as CHECK_COUNT
from .wordcopy import copy_words

DROPS, DROP_CHECKS, PROMOTED_CAPTURES, EXPLODED, KING_EXPLOSIONS, THIRD_CHECKS, GOAL, KING_PROMOTIONS, NO_PIECES, NO_MOVES = range(9, 19)
N_VCOUNTERS = 19


# ``VID`` (the rule set's id), ``generate``, ``make`` and ``game_over`` are not this
# module's: they are the rule set's, given by ``count_function`` and ``walk_function``.
def _count_move(T, pbb, pst, move, cbb, cboard, cst, rows, ply, scratch):
    """Add ``move`` (made from the parent ``pbb``/``pst`` into the child ``cbb``/``cboard``/
    ``cst``) to ``rows[ply]``."""
    rows[ply, NODES] += 1
    us = pst[STM] & 1
    them = us ^ 1
    to = to_sq(move)
    if move & DROP:
        rows[ply, DROPS] += 1
    else:
        if move & CAPTURE:
            rows[ply, CAPTURES] += 1
            if VID == CRAZYHOUSE and (pbb[PROMOTED] >> np.uint64(to)) & ONE and not move & EN_PASSANT:
                rows[ply, PROMOTED_CAPTURES] += 1
            if VID == ATOMIC:
                rows[ply, EXPLODED] += popcount(pbb[OCC]) - popcount(cbb[OCC])
                if cbb[(them << 3) | KING] == ZERO:
                    rows[ply, KING_EXPLOSIONS] += 1
        if move & EN_PASSANT:
            rows[ply, EN_PASSANTS] += 1
        if move & CASTLING:
            rows[ply, CASTLES] += 1
        promo = promotion(move)
        if promo:
            rows[ply, PROMOTIONS] += 1
            if promo == KING:
                rows[ply, KING_PROMOTIONS] += 1
    if VID == KINGOFTHEHILL:
        if cbb[(us << 3) | KING] & CENTRE:
            rows[ply, GOAL] += 1
    if VID == RACINGKINGS:
        if cbb[(us << 3) | KING] & RANK_8 and not pbb[(us << 3) | KING] & RANK_8:
            rows[ply, GOAL] += 1
    if VID == THREECHECK:
        if cst[CHECK_COUNT + us] >= 3 and pst[CHECK_COUNT + us] < 3:
            rows[ply, THIRD_CHECKS] += 1
    # whether the replies decide a counter: antichess's no-moves win, or a check's mate
    replies = False
    if VID == ANTICHESS or VID == HORDE:
        if cbb[occ_of(them)] == ZERO:
            rows[ply, NO_PIECES] += 1
        elif VID == ANTICHESS:
            replies = True
    checkers = variant_checkers(T, cbb, VID, them)  # the variant's own check (vrules.checkers)
    if checkers != ZERO:
        replies = True
        rows[ply, CHECKS] += 1
        if move & DROP:
            rows[ply, DROP_CHECKS] += 1
        if checkers & (checkers - ONE):
            rows[ply, DOUBLE] += 1
        else:
            landed = to
            if move & CASTLING:
                landed = castle_squares(from_sq(move), to)[1]  # the rook's square
            if lsb(checkers) != landed:
                rows[ply, DISCOVERY] += 1
    if replies and generate(T, cbb, cboard, cst, scratch, True) == 0:
        if VID == ANTICHESS:
            rows[ply, NO_MOVES] += 1
        else:
            rows[ply, MATES] += 1


def _stats_walk(T, bbs, boards, sts, depth, only, rows, moves, nmoves, index, scratch):
    """Add the counters of the moves made at ply k (1..depth) to ``rows[k - 1]``; row 0
    of ``bbs``/``boards``/``sts`` is the position (``depth + 1`` rows of each). With
    ``only`` >= 0 the walk makes only that root move (divide). Returns the number of
    root moves, written to ``moves[0]``."""
    roots = 0
    level = 0
    entering = True
    while level >= 0:
        if entering:
            entering = False
            index[level] = 0
            nmoves[level] = 0
            if not game_over(bbs[level], sts[level]):
                nmoves[level] = generate(T, bbs[level], boards[level], sts[level], moves[level], False)
            if level == 0:
                roots = nmoves[0]
                if depth == 0:
                    return roots
                if only >= 0:
                    index[0] = only
                    nmoves[0] = min(only + 1, roots)
        i = index[level]
        if i < nmoves[level]:
            index[level] = i + 1
            move = moves[level, i]
            child = level + 1
            copy_words(bbs[child], bbs[level], VBB_SIZE)
            copy_words(boards[child], boards[level], 64)
            copy_words(sts[child], sts[level], VST_SIZE)
            make(T, bbs[child], boards[child], sts[child], move)
            count_move(T, bbs[level], sts[level], move, bbs[child], boards[child], sts[child], rows, level, scratch)
            if child < depth:
                level = child
                entering = True
        else:
            level -= 1
    return roots


def _with_rules(function, vid, name, **extra):
    """``function``'s code seeing rule set ``vid``'s functions as its globals ``VID``,
    ``generate``, ``make`` and ``game_over`` (and ``extra``), named ``name``: numba's
    cache keys a function by its name, not by its globals (``vwalk.walk_function``)."""
    if vid not in GENERATE or RULES[vid] != vid:
        raise ValueError(f"no variant counters' walk for rule set {vid}")
    scope = dict(function.__globals__)
    scope.update(VID=vid, generate=GENERATE[vid], make=MAKE[vid], game_over=GAME_OVER[vid], **extra)
    out = FunctionType(function.__code__, scope, name)
    out.__qualname__ = name
    out.__doc__ = function.__doc__
    return out


def count_function(vid):
    """``_count_move`` of rule set ``vid``, inlined into its walk."""
    return njit(inline="always")(_with_rules(_count_move, vid, f"count_{NAMES[vid]}"))


def walk_function(vid):
    """The counters' walk of rule set ``vid`` as a Python function, for numba (its
    ``count_move`` is ``count_function(vid)``)."""
    return _with_rules(_stats_walk, vid, f"stats_{NAMES[vid]}", count_move=count_function(vid))


_entries: dict = {}


def entry(vid: int):
    """The compiled counters' walk of variant ``vid`` (giveaway runs antichess's)."""
    rules = RULES[vid]
    if rules not in _entries:
        _entries[rules] = njit(cache=True, nogil=True)(walk_function(rules))
    return _entries[rules]


def buffers(bb, board, st, depth: int):
    """The state rows (row 0 the position) and the walk's buffers for ``depth``."""
    rows = depth + 1
    bbs = np.empty((rows, VBB_SIZE), dtype=np.uint64)
    boards = np.empty((rows, 64), dtype=np.int64)
    sts = np.empty((rows, VST_SIZE), dtype=np.int64)
    bbs[0], boards[0], sts[0] = bb, board, st
    moves = np.empty((rows, VMAX_MOVES), dtype=np.int64)
    nmoves = np.zeros(rows, dtype=np.int64)
    index = np.zeros(rows, dtype=np.int64)
    scratch = np.empty(VMAX_MOVES, dtype=np.int64)
    return bbs, boards, sts, moves, nmoves, index, scratch
