"""One position's result in a suite run: passed, mismatched, an engine error, skipped, or
not run (``PositionResult``), made from the counts of its depths (``runner.SuiteResult``).

``status`` is one of:

    passed        every count planned matched
    mismatch      a count (or the leaf counters) differs from the suite's
    engine-error  the engine crashed, hung, exited or printed what cannot be read on one
                  of its counts (or in compare's descent below it): ``failure`` says why
                  and where; the counts after it were not made (``not_run``). A position
                  whose count mismatched before the engine failed is a mismatch, its
                  ``failure`` set all the same
    skipped       no count to make: every count is over --max-nodes (or --max-depth)
    error         the position cannot be counted (its board cannot be set up, ...)
    not-run       --fail-fast stopped the run before it

Pure data: the CLI renders it, ``chesskit.run_suite`` hands it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chesskit.suites.formats import SuiteRecord
from chesskit.suites.guard import EngineFailure
from chesskit.suites.runner import SuiteResult, Task, mismatch_text

PASSED = "passed"
MISMATCH = "mismatch"
ENGINE_ERROR = "engine-error"
SKIPPED = "skipped"
ERROR = "error"
NOT_RUN = "not-run"
STATUSES = (PASSED, MISMATCH, ENGINE_ERROR, SKIPPED, ERROR, NOT_RUN)


@dataclass
class PositionResult:
    """What one position of a suite gave: ``results`` the counts made (shallowest first),
    ``not_run`` the counts planned and not made, ``seconds`` the wall time spent on it."""

    record: SuiteRecord
    status: str
    reason: str | None = None  # why it did not pass, one line; None when it passed
    results: list[SuiteResult] = field(default_factory=list)
    not_run: list[Task] = field(default_factory=list)
    seconds: float = 0.0
    failure: EngineFailure | None = None  # the engine failed on it (status engine-error, or a mismatch before): why and where
    # status engine-error: the count it failed on (the last of ``results`` when it failed in
    # compare's descent of that count's mismatch, else the first count not made)
    failed_task: Task | None = None
    # why ``not_run``'s counts were not made where ``reason`` says something else (a run
    # interrupted in this position after a mismatch: the JUnit report's <skipped> says it)
    not_run_reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == PASSED

    @property
    def counts(self) -> dict[int, int]:
        """``{depth: nodes}`` of the counts made."""
        return {r.task.depth: r.nodes for r in self.results if r.error is None}

    @property
    def expected(self) -> dict[int, int]:
        """``{depth: expected nodes}`` of the counts planned; a skipped position's are its
        line's (none was planned: a skip's reason named the count, and ``expected`` was empty)."""
        if self.status == SKIPPED:
            return dict(sorted(self.record.depths.items()))
        tasks = [*(r.task for r in self.results), *([self.failed_task] if self.failed_task else []), *self.not_run]
        return {t.depth: t.expected for t in tasks}

    @property
    def first_mismatch(self) -> SuiteResult | None:
        return next((r for r in self.results if r.mismatch), None)

    @property
    def compare(self):
        """compare's ``Report`` of the first mismatch (engine runs), or None."""
        first = self.first_mismatch
        return None if first is None else first.report

    def to_json(self) -> dict:
        record = self.record
        return {
            "id": record.label,
            "fen": record.shown_fen,
            "file": str(record.path),
            "line": record.lineno,
            "status": self.status,
            "reason": self.reason,
            "counts": {str(d): n for d, n in self.counts.items()},
            "expected": {str(d): n for d, n in self.expected.items()},
            "seconds": round(self.seconds, 6),
            "engine_error": None if self.failure is None else self.failure.to_json(),
        }


def counted(record: SuiteRecord, results: list[SuiteResult], seconds: float) -> PositionResult:
    """The result of a position whose planned counts were all made."""
    errored = next((r for r in results if r.error is not None), None)
    if errored is not None:
        return PositionResult(record, ERROR, errored.error, results, seconds=seconds)
    first = next((r for r in results if not r.ok), None)
    if first is None:
        return PositionResult(record, PASSED, None, results, seconds=seconds)
    return PositionResult(record, MISMATCH, mismatch_reason(first), results, seconds=seconds)


def failed(
    record: SuiteRecord,
    results: list[SuiteResult],
    failed_task: Task,
    not_run: list[Task],
    failure: EngineFailure,
    seconds: float,
) -> PositionResult:
    """The result of a position the engine failed on, on ``failed_task`` (``not_run``: the
    counts after it)."""
    where = f"D{failure.depth}: " if failure.depth is not None else ""
    first = next((r for r in results if r.mismatch), None)
    if first is not None:  # what it found first: a count that differs
        reason = f"{mismatch_reason(first)}; then the engine failed: {where}{failure.reason}"
        return PositionResult(record, MISMATCH, reason, results, not_run, seconds, failure, failed_task)
    return PositionResult(record, ENGINE_ERROR, where + failure.reason, results, not_run, seconds, failure, failed_task)


def skipped(record: SuiteRecord, why: str) -> PositionResult:
    return PositionResult(record, SKIPPED, why)


def not_run(record: SuiteRecord, tasks: list[Task], why: str) -> PositionResult:
    return PositionResult(record, NOT_RUN, why, not_run=list(tasks))


def mismatch_reason(result: SuiteResult) -> str:
    """``D2: expected 191, got 193`` (or the leaf counters that differ)."""
    if result.counters_only:
        return result.stats_text()
    return mismatch_text(result)
