"""``run_suite``: check perft suites (EPD and ``.perft`` files) with chesskit or an engine,
and the single cases the pytest plugin makes one test of each.

    >>> from chesskit import run_suite
    >>> result = run_suite(["positions/standard.epd"], max_nodes=10_000)
    >>> result.ok, [p.status for p in result][:3]
    (True, ['passed', 'passed', 'passed'])

The checking itself is ``chesskit.suites.session`` (what ``chesskit suite`` runs).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from chesskit.api.compare import STATE_PUSHES, CompareResult
from chesskit.api.engine import Engine

# what ``chesskit suite --max-nodes`` defaults to (chesskit.suites.runner.DEFAULT_MAX_NODES)
DEFAULT_MAX_NODES = 1_000_000

Paths = Union[str, Path, Sequence[Union[str, Path]]]


def _paths(paths: Paths) -> list:
    return [paths] if isinstance(paths, (str, Path)) else list(paths)


# ------------------------------------------------------------------ single cases


@dataclass(frozen=True)
class Case:
    """One count of a suite: position ``id`` (``fen``) at ``depth`` should give ``expected``."""

    id: str
    fen: str
    depth: int
    expected: int
    chess960: bool
    file: str
    line: int
    task: Any = field(repr=False, compare=False)  # the chesskit.suites.runner.Task

    @property
    def name(self) -> str:
        """``kiwipete[D3]``: the test id the pytest plugin gives it."""
        return f"{self.id}[D{self.depth}]"


@dataclass(frozen=True)
class BadLine:
    """A suite line (or a whole file, line 0) that cannot be run, and why."""

    file: str
    line: int
    id: str | None
    reason: str

    def __str__(self) -> str:
        return self.reason


def suite_cases(
    paths: Paths = (),
    *,
    max_depth: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    strict: bool = False,
    skip_chess960: bool = False,
) -> tuple[list[Case], list[BadLine]]:
    """Every count of the suites in ``paths`` (files or folders; default: the bundled
    positions) within the limits, and the lines that cannot be run. Raises InputError
    when a path does not exist or nothing at all can be run."""
    from chesskit.suites.positions import display_path
    from chesskit.suites.session import prepare

    planned = prepare(_paths(paths), max_depth, max_nodes, strict, skip_chess960)
    cases = [
        Case(
            task.record.label,
            task.record.fen,
            task.depth,
            task.expected,
            bool(task.record.chess960),
            display_path(task.record.path),
            task.record.lineno,
            task,
        )
        for task in planned.tasks
    ]
    bad = [BadLine(display_path(e.path), e.lineno, e.id, str(e)) for e in planned.errors]
    return cases, bad


@dataclass(frozen=True)
class CaseResult:
    """What an engine counted for one ``Case``: ``ok`` when it is the expected count; at a
    mismatch, ``compare`` is compare's descent against chesskit (``compare.agree``: chesskit
    counts as the engine does, so the suite's expected count is the one in doubt)."""

    case: Case
    nodes: int
    compare: CompareResult | None = None
    divide: dict[str, int] | None = None

    @property
    def ok(self) -> bool:
        return self.nodes == self.case.expected


def check_case(engine: Engine, case: Case, state_pushes: int = STATE_PUSHES) -> CaseResult:
    """Ask ``engine`` for ``case``'s count and, when it is not the expected one, descend to
    where the engine goes wrong. An engine failure raises ``chesskit.errors.EngineError``."""
    from chesskit.suites.runner import run_engine

    (result,) = list(run_engine([case.task], engine.backend, state_pushes))
    found = None if result.report is None else CompareResult.from_report(result.report)
    return CaseResult(case, result.nodes, found, result.divide)
