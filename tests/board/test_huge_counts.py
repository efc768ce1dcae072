"""Counts past 2^58 and 2^63: the table's entries hold 58 bits of a count (a larger one was
stored cut, and KvK 24 printed 2^58 too few with exit 0), the walk's sums 64 (read as
unsigned); a tree that may be larger is refused (exit 2) rather than printed wrapped.
The expected counts are python-chess's, by dynamic programming over KvK's positions."""

from __future__ import annotations

import chess
import pytest

from chesskit.board.board import Board
from chesskit.errors import InputError

KVK = "8/8/8/8/8/8/8/K6k w - - 0 1"


def kvk_divide(depth: int) -> dict[str, int]:
    """python-chess's divide of KVK: each position's count at each depth made once."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def children(position: str) -> tuple[str, ...]:
        board = chess.Board(position)
        found = []
        for move in board.legal_moves:
            board.push(move)
            found.append(board.fen(en_passant="fen").rsplit(" ", 2)[0] + " 0 1")
            board.pop()
        return tuple(found)

    @lru_cache(maxsize=None)
    def perft(position: str, d: int) -> int:
        return 1 if d == 0 else sum(perft(child, d - 1) for child in children(position))

    root = chess.Board(KVK)
    result = {}
    for move in root.legal_moves:
        root.push(move)
        result[move.uci()] = perft(root.fen(en_passant="fen").rsplit(" ", 2)[0] + " 0 1", depth - 1)
        root.pop()
    return result


def test_counts_past_2_58_are_exact():
    expected = kvk_divide(24)
    assert sum(expected.values()) > 1 << 62  # and over 2^58 in every move's subtree
    board = Board(KVK)
    assert board.divide(24, hash_mb=64) == expected
    assert board.perft(24, hash_mb=64, threads=2) == sum(expected.values())


def test_a_tree_past_64_bits_is_refused(cli):
    with pytest.raises(InputError, match=r"^perft 30 of this position has about .* leaves, more than chesskit counts"):
        Board(KVK).perft(30)
    result = cli("perft", KVK, "30")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
