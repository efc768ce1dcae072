"""Where an engine's answer ends (issue 27 items 10 and 11): an answer cut short, or
misread, must never be reported as a bug (a false exit 1).

The stand-ins are tests/engines/fake_perft.py with --ready-midway (readyok in the middle of
a divide without a total line), --prompt (a console prompt without a line end),
--total-first and --depth-echo (a bare number before the answer). Counts are checked
against Stockfish's own 'go perft'.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from helpers import ENGINES, one_line

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
STOCKFISH = "/usr/games/stockfish"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
BARE_KINGS = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
NO_EP = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"

needs_stockfish = pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="needs Stockfish")


def run(*args: str) -> subprocess.CompletedProcess:
    """``chesskit ARGS`` through click's runner, in this process: what these tests check is
    how an engine's answers are read, which a process of its own proves no better (issue 25:
    0.4 s of CPU per run saved); the engine is a real child process either way."""
    from chesskit.cli.main import main

    result = CliRunner().invoke(main, list(args), prog_name="chesskit")
    return subprocess.CompletedProcess(["chesskit", *args], result.exit_code, result.stdout, result.stderr)


def stockfish_divide(fen: str, depth: int) -> dict[str, int]:
    out = subprocess.run(
        [STOCKFISH], input=f"position fen {fen}\ngo perft {depth}\nquit\n", capture_output=True, text=True, timeout=60
    ).stdout
    found = {}
    for line in out.splitlines():
        move, sep, count = line.partition(": ")
        if sep and count.strip().isdigit() and len(move) in (4, 5):
            found[move] = int(count)
    return found


def assert_agrees_with_stockfish(result, fen: str, depth: int) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert data["agree"]
    assert data["steps"][0]["theirs"] == stockfish_divide(fen, depth)


@needs_stockfish
@pytest.mark.parametrize("dialect", [[], ["--dialect", "uci-perft"]], ids=["detected", "named"])
def test_readyok_in_the_middle_of_a_divide_without_total_does_not_cut_it(dialect):
    """Before: the answer ended at readyok, and the moves after it were reported missing."""
    engine = f"{FAKE} --ready-midway --total none"
    for fen, depth in ((BARE_KINGS, 2), (KIWIPETE, 1)):
        result = run("compare", fen, str(depth), "--engine", engine, *dialect, "--json")
        assert_agrees_with_stockfish(result, fen, depth)


def test_a_divide_that_may_be_cut_short_is_never_reported_as_a_bug():
    """A buggy engine (no en passant) printing from a thread without a total line: its
    missing move cannot be told from a list cut short, so the run fails (exit 3), saying so."""
    engine = f"{FAKE} --ready-midway --total none --bug no_ep"
    one_line(run("compare", NO_EP, "1", "--engine", engine), 3, "may be incomplete", "no total line")


def test_fuzz_finds_nothing_in_a_correct_engine_whose_answers_outlast_readyok():
    result = run("fuzz", "--engine", f"{FAKE} --ready-midway --total none", "--positions", "4", "--depth", "1",
                 "--seed", "7", "--json")
    assert result.returncode == 0, result.stdout + result.stderr


@needs_stockfish
@pytest.mark.parametrize(
    "quirk",
    [["--prompt", "perft> "], ["--prompt", "> "], ["--total-first"], ["--depth-echo"], ["--depth-echo", "--total-first"]],
    ids=["prompt", "short-prompt", "total-first", "depth-echo", "echo-and-total-first"],
)
@pytest.mark.parametrize("command", ["perft", "divide"])
def test_console_answers_are_read_whole(quirk, command):
    """Before: a prompt ate each answer's first line, a total before the divide ended the
    answer (its lines went to the next one), a bare depth was taken as the total: exit 1."""
    engine = " ".join([FAKE, "--loop", "console", "--command", command, *(f"'{q}'" for q in quirk)])
    for fen, depth in ((KIWIPETE, 2), (BARE_KINGS, 3)):
        result = run("compare", fen, str(depth), "--engine", engine, "--json")
        assert_agrees_with_stockfish(result, fen, depth)
        assert json.loads(result.stdout)["dialect"]["name"] == f"console-{command}"


@needs_stockfish
@pytest.mark.parametrize("loop", ["console", "uci"])
def test_dialect_detection_waits_as_long_as_timeout_says(loop):
    """issue 27 item 9: detection gave up on an engine slower than a fixed 2 s whatever
    --timeout said ("gave nothing", exit 3); now a probe's first answer gets --timeout.
    The engine thinks 2.5 s before each answer: past the old 2 s however fast the machine
    (a sleep is never shorter), and each second more was only waited (issue 25)."""
    engine = f"{FAKE} --loop {loop} --command divide --slow 2.5" + (" --threaded" if loop == "uci" else "")
    result = run("compare", BARE_KINGS, "2", "--engine", engine, "--timeout", "40", "--json")
    assert_agrees_with_stockfish(result, BARE_KINGS, 2)
    assert json.loads(result.stdout)["dialect"]["name"] == f"{loop}-divide"
    # and a --timeout shorter than the engine is still honoured
    one_line(run("compare", BARE_KINGS, "1", "--engine", engine, "--timeout", "1"), 3)
