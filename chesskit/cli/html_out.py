"""``--html FILE`` of ``compare``, ``fuzz`` and ``suite``: the option, the check before any
work, and the report written atomically (``chesskit.outpath``) from the same data as
``--json``, with the context that data leaves out (``chesskit.report.html`` lists it).

``show --svg FILE`` writes its board through ``write_file`` too.
"""

from __future__ import annotations

import contextlib

import click

from chesskit.errors import EngineError, InputError

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


def report_data(report, position_notes=(), regression=None) -> dict:
    """A compare ``Report``'s JSON object (as ``--json`` gives it, its ``regression`` too)
    with the context the page needs."""
    from chesskit.cli import regression_view

    data = report.to_json()
    data["position_notes"] = list(position_notes)
    data["regression"] = regression_view.to_json(regression)
    data.update(
        position_fen=report.position_fen,
        depth=report.depth,
        chess960=bool(report.chess960),
        engine=report.engine,
        summary=report.summary(),
    )
    return data


def write_compare(path: str | None, report, position_notes=(), regression=None) -> None:
    if path is None:
        return
    from chesskit.report.html import compare_html

    write_file(path, compare_html(report_data(report, position_notes, regression)))


@contextlib.contextmanager
def crash_report(path: str | None, position_fen: str, chess960: bool, engine: str, variant: str = "chess"):
    """Around compare's descent: an engine that fails at a node (``EngineError.path``) gets
    a page of that node, the path to it and why, before the error goes on (exit 3; a page
    that cannot be written then is left out: the engine's failure is the line to show)."""
    try:
        yield
    except EngineError as err:
        if path is not None and err.path is not None:
            from chesskit.report.html import crash_html

            data = {"path": list(err.path), "fen": err.fen, "depth": err.depth, "position_fen": position_fen,
                    "chess960": bool(chess960), "engine": engine, "summary": str(err), "variant": variant}  # fmt: skip
            try:
                write_file(path, crash_html(data))
            except InputError:
                pass
        raise


def write_fuzz(path: str | None, run, call: str | None = None) -> None:
    """``call``: how the regression's pytest test opens the engine (``engine_call``)."""
    if path is None:
        return
    from chesskit.cli import regression_view
    from chesskit.compare.regression import from_report
    from chesskit.fuzz.run import run_json
    from chesskit.report.html import fuzz_html

    data = run_json(run)
    if run.finding is not None:
        report = run.finding.report
        data["regression"] = regression_view.to_json(from_report(report, run.report_id, call))
        data.update(chess960=bool(report.chess960), engine=report.engine, summary=report.summary(), id=run.report_id)
        data["agree"] = False
    write_file(path, fuzz_html(data))


def write_suite(path: str | None, outcome, engine_name: str | None = None, call: str | None = None) -> None:
    if path is None:
        return
    from chesskit.cli.suite_render import json_data
    from chesskit.report.html import suite_html

    data = json_data(outcome, call)
    for entry, result in zip(data["results"], outcome.results):
        entry["seconds"] = result.seconds
        if result.report is not None:
            entry["compare"] = report_data(result.report)
            del entry["compare"]["regression"]  # the suite gives it beside (``entry["regression"]``)
    if engine_name:
        data["engine"] = engine_name
    error, broken = getattr(outcome, "engine_error", None), getattr(outcome, "broken", None)
    if error is not None and broken is not None:  # an engine failure that ended the run
        data["engine_error"] = {"id": broken.record.label, "error": str(error)}
    write_file(path, suite_html(data))
