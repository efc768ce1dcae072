"""``--html FILE`` of ``compare``, ``fuzz`` and ``suite``: the option, the check before any
work, and the report written atomically (``chesskit.outpath``) from the same data as
``--json``, with the context that data leaves out (``chesskit.report.html`` lists it).

``show --svg FILE`` writes its board through ``write_file`` too.
"""

from __future__ import annotations

import click

from chesskit.errors import InputError

html_option = click.option(
    "--html",
    "html_path",
    metavar="FILE",
    help="Also write a self-contained HTML report (boards, arrows, divides, the path) to FILE.",
)


def check_writable(path: str | None, inputs=(), option: str = "--html", others: dict[str, str | None] = None) -> None:
    """Exit 2 before any work when ``path`` cannot be written (see ``chesskit.outpath``),
    or names the same file as another output option (``others``: option -> path)."""
    if path is None:
        return
    from chesskit.outpath import check_output

    check_output(path, option, inputs)
    import os

    for name, other in (others or {}).items():
        if other is not None and os.path.abspath(other) == os.path.abspath(path):
            raise InputError(f"cannot write {option} {path}: it is the {name} file too; give another file")


def write_file(path: str, text: str, option: str = "--html") -> None:
    from chesskit.outpath import write_atomic

    try:
        write_atomic(path, text)
    except OSError as err:
        raise InputError(f"cannot write {option} {path}: {(err.strerror or str(err)).lower()}") from None


def report_data(report, position_notes=()) -> dict:
    """A compare ``Report``'s JSON object with the context the page needs."""
    data = report.to_json()
    data["position_notes"] = list(position_notes)
    data.update(
        position_fen=report.position_fen, depth=report.depth, chess960=bool(report.chess960), engine=report.engine, summary=report.summary()
    )
    return data


def write_compare(path: str | None, report, position_notes=()) -> None:
    if path is None:
        return
    from chesskit.report.html import compare_html

    write_file(path, compare_html(report_data(report, position_notes)))


def write_fuzz(path: str | None, run) -> None:
    if path is None:
        return
    from chesskit.fuzz.run import run_json
    from chesskit.report.html import fuzz_html

    data = run_json(run)
    if run.finding is not None:
        report = run.finding.report
        data.update(chess960=bool(report.chess960), engine=report.engine, summary=report.summary(), id=f"fuzz-{run.seed}")
        data["agree"] = False
    write_file(path, fuzz_html(data))


def write_suite(path: str | None, outcome, engine_name: str | None = None) -> None:
    if path is None:
        return
    from chesskit.cli.suite_render import json_data
    from chesskit.report.html import suite_html

    data = json_data(outcome)
    for entry, result in zip(data["results"], outcome.results):
        entry["seconds"] = result.seconds
        if result.report is not None:
            entry["compare"] = report_data(result.report)
    if engine_name:
        data["engine"] = engine_name
    if outcome.engine_error is not None and outcome.broken is not None:
        data["engine_error"] = {"id": outcome.broken.record.label, "error": str(outcome.engine_error)}
    write_file(path, suite_html(data))
