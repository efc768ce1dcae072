"""conftest's own fixtures. ``no_leftover_children`` blames a test only for the children it
left: a child the process already had (multiprocessing's resource tracker, which an earlier
test in the same pytest-xdist worker started and which lives as long as the process) made
every later engine test fail after a 30 s wait."""

from __future__ import annotations

import pytest


@pytest.fixture
def process_lifetime_child():
    """multiprocessing's resource tracker, running before the test (as an earlier test in
    the same worker leaves it)."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


@pytest.mark.usefixtures("process_lifetime_child", "no_leftover_children")
def test_a_child_from_before_the_test_is_not_a_leftover():
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # already running: this test starts nothing


def test_only_the_resource_tracker_is_a_process_lifetime_helper():
    """A Dask local cluster inside a test starts multiprocessing's resource tracker, which
    lives as long as the process (test_cli_garbage failed on it when it came first in its
    worker): the fixture lets that one be, and still sees any other child."""
    import subprocess
    import sys

    import psutil

    from helpers import lifetime_helper as _lifetime_helper
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    mine = psutil.Process().children()
    assert any(_lifetime_helper(c) for c in mine)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert not _lifetime_helper(psutil.Process(other.pid))
    finally:
        other.kill()
        other.wait()


@pytest.mark.parametrize(
    "markexpr,warms",
    [
        ("slow", True),  # CI's second step: every variant's walks compiled before the workers start
        ("slow or stockfish", True),
        ("variant_walk", True),
        ("not slow", False),  # the README's command compiles no variant
        ("slow and not variant_walk", False),
        ("", False),  # a file or a test run by hand: each test compiles what it needs
    ],
)
def test_the_variant_walks_are_warmed_when_the_run_selects_them(markexpr, warms):
    """``-m`` decides whether the controller compiles every variant's walks first: warming
    them for a run that selects none would cost minutes on a cold cache."""
    conftest = _tests_conftest()

    class Config:
        def getoption(self, name, default=None):
            assert name == "markexpr"
            return markexpr

    assert conftest._selects_variant_walks(Config()) is warms


def test_the_warmed_rule_sets_are_every_counted_variants():
    """One child per rule set the core counts (giveaway runs antichess's walk): a variant
    left out would be compiled by the tests again, in each worker that meets it."""
    conftest = _tests_conftest()
    from chesskit.core import vstate

    counted = {vstate.NAMES[vid] for vid in vstate.COUNTED}
    assert set(conftest.WARM_VARIANTS) == counted and len(conftest.WARM_VARIANTS) == len(counted)


def _tests_conftest():
    """tests/conftest.py as a module of its own: ``import conftest`` gets whichever conftest.py
    the worker imported last (tests/report/ has one too: it failed every case in CI)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("tests_conftest_under_test", Path(__file__).with_name("conftest.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "cores, memory, workers",
    [
        (2, 24 << 30, 6),  # this project's 2-core machine: three per core
        (1, 24 << 30, 3),
        (16, 64 << 30, 24),  # many cores: at most eight more than the cores
        (2, 3 << 30, 3),  # little memory: one worker per GiB available
        (8, 100 << 20, 1),  # less than a worker's memory: still one
        (4, None, 12),  # memory unknown: the cores decide
    ],
)
def test_auto_workers_oversubscribe_the_cores_within_the_memory(cores, memory, workers):
    """``-n auto`` runs three workers per core (most tests wait on another process), capped
    for many cores (each worker collects the suite) and by the memory available."""
    assert _tests_conftest()._auto_workers(cores, memory) == workers


@pytest.mark.parametrize("cores, memory, workers", [(2, 24 << 30, 4), (16, 64 << 30, 20), (2, 3 << 30, 3)])
def test_the_slow_step_keeps_two_workers_per_core(cores, memory, workers):
    """``-m slow`` (CI's second step) counts more than it waits: two per core, as before."""
    assert _tests_conftest()._auto_workers(cores, memory, slow=True) == workers


def test_the_auto_workers_hook_uses_this_machine_unless_the_user_chose(monkeypatch):
    """The hook pytest-xdist calls for ``-n auto``: this process's usable cores and memory;
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` set by the user wins."""
    import os

    conftest = _tests_conftest()
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    memory = conftest._available_memory()
    assert memory is None or memory > 0
    expected = conftest._auto_workers(len(os.sched_getaffinity(0)), memory)
    assert conftest.pytest_xdist_auto_num_workers(Config("not slow")) == expected
    slow = conftest._auto_workers(len(os.sched_getaffinity(0)), memory, slow=True)
    assert conftest.pytest_xdist_auto_num_workers(Config("slow")) == slow
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "5")
    assert conftest.pytest_xdist_auto_num_workers(Config("not slow")) == 5


class Config:
    """The part of pytest's config that conftest reads: ``-m``'s expression."""

    def __init__(self, markexpr: str):
        self.markexpr = markexpr

    def getoption(self, name, default=None):
        assert name == "markexpr"
        return self.markexpr


def test_a_cache_copy_leaves_out_files_being_written(tmp_path):
    """CI run on 045c067 failed here: a copy of the live cache listed numba's in-flight
    ``.name.nbc.xxxx.tmp`` file, another worker renamed it away, and copytree raised."""
    from helpers import copy_cache

    live = tmp_path / "live"
    (live / "core").mkdir(parents=True)
    (live / "core" / "position.compute_key2-108.py311.1.nbc").write_bytes(b"done")
    (live / "core" / ".position.compute_key2-108.py311.1.nbc.rucbp6hm.tmp").write_bytes(b"half")
    (live / "walk-1.o").write_bytes(b"obj")
    copy = copy_cache(live, tmp_path / "copy")
    found = sorted(str(p.relative_to(copy)) for p in copy.rglob("*") if p.is_file())
    assert found == ["core/position.compute_key2-108.py311.1.nbc", "walk-1.o"]
