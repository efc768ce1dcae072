"""The engine back ends: UCI (`go perft`), perftree scripts and Python adapters.

The engines they drive live in tests/engines/: a correct one and one per classic
bug (each usable as a Python adapter and as a perftree script), a fake UCI
engine, and engines that fail on purpose.  python-chess is the reference.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import chess
import pytest

from chesskit.compare.engines import (
    PythonEngine,
    ScriptEngine,
    UciEngine,
    find_stockfish,
    open_engine,
    parse_options,
)
from chesskit.compare.engines.script import shredder_fen
from chesskit.errors import EngineError, InputError
from helpers import ENGINES, EP_FEN, KIWIPETE, finishes, gone, need_program, one_line, pc_divide

PY = sys.executable

STARTPOS = chess.STARTING_FEN
PROMO_FEN = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"
C960_CPW = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
C960_CASTLE = "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1"  # b1a1 castles

# bug -> (position, depth, the root moves whose counts differ from the correct ones)
BUG_TRIGGERS = {
    "no_ep": (EP_FEN, 1, {"e5f6"}),  # the capture is missing
    "ep_rank_pin": ("8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2", 1, {"b5c6"}),  # illegal capture added
    "castle_through_check": ("4k3/8/b7/8/8/8/8/4K2R w K - 0 1", 1, {"e1g1"}),  # f1 is attacked
    "castle_rights_kept": ("4k3/8/8/8/8/8/6b1/4K2R b K - 0 1", 2, {"g2h1"}),  # then e1g1 without a rook
    "queen_promo_only": ("8/P7/8/8/8/8/8/k6K w - - 0 1", 1, {"a7a8r", "a7a8b", "a7a8n"}),
    "ep_not_restored": (EP_FEN, 3, {"e5f6"}),  # f6 is forgotten after the first reply is popped
}


def engine_file(name: str) -> str:
    return str(ENGINES / name)


pytestmark = pytest.mark.usefixtures("no_leftover_children")


def back_ends(name: str):
    """The ways to run engine file `name`: Python adapter, perftree script, fake UCI."""
    return {
        "python": lambda **kw: PythonEngine(f"{engine_file(name)}:Adapter", **kw),
        "script": lambda **kw: ScriptEngine(engine_file(name), **kw),
    }


# -- correct engines agree with python-chess -----------------------------------

AGREEMENT = [
    (STARTPOS, 2, ["e2e4"], False),
    (KIWIPETE, 2, [], False),
    (EP_FEN, 2, [], False),
    (PROMO_FEN, 2, ["d7c6"], False),
    (C960_CASTLE, 2, [], True),
]


@pytest.mark.parametrize("fen, depth, moves, chess960", AGREEMENT)
@pytest.mark.parametrize("kind", ["python", "script", "uci"])
def test_correct_engine_agrees_with_python_chess(kind, fen, depth, moves, chess960):
    if kind == "uci":
        engine = UciEngine([PY, engine_file("fake_uci.py"), "--chatty"], timeout=30)
    else:
        engine = back_ends("eng_correct.py")[kind](timeout=30)
    with engine:
        assert engine.divide(fen, depth, moves, chess960) == pc_divide(fen, depth, moves, chess960)


def test_chess960_castling_is_king_takes_rook():
    with PythonEngine(f"{engine_file('eng_correct.py')}:Adapter") as engine:
        assert "b1a1" in engine.divide(C960_CASTLE, 1, [], chess960=True)


def test_plain_adapter_without_fen_or_chess960_keyword():
    engine = PythonEngine(f"{engine_file('fail_adapters.py')}:Plain")
    assert not engine.has_fen()
    assert engine.divide(KIWIPETE, 2, ["e1g1"]) == pc_divide(KIWIPETE, 2, ["e1g1"])
    with pytest.raises(EngineError, match="has no fen"):
        engine.fen()


def test_adapter_loaded_by_module_name(monkeypatch):
    monkeypatch.syspath_prepend(str(ENGINES))
    engine = open_engine(python="eng_correct:Adapter")
    assert engine.divide(STARTPOS, 1, []) == pc_divide(STARTPOS, 1)


def test_adapter_file_without_the_py_ending(tmp_path):
    # a perftree script named `perftree` is an adapter too: it could not be imported at
    # all ("AttributeError: 'NoneType' object has no attribute 'loader'")
    adapter = tmp_path / "perftree"
    adapter.write_text(f"import sys\nsys.path.insert(0, {str(ENGINES)!r})\nfrom pchelper import Adapter\n")
    engine = open_engine(python=f"{adapter}:Adapter")
    assert engine.divide(STARTPOS, 1, []) == pc_divide(STARTPOS, 1)
    notes = tmp_path / "notes.txt"
    notes.write_text("not python at all\n")
    with pytest.raises(EngineError, match=r"could not be imported: SyntaxError"):
        open_engine(python=f"{notes}:Adapter")


# -- the real Stockfish ----------------------------------------------------------

# conftest's fixture: skipped without Stockfish, a failure in CI (which installs it)
needs_stockfish = pytest.mark.usefixtures("stockfish_path")


@pytest.mark.stockfish
@needs_stockfish
@pytest.mark.parametrize(
    "fen, depth, moves, chess960",
    [
        (STARTPOS, 3, [], False),
        (KIWIPETE, 3, [], False),
        (KIWIPETE, 3, ["e1c1", "h3g2"], False),
        (C960_CPW, 3, [], True),
        (C960_CASTLE, 3, [], True),
        (STARTPOS, 3, ["e2e4", "d7d5", "e4e5", "f7f5"], False),
    ],
)
def test_stockfish_agrees_with_python_chess(fen, depth, moves, chess960):
    with UciEngine("stockfish", {"Threads": "1", "Hash": "16"}) as engine:
        assert engine.divide(fen, depth, moves, chess960) == pc_divide(fen, depth, moves, chess960)


@pytest.mark.stockfish
@needs_stockfish
def test_stockfish_one_process_for_the_run():
    with open_engine(engine="stockfish", options=["Hash=16"]) as engine:
        engine.divide(STARTPOS, 1, [])
        pid = engine._proc.pid
        assert engine.divide(C960_CASTLE, 1, [], chess960=True) == pc_divide(C960_CASTLE, 1, [], True)
        assert engine.divide(KIWIPETE, 2, []) == pc_divide(KIWIPETE, 2)
        assert engine._proc.pid == pid
        assert engine.id_name.startswith("Stockfish")


@pytest.mark.stockfish
@needs_stockfish
def test_stockfish_unknown_option():
    with pytest.raises(EngineError, match=r"^engine 'stockfish' has no option 'Nonsense' \(it offers: .*Hash"):
        with open_engine(engine="stockfish", options=["Nonsense=1"]) as engine:
            engine.divide(STARTPOS, 1, [])


# -- buggy engines differ from the correct one where their bug bites ------------


@pytest.mark.parametrize("bug", sorted(BUG_TRIGGERS))
@pytest.mark.parametrize("kind", ["python", "script", "uci"])
def test_buggy_engine_differs_on_its_trigger(kind, bug):
    fen, depth, moves = BUG_TRIGGERS[bug]
    if kind == "uci":
        engine = UciEngine([PY, engine_file("fake_uci.py"), "--bug", bug])
    else:
        engine = back_ends(f"bug_{bug}.py")[kind]()
    good = pc_divide(fen, depth)
    with engine:
        bad = engine.divide(fen, depth, [])
    assert {m for m in good.keys() | bad.keys() if good.get(m) != bad.get(m)} == moves


@pytest.mark.parametrize("bug", sorted(BUG_TRIGGERS))
def test_buggy_engine_is_right_elsewhere(bug):
    """The bug needs its trigger: on a quiet position the counts are right."""
    fen = "4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1"
    with PythonEngine(f"{engine_file(f'bug_{bug}.py')}:Adapter") as engine:
        assert engine.divide(fen, 3, []) == pc_divide(fen, 3)


@pytest.mark.parametrize("bug", ["halfmove_not_restored", "fullmove_not_restored"])
def test_counter_bugs_keep_perft_counts(bug):
    with PythonEngine(f"{engine_file(f'bug_{bug}.py')}:Adapter") as engine:
        assert engine.divide(KIWIPETE, 2, []) == pc_divide(KIWIPETE, 2)


# bug -> (position, move to push and pop, the fen() the buggy adapter reports after the pop)
STATE_TRIGGERS = {
    "halfmove_not_restored": ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20", "e1e2", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 6 20"),
    "fullmove_not_restored": ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 20", "e8e7", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 21"),
    "ep_not_restored": (EP_FEN, "a2a3", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"),
}


@pytest.mark.parametrize("bug", sorted(STATE_TRIGGERS))
def test_state_bugs_show_in_fen_after_pop(bug):
    fen, move, after_pop = STATE_TRIGGERS[bug]
    good = PythonEngine(f"{engine_file('eng_correct.py')}:Adapter")
    bad = PythonEngine(f"{engine_file(f'bug_{bug}.py')}:Adapter")
    for engine in (good, bad):
        assert engine.has_fen()
        engine.set_fen(fen)
        assert engine.fen() == fen
        engine.push(move)
        engine.pop()
    assert good.fen() == fen
    assert bad.fen() == after_pop


def test_castle_rights_bug_shows_in_fen():
    fen, _, _ = BUG_TRIGGERS["castle_rights_kept"]
    engine = PythonEngine(f"{engine_file('bug_castle_rights_kept.py')}:Adapter")
    engine.set_fen(fen)
    engine.push("g2h1")
    assert engine.fen() == "4k3/8/8/8/8/8/8/4K2b w K - 0 2"
    assert "e1g1" in engine.legal_moves()


def test_hooks_follow_python_chess():
    engine = PythonEngine(f"{engine_file('eng_correct.py')}:Adapter")
    board = chess.Board(KIWIPETE)
    engine.set_fen(KIWIPETE)
    for move in ["e1g1", "a6e2", "d5d6"]:
        engine.push(move)
        board.push_uci(move)
        assert engine.fen() == board.fen()
        assert sorted(engine.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
    for _ in range(3):
        engine.pop()
        board.pop()
        assert engine.fen() == board.fen()


# -- engines that fail: one clear EngineError, nothing left running --------------


def uci(name: str, *args: str, **kw) -> UciEngine:
    return UciEngine([engine_file(name), *args], **kw)


def failing(kind: str, name: str, **kw):
    return uci(name, **kw) if kind == "uci" else ScriptEngine(engine_file(name), **kw)


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("uci", r"exited with code 1 after 'uci'; last output: 'fail_exit: cannot open network file nn-0000.nnue'$"),
        ("script", r"exited with code 1 for depth 2 on '.*'; last output: 'fail_exit: cannot open network file"),
    ],
)
def test_engine_that_exits(kind, expected):
    with pytest.raises(EngineError, match=r"^engine '.*fail_exit.py' " + expected) as info:
        with failing(kind, "fail_exit.py") as engine:
            engine.divide(STARTPOS, 2, [])
    assert info.value.exit_code == 3
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("kind, asked", [("uci", "'go perft 3'"), ("script", "depth 3 on '.*' moves 'e2e4'")])
def test_engine_that_hangs_is_killed_with_its_helpers(kind, asked, tmp_path, monkeypatch):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("CHESSKIT_HANG_PIDFILE", str(pidfile))

    def ask():
        with failing(kind, "fail_hang.py", timeout=1) as engine:
            engine.divide(STARTPOS, 3, ["e2e4"])

    # the 1 s timeout fires (the message says so) and the call returns: a broken one hangs
    with pytest.raises(EngineError, match=rf"^engine '.*fail_hang.py' did not answer {asked} within 1 s$"):
        finishes(ask)
    pids = [int(pid) for pid in pidfile.read_text().split()]
    deadline = time.monotonic() + 60  # they are gone at once; the bound only ends a failure
    while not all(gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(pid) for pid in pids), "the engine or its helper is still running"


@pytest.mark.parametrize("kind", ["uci", "script"])
def test_engine_that_prints_garbage(kind):
    with pytest.raises(EngineError, match=r"^engine '.*fail_garbage.py' printed a line chesskit cannot parse .*: 'e2e4 - 20'$"):
        with failing(kind, "fail_garbage.py") as engine:
            engine.divide(STARTPOS, 1, [])


@pytest.mark.parametrize("kind", ["uci", "script"])
def test_engine_that_is_not_executable(kind):
    with pytest.raises(EngineError, match=r"^engine '.*fail_not_executable.py' is not executable"):
        failing(kind, "fail_not_executable.py").divide(STARTPOS, 1, [])


@pytest.mark.parametrize("kind", ["uci", "script"])
def test_engine_that_does_not_exist(kind):
    with pytest.raises(EngineError, match=r"^engine '.*no_such_engine' was not found"):
        failing(kind, "no_such_engine").divide(STARTPOS, 1, [])
    with pytest.raises(EngineError, match=r"^engine 'no-such-engine-xyz' was not found \(no 'no-such-engine-xyz' on PATH\)"):
        open_engine(**{"engine" if kind == "uci" else "script": "no-such-engine-xyz"}).divide(STARTPOS, 1, [])


@pytest.mark.parametrize(
    "first_line, why",
    [
        # the file exists: "No such file or directory" alone sent the user looking for it
        ("#!/no/such/interpreter\n", r"No such file or directory: the interpreter its #! line names, '/no/such/interpreter', does not exist$"),
        ("echo no interpreter line\n", r"Exec format error: neither a program this system runs nor a script with a #! line$"),
        # saved on Windows: the kernel looks for '/bin/sh\r'; "'/bin/sh' does not exist" was told
        (
            "#!/bin/sh\r\necho hi\r\n",
            r"No such file or directory: its #! line ends in a carriage return, so the interpreter looked for is "
            r"'/bin/sh\\r': the file has Windows \(CRLF\) line endings; convert it to LF \(dos2unix\)$",
        ),
    ],
    ids=["missing interpreter", "no #! line", "CRLF line endings"],
)
def test_a_script_that_cannot_be_run_says_why(tmp_path, first_line, why):
    script = tmp_path / "engine.sh"
    script.write_text(first_line)
    script.chmod(0o755)
    with pytest.raises(EngineError, match=r"^engine '.*engine.sh' could not be started: " + why):
        ScriptEngine(str(script)).divide(STARTPOS, 1, [])


def test_directory_is_not_executable():
    with pytest.raises(EngineError, match="is not executable .*is a directory"):
        ScriptEngine(str(ENGINES)).divide(STARTPOS, 1, [])


def test_uci_engine_that_crashes_mid_divide():
    with pytest.raises(
        EngineError,
        match=r"exited with code 2 after 'go perft 2'; last output: 'fake_uci: simulated crash'$",
    ):
        with uci("fake_uci.py", "--crash-on-go") as engine:
            engine.divide(STARTPOS, 2, [])


def test_a_silent_crash_quotes_no_line_of_an_earlier_answer():
    # "killed by signal SIGSEGV after 'go perft 2'; last output: 'readyok'": the readyok
    # of the question before, quoted as if the engine had said it to go perft 2
    placement = STARTPOS.split()[0]
    with uci("fail_on.py", "--fault", "segv", "--on", placement, "--depth", "2") as engine:
        assert sum(engine.divide(STARTPOS, 1, []).values()) == 20
        with pytest.raises(EngineError, match=r"killed by signal SIGSEGV after 'go perft 2'; it printed nothing$"):
            engine.divide(STARTPOS, 2, [])
    # a crash part-way through its answer still quotes that answer's last line (the move before b1c3)
    with uci("fail_on.py", "--fault", "abort", "--on", placement, "--depth", "2", "--move", "b1c3") as engine:
        with pytest.raises(EngineError, match=r"killed by signal SIGABRT after 'go perft 2'; last output: '[a-h][1-8][a-h][1-8]: 20'$"):
            engine.divide(STARTPOS, 2, [])


def test_uci_divide_must_add_up():
    with pytest.raises(EngineError, match=r"divide lines summing to 400 but 'Nodes searched: 401'"):
        with uci("fake_uci.py", "--bad-sum") as engine:
            engine.divide(STARTPOS, 2, [])


def test_script_total_must_add_up(tmp_path):
    script = tmp_path / "perft.sh"
    script.write_text("#!/bin/sh\necho 'e2e4 20'\necho 'd2d4 20'\necho\necho 41\n")
    script.chmod(0o755)
    with pytest.raises(EngineError, match=r"divide lines summing to 40 but a total of 41"):
        ScriptEngine(str(script)).divide(STARTPOS, 2, [])
    script.write_text("#!/bin/sh\necho 'e2e4 20'\n")
    with pytest.raises(EngineError, match=r"printed no total line"):
        ScriptEngine(str(script)).divide(STARTPOS, 2, [])
    # the total first: the error quoted the first divide line as one it "cannot parse"
    script.write_text("#!/bin/sh\necho 40\necho\necho 'e2e4 20'\necho 'd2d4 20'\n")
    with pytest.raises(EngineError, match=r"printed a divide line after its total for depth 2 on .*: 'e2e4 20' \(expected moves, a blank line, then the total\)$"):
        ScriptEngine(str(script)).divide(STARTPOS, 2, [])
    # a total alone: it was "divide lines summing to 0" (QA 40b #7)
    script.write_text("#!/bin/sh\necho 400\n")
    with pytest.raises(EngineError, match=r"printed a total \(400\) and no divide lines for depth 2 on .*: a script that prints a total only is run with --engine-cmd 'SCRIPT \{depth\} \"\{fen\}\" \"\{moves\}\"' \(its dialect oneshot-total\)$"):
        ScriptEngine(str(script)).divide(STARTPOS, 2, [])
    script.write_text("#!/bin/sh\necho 'e2e4 20'\necho 'e2e4 20'\necho\necho 40\n")
    # a move listed twice is a row of its own (compare's finding: tests/compare/test_bad_divide.py)
    assert ScriptEngine(str(script)).divide(STARTPOS, 2, []) == {"e2e4": 20, "e2e4 (listed twice)": 20}


def test_script_gets_perftree_arguments(tmp_path):
    log = tmp_path / "args"
    script = tmp_path / "perft.sh"
    script.write_text(f'#!/bin/sh\nprintf "%s|" "$@" > {log}\necho "a7b8Q: 3"\necho\necho 3\n')
    script.chmod(0o755)
    assert ScriptEngine(str(script)).divide(STARTPOS, 4, []) == {"a7b8q": 3}
    assert log.read_text() == f"4|{STARTPOS}||"
    ScriptEngine(str(script)).divide(STARTPOS, 2, ["e2e4", "e7e5"])
    assert log.read_text() == f"2|{STARTPOS}|e2e4 e7e5|"


def test_uci_engine_without_chess960():
    with uci("fake_uci.py", "--no-960") as engine:
        assert engine.divide(STARTPOS, 1, []) == pc_divide(STARTPOS, 1)
        with pytest.raises(EngineError, match="cannot play Chess960 .*UCI_Chess960"):
            engine.divide(C960_CASTLE, 1, [], chess960=True)


def test_uci_conversation(tmp_path, monkeypatch):
    log = tmp_path / "uci.log"
    monkeypatch.setenv("FAKE_UCI_LOG", str(log))
    engine = open_engine(engine=f"{engine_file('fake_uci.py')} --chatty", options=["Hash=32", "clear hash="])
    assert engine._proc is None  # started lazily
    with engine:
        engine.divide(STARTPOS, 1, ["e2e4"])
        pid = engine._proc.pid
        engine.divide(C960_CASTLE, 1, [], chess960=True)
        engine.divide(C960_CASTLE, 1, ["b1a1"], chess960=True)
        engine.divide(STARTPOS, 1, [])
        assert engine._proc.pid == pid
        assert engine.id_name == "FakeUCI"
    assert engine._proc is None and gone(pid)
    sent = log.read_text().splitlines()
    assert sent[:5] == ["uci", "setoption name Hash value 32", "setoption name Clear Hash", "isready", "ucinewgame"]
    assert sent.count("uci") == 1
    assert sent.count("setoption name UCI_Chess960 value true") == 1
    assert sent.count("setoption name UCI_Chess960 value false") == 1
    assert f"position fen {STARTPOS} moves e2e4" in sent
    assert f"position fen {C960_CASTLE} moves b1a1" in sent
    assert f"position fen {STARTPOS}" in sent
    assert sent[-1] == "quit"


def test_uci_unknown_option_stops_the_engine():
    with pytest.raises(EngineError, match=r"has no option 'Threads' \(it offers: Clear Hash, Hash, UCI_Chess960\)"):
        uci("fake_uci.py", options={"Threads": "4"}).divide(STARTPOS, 1, [])


@pytest.mark.parametrize(
    "option, expected",
    [
        ("Hash=abc", r"option 'Hash' \(spin\) takes an integer from 1 to 1024, not 'abc'$"),
        ("Hash=4096", r"option 'Hash' \(spin\) takes an integer from 1 to 1024, not '4096'$"),
    ],
)
def test_uci_option_value_the_engine_declared_no_room_for(option, expected):
    # sent as given, `Threads=abc` made Stockfish abort ("killed by signal SIGABRT ... 'what(): stof'")
    # and an out-of-range spin is dropped by it without a word
    with pytest.raises(EngineError, match=r"^engine '.*fake_uci.py' " + expected):
        uci("fake_uci.py", options=dict([option.split("=")])).divide(STARTPOS, 1, [])


def test_a_check_option_takes_true_or_false():
    from chesskit.compare.engines.uci import UciOption

    check = UciOption("Ponder", "check")
    assert check.refuses("yes") == "takes true or false" and check.refuses(" TRUE ") is None


@pytest.mark.parametrize("name", ["UCI_Chess960", "uci_variant"])
def test_an_option_chesskit_sets_itself_is_refused(name):
    # --engine-option UCI_Chess960=true was sent, then set back to false for a standard
    # position without a word
    from chesskit.compare.engines import parse_options

    with pytest.raises(InputError, match=rf"^--engine-option {name}: chesskit sets UCI_(Chess960|Variant) itself"):
        parse_options([f"{name}=true"])


def test_uci_option_declarations_are_read_with_their_bounds_and_choices():
    from chesskit.compare.engines.uci import _parse_option

    spin = _parse_option("option name Skill Level type spin default 20 min 0 max 20")
    assert (spin.name, spin.type, spin.low, spin.high) == ("Skill Level", "spin", 0, 20)
    assert spin.refuses("20") is None and spin.refuses("21") and spin.refuses("x")
    combo = _parse_option("option name Analysis Contempt type combo default Both var Off var White var Black var Both")
    assert combo.choices == ("Off", "White", "Black", "Both")
    assert combo.refuses("white") is None and combo.refuses("Green") == "takes one of Off, White, Black, Both"
    assert _parse_option("option name Ponder type check default false").refuses("TRUE") is None
    assert _parse_option("option name SyzygyPath type string default <empty>").refuses("") is None


# -- Python adapters that fail -----------------------------------------------------


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("fail_import.py:Adapter", r"could not be imported: ImportError: this adapter needs libfoo$"),
        ("fail_adapters.py:Missing", r"was not found: module '.*fail_adapters.py' has no attribute 'Missing'$"),
        ("fail_adapters.py:NOT_CALLABLE", r"is not callable \(NOT_CALLABLE is of type int\)$"),
        ("fail_adapters.py:NoPop", r"returned an object without pop\(\) \(type NoPop\)$"),
        ("fail_adapters.py:factory_raises", r"raised RuntimeError in factory_raises\(\): license key missing$"),
        ("nowhere.py:Adapter", r"was not found \(no such file 'nowhere.py'\)$"),
        # it said "no such file" of a folder that exists
        ("/tmp:Adapter", r"is not a Python file \('/tmp' is a directory: give FILE.py:ATTR or MODULE:ATTR\)$"),
    ],
)
def test_adapter_that_cannot_load(spec, expected):
    full = spec if spec.startswith(("nowhere", "/")) else engine_file(spec)
    with pytest.raises(EngineError, match=r"^engine '.*' " + expected):
        open_engine(python=full)


def test_adapter_module_that_does_not_exist():
    with pytest.raises(EngineError, match=r"^engine 'no_such_module:X' could not be imported: ModuleNotFoundError"):
        PythonEngine("no_such_module:X")
    with pytest.raises(InputError, match="must be MODULE:ATTR"):
        PythonEngine("no_colon")


@pytest.mark.parametrize(
    "attr, expected",
    [
        ("RaisesInPush", r"raised ValueError in push\('(\w+)'\): capture \1 not implemented \| second line$"),
        ("BadMoves", r"legal_moves\(\) returned 12, which is not a UCI move string$"),
        ("ExitsInSetFen", r"raised SystemExit in set_fen\('.*'\): 4$"),
        ("HangsInLegalMoves", r"did not finish the divide within 1 s$"),
    ],
)
def test_adapter_that_fails_in_divide(attr, expected):
    engine = PythonEngine(f"{engine_file('fail_adapters.py')}:{attr}", timeout=1)
    with pytest.raises(EngineError, match=r"^engine '.*fail_adapters.py:" + attr + "' " + expected):
        finishes(lambda: engine.divide(KIWIPETE, 2, []))  # a hanging adapter is given up on


def test_an_adapter_failing_below_the_position_asked_says_where():
    # chesskit makes every call of the adapter's walk, yet its error named only the node
    # asked (kiwipete, "at the start position" in compare's descent: not in check)
    with PythonEngine(f"{engine_file('fail_adapters.py')}:RaisesInCheck", timeout=30) as engine:
        with pytest.raises(EngineError) as raised:
            engine.divide(KIWIPETE, 3, [])
        with pytest.raises(EngineError, match=r"in legal_moves\(\): in check$"):  # at the node asked: as it was
            engine.divide(chess.Board(KIWIPETE).fen(), 1, ["e1f1", "a6e2"])
    found = re.fullmatch(
        r"engine '.*' raised RuntimeError in legal_moves\(\): in check; that was below the position asked, "
        r"after (\w+) (\w+) \(fen (.+)\)", str(raised.value)
    )
    assert found, str(raised.value)
    board = chess.Board(KIWIPETE)  # python-chess: those moves are legal, and lead to a check
    board.push_uci(found[1])
    board.push_uci(found[2])
    assert board.is_check() and found[3] == board.fen()


def test_adapter_hook_timeout_outside_divide():
    # the rest of a --position-timeout is rounded as the other back ends round it ("1.73217 s" shown)
    engine = PythonEngine(f"{engine_file('fail_adapters.py')}:HangsInLegalMoves", timeout=0.50123)
    engine.set_fen(STARTPOS)
    with pytest.raises(EngineError, match=r"did not finish legal_moves\(\) within 0.5 s$"):
        engine.legal_moves()


# -- the factory -------------------------------------------------------------------------


def test_open_engine_picks_exactly_one_back_end():
    assert isinstance(open_engine(engine="stockfish"), UciEngine)
    assert isinstance(open_engine(script=engine_file("eng_correct.py")), ScriptEngine)
    assert isinstance(open_engine(python=f"{engine_file('eng_correct.py')}:Adapter"), PythonEngine)
    with pytest.raises(InputError, match="exactly one of"):
        open_engine()
    with pytest.raises(InputError, match="got --engine and --script"):
        open_engine(engine="stockfish", script="x.sh")
    with pytest.raises(InputError, match="only applies to --engine"):
        open_engine(script="x.sh", options=["Hash=1"])
    with pytest.raises(InputError, match="positive"):
        open_engine(engine="stockfish", timeout=0)


def test_parse_options():
    assert parse_options(["Hash=64", " Skill Level = 3 ", "Clear Hash="]) == {
        "Hash": "64",
        "Skill Level": "3",
        "Clear Hash": "",
    }
    assert parse_options({"Threads": 2}) == {"Threads": "2"}
    with pytest.raises(InputError, match="NAME=VALUE"):
        parse_options(["Hash"])


def test_find_stockfish():
    found = find_stockfish()
    assert found is None or os.access(found, os.X_OK)


def test_depth_must_be_positive():
    with pytest.raises(ValueError):
        PythonEngine(f"{engine_file('eng_correct.py')}:Adapter").divide(STARTPOS, 0, [])


# ------------------------------------------------------------------ the FEN a perftree script gets


def test_shredder_fen_names_the_castling_rooks_files():
    assert shredder_fen("bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1").split()[2] == "GEge"
    assert shredder_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1").split()[2] == "Ha"
    assert shredder_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1") == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_a_bare_engine_name_is_found_in_debians_games_folder(monkeypatch):
    """Debian installs ethereal-chess and fairy-stockfish in /usr/games, which a root
    shell's PATH lacks: `--engine ethereal-chess` must still find them."""
    from chesskit.compare.engines.proc import resolve_program

    need_program("/usr/games/ethereal-chess")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert resolve_program("ethereal-chess", "ethereal-chess") == "/usr/games/ethereal-chess"


def test_a_crash_on_go_is_gos_when_it_beats_isready_to_the_pipe(monkeypatch):
    """An engine that asks ``isready`` behind ``go`` (to know when a perft answer ends) can
    exit on ``go`` before ``isready`` is written: the write then fails on the closed pipe,
    and the crash is still blamed on ``go`` (CI once read "exited with code 2 after
    'isready'"). Here the engine is always gone before ``isready`` is written."""
    from chesskit.compare.engines import uci as uci_module

    original = uci_module.UciEngine._send

    def send(self, command, answering=None):
        if command == "isready" and getattr(self, "_went", False):
            self._proc.wait(timeout=30)  # the engine has crashed on go before isready is sent
        self._went = getattr(self, "_went", False) or command.startswith("go")
        return original(self, command, answering)

    monkeypatch.setattr(uci_module.UciEngine, "_send", send)
    with pytest.raises(EngineError, match=r"exited with code 2 after 'go perft \d'"):
        with open_engine(engine=f"{engine_file('fake_uci.py')} --crash-on-go") as engine:
            engine.divide(STARTPOS, 1, [])


@pytest.mark.parametrize("seconds, shown", [(2.91577, "2.92"), (30.0, "30"), (1000, "1000"), (0.5, "0.5")])
def test_a_wait_in_an_engine_error_is_rounded(seconds, shown):
    # what --position-timeout left of its time was printed "within 2.91577 s"
    from chesskit.compare.engines.base import seconds_text

    assert seconds_text(seconds) == shown


def test_an_adapter_failing_in_compares_state_check_says_where(cli):
    # the check of its full state (push, pop and fen() along the walk, before the first
    # divide) named only the push that raised, not the node it was made at
    result = cli("compare", "startpos", "3", "--python", f"{engine_file('fail_adapters.py')}:RaisesInPush")
    assert result.exit_code == 3, result.output
    found = re.search(
        r"raised ValueError in push\('(\w+)'\): capture \1 not implemented \| second line; it failed in "
        r"compare's check of its state \(push, pop, fen\(\)\), after ([\w ]+) \(fen (.+)\)$", result.stderr.strip()
    )
    assert found, result.stderr
    board = chess.Board()  # python-chess: the moves lead to that position, where the push is a capture
    for move in found[2].split():
        board.push_uci(move)
    assert board.fen() == found[3] and board.is_capture(chess.Move.from_uci(found[1]))


def test_an_engine_that_explains_and_exits_before_its_first_command_is_quoted(tmp_path):
    # it closes its input first, so chesskit's 'uci' always meets a closed pipe: its two
    # lines are still unread then, and were reported as "it printed nothing"
    script = tmp_path / "explains.sh"
    script.write_text('#!/bin/sh\nexec 0<&-\necho "myengine 0.1"\necho "error: cannot open book file book.bin"\nexit 4\n')
    script.chmod(0o755)
    with pytest.raises(EngineError, match=r"exited with code 4 after 'uci'; last output: 'error: cannot open book file book.bin'$"):
        with UciEngine([str(script)]) as engine:
            engine.divide(STARTPOS, 1, [])


def test_an_engine_that_refuses_its_arguments_and_exits_in_the_handshake_is_quoted(stockfish_path):
    # Stockfish runs its arguments as a command ("Unknown command: '--bogus '") and exits:
    # no uciok, so the xboard handshake follows and meets a closed pipe. The line it
    # printed before is why; it was reported as "it printed nothing"
    with pytest.raises(EngineError, match=r"exited with code 0 after '.*'; last output: \"Unknown command: '--bogus ?'"):
        with open_engine(f"{stockfish_path} --bogus", timeout=5) as engine:
            engine.divide(STARTPOS, 1, [])


@pytest.mark.parametrize("command", ["FOO=1 stockfish", "$HOME/engine", "~/engine"])
def test_a_command_written_for_a_shell_is_told_that_no_shell_runs_it(command):
    with pytest.raises(EngineError, match=r"was not found \(.*\): no shell runs the command, so variables, '~' and 'NAME=value' before it"):
        open_engine(engine=command).divide(STARTPOS, 1, [])
    # a plain missing name is told only that it is missing
    with pytest.raises(EngineError, match=r"was not found \(no 'no-such-engine-xyz' on PATH\)$"):
        open_engine(engine="no-such-engine-xyz").divide(STARTPOS, 1, [])


def test_a_symbolic_link_to_nothing_is_named_as_such(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")  # a loop
    (tmp_path / "gone").symlink_to(tmp_path / "no-such-engine")
    for link in ("a", "gone"):
        with pytest.raises(EngineError, match=rf"was not found \('.*/{link}' is a symbolic link to '.*', which leads to no file\)$"):
            open_engine(engine=str(tmp_path / link)).divide(STARTPOS, 1, [])


def test_an_engine_that_never_stops_printing_is_stopped_at_its_timeout():
    """Its lines keep the read-ahead queue full, so waiting for the next one never timed
    out: a divide printer stuck in a loop was read until the answer's size limit (14-36 s
    for --timeout 5, 112 s over xboard). Past the deadline the queued lines are taken
    only for a short grace."""
    import queue

    from chesskit.compare.engines import uci

    engine = UciEngine([PY, engine_file("fake_uci.py")], timeout=5)
    engine._lines = queue.Queue()
    for _ in range(100):
        engine._lines.put("a2a3: 1")
    now = time.monotonic()
    assert engine._next_line(now - uci.LATE_GRACE_S / 2) == "a2a3: 1"  # an answer that came in time, read a little late
    with pytest.raises(queue.Empty):
        engine._next_line(now - uci.LATE_GRACE_S - 0.1)
    assert engine._lines.qsize() == 99


@pytest.mark.parametrize("cmd, word", [("stockfish | cat", "|"), ("stockfish < /dev/null", "<"), ("stockfish 2>/dev/null", "2>/dev/null"), ("./eng && echo", "&&")])
def test_a_shell_operator_in_an_engine_command_is_bad_input(cmd, word):
    # QA 40b #6: no shell runs the command: 'stockfish | cat' ran stockfish with the
    # arguments '|' and 'cat', it exited at once, and the error blamed 'protover 2'
    with pytest.raises(InputError) as caught:
        open_engine(engine=cmd)
    assert str(caught.value) == (
        f"bad --engine command {cmd!r}: no shell runs the command, so {word!r} would reach the engine as an "
        "argument; put the pipeline or redirection in a script and give its path (or sh -c '...')"
    )
    open_engine(engine="sh -c 'stockfish | cat'").close()  # a shell the user runs reads it


def test_a_program_that_echoes_its_input_is_refused_at_once(cli):
    # QA 40b #5: `--engine cat` waited a whole --timeout at each probe, 72 s, for answers
    # that never come
    started = time.monotonic()
    result = cli("compare", "startpos", "2", "--engine", "cat", "--timeout", "20")
    one_line(result, 3, "engine 'cat' echoes what it is sent ('uci' came back as it was): it is not a chess engine")
    assert time.monotonic() - started < 10
