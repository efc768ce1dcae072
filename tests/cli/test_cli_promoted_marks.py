"""A crazyhouse piece marked promoted (``Q~``) is marked on the text boards of ``show`` and
``compare`` and on the terminal board; a plain piece, and every board of another variant,
looks as before."""

from __future__ import annotations

from chesskit.cli.boardview import plain_lines, rich_board
from chesskit.cli.compare_render import board_lines
from helpers import KIWIPETE

PROMOTED = "4k3/8/8/8/8/8/8/Q3K2Q~[QRppn] w - - 0 1"  # h1 promoted, a1 not


def test_show_text_board_marks_the_promoted_piece_only():
    lines = plain_lines(PROMOTED)
    assert lines[7] == "1  Q . . . K . . Q~"
    assert lines[0] == "8  . . . . k . . ."
    assert plain_lines("4k3/8/8/8/8/8/8/Q~3K2Q[] w - - 0 1")[7] == "1  Q~. . . K . . Q"
    assert plain_lines(KIWIPETE)[0] == "8  r . . . k . . r"  # other boards unchanged


def test_terminal_board_marks_the_promoted_piece_only():
    text = rich_board(PROMOTED, lambda square, light: "white").plain
    rank1 = text.splitlines()[7]
    assert rank1.startswith("1  ♕ ") and rank1.endswith(" ♕~")
    assert "~" not in rich_board(KIWIPETE, lambda square, light: "white").plain


def test_compare_text_board_marks_the_promoted_piece_and_names_it():
    lines = board_lines(PROMOTED, set(), set())
    assert lines[7] == "  1  Q  .  .  .  K  .  .  Q~"
    assert lines[-1] == "  x~ promoted (a pawn again when captured): h1"
    marked = board_lines(PROMOTED, {"h1"}, set())  # the square's brackets take the room
    assert marked[7].endswith("(Q)") and marked[-1].endswith(": h1")
    assert not any("~" in line for line in board_lines(KIWIPETE, set(), set()))
