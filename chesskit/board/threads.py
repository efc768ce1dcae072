"""perft and divide on a Board: the serial compiled walk, or a pool of threads over the
tree's first one or two plies; and ``usable_cores``, the default for threads and local workers.

Works on a ``chesskit.board.board.Board`` passed in (its state arrays and packed moves);
imports only the compiled core, on first use (importing numba costs ~0.3 s).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed

# below this depth a thread pool costs more than it saves
MIN_THREADED_DEPTH = 4
# the tree is cut into tasks this many plies down, one ply for a perft shallower than
# DEEP_TASKS_FROM: two plies down, a depth-5 count's tasks are depth-3 trees (about 30
# thousand leaves, tens of microseconds), and each task's Python and its turn on the GIL
# cost about as much (random.perft's counts of 20-100 M nodes at depth 5 on two threads:
# 14 CPU s against 5.8 on one; docs/benchmarks.md)
TASK_PLIES = 2
DEEP_TASKS_FROM = 6
# the tasks are handed to the threads in about this many chunks per thread
CHUNKS_PER_THREAD = 64
# the names of the pool's threads (``walks_left_running`` looks for them)
THREAD_PREFIX = "chesskit-walk"


def usable_cores() -> int:
    """The cores this process may run on: the default for threads and local workers."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def threads_for(depth: int, threads: int) -> int:
    """The threads a count of ``depth`` plies runs on when given ``threads``."""
    return 1 if depth < MIN_THREADED_DEPTH else threads


def run(board, depth: int, tt, threads: int, progress, by_move: bool) -> dict:
    """perft as ``{"": nodes}``, or divide as ``{move: nodes}`` (depth >= 1; the board has
    room for ``depth`` more plies of history).

    With one thread and no progress report the compiled walk runs once (per root move
    for divide). Otherwise the tree is cut into tasks, the move sequences of the first
    two plies (one below ``DEEP_TASKS_FROM``), handed out in chunks (``chunks``) to a pool of Python threads, each running
    the compiled walk on its own copy of the position; the walk releases the GIL, so the
    threads run on all cores at once, taking the next chunk as they finish (the table, if
    any, is shared: its entries are safe against concurrent writers)."""
    threads = threads_for(depth, threads)
    if threads == 1 and progress is None:
        if by_move:
            return {board.uci(int(m)): walk(board, depth - 1, tt, (int(m),)) for m in board._legal_packed()}
        return {"": walk(board, depth, tt, ())}
    plies = TASK_PLIES if depth >= DEEP_TASKS_FROM else 1
    work = tasks(board, min(plies, depth))  # never past the leaves (depth 1 with progress)
    totals: dict[str, int] = {}
    nodes = 0
    done = 0
    own = threading.local()  # each pool thread's copy of the position: a walk takes back its moves

    def count(chunk: list[tuple[int, ...]]) -> list[int]:
        copy = getattr(own, "board", None)
        if copy is None:
            copy = own.board = board.copy()
        return [walk(copy, depth - len(t), tt, t) for t in chunk]

    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=THREAD_PREFIX)
    futures = {pool.submit(count, chunk): chunk for chunk in chunks(work, threads)}
    try:
        for future in as_completed(futures):
            for task, found in zip(futures[future], future.result()):
                name = board.uci(task[0]) if by_move else ""
                totals[name] = totals.get(name, 0) + found
                nodes += found
            done += len(futures[future])
            if progress:
                progress(done, len(work), nodes)
    except BaseException:
        # Ctrl-C, or a task that failed: a compiled walk cannot be stopped from Python,
        # and one task can run for minutes, so the running ones are left to run (each
        # holds its own board and the table) and nobody waits for them; the rest never
        # start. A process that ends now must not wait for them either (os._exit: see
        # ``walks_left_running``).
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)  # every task is done: the threads end at once
    if by_move:  # in generation order, as the serial divide gives them
        return {board.uci(int(m)): totals[board.uci(int(m))] for m in board._legal_packed()}
    return totals


def chunks(work: list, threads: int) -> list[list]:
    """``work`` in consecutive chunks, about CHUNKS_PER_THREAD of them per thread (one task
    each when there are fewer tasks): a task of a suite's count can take a tenth of a
    millisecond, less than handing it to a thread costs, and many chunks a thread still
    keep the threads busy to the end."""
    size = max(1, len(work) // (CHUNKS_PER_THREAD * threads))
    return [work[i : i + size] for i in range(0, len(work), size)]


def walks_left_running() -> bool:
    """True while a walk that an interrupted (or failed) ``run`` left behind is still on
    one of the pool's threads. The interpreter joins such a thread before it exits, which
    may be minutes away: a process that ends while this is true ends with ``os._exit``."""
    return any(t.name.startswith(THREAD_PREFIX) and t.is_alive() for t in threading.enumerate())


def walk(board, depth: int, tt, moves: tuple[int, ...]) -> int:
    """perft(depth) after making the packed ``moves`` on ``board`` (taken back after)."""
    return board._count(depth, tt, moves)


def tasks(board, plies: int, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every sequence of ``plies`` legal moves, shorter where the game ends first."""
    if plies == 0:
        return [prefix]
    found = []
    for move in board._legal_packed(prefix):
        found += tasks(board, plies - 1, (*prefix, int(move)))
    if not found and prefix:  # mate or stalemate after prefix: a task of its own (it counts 0)
        found.append(prefix)
    return found
