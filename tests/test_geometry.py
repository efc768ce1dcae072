"""chesskit.geometry against python-chess: distances, lines, the squares between, mirrored
ranks, attackers on random boards, and the start FEN."""

from __future__ import annotations

import chess
import pytest

from chesskit.geometry import START_FEN, attackers, between, distance, flip_rank, ray
from helpers import random_boards


def test_distance_and_between_equal_python_chess_for_every_pair():
    for a in range(64):
        for b in range(64):
            assert distance(a, b) == chess.square_distance(a, b)
            assert between(a, b) == sorted(chess.SquareSet(chess.between(a, b)), key=lambda s: distance(a, s))


def test_rays_run_to_the_edge_along_python_chess_lines():
    for sq in range(64):
        for df, dr in ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)):
            line = ray(sq, df, dr)
            if not line:
                continue
            # all on one python-chess line through sq, and the last square is on the edge
            assert all(chess.ray(sq, s) & chess.BB_SQUARES[line[-1]] for s in line)
            edge = line[-1]
            assert chess.square_file(edge) in (0, 7) or chess.square_rank(edge) in (0, 7)
            assert [distance(sq, s) for s in line] == list(range(1, len(line) + 1))


def test_flip_rank_is_python_chess_square_mirror():
    assert [flip_rank(sq) for sq in range(64)] == [chess.square_mirror(sq) for sq in range(64)]


@pytest.mark.parametrize("chess960", [False, True])
def test_attackers_equal_python_chess_on_random_boards(chess960):
    for board in random_boards(2026_11_25 + chess960, 60, chess960=chess960):
        codes = [0] * 64
        for sq, p in board.piece_map().items():
            codes[sq] = p.piece_type | (0 if p.color == chess.WHITE else 8)
        for sq in range(64):
            for color in (0, 1):
                assert attackers(codes, sq, color) == sorted(board.attackers(color == 0, sq)), (board.fen(), sq)


def test_start_fen():
    assert START_FEN == chess.STARTING_FEN
