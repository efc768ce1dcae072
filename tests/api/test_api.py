"""The Python API (chesskit/api/): counts against python-chess and the published tables,
every way of connecting an engine, compare's result against the CLI's --json, the
exceptions and their exit codes, and ``import chesskit`` staying cheap."""

from __future__ import annotations

import ast
import json
import shlex
import subprocess
import sys

import chess
import pytest

import chesskit
from chesskit.errors import EngineError, FenError, IllegalMoveError, InputError
from helpers import BEFORE_EP, EP_FEN, ENGINES, FAKE_UCI, KIWIPETE, REPO, STARTPOS, pc_divide, pc_perft, subprocess_env

pytestmark = pytest.mark.usefixtures("no_leftover_children")

NO_EP = str(ENGINES / "bug_no_ep.py")
CORRECT = str(ENGINES / "eng_correct.py")


# ------------------------------------------------------------------ perft, divide, stats


@pytest.mark.parametrize(
    "fen, depth",
    [(KIWIPETE, 3), (EP_FEN, 3), ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4), ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 3)],
)
def test_perft_and_divide_are_python_chess_counts(fen, depth):
    assert chesskit.perft(fen, depth) == pc_perft(chess.Board(fen), depth)
    assert chesskit.divide(fen, depth) == dict(sorted(pc_divide(fen, depth).items()))


def test_moves_threads_and_hash_never_change_a_count():
    expected = pc_perft(chess.Board(KIWIPETE).copy(), 3)
    assert chesskit.perft("kiwipete", 3, threads=1, hash_mb=0) == expected
    assert chesskit.perft("kiwipete", 3, threads=2, hash_mb=1) == expected
    after = pc_divide(KIWIPETE, 2, ["e1g1", "a8b8"])
    assert chesskit.divide("kiwipete", 2, moves="e1g1 a8b8") == dict(sorted(after.items()))
    assert chesskit.divide("kiwipete", 2, moves=["e1g1", "a8b8"]) == dict(sorted(after.items()))


def test_chess960_positions_count_as_the_published_table():
    # positions/chess960.epd: c960-0 D3 9006 (Stockfish 15.1, python-chess cross-checked)
    assert chesskit.perft("c960-0", 3) == 9006
    fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    assert chesskit.perft(fen, 3, chess960=True) == pc_perft(chess.Board(fen, chess960=True), 3)


def test_stats_are_the_published_counters():
    # chessprogramming.org Perft Results: kiwipete depth 3
    assert chesskit.stats("kiwipete", 3) == {
        "nodes": 97862,
        "captures": 17102,
        "en_passant": 45,
        "castles": 3162,
        "promotions": 0,
        "checks": 993,
        "discovery_checks": 0,
        "double_checks": 0,
        "checkmates": 1,
    }


@pytest.mark.parametrize(
    "call, error, text",
    [
        (lambda: chesskit.perft("startpos", -1), InputError, "depth must be an integer >= 0"),
        (lambda: chesskit.perft("startpos", True), InputError, "depth must be an integer"),
        (lambda: chesskit.perft("startpos", 2.0), InputError, "depth must be an integer"),
        (lambda: chesskit.perft("startpos", 101), InputError, "depth must be at most"),
        (lambda: chesskit.divide("startpos", 0), InputError, "depth must be an integer >= 1"),
        (lambda: chesskit.perft("kiwipet", 1), InputError, "did you mean 'kiwipete'"),
        (lambda: chesskit.perft("8/8/8/8/8/8/8/8 w - - 0 1", 1), FenError, "invalid FEN"),
        (lambda: chesskit.perft("startpos", 1, moves="e2e5"), IllegalMoveError, "illegal move 'e2e5'"),
        (lambda: chesskit.perft("startpos", 1, moves=[1]), InputError, "a move must be a UCI string"),
        # no legal move at all: why ("(none)" alone before)
        (lambda: chesskit.perft("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 1, moves="e2e4"),
         IllegalMoveError, "legal moves: (none: checkmate)"),
        (lambda: chesskit.perft("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1, moves="h8h7"), IllegalMoveError, "legal moves: (none: stalemate)"),
        (lambda: chesskit.perft("startpos", 1, chess960="yes"), InputError, "chess960 must be True (Chess960 castling) or None or False (detected from the position)"),
        (lambda: chesskit.perft("startpos", 1, moves=b"e2e4"), InputError, "moves must be a string or a sequence of UCI strings, got b'e2e4'"),
        (lambda: chesskit.perft("startpos", 1, threads=0), InputError, "threads must be an integer >= 1"),
        (lambda: chesskit.perft("startpos", 1, hash_mb=-1), InputError, "hash_mb must be"),
        (lambda: chesskit.perft(None, 1), InputError, "a position is a FEN"),
        # refused before the engine is opened (-1 was accepted)
        (lambda: chesskit.compare("no-such-engine", "startpos", 1, state_pushes=-1), InputError, "state_pushes must be"),
        (lambda: chesskit.compare("no-such-engine", "startpos", 1, state_pushes=True), InputError, "state_pushes must be"),
    ],
)
def test_bad_input_is_an_input_error_with_exit_code_2(call, error, text):
    with pytest.raises(error, match=None) as caught:
        call()
    assert text in str(caught.value)
    assert caught.value.exit_code == 2


def test_strict_refuses_a_position_that_cannot_arise():
    fen = "4k3/8/8/8/8/8/8/R3K2R w Kk - 0 1"  # black's right has no rook
    assert chesskit.perft(fen, 1) == pc_perft(chess.Board(fen), 1)
    with pytest.raises(FenError):
        chesskit.perft(fen, 1, strict=True)


@pytest.mark.parametrize("call", [
    lambda: chesskit.perft("startpos", 1, strict="no"),
    lambda: chesskit.divide("startpos", 1, strict=1),
    lambda: chesskit.run_suite("positions/standard.epd", max_nodes=100, skip_chess960="yes"),
    lambda: chesskit.run_suite("positions/standard.epd", max_nodes=100, strict="no"),
])
def test_a_flag_that_is_no_bool_is_refused(call):
    # QA 41a: strict="no" was taken as True (and refused the position), where chess960="yes" is refused
    with pytest.raises(InputError, match=r"(strict|skip_chess960) must be True or False, got ('no'|1|'yes')"):
        call()


# ------------------------------------------------------------------ engines


@pytest.mark.parametrize(
    "kwargs",
    [
        {"command": FAKE_UCI},  # UCI go perft, detected
        {"command": [sys.executable, str(ENGINES / "fake_perft.py"), "--loop", "console", "--command", "divide"]},
        {"command": f"{sys.executable} {ENGINES / 'fake_perft.py'} --command perft --total-only", "dialect": "uci-perft-total"},
        {"engine_cmd": f'{sys.executable} {ENGINES / "fake_perft.py"} --oneshot "{{fen}}" {{depth}} "{{moves}}"'},
        {"script": CORRECT},
        {"python": f"{CORRECT}:Adapter"},
    ],
    ids=["uci", "console-dialect", "named-dialect", "template", "script", "python"],
)
def test_every_way_of_connecting_an_engine(kwargs):
    with chesskit.Engine(**kwargs) as engine:
        assert engine.perft("startpos", 2, moves=["e2e4"]) == pc_perft(_after("e2e4"), 2)
        if not engine.backend.total_only:
            assert engine.divide(EP_FEN, 2) == dict(sorted(pc_divide(EP_FEN, 2).items()))
        assert chesskit.compare(engine, "kiwipete", 2).agree


def _after(*moves: str) -> chess.Board:
    board = chess.Board()
    for move in moves:
        board.push_uci(move)
    return board


def test_a_path_object_is_one_program_even_with_spaces(tmp_path):
    # Engine(pathlib.Path(".../with space/my engine")) was split as a command line:
    # "was not found (no such file '.../with')"
    folder = tmp_path / "with space"
    folder.mkdir()
    program = folder / "my engine"
    program.write_text(f"#!/bin/sh\nexec {sys.executable} {ENGINES / 'fake_uci.py'}\n")
    program.chmod(0o755)
    with chesskit.Engine(program) as engine:
        assert engine.perft("startpos", 2) == 400 and engine.name == shlex.quote(str(program))
        assert engine.call == f"chesskit.Engine({json.dumps([str(program)])})"  # the regression test's call runs it too


def test_one_engine_option_may_be_given_as_a_string():
    # it was read letter by letter: "--engine-option must be NAME=VALUE, got 'H'"
    with chesskit.Engine(FAKE_UCI, options="Hash=32") as engine:
        assert engine.call.endswith('options=["Hash=32"])') and engine.perft("startpos", 2) == 400


def test_threads_sharing_one_engine_take_turns():
    """An Engine's process answers one question at a time: four threads asking at once got
    each other's answers, internal errors or "did not answer 'uci'" (its lock: ``Engine.lock``)."""
    from concurrent.futures import ThreadPoolExecutor

    questions = [(STARTPOS, 3), (KIWIPETE, 2), (EP_FEN, 3), (BEFORE_EP, 2)] * 4
    with chesskit.Engine(FAKE_UCI) as engine:
        with ThreadPoolExecutor(4) as pool:
            counts = list(pool.map(lambda q: engine.perft(*q), questions))
            agree = list(pool.map(lambda q: chesskit.compare(engine, q[0], 2).agree, questions[:4]))
    assert counts == [pc_perft(chess.Board(fen), depth) for fen, depth in questions] and all(agree)


def test_an_engine_names_its_dialect():
    with chesskit.Engine(FAKE_UCI) as engine:
        assert engine.dialect == {"name": "uci-go-perft", "moves": "uci", "total_only": False, "notation": "uci", "detected": True}
    with chesskit.Engine(script=CORRECT) as engine:
        assert engine.dialect is None


@pytest.mark.parametrize(
    "kwargs, text",
    [
        ({}, "give exactly one of command, script, python, engine_cmd (got none)"),
        ({"command": "x", "script": "y"}, "give exactly one of command, script, python, engine_cmd (got command and script)"),
        ({"script": ""}, "script is empty"),
        ({"script": CORRECT, "dialect": "uci-perft"}, "dialect only applies to command"),
        ({"script": CORRECT, "options": ["Hash=1"]}, "options only applies to command"),
        ({"command": FAKE_UCI, "dialect": "klingon"}, "unknown dialect 'klingon'"),
        ({"command": FAKE_UCI, "timeout": "soon"}, "timeout must be a number"),
        ({"command": FAKE_UCI, "timeout": 0}, "timeout must be a positive number of seconds up to"),
        ({"command": FAKE_UCI, "options": ["Hash"]}, "options must be NAME=VALUE"),
        ({"engine_cmd": "./engine {depth}"}, "engine_cmd './engine {depth}' has no {fen} placeholder"),
        ({"engine_cmd": "'./engine {fen} {depth}"}, "bad engine_cmd"),
        ({"python": "eng_correct.py"}, "python 'eng_correct.py' must be MODULE:ATTR"),
        # these were TypeErrors from inside chesskit
        ({"command": 5}, "command must be a command line or a list of its words, got 5"),
        ({"command": b"stockfish"}, "command must be a command line or a list of its words"),
        ({"command": FAKE_UCI, "options": 5}, "options must be NAME=VALUE strings or a mapping of names to values, got 5"),
    ],
)
def test_bad_engine_arguments_are_input_errors(kwargs, text):
    # named by Engine's own keywords: a Python caller wrote no --engine or --dialect flag
    with pytest.raises(InputError) as caught:
        chesskit.Engine(**kwargs)
    assert text in str(caught.value) and caught.value.exit_code == 2
    assert "--" not in str(caught.value), str(caught.value)


def test_a_failing_engine_is_an_engine_error_with_exit_code_3():
    with chesskit.Engine(script=str(ENGINES / "fail_exit.py")) as engine:
        with pytest.raises(EngineError) as caught:
            engine.perft("startpos", 1)
    assert caught.value.exit_code == 3 and "exited with code 1" in str(caught.value)
    with pytest.raises(EngineError):
        chesskit.compare(f"{sys.executable} {ENGINES / 'fail_exit.py'}", "startpos", 1)


@pytest.mark.parametrize("spec", ["no-such-file.py:Adapter", f"{ENGINES / 'fail_import.py'}:Adapter", f"{ENGINES / 'eng_correct.py'}:NoSuchName"])
def test_an_adapter_that_does_not_load_never_started(spec):
    # as a missing program or script: EngineNotStarted (a run over many positions stops at once)
    from chesskit.errors import EngineNotStarted

    with pytest.raises(EngineNotStarted) as caught:
        chesskit.Engine(python=spec).perft("startpos", 1)
    assert caught.value.exit_code == 3


def test_compare_and_run_suite_take_a_command_as_an_argv_list_and_refuse_what_is_no_engine():
    argv = [sys.executable, str(ENGINES / "fake_perft.py"), "--loop", "console", "--command", "divide"]
    assert chesskit.compare(argv, "kiwipete", 2).agree  # it was an AttributeError ('list' has no 'call')
    run = chesskit.run_suite(str(REPO / "positions" / "standard.epd"), argv, max_nodes=100)
    assert run.exit_code == 0 and len(run) > 0
    for bad in (None, 5, b"stockfish", [], ["stockfish", 1]):
        with pytest.raises(InputError, match="an engine is a chesskit.Engine or a command"):
            chesskit.compare(bad, "kiwipete", 1)


def test_run_suite_names_the_dialect_that_answered(tmp_path):
    """``run_suite(...).dialect_answered`` is ``suite --json``'s: Sjaak II's fake, found dividing
    in xboard, answers a Chess960 position (python-chess's counts) in its UCI loop's totals."""
    suite = tmp_path / "mine.epd"
    suite.write_text('4k3/8/8/8/8/8/8/5KRn w G - id "adj"; D1 12; D2 73;\n')
    sjaak = [sys.executable, str(ENGINES / "fake_xboard.py"), "--format", "sjaak", "--uci", "--uci960"]
    run = chesskit.run_suite(str(suite), sjaak)
    assert run.exit_code == 0
    assert run.dialect["name"] == "xboard-perft-split"
    assert run.dialect_answered == {
        "name": "uci-perft-total", "moves": None, "total_only": True, "notation": None, "detected": True,
    }
    suite.write_text(f'{STARTPOS} id "start"; D1 20;\n')
    with chesskit.Engine(script=CORRECT) as script:  # no dialect: neither key
        run = chesskit.run_suite(str(suite), script)
        assert run.exit_code == 0 and run.dialect is None and run.dialect_answered is None


def test_compare_refuses_a_variant_the_engine_was_not_opened_in():
    with chesskit.Engine(script=CORRECT) as engine:
        with pytest.raises(InputError, match=r"the Engine counts chess and variant='racingkings' was asked: open it with Engine\(\.\.\., variant='racingkings'\)"):
            chesskit.compare(engine, "startpos", 2, variant="racingkings")
        assert chesskit.compare(engine, "kiwipete", 1, variant="chess").agree  # its own rules, named


@pytest.mark.parametrize("kwargs", [{"command": FAKE_UCI}, {"script": CORRECT}], ids=["uci", "script"])
def test_compare_refuses_state_pushes_for_an_engine_with_no_state_as_the_cli_does(kwargs):
    # it was silently ignored, where `compare --state-pushes 5 --engine ...` is exit 2
    with chesskit.Engine(**kwargs) as engine:
        with pytest.raises(InputError, match=r"^state_pushes sets the full-state sweep of a python adapter with fen\(\); "
                           r"without one it would change nothing"):
            chesskit.compare(engine, "kiwipete", 1, state_pushes=5)
        assert chesskit.compare(engine, "kiwipete", 1).agree  # not given: the default, used by none
    with chesskit.Engine(python=f"{NO_EP}:Adapter") as adapter:  # an adapter with fen(): its sweep's bound
        assert chesskit.compare(adapter, "kiwipete", 1, state_pushes=5).agree


def test_an_illegal_move_never_reaches_the_engine():
    with chesskit.Engine(FAKE_UCI) as engine:
        with pytest.raises(IllegalMoveError):
            engine.divide("startpos", 1, moves="e2e5")


# ------------------------------------------------------------------ compare


def test_compare_finds_the_missing_en_passant():
    with chesskit.Engine(script=NO_EP) as engine:
        result = chesskit.compare(engine, BEFORE_EP, 3)
    assert not result.agree and result.kind == "moves"
    assert result.path == ["f7f5"] and result.missing == ["e5f6"] and result.extra == []
    assert [n["move"] for n in result.notes] == ["e5f6"] and "en passant" in result.notes[0]["kinds"]
    assert [(step["path"], step["depth"]) for step in result.steps] == [([], 3), (["f7f5"], 2)]
    assert result.summary().startswith(f"{NO_EP} misses e5f6 after f7f5")


@pytest.mark.parametrize(
    "args",
    [
        ["--script", NO_EP],
        ["--python", f"{ENGINES / 'bug_ep_not_restored.py'}:Adapter"],  # a state mismatch
        ["--engine", f"{FAKE_UCI} --bug no_ep"],  # with a dialect
    ],
)
def test_compare_result_is_exactly_what_compare_json_prints(cli, args):
    printed = cli("compare", EP_FEN, "3", *args, "--json")
    assert printed.exit_code == 1, printed.stderr
    flag, value = args
    keyword = {"--script": "script", "--python": "python", "--engine": "command"}[flag]
    with chesskit.Engine(**{keyword: value}) as engine:
        result = chesskit.compare(engine, EP_FEN, 3)
    assert result.to_json() == json.loads(printed.stdout)
    assert not result.agree


# ------------------------------------------------------------------ import chesskit


def _fresh(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env(), cwd=REPO, check=True
    )
    return out.stdout.strip()


def test_chesskit_compare_is_the_function_after_the_subpackage_is_imported():
    code = (
        "import chesskit, chesskit.compare.descent\n"
        "from chesskit.compare import engines\n"
        "print(callable(chesskit.compare), chesskit.compare.__module__, engines.__name__)"
    )
    assert _fresh(code) == "True chesskit.api.comparison chesskit.compare.engines"


def test_the_api_names_load_on_first_use():
    code = (
        "import sys, chesskit\n"
        "before = 'chesskit.api' in sys.modules\n"
        "chesskit.Engine\n"
        "print(before, 'chesskit.api' in sys.modules, 'numba' in sys.modules)"
    )
    before, after, numba = _fresh(code).split()
    assert (before, after, numba) == ("False", "True", "False")
    assert {"perft", "divide", "stats", "compare", "Engine", "Board", "errors"} <= set(chesskit.__all__)
    assert all(hasattr(chesskit, name) for name in chesskit.__all__)


def test_dir_shows_the_api_not_the_helpers_the_package_uses():
    # it listed sys, types, TYPE_CHECKING and annotations beside the API
    shown = set(dir(chesskit))
    assert set(chesskit.__all__) <= shown
    assert not {"sys", "types", "TYPE_CHECKING", "annotations"} & shown
    assert "board" in shown  # a subpackage already imported is still there


def test_no_module_imports_the_compare_subpackage_under_an_alias():
    """``import chesskit.compare.x as y`` would find chesskit.compare, the API function
    (see chesskit/__init__.py); ``from chesskit.compare import x`` is the form to use."""
    found = []
    for path in [*(REPO / "chesskit").rglob("*.py"), *(REPO / "tests").rglob("*.py")]:
        text = path.read_text()
        if "import chesskit.compare" not in text:
            continue
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.Import):
                found += [f"{path}:{node.lineno}" for a in node.names if a.name.startswith("chesskit.compare") and a.asname]
    assert found == []


def test_no_api_module_is_named_as_a_public_name():
    """Importing chesskit.api.NAME would make ``chesskit.api.NAME`` the module, not the function."""
    import chesskit.api

    modules = {path.stem for path in (REPO / "chesskit" / "api").glob("*.py")}
    assert modules and not modules & set(chesskit.api.__all__)
    for name in chesskit.api.__all__:
        assert getattr(chesskit.api, name) is getattr(chesskit, name)


def test_run_suite_reads_one_tags_string_as_the_cli_does():
    # tags="ep" looked for the tags 'e' and 'p' (InputError: no position is tagged so)
    as_list = [p.record.label for p in chesskit.run_suite(max_nodes=1000, tags=["ep", "castling"])]
    assert as_list
    assert [p.record.label for p in chesskit.run_suite(max_nodes=1000, tags="ep,castling")] == as_list
    assert [p.record.label for p in chesskit.run_suite(max_nodes=1000, tags="ep")] == [
        p.record.label for p in chesskit.run_suite(max_nodes=1000, tags=["ep"])
    ]


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"max_nodes": "abc"}, "max_nodes must be an integer >= 0"),  # was a TypeError
        ({"max_nodes": -1}, "max_nodes must be an integer >= 0"),  # was "nothing to run ... --max-nodes -1"
        ({"max_depth": -1}, "max_depth must be an integer >= 0"),
        ({"max_depth": 2.5}, "max_depth must be an integer >= 0"),
        # -1 made every position an engine error (exit code 3)
        ({"engine": FAKE_UCI, "position_timeout": -1}, "position_timeout must be a positive number"),
        ({"engine": FAKE_UCI, "position_timeout": float("nan")}, "position_timeout must be"),
        # perft refuses these; run_suite ran with them
        ({"max_nodes": 100, "threads": 0}, "threads must be an integer >= 1"),
        ({"max_nodes": 100, "hash_mb": -1}, "hash_mb must be a number of MiB"),
        # these were TypeErrors from inside chesskit
        ({"max_nodes": 100, "tags": 5}, "tags must be a string"),
        ({"max_nodes": 100, "tags": ["ep", 5]}, "tags must be a string"),
    ],
)
def test_run_suite_refuses_bad_limits(kwargs, words):
    with pytest.raises(InputError, match=words):
        chesskit.run_suite(str(REPO / "positions" / "standard.epd"), **kwargs)


@pytest.mark.parametrize("paths", [5, None, [str(REPO / "positions" / "standard.epd"), 5]])
def test_run_suite_refuses_what_is_no_path(paths):
    with pytest.raises(InputError, match="paths must be a suite file's or folder's path, or a list of them"):
        chesskit.run_suite(paths, max_nodes=100)


def test_run_suite_takes_a_path_object_and_compare_an_on_step_that_is_a_function():
    assert chesskit.run_suite(REPO / "positions" / "standard.epd", max_nodes=100).tally()["passed"] > 0
    with pytest.raises(InputError, match="on_step must be a function of one argument"):
        chesskit.compare(FAKE_UCI, "startpos", 1, on_step=5)  # was a TypeError once the descent began
    steps = []
    assert chesskit.compare(FAKE_UCI, "startpos", 2, on_step=steps.append).agree and steps


@pytest.mark.parametrize("kwargs, said", [
    ({"max_depth": 0, "max_nodes": 100}, "within max_nodes=100 and max_depth=0"),
    ({"tags": "no-such-tag"}, "tags: no position of these suites is tagged 'no-such-tag'"),
])
def test_run_suite_says_its_keywords_not_the_clis_flags(kwargs, said):
    with pytest.raises(InputError) as caught:
        chesskit.run_suite(str(REPO / "positions" / "standard.epd"), **kwargs)
    assert said in str(caught.value) and "--" not in str(caught.value)


def test_run_suite_takes_a_float_limit_such_as_1e3():
    assert chesskit.run_suite(str(REPO / "positions" / "standard.epd"), max_nodes=1e3).tally()["passed"] == 7


def test_a_closed_engine_is_refused_not_started_again(tmp_path, monkeypatch):
    # a question after close() started the engine's process again, which nothing stopped
    log = tmp_path / "log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    engine = chesskit.Engine(FAKE_UCI)
    assert engine.perft("startpos", 2) == 400
    engine.close()
    engine.close()  # twice is fine
    started = log.read_text().splitlines().count("uci")
    assert started == 1
    with pytest.raises(InputError, match=r"is closed: open a new one"):
        engine.perft("startpos", 1)
    with pytest.raises(InputError, match=r"is closed"):
        chesskit.compare(engine, "startpos", 2)
    assert log.read_text().splitlines().count("uci") == started  # nothing was started again


def test_run_suite_and_check_case_refuse_a_closed_engine(tmp_path, monkeypatch):
    # run_suite started a closed Engine's process again, ran the suite and left it running
    from chesskit.api.suite import check_case, suite_cases

    log = tmp_path / "log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    engine = chesskit.Engine(FAKE_UCI)
    assert engine.perft("startpos", 1) == 20
    engine.close()
    started = log.read_text().splitlines().count("uci")
    suite = str(REPO / "positions" / "standard.epd")
    with pytest.raises(InputError, match=r"the Engine .* is closed: open a new one"):
        chesskit.run_suite(suite, engine, max_nodes=100)
    (case, *_), _ = suite_cases(suite, max_nodes=100)
    with pytest.raises(InputError, match=r"the Engine .* is closed: open a new one"):
        check_case(engine, case)
    assert log.read_text().splitlines().count("uci") == started  # nothing was started again
    assert engine.closed


# ------------------------------------------------------------------ the keywords, not the flags


def _beyond_memory_mb() -> int:
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        total = next(int(line.split()[1]) // 1024 for line in meminfo if line.startswith("MemTotal:"))
    if total + total // 4 > 1 << 20:
        pytest.skip("hash_mb takes up to 1 TiB, less than this machine's memory")
    return total + total // 4


@pytest.mark.parametrize("call", [chesskit.perft, chesskit.divide])
def test_a_hash_beyond_memory_names_hash_mb_not_the_flag(call):
    # it said "--hash N MiB is more than this machine's memory ...: give a smaller --hash"
    size = _beyond_memory_mb()
    with pytest.raises(InputError) as caught:
        call("startpos", 2, hash_mb=size)
    said = str(caught.value)
    assert said.startswith(f"hash_mb={size} MiB is more than") and said.endswith("give a smaller hash_mb")
    assert "--" not in said


def test_run_suite_s_reasons_name_position_timeout_and_fail_fast_not_the_flags():
    # a position past position_timeout was "within --position-timeout 2 s" (its result, the
    # one on_position saw, the verdict), the rest "--fail-fast stopped the run"; fake_uci
    # counts with python-chess: startpos D5 takes far longer than 2 s
    seen = []
    result = chesskit.run_suite(str(REPO / "positions" / "standard.epd"), FAKE_UCI, max_nodes=5_000_000,
                                position_timeout=2, fail_fast=True, on_position=seen.append)
    first, second = result[0], result[1]
    assert first.status == "engine-error" and seen == [first]
    assert "did not finish the position within position_timeout=2 s" in first.reason
    assert "within position_timeout=2 s" in first.failure.reason
    assert (second.status, second.reason) == ("not-run", "fail_fast stopped the run")
    verdict = str(result.verdict())
    assert "within position_timeout=2 s" in verdict
    assert not [text for text in (first.reason, first.failure.reason, verdict) if "--" in text]


def test_run_suite_names_its_keywords_for_an_engine_that_cannot_start_or_stats():
    hang = [sys.executable, str(ENGINES / "fail_hang.py")]  # hangs at its first 'go perft'
    result = chesskit.run_suite(str(REPO / "positions" / "standard.epd"), hang, max_nodes=100, tags="ep",
                                position_timeout=0.5)
    verdict = str(result.verdict())
    assert "did not finish the position within position_timeout=0.5 s" in verdict and "--" not in verdict
    assert result[0].reason == verdict
    with pytest.raises(InputError, match=r"^stats counts with chesskit itself"):
        chesskit.run_suite((), hang, stats=True)


def test_an_engine_s_question_names_its_keywords_with_flags_its_flags(tmp_path):
    # Engine(...).perft said "name its dialect with --dialect or give a one-shot --engine-cmd";
    # Engine.with_flags (the commands, the pytest plugin) keeps the flags
    mute = tmp_path / "mute.py"
    mute.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.strip()\n"
        "    if word == 'uci':\n"
        "        print('id name Mute\\nuciok', flush=True)\n"
        "    elif word == 'isready':\n"
        "        print('readyok', flush=True)\n"
    )
    said = {}
    for make in (chesskit.Engine, chesskit.Engine.with_flags):
        engine = make([sys.executable, str(mute)], timeout=0.3)
        try:
            with pytest.raises(EngineError, match="answered no perft question") as caught:
                engine.perft("startpos", 1)
        finally:
            engine.close()
        said[make] = str(caught.value)
    assert said[chesskit.Engine].endswith("name its dialect with dialect or give a one-shot engine_cmd")
    assert said[chesskit.Engine.with_flags].endswith("name its dialect with --dialect or give a one-shot --engine-cmd")


def test_a_suite_result_of_lines_not_run_says_so(tmp_path):
    # repr said "no positions" for a run whose every line was refused when read
    bad = tmp_path / "bad.epd"
    bad.write_text("not a fen ;D1 20\nalso not ;D1 3\n")
    result = chesskit.run_suite(bad)
    assert len(result.bad_lines) == 2 and result.exit_code == 2
    assert repr(result) == "SuiteResult(no positions, 2 lines not run, exit code 2)"


def test_a_suites_tally_counts_its_errors_as_the_command_does(tmp_path, cli):
    # tally()["error"] was 0 where `chesskit suite` said "2 errors": lines refused when read
    # are no positions, but they are errors of the run
    mixed = tmp_path / "mixed.epd"
    mixed.write_text(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n"
        "not a fen ;D1 20\n"
        "8/8/8/8/8/8/8/K1k5 w - - ;D1 3 ;variant losers\n"
    )
    result = chesskit.run_suite(mixed)
    said = json.loads(cli("suite", str(mixed), "--json").stdout)["positions"]
    assert result.tally()["error"] == said["errors"] == len(result.bad_lines) == 2
    assert result.tally()["passed"] == said["passed"] == 1


def test_an_error_from_the_api_carries_no_frame_of_chesskits_inside():
    # pytest prints every frame of a failing test's traceback: an engine that hung showed
    # the descent's and the adapter host's source before chesskit's one line
    import traceback

    engine = chesskit.Engine(python=f"{ENGINES / 'fail_adapters.py'}:HangsInLegalMoves", timeout=0.5)
    with engine, pytest.raises(EngineError, match="did not finish the divide within 0.5 s") as info:
        engine.perft("startpos", 2)
    files = {frame.filename for frame in traceback.extract_tb(info.value.__traceback__)}
    assert not any("/compare/" in name or "/board/" in name for name in files), files
    assert any(name.endswith("api/engine.py") for name in files)
    # a bad input of the counting functions too, its keyword still named
    with pytest.raises(InputError, match="hash_mb") as info:
        chesskit.perft("startpos", 1, hash_mb=-1)
    assert not any("/core/" in frame.filename for frame in traceback.extract_tb(info.value.__traceback__))
