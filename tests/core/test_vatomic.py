"""Atomic chess in the compiled core, against both oracles (Fairy-Stockfish through
pyffish, python-chess's AtomicBoard: tests/variant_oracles.py) on positions chosen for one
rule each, and python-chess's atomic.perft (slow)."""

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
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", False, 2, "start position"),
    # the kings touch: the rook's "check" on e1 is none, so White may castle and step
    # onto d1, e2, f2 next to the black king
    ("4r3/8/8/8/8/8/3k4/4K2R w K - 0 1", False, 2, "touching kings are never in check"),
    # castling passes d1 and lands on c1, both attacked but next to the black king; the
    # rook shields the passed squares from a1 until it moves (python-chess's test)
    ("8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1", True, 2, "atomic960 castling next to the enemy king"),
    # exf6 e.p. explodes the e6 knight, not the d5 pawn; Bxd5 would explode the white king
    # on c6, which itself takes nothing (not d5)
    ("4k3/8/2K1n3/3pPp2/8/1B6/8/8 w - f6 0 2", False, 2, "en passant, pawn immunity, own king in the blast"),
    # White is in check from the d8 rook: Qxe7 explodes the black king next to e7 and wins
    # at once, legal though the check stays
    ("3rk3/4p3/8/8/8/8/8/3KQ3 w - - 0 1", False, 2, "exploding the enemy king ends the game"),
    # the b4 bishop pins the d2 knight: Nxe4 leaves the pin standing (illegal), Nxc4
    # explodes the pinning bishop (legal)
    ("4k3/8/8/8/1bp1p3/8/3N4/4K3 w - - 0 1", False, 2, "pins and explosions"),
    # game over in the tree: Rxe7 explodes the black king; nothing is counted below it
    ("4k3/4q3/8/8/8/8/8/4RK2 w - - 0 1", False, 3, "no moves after a king explodes"),
    # the last ply's bulk count (vatomic.count_moves) at depth 3: Nxd3 and Bxd3 blow up the
    # bishop that shields the king from the e8 rook (illegal); the pinned e-pawn pushes
    ("4r2k/8/8/8/1N6/3n4/4B3/4K3 w - - 0 1", False, 3, "a blast that uncovers a slider"),
    ("4r2k/8/8/3p1p2/8/8/4P3/4K3 b - - 0 1", False, 3, "a pinned pawn's pushes and captures"),
    # promotions by capture (four each), one whose blast reaches the black king
    ("1n1rk3/P7/8/8/8/8/5PPP/6K1 w - - 0 1", False, 3, "capture promotions"),
    # Black is in check from the e2 rook: only a capture whose blast takes the rook (or the
    # white king) or a block stays
    ("4k3/8/8/2n5/8/8/4R3/4K3 b - - 0 1", False, 3, "captures in check"),
    # counted after each Black move (the last ply): Bxd5's blast takes the knight that
    # shields the king from the e8 rook (illegal) though d5 is off the rook's line; a pawn
    # there survives the blast (legal), and exd5 takes the pawn itself off the line (illegal)
    ("4r2k/8/8/3n4/4N3/8/B7/4K3 b - - 0 1", False, 2, "a blast next to a pin line"),
    ("4r2k/8/8/3n4/4P3/8/B7/4K3 b - - 0 1", False, 2, "a pawn on a pin line captures"),
    # counted after each Black move: the king's steps against a queen's lines
    ("4k3/8/8/q7/8/8/8/3K4 b - - 0 1", False, 2, "king steps against a queen"),
]


@pytest.mark.parametrize("fen, chess960, depth, rule", CASES, ids=[c[3] for c in CASES])
def test_divide_matches_both_oracles(fen, chess960, depth, rule):
    board = Board(fen, chess960=chess960, variant="atomic")
    mine = board.divide(depth)
    fairy = vo.fairy_divide("atomic", fen, depth, chess960)
    python = vo.python_chess_divide("atomic", fen, depth, chess960)
    assert fairy == python, vo.first_difference(fairy, python)
    assert mine == python, vo.first_difference(mine, python)


def test_a_capture_explodes_the_pieces_around_but_pawns():
    fen = "4k3/8/2n1b3/3q4/2PpN3/8/8/4K2Q w - - 0 1"
    moves = ["e4f6", "e8f8", "h1d5"]  # Qxd5: the c6 knight, the e6 bishop and both queens go
    board = Board(fen, variant="atomic")
    python = vo.python_chess_board("atomic", fen)
    for move in moves:
        before = board.fen()
        board.push(move)
        python.push_uci(move)
    assert board.fen() == python.fen() == vo.fairy_fen("atomic", fen, moves)
    assert board.fen().startswith("5k2/8/5N2/8/2Pp4/")  # the pawns on c4 and d4 stay
    board.pop()
    assert board.fen() == before


@pytest.mark.slow
def test_python_chess_atomic_perft_file(perft_sets):
    """Every count of python-chess's atomic.perft (its atomic960 positions read as Chess960)."""
    checked = 0
    for name, fen, counts in vo.perft_file(perft_sets, "atomic.perft"):
        board = Board(fen, chess960=True if "960" in name else None, variant="atomic")
        for depth, nodes in counts:
            assert board.perft(depth) == nodes, (name, depth)
            checked += 1
    assert checked >= 25


def _random_play(seed: int, games: int, plies: tuple[int, ...]) -> list[str]:
    """Positions of seeded random atomic play (python-chess's moves), captures chosen half
    the time: blasts next to pins and checks, kings with few squares."""
    import random

    import chess.variant

    rng = random.Random(seed)
    found = []
    for _ in range(games):
        board = chess.variant.AtomicBoard()
        for ply in range(max(plies) + 1):
            if board.is_variant_end() or board.is_game_over():
                break
            if ply in plies:
                found.append(board.fen())
            moves = list(board.legal_moves)
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
    return found


def test_random_play_against_the_oracles():
    """The move list (``vatomic._moves`` writing) and the last ply's count (counting:
    captures by sets, the king's steps tested against the sliders on their lines only) on
    35 positions of seeded random play: each position's moves against both oracles' lists,
    each move's replies, listed and counted, against python-chess's."""
    import pyffish

    positions = _random_play(22, 12, (8, 16, 24, 32, 40))
    assert len(positions) >= 30
    for fen in positions:
        board = Board(fen, variant="atomic")
        python = vo.python_chess_divide("atomic", fen, 2)
        assert sorted(board.legal_moves()) == sorted(pyffish.legal_moves("atomic", fen, [])) == sorted(python), fen
        mine = board.divide(2)
        assert mine == python, (fen, vo.first_difference(mine, python))
        for move, replies in python.items():
            board.push(move)
            assert len(board.legal_moves()) == replies, (fen, move)
            board.pop()
