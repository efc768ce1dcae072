"""Shrinking: fewer pieces, rights and plies, every candidate valid, the bug kept (python-chess judges)."""

from __future__ import annotations

import chess
import pytest

from chesskit.compare.engines import open_engine
from chesskit.errors import EngineError
from chesskit.fuzz import shrink as shrink_module
from chesskit.fuzz.run import fuzz
from chesskit.fuzz.shrink import differs, shrink
from helpers import ENGINES

# a crowded position with three black queens; the bug of bug_three_queens shows at depth 1
QUEENS = "r1b1k2r/1p1n1ppp/2q5/p1q1p3/1P2P3/P1N2Nq1/2PB1PPP/R2QKB1R b KQkq - 0 1"


def engine(name: str):
    return open_engine(python=f"{ENGINES / name}.py:Adapter")


def pieces(fen: str) -> int:
    return len(chess.Board(fen).piece_map())


def python_chess_differs(name: str, fen: str) -> bool:
    """Whether the buggy adapter's move list differs from python-chess's at ``fen``."""
    with engine(name) as eng:
        eng.set_fen(fen)
        theirs = set(eng.legal_moves())
    board = chess.Board(fen)
    return theirs != {m.uci() for m in board.legal_moves}


def test_shrink_removes_pieces_and_keeps_the_bug():
    assert python_chess_differs("bug_three_queens", QUEENS)
    with engine("bug_three_queens") as eng:
        result = shrink(eng, QUEENS, False, 1)
    assert result.kept >= 1 and result.error is None
    assert pieces(result.fen) <= 6 < pieces(QUEENS)
    assert result.fen.split()[0].count("q") >= 3  # the queens are what the bug needs
    assert python_chess_differs("bug_three_queens", result.fen)
    assert result.depth == 1


def test_shrink_drops_castling_rights_that_do_not_matter():
    with engine("bug_three_queens") as eng:
        result = shrink(eng, QUEENS, False, 1)
    assert result.fen.split()[2] == "-"


def test_every_candidate_is_valid_and_shrinking_is_bounded(monkeypatch):
    seen = []
    real = shrink_module.differs

    def spy(eng, fen, chess960, depth, count=None, **bounds):
        seen.append(fen)
        return real(eng, fen, chess960, depth, count, **bounds)

    monkeypatch.setattr(shrink_module, "differs", spy)
    monkeypatch.setattr(shrink_module, "MAX_CANDIDATES", 15)
    with engine("bug_three_queens") as eng:
        result = shrink(eng, QUEENS, False, 1)
    assert 0 < len(seen) <= 15 and result.tried == len(seen)
    for fen in seen:
        board = chess.Board(fen)
        assert board.is_valid(), fen


def test_walk_bug_keeps_the_move_that_shows_it():
    """An unmake bug shows only on the way back from a move: the shrunk report keeps that ply."""
    with engine("bug_ep_not_restored") as eng:
        run = fuzz(eng, 1, max_positions=300)
    finding = run.finding
    assert finding is not None and finding.report.kind == "state"
    assert finding.report.state.field == "walk" and len(finding.report.path) == 1
    assert pieces(finding.report.position_fen) <= 5
    assert finding.report.position_fen.split()[3] != "-"  # the en-passant square the pop forgets


def test_castle_rights_bug_keeps_the_capture_path():
    with engine("bug_castle_rights_kept") as eng:
        run = fuzz(eng, 2, max_positions=300)
    report = run.finding.report
    assert report.kind == "moves" and report.path and report.extra
    assert pieces(report.position_fen) <= 5
    # python-chess: the right is gone after the path, so the engine's castle is illegal there
    board = chess.Board(report.position_fen)
    for move in report.path:
        board.push_uci(move)
    assert all(board.parse_uci(m) not in board.legal_moves for m in report.extra if _parses(board, m))


def _parses(board: chess.Board, uci: str) -> bool:
    try:
        board.parse_uci(uci)
    except ValueError:
        return False
    return True


def test_engine_failing_while_shrinking_keeps_what_was_shrunk(tmp_path, monkeypatch):
    calls = []

    class Flaky:
        name = "flaky"

        def __init__(self, inner):
            self.inner = inner

        def divide(self, fen, depth, moves, chess960=False):
            calls.append(fen)
            if len(calls) > 4:
                raise EngineError("engine 'flaky' crashed")
            return self.inner.divide(fen, depth, moves, chess960)

    with engine("bug_three_queens") as eng:
        result = shrink(Flaky(eng), QUEENS, False, 1)
    assert result.error == "engine 'flaky' crashed"
    assert differs(engine("bug_three_queens"), result.fen, False, 1) == 1


@pytest.mark.parametrize("depth", [1, 2])
def test_differs_finds_the_first_depth(depth):
    with engine("eng_correct") as eng:
        assert differs(eng, QUEENS, False, depth) is None
    with engine("bug_three_queens") as eng:
        assert differs(eng, QUEENS, False, depth) == 1
