"""The attack table: slider lookups (PEXT or magic, whichever this processor runs) against
python-chess's attack sets (not chesskit's own ray walk, which builds the tables), the castling masks, the choice of lookup, and the other lookup's perft
in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import chess
import numpy as np
import pytest

from chesskit.core import SLIDERS
from chesskit.core.api import table
from chesskit.core.attacks import (
    CASTLE_BEYOND,
    CASTLE_PATH,
    CASTLE_SPAN,
    bishop_attacks,
    rook_attacks,
)
from chesskit.core.cpu import pext_is_fast


def squares(*names: str) -> int:
    return sum(1 << ("abcdefgh".index(n[0]) + 8 * (int(n[1]) - 1)) for n in names)


def python_chess_attacks(piece_type: int, sq: int, occupied: int) -> int:
    """python-chess's attack set of a rook or bishop on ``sq`` with blockers on ``occupied``
    (the oracle: chesskit's own ray walk is what builds the tables under test)."""
    board = chess.BaseBoard.empty()
    pieces = {s: chess.Piece(chess.KNIGHT, chess.BLACK) for s in chess.SquareSet(occupied)}
    pieces[sq] = chess.Piece(piece_type, chess.WHITE)
    board.set_piece_map(pieces)
    return int(board.attacks_mask(sq))


def test_slider_lookups_equal_python_chess_on_random_occupancies():
    T = table()
    rng = np.random.default_rng(20261122)
    for sq in range(64):
        # sparse, medium and dense boards: every blocker pattern class shows up
        for density in (0.1, 0.3, 0.6):
            for _ in range(40):
                occupied = sum(1 << s for s in range(64) if rng.random() < density)
                occ = np.uint64(occupied)
                assert int(rook_attacks(T, sq, occ)) == python_chess_attacks(chess.ROOK, sq, occupied), (SLIDERS, sq, occ)
                assert int(bishop_attacks(T, sq, occ)) == python_chess_attacks(chess.BISHOP, sq, occupied), (
                    SLIDERS,
                    sq,
                    occ,
                )


@pytest.mark.parametrize(
    "color,king,rook,span,path,beyond",
    [
        (0, "e1", "h1", ("f1", "g1"), ("f1", "g1"), ()),
        (0, "e1", "a1", ("b1", "c1", "d1"), ("d1", "c1"), ()),
        (1, "e8", "h8", ("f8", "g8"), ("f8", "g8"), ()),
        # Chess960: the king already on g1 still needs g1 safe; the rook on b1 has a1 behind it
        (0, "g1", "h1", ("f1",), ("g1",), ()),
        (0, "d1", "b1", ("c1",), ("c1",), ("a1",)),
        (0, "b1", "c1", ("d1", "e1", "f1", "g1"), ("c1", "d1", "e1", "f1", "g1"), ("d1", "e1", "f1", "g1", "h1")),
    ],
)
def test_castling_masks(color, king, rook, span, path, beyond):
    T = table()
    i = color * 64 + ("abcdefgh".index(king[0]) << 3) + "abcdefgh".index(rook[0])
    assert int(T[CASTLE_SPAN + i]) == squares(*span)
    assert int(T[CASTLE_PATH + i]) == squares(*path)
    assert int(T[CASTLE_BEYOND + i]) == squares(*beyond)


@pytest.mark.parametrize(
    "cpu,features,fast",
    [
        ("znver4", {"bmi2": True}, True),
        ("znver3", {"bmi2": True}, True),
        ("skylake", {"bmi2": True}, True),
        ("znver2", {"bmi2": True}, False),  # PEXT in microcode
        ("znver1", {"bmi2": True}, False),
        ("bdver4", {"bmi2": True}, False),
        ("x86-64", {"bmi2": False}, False),
        ("apple-m1", {}, False),
    ],
)
def test_pext_only_where_it_is_fast(cpu, features, fast):
    assert pext_is_fast(cpu, features) is fast


OTHER_MODE_SCRIPT = """
import json
from chesskit.core import SLIDERS
from chesskit.board.board import Board
fens = {fens!r}
print(json.dumps({{"mode": SLIDERS, "counts": [Board(f, chess960=c).perft(3) for f, c in fens]}}))
"""


@pytest.mark.slow  # compiles the walk with the other slider lookup
def test_the_other_slider_lookup_counts_the_same(tmp_path):
    """CI's processor runs one lookup; the other is compiled here in a process of its own
    and must reproduce the published counts too (PEXT only where the processor has it)."""
    from llvmlite import binding

    other = "magic" if SLIDERS == "pext" else "pext"
    if other == "pext" and not binding.get_host_cpu_features().get("bmi2", False):
        pytest.skip("this processor has no PEXT, so only the magic lookup can run here")
    fens = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", False),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", False),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", False),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", False),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", False),
        ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", False),
        # Chess960 position 0 of the chessprogramming wiki's Chess960 perft results
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", True),
    ]
    env = dict(os.environ, CHESSKIT_SLIDERS=other, CHESSKIT_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", OTHER_MODE_SCRIPT.format(fens=fens)],
        env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["mode"] == other
    assert result["counts"] == [8902, 97862, 2812, 9467, 62379, 89890, 12189]


def test_slider_mode_override_and_fallbacks(monkeypatch, capsys):
    from llvmlite import binding

    from chesskit.core import cachefs
    from chesskit.core.cpu import slider_mode

    monkeypatch.setattr(cachefs, "_warned", set())

    monkeypatch.setattr(binding, "get_host_cpu_name", lambda: "znver4")
    monkeypatch.setattr(binding, "get_host_cpu_features", lambda: {"bmi2": True})
    monkeypatch.delenv("CHESSKIT_SLIDERS", raising=False)
    assert slider_mode() == "pext"
    monkeypatch.setenv("CHESSKIT_SLIDERS", "magic")
    assert slider_mode() == "magic"
    assert capsys.readouterr().err == ""
    # a value that is neither choice is ignored, and said so once
    monkeypatch.setenv("CHESSKIT_SLIDERS", "pxet")
    assert slider_mode() == "pext"
    assert slider_mode() == "pext"
    assert capsys.readouterr().err == (
        "chesskit: warning: CHESSKIT_SLIDERS='pxet' is ignored (it is neither pext nor magic): using pext\n"
    )
    # asking for PEXT where the processor lacks it would crash: the request is ignored
    monkeypatch.setattr(cachefs, "_warned", set())
    monkeypatch.setenv("CHESSKIT_SLIDERS", "pext")
    monkeypatch.setattr(binding, "get_host_cpu_features", lambda: {"bmi2": False})
    assert slider_mode() == "magic"
    assert "CHESSKIT_SLIDERS='pext' is ignored (this processor has no BMI2): using magic" in capsys.readouterr().err

    def unknown():
        raise RuntimeError("failed to get host cpu features")

    monkeypatch.setattr(binding, "get_host_cpu_features", unknown)
    assert slider_mode() == "magic"
