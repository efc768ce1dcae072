"""The generator's count mode (perft's last ply: ``count_legal``, and the walk's leaf
parents) against python-chess, on positions where the king has few squares to go to, so
each is tested alone for attackers (``movegen._king_moves``): a slider checking along a
line through the king's own square (the king may not step back along it), a king next to
sliders and knights, castling through and out of check, double check, en passant pins."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from chesskit.board.board import Board
from chesskit.board.vdebug import _NO_TABLE
from chesskit.core import position as P
from chesskit.core.api import table
from chesskit.core.movegen import count_legal
from helpers import pc_perft, random_boards

FEW_SQUARES = {
    # the king boxed in by its own pieces, checked along a file / a diagonal through its
    # square: the square behind it is attacked only through the king's own square
    "rook check, step back along the file": "3n1n2/3pkp2/3p1p2/8/8/8/8/4R1K1 b - - 0 1",
    "bishop check, step back along the diagonal": "3nn3/3pkp2/4pp2/8/1B6/8/8/6K1 b - - 0 1",
    "queen check next to the king, defended": "3nkn2/3p1p2/4Q3/8/8/8/8/4R1K1 b - - 0 1",
    "queen check next to the king, undefended": "3nkn2/3p1p2/4Q3/8/8/8/8/6K1 b - - 0 1",
    "rook check on the rank, one square free": "4rk1K/6pp/8/8/8/8/8/8 w - - 0 1",
    "knight check, two squares free, one covered by a bishop": "7k/8/8/8/8/1n6/P1b5/K1B5 w - - 0 1",
    "double check, boxed king": "3nkn2/3p1p2/8/1B6/8/8/8/4R1K1 b - - 0 1",
    "double check, the king takes one checker": "3Rk3/3ppp2/8/8/8/8/8/4R1K1 b - - 0 1",
    # castling: one or two squares to test, some attacked
    "castling with f1 attacked, king boxed": "4k3/8/8/8/8/2b5/3PPP2/3QK2R w K - 0 1",
    "castling with g1 attacked through the rook's file": "4k1r1/8/8/8/8/8/3PPP2/3QK2R w K - 0 1",
    "castling long, d1 attacked by a knight": "4k3/8/8/8/8/4n3/3PPP2/R3KB2 w Q - 0 1",
    "castling out of a rook check": "4k3/8/8/8/8/8/3P1P2/3QK2R w K - 0 1",
    "castling both ways, paths clear": "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "Chess960 castling, king and rook side by side": "4k3/8/8/8/8/8/4PPP1/4NK1R w H - 0 1",
    # en passant with the king close by
    "en passant rank pin, boxed king": "8/8/8/KPp4r/PP6/8/8/4k3 w - c6 0 2",
    "en passant diagonal pin": "7k/2b5/8/3pP3/8/6K1/8/8 w - d6 0 2",
    "en passant takes the checking pawn": "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    # the six standard positions' openings
    "Kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position 4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position 5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
}


def _ours(pc: chess.Board) -> Board:
    return Board(pc.fen(en_passant="fen"), chess960=pc.chess960)


def _count_legal(pc: chess.Board) -> int:
    ours = _ours(pc)
    scratch = np.empty(P.MAX_MOVES, dtype=np.int64)
    return count_legal(table(), ours._bb, ours._board, ours._st, scratch)


@pytest.mark.parametrize("name", list(FEW_SQUARES))
def test_count_mode_matches_python_chess(name):
    fen = FEW_SQUARES[name]
    pc = chess.Board(fen, chess960="Chess960" in name)
    assert pc.is_valid(), pc.status()
    assert _count_legal(pc) == pc.legal_moves.count()
    # every reply of every move counted by the walk's leaf parent (count mode after
    # make_for_count), and one ply more where the tree is small
    depth = 2 if name in ("Kiwipete", "position 4", "position 5") else 3
    assert _ours(pc)._count(depth, _NO_TABLE) == pc_perft(pc, depth)


def test_the_cases_test_what_they_say():
    """The first cases are about a king with few squares: its side to move has at most
    three squares to test (targets not its own, and castling paths), so the square-by-
    square test runs; and the step-back cases have a square attacked only through the
    king's own square."""
    for name in list(FEW_SQUARES)[:8]:
        pc = chess.Board(FEW_SQUARES[name])
        king = pc.king(pc.turn)
        free = [sq for sq in chess.SquareSet(chess.BB_KING_ATTACKS[king]) if pc.color_at(sq) != pc.turn]
        assert 1 <= len(free) <= 3, name
    for name, behind in (("rook check, step back along the file", chess.E8),
                         ("bishop check, step back along the diagonal", chess.F8)):
        pc = chess.Board(FEW_SQUARES[name])
        assert not pc.is_attacked_by(not pc.turn, behind)  # the king shields it
        lifted = pc.copy()
        lifted.remove_piece_at(pc.king(pc.turn))
        assert lifted.is_attacked_by(not pc.turn, behind)
        assert not any(m.to_square == behind for m in pc.legal_moves)


@pytest.mark.parametrize("pc", random_boards(seed=24, count=30), ids=lambda b: b.fen())
def test_random_positions_two_plies(pc):
    assert _count_legal(pc) == pc.legal_moves.count()
    assert _ours(pc)._count(2, _NO_TABLE) == pc_perft(pc, 2)
