"""--variant on every command (cli/options.variant_option): the option is there, an unknown
name is one line listing the known ones (exit 2), an alias of standard chess counts as
before, and the options that count standard chess only refuse a variant."""

from __future__ import annotations

import json

import pytest

import chesskit
from chesskit.cli.main import COMMANDS
from chesskit.errors import InputError
from helpers import ENGINES, one_line

VARIANT_COMMANDS = ["perft", "divide", "show", "debug", "suite", "compare", "fuzz", "explore", "bench"]


def test_every_command_takes_variant(cli):
    assert sorted(VARIANT_COMMANDS) == sorted(COMMANDS)
    for command in VARIANT_COMMANDS:
        result = cli(command, "--help")
        assert result.exit_code == 0
        assert "--variant NAME" in result.stdout, command
        assert "racingkings" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "startpos", "1"],
        ["divide", "startpos", "1"],
        ["show", "startpos"],
        ["debug", "startpos", "1"],
        ["suite"],
        ["compare", "startpos", "1", "--engine", "stockfish"],
        ["fuzz", "--engine", "stockfish"],
        ["explore", "startpos", "--repl"],
        ["bench"],
    ],
    ids=lambda args: args[0],
)
def test_unknown_variant_is_one_line(cli, args):
    result = cli(*args, "--variant", "shogi")
    one_line(result, 2, "unknown variant 'shogi'", "known variants: chess, atomic, crazyhouse", "atomic960")
    assert result.stdout == ""


def test_no_960_form_without_castling(cli):
    one_line(cli("perft", "startpos", "1", "--variant", "racingkings960"), 2, "racingkings has no castling")


@pytest.mark.parametrize("variant", ["racingkings", "antichess"])
def test_no_chess960_flag_without_castling(cli, variant):
    # the flag asks what the 960 name asks, and is refused the same way
    one_line(cli("perft", "startpos", "1", "--variant", variant, "--chess960"), 2, f"{variant} has no castling")


@pytest.mark.parametrize("variant", ["racingkings", "antichess"])
def test_fuzz_refuses_chess960_without_castling(cli, variant):
    # fuzz took the flag and generated "Chess960" positions of a variant that has none
    result = cli("fuzz", "--script", str(ENGINES / "vpchelper.py"), "--variant", variant, "--chess960", "--positions", "1")
    one_line(result, 2, f"{variant} has no castling, so it has no Chess960 form")


@pytest.mark.parametrize("name", ["chess", "standard", "Normal", "from-position"])
def test_standard_chess_by_any_name_counts_as_before(cli, name):
    # 8902: perft 3 of the start position (published, Stockfish)
    result = cli("perft", "startpos", "3", "--variant", name)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Nodes searched: 8902"


@pytest.mark.parametrize(
    "args, words",
    [
        (["perft", "startpos", "1", "--device", "gpu"], ["--device gpu", "standard chess only"]),
        (["divide", "startpos", "1", "--device", "gpu"], ["--device gpu", "standard chess only"]),
        (["perft", "startpos", "1", "--workers", "2"], ["cluster options", "standard chess only"]),
        (["bench", "--vs", "stockfish"], ["--vs stockfish", "standard chess only"]),
    ],
)
def test_standard_only_options_refuse_a_variant(cli, args, words):
    one_line(cli(*args, "--variant", "atomic"), 2, *words)


@pytest.mark.parametrize("variant, give", [("atomic960", "--variant atomic"), ("chess960", "no --variant")])
def test_bench_refuses_a_960_form_naming_what_to_give(cli, variant, give):
    # it said "give Chess960 as its own flag here", and bench has no such flag
    line = one_line(cli("bench", "--depth-offset", "-5", "--variant", variant), 2, give)
    assert "own flag" not in line


@pytest.mark.variant_walk
def test_bench_variant_rows_keep_their_columns_and_json_names_the_variant(cli):
    # the row's id was "atomic startpos": six fields under a five-column header, and
    # --json had no "variant"
    piped = cli("bench", "--depth-offset", "-3", "--variant", "atomic")
    assert piped.exit_code == 0, piped.output
    lines = [line.split() for line in piped.stdout.splitlines()]
    assert lines[0] == ["position", "depth", "nodes", "seconds", "mnps", "variant"]
    assert all(len(row) == len(lines[0]) for row in lines[1:])
    assert lines[1][0] == "startpos" and lines[1][-1] == "atomic"
    report = json.loads(cli("bench", "--depth-offset", "-3", "--variant", "atomic", "--json").stdout)
    assert report["variant"] == "atomic"
    assert report["positions"][0]["id"] == "startpos"
    assert "variant" not in json.loads(cli("bench", "--depth-offset", "-5", "--json").stdout)


def test_api_takes_variant():
    assert chesskit.perft("startpos", 2, variant="standard") == 400
    with pytest.raises(InputError, match="unknown variant 'shogi'"):
        chesskit.perft("startpos", 1, variant="shogi")
    with pytest.raises(InputError, match="unknown variant"):
        chesskit.divide("startpos", 1, variant="nope")


def test_suite_variant_is_the_default_rules(tmp_path):
    from chesskit.suites.session import prepare

    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    suite = tmp_path / "mine.epd"
    # 3+3: three-check's counters, read because --variant says the file is three-check
    suite.write_text(f"{start} w KQkq - 3+3 ;D1 20\n{start} w KQkq - ;D1 20 ;variant atomic\n")
    planned = prepare([suite], variant="threecheck")
    assert [t.record.variant for t in planned.tasks] == ["3check", "atomic"]
    assert planned.errors == []
    standard = prepare([suite])  # without --variant the counters are not standard chess
    assert [t.record.variant for t in standard.tasks] == ["atomic"]
    assert "only 3check counts checks" in str(standard.errors[0])


def test_suite_variant_without_path_runs_the_bundled_variant_suites():
    from chesskit.suites.positions import variant_suites

    assert [p.name for p in variant_suites("atomic")] == ["atomic.epd", "atomic960.epd"]
    assert [p.name for p in variant_suites("koth")] == ["kingofthehill.epd"]
    assert [p.name for p in variant_suites("crazyhouse960")] == ["crazyhouse960.epd"]
