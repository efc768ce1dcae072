"""The vocabulary: squares, the move's bit layout, and the core compiling the same decoders."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from chesskit import vocab
from chesskit.errors import InputError
from helpers import REPO


def test_square_names_round_trip_and_match_the_board_layout():
    assert vocab.square_name(0) == "a1" and vocab.square_name(63) == "h8" and vocab.square_name(28) == "e4"
    assert [vocab.parse_square(vocab.square_name(sq)) for sq in range(64)] == list(range(64))
    for bad in ("i1", "a9", "e", "e44", ""):
        with pytest.raises(InputError):
            vocab.parse_square(bad)
    with pytest.raises(ValueError):
        vocab.square_name(64)


def test_move_fields_round_trip():
    for frm, to, promo, flags in [(12, 28, 0, vocab.DOUBLE), (52, 61, vocab.QUEEN, vocab.CAPTURE), (4, 7, 0, vocab.CASTLING)]:
        move = vocab.encode(frm, to, promo, flags)
        assert (vocab.from_sq(move), vocab.to_sq(move), vocab.promotion(move)) == (frm, to, promo)
        assert move & ~(vocab.CAPTURE | vocab.DOUBLE | vocab.EN_PASSANT | vocab.CASTLING) < vocab.CAPTURE
        assert vocab.is_castling(move) == (flags == vocab.CASTLING)


def test_a_drop_packs_its_square_twice_and_its_piece_in_the_promotion_field():
    move = vocab.encode(28, 28, vocab.KNIGHT, vocab.DROP)  # N@e4
    assert vocab.DROP == 1 << 19 and vocab.is_drop(move)
    assert (vocab.from_sq(move), vocab.to_sq(move), vocab.drop_piece(move)) == (28, 28, vocab.KNIGHT)
    assert not move & (vocab.CAPTURE | vocab.DOUBLE | vocab.EN_PASSANT | vocab.CASTLING)
    for other in (vocab.encode(52, 60, vocab.QUEEN, vocab.CAPTURE), vocab.encode(4, 7, 0, vocab.CASTLING)):
        assert not vocab.is_drop(other) and vocab.drop_piece(other) == 0
    every_flag = vocab.DROP | vocab.CASTLING | vocab.EN_PASSANT | vocab.DOUBLE | vocab.CAPTURE
    assert vocab.encode(63, 63, vocab.KING, every_flag) < 1 << 20  # fits the 20 bits drawn


def test_castle_squares_standard_and_chess960():
    assert vocab.castle_squares(4, 7) == (6, 5)  # e1h1: g1, f1
    assert vocab.castle_squares(60, 56) == (58, 59)  # e8a8: c8, d8
    assert vocab.castle_squares(1, 0) == (2, 3)  # Chess960 king b1, rook a1: c1, d1


def test_direction():
    assert vocab.direction(0, 63) == (1, 1)
    assert vocab.direction(28, 4) == (0, -1)
    assert vocab.direction(0, 10) is None and vocab.direction(5, 5) is None


def test_the_core_compiles_the_same_decoders():
    from chesskit.core import move

    packed = vocab.encode(52, 61, vocab.KNIGHT, vocab.CAPTURE)
    assert move.from_sq(packed) == 52 and move.to_sq(packed) == 61 and move.promotion(packed) == vocab.KNIGHT
    assert move.encode(52, 61, vocab.KNIGHT, vocab.CAPTURE) == packed
    assert tuple(move.castle_squares(60, 63)) == vocab.castle_squares(60, 63)
    assert move.from_sq.py_func is vocab.from_sq  # one definition, compiled
    drop = vocab.encode(8, 8, vocab.PAWN, vocab.DROP)
    assert move.is_drop(drop) and move.drop_piece(drop) == vocab.PAWN and not move.is_drop(packed)


@pytest.mark.parametrize("shared", ["vocab.py", "invariants.py"])
def test_editing_a_shared_source_renames_the_compile_cache(tmp_path, shared):
    """The core reads constants and functions from these files: an edit must not leave a
    stale cache in place."""
    copy = tmp_path / "chesskit"
    shutil.copytree(REPO / "chesskit", copy, ignore=shutil.ignore_patterns("__pycache__"))
    code = "from chesskit.core import cache_dir; print(cache_dir().name)"
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "CHESSKIT_CACHE_DIR": str(tmp_path / "cache")}

    def name():
        run = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
        return run.stdout

    before = name()
    (copy / shared).write_text((copy / shared).read_text() + "\n# an edit\n")
    assert name() != before
