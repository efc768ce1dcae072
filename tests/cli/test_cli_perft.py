"""perft, divide and show through click's runner, as ``python -m chesskit`` and as the
``chesskit`` script; divide's plain output against the real Stockfish."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from chesskit.api.counting import default_threads
from helpers import KIWIPETE, TEST_INSTALL, need_module, pc_perft

# Perft Results (chessprogramming.org): independent of chesskit
KNOWN = {
    "startpos": {0: 1, 1: 20, 2: 400, 3: 8902, 4: 197281},
    "kiwipete": {1: 48, 2: 2039, 3: 97862},
    KIWIPETE: {1: 48, 2: 2039, 3: 97862},
}
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
UCI = re.compile(r"[a-h][1-8][a-h][1-8][nbrq]?")
CHESS960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"


def divide_text(moves: dict[str, int]) -> str:
    lines = "".join(f"{m}: {n}\n" for m, n in sorted(moves.items()))
    return f"{lines}\nNodes searched: {sum(moves.values())}\n\n"


# ------------------------------------------------------------------ perft


@pytest.mark.parametrize(
    "position, depth, nodes",
    [(pos, depth, nodes) for pos, table in KNOWN.items() for depth, nodes in table.items()],
)
def test_perft_counts(cli, position, depth, nodes):
    result = cli("perft", position, str(depth))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Nodes searched: {nodes}"
    assert lines[1].startswith("Time: ") and len(lines[1]) == len("Time: 00:00:00.00")
    assert lines[2].startswith("Nodes/second: ") and lines[2].split()[-1].isdigit()
    assert result.stderr == ""


def test_perft_json(cli):
    result = cli("perft", "kiwipete", "2", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"fen", "variant", "depth", "nodes", "seconds", "nps", "notes", "hash_mb", "threads"}
    assert data["fen"] == KIWIPETE
    # the default table at depth 2, and one thread: a tree under 4 plies is not shared out
    assert data["hash_mb"] == 1 and data["threads"] == 1
    deep = json.loads(cli("perft", "startpos", "4", "--json").stdout)
    assert deep["threads"] == default_threads()
    for flag in ("--stats", "--all-depths"):  # the counters' walk: one thread, no table
        counted = json.loads(cli("perft", "kiwipete", "2", flag, "--json").stdout)
        assert (counted["hash_mb"], counted["threads"]) == (0, 1)
    assert (data["depth"], data["nodes"]) == (2, 2039)
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    assert isinstance(data["nps"], int)
    assert result.stdout.count("\n") == 1  # one object, one line


def test_perft_with_moves(cli):
    chess = need_module("chess", TEST_INSTALL)
    result = cli("perft", "startpos", "2", "--moves", "e2e4 e7e5", "--json")
    data = json.loads(result.stdout)
    assert data["fen"].startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq ")
    reference = chess.Board()
    reference.push_uci("e2e4")
    reference.push_uci("e7e5")
    assert data["nodes"] == pc_perft(reference, 2) == 835


def test_perft_chess960(cli):
    # chess960 perft table: 21, 528, 12189
    for flags in ([], ["--chess960"]):
        result = cli("perft", CHESS960, "3", "--json", *flags)
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["nodes"] == 12189


def test_perft_terminal_with_progress(cli, terminal):
    result = cli("perft", "startpos", "5")
    assert result.exit_code == 0, result.stderr
    assert "4865609" in result.stdout
    assert "nodes/second" in result.stdout
    assert "perft 5" in result.stdout


# ------------------------------------------------------------------ divide


def test_divide_plain_is_stockfish_format(cli):
    result = cli("divide", "startpos", "3")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.split("\n")
    move_lines = lines[:20]
    assert move_lines == sorted(move_lines)
    moves = {line.split(": ")[0]: int(line.split(": ")[1]) for line in move_lines}
    assert moves["e2e4"] == 600 and moves["g1f3"] == 440
    assert result.stdout == divide_text(moves)
    assert result.stdout.endswith("\n\nNodes searched: 8902\n\n")


def test_divide_json(cli):
    result = cli("divide", "kiwipete", "2", "--json")
    data = json.loads(result.stdout)
    assert set(data) == {"fen", "variant", "depth", "nodes", "seconds", "nps", "moves", "notes", "hash_mb", "threads"}
    assert len(data["moves"]) == 48
    assert sum(data["moves"].values()) == data["nodes"] == 2039
    assert list(data["moves"]) == sorted(data["moves"])


def test_divide_terminal_table(cli, terminal):
    result = cli("divide", "startpos", "2")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "20 moves" in out and "400" in out and "nodes/second" in out
    rows = [line.split() for line in out.splitlines() if UCI.fullmatch(line.split()[0] if line.split() else "")]
    assert len(rows) == 20
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    assert all(r[1] == "20" for r in rows)


def test_divide_terminal_with_progress(cli, terminal):
    result = cli("divide", "kiwipete", "5", "--moves", "e1g1")
    assert result.exit_code == 0, result.stderr
    assert "divide 5" in result.stdout


def stockfish_divide(stockfish: str, position_cmd: str, depth: int, chess960: bool = False) -> str:
    """What Stockfish prints for ``go perft`` (without its banner)."""
    commands = []
    if chess960:
        commands.append("setoption name UCI_Chess960 value true")
    commands += [position_cmd, f"go perft {depth}", "quit"]
    proc = subprocess.run(
        [stockfish], input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=120
    )
    lines = proc.stdout.splitlines(keepends=True)
    assert lines[0].startswith("Stockfish"), proc.stdout[:200]
    return "".join(lines[1:])


def sorted_move_lines(text: str) -> str:
    """Stockfish's text with its move lines in UCI order: chesskit's only difference."""
    if text.startswith("\n"):  # no legal move: no line to sort
        return text
    block, rest = text.split("\n\n", 1)
    return "\n".join(sorted(block.split("\n"))) + "\n\n" + rest


@pytest.mark.stockfish
@pytest.mark.parametrize(
    "args, position_cmd, depth, chess960",
    [
        (["startpos"], "position startpos", 3, False),
        (["kiwipete"], f"position fen {KIWIPETE}", 2, False),
        ([POSITION_4], f"position fen {POSITION_4}", 2, False),
        ([POSITION_5], f"position fen {POSITION_5}", 2, False),
        (["startpos", "--moves", "e2e4 d7d5 e4e5 f7f5"],
         "position startpos moves e2e4 d7d5 e4e5 f7f5", 2, False),
        ([CHESS960], f"position fen {CHESS960}", 2, True),
        # checkmated: no move line, and one empty line before the total (chesskit printed two)
        (["startpos", "--moves", "f2f3 e7e5 g2g4 d8h4"], "position startpos moves f2f3 e7e5 g2g4 d8h4", 2, False),
    ],
)
def test_divide_matches_stockfish(cli, stockfish_path, args, position_cmd, depth, chess960):
    expected = stockfish_divide(stockfish_path, position_cmd, depth, chess960)
    result = cli("divide", args[0], str(depth), *args[1:])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == sorted_move_lines(expected)


# ------------------------------------------------------------------ show


def test_show_plain(cli):
    result = cli("show", "startpos", "--moves", "e2e4")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.splitlines()[0] == "8  r n b q k b n r"
    assert "4  . . . . P . . ." in out
    assert "side to move: black" in out
    assert "castling: KQkq" in out
    assert "halfmove clock: 0" in out and "fullmove number: 1" in out
    assert "legal moves (20): a7a5 a7a6 b7b5 b7b6 b8a6 b8c6 " in out
    assert "id: startpos after e2e4\n" in out  # it said "id: startpos" for the position after e2e4
    assert "id: kiwipete\n" in cli("show", "kiwipete").stdout


def test_show_json(cli):
    result = cli("show", "kiwipete", "--json")
    data = json.loads(result.stdout)
    assert data["fen"] == KIWIPETE
    assert data["id"] == "kiwipete"
    assert data["turn"] == "white"
    assert data["castling"] == "KQkq"
    assert data["ep"] is None
    assert (data["halfmove"], data["fullmove"]) == (0, 1)
    assert data["chess960"] is False and data["check"] is False
    assert len(data["legal_moves"]) == 48
    assert data["legal_moves"] == sorted(data["legal_moves"])
    assert "e1g1" in data["legal_moves"] and "e1c1" in data["legal_moves"]
    assert data["moves"] == []


def test_show_check_and_mate(cli):
    fools_mate = "f2f3 e7e5 g2g4 d8h4"
    data = json.loads(cli("show", "startpos", "--moves", fools_mate, "--json").stdout)
    assert data["check"] is True and data["legal_moves"] == []
    # the id still names where the moves start: they are beside it (a script read "startpos" alone)
    assert data["id"] == "startpos" and data["moves"] == fools_mate.split()
    assert "side to move: white (checkmate)" in cli("show", "startpos", "--moves", fools_mate).stdout


def test_show_terminal(cli, terminal):
    result = cli("show", "startpos", "--moves", "e2e4 e7e5")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "♚" in out and "♔" in out
    assert "side to move" in out and "white" in out
    assert "g1f3" in out and "legal moves (29)" in out
    assert "startpos after e2e4 e7e5" in out


# ------------------------------------------------------------------ real processes


def test_python_m_chesskit(run_module):
    proc = run_module("perft", "startpos", "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "Nodes searched: 8902"


def test_entry_point_divide(run_entry_point):
    proc = run_entry_point("divide", "kiwipete", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("\nNodes searched: 48\n\n")
    assert len(proc.stdout.splitlines()) == 48 + 3  # moves, blank, Nodes searched, blank


def test_entry_point_json_and_version(run_entry_point):
    proc = run_entry_point("perft", "startpos", "4", "--json")
    assert json.loads(proc.stdout)["nodes"] == 197281
    version = run_entry_point("--version")
    assert version.returncode == 0 and version.stdout.startswith("chesskit, version ")


def test_no_arguments_prints_the_help(cli):
    """`chesskit` alone printed the whole help squeezed into one error line, exit 2."""
    result = cli()
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: chesskit [OPTIONS] COMMAND")
    assert "perft" in result.stdout and result.stderr == ""


def test_help_lists_the_commands(cli):
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("perft", "divide", "suite", "show"):
        assert command in result.stdout


# ------------------------------------------------------------------ positions from the bundled suites


def test_chess960_suite_id_is_played_as_chess960(cli):
    # c960-518 is the usual start array written with KQkq; from chess960.epd it is Chess960
    result = cli("show", "c960-518", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["chess960"] is True


@pytest.mark.parametrize("command", ["perft", "divide"])
def test_json_and_the_terminal_say_what_table_and_threads_the_count_ran_with(cli, command, monkeypatch):
    from chesskit.cli import output

    data = json.loads(cli(command, "kiwipete", "2", "--hash", "16", "--threads", "1", "--json").stdout)
    assert (data["hash_mb"], data["threads"], data["nodes"]) == (16, 1, 2039)
    data = json.loads(cli(command, "kiwipete", "2", "--hash", "0", "--json").stdout)
    assert (data["hash_mb"], data["nodes"]) == (0, 2039)
    monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)
    shown = cli(command, "kiwipete", "2", "--hash", "16", "--threads", "1")
    assert shown.exit_code == 0, shown.stderr
    assert re.search(r"table\s+16 MiB", shown.stdout) and re.search(r"threads\s+1\b", shown.stdout)


@pytest.mark.parametrize(
    "args, flags",
    [
        (["perft", "kiwipete", "3", "--stats", "--hash", "64", "--threads", "2"], "--stats", ),
        (["perft", "kiwipete", "3", "--all-depths", "--threads", "2"], "--all-depths"),
        (["divide", "kiwipete", "2", "--stats", "--hash", "64"], "--stats"),
    ],
)
def test_stats_with_hash_or_threads_is_refused(cli, args, flags):
    # the counters run on one thread without the table: the options were dropped without a
    # word (exit 0, "hash_mb": 0 in --json), where --device gpu refuses them
    result = cli(*args)
    given = " and ".join(flag for flag in ("--hash", "--threads") if flag in args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"chesskit: {flags} counts on one thread without the table: drop {given}\n"
    # what it counts with anyway is no contradiction
    assert cli(args[0], args[1], args[2], flags, "--hash", "0", "--threads", "1").exit_code == 0


def test_a_count_of_hours_is_announced_before_it_starts(cli, monkeypatch):
    from chesskit.cli import long_run

    # startpos 7 (3.2e9 leaves) at 1e5 leaves a second would take about nine hours
    monkeypatch.setattr(long_run, "FAST_LEAVES_PER_THREAD_S", 1e5)
    result = cli("perft", "startpos", "7", "--threads", "1", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["nodes"] == 3_195_901_860
    assert re.fullmatch(
        r"chesskit: note: perft 7 of this position has about [0-9.]+e\+09 leaves \(guessed from shallow counts\): "
        r"at least [0-9]+ (hours|days) on 1 thread at the fastest rate measured \(1e\+05 leaves a second a thread, "
        r"with the table\); Ctrl-C stops it\n",
        result.stderr,
    )
    monkeypatch.setattr(long_run, "FAST_LEAVES_PER_THREAD_S", 8e10)  # the real rate: no word for a short count
    assert cli("perft", "startpos", "7", "--threads", "1").stderr == ""
    assert [long_run.duration(s) for s in (3600, 7200, 3 * 86400, 1e9)] == ["1 hour", "2 hours", "3 days", "32 years"]
