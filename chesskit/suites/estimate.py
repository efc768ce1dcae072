"""chesskit's own estimate of a perft count, so that a suite's expected count cannot
unbound the work.

``--max-nodes`` skips the depths whose *expected* count is over the limit, but that count
is the file's word: a line ``D12 6285`` on the start position would start perft 12, which
never ends. ``estimate_nodes`` counts the position itself to a shallow depth (until a
count passes ``SHALLOW_NODES``: at most a few hundred thousand nodes) and extrapolates
with the branching of the last two plies (their geometric mean, so a side with many
moves facing one with few is not overstated). In chess the branching grows with depth,
so this tends to *under*-estimate: it is a conservative test.

``within_bounds`` keeps a task unless its estimate is over both the node limit and
``MARGIN`` times its expected count; then it is an error for its line. A task that runs
is therefore estimated at no more than ``MARGIN`` times the node limit. No estimate can
exceed ``MAX_MOVES ** depth`` (no position of standard chess or Chess960 has more moves
than the move buffer holds, and the extrapolated branching is at most that too), so a task
under whose limit even that fits is kept without counting anything: a suite of many small
positions under a large ``--max-nodes`` would otherwise spend about as long estimating as
counting.
"""

from __future__ import annotations

import math
from typing import Iterable

from chesskit.errors import InputError
from chesskit.suites.formats import LineError
from chesskit.vocab import MAX_MOVES

SHALLOW_NODES = 2_000
MARGIN = 16


def shallow_counts(board, depth: int) -> list[int]:
    """perft(0), perft(1), ... up to ``depth`` or the first count over SHALLOW_NODES (or 0)."""
    counts = [1]
    while len(counts) <= depth and 0 < counts[-1] <= SHALLOW_NODES:
        counts.append(board.perft(len(counts)))
    return counts


def extrapolate(counts: list[int], depth: int) -> float:
    """perft(``depth``) from ``shallow_counts``: exact where counted, else the last count
    times the branching of the last two plies to the power of the depths missing."""
    last = len(counts) - 1
    if depth <= last:
        return float(counts[depth])
    if counts[last] == 0:
        return 0.0
    branching = math.sqrt(counts[last] / counts[last - 2]) if last >= 2 else float(counts[last])
    return counts[last] * branching ** (depth - last)


def estimate_nodes(board, depth: int) -> float:
    """chesskit's estimate of ``board.perft(depth)`` (exact up to a shallow depth)."""
    return extrapolate(shallow_counts(board, depth), depth)


def within_bounds(tasks: Iterable, max_nodes: int | None) -> tuple[list, list[LineError]]:
    """``(tasks to run, errors)``: a task whose expected count is far below chesskit's own
    estimate, which is over ``max_nodes`` too, becomes a LineError for its line (one per
    position, naming each depth) instead of a count that may never end."""
    tasks = list(tasks)
    if max_nodes is None:
        return tasks, []
    deepest: dict[int, int] = {}
    for task in tasks:
        deepest[id(task.record)] = max(deepest.get(id(task.record), 0), task.depth)
    kept, refused, chains = [], {}, {}
    for task in tasks:
        record = task.record
        if beyond_doubt(task, max_nodes):
            kept.append(task)
            continue
        if id(record) not in chains:
            try:
                board = record.board()
            except InputError:
                chains[id(record)] = None  # the run reports why it cannot be counted
            else:
                chains[id(record)] = shallow_counts(board, deepest[id(record)])
        counts = chains[id(record)]
        guess = 0.0 if counts is None else extrapolate(counts, task.depth)
        if guess > max(max_nodes, MARGIN * task.expected):
            refused.setdefault(id(record), (record, []))[1].append((task, guess, len(counts) - 1))
        else:
            kept.append(task)
    return kept, [_error(record, found, max_nodes) for record, found in refused.values()]


def beyond_doubt(task, max_nodes: int | None) -> bool:
    """True when no estimate could refuse ``task`` (``within_bounds`` keeps it unasked)."""
    return max_nodes is None or task.depth <= 2 or _bounded(task, max_nodes)


def _bounded(task, max_nodes: int) -> bool:
    """True when no estimate of ``task`` can refuse it: a standard chess (or Chess960)
    count of depth d is at most MAX_MOVES ** d (a variant's moves have other bounds)."""
    return task.record.variant == "chess" and MAX_MOVES ** task.depth <= max(max_nodes, MARGIN * task.expected)


def _error(record, found: list, max_nodes: int) -> LineError:
    task, guess, counted = found[0]
    depths = ", ".join(f"D{t.depth} {t.expected}" for t, _, _ in found)
    message = (
        f"{depths}: not run: chesskit estimates about {guess:.1e} nodes at depth {task.depth} "
        f"(from its own counts to depth {counted}), over the node limit {max_nodes:,}; "
        "the expected count looks understated"
    )
    return LineError(record.path, record.lineno, message, record.label)
