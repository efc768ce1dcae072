"""Castling written as the king taking its rook in standard chess (`e1h1`, as chessops and
lichess write it) reads as castling (issue 26 item 4), and so does a Chess960 castle written
as the king's destination (`g1c1`): the counts compare pairwise, no castle is reported
missing and extra at once, and the report says once which spelling the engine uses."""

from __future__ import annotations

import json
import sys

import pytest

from chesskit.board.board import Board
from chesskit.compare.engines import ScriptEngine
from helpers import ENGINES, KIWIPETE, pc_divide

SCRIPT = ENGINES / "castle_ktr.py"
THROUGH_CHECK = "4k3/8/b7/8/8/8/8/4K2R w K - 0 1"  # bug_castle_through_check's trigger: e1g1
NOTE = "chesskit: engine writes castling as the king taking its rook"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def spelled(divide: dict[str, int]) -> dict[str, int]:
    """``divide`` with standard castles written as the king taking its rook."""
    names = {"e1g1": "e1h1", "e1c1": "e1a1", "e8g8": "e8h8", "e8c8": "e8a8"}
    return {names.get(move, move): count for move, count in divide.items()}


def test_read_castling_renames_only_the_kings_castles():
    from chesskit.compare.engines.castling import read_castling

    ours = pc_divide(KIWIPETE, 1)
    renamed, found = read_castling(spelled(ours), lambda: Board(KIWIPETE), False)
    assert found == "king-takes-rook" and renamed == ours
    # a rook on e1 going to h1 is a rook move, not castling; Chess960 keeps king takes rook
    rook = "k7/8/8/8/8/8/8/K3R3 w - - 0 1"
    assert read_castling(pc_divide(rook, 1), lambda: Board(rook), False) == (pc_divide(rook, 1), None)
    # both spellings listed: nothing is merged, the comparison shows both
    both = {**ours, "e1h1": 1}
    assert read_castling(both, lambda: Board(KIWIPETE), False) == (both, None)


def test_a_king_takes_rook_script_counts_pairwise():
    engine = ScriptEngine(str(SCRIPT))
    assert engine.castling_spelling is None
    assert engine.divide(KIWIPETE, 2, []) == pc_divide(KIWIPETE, 2)
    assert engine.castling_spelling == "king-takes-rook"
    # below a castle given in chesskit's spelling, and black's castles too
    assert engine.divide(KIWIPETE, 2, ["e1g1", "b4b3"]) == pc_divide(KIWIPETE, 2, ["e1g1", "b4b3"])


def test_compare_agrees_and_says_the_spelling_once(cli):
    result = cli("compare", "kiwipete", "2", "--script", str(SCRIPT))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.startswith("agree: ")
    assert [line for line in result.stderr.splitlines() if line.startswith(NOTE)] == [result.stderr.strip()]
    data = json.loads(cli("compare", "kiwipete", "1", "--script", str(SCRIPT), "--json").stdout)
    assert data["agree"] is True and data["castling_spelling"] == "king-takes-rook"
    plain = json.loads(cli("compare", "kiwipete", "1", "--script", str(ENGINES / "eng_correct.py"), "--json").stdout)
    assert plain["castling_spelling"] is None


def test_an_illegal_castle_spelled_king_takes_rook_is_one_extra_castle(cli, tmp_path):
    script = tmp_path / "bug.sh"
    script.write_text(f'#!/bin/sh\nexec {sys.executable} {SCRIPT} --bug castle_through_check "$@"\n')
    script.chmod(0o755)
    result = cli("compare", THROUGH_CHECK, "1", "--script", str(script), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["missing"], data["extra"]) == ([], ["e1g1"])
    assert data["notes"][0]["hint"] == "castling through an attacked square (f1)"


# Chess960: the king on g1 castles with the rook on b1 (to c1) and on h1 (where it stays)
GAP = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"
# the king on b1 castles with the rook on a1 to c1, where it may also step: ``b1c1`` twice
STEP = "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1"
KTS960 = ENGINES / "castle_kts960.py"
NOTE960 = "chesskit: engine writes Chess960 castling as the king's move to its destination"


def destination(divide: dict[str, int], castles: dict[str, str]) -> dict[str, int]:
    return {castles.get(move, move): count for move, count in divide.items()}


def test_read_castling_renames_a_chess960_castle_written_as_the_kings_destination():
    from chesskit.compare.engines.castling import read_castling

    ours = pc_divide(GAP, 1, chess960=True)
    written = destination(ours, {"g1b1": "g1c1", "g1h1": "g1g1"})
    assert read_castling(written, lambda: Board(GAP, chess960=True), True) == (ours, "king-to-square")
    # chesskit's own spelling (king takes rook) is left as it is
    assert read_castling(ours, lambda: Board(GAP, chess960=True), True) == (ours, None)
    # standard chess's king takes rook is Chess960's spelling: not renamed there
    assert read_castling(spelled(pc_divide(KIWIPETE, 1)), lambda: Board(KIWIPETE), True)[1] is None
    # where the king may also step to its destination, which line is the castle is not
    # known: both stay, and the spelling is still named
    step = pc_divide(STEP, 1, chess960=True)
    listed = {**destination(step, {"b1h1": "b1g1"}), "b1c1 (listed twice)": 1}
    del listed["b1a1"]
    renamed, found = read_castling(listed, lambda: Board(STEP, chess960=True), True)
    assert found == "king-to-square" and "b1a1" not in renamed and renamed["b1h1"] == 1


def test_compare_agrees_with_a_chess960_king_to_square_script(cli):
    result = cli("compare", GAP, "2", "--script", str(KTS960))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.startswith("agree: ")
    assert [line for line in result.stderr.splitlines() if line.startswith(NOTE960)] == [result.stderr.strip()]
    data = json.loads(cli("compare", GAP, "1", "--script", str(KTS960), "--json").stdout)
    assert data["agree"] is True and data["castling_spelling"] == "king-to-square"


def test_an_engine_without_chess960_castling_is_not_said_to_spell_it(cli, tmp_path):
    from chesskit.compare.engines.castling import read_castling

    # the king on b1 steps to c1, its castle with a1's rook lands there too: an engine with
    # no Chess960 castle lists b1c1 once, the step; it was said to write castling as the
    # king's destination, and the report sent its author to the notation
    fen = "4k3/8/8/8/8/8/8/RK6 w A - 0 1"
    ours = pc_divide(fen, 1, chess960=True)
    no_castle = {move: n for move, n in ours.items() if move != "b1a1"}
    assert read_castling(no_castle, lambda: Board(fen, chess960=True), True) == (no_castle, None)
    script = tmp_path / "plain.py"  # python-chess's Board(fen), not Chess960: no such castle
    script.write_text(
        f"#!{sys.executable}\nimport sys, chess\nb = chess.Board(sys.argv[2])\n"
        "for m in sys.argv[3].split() if len(sys.argv) > 3 else []: b.push_uci(m)\n"
        "print('\\n'.join(f'{m.uci()} 1' for m in b.legal_moves))\nprint()\nprint(b.legal_moves.count())\n"
    )
    script.chmod(0o755)
    result = cli("compare", fen, "1", "--script", str(script), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["missing"] == ["b1a1"] and data["castling_spelling"] is None
    assert NOTE960 not in result.stderr
