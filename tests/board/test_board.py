"""Board against python-chess: legal moves, FEN round trip, push/pop, perft at small depth."""

from __future__ import annotations

import chess
import pytest

from chesskit.board.board import Board
from chesskit.errors import FenError, IllegalMoveError, InputError
from randpos import random_boards

STANDARD = random_boards(seed=1, count=150)
CHESS960 = random_boards(seed=2, count=100, chess960=True)


def _ours(pc_board: chess.Board) -> Board:
    return Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)


@pytest.mark.parametrize("pc_board", STANDARD + CHESS960, ids=lambda b: b.fen())
def test_legal_moves_match_python_chess(pc_board):
    ours = _ours(pc_board)
    assert sorted(ours.legal_moves()) == sorted(m.uci() for m in pc_board.legal_moves)


@pytest.mark.parametrize("pc_board", STANDARD + CHESS960, ids=lambda b: b.fen())
def test_fen_round_trip(pc_board):
    # our en-passant square is kept when a pawn attacks it: python-chess's "xfen" convention
    assert _ours(pc_board).fen() == pc_board.fen(en_passant="xfen")


@pytest.mark.parametrize("pc_board", STANDARD[:40] + CHESS960[:40], ids=lambda b: b.fen())
def test_push_follows_python_chess_and_pop_restores(pc_board):
    ours = _ours(pc_board)
    start = ours.fen()
    start_key = ours.key
    pushed = 0
    for move in list(pc_board.legal_moves)[:12]:
        ours.push(move.uci())
        pc_board.push(move)
        assert ours.fen() == pc_board.fen(en_passant="xfen")
        # the incremental key equals the key of the same position loaded fresh
        assert ours.key == Board(ours.fen(), chess960=ours.chess960).key
        assert ours.pop() == move.uci()
        pc_board.pop()
        pushed += 1
    assert ours.fen() == start and ours.key == start_key
    assert pushed == min(12, pc_board.legal_moves.count())


def _pc_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _pc_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize("pc_board", STANDARD[:25] + CHESS960[:25], ids=lambda b: b.fen())
def test_perft_matches_python_chess(pc_board):
    ours = _ours(pc_board)
    assert ours.perft(3) == _pc_perft(pc_board, 3)


@pytest.mark.parametrize("pc_board", STANDARD[:10] + CHESS960[:10], ids=lambda b: b.fen())
def test_divide_matches_python_chess(pc_board):
    expected = {}
    for move in pc_board.legal_moves:
        pc_board.push(move)
        expected[move.uci()] = _pc_perft(pc_board, 1)
        pc_board.pop()
    assert _ours(pc_board).divide(2) == expected


# The six positions of the chessprogramming wiki's Perft Results page (published counts).
PUBLISHED = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [1, 20, 400, 8902, 197281, 4865609]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [1, 48, 2039, 97862, 4085603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [1, 14, 191, 2812, 43238, 674624]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [1, 6, 264, 9467, 422333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [1, 44, 1486, 62379, 2103487]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", [1, 46, 2079, 89890, 3894594]),
]


@pytest.mark.parametrize("fen,counts", PUBLISHED)
def test_published_perft_counts(fen, counts):
    board = Board(fen)
    assert [board.perft(d) for d in range(len(counts))] == counts
    assert board.fen() == fen  # perft leaves the board as it found it


def test_divide_sums_to_perft_and_uses_uci():
    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    div = board.divide(3)
    assert sum(div.values()) == 97862
    assert "e1g1" in div and "e1c1" in div


def test_chess960_castling_is_king_takes_rook():
    # king b1, rooks a1 and h1; castling queenside leaves the king on c1, rook on d1
    board = Board("r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1", chess960=True)
    moves = board.legal_moves()
    assert "b1a1" in moves and "b1h1" in moves
    board.push("b1a1")
    assert board.fen().startswith("r3k2r/8/8/8/8/8/8/2KR3R b kq")


def test_chess960_castling_rook_shields_king():
    # After O-O-O the king on c1 would face the black rook on a1 along the rank once the
    # white rook leaves b1, so castling is illegal although no square is attacked now.
    board = Board("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", chess960=True)
    assert "d1b1" not in board.legal_moves()


def test_en_passant_rank_pin():
    board = Board("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2")
    assert "b5c6" not in board.legal_moves()
    assert sorted(board.legal_moves()) == ["a5a4", "a5a6", "a5b6", "b5b6"]


def test_en_passant_evades_pawn_check():
    board = Board("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1")
    assert "e4d3" in board.legal_moves()


def test_push_rejects_illegal_move_and_lists_legal_ones():
    board = Board()
    with pytest.raises(IllegalMoveError) as err:
        board.push("e2e5")
    assert "e2e5" in str(err.value) and "e2e4" in str(err.value)
    assert err.value.exit_code == 2


def test_standard_castling_accepts_both_notations():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    a, b = Board(fen), Board(fen)
    a.push("e1g1")
    b.push("e1h1")
    assert a.fen() == b.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"


def test_bad_inputs():
    with pytest.raises(FenError):
        Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
    with pytest.raises(InputError):
        Board().perft(-1)
    with pytest.raises(InputError):
        Board().divide(0)
    with pytest.raises(InputError):
        Board().pop()


def test_long_games_grow_the_history_stack():
    board = Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    for i in range(700):  # more plies than the preallocated stack
        board.push("a1a2" if i % 4 == 0 else "e5e6" if i % 4 == 1 else "a2a1" if i % 4 == 2 else "e6e5")
    assert board.perft(2) > 0
    for _ in range(700):
        board.pop()
    assert board.fen() == "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"


def test_copy_is_independent():
    board = Board()
    clone = board.copy()
    clone.push("e2e4")
    assert board.fen() != clone.fen()
    assert clone.move_stack == ["e2e4"] and board.move_stack == []
