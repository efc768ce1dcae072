"""Shared fixtures: the CLI through click's runner and as a real process, a pretend
terminal, Stockfish, and the check that no child process is left behind. Plain helpers
(paths, reference counts, the one-line error check) are in ``helpers.py``."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import TEST_INSTALL, find_stockfish, lifetime_helper as _lifetime_helper, missing as _missing, subprocess_env

# Started in the background of a shell without job control (`pytest ... &` in a script),
# the tests inherit Ctrl-C ignored, and chesskit leaves an ignored signal ignored (as under
# nohup): the tests of Ctrl-C, here and in the processes they start, need it as a terminal
# gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

def pytest_configure(config):
    """Put this Python's folder first on PATH, in this process and the processes it starts:
    the test engines are scripts (``#!/usr/bin/env python3``) that import python-chess, and
    when the tests run as ``.venv/bin/python -m pytest`` (the README's command, the
    environment not activated) ``python3`` must be this environment's, not the system's."""
    folder = os.path.dirname(sys.executable)
    if os.environ.get("PATH", "").split(os.pathsep)[0] != folder:
        os.environ["PATH"] = os.pathsep.join(filter(None, [folder, os.environ.get("PATH")]))


# ``-n auto``'s workers per usable core, and at most this many more than the cores: see
# pytest_xdist_auto_num_workers. Measured with the per-test figures of docs/benchmarks.md
# "The test suite" (the default run's waits): on 2 cores the README's run models at
# 301-323 s with 4 workers, 274-286 s with 6, 267-274 s with 8 and 271-276 s with 10.
# CI's slow step (``-m slow``) counts more than it waits (deep perft, the variant walks):
# there two per core, at most four more than the cores, as measured for CI's time.
WORKERS_PER_CORE = 3
WORKERS_BEYOND_CORES = 8
SLOW_WORKERS_PER_CORE = 2
SLOW_WORKERS_BEYOND_CORES = 4
# Memory one worker may need, its own and the processes its tests start at once (a worker
# holding numba and the compiled core: 430-660 MiB resident by the end of the default run,
# one for a moment 1.3 GiB; the chesskit runs and engines its tests start): the workers
# stay within the memory available.
WORKER_MEMORY = 1 << 30


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: three workers per usable core (at most eight more than the cores, and no
    more than the available memory holds at ``WORKER_MEMORY`` each, at least one). Most of
    the default run's tests wait on another process (a chesskit run, an engine's answer, a
    timeout) more than they count: with two per core a worker still sat idle about 620 s
    of the run (docs/benchmarks.md "The test suite"). Collection costs each worker about
    9 s of CPU, hence the cap on many-core machines. A run that selects the slow tests
    (``-m slow``, CI's second step) keeps two per core. ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    slow = config is not None and _selects_variant_walks(config)
    return _auto_workers(_cores(), _available_memory(), slow=slow)


def _auto_workers(cores: int, memory: int | None, slow: bool = False) -> int:
    if slow:
        workers = min(SLOW_WORKERS_PER_CORE * cores, cores + SLOW_WORKERS_BEYOND_CORES)
    else:
        workers = min(WORKERS_PER_CORE * cores, cores + WORKERS_BEYOND_CORES)
    if memory is not None:
        workers = min(workers, memory // WORKER_MEMORY)
    return max(1, workers)


def _available_memory() -> int | None:
    """Bytes this process may still use: ``tablesize.memory_available_mb``, the figure the
    table's size is chosen by (/proc/meminfo's MemAvailable, lowered to what a container's
    cgroup limit leaves, v2 or v1, up the tree); None where it cannot be read."""
    from chesskit.board.tablesize import memory_available_mb

    available = memory_available_mb()
    return None if available is None else available << 20


def _warm_core(debug: bool = True) -> None:
    """Load the compiled core, compiling on a cold cache: the walk, and the leaf counters'
    and (with ``debug``) the invariant checker's walks, which numba compiles on their first
    call."""
    from chesskit.board.board import Board

    Board().perft(2)
    Board().stats(1)
    Board().divide_stats(1)
    if debug:
        Board().debug(1)


# The invariant checker's walk, compiled in a child beside the controller's own compile
# (``_warm_with``): on a cold cache the other core was otherwise idle in a [test] install.
WARM_DEBUG = """
from chesskit.board.board import Board
Board().debug(1)
"""


# Run beside the controller's own compile (``_warm_with``), where numba-cuda is installed:
# the GPU path in numba-cuda's simulator (tests/gpu/test_gpu_sim.py) calls the core's move
# generator and make functions from Python, so numba compiles them as functions of their own
# (about 20 s of CPU on a cold cache), which each worker's first GPU test did again.
WARM_BESIDE = """
import os
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
try:
    import numba.cuda  # noqa: F401
except ImportError:  # no [gpu] extra: its tests skip
    raise SystemExit(0)
from chesskit.board.board import Board
from chesskit.gpu import open_walk
open_walk().perft(Board(), 3)
"""


def _warm_with(scripts, variants: bool) -> None:
    """``_warm_core`` in this process while ``scripts`` run beside it on the other cores;
    with ``variants``, every variant's walks too (``WARM_VARIANT``, one child per rule set;
    CI's slow step), on every core once this process's own compile has ended: each walk
    compiles once, before any worker starts, instead of in each worker, chesskit process
    and xdist group that meets it cold. Tried and measured on a loaded machine (2026-11-26):
    handing the simulator's child the invariant checker's walk as well made its share 58 s
    of CPU against the controller's 61 s for all four walks alone, and the pair 90 s against
    82 s (both compile the move generator): no gain worth that there. In a [test] install
    (no simulator) the other core sat idle, so the invariant checker's walk is compiled
    beside (``WARM_DEBUG``): the README's first test run on a cold cache, quiet 2-core
    Xeon, 4:04 -> 3:37 wall. A child's failure is not this run's: it only warms the cache,
    and the tests it warms for report their own errors."""
    import threading

    cores = _cores()
    queue = list(scripts) + ([[WARM_VARIANT, name] for name in WARM_VARIANTS] if variants else [])
    compiling = threading.Event()
    compiling.set()
    thread = threading.Thread(
        target=_run_beside, args=(queue, lambda: max(1, cores - 1) if compiling.is_set() else cores), daemon=True
    )
    thread.start()
    try:
        _warm_core(debug=False)
    finally:
        compiling.clear()
        thread.join()


# One variant's compiled code, warmed in a child process of its own (``_warm_with``): the
# walk (perft, divide, legal moves, push: ``core/vwalk.py``) and the counters' walk
# (--stats: ``core/vstats.py``).
WARM_VARIANT = """
import sys
from chesskit.board.board import Board
board = Board(variant=sys.argv[1])
board.perft(2)
board.stats(1)
"""

# The rule sets (giveaway runs antichess's), the dearest walk first (its CPU s on a cold
# cache, docs/benchmarks.md "The variant walks' compile time"), so that the last to start
# is a short one.
WARM_VARIANTS = ("horde", "racingkings", "3check", "crazyhouse", "kingofthehill", "atomic", "antichess")


def _selects_variant_walks(config) -> bool:
    """Whether ``-m`` selects the tests marked slow and variant_walk (``-m slow``: CI's
    second step), read with pytest's own parser of mark expressions. No ``-m`` (a file or
    a test run by hand) warms no variant: each test compiles what it needs."""
    expression = (config.getoption("markexpr", "") or "").strip()
    if not expression:
        return False
    try:
        from _pytest.mark.expression import Expression

        return bool(Expression.compile(expression).evaluate(lambda name, **_: name in ("slow", "variant_walk")))
    except Exception:  # pytest changed its private parser: read the words
        return "slow" in expression and "not slow" not in expression


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _run_beside(scripts, slots) -> None:
    """Run ``scripts`` (argument lists for ``python -c``) as child processes, in order, at
    most ``slots()`` at a time, each with the tests' environment; their output is dropped. They only fill numba's cache: a child that fails costs its
    time, never a result (the tests that need its code compile it and report their own
    errors)."""
    env = subprocess_env()
    waiting, running = list(scripts), []
    while waiting or running:
        running = [child for child in running if child.poll() is None]
        while waiting and len(running) < slots():
            running.append(
                subprocess.Popen(
                    [sys.executable, "-c", *waiting.pop(0)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
            )
        time.sleep(0.2)


# The names a test's id may carry for the variant whose walk it compiles.
VARIANT_WORDS = ("atomic", "crazyhouse", "kingofthehill", "koth", "3check", "antichess", "giveaway", "horde", "racingkings")


def _uncounted_variants() -> list[str]:
    """The variants Board refuses because the core does not generate their moves yet
    (core/vstate.COUNTED): their variant_walk tests are expected to fail, strictly, so they
    turn red the day the core counts them and the mark has to go."""
    from chesskit.core import vstate

    return [name for vid, name in enumerate(vstate.NAMES) if vid and vstate.RULES[vid] not in vstate.COUNTED]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """A test marked ``variant_walk`` compiles a variant's walk on a cold cache (12-31 s of
    CPU for the walk, more for the counters' walk, per rule set): it runs with the slow tests
    (tryfirst: marked before ``-m`` deselects). ``-m slow`` compiles every variant's walks
    before the workers start (``pytest_sessionstart``); a run that selects such tests
    otherwise keeps each variant's in one ``xdist_group``, so that under ``--dist loadgroup``
    one worker compiles it instead of several at once."""
    for item in items:
        if item.get_closest_marker("variant_walk") is None:
            continue
        item.add_marker(pytest.mark.slow)
        callspec = getattr(item, "callspec", None)
        param = callspec.params.get("variant", "") if callspec else ""
        param = str(getattr(param, "name", param)).lower()
        uncounted = [w for w in _uncounted_variants() if w in item.nodeid.lower() or param.startswith(w)]
        if uncounted:
            item.add_marker(pytest.mark.xfail(strict=True, reason=f"the core does not count {uncounted[0]} yet"))
        words = [w for w in VARIANT_WORDS if w in item.nodeid.lower()]
        group = "variant-" + ("kingofthehill" if words[:1] == ["koth"] else words[0]) if words else item.module.__name__
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Compile (or load) the core once, in the process that owns the run, before
    pytest-xdist starts its workers (tryfirst: before xdist's own sessionstart): the
    workers then load the cache it wrote instead of each compiling the same code at once.
    With ``-m slow`` every variant's walks too, in child processes on every core. A worker
    (``workerinput`` set) leaves it to the controller."""
    if not hasattr(session.config, "workerinput"):
        variants = _selects_variant_walks(session.config) and not session.config.option.collectonly
        _warm_with([[WARM_DEBUG], [WARM_BESIDE]], variants=variants)


@pytest.fixture(scope="session", autouse=True)
def compiled_core():
    """Compile (or load) the core's walk once, before any test, whatever order they run
    in: a process a test starts that met a cold cache would print the first-run notice.
    Under pytest-xdist the controller has already warmed the cache; a worker loads it."""
    _warm_core()


@pytest.fixture(scope="session")
def stockfish_path() -> str:
    """The Stockfish binary: on PATH, else /usr/games/stockfish; skips when absent."""
    path = find_stockfish()
    if path is None:
        _missing("stockfish on PATH or in /usr/games", "Debian: apt-get install stockfish")
    return path


PERFT_SETS_ENV = "CHESSKIT_PERFT_SETS"
PERFT_SETS = ("tricky.perft", "random.perft", "chess960.perft")


@pytest.fixture(scope="session")
def perft_sets() -> Path:
    """The folder of python-chess's published perft sets (its sdist's examples/perft, GPL,
    never committed here), named by $CHESSKIT_PERFT_SETS; .ci/run fetches it. Skips when
    absent outside CI."""
    folder = os.environ.get(PERFT_SETS_ENV)
    if not folder or not all((Path(folder) / name).is_file() for name in PERFT_SETS):
        _missing(
            f"python-chess's perft sets (${PERFT_SETS_ENV}, a folder with {', '.join(PERFT_SETS)})",
            f"fetch them from PyPI: export {PERFT_SETS_ENV}=$(tools/fetch_perft_sets)",
        )
    return Path(folder)


@pytest.fixture
def cli():
    """``cli("perft", "startpos", "2")`` runs the click group in-process; returns the Result
    (``.exit_code``, ``.stdout``, ``.stderr``)."""
    from chesskit.cli.main import main

    runner = CliRunner()

    def invoke(*args: str, **kwargs):
        return runner.invoke(main, list(args), prog_name="chesskit", **kwargs)

    return invoke


@pytest.fixture
def terminal(monkeypatch):
    """Make the commands believe stdout and stderr are terminals (rich output, progress)."""
    from chesskit.cli import output

    monkeypatch.setattr(output, "stdout_is_terminal", lambda: True)
    monkeypatch.setattr(output, "stderr_is_terminal", lambda: True)


@pytest.fixture
def run_module():
    """``run_module("perft", "startpos", "2")``: ``python -m chesskit ...`` as a real process."""

    def run(*args: str, **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "chesskit", *args],
            capture_output=True,
            text=True,
            env=subprocess_env(),
            timeout=600,
            **kwargs,
        )

    return run


@pytest.fixture(scope="session")
def entry_point() -> str:
    """The installed ``chesskit`` console script (next to this Python, else on PATH)."""
    beside = Path(sys.executable).with_name("chesskit")
    path = str(beside) if beside.exists() else shutil.which("chesskit")
    if path is None:
        _missing(f"the chesskit entry point beside {sys.executable} or on PATH", f"install it: {TEST_INSTALL}")
    return path


@pytest.fixture
def run_entry_point(entry_point):
    """``run_entry_point("perft", "startpos", "2")``: the ``chesskit`` script as a real process."""

    def run(*args: str, **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(
            [entry_point, *args],
            capture_output=True,
            text=True,
            env=subprocess_env(),
            timeout=600,
            **kwargs,
        )

    return run


def _describe(child) -> str:
    """A leftover child as pid and command line (psutil), or as it is."""
    try:
        return f"pid {child.pid}: {' '.join(child.cmdline())[:200]}"
    except Exception:  # gone meanwhile, or not a psutil process
        return str(child)


@pytest.fixture
def no_leftover_children():
    """The test must leave no child process behind, running or zombie (engine tests use it
    through ``pytestmark``). Children this process already had when the test began are not
    the test's: under pytest-xdist a worker keeps, say, multiprocessing's resource tracker
    that an earlier test in the same worker started."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil comes with the [cluster] extra
        psutil = None
    before = {child.pid for child in psutil.Process().children(recursive=True)} if psutil else set()
    yield
    # generous: the wait ends as soon as they are gone, and a busy machine (xdist workers
    # beside engines) can take seconds to reap a process that was killed correctly
    deadline = time.monotonic() + 30
    collected = False
    while True:
        if psutil is not None:
            left = [c for c in psutil.Process().children(recursive=True) if c.pid not in before and not _lifetime_helper(c)]
        else:  # pragma: no cover
            try:
                left = [os.waitpid(-1, os.WNOHANG)[0] or "running child"]
            except ChildProcessError:
                left = []
        if not left or time.monotonic() > deadline:
            break
        if not collected:
            # an engine object the test dropped (a PythonEngine, say) stops its process when
            # it is collected; tracebacks kept by pytest.raises hold it in a cycle until then.
            # Only when a child is left: a full collection costs 0.2 s of CPU in a worker
            # that holds numba's compiled code, and most tests leave nothing (issue 25)
            import gc

            gc.collect()
            collected = True
            continue
        time.sleep(0.05)
    assert not left, f"child processes left behind: {[_describe(c) for c in left]}"
