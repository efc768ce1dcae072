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


def check_writable(path: str) -> None:
    """Fail at once (exit 2), not after a long run, when ``--junit FILE`` cannot be written."""
    import os

    if not path.strip():
        raise InputError("--junit needs a file name")
    if os.path.isdir(path):
        raise InputError(f"cannot write --junit {path}: it is a directory")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"cannot write --junit {path}: no such folder {folder}")
    target = path if os.path.exists(path) else folder
    if not os.access(target, os.W_OK):
        raise InputError(f"cannot write --junit {path}: permission denied")


def write_junit(path: str, results: list, mismatch_lines, broken=None, error: str | None = None) -> None:
    """One testcase per result (and an errored one for the task the engine failed on).

    ``mismatch_lines(result)`` gives the suite's three lines about a mismatch.
    """
    cases = []
    for result in results:
        task = result.task
        case = junit.Case(
            display_path(task.record.path),
            task.record.path.stem,
            f"{task.record.id} D{task.depth}",
            result.seconds,
        )
        if not result.ok:
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
                f"{broken.record.id} D{broken.depth}",
                error=error,
            )
        )
    try:
        junit.write(path, cases)
    except OSError as err:
        raise InputError(f"cannot write --junit {path}: {err.strerror or err}") from None
