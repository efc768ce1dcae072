"""xboard (CECP) engines, the answer formats of the survey (docs/engines.md), zero-count rows.

The engines are tests/engines/fake_xboard.py over python-chess (Sjeng's and Sjaak II's
output, edit mode, usermove, no ping); expected counts come from python-chess.  The real
Sjeng and Sjaak II are driven in tests/cli/test_cli_xboard.py.
"""

from __future__ import annotations

import sys
import time

import pytest

from chesskit.board.board import Board
from chesskit.compare.descent import descend
from chesskit.compare.engines import open_engine
from chesskit.compare.engines.dialects import AnswerReader, parse_dialect, parse_divide_row, read_total
from chesskit.compare.rows import settle_zero_rows
from chesskit.errors import EngineError
from chesskit.fuzz.shrink import differs
from helpers import ENGINES, EP_FEN, KIWIPETE, STARTPOS, finishes, one_line, pc_divide

XB = f"{sys.executable} {ENGINES / 'fake_xboard.py'}"
FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"  # Sjeng's "black-castling bug" position
ROOK_CHECK = "4k3/8/8/8/8/8/8/3RK3 b - - 0 1"  # e8d7 and e8d8 walk into the rook: Sjaak lists them with 0

pytestmark = pytest.mark.usefixtures("no_leftover_children")


# -- the survey: one line per format (docs/engines.md) --------------------------------


@pytest.mark.parametrize(
    "line, count, depth",
    [
        ("Nodes searched: 8902", 8902, None),  # Stockfish, Fairy-Stockfish
        ("8902", 8902, None),  # Ethereal
        ("Perft 3: 8902 (12 ms, 741833 leaves/sec)", 8902, 3),  # Rustic
        ("Test Complete : 8902 nodes visited in 5ms", 8902, None),  # Vice
        ("Perft Complete : 8902 nodes visited in 5ms", 8902, None),  # Vice's C versions
        ("Leaves: 8902", 8902, None),  # Weiss, under `Perft complete:`
        ("Total leafs: 8902", 8902, None),  # Cosette
        ("total moves=8902  time=0.01", 8902, None),  # Crafty
        ("Raw nodes for depth 3: 8902", 8902, 3),  # Sjeng 11.2
        (" 3       8902  0.00   1780400.00nps", 8902, 3),  # Sjaak II 1.4.1
    ],
)
def test_survey_total_formats(line, count, depth):
    assert read_total(line) == (count, depth)


@pytest.mark.parametrize(
    "line, row",
    [
        ("e2e4: 600", ("e2e4", 600, None)),  # Stockfish
        ("e2e4 600", ("e2e4", 600, None)),  # perftree, Koivisto
        ("move 1 : e2e4 : 600", ("e2e4", 600, None)),  # Vice
        ("  Ng1-f3        440        440", ("Ng1-f3", 440, 440)),  # Sjaak II: count and running total
        ("  Ra8xa1          3        209", ("Ra8xa1", 3, 209)),
        ("   O-O-O         23        438", ("O-O-O", 23, 438)),
        ("  e7-e8=Q         5         12", ("e7-e8=Q", 5, 12)),
    ],
)
def test_survey_divide_formats(line, row):
    assert parse_divide_row(line) == row


def test_sjaak_answer_reads_the_last_depth_only():
    """`perft 2 1` prints depth 1's divide and row, then depth 2's: only depth 2 is the answer."""
    board = Board(CASTLES)
    reader = AnswerReader(2, lambda: board)
    lines = ["  Ra8-a2          1          1", "     O-O          1          2", " 1          2  0.00   10.00nps",
             "  Ra8-a2         17         17", "     O-O         23         40", " 2         40  0.00   10.00nps"]
    for line in lines:
        reader.feed(line)
    answer = reader.finish()
    assert answer.moves == {"a8a2": 17, "e8g8": 23} and answer.total == 40


def test_a_third_number_that_is_no_running_total_is_no_divide_line():
    reader = AnswerReader(2, lambda: Board())
    assert reader.feed("e2e4 20 20") == "divide"
    assert reader.feed("d2d4 20 7") == "skip"  # 7 is not 40


def test_unreadable_answer_quotes_the_count_line_not_the_banner():
    """A console whose answer hides behind a `Sjeng: ` prompt: the error quotes that line."""
    engine = open_engine(engine=f"{XB} --prompt 'Fake: '", dialect="console-perft-total", timeout=20)
    began = time.monotonic()
    # (the named dialect's check that it follows `position fen` asks first: `perft 1` on Kiwipete)
    with pytest.raises(EngineError, match=r"printed no total for 'perft \d' .*it printed 'Fake: Raw nodes for depth \d: \d+'$"):
        with engine:
            finishes(lambda: engine.perft(STARTPOS, 2, []))
    # the position was refused (`Error (unknown command): position fen ...`): no 20 s wait
    assert time.monotonic() - began < 15


# -- xboard dialects ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags, name",
    [
        ("--format sjeng", "xboard-perft-total"),
        ("--format sjaak", "xboard-perft-split"),
        ("--format divide", "xboard-divide"),
        ("--format divide --usermove", "xboard-divide"),
        ("--format sjaak --no-setboard", "xboard-perft-split"),
        pytest.param("--format sjeng --no-ping --done0", "xboard-perft-total", marks=pytest.mark.slow),  # 5 s of waits
    ],
)
def test_xboard_engine_is_detected_and_counts_right(flags, name):
    with open_engine(engine=f"{XB} {flags}", timeout=10) as engine:
        dialect = engine.dialect_info()
        assert dialect.name == name and engine.detected and engine.loop == "xboard"
        # the engine never plays a move of its own: black to move after `new` is its side
        assert engine.perft(CASTLES, 1, []) == 26
        assert engine.perft(KIWIPETE, 2, ["e1g1"]) == sum(pc_divide(KIWIPETE, 2, ["e1g1"]).values())
        if not dialect.total_only:
            assert engine.divide(KIWIPETE, 2, ["a2a3"]) == pc_divide(KIWIPETE, 2, ["a2a3"])


def test_engine_of_both_protocols_is_asked_in_xboard():
    """UCI with a total only, xboard with a divide (Sjaak II): the xboard divide is taken, and its
    late refusal of the `isready` sent behind the handshake is no refusal of the first position."""
    with open_engine(engine=f"{XB} --uci --format sjaak", timeout=10) as engine:
        assert engine.dialect_info().name == "xboard-perft-split"
        assert engine.divide(KIWIPETE, 2, ["e1g1"]) == pc_divide(KIWIPETE, 2, ["e1g1"])


def test_usermove_and_force_are_sent(tmp_path, monkeypatch):
    log = tmp_path / "sent"
    monkeypatch.setenv("FAKE_PERFT_LOG", str(log))
    with open_engine(engine=f"{XB} --format divide --usermove", dialect="xboard-divide", timeout=10) as engine:
        assert engine.divide(KIWIPETE, 1, ["e1g1"]) == pc_divide(KIWIPETE, 1, ["e1g1"])
    sent = log.read_text().splitlines()
    assert sent[:2] == ["xboard", "protover 2"]
    assert sent.index("force") < sent.index(f"setboard {KIWIPETE}")
    at = len(sent) - 1 - sent[::-1].index(f"setboard {KIWIPETE}")  # the question's (a check comes first)
    assert sent[at + 1] == "usermove e1g1" and sent[at + 2].startswith("ping ") and sent[at + 3] == "divide 1"


def test_edit_mode_refuses_what_it_cannot_say():
    with open_engine(engine=f"{XB} --format sjeng --no-setboard", dialect="xboard-perft-total", timeout=10) as engine:
        assert engine.perft("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 2, []) == 568
        with pytest.raises(EngineError, match=r"edit mode cannot set castling rights 'Kk'"):
            engine.perft("r3k2r/8/8/8/8/8/8/R3K2R w Kk - 0 1", 1, [])


def test_illegal_move_is_an_engine_error():
    with open_engine(engine=f"{XB} --format sjeng", dialect="xboard-perft-total", timeout=10) as engine:
        with pytest.raises(EngineError, match=r"refused the position .*'Illegal move: e2e5'"):
            engine.perft(STARTPOS, 1, ["e2e5"])


def test_named_xboard_dialect_without_an_xboard_engine_fails_fast():
    """A UCI engine asked in xboard: no feature line, so the error comes in seconds, quoting it."""
    began = time.monotonic()
    with pytest.raises(EngineError, match=r"did not answer 'xboard' and 'protover 2' with feature lines .*it printed "):
        with open_engine(engine=FAKE, dialect="xboard-perft", timeout=30) as engine:
            finishes(lambda: engine.perft(STARTPOS, 1, []))
    assert time.monotonic() - began < 20


def test_xboard_cannot_play_chess960():
    with pytest.raises(EngineError, match=r"cannot play Chess960"):
        with open_engine(engine=f"{XB} --format sjeng", timeout=10) as engine:
            engine.perft("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", 1, [], chess960=True)


def test_xboard_dialect_names():
    assert parse_dialect("xboard-perft-total").describe() == "bare 'perft N' in xboard (CECP) force mode, total only"
    assert parse_dialect("xboard-perft-split").verb(4) == "perft 4 1"


def test_buggy_xboard_engine_is_found():
    """The Sjaak-style fake with a move-generation bug: the descent ends at its missing moves."""
    with open_engine(engine=f"{XB} --format sjaak --bug no_ep", timeout=10) as engine:
        report = descend(Board(EP_FEN), engine, 2, EP_FEN, engine_name="fake")
    assert not report.agree and report.kind == "moves" and report.missing == ["e5f6"]


C960_ADJACENT = "4k3/8/8/8/8/8/8/5KRn w G - 0 1"  # bug_c960_adjacent misses f1g1 (king takes rook)


@pytest.mark.parametrize("depth", [1, 3])
def test_an_engine_that_counts_chess960_in_its_uci_loop_is_descended_by_totals(depth):
    """Sjaak II divides in xboard and counts Chess960 in its UCI loop, in totals: a Chess960
    descent asked it for an xboard divide ('printed no divide for perft 3 1') or, once it
    spoke totals, a divide at depth 1 (an error of bad input, exit 2)."""
    board = Board(C960_ADJACENT, chess960=True)
    with open_engine(engine=f"{XB} --format sjaak --uci --uci960 --bug c960_adjacent", timeout=10) as engine:
        report = descend(board, engine, depth, C960_ADJACENT, engine_name="fake")
        assert engine.switched_for_960 is not None and engine.total_only
    assert not report.agree and report.total_only and report.path == []
    oracle = pc_divide(C960_ADJACENT, depth, chess960=True)  # python-chess writes the castle f1g1 too
    assert report.steps[-1].ours == oracle
    assert report.steps[-1].theirs_total == sum(oracle.values()) - oracle["f1g1"]  # the castle it misses


# -- zero-count rows ---------------------------------------------------------------------


def test_settle_zero_rows():
    ours = {"e8e7": 14, "e8f8": 0}
    # an illegal move listed with 0, a legal one left out below which nothing is left
    assert settle_zero_rows(ours, {"e8e7": 14, "e8d8": 0}, 2) == ({"e8e7": 14}, {"e8e7": 14})
    # 0 against a real count stays a disagreement
    assert settle_zero_rows(ours, {"e8e7": 0, "e8f8": 0}, 2) == (ours, {"e8e7": 0, "e8f8": 0})
    # at depth 1 a row with 0 is a move the engine does not count
    assert settle_zero_rows({"e8e7": 1}, {"e8e7": 0, "e8d8": 0}, 1) == ({"e8e7": 1}, {})


class Rows:
    """An engine that answers with python-chess's divide plus zero rows for illegal king moves."""

    total_only = False

    def __init__(self, extra: dict[str, int]):
        self.extra = extra

    def divide(self, fen, depth, moves, chess960=False):
        return {**pc_divide(fen, depth, moves), **self.extra}


def test_zero_rows_are_no_disagreement():
    """Sjaak II's `e8d8 - vs 0`: before the fix the descent reported the moves as differing."""
    for depth in (1, 2, 3):
        report = descend(Board(ROOK_CHECK), Rows({"e8d8": 0, "e8d7": 0}), depth, ROOK_CHECK)
        assert report.agree, report.kind
        assert differs(Rows({"e8d8": 0, "e8d7": 0}), ROOK_CHECK, False, depth) is None


def test_zero_row_against_a_real_count_is_still_found():
    report = descend(Board(ROOK_CHECK), Rows({"e8e7": 0}), 2, ROOK_CHECK)
    assert not report.agree
    assert differs(Rows({"e8e7": 0}), ROOK_CHECK, False, 2) == 1  # depth 1: e8e7 not counted


def test_an_engine_option_for_an_xboard_engine_is_bad_input(cli):
    # QA 40b #4: the user's option, not the engine, is at fault: exit 2, as an option a UCI
    # engine does not offer (it was 3, "an external engine failed")
    result = cli("compare", "startpos", "2", "--engine", f"{XB} --format sjeng", "--engine-option", "Hash=16")
    one_line(result, 2, "never said 'uciok' (not a UCI engine: it offers no options), so --engine-option cannot be set")
