"""``chesskit fuzz``: generate positions until an engine's perft disagrees, then shrink the finding."""

from __future__ import annotations

import contextlib
import math
import random
import time

import click

from chesskit import __version__
from chesskit.cli import output, signals
from chesskit.cli.html_out import check_writable, html_option, write_fuzz
from chesskit.cli.engine_options import EngineOptions, engine_dialect, engine_options, note_dialect
from chesskit.cli.regression_view import engine_call
from chesskit.cli.options import json_option, parse_count, parse_depth, variant_option
from chesskit.cli.run_options import fail_fast_option, position_timeout_option
from chesskit.errors import ChesskitError, EngineError, InputError, MismatchError
from chesskit.suites.guard import parse_position_timeout
from chesskit.typed import plain_float, plain_int
from chesskit.words import plural

DEFAULT_POSITIONS = 1000  # when neither --positions nor --time is given
# what --time leaves the positions when the engine's start took it all (none is then compared: bad input)
MIN_SECONDS_LEFT = 0.001
MAX_FUZZ_DEPTH = 10


@click.command()
@engine_options
@click.option("--depth", "depth", metavar="D", default="2", show_default=True,
              help="Compare the divides at depths 1..D of every position (cheapest first).")
@click.option("--seed", metavar="N", help="Seed of the position generator (default: drawn and printed).")
@click.option("--time", "seconds", metavar="SECONDS",
              help="Stop after this many seconds (no question is asked that is not expected to end in "
                   "them; one asked is waited for: an engine that hangs then takes the run past it by at "
                   "most --timeout or --position-timeout).")
@click.option("--positions", metavar="N",
              help=f"Stop after N positions (default {DEFAULT_POSITIONS} when --time is not given either).")
@click.option("--chess960/--no-chess960", "chess960", default=None,
              help="Only Chess960 positions / only standard ones (default: both).")
@variant_option
@click.option("--save", metavar="FILE",
              help="Append the shrunk position to this suite file (an EPD line; in a .perft file, a block), with chesskit's counts to depth 3.")
@position_timeout_option
@fail_fast_option
@html_option
@json_option
def fuzz(
    depth: str,
    seed: str | None,
    seconds: str | None,
    positions: str | None,
    chess960: bool | None,
    variant: str,
    save: str | None,
    position_timeout: str | None,
    fail_fast: bool,
    html_path: str | None,
    as_json: bool,
    engine_opts: EngineOptions,
) -> None:
    """Search for a position where an engine's perft disagrees with chesskit's.

    Positions come from random play, random placements with unusual material, positions
    steered to special cases (en passant, castling, promotions, checks, pins) and mutated
    suite positions, from one seeded generator (under --variant only random play in it:
    give more positions). Each is compared at depths 1..--depth; the first difference is
    chased to the exact node with compare's descent, shrunk (pieces, castling rights, the
    en-passant square and the move path removed while it stays; under --variant rerooted
    along the path) and reported like compare, with the seed and the generated position.

    --time bounds the whole run, shrinking included: a depth whose estimated cost does not
    fit in the time left is not started, and shrinking keeps what it has when time runs
    out. A finding is shown before it is saved; if --save then fails the run still exits 1.
    Ctrl-C while shrinking shows and saves the smallest position so far, then exits 130;
    before shrinking, its one line names the position that differs.

    An engine that crashes, hangs (--timeout for one answer, --position-timeout for all of
    one position) or prints what cannot be read fails that position only: it is listed
    with the position, the engine is restarted and the run goes on (--fail-fast: stops);
    one that cannot play Chess960 fails one such position, then only standard ones are tried.
    The first position it crashed on is shrunk after the run unless a difference is found;
    with --time the positions then stop with a quarter of it left for that.

    Exit codes: 0 nothing differs within the bounds, 1 a finding, 2 bad input, 3 the engine
    failed (on any position), 4 out of memory, 130 interrupted.
    """
    from chesskit.fuzz.run import fuzz as run_fuzz
    from chesskit.fuzz.save import check_save_path

    depth_n = parse_depth(depth, minimum=1, name="--depth")
    if depth_n > MAX_FUZZ_DEPTH:
        raise InputError(f"bad --depth {depth!r}: at most {MAX_FUZZ_DEPTH} (every position is counted to it)")
    seed_n = _parse_seed(seed)
    limit_positions, limit_seconds = _limits(positions, seconds)
    per_position = parse_position_timeout(position_timeout)
    if save is not None:
        check_save_path(save, engine_opts.input_files())
    check_writable(html_path, engine_opts.input_files(), others={"--save": save})
    rules, chess960 = _fuzz_rules(variant, chess960)
    eng = engine_opts.open(variant)
    if not as_json:
        played = f" in {rules['variant']}{'960' if chess960 else ''}" if rules else ""
        click.echo(f"fuzz: seed {seed_n} against {eng.name}{played}, depths 1-{depth_n}, {_bounds(limit_positions, limit_seconds)}")
    try:
        spoken, started, limit_seconds = _started(eng, limit_seconds)
        with _progress(limit_positions, limit_seconds) as (advance, shrinking), _json_if_interrupted(as_json):
            run = run_fuzz(
                eng,
                seed_n,
                depth_n,
                max_positions=limit_positions,
                max_seconds=limit_seconds,
                chess960=chess960,
                on_progress=advance,
                on_shrink=shrinking,
                on_crash=None if as_json else _tell_crash,
                position_timeout=per_position,
                fail_fast=fail_fast,
                **rules,
            )
    finally:
        eng.close()
    note_dialect(spoken, as_json, eng)
    _check_compared(run, started)
    failure = _shown_and_written(run, save, as_json, spoken, engine_opts, eng, html_path)
    _verdict(run, failure, chess960)


def _fuzz_rules(variant: str, chess960: bool | None) -> tuple[dict[str, str], bool | None]:
    """``({"variant": canonical name} or {} for standard chess, chess960)``: a 960 form
    (``atomic960``) asks for Chess960 positions; a variant's are standard-castling
    positions unless asked."""
    from chesskit.variants import check_960, find

    found, c960 = find(variant)
    if chess960:
        check_960(found, variant)  # racingkings, antichess: no castling, no Chess960 form
    if c960 and chess960 is False:
        # the 960 form asks for Chess960 positions, --no-chess960 for standard ones: neither
        # may win silently (the 960 form did)
        raise InputError(
            f"--variant {variant} and --no-chess960 contradict each other: {variant} plays Chess960 "
            "positions only; give one of them"
        )
    if found.name == "chess":
        return {}, True if c960 else chess960
    return {"variant": found.name}, bool(c960 or chess960)


def _limits(positions: str | None, seconds: str | None) -> tuple[int | None, float | None]:
    """--positions and --time as numbers (DEFAULT_POSITIONS when neither is given)."""
    limit_positions = None if positions is None else parse_count(positions, "--positions", least=1)
    limit_seconds = None if seconds is None else _parse_seconds(seconds)
    if limit_positions is None and limit_seconds is None:
        limit_positions = DEFAULT_POSITIONS
    return limit_positions, limit_seconds


def _started(eng, limit_seconds: float | None) -> tuple[object, float, float | None]:
    """Start ``eng`` and find its dialect: (the dialect, the seconds that took, what is left of
    ``--time``: it bounds the whole run, the engine's start too)."""
    began = time.monotonic()
    spoken = engine_dialect(eng)
    started = time.monotonic() - began
    if limit_seconds is not None:
        limit_seconds = max(limit_seconds - started, MIN_SECONDS_LEFT)
    return spoken, started, limit_seconds


def _check_compared(run, started: float) -> None:
    """A run that compared no position is bad input: "ok: 0 positions agreed" would pass a
    CI run that checked nothing."""
    if run.positions == 0 and not run.crashes:
        # the rest of --time went to the first position's depths, which were not expected to
        # fit (it said only the start, "took 0.0 s of it", where --depth 5 did not fit)
        raise InputError(
            f"no position was compared within --time: the engine's start (its dialect found) took {started:.1f} s "
            f"of it, and the first position's depth {run.depth} was not expected to finish in what was left (estimated "
            "from its shallower depths, with time kept for a descent); give a longer --time or a smaller --depth"
        )


def _verdict(run, failure: str | None, chess960: bool | None) -> None:
    """Raise what the run ends with: the engine's failures (exit 3), the finding (1), Ctrl-C
    while shrinking (130), or nothing; ``failure``: why --save failed."""
    from chesskit.fuzz.run import crash_error

    finding = run.finding
    if run.crashes and not (finding is not None and finding.shrunk.interrupted):
        crashed = crash_error(run, chess960)
        if finding is None:
            raise crashed
        raise EngineError(f"{crashed}; and {finding.report.summary()} (position {finding.index})")
    if finding is None:
        return
    where = f"{finding.report.summary()} (fuzz seed {run.seed}, position {finding.index})"
    if finding.fresh_agrees:  # the one line a CI log keeps read as a move generation bug (QA 42b D4)
        where += "; the engine started afresh agrees there: its answer depends on the positions asked before"
    if finding.shrunk.interrupted:
        if failure is not None:
            raise _Stopped(failure)
        raise signals.Interrupted(signals.interrupted_signal(), f"while shrinking the finding shown (fuzz seed {run.seed}, position {finding.index})")
    if failure is not None:
        raise MismatchError(f"{where}; the finding is shown above but {failure}")
    raise MismatchError(where)


class _Stopped(ChesskitError):
    """Ctrl-C while shrinking, and --save failed too: the interrupt's exit code, the save's words."""

    def __init__(self, failure: str):
        self.exit_code = 128 + int(signals.interrupted_signal())
        super().__init__(f"{signals.interrupt_message(signals.interrupted_signal())}; the finding is shown above but {failure}")


def _shown_and_written(run, save: str | None, as_json: bool, spoken, engine_opts, eng, html_path: str | None) -> str | None:
    """``_show_and_save``, then the --html report: written if stdout was closed too (``|
    head``: the run is done), before the exit 141."""
    try:
        return _show_and_save(run, save, as_json, spoken, engine_call(engine_opts), eng)
    finally:
        write_fuzz(html_path, run, engine_call(engine_opts))


def _show_and_save(run, save: str | None, as_json: bool, spoken, call: str, eng=None) -> str | None:
    """Show the run, and save a finding to ``save``: the finding is shown before the save is
    tried (on a terminal or a pipe) or whatever the save does (JSON, which names the id), so
    a save that fails (a removed folder, a full disk) or is interrupted never loses it.
    ``spoken``: the engine's dialect found at its start; ``eng``, the engine, tells the one
    that answered the run's last questions (Sjaak II's UCI totals once a Chess960 position
    came: compare's and suite's ``"dialect_answered"``). Returns why the save failed, or None."""
    from chesskit.suites.session import answered_dialect

    spoken = (spoken, answered_dialect(spoken, eng))
    if run.finding is None or save is None:
        _show(run, as_json, None, spoken, call)
        return None
    if not as_json:
        _show(run, False, None, spoken, call)
    saved = failure = None
    held = False
    try:
        saved, held = _save(save, run)
    except InputError as err:
        failure = str(err)
    finally:
        if as_json:
            _show(run, True, saved, spoken, call)
    if saved is not None and not as_json:
        click.echo(f"already in {save} as {saved!r}: not saved again" if held else f"saved as {saved!r} in {save}")
    return failure


def _parse_seed(text: str | None) -> int:
    if text is None:
        return random.SystemRandom().randrange(1, 10**9)
    value = plain_int(text)
    if value is None or value < 0:
        raise InputError(f"bad --seed {text!r}: must be a non-negative integer")
    return value


def _parse_seconds(text: str) -> float:
    value = plain_float(text)
    if value is None or not (value > 0 and math.isfinite(value)):
        raise InputError(f"bad --time {text!r}: must be a positive number of seconds")
    return value


def _bounds(positions: int | None, seconds: float | None) -> str:
    parts = []
    if positions is not None:
        parts.append(f"up to {positions} position{'' if positions == 1 else 's'}")
    if seconds is not None:
        parts.append(f"up to {seconds:g} s")
    return " and ".join(parts)


def _save(path: str, run) -> tuple[str, bool]:
    """Append the shrunk position to ``path``; returns the id it got, and whether the file
    held it already (then nothing is appended)."""
    from chesskit.fuzz.save import SAVE_DEPTH, append_lines, is_perft_suite, rules_at_end, saved_as, suite_lines, unused_id

    finding = run.finding
    report = finding.report
    ident = unused_id(path, f"fuzz-{run.seed}")
    depth = max(SAVE_DEPTH, finding.smallest_depth)
    perft = is_perft_suite(path)
    # a standard position in a file read in a variant's rules (its name, a .perft variant line) says so
    named = report.variant == "chess" and rules_at_end(path, perft) != "chess"
    lines = suite_lines(finding.smallest_fen, report.chess960, ident, depth, report.variant, perft, named)
    held = saved_as(path, lines)
    if held is not None:
        return held, True
    what = report.summary() if not finding.shrunk.interrupted else f"divides differ at depth {finding.smallest_depth}"
    comment = (
        f"# chesskit fuzz --seed {run.seed} (position {finding.index}, {finding.start.source}): "
        f"{what}; D1-D{depth} counted by chesskit {__version__}"
    )
    append_lines(path, [comment, *lines])
    return ident, False


# ------------------------------------------------------------------ progress


@contextlib.contextmanager
def _progress(positions: int | None, seconds: float | None):
    """``(advance(positions, nodes, elapsed), shrinking(state))`` driving a bar on a terminal's stderr."""
    if not output.stderr_is_terminal():
        yield (lambda *args: None), (lambda state: None)
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[tried]} positions, {task.fields[nodes]} nodes"),
        TimeRemainingColumn(),
        console=output.console(stderr=True),
        transient=True,
    )
    by_time = positions is None
    with bar:
        task = bar.add_task("fuzz", total=seconds if by_time else positions, tried=0, nodes=0)

        def advance(tried: int, nodes: int, elapsed: float) -> None:
            done = elapsed if by_time else tried
            if seconds is not None and not by_time:
                done = max(tried, positions * min(1.0, elapsed / seconds))
            bar.update(task, completed=done, tried=tried, nodes=f"{nodes:,}")

        def shrinking(state) -> None:
            bar.update(task, description=f"shrinking ({state.tried} tried)")

        yield advance, shrinking


# ------------------------------------------------------------------ output


def header_lines(run) -> list[str]:
    """What fuzz adds to compare's report: seed, counts, where the finding started and ended."""
    finding = run.finding
    start = finding.start
    lines = [
        f"FOUND after {finding.index} position{'' if finding.index == 1 else 's'} "
        f"({run.nodes:,} nodes compared), seed {run.seed}",
        f"generated ({start.source}{', Chess960' if start.chess960 else ''}): {finding.shown(start.fen)}",
        f"first seen: depth {finding.depth}, path {' '.join(finding.first.path) or '(start)'}, fen {finding.first.fen}",
    ]
    if finding.was_shrunk and finding.shrunk.interrupted:
        lines.append(
            f"shrunk so far ({plural(finding.shrunk.tried, 'candidate')} tried): {finding.shown(finding.smallest_fen)}"
            f" ({_pieces(start.fen)} -> {_pieces(finding.smallest_fen)} pieces; its divides differ at depth"
            f" {finding.smallest_depth}; the report below is of the generated position)"
        )
    elif finding.was_shrunk:
        lines.append(
            f"shrunk ({plural(finding.shrunk.tried, 'candidate')} tried): {finding.shown(finding.position_fen)}"
            f" ({_pieces(start.fen)} -> {_pieces(finding.position_fen)} pieces)"
        )
    else:
        lines.append("shrunk: nothing could go")
    if finding.shrunk.error:
        lines.append(f"shrinking stopped: {finding.shrunk.error}")
    if finding.fresh_agrees:
        lines.append(
            "the engine started afresh agrees here: its answer depends on the positions it was asked "
            "before (state it keeps between positions: castling rights, an en-passant square, a hash table)"
        )
    return lines


def _pieces(fen: str) -> int:
    return sum(ch.isalpha() for ch in fen.split()[0])


@contextlib.contextmanager
def _json_if_interrupted(as_json: bool):
    """``--json`` of a run stopped before a finding (Ctrl-C, a CI job's SIGTERM): the run so
    far, with suite's ``"interrupted"`` key (it printed nothing: QA 42a)."""
    try:
        yield
    except KeyboardInterrupt as err:
        run = getattr(err, "fuzz_run", None)
        if as_json and run is not None:
            _emit_interrupted(run, err)
        raise


def _emit_interrupted(run, err: KeyboardInterrupt) -> None:
    from chesskit.cli.signals import interrupt_message, interrupted_signal
    from chesskit.fuzz.run import run_json

    data = run_json(run)
    differs = getattr(err, "fuzz_differs", None)  # stopped in the descent of a difference found
    if differs is not None:
        data.update({"agree": False, "start_fen": differs})
    output.emit_json({**data, "interrupted": interrupt_message(interrupted_signal())})


def _tell_crash(crash) -> None:
    """A position the engine failed on, shown as it happens (a run that a CI job's time
    limit ends has shown it; shrinking, after the run, is added at the end)."""
    click.echo(crash_line(crash))
    crash.told = True


def crash_line(crash) -> str:
    """``ERROR position 7 (random play): FEN: why``: a position the engine failed on (its
    FEN left out where ``why`` quotes it), and how it was shrunk. Where the first line was
    shown as it happened (``told``), the lines of its shrinking alone, naming the position."""
    from chesskit.compare.engines.base import unless_quoted

    reason, fen = crash.failure.reason, crash.shown(crash.start.fen)
    lines = [] if crash.told else [f"ERROR position {crash.index} ({crash.start.source}){unless_quoted(reason, fen, f': {fen}')}: {reason}"]
    indent = f"ERROR position {crash.index} " if crash.told else "  "
    shrunk = crash.shrunk
    if shrunk is not None and shrunk.fen != crash.start.fen:
        lines.append(f"{indent}shrunk ({plural(shrunk.tried, 'candidate')} tried): {crash.shown(shrunk.fen)} (the engine still fails at depth {shrunk.depth})")
    if shrunk is not None and shrunk.error:
        lines.append(f"{indent}shrinking stopped: {shrunk.error}")
    return "\n".join(lines)


def agreed_line(run) -> str:
    if run.crashes:
        agreed = run.positions - len(run.crashes)
        return (
            f"{agreed:,} of {run.positions:,} positions and {run.nodes:,} nodes agreed at depths 1-{run.depth} in "
            f"{run.seconds:.1f} s (seed {run.seed}); the engine failed on {len(run.crashes):,}"
        )
    return (
        f"ok: {run.positions:,} position{'' if run.positions == 1 else 's'} and {run.nodes:,} nodes agreed at "
        f"depths 1-{run.depth} in {run.seconds:.1f} s (seed {run.seed})"
    )


def _show(run, as_json: bool, saved: str | None, dialects=(None, None), call: str | None = None) -> None:
    from chesskit.cli import compare_render, regression_view
    from chesskit.compare.engines.dialects import without_about
    from chesskit.compare.regression import from_report
    from chesskit.fuzz.run import run_json

    found = None if run.finding is None else from_report(run.finding.report, run.report_id, call)
    if as_json:
        data = run_json(run)
        data["saved"] = saved
        data["regression"] = regression_view.to_json(found)
        dialect, answered = dialects
        if dialect is not None:  # as compare gives them
            data["dialect"] = without_about(dialect)
            data["dialect_answered"] = without_about(answered or dialect)
        output.emit_json(data)
        return
    for crash in run.crashes:
        if line := crash_line(crash):
            click.echo(line)
    if run.finding is None:
        click.echo(agreed_line(run))
        return
    lines = header_lines(run)
    if output.stdout_is_terminal():
        from rich.text import Text

        con = output.console()
        for i, line in enumerate(lines):
            con.print(Text(line, style="bold red" if i == 0 else "dim"))
        con.print()
        compare_render.render_terminal(run.finding.report, con)
        regression_view.echo(found, terminal=True)
    else:
        click.echo("\n".join(lines) + "\n")
        click.echo(compare_render.plain_text(run.finding.report), nl=False)
        regression_view.echo(found)
