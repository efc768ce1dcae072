"""The host's side: perft breadth-first, level by level, on the GPU.

perft(d) of a set of positions (d >= 3): count each one's moves (``count_moves``), lay
their children out one after another (a prefix sum, on the GPU), list them as parent row
+ move (``list_moves``), make them (``make_children``, one thread per child) and count the
children to d - 1. At d = 2 the positions' moves are listed the same way, and each move
is one thread that makes it with the copy-make and counts its replies (``count_replies``:
the last two plies fused, as the CPU walk does, with no position written); at d = 1 each
position's moves are counted (``count_leaves``). A level whose children do not fit in a
buffer of ``cap`` positions (``cap * LEAF_MOVES`` moves at the leaf level) is split into
slices that do (``kernels.cut``), each counted to the bottom before the next (so memory is
one buffer per level, whatever the depth). The counts stay on the GPU, in one int64 sum.

A table in GPU memory (``kernels.probe``/``store``) holds perft counts by Zobrist key and
depth: each position's count is stored once all its children are counted (each row keeps
its parent's row, and counts flow up through the levels' ``acc``), and a child that an
earlier slice counted is looked up instead of made and walked (the transpositions of a
deep tree: most positions there are reached by several move orders). Inside a level the
same position is counted once: before a level is counted, its rows are matched by key
(``kernels.claim``/``resolve``) and each repeat takes its first row's count.

Each public count (``perft``, ``divide``) starts from an empty table, so a count is never
helped by an earlier one (a timed count is its own work, the table's clearing included).
The level buffers are sized by the deepest count asked for so far (``default_cap``: more
levels, fewer positions each), unless the caller fixed ``cap``.
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
from chesskit.errors import InputError
from chesskit.vocab import MAX_MOVES

from . import kernels
from .kernels import THREADS, blocks
from .rules import SIMULATOR, gpu_table

LEAF_MOVES = 8  # moves per position of ``cap`` in the leaf level's buffer (slices: ``kernels.cut``)
# the rows, move, parent, owner, move count, its prefix sum, count; the level hash's 2 slots
# of 12 bytes; and the leaf buffer's moves (a move and its row, 8 bytes each)
POSITION_BYTES = BB_SIZE * 8 + 64 + ST_SIZE * 8 + 4 + 4 + 4 + 8 + 8 + 8 + 24 + 8 * LEAF_MOVES
MAX_CAP = 1 << 24  # positions per level buffer (more buys no speed: 16M threads fill any GPU)
SIM_CAP = 1 << 12
MAX_TABLE = 1 << 30  # table entries (16 bytes each): at most a quarter of the free memory
SIM_TABLE = 1 << 12
CLEAR_BLOCKS = 1 if SIMULATOR else 1024  # blocks of the clearing kernel (it loops over the rest)


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
        self.ends = cuda.device_array(cap, dtype=np.int64)
        self.acc = cuda.device_array(cap, dtype=np.int64)
        self.owner = cuda.device_array(cap, dtype=np.int32)


def default_cap(depth: int, held: int = 0) -> int:
    """Positions per level buffer: what half the GPU's free memory (with the ``held`` bytes
    of the walk's own buffers, which sizing again would free) holds for the levels a perft of
    ``depth`` keeps (``depth - 2``: the last two plies are counted in place)."""
    if SIMULATOR:
        return SIM_CAP
    free, _ = cuda.current_context().get_memory_info()
    cap = (free + held) // 2 // (max(1, depth - 2) * POSITION_BYTES)
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


class Moves:
    """The leaf level's children: ``cap`` moves, each with its parent's row."""

    def __init__(self, cap: int):
        self.moves = cuda.device_array(cap, dtype=np.int32)
        self.parents = cuda.device_array(cap, dtype=np.int32)


class Walk:
    @_in_gpu_memory
    def __init__(self, cap: int | None = None):
        from .device import require

        require()
        self.fixed_cap = cap  # the caller's, or None: sized by the deepest count (``_size``)
        self.cap = cap
        self.sized_for = 0  # the depth the buffers were sized for (``default_cap``)
        self.T = cuda.to_device(gpu_table())
        self.total = cuda.to_device(np.zeros(1, dtype=np.int64))
        self.levels: dict[int, Level] = {}
        self.leaf: Moves | None = None
        self.sums: dict[int, object] = {}  # the prefix sum's block totals, by recursion depth
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
        n = self._children(root, depth)
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

    def warm_up(self, board, depth: int = 3) -> None:
        """Compile (or load) every kernel outside a timed run, and make the buffers a perft
        of ``depth`` uses: perft 3 and 1 run the kernels of the walk, and a prefix sum of
        more than one block and a cut those of a level too big for one block or slice.
        numba-cuda's simulator compiles nothing (its kernels run as Python): there the
        buffers are made and no count is run, whose perft 3 cost seconds of a test's CPU."""
        with gpu_memory():
            self.allocate(depth)
            ones = cuda.to_device(np.ones(2 * kernels.SCAN + 1, dtype=np.int64))
            ends = cuda.device_array(ones.shape[0], dtype=np.int64)
            self._scan(ones, ones.shape[0], ends, 0)
            where = cuda.device_array((2, 2), dtype=np.int64)
            kernels.cut[1, THREADS](ends, ones, ones.shape[0], kernels.SCAN, 2, where)
        if SIMULATOR:
            return
        self.perft(board, 3)
        self.perft(board, 1)

    # ------------------------------------------------------------ the walk

    def _size(self, depth: int) -> None:
        """Buffers for a count of ``depth``: sized again when ``depth`` is deeper than any
        before and the caller fixed no ``cap`` (more levels, fewer positions each); the old
        buffers are freed only if the size changes."""
        if self.fixed_cap is not None or depth <= self.sized_for:
            return
        self.sized_for = depth
        held = [a for level in self.levels.values() for a in vars(level).values()]
        held += [*vars(self.leaf).values()] if self.leaf is not None else []
        cap = default_cap(depth, sum(a.nbytes for a in held))
        if cap == self.cap:
            return
        self.levels.clear()
        self.leaf = self.hkeys = self.hrows = None
        if not SIMULATOR:
            cuda.current_context().deallocations.clear()  # freed now, before they are made again
        self.cap = cap

    def allocate(self, depth: int) -> None:
        """The buffers a perft of ``depth`` uses, sized and made now (``warm_up``), so that
        the count itself makes none."""
        self._size(depth)
        for d in range(2, depth):
            self._level(d)
        if depth >= 2 and self.leaf is None:
            self.leaf = Moves(self.cap * LEAF_MOVES + MAX_MOVES)

    @staticmethod
    def check(board) -> None:
        """``InputError`` (one line, exit 2) for a board the GPU walk cannot count: the
        kernels run standard chess's rules (and Chess960's), no variant's."""
        variant = getattr(board, "variant", "chess")
        if variant != "chess":
            raise InputError(f"--device gpu counts standard chess and Chess960 only, not {variant}: count it on the CPU")

    def _root(self, board, depth: int) -> Level:
        self.check(board)
        self._size(depth)
        if self.hkeys is None:
            size = 1
            while size < 2 * (self.cap + MAX_MOVES):
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
        if depth == 1:
            with self._step("count_leaves"):
                kernels.count_leaves[blocks(n), THREADS](
                    self.T, level.bbs, level.boards, level.sts, n, level.parents, up, level.counts
                )
            self._aliases(level, n, level.counts, up)
            return
        if depth == 2:
            self.allocate(2)
            for start, stop, m in self._slices(level, n, self.cap * LEAF_MOVES, self.leaf):
                if m:
                    with self._step("count_replies"):
                        kernels.count_replies[blocks(m), THREADS](
                            self.T, level.bbs, level.boards, level.sts, m, self.leaf.moves, self.leaf.parents, level.acc
                        )
            with self._step("leaf_finish"):
                kernels.leaf_finish[blocks(n), THREADS](level.bbs, level.sts, n, level.acc, self.tt, level.parents, up)
            self._aliases(level, n, level.acc, up)
            return
        child = self._level(depth - 1)
        for start, stop, m in self._slices(level, n, self.cap, child):
            self._make(level, m, child, depth - 1, self.tt)
            self._count(child, m, depth - 1, level.acc)
            with self._step("finish"):
                kernels.finish[blocks(stop - start), THREADS](
                    level.bbs, level.sts, start, stop - start, level.acc, depth, self.tt, level.parents, up, level.owner
                )

    def _aliases(self, level: Level, n: int, counts, up) -> None:
        if n > 1:
            with self._step("leaf_aliases"):
                kernels.leaf_aliases[blocks(n), THREADS](level.sts, n, level.owner, counts, level.parents, up)

    def _slices(self, level: Level, n: int, room: int, into):
        """The first ``n`` rows of ``level`` in slices whose children fit ``room`` plus one
        row's: for each, its moves listed into ``into`` (``.moves``, ``.parents``) and its
        rows' ``acc`` zeroed, then ``(start, stop, children)`` yielded."""
        with self._step("count_moves"):
            kernels.count_moves[blocks(n), THREADS](self.T, level.bbs, level.boards, level.sts, n, level.counts)
        with self._step("prefix sum"):
            self._scan(level.counts, n, level.ends, 0)
            total = int(level.ends[n - 1 : n].copy_to_host()[0])
        k = max(1, -(-total // room))
        if k == 1:
            cuts = [(0, n, 0, total)]
        else:
            with self._step("cut"):
                where = cuda.device_array((2, k), dtype=np.int64)
                kernels.cut[blocks(k), THREADS](level.ends, level.counts, n, room, k, where)
                rows, starts = where.copy_to_host()
            rows = [*rows.tolist(), n]
            starts = [*starts.tolist(), total]
            cuts = [(rows[j], rows[j + 1], starts[j], starts[j + 1]) for j in range(k) if rows[j + 1] > rows[j]]
        for start, stop, base, end in cuts:
            with self._step("list_moves"):
                kernels.list_moves[blocks(stop - start), THREADS](
                    self.T, level.bbs, level.boards, level.sts, start, stop - start, level.ends, level.counts, base,
                    into.moves, into.parents, level.acc,
                )
            yield start, stop, end - base

    def _scan(self, src, n: int, dst, deep: int) -> None:
        """``dst[:n]``: the inclusive prefix sum of ``src[:n]``, on the GPU."""
        size = kernels.SCAN
        nb = -(-n // size)
        sums = self.sums.get(deep)
        if sums is None or sums.shape[0] < nb:
            sums = self.sums[deep] = cuda.device_array(max(nb, 1024), dtype=np.int64)
        kernels.scan_blocks[nb, size](src, n, dst, sums)
        if nb > 1:
            self._scan(sums, nb, sums, deep + 1)
            kernels.scan_add[nb, size](dst, n, sums)

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

    def _level(self, depth: int) -> Level:
        child = self.levels.get(depth)
        if child is None:  # a slice's children: ``cap`` and one row's (``_slices``)
            child = self.levels[depth] = Level(self.cap + MAX_MOVES)
        return child

    def _children(self, level: Level, depth: int) -> int:
        """The children of the one position of ``level`` into the buffer of ``depth - 1``,
        each made (no table); how many."""
        child = self._level(depth - 1)
        n = 0
        for _, _, m in self._slices(level, 1, self.cap, child):
            self._make(level, m, child, depth - 1, self.no_table)
            n += m
        return n

    def _make(self, level: Level, m: int, child: Level, depth: int, tt) -> None:
        """The ``m`` children listed in ``child`` (``_slices``) keyed, looked up in ``tt``,
        deduplicated (``_dedupe``) and made where still to be walked."""
        if m == 0:
            return
        with self._step("key_children"):
            kernels.key_children[blocks(m), THREADS](
                self.T, level.bbs, level.boards, level.sts, m, child.moves, child.parents, child.bbs, child.sts,
                tt, depth, level.acc,
            )
        if m > 1:
            self._dedupe(child, m, depth)
        with self._step("make_children"):
            kernels.make_children[blocks(m), THREADS](
                self.T, level.bbs, level.boards, level.boards.view(np.uint64), level.sts, m, child.moves,
                child.parents, child.bbs, child.boards, child.boards.view(np.uint64), child.sts,
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

