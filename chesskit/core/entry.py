"""perft counts and move lists from Python: the compiled walk (``perft.c_entry``) with
buffers allocated here, called through ``native.py`` (no numba to load on a warm run)."""

from __future__ import annotations

import numpy as np

from chesskit.vocab import MAX_MOVES

from . import native, walkargs

_NO_TABLE = np.zeros(0, dtype=np.uint64)


def _walk(T, state, prefix, depth: int, tt) -> tuple[int, np.ndarray]:
    """The walk's result and its move rows (the list of depth 0 is row ``len(prefix)``)."""
    bb, board, st, hist, hkeys = state
    pre = np.ascontiguousarray(prefix, dtype=np.int64)
    rows = pre.shape[0] + depth + 1
    moves = np.empty((rows, MAX_MOVES), dtype=np.int64)
    keys = np.empty((rows, MAX_MOVES), dtype=np.uint64)
    nmoves, index, acc = (np.zeros(rows, dtype=np.int64) for _ in range(3))
    scratch = np.empty(MAX_MOVES, dtype=np.int64)
    leaf_bb, leaf_st = np.empty_like(bb), st.copy()
    result = native.walk()(*walkargs.pack(
        T=T, nT=T.shape[0], bb=bb, board=board, st=st, hist=hist, hkeys=hkeys, nhist=hist.shape[0],
        prefix=pre, nprefix=pre.shape[0], depth=depth, tt=tt, ntt=tt.shape[0], moves=moves, nrows=rows,
        keys=keys, nmoves=nmoves, index=index, acc=acc, scratch=scratch, leaf_bb=leaf_bb, leaf_st=leaf_st,
    ))
    return int(result), moves


def count(T, state, depth: int, tt, prefix=()) -> int:
    """perft(``depth``) of the position in ``state`` (bb, board, st, hist, hkeys) after
    the packed moves of ``prefix``; the history must have room for all of them."""
    if depth == 0:
        return 1
    return _walk(T, state, prefix, depth, tt)[0]


def legal(T, state, prefix=()) -> np.ndarray:
    """The packed legal moves after the moves of ``prefix``, in generation order."""
    n, moves = _walk(T, state, prefix, 0, _NO_TABLE)
    return moves[len(prefix), :n].copy()
