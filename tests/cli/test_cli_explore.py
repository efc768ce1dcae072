"""``chesskit explore`` in line mode (--repl, and whenever stdin or stdout is not a terminal):
perftree's commands read from stdin, counts checked against python-chess."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers import ENGINES, KIWIPETE, STARTPOS, one_line, pc_divide, subprocess_env

pytestmark = pytest.mark.usefixtures("no_leftover_children")

NO_EP = f"{ENGINES / 'bug_no_ep.py'}:Adapter"


def total(out: str) -> list[int]:
    """The chesskit column of every ``total`` line printed."""
    return [int(m.group(1)) for m in re.finditer(r"^total\s+(\d+)", out, re.M)]


def rows(out: str, move: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines() if line.split()[:1] == [move]]


def test_perftree_commands_walk_chesskits_tree(cli):
    commands = ["go", "child e2e4", "depth 2", "go", "parent", "moves e2e4 e7e5 Nf3", "fen", "depth 1", "go", "fen kiwipete", "go"]
    result = cli("explore", "startpos", "2", input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.stderr
    after_nf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert total(result.stdout) == [
        sum(pc_divide(STARTPOS, 2).values()),
        sum(pc_divide(STARTPOS, 2, ["e2e4"]).values()),
        sum(pc_divide(after_nf3, 1).values()),
        sum(pc_divide(KIWIPETE, 1).values()),
    ]
    lines = result.stdout.splitlines()
    assert "start > 1. e4 (e2e4)  depth 1" in lines
    assert "start  depth 2" in lines  # parent gives back the depth the node had (not 2 + 1)
    assert "e2e4 e7e5 g1f3" in lines and after_nf3 in lines and KIWIPETE in lines
    assert rows(result.stdout, "e2e4")[0] == ["e2e4", "e4", str(pc_divide(STARTPOS, 2)["e2e4"])]


def test_an_engines_counts_beside_chesskits_and_auto_lands_on_the_missing_move(cli):
    result = cli("explore", "kiwipete", "2", "--python", NO_EP, "--state-pushes", "0", "--repl", input="go\nauto\ndiff\nparent\ndiff\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    expected = pc_divide(KIWIPETE, 2)
    assert rows(out, "a2a4")[0] == ["a2a4", "a4", str(expected["a2a4"]), str(expected["a2a4"] - 1), "differs"]
    assert rows(out, "e1g1")[0] == ["e1g1", "O-O", str(expected["e1g1"]), str(expected["e1g1"])]
    assert f"{NO_EP} misses b4a3 after a2a4" in out and "en passant" in out
    assert "start > 1. a4 (a2a4)  depth 1" in out
    # after auto: the node's table, then diff's: only the missing move and the totals
    assert rows(out, "b4a3")[-1] == ["b4a3", "bxa3", "1", "-", "missing"]
    diff_after_parent = out.rsplit("start  depth 2", 1)[1]
    assert [r[0] for r in (line.split() for line in diff_after_parent.splitlines()[2:])] == ["move", "a2a4", "total"]


def test_a_bad_command_is_one_line_and_the_rest_runs(cli):
    result = cli("explore", "startpos", "1", input="child zz\nfrobnicate\ndepth x\nparent\ndiff\ngo\n")
    assert result.exit_code == 2
    errors = result.stderr.splitlines()
    assert len(errors) == 5 and all(line.startswith("chesskit: ") for line in errors), errors
    assert "illegal move 'zz'" in errors[0] and "unknown command 'frobnicate'" in errors[1]
    assert "bad depth 'x': an integer from 1 to 100" in errors[2]  # the range that 'depth 0' names too
    assert "already at the root" in errors[3] and "no engine" in errors[4]
    assert total(result.stdout) == [20]


def test_an_engine_that_fails_leaves_chesskits_counts_and_exit_3(cli):
    result = cli("explore", "startpos", "1", "--script", str(ENGINES / "fail_exit.py"), input="go\nchild e4\ngo\n")
    assert result.exit_code == 3
    assert total(result.stdout) == [20, 20]
    errors = result.stderr.splitlines()
    assert len(errors) == 2 and all("fail_exit.py" in line and "exited with code 1" in line for line in errors)


def test_a_pipe_gets_the_line_mode_without_asking():
    # a real process with stdin and stdout pipes: no full screen, no --repl needed
    done = subprocess.run(
        [sys.executable, "-m", "chesskit", "explore", "kiwipete", "1"],
        input="go\nquit\ngo\n",
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert total(done.stdout) == [48] and "\x1b[" not in done.stdout  # quit ends it; no escape codes


@pytest.mark.parametrize("repl", [[], ["--repl"]])
def test_a_closed_stdin_is_no_input(repl):
    # `explore startpos 1 <&-` was an internal error (exit 70): sys.stdin is None then
    import os

    done = subprocess.run(
        [sys.executable, "-m", "chesskit", "explore", "startpos", "1", *repl],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=300,
        preexec_fn=lambda: os.close(0),
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize(
    "args, words",
    [
        (["startpos", "0"], ["bad depth '0'"]),
        (["startpos", "2", "--engine", "stockfish", "--script", "x"], ["give exactly one of"]),
        (["startpos", "2", "--state-pushes", "-1"], ["--state-pushes"]),
        # no --python adapter: it would change nothing (it was silently ignored)
        (["startpos", "2", "--state-pushes", "5"], ["--state-pushes", "--python adapter"]),
        (["nosuchid"], ["nosuchid"]),
    ],
)
def test_bad_arguments_are_one_line_exit_2(cli, args, words):
    one_line(cli("explore", *args, input="go\n"), 2, *words)


@pytest.mark.parametrize("mode", [[], ["--json"]])
@pytest.mark.parametrize("stdin", ["", "go\n"])
def test_an_engine_option_the_engine_does_not_offer_is_bad_input_before_anything_runs(cli, mode, stdin):
    # it was exit 3 after a divide with '-' for every engine count, and exit 0 with nothing
    # said at all on an empty stdin; compare gives 2 (docs/exit-codes.md)
    engine = f"{sys.executable} {ENGINES / 'fake_uci.py'}"
    result = cli("explore", "startpos", "1", "--engine", engine, "--engine-option", "Nope=1", *mode, input=stdin)
    one_line(result, 2, "has no option 'Nope'")
    assert result.stdout == ""


@pytest.mark.parametrize("flag", ["--engine", "--script"])
def test_an_engine_that_is_not_there_is_one_line_exit_3_even_with_nothing_to_count(cli, flag):
    # with an empty stdin it was exit 0 and not a word: the engine was first tried at 'go'
    result = cli("explore", "startpos", "2", flag, "/no/such/engine", input="")
    one_line(result, 3, "'/no/such/engine' was not found")
    assert result.stdout == ""


def test_ctrl_c_during_go_stops_that_count_and_the_session_goes_on():
    # Ctrl-C during a long 'go' ended the whole session ('chesskit: interrupted', exit 130)
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "chesskit", "explore", "startpos", "1", "--repl"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=subprocess_env(),
    )
    try:
        proc.stdin.write("depth 8\ngo\n")  # 84,998,978,956 leaves: minutes
        proc.stdin.flush()
        assert proc.stdout.readline() == "8\n"
        time.sleep(2)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.5)
        proc.stdin.write("depth 2\ngo\nquit\n")
        proc.stdin.close()
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.wait(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert err == "chesskit: go cancelled (Ctrl-C)\n"
    assert total(out) == [400]


def test_quit_is_case_insensitive_as_the_other_commands_are(cli):
    result = cli("explore", "startpos", "1", input="QUIT\ngo\n")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")  # it said: unknown command 'QUIT'


def test_other_commands_never_load_textual():
    code = (
        "import sys\n"
        "from chesskit.cli.main import main\n"
        "import chesskit.cli.explore_cmd, chesskit.explore.state, chesskit.explore.repl\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'textual' not in sys.modules, 'textual loaded'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "explore" in done.stdout


def test_json_is_the_first_view_with_the_engines_counts_and_its_exit_code(cli):
    import json

    result = cli("explore", "kiwipete", "2", "--json", "--python", NO_EP)
    assert result.exit_code == 1, result.stderr  # the counts differ
    data = json.loads(result.stdout)
    expected = pc_divide(KIWIPETE, 2)
    assert data["fen"] == KIWIPETE and data["depth"] == 2 and data["engine"] == NO_EP
    assert {row["move"]: row["chesskit"] for row in data["moves"]} == expected
    assert [row["move"] for row in data["moves"]] == sorted(expected)
    marked = [row for row in data["moves"] if row["status"] != "same"]
    assert marked == [{"move": "a2a4", "san": "a4", "chesskit": expected["a2a4"], "engine": expected["a2a4"] - 1, "status": "differs"}]
    assert (data["total"], data["engine_total"], data["agree"]) == (sum(expected.values()), sum(expected.values()) - 1, False)
    assert data["missing"] == data["extra"] == [] and data["engine_error"] is None and data["notes"] == []
    # and one line on stderr, as compare --json gives (it was empty)
    total = sum(expected.values())
    assert result.stderr == (
        f"chesskit: the engine's divide differs at {KIWIPETE} depth 2: total {total - 1} against "
        f"chesskit's {total} (counts differ for a2a4)\n"
    )


def test_json_without_an_engine_is_chesskits_divide_and_exit_0(cli):
    import json

    result = cli("explore", "startpos", "3", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {row["move"]: row["chesskit"] for row in data["moves"]} == pc_divide(STARTPOS, 3)
    assert data["engine"] is None and data["agree"] is None and all(row["engine"] is None for row in data["moves"])


def test_json_with_an_engine_that_fails_keeps_chesskits_counts_and_exits_3(cli):
    import json

    result = cli("explore", "startpos", "1", "--json", "--engine-cmd", f'{sys.executable} -c "import sys; sys.exit(1)" "{{fen}}" {{depth}}')
    assert result.exit_code == 3, result.stderr
    data = json.loads(result.stdout)
    assert "exited with code 1" in data["engine_error"] and data["total"] == 20 and data["agree"] is None
    assert result.stderr == f"chesskit: {data['engine_error']}\n"


def test_json_with_repl_is_bad_input(cli):
    # --json printed the first view and exited 0, the REPL's commands never read
    result = cli("explore", "startpos", "1", "--json", "--repl", input="go\n")
    one_line(result, 2, "--json and --repl contradict each other", "give one of them")
    assert result.stdout == ""


@pytest.mark.variant_walk
def test_counters_at_a_node_without_moves_name_racingkings_counters(cli):
    # the game is over (the white king home, the black one cannot follow): no rows, and the
    # heading was standard chess's counters
    result = cli("explore", "1K2brn1/5k2/8/8/8/8/8/8 b - - 1 1", "2", "--variant", "racingkings", input="counters\n")
    assert result.exit_code == 0, result.stderr
    assert "move   nodes captures goal_reached" in result.stdout.splitlines()


def test_json_gives_an_extra_move_no_san(cli):
    import json

    # the engine castles through the bishop's check on f1: e1g1 has no SAN, as it is no legal move
    result = cli("explore", "4k3/8/b7/8/8/8/8/4K2R w K - 0 1", "1", "--json", "--script", str(ENGINES / "bug_castle_through_check.py"))
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["extra"] == ["e1g1"]
    [extra] = [row for row in data["moves"] if row["status"] == "extra"]
    assert extra == {"move": "e1g1", "san": None, "chesskit": None, "engine": 1, "status": "extra"}
    assert all(row["san"] for row in data["moves"] if row["status"] != "extra")
