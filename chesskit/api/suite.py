"""``run_suite``: check perft suites (EPD and ``.perft`` files) with chesskit or an engine,
and the single cases the pytest plugin makes one test of each.

    >>> from chesskit import run_suite
    >>> result = run_suite(["positions/standard.epd"], max_nodes=10_000)
    >>> result.ok, result.tally()["passed"], result.tally()["skipped"]
    (True, 7, 0)
    >>> [(p.record.label, p.status) for p in result][:2]
    [('startpos', 'passed'), ('kiwipete', 'passed')]

The checking itself is ``chesskit.suites.session`` (what ``chesskit suite`` runs).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from chesskit.api.comparison import STATE_PUSHES, CompareResult, check_pushes
from chesskit.api.counting import SUITE_HASH_MB
from chesskit.api.engine import Engine, dialect_of, opened as open_engine
from chesskit.api.keywords import keyword_errors, keyworded
from chesskit.errors import InputError
from chesskit.suites.result import PositionResult  # noqa: F401 (what iterating a SuiteResult gives)
from chesskit.suites.session import LEFT_OUT  # noqa: F401 (why the plugin skips a bundled position that cannot arise)
from chesskit.suites.runner import DEFAULT_MAX_NODES  # what ``chesskit suite --max-nodes`` defaults to
from chesskit.suites.runner import SUITE_SUFFIXES  # noqa: F401 (the suite files' suffixes, for the pytest plugin)

Paths = Union[str, Path, Sequence[Union[str, Path]]]


def _paths(paths: Paths) -> list:
    """``paths`` as a list of paths; InputError for anything else."""
    listed = [paths] if isinstance(paths, (str, os.PathLike)) else paths
    if not isinstance(listed, (Sequence, set, frozenset)) or not all(isinstance(p, (str, os.PathLike)) for p in listed):
        raise InputError(f"paths must be a suite file's or folder's path, or a list of them, got {paths!r}")
    return list(listed)


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
        """``kiwipete[D3]``: the test id the pytest plugin gives it under its file's node. The
        position's id in its own file (unique there), not ``id``, which names the file too
        where another file of the run uses the same id: a test's id must not change with the
        other suites on the command line, or it cannot be run again by that id."""
        return f"{self.task.record.id}[D{self.depth}]"

    @property
    def played_as_960(self) -> bool:
        """Whether an engine is asked this position in Chess960 (what ``skip_chess960``
        leaves out): not where ``chess960`` is True but the game is standard chess's
        (``c960-518``, the standard array; no castling rights): ``suite``'s own rule."""
        from chesskit.suites.session import played_as_960

        return played_as_960(self.task.record)


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
    variant: str = "chess",
) -> tuple[list[Case], list[BadLine]]:
    """Every count of the suites in ``paths`` (files or folders; default: the bundled
    positions, of ``variant`` when it is not standard chess) within the limits, and the
    lines that cannot be run. ``variant`` names the rules of the files and lines that name
    none. Raises InputError when a path does not exist or nothing at all can be run."""
    cases, bad, _ = suite_tests(
        paths, max_depth=max_depth, max_nodes=max_nodes, strict=strict, skip_chess960=skip_chess960, variant=variant
    )
    return cases, bad


@dataclass(frozen=True)
class SkippedPosition:
    """A suite position with no count within the limits (every count over ``max_nodes``,
    or every depth over ``max_depth``), and why: the CLI's ``skip`` line, the pytest
    plugin's skipped tests (one per depth)."""

    id: str
    file: str
    line: int
    depths: tuple[int, ...]
    reason: str
    record: Any = field(repr=False, compare=False)  # the chesskit.suites.formats.SuiteRecord


def suite_tests(
    paths: Paths = (),
    *,
    max_depth: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    strict: bool = False,
    skip_chess960: bool = False,
    variant: str = "chess",
) -> tuple[list[Case], list[BadLine], list[SkippedPosition]]:
    """``suite_cases``' counts and bad lines, and the positions the limits leave out."""
    from chesskit.api.position import check_flags, variant_rules
    from chesskit.suites.positions import display_path
    from chesskit.suites.session import prepare

    name, _ = variant_rules(variant, None)
    rules = {} if name == "chess" else {"variant": variant}
    check_flags(strict=strict, skip_chess960=skip_chess960)
    planned = prepare(_paths(paths), max_depth, max_nodes, strict, skip_chess960, **rules)
    skipped = [
        SkippedPosition(record.id, display_path(record.path), record.lineno, tuple(sorted(record.depths)), why, record)
        for record, why in planned.skipped
    ]
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
    return cases, bad, skipped


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
    where the engine goes wrong. An engine failure raises ``chesskit.errors.EngineError``;
    a case the engine cannot be asked (a position of other rules than the Engine's)
    raises InputError."""
    from chesskit.suites.runner import run_engine

    state_pushes = check_pushes(state_pushes)
    backend = engine._asked()  # a closed Engine is refused, not started again
    with engine.lock:
        (result,) = list(run_engine([case.task], backend, state_pushes))
    if result.error is not None:  # it was never asked: not a count of 0
        raise InputError(result.error)
    found = None if result.report is None else CompareResult.from_report(result.report)
    return CaseResult(case, result.nodes, found, result.divide)


# ------------------------------------------------------------------ whole suites

class SuiteResult:
    """A suite run: iterating gives one ``PositionResult`` per position (``chesskit.suites.result``:
    ``status`` passed, mismatch, engine-error, skipped, error or not-run; ``reason``, one
    line, why it did not pass; ``counts`` and ``expected`` by depth; ``compare``, the descent
    of an engine's first mismatch), in the order run, the skipped ones last."""

    def __init__(self, outcome):
        self.outcome = outcome  # the chesskit.suites.session.Outcome

    @property
    def positions(self) -> list:
        return list(self.outcome.positions)

    def __iter__(self) -> Iterator:
        return iter(self.outcome.positions)

    def __len__(self) -> int:
        return len(self.outcome.positions)

    def __getitem__(self, index: int):
        return self.outcome.positions[index]

    @property
    def failed(self) -> list:
        """The positions that mismatched or that the engine failed on."""
        return [p for p in self.outcome.positions if p.status in ("mismatch", "engine-error")]

    @property
    def bad_lines(self) -> list[BadLine]:
        """The lines that could not be run (bad lines, understated counts, positions that
        cannot be counted)."""
        from chesskit.suites.positions import display_path

        return [BadLine(display_path(e.path), e.lineno, e.id, keyworded(str(e))) for e in self.outcome.errors]

    def tally(self) -> dict[str, int]:
        """How many positions have each status, as ``chesskit suite`` counts them: its
        ``error`` is every line not run, those refused when read (``bad_lines``) as well
        as the positions that could not be counted (it was only the latter: 0 where the
        command said "2 errors")."""
        return {**self.outcome.tally(), "error": self.outcome.not_run}

    @property
    def seconds(self) -> float:
        return self.outcome.seconds

    @property
    def dialect(self) -> dict | None:
        """How the engine answered perft (``suite --json``'s ``"dialect"``), None without one."""
        from chesskit.compare.engines.dialects import without_about

        return without_about(self.outcome.dialect)

    @property
    def dialect_answered(self) -> dict | None:
        """The dialect the engine answered in at the end of the run (``suite --json``'s
        ``"dialect_answered"``): ``dialect``, but for an engine that switched (Sjaak II's UCI
        totals from its first Chess960 position on); None without a dialect."""
        from chesskit.compare.engines.dialects import without_about

        return without_about(self.outcome.dialect_answered or self.outcome.dialect)

    def verdict(self):
        """The ``chesskit.errors`` exception that sums the run up, as ``chesskit suite`` exits
        with it (EngineError 3, MismatchError 1, InputError 2), or None when all passed."""
        verdict = self.outcome.verdict()
        if verdict is not None:  # the CLI's words: its flags, here the keywords
            verdict.args = (keyworded(str(verdict)),)
        return verdict

    @property
    def exit_code(self) -> int:
        verdict = self.verdict()
        return 0 if verdict is None else verdict.exit_code

    @property
    def ok(self) -> bool:
        return self.verdict() is None

    def __repr__(self) -> str:
        counts = ", ".join(f"{n} {status}" for status, n in self.outcome.tally().items() if n) or "no positions"
        bad = self.outcome.not_run  # the lines refused when read are no positions, but not nothing
        lines = f", {bad} line{'s' * (bad != 1)} not run" if bad else ""
        return f"SuiteResult({counts}{lines}, exit code {self.exit_code})"


def run_suite(
    paths: Paths = (),
    engine: Engine | str | None = None,
    *,
    max_depth: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    tags: Sequence[str] = (),
    skip_chess960: bool = False,
    strict: bool = False,
    stats: bool = False,
    threads: int | None = None,
    hash_mb: float | None = None,
    position_timeout: float | None = None,
    fail_fast: bool = False,
    on_position: Callable[[Any], None] | None = None,
    variant: str | None = None,
) -> SuiteResult:
    """Check the suites in ``paths`` (EPD or ``.perft`` files or folders; default: the
    bundled positions), as ``chesskit suite`` does: with chesskit, or with ``engine`` (an
    ``Engine``, left open, or a command, opened and closed) whose every mismatch gets
    compare's descent.

    Every count up to ``max_nodes`` (and ``max_depth``) is checked; ``tags`` keeps only
    the positions with one of them (a list, or one string as ``--tags`` takes it: "ep,castling"); ``stats`` also checks the ``S<n>`` leaf counters
    (chesskit only). An engine that crashes, hangs (its ``timeout`` per answer,
    ``position_timeout`` per position) or prints what cannot be read is that position's
    result, and the run goes on with the engine started again; ``fail_fast`` stops at the
    first mismatch or engine error. ``on_position(result)`` sees each position as it is
    done. A bad line is reported in ``bad_lines`` and the rest runs; InputError when a path
    does not exist or nothing at all can be run. ``variant`` names the rules of the lines
    and files that name none (an engine command is opened in them): by default an
    ``Engine``'s own, else standard chess; one other than an ``Engine``'s is an InputError
    at once, as for ``compare`` (it was opened in its rules).
    """
    from chesskit.api.counting import default_threads
    from chesskit.suites.session import execute

    with keyword_errors():  # the CLI's words: its flags, here the keywords
        if isinstance(engine, Engine):
            # its rules are the default; others are refused here, as compare does: every line
            # would fail with "give variant V", which the caller did (the Engine is what to change)
            variant = engine.variant if variant is None else variant
            open_engine(engine, variant)
        planned, name = _planned(paths, engine, max_depth, max_nodes, tags, skip_chess960, strict, stats, threads,
                                 hash_mb, position_timeout, "chess" if variant is None else variant)
    # a line naming other rules than the Engine's is that line's error, as for `chesskit suite` (run_engine)
    opened = None if engine is None else engine if isinstance(engine, Engine) else open_engine(engine, name)[0]
    try:
        with keyword_errors(), contextlib.nullcontext() if opened is None else opened.lock:
            outcome = execute(
                planned,
                None if opened is None else opened.backend,
                stats,
                threads=default_threads() if threads is None else threads,
                hash_mb=SUITE_HASH_MB if hash_mb is None else hash_mb,
                start=dialect_of,
                position_timeout=position_timeout,
                fail_fast=fail_fast,
                on_position=None if on_position is None else _keyworded(on_position),
            )
    finally:
        if opened is not None and opened is not engine:
            opened.close()
    for position in outcome.positions:
        _keyword_position(position)
    if outcome.engine_error is not None:
        outcome.engine_error.args = (keyworded(str(outcome.engine_error)),)
    return SuiteResult(outcome)


def _planned(paths, engine, max_depth, max_nodes, tags, skip_chess960, strict, stats, threads, hash_mb,
             position_timeout, variant):
    """``run_suite``'s arguments checked and its suites read: the ``Planned`` run and the
    variant's canonical name. InputError, in the CLI's words, for a bad one."""
    from chesskit.api.counting import table_mb
    from chesskit.api.position import check_flags, variant_rules
    from chesskit.board.board import Board
    from chesskit.suites.session import prepare, refuse_stats_with_engine

    refuse_stats_with_engine(engine is not None, stats)
    if isinstance(engine, Engine):
        engine._asked()  # a closed Engine is refused: it was started again, and left running
    name, _ = variant_rules(variant, None)
    rules = {} if name == "chess" else {"variant": variant}
    max_depth = None if max_depth is None else _limit(max_depth, "max_depth")
    max_nodes = None if max_nodes is None else _limit(max_nodes, "max_nodes")
    _check_position_timeout(position_timeout)
    if threads is not None:
        Board._check_threads(threads)  # perft's rule: threads=0 ran as if accepted
    if hash_mb is not None:
        table_mb(hash_mb, 0)  # perft's rule: hash_mb=-1 ran as if accepted
    check_flags(strict=strict, skip_chess960=skip_chess960)
    return prepare(_paths(paths), max_depth, max_nodes, strict, skip_chess960, _tags(tags), **rules), name


def _keyword_position(position) -> None:
    """``position``'s reason and engine failure with the keywords for the CLI's flags
    (``within position_timeout=0.05 s``, ``give a longer timeout``)."""
    if position.reason is not None:
        position.reason = keyworded(position.reason)
    if position.failure is not None:
        position.failure = dataclasses.replace(position.failure, reason=keyworded(position.failure.reason))


def _keyworded(on_position: Callable[[Any], None]) -> Callable[[Any], None]:
    """``on_position`` given each result with the keywords for the CLI's flags."""

    def seen(position) -> None:
        _keyword_position(position)
        on_position(position)

    return seen


def _limit(value, name: str) -> int:
    """``max_depth`` or ``max_nodes`` as an int >= 0 (``1e6`` too); InputError otherwise.
    A string or a negative number was a TypeError, or 'nothing to run' at '--max-nodes -1'."""
    whole = isinstance(value, float) and math.isfinite(value) and value.is_integer()
    if isinstance(value, bool) or not (hasattr(value, "__index__") or whole) or value < 0:
        raise InputError(f"{name} must be an integer >= 0 (or None: no limit), got {value!r}")
    return int(value)


def _check_position_timeout(seconds) -> None:
    """A ``position_timeout`` that is not a positive number of seconds (-1 made every position an engine error)."""
    from chesskit.suites.guard import MAX_POSITION_TIMEOUT, position_timeout_ok

    if seconds is None:
        return
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not position_timeout_ok(seconds):
        raise InputError(
            f"position_timeout must be a positive number of seconds up to {MAX_POSITION_TIMEOUT:.0f}, got {seconds!r}"
        )


def _tags(tags: Sequence[str] | str) -> tuple[str, ...]:
    """``tags`` as a tuple; one string is read as ``suite --tags`` reads it ("ep,castling"),
    not as its letters (``tags="ep"`` looked for the tags 'e' and 'p')."""
    if isinstance(tags, str):
        from chesskit.suites.formats import parse_tags

        return parse_tags(tags, "tags")
    if not isinstance(tags, (Sequence, set, frozenset)) or not all(isinstance(tag, str) for tag in tags):
        raise InputError(f"tags must be a string (\"ep,castling\") or a list of tags, got {tags!r}")
    return tuple(tags)
