"""core/entry.py keeps each thread's walk buffers (and the arrays' addresses) between
calls: counts and move lists stay right whatever came before them, on any thread."""

from __future__ import annotations

import threading

import chess

from chesskit.board.board import Board
from helpers import KIWIPETE, STARTPOS, pc_perft

# published: the Perft Results page
COUNTS = {STARTPOS: [20, 400, 8902, 197281], KIWIPETE: [48, 2039, 97862, 4085603]}


def test_counts_and_move_lists_after_other_positions_and_depths():
    boards = {fen: Board(fen) for fen in COUNTS}
    for depth in (4, 1, 3, 2, 4, 1):  # the buffers grow at the first depth 4, then are reused
        for fen, board in boards.items():
            assert board.perft(depth) == COUNTS[fen][depth - 1]
            # a move list after a deeper count: the rows a count left behind are not read
            assert sorted(board.legal_moves()) == sorted(m.uci() for m in chess.Board(fen).legal_moves)
    after = Board(STARTPOS)  # a new board's arrays: their addresses are not a previous board's
    after.push_moves("e2e4 e7e5")
    oracle = chess.Board(STARTPOS)
    oracle.push_uci("e2e4")
    oracle.push_uci("e7e5")
    assert after.perft(3) == pc_perft(oracle, 3)


def test_two_threads_count_at_once():
    errors = []

    def count(fen: str) -> None:
        board = Board(fen)
        for _ in range(20):
            for depth, expected in enumerate(COUNTS[fen], 1):
                if board.perft(depth) != expected:
                    errors.append((fen, depth))

    threads = [threading.Thread(target=count, args=(fen,)) for fen in COUNTS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_the_bitboards_the_copy_make_copies_start_a_cache_line():
    # the copy-make copies the bitboards in 64-byte blocks: a block across two cache lines
    # made pos3 7 about 5% slower on an AMD EPYC (docs/benchmarks.md, session 40), and
    # numpy's allocations start anywhere 16 bytes apart
    from chesskit.core import entry

    for _ in range(20):  # new arrays land at different offsets: each must be aligned
        board = Board(KIWIPETE)
        copy = board.copy()
        assert board.perft(2) == copy.perft(2) == 2039
        buffers = entry._local.buffers
        for words in (board._bb, copy._bb, buffers.leaf_bb):
            assert words.ctypes.data % 64 == 0
        entry._local.buffers = None  # the next count makes new buffers
