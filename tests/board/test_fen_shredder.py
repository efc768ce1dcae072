"""A Chess960 position is shown in Shredder-FEN: the castling rooks' files (``HAha``).

X-FEN writes an outermost castling rook as ``K``/``Q`` (``KQkq``), which reads as standard
chess: a Chess960 FEN shown that way, pasted back, asks another question. The one writer
is ``chesskit.board.fen.shredder_castling`` (``shredder_fen``, ``shown_fen``,
``Board.shown_fen``); ``Board.fen()`` stays X-FEN, what the engines are sent. Expected
FENs are python-chess's ``Board.shredder_fen()``.
"""

from __future__ import annotations

import random

import chess
import pytest

from chesskit.board.board import Board
from chesskit.board.debug import run_checks
from chesskit.board.describe import describe
from chesskit.board.fen import shown_fen, shredder_fen
from chesskit.errors import IllegalMoveError

from helpers import KIWIPETE, STARTPOS

OUTER_ROOKS = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"  # X-FEN: KQkq
C960 = [
    OUTER_ROOKS,
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/8/8/8/8/8/8/5KRn w G - 0 1",  # X-FEN: K
    "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1",
    "rk5r/8/8/8/8/8/8/RK4RR w GAha - 0 1",  # two rooks east of the king: G is not outermost
]


def shredder(fen: str, moves=()) -> str:
    board = chess.Board(fen, chess960=True)
    for move in moves:
        board.push_uci(move)
    return board.shredder_fen()


@pytest.mark.parametrize("fen", C960)
def test_the_writer_matches_python_chess(fen):
    expected = shredder(fen)
    assert shredder_fen(fen) == shown_fen(fen, True) == Board(fen, chess960=True).shown_fen() == expected
    x_fen = chess.Board(fen, chess960=True).fen()
    assert shredder_fen(x_fen) == expected  # from the X-FEN the engines are sent
    assert Board(fen, chess960=True).fen() == x_fen  # fen() is unchanged: X-FEN


def test_random_chess960_games_match_python_chess():
    rng = random.Random(21)
    for number in rng.sample(range(960), 12):
        board = chess.Board.from_chess960_pos(number)
        ours = Board(board.fen(), chess960=True)
        for _ in range(30):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            board.push(move)
            ours.push(move.uci())
            assert ours.shown_fen() == board.shredder_fen()


@pytest.mark.parametrize("fen", [STARTPOS, KIWIPETE, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"])
def test_a_standard_position_is_shown_as_before(fen):
    assert Board(fen).shown_fen() == shown_fen(fen, False) == chess.Board(fen).fen()


def test_an_illegal_move_names_the_chess960_position_in_shredder_fen():
    with pytest.raises(IllegalMoveError) as err:
        Board(OUTER_ROOKS).push("e1e3")
    assert f" in {shredder(OUTER_ROOKS)};" in str(err.value)


def test_show_state_has_the_shredder_castling_field():
    info = describe(Board(OUTER_ROOKS), None)
    assert info["fen"] == shredder(OUTER_ROOKS) and info["castling"] == "HAha"
    assert describe(Board(KIWIPETE), None)["castling"] == "KQkq"


def test_a_debug_violation_names_its_chess960_node_in_shredder_fen():
    result = run_checks(Board(OUTER_ROOKS), 2, inject="keep-castling")
    v = result.violation
    assert v is not None and v.fen == shredder(OUTER_ROOKS, v.path)
