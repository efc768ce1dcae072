"""The variant walks against both oracles (Fairy-Stockfish through pyffish, python-chess's
variant boards: ``tests/variant_oracles.py``): a handful of small cases per variant by
default, python-chess's published variant perft files as slow sweeps.

Each case is a start position or a position that exercises the variant's rule (the game's
end inside the tree, a forced capture, a check counted, ...); both oracles' counts are
computed here, never written down.
"""

from __future__ import annotations

import pytest

from chesskit.board.board import Board
from variant_oracles import fairy_divide, first_difference, oracle_perft, require_oracles

# compiles variant walks: slow, one xdist group per variant (tests/conftest.py)
pytestmark = pytest.mark.variant_walk

require_oracles()

# (variant, FEN, depth): small trees, each about a second or less for both oracles
CASES = [
    ("kingofthehill", None, 2),
    # a king one step from the centre: every king move onto it ends the game there
    ("kingofthehill", "4k3/8/8/8/8/3K4/8/8 w - - 0 1", 3),
    ("kingofthehill", "r3k2r/p1pp1pb1/bn2pnp1/2qPN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ("3check", None, 2),
    # White has given two checks: the third (Bxf7+, Qxf7+) ends the game
    ("3check", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 1+3 0 1", 2),
    ("3check", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 2+2 0 1", 2),
    ("racingkings", None, 3),
    # White's king reaches the eighth rank: Black's last chance to equal
    ("racingkings", "8/6K1/k7/8/8/8/8/8 w - - 0 1", 3),
    ("racingkings", "8/5K2/1k6/8/8/8/8/3r4 w - - 0 1", 3),
    # the last ply's bulk count (vgen.racing_count): a knight that would uncover the a1
    # rook's check cannot move; a piece pinned to its own king; a slider's own checks;
    # Black's last chance with a piece that would uncover a check
    ("racingkings", "8/k7/8/8/N7/8/8/R5K1 w - - 0 1", 3),
    ("racingkings", "8/k7/8/8/8/8/8/rN2K3 w - - 0 1", 3),
    ("racingkings", "8/6k1/8/8/6N1/8/6Q1/K7 w - - 0 1", 3),
    ("racingkings", "5K2/1k6/8/8/5n2/8/8/5r2 b - - 0 1", 3),
    ("horde", None, 2),
    # first-rank pawns step two (no en passant after), Black's king without a White one
    ("horde", "4k3/8/8/8/8/1p6/8/P1P5 w - - 0 1", 3),
    ("horde", "r3k2r/8/8/8/8/8/1PPPPPP1/PPPPPPPP b kq - 0 1", 2),
    ("antichess", None, 2),
    ("giveaway", None, 2),
    # castling in giveaway (nothing is in check); promotion to a king; forced captures
    ("giveaway", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2),
    ("antichess", "8/1P6/8/8/8/8/6p1/8 w - - 0 1", 3),
    ("antichess", "8/8/8/3p4/4P3/8/8/8 w - - 0 1", 3),
]


def _ids(case):
    variant, fen, depth = case
    return f"{variant}-{fen or 'startpos'}-{depth}".replace("/", "").replace(" ", "_")


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_variant_perft_agrees_with_both_oracles(case):
    variant, fen, depth = case
    board = Board(fen, variant=variant)
    fen = board.fen() if fen is None else fen
    for d in range(1, depth + 1):
        expected = oracle_perft(variant, fen, d)
        got = board.perft(d)
        if got != expected:
            diff = first_difference(board.divide(d), fairy_divide(variant, fen, d))
            pytest.fail(f"{variant} {fen} perft {d}: chesskit {got}, oracles {expected}; first difference {diff}")


def test_variant_table_and_threads_give_the_same_counts():
    board = Board(variant="3check")
    plain = board.perft(4)
    assert board.perft(4, hash_mb=1) == plain
    assert board.perft(4, threads=2) == plain
    assert sum(board.divide(4).values()) == plain


def test_push_pop_and_legal_moves_follow_the_variant():
    board = Board("4k3/8/8/8/8/3K4/8/8 w - - 0 1", variant="koth")
    assert board.variant == "kingofthehill"
    before = board.fen()
    board.push("d3d4")
    assert board.legal_moves() == []  # the king is on the hill: the game is over
    board.pop()
    assert board.fen() == before
    assert len(board.legal_moves()) == 8


def test_three_check_counter_is_kept_and_keyed():
    board = Board("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3 0 1", variant="3check")
    key = board.key
    board.push("f1b5")  # check
    assert board.setup().checks == (1, 0)
    assert board.is_check()
    board.pop()
    assert board.setup().checks == (0, 0) and board.key == key


def test_variant_keys_differ_from_standard_chess():
    assert Board(variant="kingofthehill").key != Board().key


def test_antichess_has_no_check_and_promotes_to_a_king():
    board = Board("8/1P6/8/8/8/8/6p1/8 w - - 0 1", variant="antichess")
    assert "b7b8k" in board.legal_moves()
    board.push("b7b8k")
    assert not board.is_check()


# python-chess's variant perft files (3check, giveaway, horde, racingkings .perft) are run
# through the suite reader: tests/suites/test_variant_suites_core.py.



def test_a_variant_walk_is_saved_like_the_standard_one():
    from chesskit.core import native

    Board(variant="kingofthehill").perft(2)
    assert native.is_saved(3) or not native.SAVES
    assert native._paths(3)[0].name.startswith("vwalk3-")
