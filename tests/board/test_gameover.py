"""What ``show`` and the explorer add to the side to move: ``describe.game_status`` over
``gameover``'s named ends (checkmate, stalemate, a variant's win without moves, its own end)."""

from __future__ import annotations

import chess
import chess.variant
import pytest

from chesskit.board.board import Board
from chesskit.board.describe import describe, game_status
from chesskit.board.gameover import CHECKMATE, STALEMATE, without_moves

FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATED = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"

CASES = [
    ("chess", FOOLS_MATE, f" ({CHECKMATE})"),
    ("chess", STALEMATED, f" ({STALEMATE})"),
    ("chess", "4k3/8/8/8/8/8/8/4K2r w - - 0 1", " (in check)"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ""),
    ("antichess", "8/8/8/7p/7P/8/8/8 b - - 0 1", " (the game is over: black has no legal move and wins)"),
    ("kingofthehill", "8/8/8/3K4/8/8/8/7k b - - 0 1", " (the game is over: the white king stands on the centre square d5)"),
]


# a variant's case compiles its walk on a cold cache (variant_walk: with the slow tests)
@pytest.mark.parametrize(
    "variant,fen,shown",
    [pytest.param(*c, marks=[] if c[0] == "chess" else [pytest.mark.variant_walk], id=f"{c[0]}-{i}") for i, c in enumerate(CASES)],
)
def test_game_status(variant, fen, shown):
    assert game_status(describe(Board(fen, variant=variant))) == shown


def test_the_named_ends_are_python_chess_words():
    # python-chess (the oracle) agrees on which end each position is
    assert chess.Board(FOOLS_MATE).is_checkmate() and chess.Board(STALEMATED).is_stalemate()
    assert without_moves("chess", True, "white") == CHECKMATE == "checkmate"
    assert without_moves("chess", False, "black") == STALEMATE == "stalemate"
    assert chess.variant.AntichessBoard("8/8/8/7p/7P/8/8/8 b - - 0 1").is_variant_win()
    assert without_moves("antichess", False, "black") == "black wins"
