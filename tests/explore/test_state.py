"""The explorer's UI-free state: navigation, divides and their differences, compare's
descent and landing on its node, and an engine that fails without ending the session.
Counts are checked against python-chess (``pc_divide``)."""

from __future__ import annotations

import threading

import pytest

from chesskit.board.board import Board
from chesskit.compare.engines import open_engine
from chesskit.errors import EngineError, InputError
from chesskit.explore.state import Cancelled, Divide, Explorer, Node
from helpers import ENGINES, EP_FEN, KIWIPETE, pc_divide

pytestmark = pytest.mark.usefixtures("no_leftover_children")

NO_EP = f"{ENGINES / 'bug_no_ep.py'}:Adapter"
AFTER_A4 = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1"


def explorer(fen=KIWIPETE, depth=2, python=None) -> Explorer:
    board = Board(fen)
    factory = (lambda: open_engine(python=python, timeout=60)) if python else None
    # state_pushes=0: compare's state check only along the descent (its sweep is compare's to test)
    return Explorer(board, depth, board.fen(), factory, state_pushes=0)


def test_without_an_engine_it_walks_chesskits_tree():
    ex = explorer(depth=2)
    divide = ex.divide()
    assert divide.ours == pc_divide(KIWIPETE, 2)
    assert divide.theirs is None and divide.agree is None
    assert all(row.status is None for row in divide.rows())
    assert [row.move for row in divide.rows()] == sorted(divide.ours)
    assert dict((row.move, row.san) for row in divide.rows())["e1g1"] == "O-O"
    with pytest.raises(InputError, match="no engine"):
        ex.descend()


def test_child_and_parent_keep_each_nodes_depth():
    ex = explorer(depth=3)
    assert ex.child("a2a4") == "a2a4" and ex.depth == 2
    assert ex.child("bxa3") == "b4a3" and ex.depth == 1  # SAN, en passant
    assert ex.child("O-O") == "e1g1" and ex.depth == 1  # never below 1
    assert ex.divide().ours == pc_divide(KIWIPETE, 1, ["a2a4", "b4a3", "e1g1"])
    assert [label for label, _ in ex.breadcrumb()] == ["1. a4", "1... bxa3", "2. O-O"]
    assert ex.parent() == "e1g1" and ex.depth == 1
    assert ex.parent() == "b4a3" and ex.depth == 2
    assert ex.parent() == "a2a4" and ex.depth == 3
    assert ex.parent() is None and ex.path == []
    with pytest.raises(InputError, match="^illegal move 'e1e3'"):
        ex.child("e1e3")
    assert ex.path == [] and ex.depth == 3
    # neither UCI nor SAN: the two forms explore reads are named; a UCI move without its
    # promotion piece gets the reason every command gives
    with pytest.raises(InputError, match=r"^illegal move 'zz' in .*: not a legal move in UCI \(g1f3\) or SAN \(Nf3\); legal"):
        ex.child("zz")
    promoting = explorer(fen="7k/P7/8/8/8/8/8/K7 w - - 0 1", depth=2)
    with pytest.raises(InputError, match=r"a promotion names its piece \(a7a8b, a7a8n, a7a8q, a7a8r\)"):
        promoting.child("a7a8")


def test_set_path_set_depth_and_set_root():
    ex = explorer(depth=2)
    ex.set_path(["a2a4", "b4a3"])
    assert ex.fen() == "r3k2r/p1ppqpb1/bn2pnp1/3PN3/4P3/p1N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 2"
    assert ex.path == ["a2a4", "b4a3"] and ex.depth == 2
    # the REPL's `moves` lists the legal moves as `child` does (it named the move and the FEN only)
    with pytest.raises(InputError, match=r"^illegal move 'a2a4' in .*; legal moves: a6b5 .* b4a3 .* h8h7$"):
        ex.set_path(["a2a4", "a2a4"])
    assert ex.path == ["a2a4", "b4a3"]  # unchanged by a bad path
    with pytest.raises(InputError):
        ex.set_depth(0)
    ex.set_root(Board(EP_FEN))
    assert ex.path == [] and ex.fen() == EP_FEN and ex.depth == 2


def test_rows_mark_differing_missing_and_extra_moves():
    divide = Divide(Node((), 2), KIWIPETE, {"a2a3": 5, "b2b3": 7, "c2c3": 4}, theirs={"a2a3": 5, "b2b3": 6, "e1c8": 3})
    rows = {row.move: row.status for row in divide.rows()}
    assert rows == {"a2a3": "same", "b2b3": "differs", "c2c3": "missing", "e1c8": "extra"}
    assert divide.missing() == ["c2c3"] and divide.extra() == ["e1c8"]
    assert divide.total == 16 and divide.engine_total == 14 and divide.agree is False
    same = Divide(Node((), 1), KIWIPETE, {"a2a3": 1}, theirs={"a2a3": 1})
    assert same.agree is True
    # a total-only engine at depth 1: a total, no moves to mark
    total_only = Divide(Node((), 1), KIWIPETE, {"a2a3": 1, "b2b3": 1}, theirs={}, theirs_total=1)
    assert not total_only.by_move and all(row.status is None for row in total_only.rows())
    assert total_only.agree is False


def test_engine_divide_and_descent_land_on_the_missing_en_passant():
    ex = explorer(depth=2, python=NO_EP)
    try:
        root = ex.divide()
        expected = pc_divide(KIWIPETE, 2)
        assert root.ours == expected
        assert {row.move for row in root.rows() if row.marked} == {"a2a4"}  # b4a3 e.p. lost below it
        assert root.theirs["a2a4"] == expected["a2a4"] - 1
        report = ex.descend()
        assert report.missing == ["b4a3"]
        assert ex.land(report) == Node(("a2a4",), 1)
        node = ex.cached()
        assert node.fen == AFTER_A4 and node.missing() == ["b4a3"] and node.extra() == []
        assert ex.parent() == "a2a4" and ex.depth == 2
    finally:
        ex.close()


def test_a_descent_from_a_node_below_the_root_starts_there():
    ex = explorer(depth=3, python=NO_EP)
    try:
        ex.child("a2a4")  # depth 2 here: the engine's move list already lacks b4a3
        report = ex.descend()
        assert report.path == ["a2a4"] and report.missing == ["b4a3"]
        assert ex.land(report) == Node(("a2a4",), 2)
        assert ex.cached().missing() == ["b4a3"]
        assert ex.cached().ours == pc_divide(KIWIPETE, 2, ["a2a4"])
    finally:
        ex.close()


class Flaky:
    """An engine stub that fails on one node: the explorer's engine life cycle, not counts."""

    opened = 0

    def __init__(self):
        Flaky.opened += 1
        self.name = "flaky"
        self.closed = False

    def divide(self, fen, depth, moves, chess960=False):
        if moves == ["a2a4"]:
            raise EngineError("engine 'flaky' exited with code 1")
        return pc_divide(fen, depth, moves)

    def close(self):
        self.closed = True


def test_an_engine_failure_keeps_chesskits_counts_and_the_next_question_reopens_it():
    Flaky.opened = 0
    ex = Explorer(Board(KIWIPETE), 1, KIWIPETE, Flaky)
    assert ex.divide().agree is True and Flaky.opened == 1
    ex.child("a2a4")
    failed = ex.divide()
    assert failed.engine_error == "engine 'flaky' exited with code 1"
    assert failed.ours == pc_divide(KIWIPETE, 1, ["a2a4"]) and failed.theirs is None
    ex.parent()
    ex.set_depth(2)
    assert ex.divide().agree is True and Flaky.opened == 2  # a fresh engine
    ex.child("a2a4")
    assert ex.divide().engine_error  # asked again, not taken from the cache


def test_a_cancelled_count_raises_cancelled_and_caches_nothing():
    ex = explorer(depth=2)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        ex.divide(cancel=cancel)
    assert ex.cached() is None
    parts = []
    ex.set_depth(4)  # counted in parts from PARTS_DEPTH on: kiwipete's 48 moves (board/threads.py)
    assert sum(ex.divide(progress=lambda what, done, total: parts.append((what, done, total))).ours.values()) == 4085603
    assert parts[-1] == ("chesskit", 48, 48) and len(parts) <= 101


def test_counters_per_move():
    ex = explorer(depth=1)
    rows = ex.counters()
    assert rows["e2a6"]["captures"] == 1 and rows["e1g1"]["castles"] == 1
    assert sum(row["captures"] for row in rows.values()) == 8  # kiwipete S1: captures=8


def test_a_total_only_engine_gives_its_total_and_its_count_below_each_move():
    # fake_perft --total-only answers `perft N` with a total only (as Ethereal does); its
    # no_ep bug loses the en-passant capture e5f6 at the start node
    import sys

    command = f"{sys.executable} {ENGINES / 'fake_perft.py'} --total-only --bug no_ep"
    ex = Explorer(Board(EP_FEN), 2, EP_FEN, lambda: open_engine(engine=command, timeout=60), state_pushes=0)
    try:
        expected = pc_divide(EP_FEN, 2)
        divide = ex.divide()
        assert divide.by_move and divide.theirs_total == sum(expected.values()) - expected["e5f6"]
        assert divide.theirs == expected  # asked below each move directly, it counts right
        assert divide.agree is False and not any(row.marked for row in divide.rows())
        ex.set_depth(1)
        shallow = ex.divide()
        assert not shallow.by_move and shallow.theirs_total == len(expected) - 1
        report = ex.descend()
        assert report.missing == ["e5f6"] and report.inferred
    finally:
        ex.close()
