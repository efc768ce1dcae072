"""The kernels: one thread per position, each calling the core's rules (``rules.py``).

A position on the GPU is a row of three arrays, the core's own state arrays stacked:
``bbs`` (n, 18) uint64, ``boards`` (n, 64) int8 (the piece on each square; int8 to keep
a position at 272 bytes), ``sts`` (n, 8) int64.

* ``count_moves``: how many legal moves each position has (where its children go);
* ``expand``: each position's children, made with ``make`` into the rows ``offsets`` says;
* ``count_leaves``: perft 1 or 2 of each position summed into ``total[0]``: perft 2 is the
  CPU walk's last two plies, fused (each move made with the copy-make ``make_for_count``
  and the replies counted, never listed).
"""

from __future__ import annotations

from numba import cuda, types

from chesskit.core.state import BB_SIZE, PLY, ST_SIZE
from chesskit.vocab import MAX_MOVES

from .rules import SIMULATOR, gpu_rules

THREADS = 32 if SIMULATOR else 128  # threads per block (a power of two: the block sums are sized by it)

_rules = gpu_rules()
generate = _rules.generate
make = _rules.make
make_for_count = _rules.make_for_count


def blocks(n: int) -> int:
    return max(1, (n + THREADS - 1) // THREADS)


@cuda.jit
def count_moves(T, bbs, boards, sts, n, counts):
    i = cuda.grid(1)
    if i < n:
        scratch = cuda.local.array(1, types.int32)  # counting writes no move
        counts[i] = generate(T, bbs[i], boards[i], sts[i], scratch, True)


@cuda.jit
def expand(T, bbs, boards, sts, first, n, offsets, cbbs, cboards, csts, cmoves):
    k = cuda.grid(1)
    if k < n:
        i = first + k
        moves = cuda.local.array(MAX_MOVES, types.int32)
        hist = cuda.local.array((1, 4), types.int64)
        hkeys = cuda.local.array((1, 2), types.uint64)
        m = generate(T, bbs[i], boards[i], sts[i], moves, False)
        base = offsets[k]
        for j in range(m):
            c = base + j
            for w in range(BB_SIZE):
                cbbs[c, w] = bbs[i, w]
            for w in range(64):
                cboards[c, w] = boards[i, w]
            for w in range(ST_SIZE):
                csts[c, w] = sts[i, w]
            csts[c, PLY] = 0  # make pushes its history row at ply 0 of ``hist``
            make(T, cbbs[c], cboards[c], csts[c], hist, hkeys, moves[j])
            cmoves[c] = moves[j]


@cuda.jit
def count_leaves(T, bbs, boards, sts, n, plies, total):
    i = cuda.grid(1)
    c = 0
    if i < n:
        scratch = cuda.local.array(1, types.int32)
        if plies == 1:
            c = generate(T, bbs[i], boards[i], sts[i], scratch, True)
        else:
            moves = cuda.local.array(MAX_MOVES, types.int32)
            leaf_bb = cuda.local.array(BB_SIZE, types.uint64)
            leaf_st = cuda.local.array(ST_SIZE, types.int64)
            for w in range(ST_SIZE):
                leaf_st[w] = sts[i, w]
            m = generate(T, bbs[i], boards[i], sts[i], moves, False)
            for j in range(m):
                make_for_count(T, bbs[i], boards[i], sts[i], moves[j], leaf_bb, leaf_st)
                c += generate(T, leaf_bb, boards[i], leaf_st, scratch, True)
    # the block's sum, then one atomic add per block
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
