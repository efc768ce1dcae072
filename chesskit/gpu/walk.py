"""The host's side: perft breadth-first, level by level, on the GPU.

perft(d) of a set of positions (d >= 3): count each one's moves (``count_moves``), lay
their children out one after another (a prefix sum, on the host), make them
(``expand``) and count the children to d - 1; at d <= 2 the positions' perft 1 or 2 is
summed on the GPU (``count_leaves``: the last two plies fused, as the CPU walk does). A
level whose children do not fit in a buffer of ``cap`` positions is expanded in slices
that do, each counted to the bottom before the next (so memory is one buffer per level,
whatever the depth). The counts stay on the GPU, in one int64 sum.

A table in GPU memory (``kernels.probe``/``store``) holds perft counts by Zobrist key and
depth: each position's count is stored once all its children are counted (each row keeps
its parent's row, and counts flow up through the levels' ``acc``), and a child that an
earlier slice counted is looked up instead of made and walked (the transpositions of a
deep tree: most positions there are reached by several move orders). Inside a level the
same position is counted once: before a level is counted, its rows are matched by key
(``kernels.claim``/``resolve``) and each repeat takes its first row's count.

Each public count (``perft``, ``divide``) starts from an empty table, so a count is never
helped by an earlier one (a timed count is its own work, the table's clearing included).
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from contextlib import contextmanager

import numpy as np
from numba import cuda
from numba.cuda.cudadrv.driver import CudaAPIError

from chesskit.core.state import BB_SIZE, ST_SIZE
from chesskit.vocab import MAX_MOVES

from . import kernels
from .kernels import THREADS, blocks
from .rules import SIMULATOR, gpu_table

# the rows, move, parent, owner, move count, count; and the level hash's 2 slots of 12 bytes
POSITION_BYTES = BB_SIZE * 8 + 64 + ST_SIZE * 8 + 4 + 4 + 4 + 8 + 8 + 24
MAX_CAP = 1 << 24  # positions per level buffer (more buys no speed: 16M threads fill any GPU)
SIM_CAP = 1 << 12
MAX_TABLE = 1 << 30  # table entries (16 bytes each): at most a quarter of the free memory
SIM_TABLE = 1 << 12
CLEAR_BLOCKS = 4 if SIMULATOR else 1024  # blocks of the clearing kernel (it loops over the rest)


class Level:
    """One level's buffers on the GPU: ``cap`` positions, the move that made each and its
    parent's row, their move counts and their perft counts (``acc``)."""

    def __init__(self, cap: int):
        self.bbs = cuda.device_array((cap, BB_SIZE), dtype=np.uint64)
        self.boards = cuda.device_array((cap, 64), dtype=np.int8)
        self.sts = cuda.device_array((cap, ST_SIZE), dtype=np.int64)
        self.moves = cuda.device_array(cap, dtype=np.int32)
        self.parents = cuda.to_device(np.zeros(cap, dtype=np.int32)) if cap == 1 else cuda.device_array(cap, np.int32)
        self.counts = cuda.device_array(cap, dtype=np.int64)
        self.acc = cuda.device_array(cap, dtype=np.int64)
        self.owner = cuda.device_array(cap, dtype=np.int32)


def default_cap(depth: int) -> int:
    """Positions per level buffer: what half the GPU's free memory holds for the levels
    a perft of ``depth`` keeps (``depth - 2``: the last two plies are counted in place)."""
    if SIMULATOR:
        return SIM_CAP
    free, _ = cuda.current_context().get_memory_info()
    cap = free // 2 // (max(1, depth - 2) * POSITION_BYTES)
    return int(max(MAX_MOVES_FLOOR, min(MAX_CAP, cap)))


MAX_MOVES_FLOOR = 4096  # a buffer holds at least one position's children, many times over


@contextmanager
def gpu_memory():
    """The driver's out-of-memory error as ``MemoryError`` (one line, exit 4, in the CLI)."""
    try:
        yield
    except CudaAPIError as err:
        if "OUT_OF_MEMORY" in str(err):
            raise MemoryError(f"GPU out of memory: {err}") from None
        raise


def _in_gpu_memory(method):
    @functools.wraps(method)
    def wrapped(*args, **kwargs):
        with gpu_memory():
            return method(*args, **kwargs)

    return wrapped


class Walk:
    @_in_gpu_memory
    def __init__(self, cap: int | None = None):
        from .device import require

        require()
        self.cap = cap
        self.T = cuda.to_device(gpu_table())
        self.total = cuda.to_device(np.zeros(1, dtype=np.int64))
        self.levels: dict[int, Level] = {}
        self.no_table = cuda.to_device(np.zeros(0, dtype=np.uint64))
        self.tt = cuda.to_device(np.zeros(2 * _table_entries(), dtype=np.uint64))
        self.hkeys = self.hrows = None  # the level hash (``_dedupe``), once ``cap`` is known
        self.profile: dict[str, float] | None = None  # seconds by step, where asked for (``profiled``)

    @contextmanager
    def profiled(self):
        """Seconds spent in each step (kernel, or host copy and scan) while inside, in
        ``self.profile``; each step is synchronized, so the total is slower than a plain run."""
        self.profile = defaultdict(float)
        try:
            yield self.profile
        finally:
            self.profile_done, self.profile = self.profile, None

    @contextmanager
    def _step(self, name: str):
        if self.profile is None:
            yield
            return
        cuda.synchronize()
        began = time.perf_counter()
        yield
        cuda.synchronize()
        self.profile[name] += time.perf_counter() - began

    def clear_table(self) -> None:
        """Empty the table (each public count starts with an empty one)."""
        with self._step("clear table"):
            half = self.tt.shape[0] // 2
            if half:
                kernels.clear[CLEAR_BLOCKS, THREADS](self.tt[:half], self.tt[half:], half)

    # ------------------------------------------------------------ the public counts

    @_in_gpu_memory
    def perft(self, board, depth: int) -> int:
        if depth == 0:
            return 1
        root = self._root(board, depth)
        self.clear_table()
        return self._count_from(root, 1, depth)

    @_in_gpu_memory
    def divide(self, board, depth: int) -> dict[str, int]:
        """perft(depth - 1) after each legal move, by UCI move (``board.uci``)."""
        root = self._root(board, depth)
        self.clear_table()
        n = self._children(root, 0, 1, depth)
        first = self.levels[depth - 1]
        moves = first.moves.copy_to_host()[:n]
        if depth == 1:
            return {board.uci(int(m)): 1 for m in moves}
        # each move's subtree from its own copy, so the level buffer is free for the walk
        counts = {}
        for j, move in enumerate(moves):
            one = _copy_rows(first, j)
            counts[board.uci(int(move))] = self._count_from(one, 1, depth - 1)
        return counts

    def warm_up(self, board) -> None:
        """Compile (or load) the kernels outside a timed run: perft 3 runs all three."""
        self.perft(board, 3)

    # ------------------------------------------------------------ the walk

    def _root(self, board, depth: int) -> Level:
        if self.cap is None:
            self.cap = default_cap(depth)
        if self.hkeys is None:
            size = 1
            while size < 2 * max(self.cap, MAX_MOVES):
                size *= 2
            self.hkeys = cuda.device_array(size, dtype=np.uint64)
            self.hrows = cuda.device_array(size, dtype=np.int32)
        bb, squares, st, _, _ = board._state()
        root = Level(1)
        root.bbs = cuda.to_device(bb.reshape(1, BB_SIZE).copy())
        root.boards = cuda.to_device(squares.astype(np.int8).reshape(1, 64))
        root.sts = cuda.to_device(st.reshape(1, ST_SIZE).copy())
        return root

    def _count_from(self, level: Level, n: int, depth: int) -> int:
        self.total.copy_to_device(np.zeros(1, dtype=np.int64))
        self._count(level, n, depth, self.total)  # a root level's rows have parent 0
        return int(self.total.copy_to_host()[0])

    def _count(self, level: Level, n: int, depth: int, up) -> None:
        """Add perft(depth) of each of the first ``n`` positions of ``level`` to its
        parent's count, ``up[level.parents[i]]``."""
        if n == 0:
            return
        if n > 1:
            self._dedupe(level, n, depth)
        if depth <= 2:
            with self._step(f"count_leaves {depth}"):
                kernels.count_leaves[blocks(n), THREADS](
                    self.T, level.bbs, level.boards, level.sts, n, depth, self.tt, level.parents, up, level.counts
                )
            if n > 1:
                with self._step("leaf_aliases"):
                    kernels.leaf_aliases[blocks(n), THREADS](level.sts, n, level.owner, level.counts, level.parents, up)
            return
        with self._step("count_moves"):
            kernels.count_moves[blocks(n), THREADS](self.T, level.bbs, level.boards, level.sts, n, level.counts)
        with self._step("move counts to host, scan"):
            sizes = level.counts[:n].copy_to_host()
            ends = np.cumsum(sizes)
        start = 0
        while start < n:
            base = int(ends[start - 1]) if start else 0
            stop = max(start + 1, int(np.searchsorted(ends, base + self.cap, side="right")))
            m = int(ends[stop - 1]) - base
            self._expand(level, start, stop, ends[start:stop] - sizes[start:stop] - base, depth - 1, self.tt)
            self._count(self.levels[depth - 1], m, depth - 1, level.acc)
            with self._step("finish"):
                kernels.finish[blocks(stop - start), THREADS](
                    level.bbs, level.sts, start, stop - start, level.acc, depth, self.tt, level.parents, up, level.owner
                )
            start = stop

    def _dedupe(self, level: Level, n: int, depth: int) -> None:
        """Mark each row of ``level`` that repeats an earlier row's position an ``ALIAS`` of it."""
        size = 1
        while size < 2 * n:
            size *= 2
        with self._step("dedupe"):
            kernels.clear[min(CLEAR_BLOCKS, blocks(size)), THREADS](self.hkeys, self.hrows, size)
            kernels.claim[blocks(n), THREADS](level.bbs, level.sts, n, self.hkeys, self.hrows, size)
            kernels.resolve[blocks(n), THREADS](level.bbs, level.sts, n, self.hkeys, self.hrows, size, level.owner)
        if self.profile is not None:  # rows walked, aliases and found in the table, by depth
            out = cuda.to_device(np.zeros(3, dtype=np.int64))
            kernels.tally[blocks(n), THREADS](level.sts, n, out)
            for what, rows in zip(("walked", "aliases", "in the table"), out.copy_to_host()):
                self.profile[f"depth {depth} rows {what}"] += int(rows)

    def _children(self, level: Level, start: int, stop: int, depth: int) -> int:
        """The children of positions ``start..stop`` of ``level`` into the buffer of
        ``depth - 1``; how many."""
        n = stop - start
        counts = cuda.device_array(n, np.int64)
        kernels.count_moves[blocks(n), THREADS](self.T, level.bbs, level.boards, level.sts, n, counts)
        sizes = counts.copy_to_host()
        self._expand(level, start, stop, np.cumsum(sizes) - sizes, depth - 1, self.no_table)  # each one made
        return int(sizes.sum())

    def _expand(self, level: Level, start: int, stop: int, offsets: np.ndarray, depth: int, tt) -> None:
        child = self.levels.get(depth)
        if child is None:
            child = self.levels[depth] = Level(max(self.cap, MAX_MOVES))  # one row's children always fit
        n = stop - start
        with self._step("offsets to device"):
            offsets = cuda.to_device(offsets.astype(np.int64))
        with self._step("expand"):
            kernels.expand[blocks(n), THREADS](
                self.T, level.bbs, level.boards, level.sts, start, n, offsets,
                child.bbs, child.boards, child.sts, child.parents, child.moves, tt, depth, level.acc,
            )


def _table_entries() -> int:
    """Entries of the table: a power of two, at most a quarter of the GPU's free memory."""

    if SIMULATOR:
        return SIM_TABLE
    free, _ = cuda.current_context().get_memory_info()
    entries = 1
    while entries * 2 <= min(MAX_TABLE, free // 4 // 16):
        entries *= 2
    return entries


def _copy_rows(level: Level, j: int) -> Level:
    one = Level(1)
    one.bbs = cuda.to_device(level.bbs[j : j + 1].copy_to_host())
    one.boards = cuda.to_device(level.boards[j : j + 1].copy_to_host())
    one.sts = cuda.to_device(level.sts[j : j + 1].copy_to_host())
    return one

