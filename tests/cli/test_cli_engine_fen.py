"""compare gives the engine POSITION as typed, even one chesskit reads otherwise (issue 26
item 9); ``--engine-fen chesskit`` gives it chesskit's reading; the report says which FEN
each side counted (text and JSON)."""

from __future__ import annotations

import json
import sys

import pytest

from helpers import ENGINES, KIWIPETE, STARTPOS

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
# e6 cannot be an en-passant square with a pawn on e7: chesskit ignores it (python-chess too)
IMPOSSIBLE_EP = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def sent_fens(log) -> list[str]:
    """The FENs of the `position fen` commands the engine received, but for the check that
    it follows `position fen`, which comes first (the start position, then Kiwipete)."""
    fens = [line[len("position fen ") :].split(" moves ")[0] for line in log.read_text().splitlines()
            if line.startswith("position fen ")]
    assert fens[:2] == [STARTPOS, KIWIPETE]
    return fens[2:]


@pytest.mark.parametrize(
    "flag, engine_fen",
    [([], IMPOSSIBLE_EP), (["--engine-fen", "chesskit"], STARTPOS), (["--engine-fen", "typed"], IMPOSSIBLE_EP)],
    ids=["default", "chesskit", "typed"],
)
def test_the_engine_gets_the_fen_as_typed_unless_asked(cli, tmp_path, monkeypatch, flag, engine_fen):
    log = tmp_path / "sent"
    monkeypatch.setenv("FAKE_PERFT_LOG", str(log))
    result = cli("compare", IMPOSSIBLE_EP, "2", "--engine", FAKE, "--dialect", "uci-perft", *flag, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["agree"] is True
    assert set(sent_fens(log)) == {engine_fen}
    assert (data["engine_fen"], data["chesskit_fen"]) == (engine_fen, STARTPOS)


def test_the_text_report_says_which_fen_each_side_counted(cli):
    engine = ["--python", f"{ENGINES / 'eng_correct.py'}:Adapter"]
    typed = cli("compare", IMPOSSIBLE_EP, "1", *engine).stdout.splitlines()
    assert f"position: {IMPOSSIBLE_EP}" in typed
    assert any(line.startswith(f"chesskit counted: {STARTPOS} ") for line in typed), typed
    same = cli("compare", IMPOSSIBLE_EP, "1", *engine, "--engine-fen", "chesskit").stdout.splitlines()
    assert f"position: {STARTPOS}" in same and not any("counted" in line for line in same)


def test_a_possible_position_reports_one_fen(cli):
    result = cli("compare", "startpos", "1", "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--json")
    data = json.loads(result.stdout)
    assert data["engine_fen"] == data["chesskit_fen"] == STARTPOS
    assert "counted" not in cli("compare", "startpos", "1", "--python", f"{ENGINES / 'eng_correct.py'}:Adapter").stdout


def test_an_unknown_engine_fen_choice_is_bad_input(cli):
    result = cli("compare", "startpos", "1", "--script", "x", "--engine-fen", "other")
    assert result.exit_code == 2 and "--engine-fen" in result.stderr
