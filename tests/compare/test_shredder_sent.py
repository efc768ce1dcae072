"""A UCI engine asked in Chess960 is sent the castling field in Shredder-FEN (the castling
rooks' files), as chesskit shows a Chess960 FEN, not in X-FEN (``KQkq``).

In ``3k4/8/8/8/8/1R6/8/1rRK4 w Q -`` white's queen-side right is the rook on c1 (the
outermost white rook west of the king: b1 holds a black rook). Sjaak II 1.4.1, with
UCI_Chess960 on, read ``Q`` as the rook on b1, so after ``b3b8 b1b8`` it no longer castled
and counted 13 moves where there are 14; given ``C`` it counts 14. Stockfish,
Fairy-Stockfish and Ethereal read both spellings. Expected counts are python-chess's.
"""

from __future__ import annotations

import json
import os
import shutil
import sys

import chess
import pytest

from chesskit.compare.engines import open_engine
from helpers import ENGINES, missing, pc_divide, pc_perft

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'} --loop uci --command go-perft --total stockfish"
INNER = "3k4/8/8/8/8/1R6/8/1rRK4 w Q - 0 1"  # Q: the rook on c1
SHREDDER = "3k4/8/8/8/8/1R6/8/1rRK4 w C - 0 1"
PATH = ["b3b8", "b1b8"]  # the black rook leaves b1: white may still castle with c1

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def sjaak() -> str:
    path = shutil.which("sjaakii") or ("/usr/games/sjaakii" if os.access("/usr/games/sjaakii", os.X_OK) else None)
    if path is None:
        missing("sjaakii on PATH or in /usr/games", "Debian: apt-get install sjaakii")
    return path


def after(fen: str, moves: list[str]) -> chess.Board:
    board = chess.Board(fen, chess960=True)
    for move in moves:
        board.push_uci(move)
    return board


def test_the_example_needs_its_right():
    assert chess.Board(INNER, chess960=True).shredder_fen() == SHREDDER
    assert "d1c1" in pc_divide(INNER, 1, PATH, chess960=True)  # the castle: king d1, rook c1


def test_a_uci_engine_is_sent_shredder_fen(tmp_path, monkeypatch):
    log = tmp_path / "sent"
    monkeypatch.setenv("FAKE_PERFT_LOG", str(log))
    with open_engine(engine=FAKE, timeout=20) as engine:
        assert engine.divide(INNER, 1, PATH, chess960=True) == pc_divide(INNER, 1, PATH, chess960=True)
    assert f"position fen {SHREDDER} moves {' '.join(PATH)}" in log.read_text().splitlines()


def test_sjaak_counts_the_castle_it_lost_to_x_fen():
    with open_engine(engine=sjaak(), timeout=20) as engine:
        assert engine.perft(INNER, 1, PATH, chess960=True) == after(INNER, PATH).legal_moves.count() == 14
        assert engine.perft(INNER, 3, [], chess960=True) == pc_perft(chess.Board(INNER, chess960=True), 3)


def test_compare_with_sjaak_agrees(cli):
    result = cli("compare", INNER, "3", "--chess960", "--engine", sjaak(), "--json", "--timeout", "20")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True
    step = report["steps"][0]
    theirs = sum(step["theirs"].values()) if step["theirs"] else step["theirs_total"]
    assert theirs == pc_perft(chess.Board(INNER, chess960=True), 3)
