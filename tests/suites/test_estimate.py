"""chesskit's own estimate of a perft count (suites/estimate.py), against published counts."""

from __future__ import annotations

import pytest

from chesskit.board.board import Board
from chesskit.suites.estimate import MARGIN, estimate_nodes, shallow_counts, within_bounds
from chesskit.suites.runner import load_entries, plan

START_12 = 62_854_969_236_701_747  # the Perft Results page


def test_the_start_position_at_depth_12_is_estimated_far_over_a_million():
    guess = estimate_nodes(Board(), 12)
    assert START_12 / 100 < guess <= START_12


def test_shallow_counts_are_exact_and_stop_early():
    assert shallow_counts(Board(), 9) == [1, 20, 400, 8902]  # published
    assert estimate_nodes(Board(), 3) == 8902


def test_no_bundled_count_is_refused_under_a_huge_limit():
    # the bundled positions' published counts: none is estimated above MARGIN times itself,
    # so a right count is never refused
    records = load_entries().records
    kept, errors = within_bounds(plan(records, max_nodes=10**12), max_nodes=1)
    assert errors == []
    assert len(kept) == len(plan(records, max_nodes=10**12))


@pytest.mark.parametrize("depth,expected,refused", [(3, 8902, False), (3, 100, False), (8, 6285, True), (12, 1, True)])
def test_within_bounds(depth, expected, refused, tmp_path):
    (tmp_path / "s.epd").write_text(f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - D{depth} {expected};\n")
    tasks = plan(load_entries([tmp_path / "s.epd"]).records, max_nodes=10**6)
    kept, errors = within_bounds(tasks, 10**6)
    assert (len(errors), len(kept)) == ((1, 0) if refused else (0, 1))
    if refused:
        assert errors[0].lineno == 1 and f"D{depth} {expected}: not run" in errors[0].message
    assert MARGIN >= 4


def test_a_limit_no_estimate_could_pass_counts_nothing(tmp_path, monkeypatch):
    # --max-nodes 1e13 at depth 4: MAX_MOVES ** 4 is under it, so no estimate could refuse
    # a task and none is made (a suite of small positions spent as long estimating as
    # counting); at depth 12 one could, and the understated count is still refused
    from chesskit.suites import estimate

    calls = []
    real = estimate.shallow_counts
    monkeypatch.setattr(estimate, "shallow_counts", lambda board, depth: calls.append(depth) or real(board, depth))
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    (tmp_path / "s.epd").write_text(f"{start} D3 8902 ;D4 197281\n{start} D12 1\n")
    tasks = plan(load_entries([tmp_path / "s.epd"]).records, max_nodes=None)
    kept, errors = within_bounds(tasks, 10**13)
    assert [t.depth for t in kept] == [3, 4]
    assert len(errors) == 1 and errors[0].lineno == 2 and "D12 1: not run" in errors[0].message
    assert calls == [12]  # the second line only
