"""Rendering ``chesskit suite``'s outcome (``chesskit.suites.session.Outcome``): the plain
lines streamed to a pipe, the rich tables of a terminal, the JSON object, the notes."""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict

import click

from chesskit.cli import output, regression_view
from chesskit.cli.suite_engine import EXPECTED_IN_DOUBT, report_text
from chesskit.suites.formats import LineError
from chesskit.suites.positions import display_path
from chesskit.suites.result import ENGINE_ERROR, ERROR, MISMATCH, NOT_RUN, PASSED, SKIPPED, PositionResult
from chesskit.suites.runner import SuiteResult
from chesskit.suites.session import Outcome, not_run_what
from chesskit.suites.tags import by_tag, summary_line
from chesskit.timer import format_seconds
from chesskit.words import plural


class Stream:
    """The plain lines of a run on a pipe, printed as soon as each is known and in file
    order: a line per position (``ok``, ``FAIL``, or ``ERROR`` when the engine failed on
    it), a line per line not run (``ERROR``), a line per position with no count within
    the limits (``skip``: known before the run, ``Planned.skipped``)."""

    def __init__(self, bad_lines: list[LineError], tasks, skipped=()):
        self.order = {}
        records = [*(t.record for t in tasks), *(record for record, _ in skipped)]
        for item in [*bad_lines, *records]:
            self.order.setdefault(item.path, len(self.order))
        self.width = min(max((len(r.label) for r in records), default=0), 32)
        known = [(self._key(e), error_line(e)) for e in bad_lines]
        known += [(self._key(r), self._skip_line(r, why)) for r, why in skipped]
        self.pending = sorted(known, key=lambda item: item[0])[::-1]  # (key, line), popped from the end

    def _key(self, item) -> tuple[int, int]:
        return self.order.get(item.path, len(self.order)), item.lineno

    def _skip_line(self, record, why: str) -> str:
        return f"skip  {record.label.ljust(self.width)}  {why}"

    def add(self, position: PositionResult) -> None:
        record = position.record
        while self.pending and self.pending[-1][0] < self._key(record):
            click.echo(self.pending.pop()[1])
        if position.status == ERROR:
            click.echo(error_line(LineError(record.path, record.lineno, position.reason, record.label)))
        elif position.status == ENGINE_ERROR:
            click.echo(f"ERROR {record.label.ljust(self.width)}  {position.reason}")
        elif position.failure is not None:  # a mismatch, then the engine failed
            click.echo(f"FAIL  {record.label.ljust(self.width)}  {position.reason}")
        elif position.status == SKIPPED:  # one the engine cannot be given (--bisect)
            click.echo(self._skip_line(record, position.reason))
        else:
            click.echo(position_line(position.results, self.width))

    def finish(self) -> None:
        while self.pending:
            click.echo(self.pending.pop()[1])


def error_line(error: LineError) -> str:
    return f"ERROR {error}"


def notes(outcome: Outcome, verbose: bool) -> None:
    """Why the positions counted cannot arise in a game, after the run (a progress bar on
    stderr is gone by then): each reason of one position, or with several positions one
    summary line (``verbose``: all of them)."""
    noted = outcome.noted
    if len(noted) > 1 and not verbose:
        click.echo(
            f"{output.PROG}: note: {plural(len(noted), 'position')} cannot arise in a game; they are counted "
            "anyway (--verbose lists why)",
            err=True,
        )
        return
    for record in noted:
        output.notes(record.notes, record.location)


def json_data(outcome: Outcome, engine_call: str | None = None, with_results: bool = True) -> dict:
    """The ``--json`` object (``with_results=False``: ``"results"`` left empty, for
    ``json_text`` to fill in)."""
    failed = outcome.failed
    data = {
        "passed": len(outcome.results) - len(failed),
        "failed": len(failed),
        "results": [_result_json(r, engine_call, outcome.dialect) for r in outcome.results] if with_results else [],
        "errors": outcome.not_run,
        "error_lines": [e.to_json() for e in outcome.errors],
    }
    data["failures_by_tag"] = by_tag(failing_records(outcome))
    if outcome.dialect is not None:
        # here: a run of chesskit's own counts loads no engine code
        from chesskit.compare.engines.dialects import without_about

        data["dialect"] = without_about(outcome.dialect)
        data["dialect_answered"] = without_about(outcome.dialect_answered or outcome.dialect)
    tally = outcome.tally()
    data["positions"] = {
        "passed": tally[PASSED],
        "mismatched": tally[MISMATCH],
        "engine_errors": tally[ENGINE_ERROR],
        "skipped": tally[SKIPPED],
        "errors": outcome.not_run,  # every line not run: refused when read too, not only when counted
        "not_run": tally[NOT_RUN],
    }
    data["engine_errors"] = [p.to_json() for p in outcome.engine_failed]
    data["skipped"] = [p.to_json() for p in outcome.positions if p.status in (SKIPPED, NOT_RUN)]
    return data


class JsonResults:
    """The ``"results"`` of the ``--json`` object of chesskit's own counts, encoded as the
    counts come in (``add``, each result as ``execute`` reports it): a suite of many small
    counts then ends without a serial tail of encoding them all (random.perft to depth 4:
    27,352 entries, about 0.15 s after the workers are done). Encoded ``CHUNK`` at a time."""

    CHUNK = 512

    def __init__(self):
        self.parts: list[str] = []  # encoded chunks, each without its brackets
        self.pending: list[dict] = []
        self.count = 0
        self.last: SuiteResult | None = None

    def add(self, result: SuiteResult) -> None:
        if result.error is not None:  # not a count: the Outcome lists it with the errors
            return
        self.pending.append(_result_json(result))
        self.count += 1
        self.last = result
        if len(self.pending) >= self.CHUNK:
            self._encode()

    def _encode(self) -> None:
        if self.pending:
            self.parts.append(json.dumps(self.pending)[1:-1])
            self.pending = []

    def matches(self, outcome: Outcome) -> bool:
        """Whether what was added is ``outcome.results``, all of it (the same count, the same last)."""
        return self.count == len(outcome.results) and (not self.count or self.last is outcome.results[-1])

    def text(self) -> str:
        self._encode()
        return "[" + ", ".join(self.parts) + "]"


def json_text(outcome: Outcome, engine_call: str | None = None, results: JsonResults | None = None) -> str:
    """``json_data`` as one line of JSON, exactly ``json.dumps`` of it; ``results``: its
    ``"results"`` as they were encoded during the run (used when they are the outcome's)."""
    if results is None or not results.matches(outcome):
        return json.dumps(json_data(outcome, engine_call))
    data = json_data(outcome, engine_call, with_results=False)
    fields = (f"{json.dumps(key)}: {results.text() if key == 'results' else json.dumps(value)}" for key, value in data.items())
    return "{" + ", ".join(fields) + "}"


def _result_json(result: SuiteResult, engine_call: str | None = None, dialect: dict | None = None) -> dict:
    """One entry of ``"results"``; ``dialect``: the engine's at start-up (the run's
    ``"dialect"``), which its ``"compare"`` holds as compare's object does."""
    entry = result.to_json()
    entry["tags"] = list(result.task.record.tags)
    if result.task.record.variant != "chess":  # the rules its FEN and counts are in (none: chess)
        entry["variant"] = result.task.record.variant
    found = regression(result, engine_call)
    entry["regression"] = regression_view.to_json(found, perft=result.task.record.in_perft_file)
    if result.divide is not None:
        entry["divide"] = result.divide
    if result.report is not None:
        entry["compare"] = _compare_json(result, entry, dialect)
    return entry


def _compare_json(result: SuiteResult, entry: dict, dialect: dict | None) -> dict:
    """compare's object for the descent at a failing position: the report's keys, and those
    ``compare --json`` adds (the dialects, castling spelling, position notes, regression)."""
    data = result.report.to_json()
    if dialect is not None:
        from chesskit.compare.engines.dialects import without_about

        data["dialect"] = without_about(dialect)
        data["dialect_answered"] = result.answered or data["dialect"]
    data["castling_spelling"] = result.castling_spelling
    data["fresh_engine_agrees"] = result.fresh_agrees
    data["position_notes"] = list(entry["notes"])
    data["regression"] = entry["regression"]
    return data


def _depth_span(results: list[SuiteResult]) -> str:
    depths = [r.task.depth for r in results]
    return f"D{min(depths)}" if len(depths) == 1 else f"D{min(depths)}-D{max(depths)}"


def summary(outcome: Outcome) -> str:
    results, failed, errors = outcome.results, outcome.failed, outcome.errors
    positions = len({id(r.task.record) for r in results})
    verdict = "all match" if not failed else f"{len(failed)} FAILED"
    counters = sum(r.stats is not None for r in results)
    with_counters = f" ({counters} with leaf counters)" if counters else ""
    if results:
        head = (
            f"{plural(len(results), 'count')}{with_counters} of {plural(positions, 'position')} checked in "
            f"{format_seconds(outcome.seconds)}: {len(results) - len(failed)} passed, {verdict}"
        )
    else:  # every line bad, or every count an engine error: "0 passed, all match" said the opposite
        head = f"no count checked in {format_seconds(outcome.seconds)}"
    return (
        head
        + (f", {plural(len(outcome.engine_failed), 'engine error')}" if outcome.engine_failed else "")
        + (f", {not_run_what(errors)} not run (errors)" if errors else "")
    )


def position_summary(outcome: Outcome) -> str:
    """The last line: how many positions passed, mismatched, failed in the engine, were
    skipped (every count over the limits) and, when any, were errors (the lines not run:
    refused when the file was read, or when counted; a whole file that cannot be read is
    one) or were not run (--fail-fast)."""
    tally = outcome.tally()
    also = sum(p.status == MISMATCH and p.failure is not None for p in outcome.positions)
    parts = [
        f"{tally[PASSED]} passed",
        f"{tally[MISMATCH]} mismatched" + (f" (the engine then failed on {also})" if also else ""),
        plural(tally[ENGINE_ERROR], "engine error"),
        f"{tally[SKIPPED]} skipped",
    ]
    if outcome.not_run:
        parts.append(plural(outcome.not_run, "error"))
    if tally[NOT_RUN]:
        parts.append(f"{tally[NOT_RUN]} not run (--fail-fast)")
    return f"positions: {', '.join(parts)}"


def mismatch_lines(result: SuiteResult) -> list[str]:
    task = result.task
    if result.counters_only:
        detail = result.stats_text()
    else:
        diff = result.nodes - task.expected
        detail = f"depth {task.depth}: expected {task.expected}, got {result.nodes} ({diff:+d})"
    lines = [f"mismatch: {task.record.label} ({task.record.location})", f"fen: {task.record.shown_fen}", detail]
    if result.fresh_agrees:
        lines.append(
            f"the engine started afresh counts it right ({task.expected}): its count depends on the positions "
            "asked before it (state kept between positions: a hash table not cleared, or keyed without castling "
            "rights or the en-passant square), not on an unmake here; its regression test passes on a fresh engine"
        )
    return lines + cannot_arise_lines(task.record.notes)


def cannot_arise_lines(notes) -> list[str]:
    """The line a mismatch at a position that cannot arise in a game adds: why, and that an
    engine may count it its own way (Stockfish counts one of ``positions/impossible.epd``'s
    otherwise)."""
    if not notes:
        return []
    return [f"this position cannot arise in a game ({notes[0]}): an engine may count it its own way"]


def position_line(group: list[SuiteResult], width: int = 0) -> str:
    """One plain line for a position: ``ok id D1-D4 nodes time`` or its first failure;
    ids are padded to ``width`` so the columns line up."""
    ident = group[0].task.record.label.ljust(width)
    bad = [r for r in group if not r.ok]
    if not bad:
        span = _depth_span(group).ljust(6)
        return f"ok    {ident}  {span}  {group[-1].nodes:>12} nodes  {_seconds(group)}"
    first = bad[0]
    if first.counters_only:
        return f"FAIL  {ident}  {first.stats_text()}"
    return f"FAIL  {ident}  D{first.task.depth}: expected {first.task.expected}, got {first.nodes}"


def regression(result: SuiteResult, engine_call: str | None = None):
    """The mismatch's ``chesskit.compare.regression.Regression`` (at the shallowest failing
    depth of a position, where the divide is): the descent's failing node in an engine run,
    the suite's count where chesskit itself is wrong; None elsewhere."""
    if result.divide is None or result.counters_only:
        return None
    # here, not at the top: it loads compare's engines, which a run of chesskit's own
    # counts never needs (about 0.03 s of every ``suite`` process's start)
    from chesskit.compare.regression import DEFAULT_ENGINE, for_count, from_report

    record = result.task.record
    if result.report is not None:
        return from_report(result.report, record.label, engine_call or DEFAULT_ENGINE)
    found = for_count(record.fen, record.chess960, result.task.depth, result.task.expected, record.label, record.variant)
    if result.engine_error is not None or engine_call is not None:
        # an engine run whose descent found no deeper node (the engine failed in it, or the
        # run was interrupted in it): its test asks the engine for the suite's count here (a
        # test of chesskit's own count would always pass)
        found = dataclasses.replace(found, engine_call=engine_call or DEFAULT_ENGINE)
    return found


def counters_by_move(result: SuiteResult) -> str:
    """The command that splits a counter mismatch's leaf counters by root move."""
    import shlex

    record = result.task.record
    extra = (" --chess960" if record.chess960 else "") + (f" --variant {record.variant}" if record.variant != "chess" else "")
    return f"chesskit divide {shlex.quote(record.shown_fen)} {result.task.depth} --stats{extra}"


def render_plain(outcome: Outcome, engine_call: str | None = None) -> None:
    """After the streamed position lines: each mismatch's divide (a counter mismatch's
    block names the command that splits its counters by move), then the summary."""
    for result in outcome.failed:
        if result.counters_only:
            click.echo()
            click.echo("\n".join(mismatch_lines(result)))
            click.echo(f"the counters by move: {counters_by_move(result)}")
            continue
        if result.divide is None:
            continue
        click.echo()
        click.echo("\n".join(mismatch_lines(result)))
        if result.report is not None:
            click.echo(report_text(result.report), nl=False)
        else:
            click.echo(f"divide at depth {result.task.depth}:")
            click.echo(output.stockfish_divide(result.divide), nl=False)
        found = regression(result, engine_call)
        if found is not None:
            regression_view.echo(found, perft=result.task.record.in_perft_file)
            click.echo()
    click.echo(position_summary(outcome))
    click.echo(summary(outcome))
    by_tags = tag_line(outcome)
    if by_tags is not None:
        click.echo(by_tags)


def failing_records(outcome: Outcome) -> list:
    """The positions that failed: a count mismatched, or the engine failed on them."""
    return [*(r.task.record for r in outcome.failed), *(p.record for p in outcome.engine_failed)]


def tag_line(outcome: Outcome) -> str | None:
    """The failing positions grouped by tag (``chesskit.suites.tags.summary_line``)."""
    return summary_line(failing_records(outcome))


def _seconds(group) -> str:
    return format_seconds(sum(r.seconds for r in group))


def render_terminal(outcome: Outcome, engine_call: str | None = None) -> None:
    from rich.text import Text

    con = output.console()
    skipped = [p for p in outcome.positions if p.status == SKIPPED]
    if outcome.results or outcome.errors or not skipped:
        con.print(_files_table(outcome))
    else:  # no count within the limits: each position and why, not an empty table
        con.print(_positions_table(skipped, "skipped", "bold yellow"))
    if outcome.errors:
        con.print(_errors_table(outcome.errors))
    if outcome.failed:
        con.print(_fails_table(outcome.failed))
    if outcome.engine_failed:
        con.print(_positions_table(outcome.engine_failed, "engine errors", "bold red"))
    for result in outcome.failed:
        if result.divide is not None:
            _divide_panel(con, result)
            regression_view.echo(regression(result, engine_call), terminal=True, perft=result.task.record.in_perft_file)
    bad = outcome.failed or outcome.engine_failed
    style = "bold red" if bad else "bold yellow" if outcome.errors or outcome.nothing else "bold green"
    con.print(Text(position_summary(outcome), style=style))
    con.print(Text(summary(outcome), style=style))
    by_tags = tag_line(outcome)
    if by_tags is not None:
        con.print(Text(by_tags, style=style))


def _positions_table(positions: list[PositionResult], title: str, style: str):
    """Positions with why each is where it is: the engine's errors, those skipped."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", title_style=style)
    for name in ("id", "where", "why"):
        table.add_column(name, overflow="fold")
    for position in positions:
        table.add_row(Text(position.record.label), position.record.location, Text(position.reason or ""))
    return table


def _files_table(outcome: Outcome):
    from rich.table import Table
    from rich.text import Text

    errors = outcome.errors
    files: dict = defaultdict(list)
    for result in outcome.results:
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
    return table


def _errors_table(errors: list[LineError]):
    from rich.table import Table
    from rich.text import Text

    lines = Table(title="lines not run", title_justify="left", title_style="bold yellow")
    for name in ("where", "id", "why"):
        lines.add_column(name, overflow="fold")
    for error in errors:
        lines.add_row(Text(error.location), Text(error.id or ""), Text(error.message))
    return lines


def _fails_table(failed: list[SuiteResult]):
    from rich.table import Table
    from rich.text import Text

    fails = Table(title="mismatches", title_justify="left", title_style="bold red")
    for name in ("id", "depth", "expected", "actual", "difference", "where"):
        fails.add_column(name, justify="left" if name in ("id", "where") else "right", overflow="fold")
    for r in failed:
        if r.counters_only:
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
    return fails


def _divide_panel(con, result: SuiteResult) -> None:
    from rich.columns import Columns
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    lines = mismatch_lines(result)
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
