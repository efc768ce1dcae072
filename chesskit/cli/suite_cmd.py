"""``chesskit suite``: check the expected counts of perft suites (EPD and ``.perft`` files)."""

from __future__ import annotations

from collections import defaultdict

import click

from chesskit.board.tablesize import check_request
from chesskit.cli import output
from chesskit.cli.engine_options import EngineOptions, engine_dialect, engine_options, note_dialect
from chesskit.cli.suite_engine import EXPECTED_IN_DOUBT, check_writable, report_text, write_junit
from chesskit.cli.options import SUITE_HASH_MB, default_threads, hash_option, json_option, parse_count, parse_depth, strict_option, threads_option
from chesskit.errors import EngineError, InputError, MismatchError
from chesskit.suites.estimate import within_bounds
from chesskit.suites.formats import LineError
from chesskit.suites.positions import display_path
from chesskit.suites.runner import DEFAULT_MAX_NODES, SuiteResult, load_entries, plan, run, run_engine, suite_paths
from chesskit.timer import Timer, format_seconds


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
    "--stats",
    is_flag=True,
    help='Also check the leaf counters of S<n> "captures=.. checks=.." opcodes where a suite has them.',
)
@hash_option
@threads_option
@strict_option
@json_option
def suite(
    paths: tuple[str, ...],
    max_depth: str | None,
    max_nodes: str,
    engine_opts: EngineOptions,
    junit: str | None,
    skip_chess960: bool,
    stats: bool,
    hash_mb: int | None,
    threads: int | None,
    strict: bool,
    as_json: bool,
) -> None:
    """Run the perft suites in PATH (EPD or .perft files, or folders of them; default:
    the bundled positions/).

    Every position's expected counts up to the limits are checked; a mismatch prints the
    position, the depth, both counts and the divide there, and the exit code is 1.
    A line that cannot be read or a position that cannot be counted is reported with
    FILE:LINE and why, the rest still runs, and the exit code is 2 (1 if anything
    mismatched as well). With --engine, --script or --python the counts come from that
    engine instead, and a mismatch also runs compare's descent against chesskit down to
    the failing node. Exit 3 when the engine fails.
    """
    depth_limit = None if max_depth is None else parse_depth(max_depth, name="--max-depth")
    node_limit = parse_count(max_nodes, "--max-nodes")
    if hash_mb is not None:
        check_request(hash_mb)  # more than the machine's memory is refused (exit 2)
    if junit is not None:
        check_writable(junit, [*suite_paths(paths), *engine_opts.input_files()])
    loaded = load_entries(paths, strict)
    records, bad_lines = loaded.records, loaded.errors
    if skip_chess960:
        records = [record for record in records if not record.chess960]
        if not records and not bad_lines:
            raise InputError("nothing to run: every position is a Chess960 one and --skip-chess960 leaves them out")
    tasks, understated = within_bounds(plan(records, depth_limit, node_limit), node_limit)
    bad_lines = bad_lines + understated
    if not tasks and not bad_lines:
        limits = f"--max-nodes {node_limit}" + (
            f" and --max-depth {depth_limit}" if depth_limit is not None else ""
        )
        raise InputError(f"nothing to run: no expected count of {_plural(len(records), 'position')} is within {limits}")

    eng = None
    spoken = None
    if engine_opts.given:
        if stats:
            raise InputError("--stats counts with chesskit itself; it cannot be combined with an engine")
        eng = engine_opts.open()
    results: list[SuiteResult] = []
    plain = not as_json and not output.stdout_is_terminal()
    stream = _Stream(bad_lines, tasks) if plain else None  # a pipe (a CI log) gets each line when known
    timer = Timer()
    # weight each count by its expected nodes (+1 so tiny ones still move the bar)
    total = sum(task.expected + 1 for task in tasks)
    try:
        if eng is not None:  # starts the engine and finds its dialect (an EngineError is the first task's)
            spoken = engine_dialect(eng)
        with timer, output.progress(total, "suite", counted=False) as advance:
            credited: dict[int, float] = {}  # what a split count has moved the bar so far

            def partial(task, fraction: float) -> None:
                share = fraction * task.expected
                advance(share - credited.get(id(task), 0.0))
                credited[id(task)] = share

            if eng is None:
                threads = threads or default_threads()
                drawn = partial if output.stderr_is_terminal() else None  # the bar is drawn
                counted = run(tasks, stats, threads=threads, hash_mb=SUITE_HASH_MB if hash_mb is None else hash_mb, progress=drawn)
            else:
                counted = run_engine(tasks, eng)
            for result in counted:
                results.append(result)
                advance(result.task.expected + 1 - credited.pop(id(result.task), 0.0))
                if stream is not None:
                    stream.add(result)
    except EngineError as err:
        broken = tasks[len(results)]
        if junit:
            write_junit(junit, results, _mismatch_lines, broken, str(err), bad_lines=bad_lines)
        if broken.record.chess960 and not skip_chess960:
            raise EngineError(
                f"{err} (at Chess960 position {broken.record.label}; --skip-chess960 leaves those out)"
            ) from None
        raise
    finally:
        if eng is not None:
            eng.close()
    _notes(results)
    if junit:
        write_junit(junit, results, _mismatch_lines, bad_lines=bad_lines)
    note_dialect(spoken, as_json)
    if stream is not None:
        stream.finish()

    errors = bad_lines + _run_errors(results)
    results = [r for r in results if r.error is None]
    failed = [r for r in results if not r.ok]
    if as_json:
        data = {
            "passed": len(results) - len(failed),
            "failed": len(failed),
            "results": [_result_json(r) for r in results],
            "errors": sum(e.count for e in errors),
            "error_lines": [e.to_json() for e in errors],
        }
        if spoken is not None:
            data["dialect"] = {k: v for k, v in spoken.items() if k != "about"}
        output.emit_json(data)
    elif output.stdout_is_terminal():
        _render_terminal(results, failed, timer, errors)
    else:
        _render_plain(results, failed, timer, errors)
    not_run = f"{_plural(sum(e.count for e in errors), 'line')} could not be run (first: {errors[0]})" if errors else ""
    if failed:
        extra = f"; {not_run}" if errors else ""
        raise MismatchError(f"{len(failed)} of {len(results)} counts did not match{extra}")
    if errors:
        raise InputError(not_run)


def _run_errors(results: list[SuiteResult]) -> list[LineError]:
    """One LineError per position that could not be counted (its results carry ``error``)."""
    errors: dict[int, LineError] = {}
    for result in results:
        record = result.task.record
        if result.error is not None and id(record) not in errors:
            errors[id(record)] = LineError(record.path, record.lineno, result.error, record.label)
    return list(errors.values())


class _Stream:
    """The plain lines of a run on a pipe, printed as soon as each is known and in file
    order: a line per position (``ok`` or ``FAIL``), a line per line not run (``ERROR``)."""

    def __init__(self, bad_lines: list[LineError], tasks):
        self.order = {}
        for item in [*bad_lines, *(t.record for t in tasks)]:
            self.order.setdefault(item.path, len(self.order))
        self.pending = sorted(bad_lines, key=self._key)
        self.group: list[SuiteResult] = []
        self.width = min(max((len(t.record.label) for t in tasks), default=0), 32)

    def _key(self, item) -> tuple[int, int]:
        return self.order.get(item.path, len(self.order)), item.lineno

    def add(self, result: SuiteResult) -> None:
        if self.group and self.group[0].task.record is not result.task.record:
            self._flush()
        self.group.append(result)

    def _flush(self) -> None:
        record = self.group[0].task.record
        while self.pending and self._key(self.pending[0]) < self._key(record):
            click.echo(_error_line(self.pending.pop(0)))
        errored = [r for r in self.group if r.error is not None]
        if errored:
            click.echo(_error_line(LineError(record.path, record.lineno, errored[0].error, record.label)))
        else:
            click.echo(_position_line(self.group, self.width))
        self.group = []

    def finish(self) -> None:
        if self.group:
            self._flush()
        for error in self.pending:
            click.echo(_error_line(error))
        self.pending = []


def _error_line(error: LineError) -> str:
    return f"ERROR {error}"


def _notes(results: list[SuiteResult]) -> None:
    """The notes of the positions counted (why they cannot arise in a game), once each, after
    the run: a progress bar on stderr is gone by then, and a run that fails prints only its
    error."""
    seen: set[int] = set()
    for result in results:
        record = result.task.record
        if record.notes and id(record) not in seen:
            seen.add(id(record))
            output.notes(record.notes, record.location)


def _result_json(result: SuiteResult) -> dict:
    entry = result.to_json()
    if result.divide is not None:
        entry["divide"] = result.divide
    if result.report is not None:
        entry["compare"] = result.report.to_json()
    return entry


def _depth_span(results: list[SuiteResult]) -> str:
    depths = [r.task.depth for r in results]
    return f"D{min(depths)}" if len(depths) == 1 else f"D{min(depths)}-D{max(depths)}"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _summary(results, failed, timer: Timer, errors=()) -> str:
    positions = len({id(r.task.record) for r in results})
    verdict = "all match" if not failed else f"{len(failed)} FAILED"
    counters = sum(r.stats is not None for r in results)
    with_counters = f" ({counters} with leaf counters)" if counters else ""
    return (
        f"{_plural(len(results), 'count')}{with_counters} of {_plural(positions, 'position')} checked in "
        f"{timer.display()}: {len(results) - len(failed)} passed, {verdict}"
        + (f", {_plural(sum(e.count for e in errors), 'line')} not run (errors)" if errors else "")
    )


def _mismatch_lines(result: SuiteResult) -> list[str]:
    task = result.task
    if result.nodes == task.expected and result.stats:  # only the leaf counters differ (--stats)
        detail = result.stats_text()
    else:
        diff = result.nodes - task.expected
        detail = f"depth {task.depth}: expected {task.expected}, got {result.nodes} ({diff:+d})"
    return [f"mismatch: {task.record.label} ({task.record.location})", f"fen: {task.record.fen}", detail]


def _position_line(group: list[SuiteResult], width: int = 0) -> str:
    """One plain line for a position: ``ok id D1-D4 nodes time`` or its first failure;
    ids are padded to ``width`` so the columns line up."""
    ident = group[0].task.record.label.ljust(width)
    bad = [r for r in group if not r.ok]
    if not bad:
        span = _depth_span(group).ljust(6)
        return f"ok    {ident}  {span}  {group[-1].nodes:>12} nodes  {_seconds(group)}"
    first = bad[0]
    if first.nodes == first.task.expected:  # the leaf counters differ (--stats)
        return f"FAIL  {ident}  {first.stats_text()}"
    return f"FAIL  {ident}  D{first.task.depth}: expected {first.task.expected}, got {first.nodes}"


def _render_plain(results, failed, timer: Timer, errors=()) -> None:
    """After the streamed position lines: each mismatch's divide, then the summary."""
    for result in failed:
        if result.divide is None:
            continue
        click.echo()
        click.echo("\n".join(_mismatch_lines(result)))
        if result.report is not None:
            click.echo(report_text(result.report), nl=False)
            continue
        click.echo(f"divide at depth {result.task.depth}:")
        click.echo(output.stockfish_divide(result.divide), nl=False)
    click.echo(_summary(results, failed, timer, errors))


def _seconds(group) -> str:
    return format_seconds(sum(r.seconds for r in group))


def _render_terminal(results, failed, timer: Timer, errors=()) -> None:
    from rich.columns import Columns
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    con = output.console()
    files: dict = defaultdict(list)
    for result in results:
        files[result.task.record.path].append(result)
    not_run: dict = defaultdict(int)
    for error in errors:
        not_run[error.path] += error.count
        files.setdefault(error.path, [])
    table = Table(title="suite results", title_justify="left")
    table.add_column("file", overflow="fold")
    for name, justify in [
        ("positions", "right"),
        ("counts", "right"),
        ("nodes", "right"),
        ("time", "right"),
        ("result", "left"),
        *([("errors", "right")] if errors else []),
    ]:
        table.add_column(name, justify=justify)
    for path, group in files.items():
        bad = sum(not r.ok for r in group)
        table.add_row(
            Text(display_path(path)),
            str(len({id(r.task.record) for r in group})),
            str(len(group)),
            f"{sum(r.nodes for r in group):,}",
            _seconds(group),
            "" if not group else "[green]ok[/]" if not bad else f"[bold red]{bad} FAILED[/]",
            *([f"[yellow]{not_run[path]}[/]" if not_run[path] else ""] if errors else []),
        )
    con.print(table)

    if errors:
        lines = Table(title="lines not run", title_justify="left", title_style="bold yellow")
        for name in ("where", "id", "why"):
            lines.add_column(name, overflow="fold")
        for error in errors:
            lines.add_row(Text(error.location), Text(error.id or ""), Text(error.message))
        con.print(lines)

    if failed:
        fails = Table(title="mismatches", title_justify="left", title_style="bold red")
        for name in ("id", "depth", "expected", "actual", "difference", "where"):
            fails.add_column(
                name,
                justify="left" if name in ("id", "where") else "right",
                overflow="fold",
            )
        for r in failed:
            if r.nodes == r.task.expected:  # leaf counters (--stats)
                want = " ".join(f"{n}={e}" for n, (e, _) in r.stats.items())
                got = " ".join(f"{n}={a}" for n, (_, a) in r.stats.items())
                fails.add_row(Text(r.task.record.label), f"S{r.task.depth}", want, got, "", r.task.record.location)
                continue
            fails.add_row(
                Text(r.task.record.label),
                str(r.task.depth),
                str(r.task.expected),
                str(r.nodes),
                f"{r.nodes - r.task.expected:+d}",
                r.task.record.location,
            )
        con.print(fails)
    for result in failed:
        if result.divide is None:
            continue
        lines = _mismatch_lines(result)
        moves = Columns([f"{m}: {n}" for m, n in result.divide.items()], padding=(0, 3))
        body = Table.grid()
        body.add_row(Text(lines[1], style="dim"))
        body.add_row(Text(lines[2]))
        body.add_row(Text(f"divide at depth {result.task.depth}:"))
        body.add_row(moves)
        con.print(Panel(body, title=Text(lines[0], style="bold red"), title_align="left"))
        if result.report is not None:
            from chesskit.cli.compare_render import render_terminal

            if result.report.agree:
                con.print(Text(EXPECTED_IN_DOUBT, style="yellow"))
            render_terminal(result.report, con)
    style = "bold red" if failed else "bold yellow" if errors else "bold green"
    con.print(Text(_summary(results, failed, timer, errors), style=style))
