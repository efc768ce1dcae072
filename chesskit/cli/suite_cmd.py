"""``chesskit suite``: check the expected counts of perft suites (EPD and ``.perft`` files)."""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass

import click

from chesskit.board.tablesize import check_request
from chesskit.cli import output
from chesskit.cli.engine_options import EngineOptions, engine_dialect, engine_options, note_dialect
from chesskit.cli import gpu_run
from chesskit.cli.options import (
    SUITE_HASH_MB, default_threads, device_option, hash_option, json_option, parse_count, parse_depth, strict_option,
    standard_only, threads_option, variant_option, variant_rules,
)
from chesskit.cli.html_out import check_writable as check_html, html_option, write_suite
from chesskit.cli.regression_view import engine_call
from chesskit.cli.suite_engine import check_writable, write_junit
from chesskit.cli.suite_render import JsonResults, Stream, json_data, json_text, mismatch_lines, notes, render_plain, render_terminal
from chesskit.cli.run_options import bisect_option, fail_fast_option, position_timeout_option, start_failed, starting
from chesskit.errors import ChesskitError, EngineError, InputError
from chesskit.suites.guard import parse_position_timeout
from chesskit.suites.formats import parse_tags
from chesskit.suites.runner import DEFAULT_MAX_NODES, suite_paths
from chesskit.suites.session import NOT_BY_DEFAULT, execute, prepare, refuse_stats_with_engine, without_impossible
from chesskit.words import plural


@click.command()
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--max-depth", metavar="D", help="Check depths up to D only.")
@click.option(
    "--max-nodes",
    metavar="N",
    default=str(DEFAULT_MAX_NODES),
    show_default=True,
    help="Skip depths whose expected count exceeds N (1e6 and 1_000_000 work too).",
)
@engine_options
@click.option("--junit", metavar="FILE", help="Also write JUnit XML: one testcase per position and depth.")
@click.option(
    "--skip-chess960",
    is_flag=True,
    help="Leave out the Chess960 positions (for an engine that does not play Chess960).",
)
@click.option(
    "--tags",
    metavar="TAGS",
    help="Run only the positions tagged with one of TAGS (comma-separated: ep,castling; see positions/README.md).",
)
@click.option(
    "--stats",
    is_flag=True,
    help='Also check the leaf counters of S<n> "captures=.. checks=.." opcodes where a suite has them.',
)
@variant_option
@hash_option
@threads_option
@device_option
@strict_option
@position_timeout_option
@fail_fast_option
@bisect_option
@click.option("--verbose", is_flag=True, help="List why each position that cannot arise in a game is one.")
@html_option
@json_option
def suite(
    paths: tuple[str, ...],
    max_depth: str | None,
    max_nodes: str,
    engine_opts: EngineOptions,
    junit: str | None,
    skip_chess960: bool,
    tags: str | None,
    stats: bool,
    variant: str,
    hash_mb: int | None,
    threads: int | None,
    device: str,
    strict: bool,
    position_timeout: str | None,
    fail_fast: bool,
    bisect: bool,
    verbose: bool,
    html_path: str | None,
    as_json: bool,
) -> None:
    """Run the perft suites in PATH (EPD or .perft files, or folders of them; default:
    the bundled positions/). A PATH of - reads a suite from standard input, shown as
    <stdin> (cat tricky.epd | chesskit suite -).

    Every position's expected counts up to the limits are checked; a mismatch prints the
    position, the depth, both counts and the divide there, and the exit code is 1.
    A line that cannot be read or a position that cannot be counted is reported with
    FILE:LINE and why, the rest still runs, and the exit code is 2 (1 if anything
    mismatched as well). With --engine, --script or --python the counts come from that
    engine instead, and a mismatch also runs compare's descent against chesskit down to
    the failing node. An engine that crashes, hangs (--timeout for one answer,
    --position-timeout for all of a position) or prints what cannot be read fails that
    position only (an engine error; a mismatch naming it where a count mismatched first):
    the engine is restarted, the run goes on and the exit code is 3. The last line counts
    the positions passed, mismatched, failed by the engine and skipped (over --max-nodes),
    and the lines not run (errors).

    \f
    The checking itself is ``chesskit.suites.session`` (prepare, execute); this wires the
    options and renders (after click's ``\\f``: not in the help).
    """
    _refuse_on_gpu(device, variant, stats, hash_mb, threads, engine_opts)
    depth_limit = None if max_depth is None else parse_depth(max_depth, name="--max-depth")
    node_limit = parse_count(max_nodes, "--max-nodes")
    if hash_mb is not None:
        check_request(hash_mb)  # more than the memory available is refused (exit 2)
    _check_reports(junit, html_path, paths, engine_opts)
    seconds = parse_position_timeout(position_timeout)
    wanted = () if tags is None else parse_tag_option(tags)
    with _ahead(engine_opts.given, stats, device, threads, hash_mb, depth_limit, node_limit) as ahead:
        planned = prepare(
            paths, depth_limit, node_limit, strict, skip_chess960, wanted, **variant_rules(variant), ahead=ahead, allow_nothing=True,
        )
        refuse_stats_with_engine(engine_opts.given, stats)
        if not engine_opts.given and (seconds is not None or bisect):
            raise InputError(f"{'--bisect' if bisect else '--position-timeout'} applies to an engine (--engine, --script, ...)")
        planned = _for_engine(planned, bisect, engine_opts.given and not paths and tags is None)
        deepest = max((task.depth for task in planned.tasks), default=1)
        gpu = gpu_run.suite_walk(deepest) if device == "gpu" else None  # InputError (exit 2) where no GPU can be used
        eng = None
        try:
            eng = _open_engine(engine_opts, variant, bisect) if planned.nothing is None else None
            outcome, encoded = _execute(planned, eng, stats, threads, hash_mb, as_json, Run(seconds, fail_fast, bisect), gpu, ahead)
        except (KeyboardInterrupt, BrokenPipeError) as stop:  # Ctrl-C, SIGTERM (a CI job's timeout), | head
            _write_stopped(stop, junit, html_path, as_json, planned, eng, engine_opts)
            raise
        finally:
            if eng is not None:
                eng.close()
    _write_reports(outcome, junit, html_path, planned, eng, engine_opts)
    if outcome.engine_error is not None:
        raise start_failed(outcome.verdict(), bisect)
    notes(outcome, verbose)
    note_dialect(outcome.dialect, as_json, eng)
    _render(outcome, as_json, engine_call(engine_opts) if engine_opts.given else None, encoded)
    verdict = outcome.verdict()
    if verdict is not None:
        raise verdict


def _write_stopped(stop: BaseException, junit: str | None, html_path: str | None, as_json: bool, planned, eng, engine_opts) -> None:
    """An interrupted run still writes the --junit and --html reports asked for, and with
    --json prints its object, with the counts made so far (the rest ``not-run``; the
    object says ``"interrupted"``): a CI job stopped by its time limit shows what passed
    and where it stopped. The interrupt's line names the reports written."""
    from chesskit.cli.signals import interrupt_message, interrupted_signal
    from chesskit.suites.session import partial_outcome

    if isinstance(stop, BrokenPipeError):
        _write_closed(stop, junit, html_path, planned, eng, engine_opts)
        return
    outcome = partial_outcome(stop, planned)
    if as_json:
        data = json_data(outcome, engine_call(engine_opts) if engine_opts.given else None)
        data["interrupted"] = interrupt_message(interrupted_signal())
        click.echo(json.dumps(data))
    stopped = next((p for p in outcome.positions if p.not_run_reason), None)
    if stopped is not None and eng is not None:  # the engine's position it stopped in, and what it had found there
        stop.add_note(f"it stopped in {stopped.record.label} ({stopped.record.location}) after {stopped.seconds:.1f} s: {stopped.reason}")
    if not (junit or html_path):
        return
    try:
        _write_reports(outcome, junit, html_path, planned, eng, engine_opts)
    except ChesskitError as err:  # a report that cannot be written: said beside the interrupt
        stop.add_note(str(err))
        return
    stop.add_note(_written(outcome, junit, html_path))


def _write_closed(closed: BrokenPipeError, junit: str | None, html_path: str | None, planned, eng, engine_opts) -> None:
    """stdout was closed while the lines were printed (``| head -1``): the --junit and
    --html reports asked for are written with the counts made (they were lost without a
    word), said on stderr; the run then stops quietly (exit 141)."""
    from chesskit.suites.session import partial_outcome

    if not (junit or html_path):
        return
    outcome = partial_outcome(closed, planned)
    try:
        _write_reports(outcome, junit, html_path, planned, eng, engine_opts)
    except ChesskitError as err:
        click.echo(f"chesskit: stdout was closed, and {err}", err=True)
        return
    click.echo(f"chesskit: stdout was closed: {_written(outcome, junit, html_path)}", err=True)


def _written(outcome, junit: str | None, html_path: str | None) -> str:
    """``--junit F and --html G written with the 7 counts made (7 not run)``: the reports a
    run that did not end by itself wrote (interrupted, or its stdout closed)."""
    written = " and ".join(f"{name} {path}" for name, path in (("--junit", junit), ("--html", html_path)) if path)
    left = sum(len(p.not_run) for p in outcome.positions)
    return f"{written} written with the {plural(len(outcome.results), 'count')} made ({left} not run)"


def _check_reports(junit: str | None, html_path: str | None, paths, engine_opts: EngineOptions) -> None:
    """--junit and --html, checked before any work: writable, and none of the inputs."""
    if junit is not None:
        check_writable(junit, [*suite_paths(paths), *engine_opts.input_files()])
    if html_path is not None:
        check_html(html_path, [*suite_paths(paths), *engine_opts.input_files()], others={"--junit": junit})


def _write_reports(outcome, junit: str | None, html_path: str | None, planned, eng, engine_opts: EngineOptions) -> None:
    """The --junit and --html reports of ``outcome`` (each where asked for)."""
    if junit:
        write_junit(junit, outcome, mismatch_lines, planned.errors)
    write_suite(html_path, outcome, eng.name if eng is not None else None, engine_call(engine_opts) if eng else None)


def _open_engine(engine_opts: EngineOptions, variant: str, bisect: bool):
    """The engine of the options, or None for chesskit's own counts (none is started when
    the limits leave nothing to run: every position is reported skipped, exit 2)."""
    try:
        return engine_opts.open(variant) if engine_opts.given else None
    except EngineError as err:  # a Python adapter that cannot be imported
        raise start_failed(err, bisect) from None


def parse_tag_option(text: str) -> tuple[str, ...]:
    wanted = parse_tags(text, "--tags")
    if not wanted:
        raise InputError("--tags: expected one or more tags, e.g. --tags ep,castling")
    return wanted



@dataclass(frozen=True)
class Run:
    """The options of how the run goes on an engine's failure."""

    position_timeout: float | None = None
    fail_fast: bool = False
    bisect: bool = False


@contextmanager
def _ahead(engine: bool, stats: bool, device, threads: int | None, hash_mb: int | None, max_depth, max_nodes):
    """The counts started while the files are read (``runner.Ahead``), closed at the end:
    for chesskit's own CPU walk on more than one thread, without --stats; else None."""
    threads = threads or default_threads()
    if engine or stats or device == "gpu" or threads <= 1:
        yield None
        return
    from chesskit.suites.runner import Ahead

    ahead = Ahead(threads, SUITE_HASH_MB if hash_mb is None else hash_mb, max_depth, max_nodes)
    try:
        yield ahead
    finally:
        ahead.close()


def _execute(planned, eng, stats: bool, threads: int | None, hash_mb: int | None, as_json: bool, how: Run, gpu=None, ahead=None):
    """``session.execute`` with the progress bar, and on a pipe each line as it is known;
    the outcome, and with --json and chesskit's own counts the JSON's results encoded as
    they came (``JsonResults``: not left to the end, when the workers are done)."""
    stream = None if as_json or output.stdout_is_terminal() else Stream(planned.errors, planned.tasks, planned.skipped)
    encoded = JsonResults() if as_json and eng is None else None
    # weight each count by its expected nodes (+1 so tiny ones still move the bar)
    total = sum(task.expected + 1 for task in planned.tasks)
    with output.progress(total, "suite", counted=False) as advance:
        credited: dict[int, float] = {}  # what a split count has moved the bar so far

        def partial(task, fraction: float) -> None:
            share = fraction * task.expected
            advance(share - credited.get(id(task), 0.0))
            credited[id(task)] = share

        def counted(result) -> None:
            advance(result.task.expected + 1 - credited.pop(id(result.task), 0.0))
            if encoded is not None:
                encoded.add(result)

        def position(result) -> None:
            for task in [*([result.failed_task] if result.failed_task else []), *result.not_run]:
                advance(task.expected + 1)  # what the engine's failure left undone
            if stream is not None:
                stream.add(result)

        outcome = execute(
            planned,
            eng,
            stats,
            threads=threads or default_threads(),
            hash_mb=SUITE_HASH_MB if hash_mb is None else hash_mb,
            progress=partial if output.stderr_is_terminal() else None,  # the bar is drawn
            on_result=counted,
            start=starting(how.bisect, engine_dialect),
            position_timeout=how.position_timeout,
            fail_fast=how.fail_fast,
            on_position=position,
            gpu=gpu,
            ahead=ahead,
            skip_unplayable_960=how.bisect,
        )
    if stream is not None and outcome.engine_error is None:
        stream.finish()
    return outcome, encoded


def _for_engine(planned, bisect: bool, bundled: bool):
    """``planned`` without the positions that cannot arise in a game, skipped, under
    ``--bisect`` and where an engine runs the bundled suites whole (``bundled``): an engine
    may count them its own way (Stockfish fails one of impossible.epd's, QA 40b #8)."""
    if bisect:
        return without_impossible(planned)
    return without_impossible(planned, NOT_BY_DEFAULT) if bundled else planned


def _refuse_on_gpu(device: str, variant: str, stats: bool, hash_mb, threads, engine_opts) -> None:
    """What ``--device gpu`` cannot be combined with: an InputError (exit 2) naming it."""
    if device != "gpu":
        return
    standard_only(variant, gpu=True)
    gpu_run.refuse(stats=stats, hash=hash_mb is not None, threads=threads is not None)
    if engine_opts.given:
        raise InputError("--device gpu counts with chesskit itself: it cannot be combined with an engine")


def _render(outcome, as_json: bool, call: str | None, encoded: JsonResults | None = None) -> None:
    if as_json:
        click.echo(json_text(outcome, call, encoded))  # one line, as output.emit_json prints
    elif output.stdout_is_terminal():
        render_terminal(outcome, call)
    else:
        render_plain(outcome, call)
