"""The kernels: one thread per position, each calling the core's rules (``rules.py``).

A position on the GPU is a row of three arrays, the core's own state arrays stacked:
``bbs`` (n, 18) uint64, ``boards`` (n, 64) int8 (the piece on each square; int8 to keep
a position at 272 bytes), ``sts`` (n, 8) int64.

* ``count_moves``: how many legal moves each position has (where its children go; a
  prefix sum of them on the GPU, ``scan_blocks``/``scan_add``, lays them out, and ``cut``
  splits a level's children into slices that fit a buffer);
* ``list_moves``: each position's moves, written where its children go, each with its
  parent's row: a child is its parent's row + a move until it is made;
* ``key_children``: one thread per child, its Zobrist key from its parent's row and move
  (``child_key``); a child that the table ``tt`` knows at its depth gives its count to its
  parent's and its row is marked done (``st[PLY] = -1``);
* ``make_children``: once a level is deduplicated (``claim``/``resolve``), each child still
  to be walked is made with ``make`` from its parent's row (one thread each);
* ``count_replies``: the leaf level, one thread per move of a position two plies above the
  leaves: the move made with the copy-make ``make_for_count`` and the replies counted,
  never listed (the CPU walk's last two plies), summed into the position's count;
  ``leaf_finish`` stores those counts in ``tt`` by the position's Zobrist key;
* ``count_leaves``: perft 1 of each position (a count of 1 ply);
* ``finish``: once a slice's children are all counted, each parent's count is stored in
  ``tt`` and added to its own parent's;
* ``claim``/``resolve``: before a level is counted, the rows that are the same position
  (the same Zobrist key: the transpositions of a deep tree) are found with a hash in GPU
  memory; the first such row (the lowest, so it is counted no later than the others) is
  the owner, the others are marked ``ALIAS`` (``st[PLY] = -2``) and take its count
  (``finish``, ``leaf_aliases``) instead of being walked.

``tt`` (uint64, two words an entry, a power of two entries; empty: no table) holds perft
counts by key and depth, written without locks: the first word is the key XOR the second
(count << 8 | depth), so an entry torn by two writers reads as a miss, never as a count.
"""

from __future__ import annotations

import os

import numpy as np
from numba import cuda, types

from chesskit.core.state import BB_SIZE, KEY, PLY, ST_SIZE
from chesskit.vocab import MAX_MOVES

from .rules import SIMULATOR, gpu_rules

# Threads per block, and per block of the prefix sum. numba-cuda's simulator starts a Python
# thread for each GPU thread of a block and hands the GIL between them. 8 there, not 32: 40 of
# the bundled positions' small counts took 23.6 s instead of 39-65 s on a loaded 2-core Zen 3
# guest (2026-12-01, same counts), and blocks of 8 cross more block boundaries in the tests.
THREADS = 8 if SIMULATOR else int(os.environ.get("CHESSKIT_GPU_THREADS", "128"))
SCAN = 8 if SIMULATOR else 1024
# a cap on the registers of the kernels that run the rules (0: the compiler's choice)
MAX_REGISTERS = int(os.environ.get("CHESSKIT_GPU_MAXREG", "0"))
DONE = -1  # st[PLY] of a row whose count was found in the table
ALIAS = -2  # st[PLY] of a row whose position an earlier row of its level holds (``owner``)

_rules = gpu_rules()
generate = _rules.generate
make = _rules.make
make_for_count = _rules.make_for_count
child_key = _rules.child_key

_EIGHT = np.uint64(8)
_DEPTH_BITS = np.uint64(0xFF)


def blocks(n: int) -> int:
    return max(1, (n + THREADS - 1) // THREADS)


def _rules_kernel(func):
    """A kernel that runs the rules, under the register cap where one is set."""
    return cuda.jit(max_registers=MAX_REGISTERS)(func) if MAX_REGISTERS and not SIMULATOR else cuda.jit(func)


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


@cuda.jit
def clear(a, b, n):
    """Zero the first ``n`` words of ``a`` and ``b``."""
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        a[i] = 0
        b[i] = 0
        i += step


@cuda.jit
def claim(bbs, sts, n, hkeys, hrows, size):
    """Each row not done enters its key in the hash (the first ``size`` slots, a power of
    two at least twice ``n``); the slot keeps the lowest row that entered it, as ``n - row``."""
    i = cuda.grid(1)
    if i < n and sts[i, PLY] >= 0:
        key = bbs[i, KEY]
        if key == 0:  # 0 marks an empty slot: such a row is its own owner
            return
        mask = np.uint64(size - 1)
        slot = key & mask
        while True:
            old = cuda.atomic.cas(hkeys, slot, np.uint64(0), key)
            if old == 0 or old == key:
                cuda.atomic.max(hrows, slot, np.int32(n - i))
                return
            slot = (slot + np.uint64(1)) & mask


@cuda.jit
def resolve(bbs, sts, n, hkeys, hrows, size, owner):
    """Each row not done learns its owner (``claim``); a row that is not its own is an ``ALIAS``."""
    i = cuda.grid(1)
    if i < n and sts[i, PLY] >= 0:
        key = bbs[i, KEY]
        first = i
        if key != 0:
            mask = np.uint64(size - 1)
            slot = key & mask
            while hkeys[slot] != key:
                slot = (slot + np.uint64(1)) & mask
            first = n - hrows[slot]
        owner[i] = first
        if first != i:
            sts[i, PLY] = ALIAS


@cuda.jit
def tally(sts, n, out):
    """How many of the first ``n`` rows are walked, aliases, found in the table (``out[0..2]``; a profile)."""
    i = cuda.grid(1)
    if i < n:
        ply = sts[i, PLY]
        cuda.atomic.add(out, 0 if ply >= 0 else (1 if ply == ALIAS else 2), 1)


@cuda.jit
def leaf_aliases(sts, n, owner, counts, parents, up):
    """Each ``ALIAS`` row of a counted leaf level adds its owner's count to its parent's."""
    i = cuda.grid(1)
    if i < n and sts[i, PLY] == ALIAS:
        cuda.atomic.add(up, parents[i], counts[owner[i]])


@_rules_kernel
def count_moves(T, bbs, boards, sts, n, counts):
    i = cuda.grid(1)
    if i < n:
        if sts[i, PLY] < 0:
            counts[i] = 0
        else:
            scratch = cuda.local.array(1, types.int32)  # counting writes no move
            counts[i] = generate(T, bbs[i], boards[i], sts[i], scratch, True)


@cuda.jit
def finish(bbs, sts, first, n, acc, depth, tt, parents, up, owner):
    """Rows ``first ..`` have their counts in ``acc`` (their children all counted): store
    them in the table and add each to its parent's (``up[parents[i]]``); an ``ALIAS`` adds
    its owner's (a row no later than itself, so counted by now)."""
    k = cuda.grid(1)
    if k < n:
        i = first + k
        ply = sts[i, PLY]
        if ply >= 0:
            store(tt, bbs[i, KEY], depth, acc[i])
            cuda.atomic.add(up, parents[i], acc[i])
        elif ply == ALIAS:
            cuda.atomic.add(up, parents[i], acc[owner[i]])


@_rules_kernel
def list_moves(T, bbs, boards, sts, first, n, ends, counts, base, cmoves, cparents, acc):
    """The legal moves of rows ``first ..`` (``counts``: how many, 0 for a row done or an
    alias; ``ends``: their inclusive prefix sum) into ``cmoves``, from place ``ends[i] -
    counts[i] - base`` on, each with its row ``i`` in ``cparents``: a level's children as
    parent row + move. Each row's ``acc`` starts at 0."""
    k = cuda.grid(1)
    if k < n:
        i = first + k
        acc[i] = 0
        m = counts[i]
        if m > 0:
            at = ends[i] - m - base
            generate(T, bbs[i], boards[i], sts[i], cmoves[at : at + m], False)
            for j in range(m):
                cparents[at + j] = i


@_rules_kernel
def key_children(T, bbs, boards, sts, m, cmoves, cparents, cbbs, csts, tt, depth, acc):
    """Child ``r`` (one thread each, its parent's row and move from ``list_moves``): its
    Zobrist key (the CPU walk's ``child_key``: the move is not made) into its row, for the
    level's deduplication; a child the table ``tt`` knows at ``depth`` gives its count to
    its parent's ``acc`` and is marked done. The rest are made once deduplicated
    (``make_children``), so a repeat or a child found in the table is never made."""
    r = cuda.grid(1)
    if r < m:
        i = cparents[r]
        key = child_key(T, bbs[i], boards[i], sts[i], cmoves[r])
        cbbs[r, KEY] = key
        csts[r, PLY] = 0
        if tt.shape[0] != 0:
            found = probe(tt, key, depth)
            if found >= 0:
                cuda.atomic.add(acc, i, found)
                csts[r, PLY] = DONE


@_rules_kernel
def make_children(T, bbs, boards, words, sts, m, cmoves, cparents, cbbs, cboards, cwords, csts):
    """Child ``r`` (one thread each) that is neither done nor an alias made from its
    parent's row and move (``list_moves``). ``words``, ``cwords``: the square arrays seen
    as 8 words a row, so a row's squares are copied in 8 loads and stores, not 64."""
    r = cuda.grid(1)
    if r < m and csts[r, PLY] >= 0:
        i = cparents[r]
        hist = cuda.local.array((1, 4), types.int64)
        hkeys = cuda.local.array((1, 2), types.uint64)
        for w in range(BB_SIZE):
            cbbs[r, w] = bbs[i, w]
        for w in range(8):
            cwords[r, w] = words[i, w]
        for w in range(ST_SIZE):
            csts[r, w] = sts[i, w]
        csts[r, PLY] = 0  # make pushes its history row at ply 0 of ``hist``
        make(T, cbbs[r], cboards[r], csts[r], hist, hkeys, cmoves[r])


@_rules_kernel
def count_replies(T, bbs, boards, sts, m, cmoves, cparents, acc):
    """The leaf level, one thread per move ``r`` of a position two plies above the leaves
    (``list_moves``): the move made with the copy-make ``make_for_count`` and its replies
    counted, never listed (the CPU walk's last two plies). The counts of a block's threads
    that share a parent (moves are in parent order) are summed in shared memory, and each
    sum is added to the parent's ``acc`` once."""
    r = cuda.grid(1)
    t = cuda.threadIdx.x
    rows = cuda.shared.array(THREADS, types.int64)
    sums = cuda.shared.array(THREADS, types.int64)
    i = -1
    c = 0
    if r < m:
        i = cparents[r]
        scratch = cuda.local.array(1, types.int32)
        leaf_bb = cuda.local.array(BB_SIZE, types.uint64)
        leaf_st = cuda.local.array(ST_SIZE, types.int64)
        for w in range(ST_SIZE):
            leaf_st[w] = sts[i, w]
        make_for_count(T, bbs[i], boards[i], sts[i], cmoves[r], leaf_bb, leaf_st)
        c = generate(T, leaf_bb, boards[i], leaf_st, scratch, True)
    rows[t] = i
    sums[t] = c
    cuda.syncthreads()
    # the last thread of each run of one parent adds the run's sum
    if i >= 0 and (t == THREADS - 1 or rows[t + 1] != i):
        total = c
        j = t - 1
        while j >= 0 and rows[j] == i:
            total += sums[j]
            j -= 1
        cuda.atomic.add(acc, i, total)


@cuda.jit
def leaf_finish(bbs, sts, n, acc, tt, parents, up):
    """Rows of the leaf level have their perft 2 in ``acc`` (``count_replies``): store each
    in the table and add it to its parent's count."""
    i = cuda.grid(1)
    if i < n and sts[i, PLY] >= 0:
        store(tt, bbs[i, KEY], 2, acc[i])
        cuda.atomic.add(up, parents[i], acc[i])


@_rules_kernel
def count_leaves(T, bbs, boards, sts, n, parents, up, counts):
    """perft 1 of each row not done or an alias, added to its parent's count
    (``up[parents[i]]``) and kept in ``counts`` for its aliases (``leaf_aliases``)."""
    i = cuda.grid(1)
    if i < n and sts[i, PLY] >= 0:
        scratch = cuda.local.array(1, types.int32)
        c = generate(T, bbs[i], boards[i], sts[i], scratch, True)
        counts[i] = c
        cuda.atomic.add(up, parents[i], c)


@cuda.jit
def scan_blocks(src, n, dst, sums):
    """The inclusive prefix sum of ``src[:n]`` inside each block of ``SCAN`` entries into
    ``dst`` (in place allowed), each block's total into ``sums``."""
    shared = cuda.shared.array(SCAN, types.int64)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * SCAN + t
    shared[t] = src[i] if i < n else 0
    cuda.syncthreads()
    d = 1
    while d < SCAN:
        x = shared[t - d] if t >= d else 0
        cuda.syncthreads()
        shared[t] += x
        cuda.syncthreads()
        d *= 2
    if i < n:
        dst[i] = shared[t]
    if t == SCAN - 1:
        sums[cuda.blockIdx.x] = shared[t]


@cuda.jit
def scan_add(dst, n, sums):
    """Each block of ``dst`` after the first gets the (scanned) total of the blocks before it."""
    b = cuda.blockIdx.x
    i = b * SCAN + cuda.threadIdx.x
    if b > 0 and i < n:
        dst[i] += sums[b - 1]


@cuda.jit
def cut(ends, counts, n, room, k_total, cuts):
    """Slice ``k`` of a level's children (one thread each) starts at the first row whose
    children start at or after ``k * room``: ``cuts[0, k]`` that row, ``cuts[1, k]`` where
    its children start. A slice's children then fit ``room`` plus one row's."""
    k = cuda.grid(1)
    if k < k_total:
        target = k * room
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) // 2
            if ends[mid] - counts[mid] >= target:
                hi = mid
            else:
                lo = mid + 1
        cuts[0, k] = lo
        cuts[1, k] = ends[lo] - counts[lo] if lo < n else ends[n - 1]
