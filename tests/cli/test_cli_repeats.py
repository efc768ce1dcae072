"""An option given twice with different values is bad input (exit 2), not the last value
kept silently: ``fuzz --chess960 --no-chess960`` ran both kinds of position, ``show
--moves e2e4 --moves d2d4`` played d2d4 alone (each exited 0 before)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import one_line

CORRECT = str(Path(__file__).resolve().parents[1] / "engines" / "eng_correct.py")
FUZZ_ONE = ["fuzz", "--script", CORRECT, "--positions", "1", "--depth", "1", "--seed", "1"]


@pytest.mark.parametrize(
    "args, words",
    [
        (FUZZ_ONE + ["--chess960", "--no-chess960"],
         ["--chess960 and --no-chess960 contradict each other", "chesskit fuzz --help"]),
        (FUZZ_ONE + ["--no-chess960", "--chess960"], ["--no-chess960 and --chess960 contradict each other"]),
        (["show", "startpos", "--moves", "e2e4", "--moves", "d2d4"],
         ["--moves is given twice, as 'e2e4' and 'd2d4': give it once", "chesskit show --help"]),
        (["perft", "startpos", "1", "--hash", "1", "--hash=2"], ["--hash is given twice, as '1' and '2'"]),
        (["divide", "startpos", "1", "--variant", "atomic", "--variant", "horde"], ["--variant is given twice"]),
        (["compare", "startpos", "1", "--script", CORRECT, "--timeout", "5", "--timeout", "9"],
         ["--timeout is given twice"]),
        (["suite", "--max-nodes", "10", "--max-nodes", "20"], ["--max-nodes is given twice"]),
    ],
)
def test_an_option_given_twice_with_different_values_is_bad_input(cli, args, words):
    result = cli(*args)
    one_line(result, 2, *words)
    assert result.stdout == ""


def test_repeats_that_cannot_conflict_still_run(cli):
    # the same value twice, a repeatable option, a value that looks like an option
    result = cli("perft", "startpos", "1", "--hash", "0", "--hash=0", "--stats", "--stats")
    assert result.exit_code == 0, result.stderr
    assert "20" in result.stdout
    result = cli("show", "startpos", "--moves", "e2e4", "--json", "--json")
    assert result.exit_code == 0, result.stderr
    assert '"turn": "black"' in result.stdout


def test_help_is_still_help(cli):
    result = cli("fuzz", "--chess960", "--no-chess960", "--help")
    assert result.exit_code == 0
    assert "Only Chess960 positions" in result.stdout


@pytest.mark.parametrize("variant", ["chess960", "atomic960"])
def test_fuzz_a_960_form_with_no_chess960_is_bad_input(cli, variant):
    # the 960 form won silently: Chess960 positions only, --no-chess960 ignored
    result = cli(*FUZZ_ONE, "--variant", variant, "--no-chess960")
    one_line(result, 2, f"--variant {variant} and --no-chess960 contradict each other")
    assert result.stdout == ""
