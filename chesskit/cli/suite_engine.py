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


def write_junit(
    path: str, results: list, mismatch_lines, broken=None, error: str | None = None, bad_lines=()
) -> None:
    """One testcase per result (and an errored one for the task the engine failed on),
    and an errored one (``<error type="input">``) for each line of ``bad_lines``, the
    ``chesskit.suites.formats.LineError``s of lines that could not be run.

    ``mismatch_lines(result)`` gives the suite's three lines about a mismatch.
    """
    cases = []
    for result in results:
        task = result.task
        case = junit.Case(
            display_path(task.record.path),
            task.record.path.stem,
            f"{task.record.label} D{task.depth}",
            result.seconds,
        )
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
                    "\n".join(lines)
                    + f"\ndivide at depth {task.depth}:\n"
                    + output.stockfish_divide(result.divide)
                )
            else:
                case.details = "\n".join(lines)
        cases.append(case)
    if broken is not None:
        cases.append(
            junit.Case(
                display_path(broken.record.path),
                broken.record.path.stem,
                f"{broken.record.label} D{broken.depth}",
                error=error,
            )
        )
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
