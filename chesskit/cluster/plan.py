"""The task list: positions at the split depth, estimated, batched and hashed.

Each unique position gets an estimate of its subtree's size. When at most two plies
remain the estimate is the exact count; otherwise it is perft(2) of the position times
the level's mean branching factor (sum of perft(2) over sum of perft(1)) for each further
ply. Batches are filled, in FEN order, up to ``TASK_NODES`` estimated nodes (a few seconds
of one core), but small enough that a small run still makes about ``MIN_TASKS`` tasks.

Everything here is deterministic (node counts, never timings), so the same position,
depth and split depth always give the same task list and the same hash: that is what lets
a checkpoint be resumed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from chesskit.cluster.split import TASK_NODES, TooManyPositions, choose_split_depth, split
from chesskit.errors import InputError

# A small run is still cut into about this many tasks, so that every worker gets some.
MIN_TASKS = 64


@dataclass
class Task:
    """One batch: (position FEN, multiplicity) pairs, all searched to the same depth."""

    index: int
    positions: list[tuple[str, int]]
    estimate: int


@dataclass
class Plan:
    fen: str
    chess960: bool
    depth: int
    split_depth: int
    positions: int  # unique positions at the split depth
    tasks: list[Task] = field(default_factory=list)
    task_hash: str = ""

    @property
    def remaining(self) -> int:
        return self.depth - self.split_depth

    @property
    def estimate(self) -> int:
        return sum(t.estimate for t in self.tasks)


def estimates(level, remaining: int) -> dict[str, int]:
    """An estimated perft(remaining) for each position of ``level`` (exact when <= 2)."""
    if remaining <= 2:
        return {key: level.board(key).perft(remaining) for key in level.multiplicity}
    one, two = {}, {}
    for key in level.multiplicity:
        board = level.board(key)
        one[key], two[key] = board.perft(1), board.perft(2)
    branching = sum(two.values()) / max(sum(one.values()), 1)
    return {key: int(two[key] * branching ** (remaining - 2)) for key in level.multiplicity}


def batch(level, remaining: int) -> list[Task]:
    """Cut the weighted positions into tasks (see the module docstring)."""
    sizes = estimates(level, remaining)
    weighted = {key: sizes[key] * level.multiplicity[key] for key in level.multiplicity}
    target = max(1, min(TASK_NODES, sum(weighted.values()) // MIN_TASKS))
    tasks: list[Task] = []
    current: list[tuple[str, int]] = []
    size = 0
    for key in sorted(level.multiplicity):
        current.append((key + " 0 1", level.multiplicity[key]))
        size += weighted[key]
        if size >= target:
            tasks.append(Task(len(tasks), current, size))
            current, size = [], 0
    if current:
        tasks.append(Task(len(tasks), current, size))
    return tasks


def task_hash(chess960: bool, remaining: int, tasks: list[Task]) -> str:
    """A short hash of exactly what the workers are asked to compute."""
    payload = json.dumps(
        {"chess960": chess960, "remaining": remaining, "tasks": [t.positions for t in tasks]},
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def make_plan(board, depth: int, split_depth: int | None = None) -> Plan:
    """Split ``board`` for perft(``depth``) at ``split_depth`` (None: choose it) and batch."""
    if split_depth is None:
        level = choose_split_depth(board, depth)
    else:
        try:
            level = split(board, split_depth)
        except TooManyPositions as err:
            raise InputError(
                f"bad split depth {split_depth}: {err} (each is planned and held in memory); "
                "use a smaller split depth, or leave it out to have it chosen"
            ) from None
    remaining = depth - level.plies
    tasks = batch(level, remaining)
    plan = Plan(board.fen(), board.chess960, depth, level.plies, len(level), tasks)
    plan.task_hash = task_hash(board.chess960, remaining, tasks)
    return plan
