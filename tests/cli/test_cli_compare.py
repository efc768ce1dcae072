"""``chesskit compare`` on the command line: output modes, JSON schema, --moves, bad input, failing engines."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from helpers import BEFORE_EP, ENGINES, EP_FEN, FAKE_UCI, REPO, gone, one_line, pc_divide

NO_EP = str(ENGINES / "bug_no_ep.py")


pytestmark = pytest.mark.usefixtures("no_leftover_children")


# ------------------------------------------------------------------ JSON


def test_json_schema_on_disagreement(cli):
    result = cli("compare", BEFORE_EP, "3", "--script", NO_EP, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    for key, kind in [
        ("agree", bool),
        ("kind", str),
        ("path", list),
        ("fen", str),
        ("missing", list),
        ("extra", list),
        ("steps", list),
    ]:
        assert isinstance(report[key], kind), key
    for key in ("field", "ours", "theirs"):
        assert key in report
    assert report["kind"] == "moves" and report["path"] == ["f7f5"] and report["missing"] == ["e5f6"]
    for step in report["steps"]:
        assert set(step) == {"path", "depth", "ours", "theirs"}
        assert all(isinstance(m, str) and isinstance(n, int) for m, n in step["ours"].items())
        # sorted by move, as divide's "moves" (they were in generation order: chesskit's and
        # the engine's differed, and so did the HTML report's tables drawn from them)
        assert list(step["ours"]) == sorted(step["ours"]) and list(step["theirs"]) == sorted(step["theirs"])
    # the steps are real divides, chesskit's side equal to python-chess's (21690 at the root
    # at depth 3, as Stockfish counts too), and 707 after f7f5 at depth 2
    first, second = report["steps"]
    assert first["ours"] == pc_divide(BEFORE_EP, 3) and sum(first["ours"].values()) == 21690
    assert second["ours"] == pc_divide(BEFORE_EP, 2, ["f7f5"]) and sum(second["ours"].values()) == 707
    assert result.stderr.startswith("chesskit: ") and result.stderr.count("\n") == 1


def test_json_on_agreement(cli):
    result = cli("compare", "startpos", "2", "--python", f"{ENGINES / 'eng_correct.py'}:Adapter", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["agree"] is True and report["kind"] is None
    assert (
        report["path"] == [] and report["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    )
    assert report["missing"] == [] and report["extra"] == []
    assert report["field"] is None and report["ours"] is None and report["theirs"] is None
    assert len(report["steps"]) == 1 and sum(report["steps"][0]["ours"].values()) == 400
    assert result.stderr == ""


# ------------------------------------------------------------------ --moves


def test_moves_prefix_is_part_of_the_path(cli, tmp_path, monkeypatch):
    log = tmp_path / "uci.log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    result = cli(
        "compare",
        "startpos",
        "3",
        "--engine",
        f"{FAKE_UCI} --bug no_ep",
        "--moves",
        "e2e4 d7d5 e4e5",
        "--json",
    )
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["path"] == ["e2e4", "d7d5", "e4e5", "f7f5"]
    assert report["fen"] == EP_FEN
    assert report["steps"][0]["path"] == ["e2e4", "d7d5", "e4e5"]
    sent = log.read_text().splitlines()
    start = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert f"{start} moves e2e4 d7d5 e4e5" in sent
    assert f"{start} moves e2e4 d7d5 e4e5 f7f5" in sent


def test_illegal_move_is_refused_before_the_engine_starts(cli, tmp_path, monkeypatch):
    log = tmp_path / "uci.log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    result = cli("compare", "startpos", "2", "--engine", FAKE_UCI, "--moves", "e2e4 e7e4")
    assert result.exit_code == 2
    assert result.stderr.startswith("chesskit: illegal move 'e7e4' in ")
    assert result.stdout == ""
    assert not log.exists(), "the engine must not see an illegal move list"


# ------------------------------------------------------------------ bad input (exit 2)


@pytest.mark.parametrize(
    "args, message",
    [
        (["startpos", "2"], "give exactly one of --engine, --script, --python, --engine-cmd (got none)"),
        (["startpos", "2", "--engine", "x", "--script", "y"], "got --engine and --script"),
        (
            ["startpos", "2", "--script", NO_EP, "--engine-option", "Hash=1"],
            "--engine-option only applies to --engine",
        ),
        (
            ["startpos", "2", "--engine", FAKE_UCI, "--engine-option", "Hash"],
            "--engine-option must be NAME=VALUE",
        ),
        (["startpos", "0", "--script", NO_EP], "bad depth '0'"),
        (["startpos", "2", "--script", NO_EP, "--timeout", "0"], "bad --timeout '0'"),
        (["nonsense-id", "2", "--script", NO_EP], "unknown position 'nonsense-id'"),
        (["8/8/8/8/8/8/8/8 w - - 0 1", "2", "--script", NO_EP], "invalid FEN"),
        # it sets a --python adapter's full-state sweep: with an engine program it was silently ignored
        (["startpos", "2", "--engine", FAKE_UCI, "--state-pushes", "10"], "--state-pushes sets the full-state sweep"),
    ],
)
def test_bad_input(cli, args, message):
    result = cli("compare", *args)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert result.stderr.count("\n") == 1


# ------------------------------------------------------------------ failing engines (exit 3)


def test_a_uci_engine_slower_to_start_than_the_timeout_is_named_so(cli):
    # its late handshake was read as a console's answers: "answered no perft question
    # chesskit knows as a console (it never said 'uciok'): 'perft 1' gave 'option name ...'"
    # (--late-uci: its handshake comes with chesskit's next command, later than the wait on
    # any machine; a --slow-uci 0.6 started on a loaded CI host had not answered by the last probe)
    result = cli("compare", "startpos", "2", "--engine", f"{FAKE_UCI} --late-uci", "--timeout", "0.3")
    line = one_line(result, 3, "did not say 'uciok' within 0.3 s of 'uci', and printed UCI's handshake after that")
    assert line.endswith("a UCI engine slower to start; give a longer --timeout")


@pytest.mark.parametrize(
    "flags, message",
    [
        (
            ["--engine", str(ENGINES / "fail_exit.py")],
            r"exited with code 1 after 'uci'; last output: 'fail_exit: cannot open",
        ),
        (["--script", str(ENGINES / "fail_exit.py")], r"exited with code 1 for depth 1 on .*; asked after it failed at depth 2 there$"),
        (
            # --timeout 5: the two probes it leaves unanswered wait the whole of it (30 s by default)
            ["--engine", str(ENGINES / "fail_garbage.py"), "--timeout", "5"],
            # detection probes at depth 1: one divide line of count 20 is no start-position divide
            r"answered no perft question chesskit knows in its UCI loop: 'go perft 1' gave 1 divide line; "
            r"'perft 1' gave nothing; 'divide 1' gave nothing; name its dialect with --dialect",
        ),
        (
            ["--script", str(ENGINES / "fail_garbage.py")],
            r"printed a line chesskit cannot parse for depth 1 .*: 'e2e4 - 20'.*; asked after it failed at depth 2 there$",
        ),
        (["--engine", str(ENGINES / "fail_not_executable.py")], r"is not executable"),
        (["--script", str(ENGINES / "no_such_engine")], r"was not found"),
        (["--engine", "no-such-engine-xyz"], r"was not found \(no 'no-such-engine-xyz' on PATH\)"),
        (
            ["--engine", f"{FAKE_UCI} --crash-on-go"],
            r"exited with code 2 after 'go perft 1'; last output: 'fake_uci: simulated crash'",
        ),
        (
            ["--python", f"{ENGINES / 'fail_import.py'}:Adapter"],
            r"could not be imported: ImportError: this adapter needs libfoo",
        ),
        (
            ["--python", f"{ENGINES / 'fail_adapters.py'}:RaisesInPush"],
            r"raised ValueError in push\('\w+'\): capture \w+ not implemented",
        ),
        (
            ["--python", f"{ENGINES / 'fail_adapters.py'}:BadMoves"],
            r"legal_moves\(\) returned 12, which is not a UCI move string",
        ),
    ],
)
def test_failing_engine_exit_3(cli, flags, message):
    result = cli("compare", "kiwipete", "2", *flags)
    assert result.exit_code == 3, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("chesskit: engine ")
    assert re.search(message, lines[0]), lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("flag", ["--engine", "--script"])
def test_hanging_engine_is_killed_after_timeout(cli, flag, tmp_path, monkeypatch):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("CHESSKIT_HANG_PIDFILE", str(pidfile))
    started = time.monotonic()
    result = cli("compare", "startpos", "3", flag, str(ENGINES / "fail_hang.py"), "--timeout", "1")
    assert result.exit_code == 3
    assert time.monotonic() - started < 60  # generous: the first run may compile the move generator
    assert "within 1 s" in result.stderr and result.stderr.count("\n") == 1
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.monotonic() + 3
    while not all(gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(pid) for pid in pids), "the engine or a helper it started is still running"


def test_hanging_adapter_times_out(cli):
    result = cli(
        "compare",
        "startpos",
        "2",
        "--python",
        f"{ENGINES / 'fail_adapters.py'}:HangsInLegalMoves",
        "--timeout",
        "1",
    )
    assert result.exit_code == 3
    assert "did not finish" in result.stderr and "within 1 s" in result.stderr


# ------------------------------------------------------------------ human output


def test_plain_report(cli):
    result = cli("compare", BEFORE_EP, "3", "--script", NO_EP)
    assert result.exit_code == 1
    text = result.stdout
    assert text.startswith("DISAGREE: the move lists differ after f7f5\n")
    assert "\npath: f7f5\n" in text
    assert f"\nfen: {EP_FEN}\n" in text
    board = "\n".join(
        [
            "  8  r  n  b  q  k  b  n  r",
            "  7  p  p  p  .  p  .  p  p",
            "  6  .  .  .  .  . (.) .  .",
            "  5  .  .  .  p (P) p  .  .",
            "  4  .  .  .  .  .  .  .  .",
        ]
    )
    assert board in text  # the failing node, e5 and f6 marked
    assert "missing (1): chesskit generates, the engine does not" in text
    assert "  e5f6   capture, en passant\n         hint: en-passant capture not generated" in text
    assert "counts at each step:\ndepth 3 after (start):\n" in text
    assert "\ndepth 2 after f7f5:\n" in text
    # rows sorted by UCI as in divide; the missing move between its neighbours, marked
    assert "\n  e5e6           21        21\n  e5f6           29         -  <\n  f1a6  " in text
    assert "\n  total         707       678\n" in text
    assert result.stderr.startswith(f"chesskit: {NO_EP} misses e5f6 after f7f5")


def test_plain_state_report(cli):
    result = cli("compare", EP_FEN, "2", "--python", f"{ENGINES / 'bug_ep_not_restored.py'}:Adapter")
    assert result.exit_code == 1
    text = result.stdout
    assert text.startswith("DISAGREE: the en-passant square differs after pop g1h3\n")
    assert "after: pop g1h3\nfield: ep\nours: f6\ntheirs: -\n" in text
    assert "hint: unmake (pop g1h3) does not restore the en-passant square" in text


def test_terminal_report(cli, terminal):
    result = cli("compare", BEFORE_EP, "3", "--script", NO_EP, env={"COLUMNS": "200"})
    assert result.exit_code == 1
    text = result.stdout
    for needle in (
        "DISAGREE",
        "descent",
        "path f7f5",
        EP_FEN,
        "missing",
        "e5f6",
        "en passant",
        "en-passant capture not generated",
        "♙",
    ):
        assert needle in text, needle


def test_terminal_agreement(cli, terminal):
    result = cli("compare", "kiwipete", "1", "--script", str(ENGINES / "eng_correct.py"))
    assert result.exit_code == 0, result.stderr
    assert "agree" in result.stdout


def test_as_a_real_process(run_module):
    proc = run_module("compare", BEFORE_EP, "2", "--engine", f"{FAKE_UCI} --bug no_ep", "--json")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["path"] == ["f7f5"] and report["missing"] == ["e5f6"]
    assert proc.stderr.count("\n") == 1


# ------------------------------------------------------------------ report lines


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


def test_a_state_that_differs_after_a_push_is_not_said_to_have_been_compared_after_its_pop(cli):
    # "full state compared after 1 push and its pop", where the push itself differed
    fen = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"  # the drop leaves the knight in its pocket
    result = cli("compare", fen, "2", "--variant", "crazyhouse", "--python", f"{ENGINES / 'vbug_drop_keeps_piece.py'}:Adapter")
    assert result.exit_code == 1
    assert "DISAGREE: the pockets differ after push N@" in result.stdout, result.stdout
    found = re.search(r"\nfull state compared after (\d+) pushes and (\d+) pops?: it differed after the last push\n", result.stdout)
    assert found and int(found[2]) == int(found[1]) - 1, result.stdout


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


def test_json_md_names_every_key_of_a_total_only_compare(cli):
    # a total-only engine's disagreement may have empty "missing" and "extra": its
    # "total_only", "move_counts", "inferred", "unnamed_*" and each step's "theirs_total"
    # say what it found, and json.md's compare row named none of them
    engine = f"{sys.executable} {ENGINES / 'fake_perft.py'} --command perft --total-only --total bare --bug no_ep"
    result = cli("compare", EP_FEN, "2", "--engine", engine, "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert (data["total_only"], data["move_counts"], data["missing"]) == (True, {"chesskit": 31, "engine": 30}, ["e5f6"])
    row = next(line for line in (REPO / "docs" / "json.md").read_text().splitlines() if line.startswith("| `compare` |"))
    assert [key for key in data if f'"{key}"' not in row] == []
    assert [key for step in data["steps"] for key in step if f'"{key}"' not in row] == []


def test_a_perftree_script_given_as_an_engine_is_told_to_use_script(cli):
    # "exited with code 1 after 'uci'; last output: 'IndexError: list index out of range'" said no more
    result = cli("compare", "startpos", "2", "--engine", f"{sys.executable} {ENGINES / 'eng_correct.py'}")
    line = one_line(result, 3, "exited with code 1 after 'uci'", "IndexError")
    assert line.endswith("(if it is a perftree script, its depth, FEN and moves as arguments, give it with --script)")
    # an engine that says why it stops gets no such hint
    result = cli("compare", "startpos", "2", "--engine", f"{sys.executable} {ENGINES / 'fail_exit.py'}")
    assert "--script" not in one_line(result, 3, "cannot open network file")


def test_one_hint_for_many_moves_is_said_once_after_them(cli):
    """Every move of the third queen is missing: each is listed, and their one hint is said
    once, with how many moves it is for (it was repeated 15 times, once per move)."""
    result = cli("compare", "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1", "1", "--engine", f"{FAKE_UCI} --bug three_queens")
    assert result.exit_code == 1
    assert "missing (15): chesskit generates, the engine does not" in result.stdout
    assert result.stdout.count("hint") == 1
    assert "  c1c8   -\n         hint (15 moves): legal queen move not generated\n" in result.stdout


def test_a_total_only_engines_illegal_move_is_named_as_likely_where_it_can_be(cli):
    """Totals name no move; but where the moves that leave the king in check (the king's
    own steps left out) are just as many as the engine has too many, they are named as the
    likely ones: here the en passant along the rank that Sjeng-like engines take."""
    fen = "8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2"
    engine = f"{sys.executable} {ENGINES / 'fake_perft.py'} --total-only --bug ep_rank_pin"
    result = cli("compare", fen, "2", "--engine", engine)
    assert result.exit_code == 1
    assert "the engine generates 1 illegal move(s); totals cannot name them\nlikely b5c6: the one move here that leaves the king in check" in result.stdout
    data = json.loads(cli("compare", fen, "2", "--engine", engine, "--json").stdout)
    assert data["likely_extra"] == ["b5c6"] and data["unnamed_extra"] == 1


def test_a_total_only_engines_likely_illegal_king_step_is_called_one(cli):
    # QA 40b #2: the likely moves were always called "a pinned piece's, or en passant",
    # king steps into check too
    engine = f"{sys.executable} {ENGINES / 'fake_perft.py'} --total-only --bug edge_knight"
    result = cli("compare", "8/8/8/7n/8/4K3/8/k7 w - - 0 1", "1", "--engine", engine)
    assert result.exit_code == 1
    assert (
        "likely e3f4: the one move here that leaves the king in check, as many as the engine has too many "
        "(the king's steps into check: the engine does not test the squares its king moves to)"
    ) in result.stdout


@pytest.mark.parametrize("flag", ["--engine", "--script"])
def test_an_engine_argument_left_unquoted_is_told_to_go_with_its_command(cli, flag):
    # QA 40b #9: click offered "Did you mean '--moves'?" for the engine's own --mode
    result = cli("compare", "pos5", "2", flag, "./eng", "--mode", "total")
    one_line(result, 2, f"No such option '--mode': the engine's own arguments go in one quoted word with its command ({flag} './eng --mode ...')")
    assert "Did you mean '--moves'?" in cli("compare", "pos5", "2", "--mode", "total").stderr  # no engine before it
