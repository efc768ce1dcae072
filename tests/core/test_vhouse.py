"""Crazyhouse in the compiled core, against both oracles (Fairy-Stockfish through pyffish,
python-chess's CrazyhouseBoard: tests/variant_oracles.py) on positions chosen for one rule
each, and python-chess's crazyhouse.perft (slow)."""

from __future__ import annotations

import pytest

import variant_oracles as vo
from chesskit.board.board import Board

vo.require_oracles()

# every test here compiles the variant's walk (one to three CPU minutes on a cold cache):
# with the slow tests, as every variant_walk test (tests/conftest.py)
pytestmark = pytest.mark.variant_walk

# (FEN, chess960, depth, the rule the position exercises)
CASES = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", False, 2, "start position"),
    ("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN[] w KQkq - 0 1", True, 2, "crazyhouse960"),
    # every piece type in both pockets: no pawn on the first or last rank
    ("2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", False, 1, "drops of every type"),
    # the a1 rook checks along the first rank: a knight may block on b1, c1, d1, a pawn not
    ("4k3/8/8/8/8/8/8/r3K3[NP] w - - 0 1", False, 2, "a drop blocks a check"),
    # a knight's check (and then a double check) leaves no drop
    ("4k3/8/8/8/8/5n2/8/4K3[Q] w - - 0 1", False, 2, "no drop against a contact check"),
    ("4k3/8/8/8/1b6/8/8/r3K3[QRBNP] w - - 0 1", False, 1, "no drop against a double check"),
    # the a8 queen is promoted: Bxa8 gives Black a pawn to drop (not on the back ranks)
    ("Q~3k3/1b6/8/8/8/8/8/4K3[] b - - 0 1", False, 3, "a captured promoted piece returns as a pawn"),
]


@pytest.mark.parametrize("fen, chess960, depth, rule", CASES, ids=[c[3] for c in CASES])
def test_divide_matches_both_oracles(fen, chess960, depth, rule):
    board = Board(fen, chess960=chess960, variant="crazyhouse")
    mine = board.divide(depth)
    fairy = vo.fairy_divide("crazyhouse", fen, depth, chess960)
    python = vo.python_chess_divide("crazyhouse", fen, depth, chess960)
    assert fairy == python, vo.first_difference(fairy, python)
    assert mine == python, vo.first_difference(mine, python)


def test_pockets_and_promoted_marks_follow_the_moves():
    fen = "4k3/Pb6/8/8/8/8/8/4K3[N] w - - 3 10"
    # the promoted queen moves (keeping its mark) and is taken: Black gets a pawn and drops it
    moves = ["a7a8q", "e8d7", "a8a6", "b7a6", "N@c3", "P@d5"]
    board = Board(fen, variant="crazyhouse")
    python = vo.python_chess_board("crazyhouse", fen)
    fens = []
    for i, move in enumerate(moves):
        board.push(move)
        python.push_uci(move)
        fairy = vo.fairy_fen("crazyhouse", fen, moves[: i + 1])
        # placement with '~' marks and pockets, side, castling, en passant: both oracles'
        assert board.fen().split()[:4] == python.fen().split()[:4] == fairy.split()[:4], move
        fens.append(board.fen())
    assert fens[2].startswith("8/1b1k4/Q~7/") and "[Np]" in fens[3]
    for _ in moves:
        board.pop()
    assert board.fen() == Board(fen, variant="crazyhouse").fen()


def test_a_drop_resets_the_halfmove_clock_as_fairy_stockfish():
    """The oracles disagree (docs/variants.md): python-chess counts a drop as one more
    halfmove, Fairy-Stockfish resets the clock; chesskit follows Fairy-Stockfish."""
    fen = "4k3/8/8/8/8/8/8/4K3[N] w - - 7 10"
    board = Board(fen, variant="crazyhouse")
    board.push("N@c3")
    assert board.fen().split()[-2:] == vo.fairy_fen("crazyhouse", fen, ["N@c3"]).split()[-2:] == ["0", "10"]


@pytest.mark.slow
def test_python_chess_crazyhouse_perft_file(perft_sets):
    """Every count of python-chess's crazyhouse.perft."""
    checked = 0
    for name, fen, counts in vo.perft_file(perft_sets, "crazyhouse.perft"):
        board = Board(fen, variant="crazyhouse")
        for depth, nodes in counts:
            assert board.perft(depth) == nodes, (name, depth)
            checked += 1
    assert checked >= 18
