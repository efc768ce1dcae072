"""Any engine's perft: the answer parser, detection, every dialect's engines (fake ones over
python-chess in tests/engines/fake_perft.py, buggy ones among them), one-shot command lines.

Expected counts come from python-chess; the buggy engines' failing nodes are those their
bugs are built to produce (tests/engines/README.md), the same as for the other back ends.
"""

from __future__ import annotations

import sys
import time

import pytest

from chesskit.board.board import Board
from chesskit.compare.descent import descend
from chesskit.compare.engines import OneShotEngine, PerftEngine, open_engine
from chesskit.compare.engines.dialects import (
    AnswerReader,
    MoveNames,
    bad_count,
    dialect_names,
    parse_dialect,
    parse_divide_entry,
    parse_total,
)
from chesskit.errors import EngineError, InputError
from helpers import BEFORE_EP, ENGINES, EP_FEN, KIWIPETE, STARTPOS, finishes, gone, one_line, pc_divide

PY = sys.executable
FAKE = f"{PY} {ENGINES / 'fake_perft.py'}"
PROMO_FEN = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"
C960_CASTLE = "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


# -- reading answers --------------------------------------------------------------


@pytest.mark.parametrize(
    "line, depth, total",
    [
        ("Nodes searched: 8902", 3, 8902),  # Stockfish
        ("Nodes: 8902", 3, 8902),
        ("Total: 8902", 3, 8902),
        ("Total   8902", 3, 8902),
        ("Total nodes: 8,902", 3, 8902),
        ("Perft(3) = 8902", 3, 8902),
        ("Perft 3: 8902 (12 ms, 741833 leaves/sec)", 3, 8902),  # Rustic, one line per depth
        ("Perft 2: 400 (0 ms, 0 leaves/sec)", 3, None),  # another depth's line
        ("Test Complete : 8902 nodes visited in 5ms", 3, 8902),  # Vice
        ("8902", 3, 8902),  # Ethereal, perftree
        ("Unknown command: 'perft 1'. Type help for more information.", 1, None),
        ("info depth 1 nodes 20", 1, None),
        ("e2e4: 20", 2, None),
    ],
)
def test_total_lines(line, depth, total):
    assert parse_total(line, depth) == total


@pytest.mark.parametrize(
    "line, entry",
    [
        ("e2e4: 20", ("e2e4", 20)),
        ("e2e4 20", ("e2e4", 20)),
        ("e2e4 - 20", ("e2e4", 20)),
        ("e2e4 = 20", ("e2e4", 20)),
        ("a7b8Q: 3", ("a7b8Q", 3)),
        ("move 7 : e2e4 : 20", ("e2e4", 20)),  # Vice
        ("1. Nf3 20", ("Nf3", 20)),
        ("O-O-O: 5", ("O-O-O", 5)),
        ("exd6 e.p. 1", ("exd6", 1)),
        ("e8=Q+: 2", ("e8=Q", 2)),
        ("Ng1-f3 - 20", ("Ng1-f3", 20)),
        ("a2a3: 2,186", ("a2a3", 2186)),  # grouped in thousands, as totals may be
        ("Nf3 1,234,567", ("Nf3", 1234567)),
        ("e2e4: 2,18", None),
        ("Depth 3", None),
        ("info depth 1 nodes 0", None),
        ("Unknown command: perft 1", None),
    ],
)
def test_divide_lines(line, entry):
    assert parse_divide_entry(line) == entry


@pytest.mark.parametrize(
    "fen, token, uci",
    [
        (KIWIPETE, "O-O", "e1g1"),
        (KIWIPETE, "0-0-0", "e1c1"),
        (KIWIPETE, "Nxf7", "e5f7"),
        (KIWIPETE, "Qxh3", "f3h3"),
        (KIWIPETE, "gxh3", "g2h3"),
        (KIWIPETE, "Bxa6", "e2a6"),
        (KIWIPETE, "Ne5-d3", "e5d3"),
        (EP_FEN, "exf6", "e5f6"),
        (PROMO_FEN, "gxf1=N", "g2f1n"),
        (PROMO_FEN, "g1=Q", "g2g1q"),
        ("7k/8/8/8/8/8/8/N1N1K3 w - - 0 1", "Nab3", "a1b3"),
        ("7k/8/8/8/8/8/8/N1N1K3 w - - 0 1", "Ncb3", "c1b3"),
        ("7k/8/8/8/8/8/8/N1N1K3 w - - 0 1", "Nb3", "Nb3"),  # ambiguous: kept as written
        (C960_CASTLE, "O-O-O", "b1a1"),
        # illegal moves of buggy engines, named by geometry: castling through check, a pinned capture
        ("4k3/8/b7/8/8/8/8/4K2R w K - 0 1", "O-O", "e1g1"),
        ("8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2", "bxc6", "b5c6"),
        # a slider through a blocker, the one of its kind on the line (QA 40b #3: kept in SAN)
        (STARTPOS, "Qh5", "d1h5"),
        (STARTPOS, "Ra3", "a1a3"),
        (STARTPOS, "Bb5", "f1b5"),
        (STARTPOS, "Rd1", "Rd1"),  # both rooks' rank: ambiguous, kept as written
    ],
)
def test_san_to_uci(fen, token, uci):
    names = MoveNames(lambda: Board(fen, chess960=True if "EAea" in fen else None))
    assert names.to_uci(token) == uci


def test_reader_keeps_divide_and_total():
    reader = AnswerReader(2, lambda: Board(STARTPOS))
    for line in ["Perft to depth 2", "Nf3: 20", "e4 20", "", "Nodes: 40", "time 3 ms"]:
        reader.feed(line)
    answer = reader.answer
    assert answer.moves == {"g1f3": 20, "e2e4": 20} and answer.total == 40 and answer.san


def test_counts_grouped_in_thousands_are_read_in_divide_lines_as_in_totals():
    # an engine printing `a2a3: 2,186` and `Nodes searched: 97,862`: the total was read and
    # the divide lines skipped, so compare stopped with "a total-only engine" (wrong advice)
    after = ["e2e4", "e7e5"]
    with open_engine(engine=f"{FAKE} --command go-perft --total stockfish --thousands", timeout=30) as engine:
        assert engine.divide(STARTPOS, 3, after) == pc_divide(STARTPOS, 3, after)
    assert max(pc_divide(STARTPOS, 3, after).values()) >= 1000  # commas were printed


def test_a_listed_null_move_is_read_as_a_row_of_the_divide():
    # `0000: 1` is the engine's move generation yielding a null move: a row of its divide
    # (compare reports it as a finding, tests/compare/test_bad_divide.py), counted in its total
    with open_engine(engine=f"{FAKE} --command go-perft --total stockfish --null-move", timeout=30) as engine:
        assert engine.divide(KIWIPETE, 1, []) == {**pc_divide(KIWIPETE, 1), "0000": 1}


@pytest.mark.parametrize(
    "line, why",
    [
        ("Nodes searched: -1104895168", "a negative count"),  # an int32 past 2^31 - 1
        ("e2e4: -5", "a negative count"),
        ("Perft(3) = -8902", "a negative count"),
        ("-112", "a negative count"),
        ("Nodes searched: 99999999999999999999999", "a count of 23 digits"),
        ("e2e4: 12345678901234567890", "a count of 20 digits"),
        ("Nodes searched: banana", "a count that is no number ('banana')"),
        ("Perft(3) = ?", "a count that is no number ('?')"),
        ("b1c3: nan", "a count that is no number ('nan')"),  # a divide line's count
        ("Nf3: ?", "a count that is no number ('?')"),
        ("Nf3 ?", None),  # no colon: two words are no claim to be a divide line (chatter)
        ("e4 is", None),
        ("e4 is a good move", None),  # words after a move: no divide line
        ("Nodes searched: 12 (3.2 s)", None),  # a count with more after it: not garbled
        ("info string nodes searched: none", None),
        ("e2e4 - 20", None),  # perftree's dash, a count of 20
        ("info depth 1 score cp -20", None),
        ("Time: -0.5", None),
        ("time -5 ms", None),
        ("Nodes searched: 9999999999999999999", None),  # 19 digits: a count
        ("hello", None),
    ],
)
def test_bad_counts_are_told_from_other_lines(line, why):
    found = bad_count(line)
    assert (found is None) if why is None else found.startswith(why)


def test_a_wrapped_counter_fails_at_once_naming_its_line():
    # an 8-bit counter wraps at startpos 2 as an int32 does at perft 7: `Nodes searched: -112`
    # was skipped as no total, so chesskit waited for one until --timeout and then said the
    # engine "did not answer"
    with pytest.raises(EngineError, match=r"printed a negative count \(a signed counter that wrapped\?\) in answer to "
                       r"'go perft 2': 'Nodes searched: -112'$"):
        with open_engine(engine=f"{FAKE} --command go-perft --total stockfish --overflow 8", timeout=60) as engine:
            engine.divide(STARTPOS, 2, [])


GARBLED_UCI = """
import sys
for line in sys.stdin:
    command = line.strip()
    if command == "uci":
        print("id name Garbled\\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command.startswith("go perft"):
        print("Nodes searched: banana", flush=True)
    elif command == "quit":
        break
"""


def test_a_count_that_is_no_number_fails_at_once(tmp_path):
    # the engine ignores what it does not know: its dialect was probed with `go perft`,
    # `perft` and `divide`, a whole --timeout each (90 s with the default 30)
    script = tmp_path / "garbled.py"
    script.write_text(GARBLED_UCI)
    engine = open_engine(engine=f"{sys.executable} {script}", timeout=1000)
    with pytest.raises(EngineError, match=r"printed a count that is no number \('banana'\) in answer to 'go perft 1': "
                       r"'Nodes searched: banana'$"):
        with engine:
            finishes(lambda: engine.divide(STARTPOS, 1, []), timeout=120)


NAN_DIVIDE_UCI = """
import sys
MOVES = "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4"
for line in sys.stdin:
    command = line.strip()
    if command == "uci":
        print("id name NanDivide\\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command.startswith("go perft"):  # startpos at depth 1, one count written 'nan'
        rows = [f"{move}: {'nan' if move == 'b1c3' else 1}" for move in MOVES.split()]
        print("\\n".join(rows) + "\\n\\nNodes searched: 19\\n", flush=True)
    elif command == "quit":
        break
"""


def test_a_divide_line_whose_count_is_no_number_fails_at_once(cli, tmp_path):
    # `b1c3: nan` was skipped as no divide line: the engine "missed b1c3", a bug of its
    # move generation (exit 1), where its answer is what cannot be read (exit 3)
    script = tmp_path / "nan_divide.py"
    script.write_text(NAN_DIVIDE_UCI)
    engine = f"{sys.executable} {script}"
    for dialect in ([], ["--dialect", "uci-go-perft"]):
        result = cli("compare", "startpos", "1", "--engine", engine, *dialect)
        one_line(result, 3, f"engine {engine!r}", "a count that is no number ('nan')", "'b1c3: nan'")


def test_an_answer_that_never_ends_is_quoted_when_it_times_out():
    # `Computing... done` and then silence: the timeout's error said only "did not answer"
    with pytest.raises(EngineError, match=r"did not answer 'go perft 2' within 3 s; it printed 'Computing\.\.\. done', "
                       r"not a line chesskit can read$"):
        with open_engine(engine=f"{FAKE} --command go-perft --total stockfish --garbage-from 2", timeout=3) as engine:
            finishes(lambda: engine.divide(STARTPOS, 2, []))


def test_an_engine_that_answered_a_probe_is_not_waited_for_until_the_timeout():
    # Ethereal: `go perft 1` starts a search, `perft 1` prints `20`, `divide 1` gets no reply;
    # detection waited the whole --timeout (30 s) for that silence at every start
    engine = open_engine(engine=f"{FAKE} --command perft --total-only --total bare --ethereal", timeout=1000)
    with engine:
        assert finishes(lambda: engine.dialect_info().name, timeout=120) == "uci-perft-total"
        assert engine.perft(KIWIPETE, 2, []) == 2039


def test_dialect_names_round_trip():
    for name in dialect_names():
        assert parse_dialect(name).name == name
    assert parse_dialect("uci-perft-total").total_only
    assert parse_dialect("console-divide").verb(3) == "divide 3"
    assert parse_dialect("uci-go-perft").verb(2) == "go perft 2"
    assert parse_dialect("xboard-perft-split").verb(3) == "perft 3 1"
    assert parse_dialect("xboard-perft-split-total") is None and parse_dialect("console-perft-split") is None
    assert parse_dialect("winboard-perft") is None and parse_dialect("uci") is None


# -- detection: every dialect, then the counts agree with python-chess ---------------

DIALECTS = [
    ("--command go-perft --total stockfish", "uci-go-perft", "uci"),
    ("--command go-perft --total stockfish --threaded", "uci-go-perft", "uci"),
    ("", "uci-perft", "uci"),
    ("--command divide --line space --total total", "uci-divide", "uci"),
    ("--san --line dash --total perft", "uci-perft", "san"),
    ("--line vice --total vice", "uci-perft", "uci"),
    ("--line numbered --total none", "uci-perft", "uci"),
    ("--total-only --total bare", "uci-perft-total", None),
    ("--loop console", "console-perft", "uci"),
    ("--loop console --command divide --san --total nodes", "console-divide", "san"),
    ("--loop console --total-only --total perft", "console-perft-total", None),
]


@pytest.mark.parametrize("flags, name, notation", DIALECTS)
def test_detects_the_dialect_and_counts_right(flags, name, notation):
    with open_engine(engine=f"{FAKE} {flags}", timeout=10) as engine:
        dialect = engine.dialect_info()
        assert (dialect.name, dialect.moves) == (name, notation)
        assert engine.detected
        assert engine.perft(KIWIPETE, 2, ["e1g1"]) == sum(pc_divide(KIWIPETE, 2, ["e1g1"]).values())
        # a total-only engine's divide is its count below each of chesskit's moves
        assert engine.divide(PROMO_FEN, 2, ["d7c6"]) == pc_divide(PROMO_FEN, 2, ["d7c6"])
        if not dialect.total_only:
            assert engine.divide(EP_FEN, 1, []) == pc_divide(EP_FEN, 1)
        if dialect.loop == "uci":
            assert engine.divide(C960_CASTLE, 2, [], chess960=True) == pc_divide(C960_CASTLE, 2, [], True)


def test_named_dialect_skips_detection(tmp_path, monkeypatch):
    log = tmp_path / "sent"
    monkeypatch.setenv("FAKE_PERFT_LOG", str(log))
    with open_engine(engine=f"{FAKE} --loop console --total-only", dialect="console-perft-total", timeout=10) as engine:
        assert engine.perft(STARTPOS, 3, ["e2e4"]) == sum(pc_divide(STARTPOS, 3, ["e2e4"]).values())
        assert not engine.detected
    sent = log.read_text().splitlines()
    # no probe: only the check that it follows `position fen` (issue 26 item 5: the start
    # position, then Kiwipete), then the question
    check = [f"position fen {STARTPOS}", "perft 1", f"position fen {KIWIPETE}", "perft 1"]
    assert sent == [*check, f"position fen {STARTPOS} moves e2e4", "perft 3", "quit"]


def test_total_only_engine_cannot_divide_at_depth_1():
    with open_engine(engine=f"{FAKE} --total-only", dialect="uci-perft-total", timeout=10) as engine:
        assert engine.total_only
        with pytest.raises(EngineError, match=r"prints only totals \(dialect uci-perft-total\), so it cannot list its moves: its divide needs depth >= 2"):
            engine.divide(STARTPOS, 1, [])


def test_unknown_dialect_name():
    with pytest.raises(InputError, match=r"unknown --dialect 'xboard': one of uci-go-perft, uci-go-perft-total"):
        open_engine(engine="stockfish", dialect="xboard")
    with pytest.raises(InputError, match="--dialect only applies to --engine"):
        open_engine(script="x.sh", dialect="uci-perft")
    with pytest.raises(InputError, match="needs a UCI engine"):
        open_engine(engine="x", dialect="console-perft", options=["Hash=1"])


# -- engines detection cannot read, and failures: one clear EngineError -------------


def test_engine_that_ignores_position_fen():
    with pytest.raises(EngineError, match=r"ignores 'position fen' .*give a one-shot --engine-cmd instead$"):
        with open_engine(engine=f"{FAKE} --ignore-position", timeout=10) as engine:
            engine.dialect_info()


def test_engine_that_speaks_no_dialect(tmp_path):
    """An engine that answers every command with the same word: neither uciok nor any
    perft answer (``cat``, echoing them, is refused at its first: test_engines.py)."""
    nonsense = "sh -c 'while read line; do echo nonsense; done'"
    with pytest.raises(
        EngineError,
        match=r"^engine .* answered no perft question chesskit knows as a console \(it never said 'uciok'\): "
        r"'perft 1' gave 'nonsense'; 'divide 1' gave 'nonsense'; name its dialect",
    ):
        with open_engine(engine=nonsense, timeout=1) as engine:
            engine.dialect_info()


def test_console_cannot_play_chess960():
    with pytest.raises(EngineError, match=r"cannot play Chess960 \(a console dialect"):
        with open_engine(engine=f"{FAKE} --loop console", timeout=10) as engine:
            engine.divide(C960_CASTLE, 1, [], chess960=True)


def test_a_chess960_position_without_castling_rights_is_asked_as_standard_chess():
    # no castle can come in its tree, so the games are one: a console (or xboard engine, or
    # UCI engine without UCI_Chess960) failed on it with "cannot play Chess960" (fuzz: Sjeng
    # failed a third of the generated positions, its Chess960 placements without rights)
    no_rights = "rk2r3/8/8/8/8/8/8/RK2R3 w - - 0 1"
    with open_engine(engine=f"{FAKE} --loop console", timeout=30) as engine:
        assert engine.divide(no_rights, 2, ["b1c1"], chess960=True) == pc_divide(no_rights, 2, ["b1c1"])
        assert engine.perft(no_rights, 2, [], chess960=True) == sum(pc_divide(no_rights, 2).values())
        with pytest.raises(EngineError, match=r"cannot play Chess960"):
            engine.divide(C960_CASTLE, 1, [], chess960=True)


def test_console_that_hangs_is_killed(tmp_path, monkeypatch):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("CHESSKIT_HANG_PIDFILE", str(pidfile))
    with pytest.raises(EngineError, match=r"did not answer 'go perft 1' within 1 s$"):
        with open_engine(engine=str(ENGINES / "fail_hang.py"), timeout=1) as engine:
            engine.dialect_info()
    assert engine._proc is None
    assert_gone([int(pid) for pid in pidfile.read_text().split()])


def assert_gone(pids: list[int]) -> None:
    """The engine and the helper it started are gone (a zombie left to init counts as gone);
    they go at once, the generous bound only ends a failure."""
    deadline = time.monotonic() + 60
    while not all(gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(pid) for pid in pids), "the engine or its helper is still running"


def test_console_that_crashes():
    with pytest.raises(EngineError, match=r"exited with code 1 after 'uci'; last output: 'fail_exit: cannot open"):
        with open_engine(engine=str(ENGINES / "fail_exit.py"), timeout=5) as engine:
            engine.dialect_info()


def test_divide_and_total_must_agree(tmp_path):
    """A console whose divide does not add up to its total is refused."""
    script = tmp_path / "engine.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('perft'):\n"
        "        print('e2e4: 1\\nd2d4: 1\\nNodes: 3', flush=True)\n"
    )
    engine = PerftEngine([PY, str(script)], timeout=5, dialect=parse_dialect("console-perft"))
    with engine, pytest.raises(EngineError, match=r"divide lines summing to 2 but a total of 3"):
        engine.divide(STARTPOS, 1, [])


# -- buggy engines in every dialect: the exact failing node and moves ---------------

# bug -> (position, depth, path to the failing node, missing, extra): as for every other back end
MOVE_BUGS = {
    "no_ep": (BEFORE_EP, 3, ["f7f5"], ["e5f6"], []),
    "ep_rank_pin": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1", 3, ["d6d5", "e2e4"], [], ["f4e3"]),
    "castle_through_check": ("2b1k3/8/8/8/8/8/8/4K2R b K - 0 1", 2, ["c8h3"], [], ["e1g1"]),
    "castle_rights_kept": ("4k3/8/8/8/8/8/6b1/4K2R b K - 0 1", 3, ["g2h1"], [], ["e1g1"]),
    "queen_promo_only": ("8/8/P7/8/8/8/8/k6K w - - 0 1", 3, ["a6a7", "a1b1"], ["a7a8r", "a7a8b", "a7a8n"], []),
}
DIVIDE_DIALECTS = [
    "--command go-perft --total stockfish",
    "--san --line dash --total perft",
    "--command divide --line vice --total none",
    "--loop console --san --line space --total vice",
]


def run_descent(engine, fen: str, depth: int):
    return descend(Board(fen), engine, depth, fen, [], engine_name=engine.name)


@pytest.mark.parametrize("flags", DIVIDE_DIALECTS)
@pytest.mark.parametrize("bug", sorted(MOVE_BUGS))
def test_buggy_divide_dialects(flags, bug):
    fen, depth, path, missing, extra = MOVE_BUGS[bug]
    with open_engine(engine=f"{FAKE} {flags} --bug {bug}", timeout=10) as engine:
        report = run_descent(engine, fen, depth)
    assert (report.kind, report.path, report.missing, report.extra) == ("moves", path, missing, extra)
    assert [note.move for note in report.notes] == missing + extra  # SAN extras named in UCI, so classified


# a total-only engine: the same node; what its counts can tell about the moves there
TOTAL_ONLY = {
    # 31 moves, the engine counts 30; only e5f6's subtree accounts for the shortfall
    "no_ep": dict(missing=["e5f6"], inferred=True, counts=(31, 30), unnamed=(0, 0)),
    "ep_rank_pin": dict(missing=[], inferred=False, counts=(14, 15), unnamed=(0, 1)),
    "castle_through_check": dict(missing=[], inferred=False, counts=(8, 9), unnamed=(0, 1)),
    "castle_rights_kept": dict(missing=[], inferred=False, counts=(5, 6), unnamed=(0, 1)),
    # three underpromotions missing; several sets of three moves account for the counts
    "queen_promo_only": dict(missing=[], inferred=False, counts=(7, 4), unnamed=(3, 0)),
}


@pytest.mark.parametrize("flags", ["--total-only --total bare", "--loop console --total-only --total nodes"])
@pytest.mark.parametrize("bug", sorted(TOTAL_ONLY))
def test_buggy_total_only_engine(flags, bug):
    fen, depth, path, _, _ = MOVE_BUGS[bug]
    want = TOTAL_ONLY[bug]
    with open_engine(engine=f"{FAKE} {flags} --bug {bug}", timeout=10) as engine:
        assert engine.total_only
        report = run_descent(engine, fen, depth)
    assert (report.kind, report.path, report.missing, report.extra) == ("moves", path, want["missing"], [])
    assert report.inferred is want["inferred"]
    assert report.move_counts == {"chesskit": want["counts"][0], "engine": want["counts"][1]}
    assert (report.unnamed_missing, report.unnamed_extra) == want["unnamed"]
    summary = report.summary()
    if want["inferred"]:
        assert "misses e5f6 (inferred from its totals)" in summary
    elif want["unnamed"][0]:
        assert "misses 3 moves its totals cannot name" in summary
    else:
        assert "generates 1 illegal move its totals cannot name" in summary


@pytest.mark.parametrize(
    "flags, path, ours, theirs",
    [
        # a divide engine: its divide of the start gives e5f6 847; asked about e5f6 it agrees (908)
        ("--command go-perft --total stockfish", ["e5f6"], 908, 847),
        # a total-only engine: its walk of the start gives 21576; its answers below each move add up to 21637
        ("--total-only --total bare", [], 21637, 21576),
    ],
)
def test_unmake_bug_is_a_walk_mismatch(flags, path, ours, theirs):
    with open_engine(engine=f"{FAKE} {flags} --bug ep_not_restored", timeout=10) as engine:
        report = run_descent(engine, EP_FEN, 3)
    assert report.kind == "state" and report.state.field == "walk"
    assert report.path == path and (report.state.ours, report.state.theirs) == (ours, theirs)
    assert sum(pc_divide(EP_FEN, 3).values()) == 21637 and pc_divide(EP_FEN, 3)["e5f6"] == 908


# -- one-shot command lines ---------------------------------------------------------

ONESHOT = f'{PY} {ENGINES / "fake_perft.py"} --oneshot "{{fen}}" {{depth}} "{{moves}}"'


@pytest.mark.parametrize(
    "template, total_only",
    [
        (ONESHOT + " --san --line dash --total perft", False),
        (ONESHOT.replace(' "{moves}"', "") + " --line space", False),  # no {moves}: chesskit gives the node's FEN
        (ONESHOT + " --total-only --total bare", True),
    ],
)
def test_oneshot_agrees(template, total_only):
    engine = open_engine(engine_cmd=template, timeout=10)
    assert isinstance(engine, OneShotEngine)
    assert engine.total_only is total_only
    assert engine.dialect_info().name == ("oneshot-total" if total_only else "oneshot")
    assert engine.perft(KIWIPETE, 2, ["e1g1", "h3g2"]) == sum(pc_divide(KIWIPETE, 2, ["e1g1", "h3g2"]).values())
    assert engine.divide(C960_CASTLE, 2, ["b1a1"], chess960=True) == pc_divide(C960_CASTLE, 2, ["b1a1"], True)


@pytest.mark.slow  # 9 s of CPU (issue 25); test_oneshot_agrees runs the dialect, cli/test_cli_dialects.py's test_total_only_bug_through_compare a total-only descent, in the default run
def test_buggy_oneshot_total_only():
    fen, depth, path, _, _ = MOVE_BUGS["no_ep"]
    engine = open_engine(engine_cmd=ONESHOT + " --total-only --total bare --bug no_ep", timeout=10)
    report = run_descent(engine, fen, depth)
    assert (report.kind, report.path, report.missing, report.inferred) == ("moves", path, ["e5f6"], True)


@pytest.mark.parametrize(
    "template, message",
    [
        ("./engine {depth}", r"has no \{fen\} placeholder"),
        ("./engine {fen}", r"has no \{depth\} placeholder"),
        ("{fen} {depth}", "the program itself cannot be a placeholder"),
        ('./engine "{fen} {depth}', "bad --engine-cmd .*: no closing quotation"),
    ],
)
def test_bad_templates(template, message):
    with pytest.raises(InputError, match=message):
        open_engine(engine_cmd=template)


def test_oneshot_failures(tmp_path, monkeypatch):
    with pytest.raises(EngineError, match=r"exited with code 1 for depth 1 on .*last output: 'fail_exit: cannot open"):
        open_engine(engine_cmd=f"{ENGINES / 'fail_exit.py'} {{fen}} {{depth}}").perft(STARTPOS, 1, [])
    with pytest.raises(EngineError, match=r"printed no divide and no total for depth 1 .*it printed 'hello rnbqkbnr/"):
        open_engine(engine_cmd="echo hello {fen} {depth}").perft(STARTPOS, 1, [])
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("CHESSKIT_HANG_PIDFILE", str(pidfile))
    with pytest.raises(EngineError, match=r"did not answer depth 2 on .* within 1 s$"):
        # the 1 s timeout fires and the call returns (a broken timeout hangs)
        finishes(
            lambda: open_engine(engine_cmd=f"{ENGINES / 'fail_hang.py'} {{depth}} {{fen}}", timeout=1).perft(
                STARTPOS, 2, []
            )
        )
    assert_gone([int(pid) for pid in pidfile.read_text().split()])


@pytest.mark.parametrize("dialect", ["console-perft", "uci-perft-total"])
def test_named_dialect_answer_times_out(dialect):
    """fail_hang never answers a bare `perft`: each answer has its own --timeout."""
    engine = open_engine(engine=str(ENGINES / "fail_hang.py"), dialect=dialect, timeout=1)

    def ask():
        with engine:
            engine.perft(STARTPOS, 2, [])

    # the check that it follows `position fen` asks first (issue 26 item 5)
    with pytest.raises(EngineError, match=r"did not answer 'perft 1' within 1 s$"):
        finishes(ask)  # the timeout fires and the call returns (a broken one hangs)
    assert engine._proc is None


def test_the_total_only_form_a_message_names_is_a_dialect():
    # "name the dialect xboard-perft-split-total" named a dialect that does not exist
    from chesskit.compare.engines.dialects import dialect_names, parse_dialect

    for name in dialect_names():
        dialect = parse_dialect(name)
        total = parse_dialect(dialect.total_name)
        assert total is not None and total.total_only and total.loop == dialect.loop, name
    assert parse_dialect("xboard-perft-split").total_name == "xboard-perft-total"


def test_an_engine_that_prints_nothing_at_all_is_told_so(tmp_path):
    # it was "answered no perft question chesskit knows as a console (it never said
    # 'uciok')": as if it were a console that answered something else
    script = tmp_path / "silent.sh"
    script.write_text("#!/bin/sh\nexec sleep 300\n")
    script.chmod(0o755)
    engine = open_engine(engine=str(script), timeout=1)
    with pytest.raises(EngineError, match=r"printed nothing at all, to 'uci', 'xboard' or a perft question \('perft 1' "
                       r"gave nothing; 'divide 1' gave nothing\): it hangs, or waits for other input"):
        with engine:
            finishes(lambda: engine.divide(STARTPOS, 1, []), timeout=120)


@pytest.mark.parametrize("kind", ["silent", "garbage"])
def test_an_engine_that_ignores_the_probes_is_refused_after_one_timeout(kind):
    # each of its three probes (`go perft 1`, `perft 1`, `divide 1`) waited the whole
    # --timeout: 90 s by default. Its `readyok` after the first one says it read it: the
    # others get the short grace (a slow engine's first answer still gets --timeout, and
    # one that refuses what it does not know keeps it for every probe: test_cli_answer_ends)
    script = ENGINES / "fail_silent_uci.py"  # "garbage": one line chesskit cannot read for `go perft 1`
    timeout = 3.0
    with open_engine(engine=[PY, str(script), kind], timeout=timeout) as engine:
        started = time.monotonic()
        with pytest.raises(EngineError, match=r"answered no perft question chesskit knows in its UCI loop: 'go perft 1' "
                           r"gave .*; 'perft 1' gave nothing; 'divide 1' gave nothing"):
            finishes(lambda: engine.divide(STARTPOS, 1, []), timeout=120)
        took = time.monotonic() - started
    assert timeout <= took < 2 * timeout, took


def test_a_search_that_stop_does_not_end_is_left_to_a_fresh_process_or_told_as_such():
    # Sjaak II: its `go perft 1` starts a search that ignores `stop` for seconds; under
    # --timeout 1 detection failed ("did not answer 'go perft 1' within 1 s", then "`stop`
    # did not end it"), and with the default it waited the search out (2.6 s). Detecting,
    # the next probe now asks a fresh process, and the engine's perft is found
    stubborn = f"{FAKE} --command perft --total-only --total bare --ethereal --stubborn 30"
    with open_engine(engine=stubborn, timeout=1) as engine:
        assert finishes(lambda: engine.perft(STARTPOS, 2, []), timeout=120) == 400
        assert engine.dialect_info().name == "uci-perft-total"
    # where a count was asked in `go perft` (the dialect named), the search is told as such
    named = open_engine(engine=stubborn, timeout=1, dialect="uci-go-perft")
    with pytest.raises(EngineError, match=r"started a search on 'go perft 1' instead of counting, and `stop` did not "
                       r"end it within 1 s: give a longer --timeout, or name the dialect it counts in with --dialect$"):
        with named:
            finishes(lambda: named.divide(STARTPOS, 1, []), timeout=120)


def test_an_answer_printed_on_stderr_is_pointed_at(tmp_path):
    # a UCI engine whose perft answer goes to stderr: every probe "gave nothing", and the
    # line that would have shown the bug at once was not named
    script = tmp_path / "stderr_engine.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    line = line.strip()\n"
        "    if line == 'uci': print('id name err\\nuciok', flush=True)\n"
        "    elif line == 'isready': print('readyok', flush=True)\n"
        "    elif line.startswith('go perft'):\n"
        "        print('e2e4: 1', file=sys.stderr)\n"
        "        print('Nodes searched: 20', file=sys.stderr, flush=True)\n"
        "    elif line == 'quit': break\n"
    )
    with pytest.raises(EngineError, match=r"gave nothing \(it printed 'Nodes searched: 20' on stderr: chesskit reads answers on stdout\); name its dialect"):
        with open_engine(engine=f"{sys.executable} {script}", timeout=5) as engine:
            engine.divide(STARTPOS, 1, [])
