"""The parts of ``chesskit suite`` that run a user's engine: report texts and JUnit XML."""

from __future__ import annotations

from chesskit.cli import output
from chesskit.errors import InputError
from chesskit.suites import junit
from chesskit.suites.positions import display_path

EXPECTED_IN_DOUBT = "chesskit agrees with the engine here: the suite's expected count is in doubt"


def report_summary(report) -> str:
    return EXPECTED_IN_DOUBT if report.agree else report.summary()


def report_text(report) -> str:
    """compare's plain report of an engine mismatch (see compare_render)."""
    from chesskit.cli.compare_render import plain_text

    return (EXPECTED_IN_DOUBT + "\n" if report.agree else "") + plain_text(report)


def check_writable(path: str, inputs=()) -> None:
    """Fail at once (exit 2), not after a long run, when ``--junit FILE`` cannot be written:
    a directory, a FIFO, a device, a missing folder, no permission, or one of the ``inputs``."""
    from chesskit.outpath import check_output

    check_output(path, "--junit", inputs)


def write_junit(path: str, outcome, mismatch_lines, bad_lines=()) -> None:
    """Every testcase of the run (``outcome``: a ``chesskit.suites.session.Outcome``): one
    per count planned, in the order run: passed, ``<failure>`` (a mismatch), ``<error
    type="engine">`` (the count the engine failed on), ``<error type="input">`` (a position
    that cannot be counted), ``<skipped>`` (the counts after an engine's failure, or not run
    after --fail-fast); one ``<skipped>`` per position with no count within the limits; and
    an ``<error type="input">`` for each line of ``bad_lines``, the
    ``chesskit.suites.formats.LineError``s of lines that could not be run.

    ``mismatch_lines(result)`` gives the suite's three lines about a mismatch.
    """
    cases = []
    for position in outcome.positions:
        cases += _position_cases(position, mismatch_lines)
    for bad in bad_lines:
        cases.append(
            junit.Case(
                display_path(bad.path),
                bad.path.stem,
                bad.id or (f"line {bad.lineno}" if bad.lineno else "file"),
                error=str(bad),
                error_type="input",
            )
        )
    try:
        junit.write(path, cases)
    except OSError as err:
        raise InputError(f"cannot write --junit {path}: {err.strerror or err}") from None


def _case(task, seconds: float = 0.0) -> junit.Case:
    record = task.record
    return junit.Case(display_path(record.path), record.path.stem, f"{record.label} D{task.depth}", seconds)


def _position_cases(position, mismatch_lines) -> list[junit.Case]:
    from chesskit.suites.result import NOT_RUN, SKIPPED

    record = position.record
    if position.status == SKIPPED:
        depths = sorted(record.depths)
        span = f"D{depths[0]}" if len(depths) == 1 else f"D{depths[0]}-D{depths[-1]}"
        case = junit.Case(display_path(record.path), record.path.stem, f"{record.label} {span}")
        case.skipped = position.reason
        return [case]
    cases = []
    # the position's time that no count holds: the count the engine failed on (a hang: its
    # --timeout), or compare's descent of a mismatch; the case it was spent on gets it
    unclocked = max(0.0, position.seconds - sum(r.seconds for r in position.results))
    spent_on = position.failed_task or next((r.task for r in position.results if r.report is not None), None)
    for result in position.results:
        case = _result_case(result, mismatch_lines)
        if result.task is position.failed_task:  # it failed in compare's descent of this mismatch
            # still a <failure>: the count mismatched first (the position is a mismatch in
            # the text, JSON and HTML too), its message naming the engine's failure after it
            case.failure = f"{case.failure}; then {position.failure.reason}"
            case.details = f"{case.failure}\n\n{case.details}"
        if result.task is spent_on:
            case.seconds += unclocked
        cases.append(case)
    failure = position.failure
    if failure is not None and all(r.task is not position.failed_task for r in position.results):
        case = _case(position.failed_task, unclocked)
        case.error = failure.reason
        cases.append(case)
    for task in position.not_run:
        case = _case(task)
        if failure is not None and failure.depth is None:
            case.skipped = "not run: the engine could not be started"
        elif failure is not None:
            case.skipped = f"not run: the engine failed on D{failure.depth} of this position"
        elif position.status == NOT_RUN or position.not_run_reason:
            # a run interrupted after a mismatch of this position: its later counts (a pass before)
            case.skipped = f"not run: {position.not_run_reason or position.reason}"
        cases.append(case)
    return cases


def _result_case(result, mismatch_lines) -> junit.Case:
    task = result.task
    case = _case(task, result.seconds)
    if result.error is not None:
        case.error = f"{task.record.location}: {result.error}"
        case.error_type = "input"
    elif not result.ok:
        lines = mismatch_lines(result)
        case.failure = lines[2]
        if result.report is not None:
            case.failure += f"; {report_summary(result.report)}"
            case.details = "\n".join(lines) + "\n\n" + report_text(result.report)
        elif result.divide is not None:
            case.details = (
                "\n".join(lines) + f"\ndivide at depth {task.depth}:\n" + output.stockfish_divide(result.divide)
            )
        else:
            case.details = "\n".join(lines)
    return case
