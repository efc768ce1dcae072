"""Splitting into unique positions with multiplicities, and batching into tasks (no Dask)."""

from __future__ import annotations

import pytest

from chesskit.board.board import Board
from chesskit.cluster import plan as plan_mod
from chesskit.cluster.plan import make_plan
from chesskit.cluster.split import choose_split_depth, position_key, split
from chesskit.cluster.worker import run_batch
from helpers import KIWIPETE, STARTPOS

POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
CHESS960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
# Fool's mate: white is mated, no moves at the root.
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def board(fen: str) -> Board:
    return Board(fen, chess960=True if fen == CHESS960 else None)


def test_split_merges_transpositions_and_keeps_every_path():
    level = split(Board(STARTPOS), 3)
    assert level.paths == 8902  # perft(3): every path is counted, with its multiplicity
    assert len(level) == 5362  # the unique positions three plies into the game
    after = Board(STARTPOS)
    after.push_moves("e2e4 e7e5 g1f3")
    assert level.multiplicity[position_key(after)] == 2  # also 1. Nf3 e5 2. e4


def test_en_passant_square_that_nobody_can_use_does_not_split_a_transposition():
    one, two = Board(STARTPOS), Board(STARTPOS)
    one.push_moves("e2e4 g8f6 e4e5 d7d5")  # exd6 possible: the square counts
    two.push_moves("e2e3 g8f6 e3e4 d7d5 e4e5")
    assert position_key(one).split()[3] == "d6"
    three, four = Board(STARTPOS), Board(STARTPOS)
    three.push_moves("e2e4")
    four.push_moves("e2e3 a7a6 e3e4")
    assert position_key(three).split()[3] == position_key(four).split()[3] == "-"


@pytest.mark.parametrize(
    "fen, depth, nodes, splits",
    [
        (KIWIPETE, 3, 97862, [0, 1, 2]),
        (POS3, 5, 674624, [0, 1, 2, 3]),
        (CHESS960, 3, 12189, [0, 1, 2]),
        (STARTPOS, 2, 400, [2]),  # split at the leaves: the multiplicities are the count
        (MATED, 3, 0, [0, 1, 2, 3]),
    ],
    ids=["kiwipete", "pos3", "chess960", "startpos-leaves", "mated"],
)
def test_every_split_depth_gives_the_total(fen, depth, nodes, splits):
    assert board(fen).perft(depth) == nodes
    for split_depth in splits:
        plan = make_plan(board(fen), depth, split_depth)
        assert plan.split_depth == split_depth
        total = sum(run_batch(t.positions, plan.remaining, plan.chess960, 1) for t in plan.tasks)
        assert total == nodes, split_depth


def test_tasks_cover_each_position_once():
    plan = make_plan(Board(KIWIPETE), 4, 2)
    keys = [fen for task in plan.tasks for fen, _ in task.positions]
    assert len(keys) == len(set(keys)) == plan.positions
    assert sum(m for task in plan.tasks for _, m in task.positions) == 2039
    # at most two plies remain: the estimates are the exact counts
    assert plan.estimate == 4085603
    assert [t.index for t in plan.tasks] == list(range(len(plan.tasks)))


def test_plan_is_deterministic_and_its_hash_names_the_work():
    one, two = make_plan(Board(POS3), 6), make_plan(Board(POS3), 6)
    assert one.task_hash == two.task_hash
    assert [t.positions for t in one.tasks] == [t.positions for t in two.tasks]
    assert make_plan(Board(POS3), 6, 2).task_hash != one.task_hash
    assert make_plan(Board(POS3), 7, one.split_depth).task_hash != one.task_hash


def test_automatic_split_depth():
    assert choose_split_depth(Board(STARTPOS), 5).plies == 2  # 400 positions
    assert choose_split_depth(Board(STARTPOS), 1).plies == 0  # never at the leaves
    assert choose_split_depth(Board(STARTPOS), 2).plies == 1
    assert choose_split_depth(Board(POS3), 6).plies == 3  # 14, 191, then 2006 positions
    # deep work: one more ply, so each position holds less
    assert choose_split_depth(Board(STARTPOS), 10).plies == 3


def test_batches_are_sized_by_estimated_nodes(monkeypatch):
    small = make_plan(Board(STARTPOS), 5)
    assert plan_mod.MIN_TASKS // 2 <= len(small.tasks) <= plan_mod.MIN_TASKS  # a small run still spreads
    monkeypatch.setattr(plan_mod, "MIN_TASKS", 1)
    monkeypatch.setattr(plan_mod, "TASK_NODES", 1_000_000)
    coarse = make_plan(Board(STARTPOS), 5)
    assert 4 <= len(coarse.tasks) <= 6  # ~4.4 million estimated nodes in 1-million batches


@pytest.mark.parametrize("fen", [KIWIPETE, CHESS960, "8/8/8/KPp4r/8/8/8/7k w - c6 0 2"], ids=["kiwipete", "chess960", "ep"])
def test_a_levels_packed_position_makes_the_board_its_fen_makes(fen):
    """``Level.board`` makes each position from the setup packed when the level was
    expanded, not from its key: the same position as reading the key's FEN, to the key,
    the move list and the perft."""
    level = split(board(fen), 2)
    assert len(level.setups) == len(level)
    for key in list(level.multiplicity)[:40]:
        packed, read = level.board(key), Board(key + " 0 1", chess960=True if level.chess960 else None)
        assert position_key(packed) == position_key(read) == key
        assert packed.legal_moves() == read.legal_moves() and packed.perft(2) == read.perft(2)


def test_the_plan_of_a_known_position_keeps_its_hash():
    """A checkpoint written before a change of how the plan is made must still resume:
    the same position, depth and split depth give the same tasks (this hash was made by
    the plan of session 38, before the split made children without typing their moves)."""
    assert make_plan(Board(STARTPOS), 7, 3).task_hash == "41f9dd973e42b920"
    assert make_plan(board(CHESS960), 6, 3).task_hash == "c39e7a6991e79e4b"
