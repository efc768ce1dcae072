"""Every bad input: one line on stderr, exit 2, nothing on stdout, never a traceback."""

from __future__ import annotations

import pytest

from chesskit.cli import output
from chesskit.errors import EngineError, MismatchError

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
GOOD_LINE = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "s"; D1 20;'

BAD_INPUTS = [
    # (arguments, words the one line must contain)
    (["perft", START.replace(" w ", " x "), "1"], ["invalid FEN", "side to move", "'x'"]),
    (["perft", START.replace("RNBQKBNR w", "RNBQKBNX w"), "1"], ["invalid FEN", "piece placement", "'X'"]),
    (["perft", "8/8/8/8/8/8/8/8 w - - 0 1", "1"], ["invalid FEN", "no king"]),
    (["perft", START.replace("KQkq", "KQkqX"), "1"], ["invalid FEN", "castling"]),
    (["perft", START.replace(" - ", " e9 "), "1"], ["invalid FEN", "en passant"]),
    (["perft", START.replace(" 0 1", " -3 1"), "1"], ["invalid FEN"]),
    (["show", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"], ["invalid FEN", "ranks"]),
    (["perft", "nonesuch", "1"], ["unknown position 'nonesuch'", "startpos"]),
    (["divide", "kiwipeet", "1"], ["unknown position 'kiwipeet'", "did you mean 'kiwipete'"]),
    (["perft", "startpos", "2", "--moves", "e2e4 e2e4"], ["illegal move 'e2e4'", "legal moves: a7a5"]),
    (["divide", "startpos", "1", "--moves", "e1g1"], ["illegal move 'e1g1'", "g1f3"]),
    (["show", "startpos", "--moves", "zz99"], ["illegal move 'zz99'"]),
    (["perft", "startpos", "x"], ["bad depth 'x'", ">= 0"]),
    (["perft", "startpos", "-1"], ["bad depth '-1'", ">= 0"]),
    (["perft", "startpos", "2.5"], ["bad depth '2.5'"]),
    (["divide", "startpos", "0"], ["bad depth '0'", ">= 1"]),
    (["perft", "startpos"], ["Missing argument 'DEPTH'", "chesskit perft --help"]),
    (["perft", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-", "0", "1", "3"],
     ["unexpected extra argument", "quote it"]),
    (["perft", "startpos", "1", "--jsn"], ["No such option", "--json"]),
    (["frobnicate"], ["No such command 'frobnicate'"]),
    (["suite", "--max-nodes", "lots"], ["bad --max-nodes 'lots'"]),
    (["suite", "--max-depth", "-2"], ["bad --max-depth"]),
    (["suite", "no/such/file.epd"], ["no such suite file or folder", "no/such/file.epd"]),
]


def check_one_line(exit_code: int, stdout: str, stderr: str, words: list[str]) -> None:
    assert exit_code == 2, stderr
    assert stdout == ""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("chesskit: ")
    for word in words:
        assert word in lines[0]


@pytest.mark.parametrize("args, words", BAD_INPUTS, ids=[" ".join(a)[:50] for a, _ in BAD_INPUTS])
def test_bad_input_in_process(cli, args, words):
    result = cli(*args)
    check_one_line(result.exit_code, result.stdout, result.stderr, words)


@pytest.mark.parametrize(
    "args, words",
    [BAD_INPUTS[0], BAD_INPUTS[7], BAD_INPUTS[9], BAD_INPUTS[13], BAD_INPUTS[16], BAD_INPUTS[-1]],
)
def test_bad_input_as_a_process(run_module, args, words):
    proc = run_module(*args)
    check_one_line(proc.returncode, proc.stdout, proc.stderr, words)


def test_bad_input_through_the_entry_point(run_entry_point):
    proc = run_entry_point("perft", "startpos", "3", "--moves", "e7e5")
    check_one_line(proc.returncode, proc.stdout, proc.stderr, ["illegal move 'e7e5'"])


def test_illegal_move_lists_every_legal_move(cli):
    result = cli("perft", "kiwipete", "1", "--moves", "e1e2")
    assert result.exit_code == 2
    line = result.stderr.strip()
    legal = line.split("legal moves: ")[1].split()
    assert len(legal) == 48 and legal == sorted(legal)


def check_line_error(exit_code: int, stdout: str, stderr: str, words: list[str]) -> None:
    """A suite line that cannot be run: exit 2, one stderr line naming it, and the run went
    on (the good line before it was counted, the bad one is an ERROR line on stdout)."""
    assert exit_code == 2, stderr
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("chesskit: 1 line could not be run (first: ")
    for word in words:
        assert word in lines[0]
    assert any(line.startswith("ERROR ") and words[0] in line for line in stdout.splitlines())


def test_unreadable_suite_line_names_file_and_line(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.epd").write_text(f"# a suite\n{GOOD_LINE}\n{GOOD_LINE.replace('D1 20', 'D1 many')}\n")
    result = cli("suite", "broken.epd")
    check_line_error(result.exit_code, result.stdout, result.stderr, ["broken.epd:3:", "D1", "'many'"])
    assert result.stdout.startswith("ok ")


def test_bad_fen_in_a_suite_names_file_and_line(run_module, tmp_path):
    path = tmp_path / "broken.epd"
    path.write_text(f"\n\n{GOOD_LINE.replace(' w ', ' white ')}\n")
    proc = run_module("suite", str(path), cwd=tmp_path)
    check_line_error(proc.returncode, proc.stdout, proc.stderr, ["broken.epd:3:", "side to move"])


def test_nothing_to_run_is_bad_input(cli, tmp_path):
    (tmp_path / "s.epd").write_text(GOOD_LINE + "\n")
    result = cli("suite", str(tmp_path / "s.epd"), "--max-nodes", "5")
    check_one_line(result.exit_code, result.stdout, result.stderr, ["nothing to run"])


@pytest.mark.parametrize(
    "error, code",
    [(MismatchError("counts differ"), 1), (EngineError("stockfish died"), 3)],
)
def test_error_boundary_exit_codes(error, code):
    assert output.error_line(error) == (str(error), code)


def test_keyboard_interrupt_is_one_line_130(cli, monkeypatch):
    from chesskit.cli import perft_cmd

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(perft_cmd, "load_board", interrupted)
    result = cli("perft", "startpos", "1")
    assert result.exit_code == 130
    assert result.stderr == "chesskit: interrupted\n"


def test_internal_error_is_one_line_without_traceback(cli, monkeypatch):
    from chesskit.cli import perft_cmd

    def broken(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(perft_cmd, "load_board", broken)
    result = cli("perft", "startpos", "1")
    assert result.exit_code == output.INTERNAL_ERROR
    assert result.stderr.startswith("chesskit: internal error: ZeroDivisionError: division by zero")
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr
