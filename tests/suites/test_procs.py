"""A suite's small counts on worker processes (``chesskit.suites.procs``, issue 23 target
3): the same results in the same order as one thread and as threads (the expected counts
are the bundled suites' published ones and python-chess's, not chesskit's own), errors
and mismatches where they were, and no worker outliving its run: not at the end, not
after Ctrl-C, not after the parent is killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from chesskit.suites import procs, runner
from chesskit.suites.procs import WorkerLost, Workers
from chesskit.suites.runner import Ahead
from chesskit.suites.session import execute, prepare

from helpers import REPO, gone, subprocess_env

pytestmark = pytest.mark.skipif(not procs.AVAILABLE, reason="worker processes are forked on Linux only")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
SUITES = [REPO / "positions" / "standard.epd", REPO / "positions" / "chess960.epd"]


def _summary(outcome):
    return (
        [json.dumps(r.to_json(), sort_keys=True) + repr(r.divide) for r in outcome.counted],
        [str(e) for e in outcome.errors],
        [(p.status, p.record.label) for p in outcome.positions],
    )


@pytest.fixture
def forks(monkeypatch):
    """The pids of every worker process made while the test runs."""
    made: list[int] = []
    real = Workers.__init__

    def init(self, *args, **kwargs):
        real(self, *args, **kwargs)
        made.extend(w.pid for w in self.workers)

    monkeypatch.setattr(Workers, "__init__", init)
    return made


def _mixed_suite(tmp_path):
    """standard.epd's lines with a wrong count (a divide), a bad line, a line whose board
    cannot be set up, and an id standard.epd uses too."""
    lines = [line for line in SUITES[0].read_text().splitlines() if line and not line.startswith("#")]
    wrong = lines[0].replace("D2 400", "D2 401")
    assert wrong != lines[0]
    bad = tmp_path / "mixed.epd"
    bad.write_text("\n".join([wrong, "rnbqkbnr/pppppppp/8/8 w - -", *lines[1:6]]) + "\n")
    return bad


@pytest.mark.parametrize("ahead", [False, True])
def test_a_suite_on_processes_gives_what_one_thread_gives(tmp_path, forks, ahead):
    paths = [*SUITES, _mixed_suite(tmp_path)]
    limits = {"max_depth": 3, "max_nodes": 10**15}
    one = execute(prepare(paths, **limits), threads=1, hash_mb=0)
    started = Ahead(2, 0, 3, 10**15) if ahead else None
    two = execute(prepare(paths, ahead=started, **limits), threads=2, hash_mb=0, ahead=started)
    assert forks, "no worker process was made"
    assert _summary(two) == _summary(one)
    assert any(r.divide for r in two.counted) and two.failed and two.errors
    assert not any(not gone(pid) for pid in forks)  # ended and reaped


def test_processes_and_threads_give_the_same_outcome_with_a_table(tmp_path, forks, monkeypatch):
    """Counts of depth 5 share the table: those positions go to threads, the rest to the
    workers, in one run, in order."""
    paths = [SUITES[0], _mixed_suite(tmp_path)]
    limits = {"max_depth": 5, "max_nodes": 10**7}
    two = execute(prepare(paths, **limits), threads=2, hash_mb=16)
    assert forks
    monkeypatch.setattr(runner, "PROCESSES", False)
    threads = execute(prepare(paths, **limits), threads=2, hash_mb=16)
    assert _summary(two) == _summary(threads)
    assert any(r.task.depth == 5 for r in two.counted)


def test_python_chess_random_set_on_processes(tmp_path, forks):
    """Every 40th position of python-chess's random.perft, D1-D3, on two workers: every
    count python-chess's set gives, in file order."""
    sets = os.environ.get("CHESSKIT_PERFT_SETS")
    source = sets and os.path.join(sets, "random.perft")
    if not source or not os.path.exists(source):
        pytest.skip("python-chess's perft sets not found; set CHESSKIT_PERFT_SETS")
    blocks = open(source).read().split("\n\n")
    sample = tmp_path / "random.perft"
    sample.write_text("\n\n".join(blocks[::40]) + "\n")
    planned = prepare([sample], max_depth=3, max_nodes=10**15)
    outcome = execute(planned, threads=2, hash_mb=0)
    assert forks and not outcome.failed and not outcome.errors
    order = [(r.task.record.label, r.task.depth) for r in outcome.results]
    assert order == [(t.record.label, t.depth) for t in planned.tasks]


def _double(x):
    if x == "fail":
        raise ValueError("no such number")
    if x == "exit":
        os._exit(3)
    return 2 * x


def test_workers_answer_in_order_and_raise_what_a_payload_raised():
    workers = Workers(2, _double)
    try:
        futures = [workers.submit(n, then=lambda v: v + 1) for n in range(10)]
        failed = workers.submit("fail")
        assert [f.result() for f in futures] == [2 * n + 1 for n in range(10)]
        with pytest.raises(ValueError, match="no such number"):
            failed.result()
        lost = workers.submit("exit")
        with pytest.raises(WorkerLost, match="exit code 3"):
            lost.result()
    finally:
        workers.close()
    assert not any(not gone(w.pid) for w in workers.workers)


def test_closing_cancels_what_is_unanswered_and_ends_the_workers():
    workers = Workers(2, time.sleep)
    waiting = [workers.submit(30) for _ in range(4)]
    workers.close()
    assert all(f.cancelled() for f in waiting)
    assert not any(not gone(w.pid) for w in workers.workers)


def test_ahead_closed_ends_its_workers(tmp_path, forks):
    suite = tmp_path / "s.epd"
    suite.write_text("".join(f'{START} id "p{i}"; D1 20; D2 400; D3 8902;\n' for i in range(50)))
    ahead = Ahead(2, 0, None, 10**15)
    prepare([suite], ahead=ahead, max_nodes=10**15)
    assert forks and ahead.started
    ahead.close()
    assert ahead.batches.closed and not any(not gone(pid) for pid in forks)


# ------------------------------------------------------------------ whole processes


def _long_suite(tmp_path):
    """A suite that counts for half a minute or more: 20,000 small positions, D1-D4."""
    suite = tmp_path / "long.epd"
    suite.write_text("".join(f'{START} id "s{i}"; D1 20; D2 400; D3 8902; D4 197281;\n' for i in range(20000)))
    return suite


def _workers_of(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as found:
            return [int(p) for p in found.read().split()]
    except FileNotFoundError:
        return []


def _start_counting(tmp_path):
    """``chesskit suite LONG --threads 2`` in a session of its own, once its workers count."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "chesskit", "suite", str(_long_suite(tmp_path)), "--threads", "2", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=subprocess_env(), start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while len(_workers_of(proc.pid)) < 2:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"no workers (exit {proc.poll()}): {proc.communicate()[1][-500:]}")
        time.sleep(0.02)
    return proc, _workers_of(proc.pid)


def _none_left(pids: list[int]) -> bool:
    deadline = time.monotonic() + 30  # a hang, not a slow machine
    while any(not gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not any(not gone(pid) for pid in pids)


def test_ctrl_c_ends_the_run_and_its_workers(tmp_path):
    """Ctrl-C reaches the terminal's whole process group: the workers ignore it, the
    parent reports it (one line, 130) and ends them."""
    proc, workers = _start_counting(tmp_path)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err == "chesskit: interrupted\n"
    assert json.loads(out)["interrupted"] == "interrupted"  # --json: the object of the counts made so far
    assert _none_left(workers)


def test_workers_end_with_a_killed_parent(tmp_path):
    proc, workers = _start_counting(tmp_path)
    proc.kill()  # no cleanup at all: the kernel ends the workers (PR_SET_PDEATHSIG)
    proc.communicate()
    assert _none_left(workers)


def test_workers_that_cannot_be_started_leave_the_counts_to_threads(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(procs.os, "fork", refused)
    paths = [SUITES[0], _mixed_suite(tmp_path)]
    one = execute(prepare(paths, max_depth=3, max_nodes=10**15), threads=1, hash_mb=0)
    two = execute(prepare(paths, max_depth=3, max_nodes=10**15), threads=2, hash_mb=0)
    assert _summary(two) == _summary(one)
