"""A FEN with fullmove number 0: FEN counts moves from 1, but suite files carry a 0, and
chesskit reads it as 1 (as Stockfish and python-chess do) instead of refusing it, as it
reads any halfmove clock. An engine that keeps the 0 it was given is not a finding; a real
fullmove bug still is."""

from __future__ import annotations

import json

from helpers import ENGINES

FROM_ZERO = f"{ENGINES / 'fullmove_from_zero.py'}"
ZERO = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 0"


def test_zero_is_read_as_one(cli):
    shown = json.loads(cli("show", ZERO, "--json").stdout)
    assert shown["fullmove"] == 1 and shown["fen"].endswith(" 5 1") and shown["notes"] == []


def test_an_engine_counting_on_from_the_typed_zero_agrees(cli):
    result = cli("compare", ZERO, "2", "--python", f"{FROM_ZERO}:Adapter", "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["agree"] is True


def test_a_fullmove_bug_from_a_typed_zero_is_still_found(cli):
    result = cli("compare", ZERO, "2", "--python", f"{FROM_ZERO}:NotRestored", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    # its numbers run from 0: after the pop it says 1 where it said 0 before the push
    assert (report["field"], report["op"], report["path"], report["ours"], report["theirs"]) == ("fullmove", "pop", [], 0, 1)
    assert report["hint"] == f"unmake (pop {report['move']}) does not restore the fullmove number"


def test_a_suite_line_with_fullmove_zero_is_counted(cli, tmp_path):
    suite = tmp_path / "zero.epd"
    suite.write_text(f'{ZERO} ;D1 26 ;D2 568 ;id "zero"\n')
    result = cli("suite", str(suite), "--python", f"{FROM_ZERO}:Adapter")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert cli("suite", str(suite)).exit_code == 0
