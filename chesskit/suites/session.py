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

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Sequence

from chesskit.errors import ChesskitError, EngineError, EngineNotStarted, InputError, MismatchError
from chesskit.suites import result as result_of
from chesskit.suites.estimate import within_bounds
from chesskit.suites.formats import LineError, SuiteRecord
from chesskit.suites.guard import Clocked, EngineFailure, restart, start_again
from chesskit.suites.positions import variant_suites
from chesskit.suites.tags import select
from chesskit.suites.result import ENGINE_ERROR, MISMATCH, NOT_RUN, SKIPPED, STATUSES, PositionResult
from chesskit.suites.runner import (
    DEFAULT_MAX_NODES,
    Ahead,
    SuiteResult,
    Task,
    by_position,
    in_file_order,
    load_entries,
    plan,
    run,
    run_engine,
    skipped,
)
from chesskit.timer import Timer
from chesskit.words import plural


@dataclass
class Planned:
    """The counts to check, the lines that cannot be run, and the positions with no count
    within the limits (``skipped``: each with why). ``nothing``: why no count is checked
    when the limits or --skip-chess960 leave none (``prepare(..., allow_nothing=True)``),
    else None."""

    tasks: list[Task]
    errors: list[LineError]
    skip_chess960: bool = False
    skipped: list[tuple[SuiteRecord, str]] = field(default_factory=list)
    nothing: str | None = None
    files: list[Path] = field(default_factory=list)  # in the order read (``runner.in_file_order``)


# why a position is skipped when --skip-chess960 leaves out every position of the run
LEFT_OUT_960 = "a Chess960 position: --skip-chess960 leaves it out"
# why ``without_impossible`` leaves a position out
NOT_BISECTED = (
    "cannot arise in a game: --bisect leaves it out (an engine may count it its own way, "
    "the same at every commit: Stockfish one of impossible.epd's)"
)


# why the bundled suites run against an engine leave such a position out
LEFT_OUT = (
    "cannot arise in a game: left out when the bundled suites run against an engine (an engine may "
    "count it its own way: Stockfish one of impossible.epd's)"
)
NOT_BY_DEFAULT = f"{LEFT_OUT}; name the file or give --tags to run it"


def without_impossible(planned: Planned, why: str = NOT_BISECTED) -> Planned:
    """``planned`` without the positions that cannot arise in a game, each skipped for
    ``why``: under ``--bisect`` an engine that counts one its own way would mark every
    commit bad, the good ones too (Stockfish fails ``impossible.epd``'s
    tricky-ep-unrelated-check), and the bundled suites run against a correct engine would
    fail (``NOT_BY_DEFAULT``, QA 40b #8)."""
    left = {id(task.record): task.record for task in planned.tasks if task.record.notes}
    if not left:
        return planned
    kept = [task for task in planned.tasks if not task.record.notes]
    return replace(planned, tasks=kept, skipped=[*planned.skipped, *((record, why) for record in left.values())])


@dataclass
class Outcome:
    """What a run found. ``results``: the counts made (mismatches included); ``errors``:
    every line not run (bad lines, understated counts, positions that cannot be counted);
    ``positions``: one ``PositionResult`` per position, in the order run, the skipped ones
    last."""

    results: list[SuiteResult]
    errors: list[LineError]
    seconds: float = 0.0
    # every result, those of positions that could not be counted too (one per task)
    counted: list[SuiteResult] = field(default_factory=list)
    # the engine could not be started: why (nothing was counted)
    engine_error: EngineError | None = None
    dialect: dict | None = None
    # the dialect that answered the run's last questions (JSON "dialect_answered"): ``dialect``,
    # but for an engine whose xboard dialect has no Chess960 (Sjaak II): from its first
    # Chess960 position on, its UCI loop's total-only one
    dialect_answered: dict | None = None
    skip_chess960: bool = False
    positions: list[PositionResult] = field(default_factory=list)
    # the limits left no count to check: why (``Planned.nothing``); the verdict is an InputError
    nothing: str | None = None

    @property
    def failed(self) -> list[SuiteResult]:
        return [r for r in self.results if not r.ok]

    @property
    def engine_failed(self) -> list[PositionResult]:
        """The positions the engine failed on (crashed, hung, exited, printed nonsense),
        those where a count mismatched before it failed too."""
        return [p for p in self.positions if p.failure is not None]

    def tally(self) -> dict[str, int]:
        """How many positions have each status (``chesskit.suites.result.STATUSES``)."""
        counts = dict.fromkeys(STATUSES, 0)
        for position in self.positions:
            counts[position.status] += 1
        return counts

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
        """The exception that sums the run up: the engine's failure (exit 3: it could not be
        started, or failed on some positions whose counts had matched until then), a mismatch
        (exit 1, naming the lines not run and the positions the engine failed on after them too), lines not run or no count checked at all (exit 2: ``nothing``), or None."""
        if self.engine_error is not None:  # it could not be started: whatever the position, no Chess960 hint
            return self.engine_error
        failed, not_run = self.failed, ""
        if self.errors:
            not_run = f"{not_run_what(self.errors)} could not be run (first: {self.errors[0]})"
        # a failure after the position's own mismatch is no failure of the run: the mismatch
        # is the finding (a buggy engine's deeper counts often crash: QA 42b D2), said beside it
        after = sum(p.status == MISMATCH for p in self.engine_failed)
        broken = [p for p in self.engine_failed if p.status != MISMATCH]
        if broken:
            first = broken[0]
            run = sum(p.status not in (SKIPPED, NOT_RUN) for p in self.positions)
            # an engine that could not be started at all failed whatever the position
            hint = "" if first.failure and first.failure.not_started else _chess960_hint(broken, self.skip_chess960)
            then = f" (the engine then failed on {after} of the mismatched positions)" if after else ""
            extra = f"; {len(failed)} of {len(self.results)} counts did not match{then}" if failed else ""
            stopped = sum(p.status == NOT_RUN for p in self.positions)  # after --fail-fast
            extra += f"; --fail-fast left {plural(stopped, 'position')} not run" if stopped else ""
            return EngineError(
                f"the engine failed on {len(broken)} of {plural(run, 'position')} (first: {first.record.label} "
                f"{first.reason}{hint}){extra}" + (f"; {not_run}" if not_run else "")
            )
        if failed:
            extra = f"; the engine then failed on {after} of the mismatched positions" if after else ""
            extra += f"; {not_run}" if not_run else ""
            return MismatchError(f"{len(failed)} of {len(self.results)} counts did not match{extra}")
        if not_run or self.nothing:  # both said when both hold (the limits' was lost beside a bad line)
            return InputError("; ".join(part for part in (self.nothing, not_run) if part))
        return None


def not_run_what(errors: Sequence[LineError]) -> str:
    """What ``errors`` leave out: ``2 lines``, ``1 file``, ``3 lines and 1 folder``: a
    whole file or folder (a LineError at line 0: unreadable, missing, holding no position
    or no suite file) is no line of it."""
    lines = sum(error.count for error in errors if error.lineno)
    folders = sum(1 for error in errors if not error.lineno and error.path.is_dir())
    files = sum(1 for error in errors if not error.lineno) - folders
    parts = [plural(n, noun) for n, noun in ((lines, "line"), (files, "file"), (folders, "folder")) if n]
    return " and ".join(parts) if len(parts) < 3 else f"{parts[0]}, {parts[1]} and {parts[2]}"


def prepare(
    paths: Iterable[str | Path] = (),
    max_depth: int | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    strict: bool = False,
    skip_chess960: bool = False,
    tags: Sequence[str] = (),
    variant: str | None = None,
    ahead: Ahead | None = None,
    allow_nothing: bool = False,
) -> Planned:
    """Read the suites and pick the counts to check (see the module's docstring); ``tags``:
    only the positions carrying one of them (``chesskit.suites.tags.select``); ``variant``:
    the rules of the files and lines that name none, and without ``paths`` the bundled
    suites of that variant (``positions/variants/NAME*``). Raises InputError when a path
    does not exist and when nothing at all can be run or reported; ``allow_nothing``: limits
    (or ``skip_chess960``) that leave no count of the positions read are no error here (every position is
    ``skipped``, ``Planned.nothing`` says why, and ``execute``'s verdict is that InputError),
    so that the run can still be reported. ``ahead``
    (``runner.Ahead``, made with the same limits): counting starts as the positions are
    read (not with ``tags``); pass it on to ``execute``. It is closed when this raises."""
    try:
        return _prepare(paths, max_depth, max_nodes, strict, skip_chess960, tags, variant, ahead, allow_nothing)
    except BaseException:
        if ahead is not None:
            ahead.close()
        raise


def played_as_960(record: SuiteRecord) -> bool:
    """Whether an engine is asked ``record`` in Chess960 (what --skip-chess960 leaves out):
    a Chess960 position without castling rights is asked as standard chess, the same game
    (one whose only right was dropped, its rook's file empty, was skipped though an engine
    without Chess960 passes it)."""
    from chesskit.compare.engines.base import castles_in_960

    return castles_in_960(record.fen, record.chess960, record.variant)


def _prepare(paths, max_depth, max_nodes, strict, skip_chess960, tags, variant, ahead, allow_nothing=False) -> Planned:
    paths = list(paths)
    if variant is not None and not paths:
        paths = variant_suites(variant)
    seen = None
    if ahead is not None and not tags:  # ``select`` judges tags over the whole run

        def seen(record: SuiteRecord) -> None:
            if not (skip_chess960 and played_as_960(record)):
                ahead.offer(record)

    loaded = load_entries(paths, strict, variant, seen)
    if ahead is not None:
        ahead.submit()  # the last batch
    records, errors = loaded.records, loaded.errors
    if tags:
        records = select(records, tags)
    if skip_chess960:
        left = [record for record in records if not played_as_960(record)]
        if not left and not errors:  # reported as the limits' nothing to run is: each position skipped
            nothing = "nothing to run: every position is a Chess960 one and --skip-chess960 leaves them out"
            if not (allow_nothing and records):
                raise InputError(nothing)
            return Planned([], [], skip_chess960, [(record, LEFT_OUT_960) for record in records], nothing, loaded.files)
        records = left
    tasks, understated = within_bounds(plan(records, max_depth, max_nodes), max_nodes)
    errors = errors + understated
    nothing = None
    if not tasks and (records or not errors):  # beside bad lines too: the run reports those, and says this
        limits = f"--max-nodes {max_nodes}" + (f" and --max-depth {max_depth}" if max_depth is not None else "")
        nothing = f"nothing to run: no expected count of {plural(len(records), 'position')} is within {limits}"
        if not errors and not (allow_nothing and records):
            raise InputError(nothing)
    return Planned(tasks, errors, skip_chess960, skipped(records, max_depth, max_nodes), nothing, loaded.files)


def refuse_stats_with_engine(engine: bool, stats: bool) -> None:
    """``stats`` (the leaf counters) is counted by chesskit itself: with an ``engine``
    (the caller has one), an InputError. ``execute`` takes the caller's word for it."""
    if engine and stats:
        raise InputError("--stats counts with chesskit itself; it cannot be combined with an engine")


def execute(
    planned: Planned,
    engine=None,
    stats: bool = False,
    threads: int = 1,
    hash_mb: float = 0,
    progress: Callable[[Task, float], None] | None = None,
    on_result: Callable[[SuiteResult], None] | None = None,
    start: Callable[[object], dict | None] | None = None,
    position_timeout: float | None = None,
    fail_fast: bool = False,
    on_position: Callable[[PositionResult], None] | None = None,
    gpu=None,
    ahead: Ahead | None = None,
    skip_unplayable_960: bool = False,
) -> Outcome:
    """Count every planned task with chesskit (``run``, ``stats``: the leaf counters too)
    or ``engine`` (``run_engine``; the caller refuses ``stats`` with an engine: see
    ``refuse_stats_with_engine``);
    ``on_result`` sees each count as it comes, ``on_position`` each position's result,
    ``progress`` a big count as it advances.

    ``start(engine)`` starts the engine before the first count (the CLI finds its dialect:
    the value lands in ``Outcome.dialect``); an EngineError there ends the run (returned in
    the Outcome, with the task it broke on). After that the engine failing on a position
    (crashed, hung past ``--timeout`` or ``position_timeout`` seconds for the whole
    position, exited, printed what cannot be read) is that position's result: the engine
    is restarted and the run goes on. ``fail_fast`` stops at the first position that
    mismatches or fails (the rest are ``not-run``). The engine is not closed here. ``gpu``
    (a ``chesskit.gpu.walk.Walk``, never with an engine or ``stats``): chesskit's counts
    are made on the GPU. ``ahead``: ``prepare``'s, used by chesskit's CPU walk with the
    same threads and table (``runner.run``), closed in any case. ``skip_unplayable_960``: a
    Chess960 position that the engine cannot be given (its protocol has no Chess960, as
    Stockfish's UCI_Chess960) is skipped with that reason, not its failure (``--bisect``: a
    limit of the engine's interface, the same at every commit, is no regression)."""
    try:
        return _execute(planned, engine, stats, threads, hash_mb, progress, on_result, start, position_timeout,
                        fail_fast, on_position, gpu, ahead, skip_unplayable_960)
    finally:
        if ahead is not None:
            ahead.close()


def _execute(planned, engine, stats, threads, hash_mb, progress, on_result, start, position_timeout, fail_fast,
             on_position, gpu, ahead, skip_unplayable_960=False) -> Outcome:
    outcome = Outcome([], list(planned.errors), skip_chess960=planned.skip_chess960, nothing=planned.nothing)
    jobs = by_position(planned.tasks)
    seen = _Positions(outcome, fail_fast, on_result, on_position)
    timer = Timer()
    try:
        try:
            if engine is not None and start is not None:
                # bounded like the first position: a hang on the first question is not --timeout's
                outcome.dialect = Clocked(engine, position_timeout).within(lambda: start(engine))
        except EngineError as err:
            _cannot_start(outcome, seen, jobs, err)
        with timer:
            if outcome.engine_error is not None:
                pass
            elif engine is None:
                _count(jobs, seen, stats, threads, hash_mb, progress, gpu, ahead)
            else:
                try:
                    _ask_engine(jobs, seen, engine, position_timeout, skip_unplayable_960)
                except EngineNotStarted as err:  # a --script starts at its first question, not before the run
                    _cannot_start(outcome, seen, jobs, err)
    except (KeyboardInterrupt, BrokenPipeError) as stop:
        # Ctrl-C, SIGTERM (a CI job's timeout), stdout closed (| head): the run ends, and what
        # it made so far goes with the exception for the reports asked for (``partial_outcome``)
        why = INTERRUPTED if isinstance(stop, KeyboardInterrupt) else OUTPUT_CLOSED
        stop.partial_outcome = _finish(outcome, planned, engine, jobs, seen, timer, why)
        raise
    return _finish(outcome, planned, engine, jobs, seen, timer)


# the reason of a position that an interrupt (Ctrl-C, SIGTERM) stopped or left unstarted
INTERRUPTED = "the run was interrupted"
# the same where stdout was closed (``| head``) while the lines were printed as they came
OUTPUT_CLOSED = "stdout was closed"


def partial_outcome(stop: BaseException, planned: Planned) -> Outcome:
    """What an interrupted ``execute`` of ``planned`` had made (its positions up to the
    interrupt, the rest not run); every count not run where the interrupt came before it
    (an engine still starting)."""
    found = getattr(stop, "partial_outcome", None)
    if found is not None:
        return found
    outcome = Outcome([], list(planned.errors), skip_chess960=planned.skip_chess960, nothing=planned.nothing)
    return _finish(outcome, planned, None, by_position(planned.tasks), _Positions(outcome, False, None, None), Timer(), INTERRUPTED)


def _finish(outcome: Outcome, planned: Planned, engine, jobs, seen: "_Positions", timer: Timer, interrupted: str = "") -> Outcome:
    """The outcome once the counting has ended: the positions not run (after --fail-fast,
    an engine that could not be started, or ``interrupted``: the one it stopped keeps
    the counts it made), the skipped ones, the lines not run."""
    outcome.dialect_answered = answered_dialect(outcome.dialect, engine)
    rest = jobs[len(seen.done):]
    if interrupted and rest and (seen.made or seen.began is not None):
        # the position it stopped in (an engine's, or one with counts made): those stand
        outcome.positions.append(_stopped(rest.pop(0), seen.made, interrupted, seen.spent()))
    for job in rest:
        why = interrupted or ("--fail-fast stopped the run" if outcome.engine_error is None else "the engine could not be started")
        outcome.positions.append(result_of.not_run(job[0].record, job, why))
    outcome.positions += [result_of.skipped(record, why) for record, why in planned.skipped]
    outcome.seconds = timer.elapsed_s
    outcome.counted = outcome.results
    outcome.errors = in_file_order(outcome.errors + run_errors(outcome.counted), planned.files)
    outcome.results = [r for r in outcome.counted if r.error is None]
    return outcome


def _stopped(job: list[Task], made: list[SuiteResult], why: str, seconds: float = 0.0) -> PositionResult:
    """The position an interrupt stopped in, after the counts ``made`` of its ``job`` and
    ``seconds`` on it: a mismatch if one of them differs, else not run from its next count
    on ("... at D2": where it stopped, told apart from the positions never started)."""
    rest = job[len(made):]
    position = result_of.not_run(job[0].record, rest, f"{why} at D{rest[0].depth}" if rest else why)
    position.not_run_reason, position.seconds = position.reason, seconds
    position.results = list(made)
    first = next((r for r in made if r.mismatch), None)
    if first is not None:
        position.status = result_of.MISMATCH
        position.reason = f"{result_of.mismatch_reason(first)}; then {why}"
    return position


def answered_dialect(dialect: dict | None, engine) -> dict | None:
    """``dialect`` (the one found at start-up), or the one the engine switched to for
    Chess960 (``switched_for_960``, Sjaak II's UCI totals): the dialect answering now."""
    switched = getattr(engine, "switched_for_960", None)
    if dialect is None or switched is None:
        return dialect
    return switched.spoken(dialect["detected"])


class _Positions:
    """Gathers the results of a run into the Outcome, position by position."""

    def __init__(self, outcome: Outcome, fail_fast: bool, on_result, on_position):
        self.outcome = outcome
        self.fail_fast = fail_fast
        self.on_result = on_result
        self.on_position = on_position
        self.done: list[PositionResult] = []
        self.made: list[SuiteResult] = []  # the counts of the position not yet closed
        self.began: float | None = None  # when the engine was first asked the position in progress

    def begin(self) -> None:
        """An engine's position starts (the one an interrupt stops in, counts made or not)."""
        self.began = time.monotonic()

    def spent(self) -> float:
        """The seconds spent on the position in progress."""
        return 0.0 if self.began is None else time.monotonic() - self.began

    def count(self, result: SuiteResult) -> None:
        self.outcome.results.append(result)
        self.made.append(result)
        if self.on_result is not None:
            self.on_result(result)

    def close(self, position: PositionResult) -> bool:
        """Keep one position's result; False when the run must stop (--fail-fast)."""
        self.made, self.began = [], None
        self.done.append(position)
        self.outcome.positions.append(position)
        if self.on_position is not None:
            self.on_position(position)
        return not (self.fail_fast and position.status in (MISMATCH, ENGINE_ERROR))


def _cannot_start(outcome: Outcome, seen: _Positions, jobs, err: EngineError) -> None:
    """The engine could not be started: the next position of ``jobs`` failed on it, and
    the run ends there (the positions after it are not run)."""
    outcome.engine_error = err
    if len(seen.done) == len(jobs):
        return
    job = jobs[len(seen.done)]
    failure = EngineFailure.of(err, None)
    broken = result_of.failed(job[0].record, [], job[0], job[1:], failure, 0.0)
    seen.done.append(broken)  # not shown as a position's line: the run ends on it
    outcome.positions.append(broken)


def _count(jobs, seen: _Positions, stats, threads, hash_mb, progress, gpu=None, ahead=None) -> None:
    """The counts made by chesskit (``run``), gathered position by position."""
    group: list[SuiteResult] = []
    tasks = [t for job in jobs for t in job]
    counted = run(tasks, stats, threads=threads, hash_mb=hash_mb, progress=progress, gpu=gpu, ahead=ahead)
    try:
        for result in counted:
            if group and group[0].task.record is not result.task.record:
                if not seen.close(result_of.counted(group[0].task.record, group, sum(r.seconds for r in group))):
                    return
                group = []
            group.append(result)
            seen.count(result)
        if group:
            seen.close(result_of.counted(group[0].task.record, group, sum(r.seconds for r in group)))
    finally:
        counted.close()


def _ask_engine(jobs, seen: _Positions, engine, position_timeout: float | None, skip_unplayable_960=False) -> None:
    """The counts made by ``engine``, one position at a time; a failure is the position's
    (one it could not be given, with ``skip_unplayable_960``, a skip: ``execute``)."""
    restarted = False
    for job in jobs:
        made: list[SuiteResult] = []
        failure = None
        seen.begin()
        with Timer() as timer:
            try:
                if restarted:  # its start is not the position's: --position-timeout bounds answers
                    restarted = False
                    start_again(engine)
                for result in run_engine(job, Clocked(engine, position_timeout)):
                    made.append(result)
                    seen.count(result)
            except EngineNotStarted:  # its command's fault: every position would fail the same
                raise
            except KeyboardInterrupt as stop:  # in compare's descent of a mismatch: the count stands
                if getattr(stop, "unfinished_result", None) is not None:
                    seen.count(stop.unfinished_result)
                raise
            except EngineError as err:
                in_descent = bool(made) and made[-1].engine_error is not None
                failed_task = made[-1].task if in_descent else job[len(made)]
                failure = EngineFailure.of(err, failed_task.depth)
                if not _unplayable_960(failure):  # refused before anything was sent: nothing to restart
                    restart(engine)
                    restarted = True
        record = job[0].record
        if failure is None:
            position = result_of.counted(record, made, timer.elapsed_s)
        elif skip_unplayable_960 and not made and record.chess960 and _unplayable_960(failure):
            position = result_of.skipped(record, f"{failure.reason}: --bisect leaves it out (the same at every commit)")
        else:
            rest = job[len(made) + (0 if in_descent else 1):]
            position = result_of.failed(record, made, failed_task, rest, failure, timer.elapsed_s)
        if not seen.close(position):
            return


def _unplayable_960(failure: EngineFailure) -> bool:
    """The engine cannot be given a Chess960 position at all (its protocol has no Chess960)."""
    from chesskit.compare.engines.base import CANNOT_PLAY_960  # an engine run only: loaded then

    return CANNOT_PLAY_960 in failure.reason


def _chess960_hint(broken: list[PositionResult], skip_chess960: bool) -> str:
    """The hint where the engine failed on Chess960 positions only: one failing on standard
    positions too (a crash on every position) fails without them as well (QA 41d). A
    position of a Chess960 file asked as standard chess (c960-518, the standard array) is
    not left out by --skip-chess960: a failure there has nothing to do with Chess960."""
    only_960 = all(played_as_960(position.record) for position in broken)
    return "; --skip-chess960 leaves the Chess960 positions out" if only_960 and not skip_chess960 else ""


def run_errors(results: list[SuiteResult]) -> list[LineError]:
    """One LineError per position that could not be counted (its results carry ``error``)."""
    errors: dict[int, LineError] = {}
    for result in results:
        record = result.task.record
        if result.error is not None and id(record) not in errors:
            errors[id(record)] = LineError(record.path, record.lineno, result.error, record.label)
    return list(errors.values())
