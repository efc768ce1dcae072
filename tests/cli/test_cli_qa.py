"""Regressions from a QA sweep of the CLI as a new user: every failure is one line and the
right exit code, a closed pipe is not a mismatch, Ctrl-C stops a long run promptly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chesskit.cli import output
from chesskit.compare.engines.script import shredder_fen
from helpers import REPO, ENGINES

ENGINES = REPO / "tests" / "engines"
GOOD_LINE = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "s"; D1 20; D2 400;'


def _subprocess_env() -> dict[str, str]:
    """The working copy first on the path (as conftest's process fixtures do)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.pop("CHESSKIT_DEBUG", None)
    return env


def one_line(result, code: int, *words: str) -> str:
    """Assert a one-line ``chesskit: ...`` error with ``code``; return the line."""
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("chesskit: ")
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------------------------ bad input, exit 2


@pytest.mark.parametrize(
    "args, words",
    [
        # a huge DEPTH used to die of MemoryError (exit 70) sizing the move stacks
        (["perft", "kiwipete", "99999999999999999999"], ["bad depth", "at most 100"]),
        (["divide", "startpos", "101"], ["bad depth '101'", "at most 100"]),
        (["debug", "startpos", "5000"], ["at most 100"]),
        (["compare", "startpos", "200", "--engine", "stockfish"], ["at most 100"]),
        # clocks beyond the board's integers overflowed (exit 70) or wrapped negative
        (["perft", "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999999", "1"], ["fullmove number", "too large"]),
        (["show", "4k3/8/8/8/8/8/8/4K3 w - - 9223372036854775808 1"], ["halfmove clock", "too large"]),
        # click's IntRange said "'abc' is not a valid integer range"
        (["perft", "startpos", "1", "--threads", "abc"], ["--threads", "'abc' is not an integer"]),
        (["bench", "--depth-offset", "x"], ["--depth-offset", "'x' is not an integer"]),
        # --timeout inf and 1e10 overflowed the engine's waits (exit 70)
        (["compare", "startpos", "2", "--engine", "stockfish", "--timeout", "inf"], ["bad --timeout 'inf'"]),
        (["compare", "startpos", "2", "--engine", "stockfish", "--timeout", "1e10"], ["up to 1e+06"]),
        (["suite", "--engine", "stockfish", "--timeout", "nan"], ["bad --timeout 'nan'"]),
        # an unbalanced quote in the engine command was a ValueError (exit 70)
        (["compare", "startpos", "2", "--engine", "stockfish 'x"], ["bad --engine command", "quotation"]),
        # an empty flag read as "got none"; in suite it silently ran chesskit instead
        (["compare", "startpos", "2", "--engine", ""], ["--engine is empty"]),
        (["compare", "startpos", "2", "--script", " "], ["--script is empty"]),
        (["suite", "--engine", ""], ["--engine is empty"]),
        # 'did you mean 'startpos' or 'startpos'?'
        (["perft", "Startpos", "1"], ["did you mean 'startpos'?"]),
        (["perft", "KIWIPETE", "1"], ["did you mean 'kiwipete'?"]),
        # --junit checked before the run, not after it
        (["suite", "--junit", ""], ["--junit needs a file name"]),
        (["suite", "--junit", "/no/such/folder/out.xml"], ["cannot write --junit", "no such folder"]),
    ],
)
def test_bad_input_is_one_line_exit_2(cli, args, words):
    result = cli(*args)
    one_line(result, 2, *words)
    assert result.stdout == ""


def test_no_arguments_prints_the_help(cli):
    """`chesskit` alone printed the whole help squeezed into one error line, exit 2."""
    result = cli()
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: chesskit [OPTIONS] COMMAND")
    assert "perft" in result.stdout and result.stderr == ""


def test_unknown_id_suggests_each_name_once(cli):
    line = one_line(cli("perft", "Startpos", "1"), 2)
    assert line.endswith("(did you mean 'startpos'?)")


def test_unknown_id_lists_the_standard_positions_first(cli):
    line = one_line(cli("perft", "nonesuch", "1"), 2)
    assert "try: startpos, kiwipete" in line


def test_quote_hint_only_when_a_fen_was_split(cli):
    line = one_line(cli("show", "startpos", "3"), 2, "unexpected extra argument")
    assert "quote it" not in line
    one_line(cli("perft", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "1"), 2, "quote it")


def test_junit_to_a_directory_fails_before_running(cli, tmp_path):
    (tmp_path / "s.epd").write_text(GOOD_LINE + "\n")
    result = cli("suite", str(tmp_path / "s.epd"), "--junit", str(tmp_path))
    one_line(result, 2, "is a directory")
    assert result.stdout == ""  # nothing was run


def test_a_fifo_is_not_taken_for_a_missing_suite_file(cli, tmp_path):
    fifo = tmp_path / "pipe.epd"
    os.mkfifo(fifo)
    one_line(cli("suite", str(fifo)), 2, "not a regular file")


def test_out_of_memory_has_its_own_exit_code_not_a_bug(cli, monkeypatch):
    """Running out of memory is neither a mismatch (1) nor a bug (70): exit 4 (issue 14)."""
    from chesskit.cli import perft_cmd

    def huge(*args):
        raise MemoryError("Unable to allocate 1.00 TiB for an array")

    monkeypatch.setattr(perft_cmd, "load_board", huge)
    line = one_line(cli("perft", "startpos", "1", "--hash", "1048576"), 4, "out of memory", "--hash")
    assert "internal error" not in line


def test_a_hash_table_larger_than_memory_is_bad_input(cli, monkeypatch):
    from chesskit.core import tt

    real = tt.allocate

    def huge(megabytes):
        if megabytes > 1000:
            raise MemoryError("Unable to allocate 1.00 TiB for an array")
        return real(megabytes)

    monkeypatch.setattr(tt, "allocate", huge)
    one_line(cli("perft", "startpos", "5", "--hash", "1048576"), 2, "hash table of 1048576 MiB does not fit")


# ------------------------------------------------------------------ closed pipes


def test_broken_pipe_maps_to_141_without_a_message():
    assert output.error_line(BrokenPipeError()) == ("", 141)


def test_closing_the_pipe_early_is_quiet_and_not_a_mismatch(entry_point, tmp_path):
    """`chesskit suite | head -1`: exit 141 (the shell's SIGPIPE code), nothing on stderr."""
    proc = subprocess.Popen(
        [entry_point, "suite", "--max-nodes", "1e4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_subprocess_env(),
    )
    first = proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    code = proc.wait(timeout=300)
    stderr = proc.stderr.read().decode()
    assert first.startswith(b"ok ")
    assert code == 141, stderr
    assert stderr == ""


# ------------------------------------------------------------------ Ctrl-C


def test_interrupt_during_a_compile_is_reported_as_interrupted(cli, monkeypatch):
    """numba's compiler can swallow the KeyboardInterrupt and raise something else (a
    RuntimeError "no compiled object yet"): after a Ctrl-C it is still "interrupted", 130."""
    from chesskit.cli import perft_cmd

    def compile_interrupted(*args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            raise RuntimeError("no compiled object yet for <Library 'divide'>") from None

    monkeypatch.setattr(perft_cmd, "load_board", compile_interrupted)
    result = cli("perft", "startpos", "1")
    assert result.exit_code == 130
    assert result.stderr == "chesskit: interrupted\n"


def test_interrupt_guard_restores_the_handlers(cli):
    before = (signal.getsignal(signal.SIGINT), sys.unraisablehook)
    assert cli("perft", "startpos", "1").exit_code == 0
    assert (signal.getsignal(signal.SIGINT), sys.unraisablehook) == before


@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_stops_a_long_perft_promptly(entry_point, threads):
    """`chesskit perft startpos 8` then SIGINT: the compiled walk holds the main thread for
    minutes, so a watchdog reports the Ctrl-C: one line, exit 130, within seconds. With
    one thread this needs the compiled walk to release the GIL."""
    env = _subprocess_env()
    subprocess.run([entry_point, "perft", "startpos", "1"], env=env, capture_output=True, timeout=600)
    proc = subprocess.Popen(
        [entry_point, "perft", "startpos", "8", "--threads", threads, "--hash", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    time.sleep(2)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("perft startpos 8 did not stop within 30 s of Ctrl-C")
    assert proc.returncode == 130, err
    assert err == "chesskit: interrupted\n"
    assert out == ""
    assert time.monotonic() - sent < 10


# ------------------------------------------------------------------ engines


def test_state_mismatch_line_shows_values_as_the_fen_writes_them(cli):
    result = cli("compare", "kiwipete", "2", "--python", f"{ENGINES / 'bug_ep_not_restored.py'}:Adapter")
    line = one_line(result, 1, "state differs after pop")
    assert "ep ours -, theirs c6" in line
    assert "None" not in line and "'" not in line.split("state differs")[1]


def test_state_sweep_line_in_the_singular(cli):
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20"
    result = cli("compare", fen, "2", "--python", f"{ENGINES / 'bug_halfmove_not_restored.py'}:Adapter")
    assert result.exit_code == 1
    assert "\nfull state compared after 1 push and its pop\n" in result.stdout


def test_shredder_fen_names_the_castling_rooks_files():
    assert shredder_fen("bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1").split()[2] == "GEge"
    assert shredder_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1").split()[2] == "Ha"
    assert shredder_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1") == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_a_correct_script_agrees_on_a_chess960_position(cli):
    """A perftree script used to get X-FEN `KQkq` for Chess960 and could not tell it from
    standard chess: a correct engine 'missed' f1g1. It now gets Shredder-FEN `GEge`."""
    result = cli("compare", "c960-3", "2", "--script", str(ENGINES / "eng_correct.py"))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.startswith("agree:")


def test_count_tables_are_sorted_like_divide(cli):
    text = cli("compare", "kiwipete", "3", "--script", str(ENGINES / "bug_no_ep.py")).stdout
    table = text.split("counts at each step:\n")[1].split("\ndepth ")[0].splitlines()[2:-1]
    moves = [row.split()[0] for row in table]
    assert moves == sorted(moves) and len(moves) == 48


# ------------------------------------------------------------------ suite with an engine


def test_skip_chess960_lets_a_standard_only_engine_run_the_bundled_suites(cli):
    engine = f"{ENGINES / 'fake_uci.py'} --no-960"
    refused = cli("suite", "--max-nodes", "100", "--engine", engine)
    one_line(refused, 3, "cannot play Chess960", "--skip-chess960")
    result = cli("suite", "--max-nodes", "100", "--engine", engine, "--skip-chess960", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["failed"] == 0 and data["passed"] > 0
    assert not any(r["id"].startswith("c960-") for r in data["results"])


def test_summary_counts_in_the_singular(cli, tmp_path):
    (tmp_path / "s.epd").write_text(GOOD_LINE + "\n")
    result = cli("suite", str(tmp_path / "s.epd"), "--max-depth", "1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].startswith("1 count of 1 position checked in ")


def test_chess960_suite_id_is_played_as_chess960(cli):
    # c960-518 is the usual start array written with KQkq; from chess960.epd it is Chess960
    result = cli("show", "c960-518", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["chess960"] is True
