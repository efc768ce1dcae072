"""The kernels: one thread per position, each calling the core's rules (``rules.py``).

A position on the GPU is a row of three arrays, the core's own state arrays stacked:
``bbs`` (n, 18) uint64, ``boards`` (n, 64) int8 (the piece on each square; int8 to keep
a position at 272 bytes), ``sts`` (n, 8) int64.

* ``count_moves``: how many legal moves each position has (where its children go);
* ``expand``: each position's children, made with ``make`` into the rows ``offsets`` says;
  a child two plies above the leaves that the table ``tt`` knows is not made: its count
  is added to ``total`` and its row marked done (``st[PLY] = -1``);
* ``count_leaves``: perft 1 or 2 of each position not done, summed into ``total[0]``:
  perft 2 is the CPU walk's last two plies, fused (each move made with the copy-make
  ``make_for_count`` and the replies counted, never listed), looked up in and stored to
  ``tt`` by the position's Zobrist key.

``tt`` (uint64, two words an entry, a power of two entries; empty: no table) holds perft
counts by key and depth, written without locks: the first word is the key XOR the second
(count << 8 | depth), so an entry torn by two writers reads as a miss, never as a count.
"""

from __future__ import annotations

import numpy as np
from numba import cuda, types

from chesskit.core.state import BB_SIZE, KEY, PLY, ST_SIZE
from chesskit.vocab import MAX_MOVES

from .rules import SIMULATOR, gpu_rules

THREADS = 32 if SIMULATOR else 128  # threads per block (a power of two: the block sums are sized by it)
DONE = -1  # st[PLY] of a row whose count was found in the table

_rules = gpu_rules()
generate = _rules.generate
make = _rules.make
make_for_count = _rules.make_for_count
child_key = _rules.child_key

_EIGHT = np.uint64(8)
_DEPTH_BITS = np.uint64(0xFF)


def blocks(n: int) -> int:
    return max(1, (n + THREADS - 1) // THREADS)


@cuda.jit(device=True)
def probe(tt, key, depth):
    """The count stored for ``key`` at ``depth``, or -1."""
    if tt.shape[0] == 0:
        return -1
    slot = (key & np.uint64((tt.shape[0] >> 1) - 1)) << np.uint64(1)
    value = tt[slot + np.uint64(1)]
    if (tt[slot] ^ value) == key and (value & _DEPTH_BITS) == np.uint64(depth):
        return np.int64(value >> _EIGHT)
    return -1


@cuda.jit(device=True)
def store(tt, key, depth, count):
    if tt.shape[0] == 0:
        return
    slot = (key & np.uint64((tt.shape[0] >> 1) - 1)) << np.uint64(1)
    value = (np.uint64(count) << _EIGHT) | np.uint64(depth)
    tt[slot] = key ^ value
    tt[slot + np.uint64(1)] = value


@cuda.jit(device=True)
def block_add(total, c):
    """Add every thread's ``c`` to ``total[0]``: a sum over the block, one atomic add."""
    part = cuda.shared.array(THREADS, types.int64)
    t = cuda.threadIdx.x
    part[t] = c
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if t < step:
            part[t] += part[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        cuda.atomic.add(total, 0, part[0])


@cuda.jit
def count_moves(T, bbs, boards, sts, n, counts):
    i = cuda.grid(1)
    if i < n:
        scratch = cuda.local.array(1, types.int32)  # counting writes no move
        counts[i] = generate(T, bbs[i], boards[i], sts[i], scratch, True)


@cuda.jit
def expand(T, bbs, boards, sts, first, n, offsets, cbbs, cboards, csts, cmoves, tt, depth, total):
    """The children of rows ``first ..`` (``depth``: plies left below each child)."""
    k = cuda.grid(1)
    c = 0
    if k < n:
        i = first + k
        moves = cuda.local.array(MAX_MOVES, types.int32)
        hist = cuda.local.array((1, 4), types.int64)
        hkeys = cuda.local.array((1, 2), types.uint64)
        m = generate(T, bbs[i], boards[i], sts[i], moves, False)
        base = offsets[k]
        for j in range(m):
            r = base + j
            if depth == 2 and tt.shape[0] != 0:
                # looked up by the key its move gives (the CPU walk's ``child_key``), not made
                found = probe(tt, child_key(T, bbs[i], boards[i], sts[i], moves[j]), 2)
                if found >= 0:
                    c += found
                    csts[r, PLY] = DONE
                    continue
            for w in range(BB_SIZE):
                cbbs[r, w] = bbs[i, w]
            for w in range(64):
                cboards[r, w] = boards[i, w]
            for w in range(ST_SIZE):
                csts[r, w] = sts[i, w]
            csts[r, PLY] = 0  # make pushes its history row at ply 0 of ``hist``
            make(T, cbbs[r], cboards[r], csts[r], hist, hkeys, moves[j])
            cmoves[r] = moves[j]
    block_add(total, c)


@cuda.jit
def count_leaves(T, bbs, boards, sts, n, plies, tt, total):
    i = cuda.grid(1)
    c = 0
    if i < n and sts[i, PLY] != DONE:
        scratch = cuda.local.array(1, types.int32)
        if plies == 1:
            c = generate(T, bbs[i], boards[i], sts[i], scratch, True)
        else:
            key = bbs[i, KEY]
            c = probe(tt, key, 2)
            if c < 0:
                moves = cuda.local.array(MAX_MOVES, types.int32)
                leaf_bb = cuda.local.array(BB_SIZE, types.uint64)
                leaf_st = cuda.local.array(ST_SIZE, types.int64)
                for w in range(ST_SIZE):
                    leaf_st[w] = sts[i, w]
                m = generate(T, bbs[i], boards[i], sts[i], moves, False)
                c = 0
                for j in range(m):
                    make_for_count(T, bbs[i], boards[i], sts[i], moves[j], leaf_bb, leaf_st)
                    c += generate(T, leaf_bb, boards[i], leaf_st, scratch, True)
                store(tt, key, 2, c)
    block_add(total, c)
