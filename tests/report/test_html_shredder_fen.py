"""compare's --html boards of a Chess960 node are captioned in Shredder-FEN (the file
letters of the castling rooks), not X-FEN's standard ``K``/``Q`` (``chesskit/report/replay.py``
``path_fens``). Expected FENs are python-chess's ``Board.shredder_fen()``."""

from __future__ import annotations

import json

import chess
import pytest

from dom import parse_html
from helpers import ENGINES

BUG = str(ENGINES / "bug_c960_adjacent.py")  # misses f1g1 (king takes the g1 rook) next to the h1 knight
FEN = "4k3/8/8/8/8/8/8/5KRn b G - 0 1"  # X-FEN: K; Chess960 by its castling letter

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def _board(fen: str, moves) -> chess.Board:
    board = chess.Board(fen, chess960=True)
    for move in moves:
        board.push_uci(move)
    return board


def shredder(fen: str, moves=()) -> str:
    return _board(fen, moves).shredder_fen()


def x_fen(fen: str, moves=()) -> str:
    return _board(fen, moves).fen()


def test_html_boards_are_captioned_in_shredder_fen(cli, tmp_path):
    page = tmp_path / "report.html"
    result = cli("compare", FEN, "2", "--script", BUG, "--json", "--html", str(page))
    assert result.exit_code == 1, result.stderr
    path = json.loads(result.stdout)["path"]
    panels = parse_html(page.read_text()).one("section", "finding").all("div", "node")
    captions = [panel.one("figcaption").text_content() for panel in panels]
    assert len(captions) == len(path) + 1
    for i, caption in enumerate(captions):
        assert shredder(FEN, path[:i]) in caption, caption
        assert x_fen(FEN, path[:i]) not in caption
