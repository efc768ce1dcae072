"""The seven engine options as one object (issue 25 item 7), shared by compare, suite and fuzz."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from chesskit.cli.compare_cmd import compare
from chesskit.cli.engine_options import EngineOptions, engine_options
from chesskit.cli.fuzz_cmd import fuzz
from chesskit.cli.suite_cmd import suite
from helpers import ENGINES, STOCKFISH_FALLBACK, find_stockfish, need_program, one_line, subprocess_env


def _received(args):
    seen = []

    @click.command()
    @engine_options
    def probe(engine_opts):
        seen.append(engine_opts)

    result = CliRunner().invoke(probe, args)
    assert result.exit_code == 0, result.output
    return seen[0]


def test_the_options_arrive_as_one_object():
    got = _received(
        ["--engine", "stockfish", "--engine-option", "Threads=2", "--engine-option", "Hash=16", "--timeout", "7"]
    )
    assert got == EngineOptions(engine="stockfish", engine_options=("Threads=2", "Hash=16"), timeout="7")
    assert got.given


def test_given_means_an_engine_was_asked_for():
    assert not _received([]).given
    assert not _received(["--timeout", "5"]).given  # --timeout alone: chesskit counts itself
    for args in (["--script", "x"], ["--python", "m:A"], ["--engine-cmd", "e {fen}"], ["--dialect", "uci-perft"],
                 ["--engine-option", "Hash=1"]):
        assert _received(args).given, args


def test_every_engine_command_takes_the_same_options():
    names = {"engine", "dialect", "engine_cmd", "script", "python_spec", "engine_options", "timeout"}
    for command in (compare, suite, fuzz):
        params = {param.name for param in command.params}
        assert names <= params, command.name


@pytest.mark.parametrize(
    "option",
    ["Hash=16\nquit", "Hash=16\r\nsetoption name Threads value 9", "Hash\nquit=16", "Skill Level=3\x1b", "Hash=1\u2028go"],
)
def test_an_engine_option_with_a_line_break_is_refused_before_the_engine_starts(option):
    """issue 27 item 17: a newline in --engine-option injected a UCI command of its own
    ("quit", "go ..."); now exit 2 and one line, and the engine is never started."""
    result = subprocess.run(
        [sys.executable, "-m", "chesskit", "compare", "startpos", "1",
         "--engine", f"{sys.executable} {ENGINES / 'fake_uci.py'}", "--engine-option", option],
        capture_output=True, text=True, env=subprocess_env(), timeout=60,
    )
    one_line(result, 2, "--engine-option", "line break", repr(option.partition("=")[0]
                                                                + "=" + option.partition("=")[2].strip())[:8])
    assert result.stdout == ""


def test_engine_cmd_help_says_how_the_template_is_split_and_run(tmp_path):
    # the help names the split (a shell line's words, no shell) and what is replaced; any
    # other text, `{}` and `*` included, reaches the command as written, as the help says
    for command in (compare, suite, fuzz):
        text = " ".join(CliRunner().invoke(command, ["--help"], terminal_width=200).output.split())
        assert "split into words like a shell line" in text and "no shell runs" in text, text
        assert "{variant}" in text and "other text, {} included, is passed as written" in text, text
    record = tmp_path / "argv.txt"
    script = tmp_path / "total.py"
    script.write_text(f"import sys\nopen({str(record)!r}, 'w').write(repr(sys.argv[1:]))\nprint(20)\n")
    from chesskit import Engine

    with Engine(engine_cmd=f"{sys.executable} {script} '{{fen}}' {{depth}} {{}} '*' \"a b\"") as engine:
        assert engine.perft("startpos", 1) == 20
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert record.read_text() == repr([start, "1", "{}", "*", "a b"])


def test_an_option_the_engine_does_not_offer_is_bad_input(cli):
    # the user's typo, not a failing engine: it was exit 3
    engine = find_stockfish() or need_program(STOCKFISH_FALLBACK)
    result = cli("compare", "startpos", "2", "--engine", engine, "--engine-option", "Nope=1")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"chesskit: engine {engine!r} has no option 'Nope' (it offers: ")
    result = cli("compare", "startpos", "2", "--engine", engine, "--engine-option", "Hash=abc")
    assert result.exit_code == 2
    assert "option 'Hash' (spin) takes an integer" in result.stderr


def test_an_engine_option_given_twice_with_two_values_is_refused(cli):
    # both were sent, the engine kept the last, and nothing said so
    result = cli("compare", "startpos", "1", "--engine", "stockfish", "--engine-option", "Threads=2",
                 "--engine-option", "threads=3")
    one_line(result, 2, "--engine-option threads is given twice, as '2' and '3'")
    from chesskit.compare.engines import parse_options

    assert parse_options(["Hash=16", "hash=16", "Threads=1"]) == {"Hash": "16", "Threads": "1"}  # the same value twice is fine


class _Detected:
    def __init__(self, seconds):
        self.detect_seconds = seconds


@pytest.mark.parametrize("seconds, detected, said", [(3.24, True, True), (1.5, True, False), (3.24, False, False)])
def test_the_dialect_note_says_a_slow_detection_and_how_to_skip_it(capsys, seconds, detected, said):
    from chesskit.cli.engine_options import note_dialect

    spoken = {"name": "uci-perft-total", "detected": detected, "about": "bare 'perft N' in the UCI loop, total only"}
    note_dialect(spoken, False, _Detected(seconds))
    err = capsys.readouterr().err
    line = "chesskit: finding the engine's dialect took 3.2 s; --dialect uci-perft-total skips that"
    assert (line in err) is said, err
    note_dialect(spoken, True, _Detected(seconds))  # --json: no note
    assert capsys.readouterr().err == ""
