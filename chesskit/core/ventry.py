"""perft counts and move lists of a variant position from Python: the variant's compiled
walk (``vwalk.c_entry``), loaded through ``native.py`` like the standard one, with its
state rows and buffers allocated here."""

from __future__ import annotations

import numpy as np

from . import native, walkargs
from .vstate import RULES, VMAX_MOVES

_NO_TABLE = np.zeros(0, dtype=np.uint64)


def _walk(vid, T, state, prefix, depth: int, tt) -> tuple[int, np.ndarray, tuple]:
    """The walk's result, its move rows (the list of depth 0 is row ``len(prefix)``) and
    its state rows (row ``i``: the position after the first ``i`` moves of ``prefix``)."""
    bb, board, st = state[:3]
    pre = np.ascontiguousarray(prefix, dtype=np.int64)
    rows = pre.shape[0] + depth + 1
    bbs = np.empty((rows, bb.shape[0]), dtype=np.uint64)
    boards = np.empty((rows, 64), dtype=np.int64)
    sts = np.empty((rows, st.shape[0]), dtype=np.int64)
    bbs[0], boards[0], sts[0] = bb, board, st
    moves = np.empty((rows, VMAX_MOVES), dtype=np.int64)
    nmoves, index, acc = (np.zeros(rows, dtype=np.int64) for _ in range(3))
    scratch = np.empty(VMAX_MOVES, dtype=np.int64)
    leaf_bb, leaf_st = bb.copy(), st.copy()
    rules = RULES[vid]
    result = native.walk(rules)(*walkargs.pack(
        walkargs.VARGS, T=T, nT=T.shape[0], bb=bbs, board=boards, st=sts, prefix=pre, nprefix=pre.shape[0],
        depth=depth, tt=tt, ntt=tt.shape[0], moves=moves, nrows=rows, nmoves=nmoves, index=index, acc=acc,
        scratch=scratch, leaf_bb=leaf_bb, leaf_st=leaf_st,
    ))
    return int(result), moves, (bbs, boards, sts)


def count(vid: int, T, state, depth: int, tt, prefix=()) -> int:
    """perft(``depth``) of the variant position in ``state`` (bb, board, st: ``vstate.py``)
    after the packed moves of ``prefix``."""
    if depth == 0:
        return 1
    return walkargs.as_count(_walk(vid, T, state, prefix, depth, tt)[0])


def legal(vid: int, T, state, prefix=()) -> np.ndarray:
    """The packed legal moves after the moves of ``prefix``, in generation order (none
    where the game is over)."""
    n, moves, _ = _walk(vid, T, state, prefix, 0, _NO_TABLE)
    return moves[len(prefix), :n].copy()


def play(vid: int, T, state, move: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """New (bb, board, st) arrays of the position after the packed legal ``move``: made by
    the walk itself (a prefix of one move), so a variant compiles no other function."""
    _, _, (bbs, boards, sts) = _walk(vid, T, state, (move,), 0, _NO_TABLE)
    return bbs[1].copy(), boards[1].copy(), sts[1].copy()
