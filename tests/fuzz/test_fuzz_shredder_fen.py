"""fuzz shows its Chess960 positions in Shredder-FEN (the castling rooks' files), in the
text and in the JSON: the generated position, the shrunk root, the failing nodes, and the
positions an engine failed on. X-FEN's ``KQkq`` would read as standard chess. A FEN is in
Shredder-FEN when python-chess's ``Board.shredder_fen()`` writes it back unchanged.
"""

from __future__ import annotations

import json
import sys

import chess
import pytest

from helpers import ENGINES

pytestmark = pytest.mark.usefixtures("no_leftover_children")

C960_BUG = f"{ENGINES / 'bug_c960_adjacent.py'}:Adapter"
NO_960 = f"{sys.executable} {ENGINES / 'fake_uci.py'} --no-960"


def is_shredder(fen: str) -> bool:
    return chess.Board(fen, chess960=True).shredder_fen() == fen


def castling(fen: str) -> str:
    return fen.split()[2]


def test_a_chess960_finding_is_shown_in_shredder_fen(cli):
    args = ["fuzz", "--python", C960_BUG, "--seed", "3", "--chess960", "--positions", "1500"]
    result = cli(*args, "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    # engine_fen and chesskit_fen (and the text's "position:" line) were X-FEN's (`w K -`)
    # where every other FEN of the report wrote the rook's file (`w G -`)
    shown = {key: data[key] for key in ("start_fen", "position_fen", "first_fen", "fen", "engine_fen", "chesskit_fen")}
    assert all(map(is_shredder, shown.values())), shown
    assert data["engine_fen"] == data["chesskit_fen"] == data["position_fen"]
    assert castling(data["start_fen"]) != "-" and castling(data["start_fen"]) not in ("KQkq", "KQ", "kq")
    text = cli(*args)
    assert text.exit_code == 1, text.stderr
    generated = next(line for line in text.stdout.splitlines() if line.startswith("generated ("))
    assert generated.endswith(f": {data['start_fen']}")
    assert f"fen {data['first_fen']}" in text.stdout
    assert f"\nposition: {data['position_fen']}\n" in text.stdout


def test_a_position_the_engine_failed_on_is_shown_in_shredder_fen(cli):
    """An engine that cannot play Chess960 fails on the first Chess960 position with
    castling rights: that position, in JSON and in its ERROR line and the summary."""
    result = cli("fuzz", "--engine", NO_960, "--seed", "1", "--positions", "60", "--json")
    assert result.exit_code == 3
    error = json.loads(result.stdout)["engine_errors"][0]
    assert error["chess960"] is True and castling(error["fen"]) != "-" and is_shredder(error["fen"])
    assert chess.Board(error["fen"], chess960=True).fen() != error["fen"]  # X-FEN would differ
    text = cli("fuzz", "--engine", NO_960, "--seed", "1", "--positions", "60")
    assert text.exit_code == 3
    assert f"): {error['fen']}: " in text.stdout
    assert error["fen"] in text.stderr
