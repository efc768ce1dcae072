"""The CLI on positions that cannot arise in a game: every command counts them with one
``chesskit: note:`` line on stderr per reason and a "notes" list in its JSON; ``--strict``
refuses them with exit 2 and the message it always gave; back-rank pawns stay refused."""

from __future__ import annotations

import json

import chess
import pytest

from chesskit.board.fen import parse_fen
from chesskit.errors import FenError
from helpers import ENGINES, REPO, pc_perft

ALIGN = "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1"  # python-chess tricky.perft align-diag-1
TWO_ROOKS_MISSING = "r3k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1"  # K and k name no rook: two notes
# Q names no white rook: python-chess drops it, Stockfish reads it as the h1 rook
Q_WITHOUT_ROOK = "4k2r/8/8/8/8/8/8/4K2R w Qk - 0 1"
NOTE = "chesskit: note: this position cannot arise in a game: "



def reasons(fen: str) -> list[str]:
    return parse_fen(fen).notes


def note_lines(stderr: str) -> list[str]:
    return [line[len(NOTE) :] for line in stderr.splitlines() if line.startswith(NOTE)]


def strict_message(fen: str) -> str:
    with pytest.raises(FenError) as err:
        parse_fen(fen, strict=True)
    return f"chesskit: {err.value}"


COMMANDS = [
    ["perft", "{fen}", "2"],
    ["perft", "{fen}", "2", "--stats"],
    ["divide", "{fen}", "2"],
    ["divide", "{fen}", "2", "--stats"],
    ["show", "{fen}"],
    ["debug", "{fen}", "2"],
]


@pytest.mark.parametrize("fen", [ALIGN, TWO_ROOKS_MISSING])
@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:1] + a[2:]) for a in COMMANDS])
def test_every_command_counts_with_notes(cli, fen, args):
    args = [a.replace("{fen}", fen) for a in args]
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["notes"] == reasons(fen) and data["notes"]
    assert note_lines(result.stderr) == data["notes"]  # one line per reason, nothing else
    if "nodes" in data and args[0] != "debug":
        assert data["nodes"] == pc_perft(chess.Board(fen), 2)


@pytest.mark.parametrize("fen", [ALIGN, TWO_ROOKS_MISSING])
@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:1] + a[2:]) for a in COMMANDS])
def test_strict_refuses_with_the_old_message(cli, fen, args):
    args = [a.replace("{fen}", fen) for a in args]
    result = cli(*args, "--strict")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [strict_message(fen)]
    assert result.stdout == ""


def test_plain_perft_prints_the_count_and_notes_go_to_stderr(run_module):
    proc = run_module("perft", TWO_ROOKS_MISSING, "3")
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == f"Nodes searched: {pc_perft(chess.Board(TWO_ROOKS_MISSING), 3)}"
    assert len(note_lines(proc.stderr)) == 2 and "'K'" in proc.stderr and "'k'" in proc.stderr


def test_a_suite_id_keeps_its_notes(cli):
    result = cli("perft", "castling-rook-missing", "2", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["notes"] == reasons(TWO_ROOKS_MISSING)
    assert cli("perft", "castling-rook-missing", "2", "--strict").exit_code == 2


def test_compare_agrees_with_python_chess_and_lists_the_notes(cli):
    result = cli("compare", ALIGN, "3", "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["agree"] is True
    assert data["position_notes"] == reasons(ALIGN)  # "notes" is the move classification
    strict = cli("compare", ALIGN, "3", "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--strict")
    assert strict.exit_code == 2 and strict.stderr.strip() == strict_message(ALIGN)


@pytest.mark.stockfish
def test_compare_gives_stockfish_the_position_as_typed_or_as_chesskit_reads_it(cli, stockfish_path):
    # as typed (issue 26 item 9), Stockfish reads Q as the h1 rook's right and castles
    typed = cli("compare", Q_WITHOUT_ROOK, "3", "--engine", stockfish_path, "--json")
    assert typed.exit_code == 1, typed.stdout + typed.stderr
    data = json.loads(typed.stdout)
    assert data["extra"] == ["e1g1"] and data["engine_fen"] == Q_WITHOUT_ROOK
    assert data["chesskit_fen"] == "4k2r/8/8/8/8/8/8/4K2R w k - 0 1"
    # without it (--engine-fen chesskit) all agree
    result = cli("compare", Q_WITHOUT_ROOK, "3", "--engine", stockfish_path, "--engine-fen", "chesskit", "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["agree"] is True
    assert len(note_lines(result.stderr)) == 1


def test_suite_counts_an_impossible_line_with_its_note(cli, tmp_path):
    board = chess.Board(ALIGN)
    suite = tmp_path / "mine.epd"
    suite.write_text(
        "# test\n"
        f"4k3/8/8/8/8/8/8/4K3 w - - id \"bare\"; D1 5;\n"
        f"{' '.join(ALIGN.split()[:4])} id \"align\"; D1 {pc_perft(board, 1)}; D2 {pc_perft(board, 2)};\n"
    )
    result = cli("suite", str(suite), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and data["passed"] == 3
    notes = {entry["id"]: entry["notes"] for entry in data["results"]}
    assert notes == {"bare": [], "align": reasons(ALIGN)}
    assert [line for line in result.stderr.splitlines() if "note:" in line] == [
        f"chesskit: note: {suite}:3: this position cannot arise in a game: {reasons(ALIGN)[0]}"
    ]
    strict = cli("suite", str(suite), "--strict")
    assert strict.exit_code == 2
    assert f"{suite}:3:" in strict.stderr and strict_message(ALIGN)[len("chesskit: ") :] in strict.stderr


def test_the_bundled_impossible_suite_passes(cli):
    result = cli("suite", str(REPO / "positions" / "impossible.epd"), "--max-nodes", "1e5", "--json")
    assert result.exit_code == 0, result.stdout[-500:]
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and all(entry["notes"] for entry in data["results"])


@pytest.mark.parametrize("command", [["perft", "{fen}", "1"], ["show", "{fen}"], ["debug", "{fen}", "1"]])
def test_back_rank_pawns_stay_refused_without_strict(cli, command):
    fen = "4k1P1/8/8/8/8/8/8/4K3 w - - 0 1"
    result = cli(*[a.replace("{fen}", fen) for a in command])
    assert result.exit_code == 2
    assert "pawns never stand on the first or last rank" in result.stderr
    assert NOTE not in result.stderr
