"""Counting while the suite files are read (``runner.Ahead``, issue 23 target 3): the
counts started as ``prepare`` reads are taken by ``run`` only where they are the planned
task's, and a run with them gives exactly the outcome of one without (the counts are
the bundled suites' published ones, not chesskit's own)."""

from __future__ import annotations

import json

import pytest

from chesskit.errors import InputError
from chesskit.suites import runner
from chesskit.suites.formats import read_suite
from chesskit.suites.runner import Ahead
from chesskit.suites.session import execute, prepare

from helpers import REPO

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
SUITES = [REPO / "positions" / "standard.epd", REPO / "positions" / "chess960.epd"]


def _outcome(paths, ahead_threads: int | None, **limits):
    """prepare + execute on 2 threads, with counts started while reading or without."""
    fail_fast = limits.pop("fail_fast", False)
    ahead = Ahead(ahead_threads, 0, limits.get("max_depth"), limits.get("max_nodes", 10**6)) if ahead_threads else None
    planned = prepare(paths, ahead=ahead, **limits)
    outcome = execute(planned, threads=2, hash_mb=0, ahead=ahead, fail_fast=fail_fast)
    return planned, outcome, ahead


def _summary(outcome):
    return (
        [json.dumps(r.to_json(), sort_keys=True) + repr(r.divide) for r in outcome.counted],
        [str(e) for e in outcome.errors],
        [(p.status, p.record.label) for p in outcome.positions],
    )


def test_read_suite_shows_each_position_as_it_is_read(tmp_path):
    suite = tmp_path / "s.epd"
    suite.write_text(f'{START} id "a"; D1 20;\nnot a position\n{START} id "b"; D1 20;\n{START} id "a"; D1 20;\n')
    seen = []
    entries = read_suite(suite, seen=seen.append)
    assert [(r.id, r.lineno) for r in seen] == [("a", 1), ("b", 3), ("a", 4)]  # the repeat too: it is an error after
    assert [type(e).__name__ for e in entries] == ["SuiteRecord", "LineError", "SuiteRecord", "LineError"]


def test_counts_started_while_reading_are_taken_and_give_the_same_outcome(tmp_path):
    bad = tmp_path / "mixed.epd"  # a bad line between positions, one wrong count, an id standard.epd uses too
    lines = [line for line in SUITES[0].read_text().splitlines() if line and not line.startswith("#")]
    wrong = lines[0].replace("D2 400", "D2 401")
    assert wrong != lines[0]
    bad.write_text("\n".join([wrong, "rnbqkbnr/pppppppp/8/8 w - -", *lines[1:4]]) + "\n")
    paths = [*SUITES, bad]
    _, before, _ = _outcome(paths, None, max_depth=3, max_nodes=10**15)  # the estimate asks nothing
    taken = []
    real_take = Ahead.take
    def take(self, job):
        found = real_take(self, job)
        taken.append(found is not None)
        return found

    Ahead.take = take
    try:
        planned, after, ahead = _outcome(paths, 2, max_depth=3, max_nodes=10**15)
    finally:
        Ahead.take = real_take
    assert _summary(after) == _summary(before)
    assert ahead.closed and not ahead.started  # every count started was taken
    assert taken == [True] * len({t.record.label for t in planned.tasks})  # every position's counts taken
    assert any(r.divide for r in after.counted) and any(":" in r.task.record.label for r in after.counted)
    # the results carry the planned tasks (renamed records included), not the speculated ones
    planned_ids = {id(t) for t in planned.tasks}
    assert all(id(r.task) in planned_ids for r in after.counted)


def test_fail_fast_and_skip_chess960_give_the_same_outcome():
    for limits in ({"max_depth": 2, "fail_fast": True}, {"max_depth": 2, "skip_chess960": True}):
        _, before, _ = _outcome(SUITES, None, **dict(limits))
        _, after, ahead = _outcome(SUITES, 2, **dict(limits))
        assert _summary(after) == _summary(before) and ahead.closed


def test_a_count_is_taken_only_where_the_planned_tasks_are_the_same(tmp_path):
    suite = tmp_path / "s.epd"
    suite.write_text(f'{START} id "a"; D1 20; D2 400; D3 8902;\n')
    ahead = Ahead(2, 0, None, 10**15)
    try:
        planned = prepare([suite], ahead=ahead, max_nodes=10**15)
        assert ahead.started
        fewer = [t for t in planned.tasks if t.depth < 3]  # the estimate or the limits may leave one out
        assert ahead.take(fewer) is None
        assert ahead.take(planned.tasks) is None  # taken once at most
    finally:
        ahead.close()
    ahead = Ahead(2, 0, None, 10**15)
    try:
        planned = prepare([suite], ahead=ahead, max_nodes=10**15)
        results = ahead.take(planned.tasks).result()
        assert [(r.task, r.nodes) for r in results] == [(t, t.expected) for t in planned.tasks]
    finally:
        ahead.close()


def test_the_pool_is_closed_when_prepare_fails(tmp_path, monkeypatch):
    suite = tmp_path / "s.epd"
    suite.write_text(f'{START} id "a"; D1 20;\n')
    ahead = Ahead(2, 0, None, 10**6)
    with pytest.raises(InputError, match="nothing to run"):  # after the file is read (a missing path among several is its error)
        prepare([suite], ahead=ahead, max_nodes=1)
    assert ahead.closed

    def interrupted(paths, strict, variant, seen):  # Ctrl-C while a file is read
        seen(runner.load_entries([suite]).records[0])
        raise KeyboardInterrupt

    monkeypatch.setattr("chesskit.suites.session.load_entries", interrupted)
    ahead = Ahead(2, 0, None, 10**6)
    with pytest.raises(KeyboardInterrupt):
        prepare([suite], ahead=ahead)
    assert ahead.closed and ahead.batches.closed


def test_the_cli_on_two_threads_prints_what_one_thread_prints(cli, tmp_path):
    suite = tmp_path / "s.epd"
    suite.write_text(f'{START} id "a"; D1 20; D2 401;\nnot a position\n{START} id "b"; D1 20; D2 400; D3 8902;\n')
    one = cli("suite", str(suite), "--json", "--threads", "1")
    two = cli("suite", str(suite), "--json", "--threads", "2")
    assert one.exit_code == two.exit_code == 1
    assert json.loads(two.stdout) == json.loads(one.stdout)
    assert json.loads(two.stdout)["results"][1]["nodes"] == 400


def test_a_count_the_estimate_may_refuse_is_never_started(tmp_path):
    suite = tmp_path / "s.epd"  # perft 7 of the start position is 3.2 G, not 6285: started, it would run for minutes
    suite.write_text(f'{START} id "a"; D1 20; D7 6285;\n{START} id "b"; D1 20; D2 400;\n')
    ahead = Ahead(2, 0, None, 10**6)
    try:
        planned = prepare([suite], ahead=ahead)
        assert [key[1] for key in ahead.started] == [2]  # line 2 only
        assert len(planned.errors) == 1 and "D7 6285: not run" in str(planned.errors[0])
    finally:
        ahead.close()
