"""``chesskit suite``: check the expected counts of EPD suites."""

from __future__ import annotations

from collections import defaultdict

import click

from chesskit.cli import output
from chesskit.cli.engine_options import engine_dialect, engine_options, note_dialect, open_user_engine, parse_timeout
from chesskit.cli.suite_engine import EXPECTED_IN_DOUBT, check_writable, report_text, write_junit
from chesskit.cli.options import json_option, parse_count, parse_depth, strict_option
from chesskit.errors import EngineError, InputError, MismatchError
from chesskit.suites.positions import display_path
from chesskit.suites.runner import DEFAULT_MAX_NODES, SuiteResult, load_suites, plan, run, run_engine
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
@strict_option
@json_option
def suite(
    paths: tuple[str, ...],
    max_depth: str | None,
    max_nodes: str,
    engine: str | None,
    dialect: str | None,
    engine_cmd: str | None,
    script: str | None,
    python_spec: str | None,
    engine_options: tuple[str, ...],
    timeout: str,
    junit: str | None,
    skip_chess960: bool,
    stats: bool,
    strict: bool,
    as_json: bool,
) -> None:
    """Run the perft suites in PATH (EPD files or folders; default: the bundled positions/).

    Every position's D<n> counts up to the limits are checked; a mismatch prints the
    position, the depth, both counts and the divide there, and the exit code is 1.
    With --engine, --script or --python the counts come from that engine instead, and
    a mismatch also runs compare's descent against chesskit down to the failing node.
    Exit 3 when the engine fails.
    """
    depth_limit = None if max_depth is None else parse_depth(max_depth, name="--max-depth")
    node_limit = parse_count(max_nodes, "--max-nodes")
    if junit is not None:
        check_writable(junit)
    records = load_suites(paths, strict)
    if skip_chess960:
        records = [record for record in records if not record.chess960]
        if not records:
            raise InputError("nothing to run: every position is a Chess960 one and --skip-chess960 leaves them out")
    tasks = plan(records, depth_limit, node_limit)
    if not tasks:
        limits = f"--max-nodes {node_limit}" + (
            f" and --max-depth {depth_limit}" if depth_limit is not None else ""
        )
        raise InputError(f"nothing to run: no expected count of {_plural(len(records), 'position')} is within {limits}")

    eng = None
    spoken = None
    using_engine = (
        any(flag is not None for flag in (engine, script, python_spec, engine_cmd, dialect)) or engine_options
    )
    if using_engine:
        if stats:
            raise InputError("--stats counts with chesskit itself; it cannot be combined with an engine")
        eng = open_user_engine(
            engine, script, python_spec, engine_options, parse_timeout(timeout), dialect, engine_cmd
        )
    results: list[SuiteResult] = []
    plain = not as_json and not output.stdout_is_terminal()
    position: list[SuiteResult] = []  # the current position's results, for streamed lines
    width = min(max(len(task.record.id) for task in tasks), 32)
    timer = Timer()
    # weight each count by its expected nodes (+1 so tiny ones still move the bar)
    total = sum(task.expected + 1 for task in tasks)
    try:
        if eng is not None:  # starts the engine and finds its dialect (an EngineError is the first task's)
            spoken = engine_dialect(eng)
        with timer, output.progress(total, "suite", counted=False) as advance:
            for result in run(tasks, stats) if eng is None else run_engine(tasks, eng):
                results.append(result)
                advance(result.task.expected + 1)
                if plain:  # a pipe (a CI log, say) gets each position's line as soon as it is done
                    if position and position[0].task.record is not result.task.record:
                        click.echo(_position_line(position, width))
                        position.clear()
                    position.append(result)
    except EngineError as err:
        broken = tasks[len(results)]
        if junit:
            write_junit(junit, results, _mismatch_lines, broken, str(err))
        if broken.record.chess960 and not skip_chess960:
            raise EngineError(f"{err} (at Chess960 position {broken.record.id}; --skip-chess960 leaves those out)") from None
        raise
    finally:
        if eng is not None:
            eng.close()
    _notes(results)
    if junit:
        write_junit(junit, results, _mismatch_lines)
    note_dialect(spoken, as_json)
    if position:
        click.echo(_position_line(position, width))

    failed = [r for r in results if not r.ok]
    if as_json:
        data = {
            "passed": len(results) - len(failed),
            "failed": len(failed),
            "results": [_result_json(r) for r in results],
        }
        if spoken is not None:
            data["dialect"] = {k: v for k, v in spoken.items() if k != "about"}
        output.emit_json(data)
    elif output.stdout_is_terminal():
        _render_terminal(results, failed, timer)
    else:
        _render_plain(results, failed, timer)
    if failed:
        raise MismatchError(f"{len(failed)} of {len(results)} counts did not match")


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


def _summary(results, failed, timer: Timer) -> str:
    positions = len({id(r.task.record) for r in results})
    verdict = "all match" if not failed else f"{len(failed)} FAILED"
    counters = sum(r.stats is not None for r in results)
    with_counters = f" ({counters} with leaf counters)" if counters else ""
    return (
        f"{_plural(len(results), 'count')}{with_counters} of {_plural(positions, 'position')} checked in "
        f"{timer.display()}: {len(results) - len(failed)} passed, {verdict}"
    )


def _mismatch_lines(result: SuiteResult) -> list[str]:
    task = result.task
    if result.nodes == task.expected and result.stats:  # only the leaf counters differ (--stats)
        detail = result.stats_text()
    else:
        diff = result.nodes - task.expected
        detail = f"depth {task.depth}: expected {task.expected}, got {result.nodes} ({diff:+d})"
    return [f"mismatch: {task.record.id} ({task.record.location})", f"fen: {task.record.fen}", detail]


def _position_line(group: list[SuiteResult], width: int = 0) -> str:
    """One plain line for a position: ``ok id D1-D4 nodes time`` or its first failure;
    ids are padded to ``width`` so the columns line up."""
    ident = group[0].task.record.id.ljust(width)
    bad = [r for r in group if not r.ok]
    if not bad:
        span = _depth_span(group).ljust(6)
        return f"ok    {ident}  {span}  {group[-1].nodes:>12} nodes  {_seconds(group)}"
    first = bad[0]
    if first.nodes == first.task.expected:  # the leaf counters differ (--stats)
        return f"FAIL  {ident}  {first.stats_text()}"
    return f"FAIL  {ident}  D{first.task.depth}: expected {first.task.expected}, got {first.nodes}"


def _render_plain(results, failed, timer: Timer) -> None:
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
    click.echo(_summary(results, failed, timer))


def _seconds(group) -> str:
    return format_seconds(sum(r.seconds for r in group))


def _render_terminal(results, failed, timer: Timer) -> None:
    from rich.columns import Columns
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    con = output.console()
    files: dict = defaultdict(list)
    for result in results:
        files[result.task.record.path].append(result)
    table = Table(title="suite results", title_justify="left")
    table.add_column("file", overflow="fold")
    for name, justify in [
        ("positions", "right"),
        ("counts", "right"),
        ("nodes", "right"),
        ("time", "right"),
        ("result", "left"),
    ]:
        table.add_column(name, justify=justify)
    for path, group in files.items():
        bad = sum(not r.ok for r in group)
        table.add_row(
            display_path(path),
            str(len({id(r.task.record) for r in group})),
            str(len(group)),
            f"{sum(r.nodes for r in group):,}",
            _seconds(group),
            "[green]ok[/]" if not bad else f"[bold red]{bad} FAILED[/]",
        )
    con.print(table)

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
                fails.add_row(r.task.record.id, f"S{r.task.depth}", want, got, "", r.task.record.location)
                continue
            fails.add_row(
                r.task.record.id,
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
    style = "bold green" if not failed else "bold red"
    con.print(Text(_summary(results, failed, timer), style=style))
