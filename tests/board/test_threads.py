"""board/threads.py: a split count hands its tasks to the threads in chunks, each thread
on one copy of the position, and counts what the published tables say."""

from __future__ import annotations

import pytest

from chesskit.board import threads
from chesskit.board.board import Board
from helpers import KIWIPETE


def test_chunks_keep_every_task_once_in_order():
    work = [(i,) for i in range(1000)]
    for n in (1, 2, 3, 16):
        parts = threads.chunks(work, n)
        assert [t for part in parts for t in part] == work
        assert len(parts) <= 2 * threads.CHUNKS_PER_THREAD * n
    assert threads.chunks(work[:5], 2) == [[t] for t in work[:5]]  # few tasks: one a chunk


@pytest.mark.parametrize("deep_from, tasks", [(threads.DEEP_TASKS_FROM, 48), (4, 2039)])
def test_a_split_count_copies_the_position_once_a_thread(monkeypatch, deep_from, tasks):
    """Tasks one ply down below depth DEEP_TASKS_FROM (Kiwipete's 48 moves), two plies
    down from it (2,039 tasks): the same count, each thread on one copy."""
    monkeypatch.setattr(threads, "DEEP_TASKS_FROM", deep_from)
    copies = []
    real = Board.copy
    monkeypatch.setattr(Board, "copy", lambda self: copies.append(1) or real(self))
    seen = []
    board = Board(KIWIPETE)
    # published (the Perft Results page)
    assert board.perft(4, threads=2, progress=lambda done, total, nodes: seen.append((done, total, nodes))) == 4085603
    assert 1 <= len(copies) <= 2  # one task a copy before: 2,039
    assert seen[-1] == (tasks, tasks, 4085603) and [s[0] for s in seen] == sorted(s[0] for s in seen)
    assert board.divide(4, threads=2, progress=lambda *a: None) == board.divide(4)
