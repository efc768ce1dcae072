"""``--bisect`` on ``suite`` and ``compare`` (issue 20 item 4): an engine that cannot be started
exits 125, ``git bisect run``'s "skip this commit", instead of 3; an engine that starts (one
that answers its UCI handshake has) and then fails (or is wrong) keeps its exit code, so bisect
still judges that commit."""

from __future__ import annotations

import pytest

from helpers import ENGINES, KIWIPETE, STARTPOS, one_line

pytestmark = pytest.mark.usefixtures("no_leftover_children")

START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
CANNOT_START = [
    ("--engine", "./no-such-engine", "was not found"),
    ("--engine", str(ENGINES / "fail_exit.py"), "exited with code 1 after 'uci'"),
    ("--engine", str(ENGINES / "fail_not_executable.py"), "is not executable"),
    ("--script", "./no-such-script", "was not found"),  # asked a depth-1 perft at the start
    ("--python", f"{ENGINES / 'fail_import.py'}:Adapter", "could not be imported"),
]


@pytest.fixture
def suite(tmp_path):
    path = tmp_path / "s.epd"
    path.write_text(f'{START4} id "start"; D1 20; D2 400;\n{" ".join(KIWIPETE.split()[:4])} id "kiwi"; D1 48;\n')
    return path


@pytest.mark.parametrize("flag, engine, why", CANNOT_START, ids=lambda v: str(v)[-24:])
def test_an_engine_that_cannot_start_is_skipped_by_bisect(cli, suite, flag, engine, why):
    one_line(cli("suite", str(suite), flag, engine, "--bisect"), 125, why, "exit 125 for git bisect")
    one_line(cli("compare", "startpos", "2", flag, engine, "--bisect"), 125, why)
    without = cli("suite", str(suite), flag, engine)
    # not "125": a path in the message may hold it (a CI clone in /tmp/ci125.X did)
    assert without.exit_code == 3 and "bisect" not in without.stderr


def test_an_engine_that_starts_keeps_its_verdict(cli, suite):
    crashing = f"{ENGINES / 'fail_on.py'} --fault segv --on {KIWIPETE.split()[0]}"
    result = cli("suite", str(suite), "--engine", crashing, "--bisect")
    assert result.exit_code == 3, result.stderr  # it started: the crash on kiwipete is the commit's
    buggy = cli("suite", str(suite), "--script", str(ENGINES / "bug_no_ep.py"), "--bisect")
    assert buggy.exit_code == 0  # no en passant in these positions at these depths
    wrong = cli("compare", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "1",
                "--script", str(ENGINES / "bug_no_ep.py"), "--bisect")
    assert wrong.exit_code == 1


@pytest.mark.parametrize("dialect", [[], ["--dialect", "uci-go-perft"]], ids=["detected", "named"])
def test_the_position_check_comes_after_the_first_answer(cli, suite, dialect):
    """The check that the engine follows `position fen` (Kiwipete at depth 1, issue 26 item 5)
    is made once the engine has answered on the start position: failing it, the engine started."""
    crashing = ["--engine", f"{ENGINES / 'fail_on.py'} --fault segv --on {KIWIPETE.split()[0]}", *dialect]
    assert cli("suite", str(suite), *crashing, "--bisect").exit_code == 3
    result = cli("compare", "startpos", "2", *crashing, "--bisect")
    assert result.exit_code == 3 and "r3k2r/p1ppqpb1" in result.stderr, result.stderr
    ignoring = ["--engine", f"{ENGINES / 'fake_uci.py'} --ignore-fen", *dialect]
    one_line(cli("compare", "startpos", "2", *ignoring, "--bisect"), 3, "ignores 'position fen'")
    # an engine that answers UCI's handshake and crashes on its first question, the start
    # position's, started: it crashes on every position, a commit bisect must be able to
    # find (it exited 125, and `git bisect run` skipped the commit that broke it)
    dead = ["--engine", f"{ENGINES / 'fail_on.py'} --fault segv --on {STARTPOS.split()[0]}", *dialect]
    one_line(cli("suite", str(suite), *dead, "--bisect"), 3, "(it had answered UCI's handshake: it started)")
    one_line(cli("compare", "kiwipete", "2", *dead, "--bisect"), 3, "(it had answered UCI's handshake: it started)")
    crashes = ["--engine", f"{ENGINES / 'fake_uci.py'} --crash-on-go", *dialect]
    one_line(cli("suite", str(suite), *crashes, "--bisect"), 3, "exited with code 2 after 'go perft 1'", "it started")


def test_bisect_needs_an_engine(cli, suite):
    one_line(cli("suite", str(suite), "--bisect"), 2, "--bisect applies to an engine")


def test_a_chess960_position_the_engine_cannot_be_given_is_skipped_by_bisect(cli, tmp_path):
    """An engine without UCI_Chess960 fails every Chess960 position at every commit: under
    --bisect that is no regression (git bisect run took the exit 3 of a good commit for bad
    and named the wrong first bad commit); without it the run still fails (exit 3)."""
    path = tmp_path / "mixed.epd"
    path.write_text(f'{START4} id "start"; D1 20; D2 400;\n'
                    'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - id "c960"; D1 21;\n')
    engine = ["--engine", f"{ENGINES / 'fake_uci.py'} --no-960"]
    result = cli("suite", str(path), *engine, "--bisect", "--json")
    assert result.exit_code == 0, result.stderr
    import json

    data = json.loads(result.stdout)
    assert data["positions"]["passed"] == 1 and data["positions"]["skipped"] == 1 and data["engine_errors"] == []
    (skipped,) = data["skipped"]
    assert "cannot play Chess960" in json.dumps(skipped) and "--bisect leaves it out" in json.dumps(skipped)
    assert cli("suite", str(path), *engine).exit_code == 3
    buggy = ["--engine", f"{ENGINES / 'fake_uci.py'} --no-960 --bug no_ep"]
    ep = tmp_path / "ep.epd"
    ep.write_text(path.read_text() + 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 id "ep"; D1 31;\n')
    assert cli("suite", str(ep), *buggy, "--bisect").exit_code == 1  # a bug is still a bad commit


def test_a_position_that_cannot_arise_is_left_out_by_bisect(cli, tmp_path):
    """Stockfish counts impossible.epd's tricky-ep-unrelated-check its own way at every
    commit: under --bisect the suite with it exited 1 for a good commit too (docs/ci.md's
    recipe named a good commit as the first bad one); without --bisect it is still counted.
    Here the engine is right and the line's count is not: the same at every commit."""
    import json

    path = tmp_path / "odd.epd"
    path.write_text(f'{START4} id "start"; D1 20;\n'
                    '4k3/8/8/8/8/8/8/4K3 w K - id "no-rook"; D1 99;\n')  # a right without its rook
    engine = ["--engine", str(ENGINES / "fake_uci.py")]
    result = cli("suite", str(path), *engine, "--bisect", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert data["positions"]["passed"] == 1 and data["positions"]["skipped"] == 1
    assert "cannot arise in a game: --bisect leaves it out" in json.dumps(data["skipped"])
    assert cli("suite", str(path), *engine).exit_code == 1
