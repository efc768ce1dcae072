"""Checking suites from Python: what ``chesskit suite`` runs, without the CLI.

``prepare`` reads the files and folders (every line that cannot be run is a ``LineError``;
the rest still runs), leaves out Chess960 positions when asked, picks the counts within
the limits and refuses those chesskit estimates far over them (``estimate``); ``execute``
counts them, with chesskit or an engine, and returns an ``Outcome``: the results, the
mismatches, every line not run, and the exception that sums it up (``Outcome.verdict``)::

    planned = prepare(["positions/standard.epd"], max_nodes=10**6)
    outcome = execute(planned, threads=2)
    assert not outcome.failed, outcome.failed[0].to_json()

Nothing here prints: the CLI draws progress with ``execute``'s callbacks and renders the
outcome (``chesskit.cli.suite_render``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from chesskit.errors import ChesskitError, EngineError, EngineNotStarted, InputError, MismatchError
from chesskit.suites.estimate import within_bounds
from chesskit.suites.formats import LineError
from chesskit.suites.tags import select
from chesskit.suites.runner import DEFAULT_MAX_NODES, SuiteResult, Task, load_entries, plan, run, run_engine
from chesskit.timer import Timer


@dataclass
class Planned:
    """The counts to check and the lines that cannot be run."""

    tasks: list[Task]
    errors: list[LineError]
    skip_chess960: bool = False


@dataclass
class Outcome:
    """What a run found. ``results``: the counts made (mismatches included); ``errors``:
    every line not run (bad lines, understated counts, positions that cannot be counted)."""

    results: list[SuiteResult]
    errors: list[LineError]
    seconds: float = 0.0
    # every result, those of positions that could not be counted too (one per task)
    counted: list[SuiteResult] = field(default_factory=list)
    # the engine failed: on which task, and why (``results`` holds the counts before it)
    broken: Task | None = None
    engine_error: EngineError | None = None
    dialect: dict | None = None
    skip_chess960: bool = False

    @property
    def failed(self) -> list[SuiteResult]:
        return [r for r in self.results if not r.ok]

    @property
    def not_run(self) -> int:
        """How many lines were not run (an entry may stand for many, see ``LineError.count``)."""
        return sum(error.count for error in self.errors)

    @property
    def noted(self) -> list:
        """The records counted that cannot arise in a game (each once, in order)."""
        seen: dict[int, object] = {}
        for result in self.results:
            if result.task.record.notes:
                seen.setdefault(id(result.task.record), result.task.record)
        return list(seen.values())

    def verdict(self) -> ChesskitError | None:
        """The exception that sums the run up: the engine's failure (exit 3), a mismatch
        (exit 1, naming the lines not run too), lines not run (exit 2), or None."""
        if self.engine_error is not None:
            return _engine_error(self.engine_error, self.broken, self.skip_chess960)
        failed, not_run = self.failed, ""
        if self.errors:
            not_run = f"{plural(self.not_run, 'line')} could not be run (first: {self.errors[0]})"
        if failed:
            extra = f"; {not_run}" if not_run else ""
            return MismatchError(f"{len(failed)} of {len(self.results)} counts did not match{extra}")
        return InputError(not_run) if not_run else None


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def prepare(
    paths: Iterable[str | Path] = (),
    max_depth: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    strict: bool = False,
    skip_chess960: bool = False,
    tags: Sequence[str] = (),
) -> Planned:
    """Read the suites and pick the counts to check (see the module's docstring); ``tags``:
    only the positions carrying one of them (``chesskit.suites.tags.select``). Raises
    InputError when a path does not exist and when nothing at all can be run or reported."""
    loaded = load_entries(paths, strict)
    records, errors = loaded.records, loaded.errors
    if tags:
        records = select(records, tags)
    if skip_chess960:
        records = [record for record in records if not record.chess960]
        if not records and not errors:
            raise InputError("nothing to run: every position is a Chess960 one and --skip-chess960 leaves them out")
    tasks, understated = within_bounds(plan(records, max_depth, max_nodes), max_nodes)
    errors = errors + understated
    if not tasks and not errors:
        limits = f"--max-nodes {max_nodes}" + (f" and --max-depth {max_depth}" if max_depth is not None else "")
        raise InputError(f"nothing to run: no expected count of {plural(len(records), 'position')} is within {limits}")
    return Planned(tasks, errors, skip_chess960)


def execute(
    planned: Planned,
    engine=None,
    stats: bool = False,
    threads: int = 1,
    hash_mb: float = 0,
    progress: Callable[[Task, float], None] | None = None,
    on_result: Callable[[SuiteResult], None] | None = None,
    start: Callable[[object], dict | None] | None = None,
) -> Outcome:
    """Count every planned task with chesskit (``run``, ``stats``: the leaf counters too)
    or ``engine`` (``run_engine``; the caller refuses ``stats`` with an engine);
    ``on_result`` sees each result as it comes, ``progress`` as a big count advances.
    ``start(engine)`` starts the engine before the first count (the CLI finds its dialect:
    the value lands in ``Outcome.dialect``); the engine is not closed here. An EngineError
    ends the run: it is returned in the Outcome, with the task it broke on."""
    outcome = Outcome([], list(planned.errors), skip_chess960=planned.skip_chess960)
    timer = Timer()
    try:
        if engine is not None and start is not None:  # an EngineError here is the first task's
            outcome.dialect = start(engine)
        with timer:
            if engine is None:
                counted = run(planned.tasks, stats, threads=threads, hash_mb=hash_mb, progress=progress)
            else:
                counted = run_engine(planned.tasks, engine)
            for result in counted:
                outcome.results.append(result)
                if on_result is not None:
                    on_result(result)
    except EngineError as err:
        outcome.broken = planned.tasks[len(outcome.results)]
        outcome.engine_error = err
    outcome.seconds = timer.elapsed_s
    outcome.counted = outcome.results
    outcome.errors += run_errors(outcome.counted)
    outcome.results = [r for r in outcome.counted if r.error is None]
    return outcome


def _engine_error(err: EngineError, broken: Task, skip_chess960: bool) -> EngineError:
    # an engine that could not be started at all failed whatever the position: no Chess960 hint
    if broken.record.chess960 and not skip_chess960 and not isinstance(err, EngineNotStarted):
        return EngineError(f"{err} (at Chess960 position {broken.record.label}; --skip-chess960 leaves those out)")
    return err


def run_errors(results: list[SuiteResult]) -> list[LineError]:
    """One LineError per position that could not be counted (its results carry ``error``)."""
    errors: dict[int, LineError] = {}
    for result in results:
        record = result.task.record
        if result.error is not None and id(record) not in errors:
            errors[id(record)] = LineError(record.path, record.lineno, result.error, record.label)
    return list(errors.values())
