"""The compiled move generator (``chesskit.core.movegen``) against python-chess: exactly the
legal moves, each once and with the right flags, on random positions and on every special
case that move generators get wrong (en passant and its pins, castling rules, Chess960
castling with king and rook side by side, promotions, check evasions, double check)."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from chesskit.board.board import Board
from chesskit.core import position as P
from chesskit.core.api import table
from chesskit.core.move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, PROMO_SHIFT
from chesskit.core.movegen import count_legal, generate
from chesskit.errors import IllegalMoveError
from helpers import EP_FEN, random_boards

STANDARD = random_boards(seed=1, count=150)
CHESS960 = random_boards(seed=2, count=100, chess960=True)


def _ours(pc_board: chess.Board) -> Board:
    return Board(pc_board.fen(en_passant="fen"), chess960=pc_board.chess960)


def _theirs(pc_board: chess.Board) -> list[str]:
    return sorted(m.uci() for m in pc_board.legal_moves)


def _packed(board: Board) -> list[int]:
    """The packed moves ``generate`` writes for ``board`` (its state arrays, read only)."""
    out = np.full(P.MAX_MOVES, -1, dtype=np.int64)
    n = generate(table(), board._bb, board._board, board._st, out)
    assert (out[n:] == -1).all()  # nothing written past the count it returns
    return [int(m) for m in out[:n]]


# ------------------------------------------------------------------ random positions


@pytest.mark.parametrize("pc_board", STANDARD + CHESS960, ids=lambda b: b.fen())
def test_legal_moves_match_python_chess(pc_board):
    ours = _ours(pc_board)
    assert sorted(ours.legal_moves()) == sorted(m.uci() for m in pc_board.legal_moves)


# ------------------------------------------------------------------ special cases
#
# name: (FEN, Chess960?, moves that must be legal, moves that must not be). The two sets
# say what the case is about; both are checked against python-chess before ours is.

SPECIAL = {
    # en passant
    "en passant capture": (EP_FEN, False, {"e5f6"}, set()),
    "en passant through a rank pin (white)": ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2", False, {"b5b6"}, {"b5c6"}),
    "en passant through a rank pin (black)": ("4K3/8/8/8/kPp4R/8/8/8 b - b3 0 1", False, {"c4c3"}, {"c4b3"}),
    "en passant through a rank pin, king on the other side": (
        "8/8/8/r1pP1K2/8/8/8/4k3 w - c6 0 2", False, {"d5d6"}, {"d5c6"},
    ),
    "en passant along a diagonal pin": ("7k/2b5/8/3pP3/8/6K1/8/8 w - d6 0 2", False, {"e5d6"}, {"e5e6"}),
    "en passant off a diagonal pin": ("7k/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2", False, {"c3b3"}, {"e5d6", "e5e6"}),
    "en passant takes the pawn that gives check (black)": ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", False, {"e4d3"}, {"e4e3"}),
    "en passant takes the pawn that gives check (white)": ("8/8/8/3pP3/4K3/8/8/k7 w - d6 0 2", False, {"e5d6"}, {"e5e6"}),
    "en passant does not block a discovered check, the push does": (
        "2b4k/8/8/3pP3/6K1/8/8/8 w - d6 0 2", False, {"e5e6", "g4g5"}, {"e5d6", "g4f5"},
    ),
    # castling, standard chess
    "castling through an attacked square": ("4k3/8/b7/8/8/8/8/4K2R w K - 0 1", False, {"e1d1"}, {"e1g1"}),
    "castling into check": ("4k3/8/8/8/8/8/7b/4K2R w K - 0 1", False, {"e1f1"}, {"e1g1"}),
    "castling out of check": ("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1", False, {"e1f1"}, {"e1g1"}),
    "castling long with b1 attacked": ("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", False, {"e1c1"}, set()),
    "castling long with b1 occupied": ("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", False, set(), {"e1c1"}),
    "castling short with f1 occupied": ("4k3/8/8/8/8/8/8/4KB1R w K - 0 1", False, set(), {"e1g1"}),
    "castling with the rook attacked": ("4k2r/8/8/8/8/8/8/4K2R w K - 0 1", False, {"e1g1"}, set()),
    "black castles both ways": ("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", False, {"e8g8", "e8c8"}, set()),
    "castling without the right": ("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", False, {"e1g1"}, {"e1c1"}),
    # castling, Chess960 (king takes its own rook)
    "Chess960: king f1 beside rook g1": ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", True, {"f1g1"}, set()),
    "Chess960: king c1 beside rook b1 going long": ("4k3/8/8/8/8/8/8/1RK5 w B - 0 1", True, {"c1b1"}, set()),
    "Chess960: king already on g1, only the rook moves": ("4k3/8/8/8/8/8/8/6KR w H - 0 1", True, {"g1h1"}, set()),
    "Chess960: king b1 rook a1, king lands on c1": ("r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1", True, {"b1a1", "b1h1"}, set()),
    "Chess960: the castling rook shields the king": ("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", True, set(), {"d1b1"}),
    "Chess960: a piece on the rook's landing square": ("4k3/8/8/8/8/8/8/RK1B4 w A - 0 1", True, set(), {"b1a1"}),
    "Chess960: only the king's path must be safe": ("1r2k3/8/8/8/8/8/8/R4K2 w A - 0 1", True, {"f1a1"}, set()),
    "Chess960: king's landing square attacked": ("2r1k3/8/8/8/8/8/8/RK6 w A - 0 1", True, {"b1b2"}, {"b1a1"}),
    # the king's one free square is also the castling path: tested once, square by square
    "Chess960: boxed-in king, one square for its step and castling": (
        "4k3/8/8/8/8/8/4PPP1/4NK1R w H - 0 1", True, {"f1g1", "f1h1"}, set(),
    ),
    "Chess960: boxed-in king, its one square attacked": (
        "4k3/8/8/8/8/7n/4PPP1/4NK1R w H - 0 1", True, set(), {"f1g1", "f1h1"},
    ),
    # promotions
    "promotions by push and by capture": (
        "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", False,
        {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"}, {"a7a8"},
    ),
    "black promotes on a capture": ("4k3/8/8/8/8/8/1p6/R3K3 b Q - 0 1", False, {"b2a1n", "b2b1b"}, {"b2a1"}),
    "a pinned pawn promotes only along the pin": (
        "4k2b/6P1/8/4K3/8/8/8/8 w - - 0 1", False, {"g7h8q", "g7h8n"}, {"g7g8q", "g7g8n"},
    ),
    "a pawn pinned on its rank cannot promote": ("4k3/KP5r/8/8/8/8/8/8 w - - 0 1", False, {"a7a8"}, {"b7b8q"}),
    # check evasions
    "single check: block, but not with a pinned piece": (
        "4r1k1/8/8/b7/8/8/2NB4/4K3 w - - 0 1", False, {"c2e3", "e1f2"}, {"d2e3", "e1e2"},
    ),
    "the king cannot step back along the checking line": ("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", False, {"e8d7"}, {"e8e7"}),
    "the king cannot take a defended checker": ("4k3/3Q4/2B5/8/8/8/8/6K1 b - - 0 1", False, set(), {"e8d7"}),
    "double check by discovery: only the king moves": ("4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1", False, {"e8f7"}, set()),
    "double check: the king takes the undefended checker": (
        "3Rk3/8/8/8/8/8/8/4R1K1 b - - 0 1", False, {"e8d8", "e8f7"}, {"e8e7", "e8f8", "e8d7"},
    ),
    "pins: a rook pinned on a diagonal and a bishop on a file stay, a queen slides": (
        "4r2k/8/8/8/1b2B2b/6Q1/3R4/4K3 w - - 0 1", False, {"g3f2", "g3h4"}, {"d2c3", "d2d3", "e4e5", "e4d5"},
    ),
    "checkmate: no moves": ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", False, set(), set()),
    "stalemate: no moves": ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False, set(), set()),
    "218 moves with eight promoted queens": ("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", False, set(), set()),
}


@pytest.mark.parametrize("name", list(SPECIAL))
def test_special_case_matches_python_chess(name):
    fen, chess960, legal, illegal = SPECIAL[name]
    reference = chess.Board(fen, chess960=chess960)
    assert reference.is_valid(), reference.status()
    theirs = _theirs(reference)
    assert legal <= set(theirs) and not illegal & set(theirs), "the case does not show what it names"
    ours = sorted(Board(fen, chess960=chess960).legal_moves())
    assert ours == theirs


def test_special_cases_include_double_checks_and_empty_move_lists():
    """The case list really holds what its names claim (python-chess's view)."""
    boards = {name: chess.Board(fen, chess960=c960) for name, (fen, c960, _, _) in SPECIAL.items()}
    assert len(boards["double check by discovery: only the king moves"].checkers()) == 2
    assert len(boards["double check: the king takes the undefended checker"].checkers()) == 2
    assert boards["checkmate: no moves"].is_checkmate()
    assert boards["stalemate: no moves"].is_stalemate()
    assert boards["218 moves with eight promoted queens"].legal_moves.count() == 218


def test_double_check_leaves_only_king_moves():
    board = Board("4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1")
    moves = board.legal_moves()
    assert moves and all(m.startswith("e8") for m in moves)


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


def test_a_move_the_generator_leaves_out_cannot_be_pushed():
    board = Board("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2")
    with pytest.raises(IllegalMoveError):
        board.push("b5c6")


# ------------------------------------------------------------------ the packed moves


FLAG_POSITIONS = [chess.Board(fen, chess960=c960) for fen, c960, _, _ in SPECIAL.values()] + STANDARD[:60] + CHESS960[:40]


@pytest.mark.parametrize("pc_board", FLAG_POSITIONS, ids=lambda b: b.fen())
def test_each_move_once_with_the_flags_python_chess_gives_it(pc_board):
    """Every packed move carries capture / double push / en passant / castling / promotion
    exactly when python-chess says the move is one; no move is written twice; the
    counting-only mode returns the same number."""
    ours = _ours(pc_board)
    packed = _packed(ours)
    assert len(packed) == len(set(packed))
    by_uci = {ours.uci(m): m for m in packed}
    assert sorted(by_uci) == _theirs(pc_board)
    for move in pc_board.legal_moves:
        m = by_uci[move.uci()]
        castling = pc_board.is_castling(move)
        assert bool(m & CASTLING) == castling, move
        assert bool(m & EN_PASSANT) == pc_board.is_en_passant(move), move
        assert bool(m & CAPTURE) == (pc_board.is_capture(move) and not castling), move
        double = pc_board.piece_type_at(move.from_square) == chess.PAWN and abs(move.to_square - move.from_square) == 16
        assert bool(m & DOUBLE) == double, move
        assert (m >> PROMO_SHIFT) & 7 == (move.promotion or 0), move
        assert m & 63 == move.from_square
        if not castling:  # castling is written king takes rook
            assert (m >> 6) & 63 == move.to_square
    scratch = np.empty(P.MAX_MOVES, dtype=np.int64)
    assert count_legal(table(), ours._bb, ours._board, ours._st, scratch) == len(packed)


def test_generation_leaves_the_position_untouched():
    ours = Board(SPECIAL["Chess960: king b1 rook a1, king lands on c1"][0], chess960=True)
    before = (ours._bb.copy(), ours._board.copy(), ours._st.copy())
    _packed(ours)
    assert all(np.array_equal(a, b) for a, b in zip(before, (ours._bb, ours._board, ours._st)))
