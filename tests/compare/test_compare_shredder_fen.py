"""compare shows a Chess960 node in Shredder-FEN: the report's ``fen`` (JSON and the text
report; its HTML boards: tests/report/test_html_shredder_fen.py) and the regression's ``fen``.

X-FEN writes the outermost castling rook as ``K``/``Q``, standard chess's letters: the
failing node of ``4k3/8/8/8/8/8/8/5KRn b G - 0 1`` was shown as ``... w K - ...``, which,
pasted back, is a standard position with another move tree. What the script is sent is
unchanged. Expected FENs are python-chess's ``Board.shredder_fen()``.
"""

from __future__ import annotations

import json

import chess
import pytest

from helpers import ENGINES

BUG = str(ENGINES / "bug_c960_adjacent.py")  # misses f1g1 (king takes the g1 rook) next to the h1 knight
FEN = "4k3/8/8/8/8/8/8/5KRn b G - 0 1"  # X-FEN: K; Chess960 by its castling letter

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def shredder(fen: str, moves=()) -> str:
    board = chess.Board(fen, chess960=True)
    for move in moves:
        board.push_uci(move)
    return board.shredder_fen()


def x_fen(fen: str, moves=()) -> str:
    board = chess.Board(fen, chess960=True)
    for move in moves:
        board.push_uci(move)
    return board.fen()


def test_json_fen_and_regression_fen_are_shredder_fen(cli):
    result = cli("compare", FEN, "2", "--script", BUG, "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["kind"] == "moves" and data["missing"] == ["f1g1"] and len(data["path"]) == 1
    expected = shredder(FEN, data["path"])
    assert " G " in expected and expected != x_fen(FEN, data["path"])  # the point: X-FEN has K
    assert data["fen"] == expected
    assert data["regression"]["fen"] == expected
    assert data["engine_fen"] == FEN  # as typed, as before


def test_text_report_names_the_node_in_shredder_fen(cli):
    result = cli("compare", FEN, "2", "--script", BUG)
    assert result.exit_code == 1, result.stderr
    path = json.loads(cli("compare", FEN, "2", "--script", BUG, "--json").stdout)["path"]
    lines = result.stdout.splitlines()
    assert f"fen: {shredder(FEN, path)}" in lines
    # the suite line too; the pytest test keeps X-FEN, beside its chess960=True
    assert any(line.startswith(f"  {shredder(FEN, path).rsplit(' ', 2)[0]} id ") for line in lines)
    assert not any(x_fen(FEN, path) in line for line in lines if "chess960=True" not in line)
