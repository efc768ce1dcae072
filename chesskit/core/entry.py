"""perft counts and move lists from Python: the compiled walk (``perft.c_entry``) with
buffers allocated here, called through ``native.py`` (no numba to load on a warm run).

A suite makes tens of thousands of small counts, so the Python side of a call is kept
small: each thread keeps its walk buffers between calls (``_Buffers``), with their
addresses packed once, and the addresses of the arrays passed again and again (a board's
state, the attack table, the table) are remembered (``walkargs.address``)."""

from __future__ import annotations

import threading

import numpy as np

from chesskit.vocab import MAX_MOVES

from . import native, walkargs
from .state import aligned

_NO_TABLE = np.zeros(0, dtype=np.uint64)
_NO_PREFIX = np.zeros(0, dtype=np.int64)
_KINDS = dict(walkargs.ARGS)
_SLOT = {name: i for i, (name, _) in enumerate(walkargs.ARGS)}


class _Buffers:
    """One thread's walk buffers for up to ``rows`` rows, and the walk's arguments with
    their addresses filled in (``args``; the rest are set by each call)."""

    def __init__(self, rows: int, bb_words: int, state_size: int):
        self.rows = rows
        self.moves = np.empty((rows, MAX_MOVES), dtype=np.int64)
        self.keys = np.empty((rows, 2 * MAX_MOVES), dtype=np.uint64)  # both keys of each child
        self.nmoves, self.index, self.acc = (np.zeros(rows, dtype=np.int64) for _ in range(3))
        self.scratch = np.empty(MAX_MOVES, dtype=np.int64)
        self.leaf_bb = aligned(bb_words, np.uint64)  # its copy-make's 64-byte blocks: one line each
        self.leaf_st = np.zeros(state_size, dtype=np.int64)
        self.args = [0] * len(walkargs.ARGS)
        for name in ("moves", "keys", "nmoves", "index", "acc", "scratch", "leaf_bb", "leaf_st"):
            value = getattr(self, name)
            walkargs.check(name, _KINDS[name], value)
            self.args[_SLOT[name]] = value.ctypes.data


_local = threading.local()


def _buffers(rows: int, bb, st) -> _Buffers:
    """This thread's buffers, made (or made larger) when they do not fit."""
    found = getattr(_local, "buffers", None)
    if found is None or found.rows < rows or found.leaf_st.shape != st.shape or found.leaf_bb.shape != bb.shape:
        found = _local.buffers = _Buffers(max(rows, 16), bb.shape[0], st.shape[0])
    return found


def _walk(T, state, prefix, depth: int, tt) -> tuple[int, np.ndarray]:
    """The walk's result and its move rows (the list of depth 0 is row ``len(prefix)``;
    the rows are this thread's buffer: read them before its next call)."""
    bb, board, st, hist, hkeys = state
    pre = np.ascontiguousarray(prefix, dtype=np.int64) if len(prefix) else _NO_PREFIX
    rows = pre.shape[0] + depth + 1
    buffers = _buffers(rows, bb, st)
    buffers.leaf_st[:] = st  # what the copy-make does not write is the position's
    args = buffers.args.copy()
    for name, value in (("T", T), ("bb", bb), ("board", board), ("st", st), ("hist", hist), ("hkeys", hkeys), ("tt", tt)):
        args[_SLOT[name]] = walkargs.address(name, _KINDS[name], value)
    walkargs.check("prefix", "i64*", pre)
    args[_SLOT["prefix"]] = pre.ctypes.data if pre.shape[0] else args[_SLOT["scratch"]]
    args[_SLOT["nT"]] = T.shape[0]
    args[_SLOT["nhist"]] = hist.shape[0]
    args[_SLOT["nprefix"]] = pre.shape[0]
    args[_SLOT["depth"]] = int(depth)
    args[_SLOT["ntt"]] = tt.shape[0]
    args[_SLOT["nrows"]] = rows
    result = native.walk()(*args)
    return int(result), buffers.moves


def count(T, state, depth: int, tt, prefix=()) -> int:
    """perft(``depth``) of the position in ``state`` (bb, board, st, hist, hkeys) after
    the packed moves of ``prefix``; the history must have room for all of them."""
    if depth == 0:
        return 1
    return walkargs.as_count(_walk(T, state, prefix, depth, tt)[0])


def play(T, state, move: int) -> None:
    """Make the packed legal ``move`` on the position in ``state`` in place, history
    included, as ``makemove.make`` does: the walk makes it (depth -1), so a board's moves
    load no compiled function but the walk (numba's import alone costs half a second)."""
    _walk(T, state, (move,), -1, _NO_TABLE)


def legal(T, state, prefix=()) -> np.ndarray:
    """The packed legal moves after the moves of ``prefix``, in generation order."""
    n, moves = _walk(T, state, prefix, 0, _NO_TABLE)
    return moves[len(prefix), :n].copy()
