"""Every command shows a Chess960 position in Shredder-FEN, where a user reads or copies a
FEN: ``show``, ``perft``, ``divide`` and ``--stats`` (text and JSON), ``suite`` (its
mismatch lines and JSON), ``explore`` (JSON and the line mode's ``fen``).

``r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1`` is read as Chess960 (Shredder-FEN's file letters);
X-FEN writes it ``... w KQkq ...``, which reads as standard chess and, pasted back, asks
another question. A standard position is shown as before. Expected FENs are python-chess's
``Board.shredder_fen()``.
"""

from __future__ import annotations

import json

import chess
import pytest

from helpers import FAKE_UCI, KIWIPETE

OUTER_ROOKS = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"
SHOWN = chess.Board(OUTER_ROOKS, chess960=True).shredder_fen()
X_FEN = chess.Board(OUTER_ROOKS, chess960=True).fen()


def test_the_example_differs_in_the_two_spellings():
    assert SHOWN == OUTER_ROOKS and X_FEN == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize(
    "args", [["show"], ["perft", "1"], ["divide", "1"], ["perft", "1", "--stats"], ["divide", "1", "--stats"]],
    ids=["show", "perft", "divide", "perft-stats", "divide-stats"],
)
def test_json_fen_is_shredder_fen(cli, args):
    result = cli(args[0], OUTER_ROOKS, *args[1:], "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["fen"] == SHOWN
    if args == ["show"]:
        assert data["castling"] == "HAha" and data["chess960"] is True


def test_show_text_is_shredder_fen(cli):
    result = cli("show", OUTER_ROOKS)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"fen: {SHOWN}" in lines and "castling: HAha" in lines
    assert X_FEN not in result.stdout


@pytest.mark.parametrize("command", ["show", "perft"])
def test_a_standard_position_is_shown_as_before(cli, command):
    args = [command, KIWIPETE] + ([] if command == "show" else ["1"])
    assert json.loads(cli(*args, "--json").stdout)["fen"] == chess.Board(KIWIPETE).fen()


def test_an_illegal_move_names_the_position_in_shredder_fen(cli):
    result = cli("show", OUTER_ROOKS, "--moves", "e1e3")
    assert result.exit_code == 2
    assert f"in {SHOWN};" in result.stderr


@pytest.fixture
def suite_file(tmp_path):
    path = tmp_path / "mixed.epd"  # no 960 in the name: each FEN decides
    wrong = chess.Board(OUTER_ROOKS, chess960=True).legal_moves.count() + 1
    path.write_text(f'{OUTER_ROOKS.rsplit(" ", 2)[0]} id "outer"; D1 {wrong};\n{KIWIPETE} id "kiwipete"; D1 48;\n')
    return path


def test_suite_mismatch_text_and_json_are_shredder_fen(cli, suite_file):
    result = cli("suite", str(suite_file))
    assert result.exit_code == 1, result.stderr
    lines = result.stdout.splitlines()
    assert f"fen: {SHOWN}" in lines
    # the pytest test keeps X-FEN, beside its chess960=True
    assert not any(X_FEN in line for line in lines if "chess960=True" not in line)
    data = json.loads(cli("suite", str(suite_file), "--json").stdout)
    assert [r["fen"] for r in data["results"]] == [SHOWN, chess.Board(KIWIPETE).fen()]


def test_suite_position_an_engine_failed_on_is_shredder_fen(cli, tmp_path):
    """An engine that cannot play Chess960 fails on it: the position's ``fen``. (With the
    kings on e1/e8 and the rooks in the corners, as ``OUTER_ROOKS``, Chess960 is the standard
    game, which the engine is asked as such: the kings stand on g1/g8 here.)"""
    gap = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"
    path = tmp_path / "mixed.epd"
    path.write_text(f'{gap.rsplit(" ", 2)[0]} id "gap"; D1 1;\n{KIWIPETE} id "kiwipete"; D1 48;\n')
    result = cli("suite", str(path), "--engine", f"{FAKE_UCI} --no-960", "--json")
    assert result.exit_code == 3, result.stderr
    failed = json.loads(result.stdout)["engine_errors"]
    assert [p["fen"] for p in failed] == [chess.Board(gap, chess960=True).shredder_fen()]
    assert " KQkq " in chess.Board(gap, chess960=True).fen()  # X-FEN would read as standard chess


def test_explore_json_and_line_mode_are_shredder_fen(cli):
    data = json.loads(cli("explore", OUTER_ROOKS, "1", "--json").stdout)
    assert data["fen"] == SHOWN and data["chess960"] is True  # said as a field too (QA 41c)
    assert json.loads(cli("explore", "startpos", "1", "--json").stdout)["chess960"] is False
    result = cli("explore", OUTER_ROOKS, "1", input="fen\nchild e1h1\nfen\n")
    assert result.exit_code == 0, result.stderr
    after = chess.Board(OUTER_ROOKS, chess960=True)
    after.push_uci("e1h1")
    lines = result.stdout.splitlines()
    assert SHOWN in lines and after.shredder_fen() in lines
    assert X_FEN not in lines and after.fen() not in lines
