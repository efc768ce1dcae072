"""The pytest plugin (chesskit/pytest_plugin.py), run as an engine author runs it: pytest in a
temporary project (pytester, in a subprocess) with a correct, a buggy, a crashing and a
hanging engine from tests/engines, and with no chesskit option at all (inert)."""

from __future__ import annotations

import importlib.metadata
import os
import sys
import time
import tomllib

import pytest

from helpers import EP_FEN, ENGINES, FAKE_UCI, REPO, gone, subprocess_env

pytest_plugins = ["pytester"]

# the engine-test positions: the start position, and one where en passant is legal
SUITE = f"""\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;id "start"
{EP_FEN} ;D1 31 ;D2 707 ;id "ep"
"""
# three white queens: fail_midway.py fails on it, and answers the others
QUEENS = "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1"


def _plugin_registered() -> bool:
    """Whether the installed chesskit declares the plugin (pip install -e . puts it there)."""
    return any(ep.name == "chesskit" for ep in importlib.metadata.entry_points(group="pytest11"))


@pytest.fixture
def project(pytester, monkeypatch):
    """A temporary engine project with the two-position suite; ``run(*args)`` runs pytest there."""
    monkeypatch.setenv("PYTHONPATH", subprocess_env()["PYTHONPATH"])
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    pytester.makeini("[pytest]\n")
    pytester.path.joinpath("suite.epd").write_text(SUITE)
    # before the entry point is installed (a working copy not yet pip-installed), load it by name
    plugin = [] if _plugin_registered() else ["-p", "chesskit.pytest_plugin"]

    def run(*args: str, timeout: float = 120):
        return pytester.runpytest_subprocess(*plugin, "-p", "no:cacheprovider", *args, timeout=timeout)

    return run


def adapter(name: str) -> str:
    return f"--chesskit-python={ENGINES / name}:Adapter"


def test_a_correct_engine_passes_one_test_per_position_and_depth(project):
    result = project(adapter("eng_correct.py"), "--chesskit-suite=suite.epd", "-v")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["suite.epd::start[[]D1[]] PASSED*", "suite.epd::ep[[]D2[]] PASSED*"])


def test_a_buggy_engine_fails_with_compares_descent(project):
    result = project(adapter("bug_no_ep.py"), "--chesskit-suite=suite.epd")
    result.assert_outcomes(passed=2, failed=2)
    text = result.stdout.str()
    assert "ep D1: expected 31, the engine counted 30 (suite.epd:2)" in text
    assert "ep D2: expected 707, the engine counted 678" in text
    assert "DISAGREE: the move lists differ after (start)" in text
    assert "e5f6" in text and "en passant" in text  # the missing move and its classification
    assert "Traceback" not in text


def test_k_selects_by_tag_and_by_cannot_arise_and_a_mismatch_there_says_why(project, pytester):
    """A position's tags, its file's name and "cannot-arise" are keywords; a mismatch at a
    position that cannot arise says so (an engine may count it its own way)."""
    pytester.path.joinpath("odd.epd").write_text(
        # a wrong expected count (6): any correct engine disagrees at this impossible position
        '4k3/8/8/3P4/8/8/8/4K3 w - c6 id "ep-no-pushed-pawn"; tags "weird"; D1 7;\n'
        + SUITE.splitlines()[1].replace('id "ep"', 'id "ep"; tags "ep"')
        + "\n"
    )
    engine, suite = adapter("eng_correct.py"), "--chesskit-suite=odd.epd"
    failed = project(engine, suite, "-k", "cannot-arise")
    failed.assert_outcomes(failed=1, deselected=2)
    failed.stdout.fnmatch_lines([
        "*ep-no-pushed-pawn D1: expected 7, the engine counted 6*",
        "this position cannot arise in a game (*): an engine may count it its own way (-k 'not cannot-arise' leaves such positions out)",
    ])
    project(engine, suite, "-k", "not cannot-arise").assert_outcomes(passed=2, deselected=1)
    project(engine, suite, "-k", "weird").assert_outcomes(failed=1, deselected=2)  # its tag
    project(engine, suite, "-k", "odd").assert_outcomes(passed=2, failed=1)  # the file's name
    project(engine, suite, "-k", "ep and not cannot-arise").assert_outcomes(passed=2, deselected=1)


def test_an_engine_failing_at_a_position_names_it_and_why_it_cannot_arise_where_it_cannot(project, pytester):
    # the error said only that the engine crashed (Stockfish's SIGSEGV at a bundled
    # cannot-arise position, Ethereal's stack smashing), with no FEN: a mismatch there says
    # why the position cannot arise, and that an engine may count it its own way
    odd = "4k3/8/8/3P4/8/8/8/4K3 w - c6"
    pytester.path.joinpath("odd.epd").write_text(f'{odd} id "ep-no-pushed-pawn"; D1 6;\n' + SUITE)
    crashing = f"--chesskit-engine={ENGINES / 'fail_on.py'} --fault segv --on {odd.split()[0]}"
    result = project(crashing, "--chesskit-suite=odd.epd")
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines([
        "chesskit: engine * was killed by signal SIGSEGV after 'go perft 1'*",
        "ep-no-pushed-pawn D1 (odd.epd:1): 4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",  # as sent: c6 is no en-passant square
        "this position cannot arise in a game (*): an engine may count it its own way "
        "(-k 'not cannot-arise' leaves such positions out)",
        "ERROR odd.epd::ep-no-pushed-pawn[[]D1[]] - chesskit: engine *",
    ])
    start = SUITE.splitlines()[0].split(" ;")[0]
    plain = project(f"--chesskit-engine={ENGINES / 'fail_on.py'} --fault segv --on {start.split()[0]} --depth 2",
                    "--chesskit-suite=suite.epd")
    plain.assert_outcomes(passed=3, errors=1)
    plain.stdout.fnmatch_lines([f"start D2 (suite.epd:1): {start}"])
    assert "cannot arise" not in plain.stdout.str()


def test_the_bundled_suites_skip_the_positions_that_cannot_arise_and_naming_the_file_runs_them(project):
    # a correct engine failed the plugin's default run, as Stockfish does at one of
    # impossible.epd's positions; `chesskit suite --engine` leaves them out by default
    from chesskit.suites.positions import positions_dir

    impossible = positions_dir() / "impossible.epd"
    placement = "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR"  # tricky-ep-unrelated-check
    assert placement in impossible.read_text()
    engine = f"--chesskit-engine={ENGINES / 'fail_on.py'} --fault segv --on {placement}"
    bundled = project(engine, "--chesskit-max-nodes=100", "-rs")
    outcomes = bundled.parseoutcomes()
    assert set(outcomes) == {"passed", "skipped"} and outcomes["skipped"] > 1, outcomes
    bundled.stdout.fnmatch_lines([
        "SKIPPED [[]*[]] *impossible.epd: cannot arise in a game: left out when the bundled suites run against "
        f"an engine (*); --chesskit-suite={impossible} runs it",
    ])
    named = project(engine, "--chesskit-max-nodes=100", f"--chesskit-suite={impossible}")
    named_outcomes = named.parseoutcomes()
    assert named_outcomes.get("errors") == 2 and "skipped" not in named_outcomes, named_outcomes  # D1, D2


def test_a_position_over_the_limits_is_a_skipped_test_and_its_named_file_is_found(project, pytester):
    # QA 41a: a suite file named on the command line whose counts were all over the budget
    # made no test, and pytest said "not found" and ran nothing, the other files' tests too
    deep = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - id \"kiwi-deep\"; D5 193690690;\n"
    pytester.path.joinpath("deep.epd").write_text(deep)
    result = project(adapter("eng_correct.py"), "--chesskit-max-nodes=1e5", "deep.epd", "suite.epd", "-rs", "-v")
    result.assert_outcomes(passed=4, skipped=1)
    result.stdout.fnmatch_lines([
        "deep.epd::kiwi-deep[[]D5[]] SKIPPED*",
        "SKIPPED [[]1[]] deep.epd: every count over --chesskit-max-nodes 100000 (the least: 193690690)",
    ])
    alone = project(adapter("eng_correct.py"), "deep.epd", "suite.epd", "-k", "kiwi")  # the default budget, 1e6
    alone.assert_outcomes(skipped=1, deselected=4)
    assert "not found" not in result.stdout.str() + alone.stdout.str()


def test_a_named_suite_file_with_nothing_to_run_says_why_not_not_found(project, pytester):
    pytester.path.joinpath("empty.epd").write_text("# nothing yet\n")
    result = project(adapter("eng_correct.py"), "empty.epd")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["chesskit: no suite positions found in empty.epd: no line is a position"])
    assert "not found:" not in result.stdout.str() + result.stderr.str()
    over = project(adapter("eng_correct.py"), "--chesskit-max-nodes=10", "suite.epd")
    assert over.ret != 0
    over.stdout.fnmatch_lines(["chesskit: nothing to run: no expected count of 2 positions is within --chesskit-max-nodes 10*"])


@pytest.mark.parametrize("kind", ["twice", "null"])
def test_a_move_listed_twice_or_a_null_move_fails_the_test_with_the_finding(project, pytester, kind):
    """A bug of the engine's move generation, not an error of the test (it was an error, exit 3)."""
    pytester.path.joinpath("suite.epd").write_text('4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D2 25 ;id "kings"\n')
    result = project(f"--chesskit-python={ENGINES / 'bad_divide.py'}:{kind.capitalize()}", "--chesskit-suite=suite.epd")
    result.assert_outcomes(failed=1)
    hint = "the engine generates e1f2 twice here" if kind == "twice" else "a null move: the engine's move generation"
    assert hint in result.stdout.str() and "Traceback" not in result.stdout.str()


@pytest.mark.slow  # a pytest run in a subprocess, engines started in it: seconds
def test_a_script_and_a_uci_engine_are_checked_too(project):
    script = project(f"--chesskit-script={ENGINES / 'bug_no_ep.py'}", "--chesskit-suite=suite.epd", "-k", "ep")
    script.assert_outcomes(failed=2, deselected=2)
    uci = project(f"--chesskit-engine={sys.executable} {ENGINES / 'fake_uci.py'}", "--chesskit-suite=suite.epd")
    uci.assert_outcomes(passed=4)


def test_a_test_is_run_again_by_the_id_its_failure_shows(project):
    """``suite.epd::ep[D2]``, as a FAILED line names it, runs that test alone (it was
    "not found": the suites' tests had no file of their own to collect); naming the file
    runs its tests only, and a test file of one's own beside it still runs with the suite."""
    buggy = f"--chesskit-script={ENGINES / 'bug_no_ep.py'}"
    failed = project(buggy, "--chesskit-suite=suite.epd")
    failed.assert_outcomes(passed=2, failed=2)
    failed.stdout.fnmatch_lines(["FAILED suite.epd::ep[[]D2[]]*"])
    again = project(buggy, "--chesskit-suite=suite.epd", "suite.epd::ep[D2]")
    again.assert_outcomes(failed=1)
    project(buggy, "--chesskit-suite=suite.epd", "suite.epd::start[D1]").assert_outcomes(passed=1)
    project(buggy, "--chesskit-suite=suite.epd", "suite.epd").assert_outcomes(passed=2, failed=2)


def test_a_suite_file_named_on_the_command_line_is_run_without_chesskit_suite(project, pytester):
    # "ERROR: not found: .../suite.epd": only --chesskit-suite's files were collected, so the
    # id a FAILED line shows could not be run again without repeating --chesskit-suite
    buggy = f"--chesskit-script={ENGINES / 'bug_no_ep.py'}"
    whole = project(buggy, "suite.epd", "-v")
    whole.assert_outcomes(passed=2, failed=2)  # its tests, not the bundled positions'
    whole.stdout.fnmatch_lines(["suite.epd::start[[]D1[]] PASSED*", "suite.epd::ep[[]D2[]] FAILED*"])
    project(buggy, "suite.epd::ep[D2]").assert_outcomes(failed=1)
    project(buggy, "suite.epd::start[D1]", "--chesskit-suite=.").assert_outcomes(passed=1)  # held by a folder given


def test_a_crash_is_that_tests_error_and_the_next_test_starts_the_engine_again(project, pytester):
    pytester.path.joinpath("suite.epd").write_text(
        SUITE.splitlines()[0] + "\n" + f'{QUEENS} ;D1 21 ;id "queens"\n' + SUITE.splitlines()[1] + "\n"
    )
    result = project(f"--chesskit-script={ENGINES / 'fail_midway.py'}", "--chesskit-suite=suite.epd")
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines(["chesskit: engine * exited with code 1 *", "ERROR suite.epd::queens[[]D1[]] - chesskit: *"])
    assert "Traceback" not in result.stdout.str()


def test_an_engine_failing_at_a_chess960_position_is_told_how_to_leave_them_out(project, pytester):
    # `chesskit suite` ends such a run with "--skip-chess960 leaves the Chess960 positions out";
    # the plugin's errors (76 of them for the bundled suites) said only that it cannot play Chess960
    pytester.path.joinpath("suite.epd").write_text(
        SUITE.splitlines()[0] + "\n" + 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;id "c960"\n'
    )
    result = project(f"--chesskit-engine={sys.executable} {ENGINES / 'fake_uci.py'} --no-960", "--chesskit-suite=suite.epd")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        ["chesskit: engine * cannot play Chess960 (it does not offer the UCI_Chess960 option); "
         "--chesskit-skip-chess960 leaves the Chess960 positions out"]
    )
    missing = project(f"--chesskit-script={pytester.path / 'no_such_engine'}", "--chesskit-suite=suite.epd")
    missing.assert_outcomes(errors=1)  # not started: the session stops (test below)
    assert "skip-chess960" not in missing.stdout.str()  # not started: no position's fault


def test_no_chess960_hint_for_an_engine_that_never_answered_or_at_the_standard_array(project, pytester):
    """The hint was given for every failure at the first test, a Chess960 one (the bundled
    chess960.epd comes first): an engine that refuses an option, or crashes or is too slow
    as it starts, was told to leave the Chess960 positions out; and for c960-518, the
    standard start position, which the engine is asked as standard chess."""
    pytester.path.joinpath("first960.epd").write_text(
        'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - ;D1 21 ;id "c960"\n' + SUITE
    )
    refused = project(f"--chesskit-engine={FAKE_UCI}", "--chesskit-engine-option=Frobnicate=1", "--chesskit-suite=first960.epd")
    refused.assert_outcomes(errors=1)
    refused.stdout.fnmatch_lines(["chesskit: engine * has no option 'Frobnicate'*"])
    assert "skip-chess960" not in refused.stdout.str()
    start = SUITE.splitlines()[0].split(" ;")[0]
    pytester.path.joinpath("std960.epd").write_text(f'{start} ;D1 20 ;D2 400 ;id "c960-518"\n')
    crashing = f"{ENGINES / 'fail_on.py'} --fault segv --on {start.split()[0]} --depth 2"
    crashed = project(f"--chesskit-engine={crashing}", "--chesskit-suite=std960.epd")
    crashed.assert_outcomes(passed=1, errors=1)  # D1 answered: the engine had started
    crashed.stdout.fnmatch_lines(["chesskit: engine * was killed by signal SIGSEGV after 'go perft 2'*"])
    assert "skip-chess960" not in crashed.stdout.str()


@pytest.mark.parametrize("option", ["--chesskit-engine", "--chesskit-script", "--chesskit-python"])
def test_an_engine_that_cannot_start_stops_the_session_at_its_first_test(project, pytester, option):
    # a misspelt --chesskit-engine ran every count of the bundled suites, each an error saying
    # the same "was not found" (1,558 of them, in six minutes); `chesskit suite` ends its run
    engine = f"{ENGINES / 'fail_import.py'}:Adapter" if option == "--chesskit-python" else str(pytester.path / "nope")
    result = project(f"{option}={engine}", "--chesskit-suite=suite.epd")
    result.assert_outcomes(errors=1)
    why = "could not be imported: ImportError" if option == "--chesskit-python" else "was not found"
    result.stdout.fnmatch_lines([f"*Interrupted: chesskit: engine * {why}*"])
    assert "Traceback" not in result.stdout.str()


def test_an_engine_refusing_its_options_stops_the_session_at_its_first_test(project):
    # an --chesskit-engine-option the engine does not have was every test's error (498 of
    # them for the bundled suites, two minutes); `chesskit suite` ends its run at once
    result = project(
        f"--chesskit-engine={FAKE_UCI}", "--chesskit-engine-option=Frobnicate=1", "--chesskit-suite=suite.epd"
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*Interrupted: chesskit: engine * has no option 'Frobnicate'*"])


@pytest.mark.parametrize(
    "engine, flags",
    [
        ("slow", ["--chesskit-timeout"]),  # "give a longer --timeout": pytest has no such option
        ("silent", ["--chesskit-dialect", "--chesskit-engine-cmd"]),  # right in the error, not in Interrupted
    ],
)
def test_the_error_and_the_interrupted_line_name_the_plugins_options(project, pytester, engine, flags):
    command = f"{FAKE_UCI} --late-uci" if engine == "slow" else f"{sys.executable} {ENGINES / 'fail_silent_uci.py'}"
    result = project(f"--chesskit-engine={command}", "--chesskit-timeout=1", "--chesskit-suite=suite.epd")
    result.assert_outcomes(errors=1)
    text = result.stdout.str()
    error = next(line for line in text.splitlines() if line.startswith("chesskit: engine"))
    interrupted = next(line for line in text.splitlines() if "Interrupted: chesskit: engine" in line)
    for line in (error, interrupted):
        assert all(flag in line for flag in flags), line
        for flag in ("--timeout", "--dialect", "--engine-cmd"):
            assert f" {flag}" not in line, line


@pytest.mark.slow  # a pytest run in a subprocess, engines started in it: seconds
def test_a_hanging_engine_is_an_error_and_pytest_ends(project, tmp_path, monkeypatch):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("CHESSKIT_HANG_PIDFILE", str(pidfile))
    result = project(
        f"--chesskit-script={ENGINES / 'fail_hang.py'}", "--chesskit-suite=suite.epd", "--chesskit-timeout=1", "-x"
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*chesskit: engine * within 1 s*"])
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.monotonic() + 10
    while not all(gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pids and all(gone(pid) for pid in pids), "the engine or a helper it started is still running"


@pytest.mark.slow  # a pytest run in a subprocess, engines started in it: seconds
def test_a_bad_suite_line_is_an_error_and_the_rest_runs(project, pytester):
    pytester.path.joinpath("suite.epd").write_text(SUITE + 'not a fen ;D1 20 ;id "broken"\n')
    result = project(adapter("eng_correct.py"), "--chesskit-suite=suite.epd")
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines(["chesskit: suite.epd:3*", "ERROR suite.epd::broken - chesskit: *"])


@pytest.mark.slow  # a pytest run in a subprocess, engines started in it: seconds
def test_the_options_are_read_once_a_session(project, pytester):
    """The limits and the engine's values are read (and checked) once: at configure, where a
    bad one is a usage error, and not again when the suites are read."""
    pytester.makeconftest(
        """
import sys
import chesskit.cli.options as options

parse_count = options.parse_count

def counted(*args, **kwargs):
    print("read --chesskit-max-nodes", file=sys.stderr)
    return parse_count(*args, **kwargs)

options.parse_count = counted
"""
    )
    result = project(adapter("eng_correct.py"), "--chesskit-suite=suite.epd", "--chesskit-max-nodes=100")
    result.assert_outcomes(passed=2)
    assert result.stderr.str().count("read --chesskit-max-nodes") == 1, result.stderr.str()


def test_max_nodes_leaves_out_the_bigger_counts(project):
    result = project(adapter("eng_correct.py"), "--chesskit-suite=suite.epd", "--chesskit-max-nodes=100")
    result.assert_outcomes(passed=2)


@pytest.mark.slow  # a pytest run in a subprocess, engines started in it: seconds
def test_the_fixture_gives_tests_the_engine(project, pytester):
    pytester.makepyfile(
        test_mine="""
        import chesskit

        def test_perft(chesskit_engine):
            assert isinstance(chesskit_engine, chesskit.Engine)
            assert chesskit_engine.perft("startpos", 2) == 400
            assert chesskit.compare(chesskit_engine, "kiwipete", 2).agree
        """
    )
    result = project(adapter("eng_correct.py"), "--chesskit-suite=suite.epd", "-k", "test_perft", "test_mine.py")
    result.assert_outcomes(passed=1, deselected=4)
    skipped = project("test_mine.py")  # no engine named: the test that needs one is skipped
    skipped.assert_outcomes(skipped=1)


def test_naming_only_files_of_your_own_leaves_the_bundled_positions_out(project, pytester):
    """``pytest test_mine.py`` runs that file's tests; the bundled positions' tests come
    where no path is named, or a folder is (and --chesskit-suite's always: the test above)."""
    pytester.makepyfile(
        test_mine="""
        def test_perft(chesskit_engine):
            assert chesskit_engine.perft("startpos", 2) == 400
        """
    )
    engine, few = adapter("eng_correct.py"), "--chesskit-max-nodes=100"
    project(engine, few, "test_mine.py").assert_outcomes(passed=1)
    project(engine, few, "test_mine.py::test_perft").assert_outcomes(passed=1)
    for named in ((), (".",)):  # the bundled positions' counts up to 100 nodes (those that cannot arise skipped), and the file's test
        outcomes = project(engine, few, *named).parseoutcomes()
        assert outcomes.get("passed", 0) > 1 and set(outcomes) == {"passed", "skipped"}, outcomes


def test_an_engine_that_cannot_start_in_a_fixture_test_is_one_line_and_stops_the_session(project, pytester):
    """Tests of one's own with ``chesskit_engine`` failed each with some forty lines of
    chesskit's traceback when the engine cannot be started: now the first says it in one
    line and the session stops there, as for the suite's tests."""
    pytester.makepyfile(
        test_mine="""
        import chesskit

        def test_one(chesskit_engine):
            assert chesskit.compare(chesskit_engine, "kiwipete", 2).agree

        def test_two(chesskit_engine):
            assert chesskit.compare(chesskit_engine, "startpos", 2).agree
        """
    )
    result = project(f"--chesskit-engine={pytester.path / 'nope'}", "test_mine.py")
    result.assert_outcomes(errors=1)  # the fixture's error: it starts the engine
    result.stdout.fnmatch_lines(["*Interrupted: chesskit: engine * was not found*"])
    assert "Traceback" not in result.stdout.str() and "resolve_program" not in result.stdout.str()
    script = project(f"--chesskit-script={pytester.path / 'nope'}", "test_mine.py")
    script.assert_outcomes(failed=1)  # a script starts at its first question: the test's
    script.stdout.fnmatch_lines(["*Interrupted: chesskit: engine * was not found*"])
    assert "Traceback" not in script.stdout.str()


@pytest.mark.parametrize(
    "args, words",
    [
        # it refuses an option as it starts (it printed some forty lines of traceback per test)
        (["--chesskit-engine-option=Frobnicate=1"], "has no option 'Frobnicate'"),
        # too slow to say 'uciok': its detection was made again for every test, up to 90 s each
        (["--chesskit-timeout=1", "--late-uci"], "did not say 'uciok' within 1 s of 'uci'"),
    ],
)
def test_an_engine_that_never_answers_in_a_fixture_test_is_one_line_and_stops_the_session(
    project, pytester, args, words
):
    pytester.makepyfile(
        test_mine="""
        def test_one(chesskit_engine):
            assert chesskit_engine.perft("startpos", 2) == 400

        def test_two(chesskit_engine):
            assert chesskit_engine.perft("kiwipete", 1) == 48
        """
    )
    engine = FAKE_UCI + (" --late-uci" if "--late-uci" in args else "")
    result = project(f"--chesskit-engine={engine}", *(a for a in args if a != "--late-uci"), "test_mine.py")
    result.assert_outcomes(errors=1)  # test_two is not run
    result.stdout.fnmatch_lines([f"chesskit: engine * {words}*", f"*Interrupted: chesskit: engine * {words}*"])
    assert "Traceback" not in result.stdout.str() and "compare/engines" not in result.stdout.str()


def test_without_its_options_the_plugin_is_inert_and_loads_nothing(project, pytester):
    pytester.makepyfile(
        test_plain="""
        import sys

        def test_nothing_of_chesskit_was_loaded(pytestconfig):
            assert pytestconfig.pluginmanager.has_plugin("chesskit") or pytestconfig.pluginmanager.has_plugin("chesskit.pytest_plugin")
            loaded = [m for m in sys.modules if m.startswith("chesskit.") and m != "chesskit.pytest_plugin"]
            assert loaded == [] and "numba" not in sys.modules
        """
    )
    result = project()
    result.assert_outcomes(passed=1)


def test_a_suite_without_an_engine_is_a_usage_error(project):
    result = project("--chesskit-suite=suite.epd")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--chesskit-suite needs an engine*"])


def test_lf_ff_and_sw_rerun_a_suite_files_failures(pytester, monkeypatch):
    """A suite file named on the command line is a ``SuiteFile`` whose tests pytest's cache
    finds again by their ids: --lf reruns only the failures, --ff runs them first, --sw
    starts at the first one (under pytest 9.2 they reran everything, "2 known failures not
    in selected tests": the tests' ids held `[D2]` in the name, where pytest 9.2 reads a
    stored id's `[D2]` as its parameters)."""
    monkeypatch.setenv("PYTHONPATH", subprocess_env()["PYTHONPATH"])
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    pytester.makeini("[pytest]\n")
    pytester.path.joinpath("perft.epd").write_text(SUITE)
    plugin = [] if _plugin_registered() else ["-p", "chesskit.pytest_plugin"]
    args = [*plugin, "-v", adapter("bug_no_ep.py"), "--chesskit-suite=perft.epd", "perft.epd"]
    failures = ["perft.epd::ep[[]D1[]] FAILED*", "perft.epd::ep[[]D2[]] FAILED*"]

    def ran(*extra):
        result = pytester.runpytest_subprocess(*args, *extra, timeout=120)
        return result, [line.split()[0] for line in result.stdout.lines if line.startswith("perft.epd::")]

    result, order = ran()
    result.assert_outcomes(passed=2, failed=2)
    result, order = ran("--lf")
    result.stdout.fnmatch_lines(["run-last-failure: rerun previous 2 failures", *failures])
    assert order == ["perft.epd::ep[D1]", "perft.epd::ep[D2]"]
    result.assert_outcomes(failed=2, deselected=2)
    result, order = ran("--ff")
    result.stdout.fnmatch_lines(["run-last-failure: rerun previous 2 failures first"])
    assert order[:2] == ["perft.epd::ep[D1]", "perft.epd::ep[D2]"] and len(order) == 4
    result, order = ran("--sw")  # stops at the first failure
    assert order[-1] == "perft.epd::ep[D1]"
    result, order = ran("--sw")  # starts there, the tests before it skipped
    result.stdout.fnmatch_lines(["*stepwise: skipping 2 already passed items*"])
    assert order == ["perft.epd::ep[D1]"]


@pytest.mark.parametrize(
    "args, words",
    [
        # each passed silently without an engine
        (["--chesskit-timeout=abc", "--chesskit-variant=nope"], "ERROR: chesskit: bad --chesskit-timeout 'abc': *"),
        (["--chesskit-variant=nope"], "ERROR: chesskit: --chesskit-variant: unknown variant 'nope'*"),
        (["--chesskit-max-nodes=lots"], "ERROR: chesskit: bad --chesskit-max-nodes 'lots': *"),
        (["--chesskit-max-depth=-1"], "ERROR: chesskit: bad --chesskit-max-depth '-1': *"),
        (["--chesskit-dialect=nope"], "ERROR: chesskit: unknown --chesskit-dialect 'nope': one of uci-go-perft*"),
        (["--chesskit-engine-option=Threads"], "ERROR: chesskit: --chesskit-engine-option must be NAME=VALUE, got 'Threads'"),
        (["--chesskit-max-nodes=1e3"], "ERROR: --chesskit-max-nodes needs an engine: --chesskit-engine*"),
        (["--chesskit-dialect=uci-perft"], "ERROR: --chesskit-dialect needs an engine: --chesskit-engine*"),
        (["--chesskit-timeout=5"], "ERROR: --chesskit-timeout needs an engine: --chesskit-engine*"),
        (["--chesskit-variant=atomic"], "ERROR: --chesskit-variant needs an engine: --chesskit-engine*"),
        (["--chesskit-max-depth=2"], "ERROR: --chesskit-max-depth needs an engine: --chesskit-engine*"),
        (["--chesskit-skip-chess960"], "ERROR: --chesskit-skip-chess960 needs an engine: --chesskit-engine*"),
    ],
)
def test_an_engines_option_without_an_engine_is_a_usage_error_and_a_bad_value_says_why(project, pytester, args, words):
    pytester.makepyfile(test_m="def test_m():\n    pass\n")
    result = project(*args, "test_m.py")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([words])
    assert "passed" not in result.stdout.str()


@pytest.mark.parametrize("option", ["--chesskit-max-nodes=lots", "--chesskit-dialect=nope", "--chesskit-variant=nope"])
def test_a_bad_value_with_an_engine_is_a_usage_error_before_any_test(project, option):
    result = project(adapter("eng_correct.py"), "--chesskit-suite=suite.epd", option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: chesskit: *{option.split('=')[0]}*"])
    assert "passed" not in result.stdout.str()


@pytest.mark.slow  # two xdist workers, each with its own engine
def test_it_runs_under_xdist(project):
    result = project(adapter("bug_no_ep.py"), "--chesskit-suite=suite.epd", "-n", "2")
    result.assert_outcomes(passed=2, failed=2)


def test_the_entry_point_is_declared():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]["pytest11"]
    assert declared == {"chesskit": "chesskit.pytest_plugin"}
    if _plugin_registered():  # the installed metadata says the same
        (found,) = [ep for ep in importlib.metadata.entry_points(group="pytest11") if ep.name == "chesskit"]
        assert found.value == "chesskit.pytest_plugin"


def test_a_python_adapter_without_its_attribute_is_a_usage_error(project):
    result = project(f"--chesskit-python={ENGINES / 'eng_correct.py'}", "--chesskit-suite=suite.epd")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: chesskit: --chesskit-python '*eng_correct.py' must be MODULE:ATTR*"])


@pytest.mark.parametrize(
    "args, words",
    [
        # two engines: every test was an error of its own, "give exactly one of --engine, ..."
        ([adapter("eng_correct.py"), f"--chesskit-script={ENGINES / 'eng_correct.py'}"],
         "*give exactly one of --chesskit-engine, --chesskit-script, --chesskit-python, --chesskit-engine-cmd"
         " (got --chesskit-script and --chesskit-python)*"),
        ([f"--chesskit-script={ENGINES / 'eng_correct.py'}", "--chesskit-engine-option=Threads=2"],
         "*--chesskit-engine-option only applies to --chesskit-engine (a UCI engine)*"),
        ([f"--chesskit-script={ENGINES / 'eng_correct.py'}", "--chesskit-dialect=uci-perft"],
         "*--chesskit-dialect only applies to --chesskit-engine*"),
    ],
)
def test_engine_options_that_cannot_go_together_are_one_usage_error(project, args, words):
    result = project(*args, "--chesskit-suite=suite.epd")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: chesskit: {words}"])
    assert "passed" not in result.stdout.str() and "error" not in result.stdout.str()


@pytest.mark.parametrize(
    "template, words",
    [
        ("./engine {depth}", "--chesskit-engine-cmd './engine {depth}' has no {fen} placeholder"),
        ("'./engine {fen} {depth}", "bad --chesskit-engine-cmd \"'./engine {fen} {depth}\": no closing quotation"),
        ("./engine {fen} {depth} {move}", "*has an unknown placeholder {move}*"),
    ],
)
def test_a_bad_engine_cmd_is_one_usage_error(project, template, words):
    # a template that can never run was every test's error, one per position and depth;
    # now one line before any test, naming the plugin's flag (not --engine-cmd, not engine_cmd)
    result = project(f"--chesskit-engine-cmd={template}", "--chesskit-suite=suite.epd")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: chesskit: {words}"])
    assert "passed" not in result.stdout.str() and "error" not in result.stdout.str()
    assert "engine_cmd '" not in result.stderr.str() and "chesskit: --engine-cmd" not in result.stderr.str()


def test_a_bad_timeout_names_the_plugins_option_once(project):
    # said "--chesskit-timeout: bad --timeout '0': ...", the CLI's flag inside the plugin's
    result = project(adapter("eng_correct.py"), "--chesskit-timeout=0", "--chesskit-suite=suite.epd")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: chesskit: bad --chesskit-timeout '0': must be a positive number of seconds*"])
    assert "--timeout" not in result.stderr.str().replace("--chesskit-timeout", "")


def test_limits_that_leave_nothing_name_the_plugins_options(project):
    # said "within --max-nodes 1000000 and --max-depth 0", the CLI's flags
    result = project(adapter("eng_correct.py"), "--chesskit-max-depth=0", "--chesskit-suite=suite.epd")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: chesskit: nothing to run: *within --chesskit-max-nodes * and --chesskit-max-depth 0"])


@pytest.mark.variant_walk
def test_chesskit_variant_checks_a_variant_engine_on_that_variants_suites(project, pytester):
    """--chesskit-variant opens the engine in the variant and reads the suites' lines in it
    (without --chesskit-suite: its bundled suites); a line of other rules than the engine's
    is that test's error saying so, never "the engine counted 0" (it was never asked)."""
    engine = f"--chesskit-python={ENGINES / 'vpchelper.py'}:Adapter"  # correct in every variant
    racing = str(REPO / "positions" / "variants" / "racingkings.epd")
    result = project(engine, "--chesskit-variant=racingkings", "--chesskit-max-nodes=100")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) > 0 and set(outcomes) <= {"passed"}, result.stdout.str()
    result = project(engine, f"--chesskit-suite={racing}", "--chesskit-max-nodes=100")
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) > 0 and set(outcomes) <= {"errors"}, result.stdout.str()
    result.stdout.fnmatch_lines(["*chesskit: a racingkings position, and the engine counts chess (give --chesskit-variant racingkings)*"])
    assert "counted 0" not in result.stdout.str()
    result = project(engine, "--chesskit-variant=klingon")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*chesskit: --chesskit-variant: unknown variant 'klingon'*"])


def test_a_test_id_does_not_change_with_the_other_suites_named(project, pytester):
    """Two suites that both use the id ``start``: each test is ``FILE::start[D1]`` whatever
    else is named (it was ``suite.epd::suite.epd:start[D1]`` beside another suite, an id that
    could not be run again), and naming one test of one suite runs that test alone (every
    test of the other suite ran too)."""
    pytester.path.joinpath("other.epd").write_text(SUITE)
    both = ("--chesskit-suite=suite.epd", "--chesskit-suite=other.epd")
    listed = project(adapter("eng_correct.py"), *both, "--collect-only", "-q")
    assert "suite.epd::start[D1]" in listed.outlines and "other.epd::start[D1]" in listed.outlines
    one = project(adapter("eng_correct.py"), *both, "suite.epd::start[D1]", "-v")
    one.assert_outcomes(passed=1)
    one.stdout.fnmatch_lines(["suite.epd::start[[]D1[]] PASSED*"])
