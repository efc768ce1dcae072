"""The fuzzing loop: generate, compare cheapest first, descend, shrink, descend again.

For each generated position the engine's divide is compared with chesskit's at depth 1,
then 2, ... up to ``depth`` (a difference at depth 1 costs one move list); an engine that
answers perft with a total only has its totals compared, and compare's descent asks it
for the counts below each move.  At the first
difference compare's ``descend`` walks to the failing node, ``shrink`` cuts the position
down, and a second descent from the shrunk root gives the report.  Nothing here prints:
the CLI renders the ``FuzzRun``.

``max_seconds`` bounds the whole run, shrinking included (``chesskit.fuzz.deadline``): a
position whose next depth would not fit is not counted and ends the run; a finding is
always reported, shrunk as far as the time allowed.  Once the engine has crashed on a
position that will be shrunk, the positions stop with ``Deadline.crash_reserve`` left, the
time for shrinking it (it is shrunk after them).  Ctrl-C while shrinking keeps the
finding, shrunk so far (``stopped_by == "interrupted"``): the CLI shows and saves it.
"""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from chesskit.board.board import Board
from chesskit.board.fen import parse_fen, shown_fen
from chesskit.compare.descent import Report, descend
from chesskit.compare.engines.base import CANNOT_PLAY_960, unless_quoted
from chesskit.errors import EngineError
from chesskit.fuzz.deadline import Deadline, OutOfTime
from chesskit.fuzz.shrink import Shrunk, differs, shrink
from chesskit.fuzz.sources import Generated, PositionStream
from chesskit.suites.guard import Clocked, EngineFailure, restart, start_again


@dataclass
class Finding:
    index: int  # which position (1-based) showed it
    start: Generated  # the generated position where it was first seen
    depth: int  # the first depth at which the start position's divides differ
    first: Report  # compare's descent from the start position
    shrunk: Shrunk
    report: Report  # compare's descent from the shrunk position: what is shown
    # whether a fresh engine process, asked the shown root first, agrees with chesskit there
    # (True: the difference came from what it was asked before, state it keeps between
    # positions); None when not asked (interrupted, out of time, the engine failed)
    fresh_agrees: bool | None = None

    @property
    def was_shrunk(self) -> bool:
        return self.shrunk.fen != self.start.fen

    @property
    def position_fen(self) -> str:
        """The shown report's root: the shrunk position, or, when Ctrl-C came before its
        descent, the generated one (``path`` leads from it to the report's node)."""
        return self.report.position_fen

    def shown(self, fen: str) -> str:
        """``fen`` (the start or the shrunk root) as the text and JSON show it: Shredder-FEN
        in Chess960 (``chesskit.board.fen.shown_fen``)."""
        return shown_fen(fen, self.start.chess960, self.report.variant)

    @property
    def smallest_fen(self) -> str:
        """The smallest position found whose divides differ (at ``smallest_depth``): the
        shown root, or, when Ctrl-C stopped shrinking, the position shrunk so far, which
        ``--save`` keeps."""
        return self.shrunk.fen if self.shrunk.interrupted else self.report.position_fen

    @property
    def smallest_depth(self) -> int:
        return self.shrunk.depth if self.shrunk.interrupted else self.report.depth


@dataclass
class Crash:
    """A generated position the engine failed on (crashed, hung, exited, printed nonsense)."""

    index: int  # which position (1-based)
    start: Generated
    failure: EngineFailure
    shrunk: Shrunk | None = None  # the smallest position that still crashes it (the first crash)
    variant: str = "chess"  # the rules (a canonical name of chesskit.variants)
    # whether the engine started afresh fails on the position shown (the shrunk one, else
    # the generated one); None when not asked (only the shrunk crash is)
    fresh_fails: bool | None = None
    told: bool = False  # shown as it happened (the command's text output): the end adds its shrinking

    def shown(self, fen: str) -> str:
        """``fen`` (the start or the shrunk one) as the text and JSON show it: Shredder-FEN
        in Chess960 (``chesskit.board.fen.shown_fen``)."""
        return shown_fen(fen, self.start.chess960, self.variant)

    def to_json(self) -> dict:
        shrunk = self.shrunk
        return {
            "position": self.index,
            "fen": self.shown(self.start.fen),
            "chess960": self.start.chess960,
            "source": self.start.source,
            **self.failure.to_json(),
            "shrunk_fen": None if shrunk is None or self.fresh_fails is False else self.shown(shrunk.fen),
            "shrunk_depth": None if shrunk is None else shrunk.depth,
            "shrink_tried": 0 if shrunk is None else shrunk.tried,
            "shrink_error": None if shrunk is None else shrunk.error,
            "fresh_engine_fails": self.fresh_fails,
        }


@dataclass
class FuzzRun:
    seed: int
    depth: int
    positions: int  # positions tried (the failing one included)
    nodes: int  # leaf nodes whose counts were compared (chesskit's side)
    seconds: float
    finding: Finding | None = None
    # "positions", "time", "finding", "interrupted" (while shrinking) or "engine-error" (fail_fast)
    stopped_by: str = "positions"
    crashes: list[Crash] = field(default_factory=list)  # the positions the engine failed on
    # the position after which only standard ones were tried: the engine cannot play Chess960
    chess960_dropped_at: int | None = None
    variant: str = "chess"  # the rules (a canonical name)
    # "king-takes-rook" or "king-to-square": how the engine spelled castling (compare's key)
    castling_spelling: str | None = None

    @property
    def agree(self) -> bool:
        """No finding (``crashes`` may still hold positions the engine failed on)."""
        return self.finding is None

    @property
    def report_id(self) -> str:
        """The id of the shown report's regression line: ``fuzz-SEED``, as ``--save`` names
        the shrunk position; ``fuzz-SEED-generated`` when Ctrl-C stopped shrinking, the
        report then being of the generated position and the saved line of another."""
        finding = self.finding
        interrupted = finding is not None and finding.shrunk.interrupted and finding.was_shrunk
        return f"fuzz-{self.seed}" + ("-generated" if interrupted else "")


def fuzz(
    engine,
    seed: int,
    depth: int = 2,
    max_positions: int | None = None,
    max_seconds: float | None = None,
    chess960: bool | None = None,
    suite_fens: list[tuple[str, bool]] | None = None,
    on_progress: Callable[[int, int, float], None] | None = None,
    on_shrink: Callable[[Shrunk], None] | None = None,
    on_crash: Callable[[Crash], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    position_timeout: float | None = None,
    fail_fast: bool = False,
    variant: str = "chess",
) -> FuzzRun:
    """Try positions until a difference is found or a bound is reached (at least one bound is needed).

    The engine failing on a position (crashed, hung past its timeout or ``position_timeout``
    seconds for the whole position, printed what cannot be read) is that position's result:
    it is kept in ``FuzzRun.crashes`` and handed to ``on_crash`` as it happens (a run
    stopped from outside has shown it), the engine is restarted and the run goes on
    (``fail_fast``: stops there). In a ``variant`` (a canonical name; the engine is set to
    it already) the positions come from random play in it (``chesskit.fuzz.vplay``) and a
    finding is shrunk by rerooting only."""
    if max_positions is None and max_seconds is None:
        raise ValueError("fuzz needs max_positions or max_seconds")
    if depth < 1:
        raise ValueError(f"fuzz needs depth >= 1, got {depth!r}")
    stream = _stream(seed, chess960, suite_fens, variant)
    began = clock()
    deadline = Deadline(max_seconds, clock)
    run = FuzzRun(seed, depth, 0, 0, 0.0, variant=variant)
    name = getattr(engine, "name", "engine")
    restarted = False
    with _told_seed(run, lambda: clock() - began):
        for generated in stream:
            if max_positions is not None and run.positions >= max_positions:
                run.stopped_by = "positions"
                break
            reserve = deadline.crash_reserve() if _to_shrink(run, variant) else 0.0  # kept to shrink it
            if deadline.bounded and deadline.left() <= reserve:
                run.stopped_by = "time"
                break
            run.positions += 1
            found, compared = None, []
            try:
                if restarted:  # its start is not the position's: --position-timeout bounds answers
                    restarted = False
                    start_again(engine)
                clocked = Clocked(engine, position_timeout, clock)
                board = _board(generated.fen, generated.chess960, variant)
                found = differs(
                    clocked, generated.fen, generated.chess960, depth, _adder(run, compared), board, deadline, reserve
                )
                if found is not None:
                    with _told_where(run.positions, seed, found, generated, variant):
                        run.finding = _chase(clocked, name, run.positions, generated, board, found, on_shrink, deadline, variant)
                    run.stopped_by = "interrupted" if run.finding.shrunk.interrupted else "finding"
                    break
            except OutOfTime:  # its next depth would not end in time: it was not compared in full
                run.positions -= 1
                run.stopped_by = "time"
                break
            except EngineError as err:  # on a depth compared, or in the descent of a difference
                at = found if found is not None else len(compared) + 1
                if _engine_failed(run, engine, generated, EngineFailure.of(err, at), stream, chess960, on_crash) or fail_fast:
                    run.stopped_by = "engine-error"
                    break
                restarted = True
            if on_progress is not None:
                on_progress(run.positions, run.nodes, clock() - began)
    if run.finding is None and (crash := _to_shrink(run, variant)) is not None:
        _shrink_crash(engine, crash, position_timeout, on_shrink, deadline)
    run.seconds = clock() - began
    run.castling_spelling = getattr(engine, "castling_spelling", None)
    return run


def _engine_failed(run: FuzzRun, engine, generated, failure: EngineFailure, stream, chess960: bool | None, on_crash) -> bool:
    """Keep the engine's failure on ``generated`` (told to ``on_crash``) and restart it; True
    when the run must stop (it could not be started at all: every other position would fail the same)."""
    run.crashes.append(Crash(run.positions, generated, failure, variant=run.variant))
    if on_crash is not None:
        on_crash(run.crashes[-1])
    if failure.not_started:  # a fault of its command (missing, not executable)
        return True
    if chess960 is None and run.variant == "chess" and generated.chess960 and CANNOT_PLAY_960 in failure.reason:
        # every other Chess960 position with castling rights would fail the same way:
        # the rest of the run tries standard positions (the failure still counts)
        stream.chess960 = False
        run.chess960_dropped_at = run.positions
    restart(engine)
    return False


def _adder(run: FuzzRun, compared: list[int]) -> Callable[[int], None]:
    def add(nodes: int) -> None:
        run.nodes += nodes
        compared.append(nodes)

    return add


def _to_shrink(run: FuzzRun, variant: str) -> Crash | None:
    """The crash shrunk after the positions (when no difference is found): the first where
    the engine failed at once (``crashed``), in standard chess; a hang or an engine that
    cannot play Chess960 before it is passed over, not a reason to shrink none."""
    if variant != "chess":
        return None
    return next((crash for crash in run.crashes if crashed(crash.failure)), None)


def crashed(failure: EngineFailure) -> bool:
    """Whether the engine failed at once (a crash, an exit, an exception, an answer it
    cannot give), so that smaller positions can be tried quickly: not a hang, which costs
    a timeout per try (the back ends' words: ``did not answer/finish ... within N s``), nor
    an engine that could not be started, which fails whatever the position, nor one that
    cannot play Chess960, which any Chess960 position with castling rights shows as well."""
    return (
        not failure.timed_out
        and not failure.not_started
        and _HANG.search(failure.reason) is None
        and CANNOT_PLAY_960 not in failure.reason
    )


_HANG = re.compile(r"did not (answer|finish) .* within [0-9.e+]+ s")


def _shrink_crash(engine, crash: Crash, position_timeout, on_shrink, deadline: Deadline) -> None:
    """Shrink the position that crashed the engine, as a difference is shrunk (pieces,
    castling rights, the en-passant square): a candidate is kept when the engine still
    fails on it (restarted after each failure). What time allows; never raises.

    The engine is started afresh and asked the position first, and the shrunk one last: a
    failure that depends on the positions asked before (state kept between them, a counter
    running out) is not shrunk, and a shrunk position that a fresh engine answers is not
    given as the reproducer (QA 40b #1: "still fails" where it did not)."""

    def still_fails(engine, fen, chess960, depth, count=None, board=None, deadline=None, keep=0.0):
        reached: list[int] = []
        try:
            differs(Clocked(engine, position_timeout), fen, chess960, depth, reached.append, None, deadline, keep)
        except EngineError:
            restart(engine)
            return len(reached) + 1
        return None

    stopped = []  # Ctrl-C during a fresh engine's question: nothing more is asked

    def fresh_fails(fen: str, depth: int) -> bool | None:
        if (deadline.bounded and deadline.left() <= 0) or not callable(getattr(engine, "close", None)):
            return None
        restart(engine)
        try:
            start_again(engine)
            return still_fails(engine, fen, start.chess960, depth, deadline=deadline) is not None
        except (EngineError, OutOfTime, KeyboardInterrupt) as err:
            restart(engine)
            if isinstance(err, KeyboardInterrupt):
                stopped.append(err)
            return None

    start = crash.start
    depth = crash.failure.depth or 1
    crash.fresh_fails = fresh_fails(start.fen, depth)
    if crash.fresh_fails is False or stopped:
        why = "interrupted before shrinking" if stopped else _STATEFUL
        crash.shrunk = Shrunk(start.fen, depth, start.chess960, 0, 0, error=why, interrupted=bool(stopped))
        return
    shrunk = shrink(engine, start.fen, start.chess960, depth, [], on_shrink, deadline, still_fails)
    if shrunk.fen != start.fen and not shrunk.interrupted:
        again = fresh_fails(shrunk.fen, shrunk.depth)
        if again is False:  # a candidate failed only for what was asked before it
            shrunk = replace(shrunk, fen=start.fen, depth=depth, error=f"{shrunk.fen} failed only in the run, not on a fresh engine: the generated position is kept")
        elif again is not None:
            crash.fresh_fails = again
    crash.shrunk = shrunk


_STATEFUL = "a fresh engine answers this position: its failure depends on the positions it was asked before (state kept between them)"


def _board(fen: str, chess960: bool, variant: str) -> Board:
    if variant == "chess":
        return Board(fen, chess960=chess960)
    return Board(fen, chess960=chess960 or None, variant=variant)


def _stream(seed: int, chess960: bool | None, suite_fens, variant: str):
    """The positions to try: standard chess's and Chess960's sources, or a variant's play."""
    if variant == "chess":
        return PositionStream(seed, chess960, suite_fens)
    from chesskit.fuzz.vplay import VariantStream

    return VariantStream(seed, variant, bool(chess960))


@contextlib.contextmanager
def _told_seed(run: FuzzRun, seconds: Callable[[], float]):
    """A Ctrl-C with no finding yet says how far the run got and its seed, to repeat it,
    and the positions the engine failed on so far (a CI job's time limit lost them: they
    are shown at the end); one inside a finding says where (``_told_where``). The run so
    far goes with it (``fuzz_run``, its ``seconds`` up to now: ``--json`` prints it)."""
    try:
        yield
    except KeyboardInterrupt as err:
        run.seconds = seconds()
        err.fuzz_run = run
        if not getattr(err, "__notes__", None):
            tried = f"{run.positions} position{'s' * (run.positions != 1)}"
            note = f"{tried} of seed {run.seed} tried, no difference found yet"
            if run.crashes:
                first = run.crashes[0]
                note += (
                    f"; the engine failed on {len(run.crashes)} of them (first: position {first.index}, "
                    f"{first.shown(first.start.fen)}: {first.failure.reason})"
                )
            err.add_note(note)
        raise


@contextlib.contextmanager
def _told_where(index: int, seed: int, depth: int, generated: Generated, variant: str):
    """A Ctrl-C before a finding is shown says where it is: a note on the KeyboardInterrupt
    (the command's one line shows it)."""
    try:
        yield
    except KeyboardInterrupt as err:
        fen = shown_fen(generated.fen, generated.chess960, variant)
        err.fuzz_differs = fen  # --json: the run so far did not agree
        # before the descent's own note (where it had got to)
        err.__notes__ = [f"position {index} of seed {seed} differs at depth {depth}: {fen}", *getattr(err, "__notes__", ())]
        raise


def _chase(
    engine,
    name: str,
    index: int,
    generated: Generated,
    board: Board,
    depth: int,
    on_shrink,
    deadline: Deadline,
    variant: str = "chess",
) -> Finding:
    """Descend from the generated position, shrink, and descend from the shrunk one. Each
    descent's POSITION is the FEN the report shows (Shredder-FEN in Chess960), so that its
    ``position:`` line and ``engine_fen`` write the castling rights as the rest does."""
    first = descend(board, engine, depth, shown_fen(generated.fen, generated.chess960, variant), engine_name=name)
    if first.agree:
        raise EngineError(
            f"engine {name!r} gave different divides of the same position at depth {depth} when asked twice"
        )
    shrunk = shrink(engine, generated.fen, generated.chess960, depth, first.path, on_shrink, deadline, variant=variant)
    report = first
    if shrunk.fen != generated.fen and not shrunk.interrupted:
        try:
            again = descend(
                _board(shrunk.fen, shrunk.chess960, variant),
                engine,
                shrunk.depth,
                shown_fen(shrunk.fen, shrunk.chess960, variant),
                engine_name=name,
            )
        except KeyboardInterrupt:  # shown from the first descent; the shrunk position is saved
            shrunk.error = f"interrupted after {shrunk.tried} candidates"
            shrunk.interrupted = True
        else:
            if not again.agree:
                report = again
    fresh = None if shrunk.interrupted else _fresh_agrees(engine, report, variant, deadline)
    return Finding(index, generated, depth, first, shrunk, report, fresh)


def _fresh_agrees(engine, report: Report, variant: str, deadline: Deadline) -> bool | None:
    """Whether the engine, started afresh and asked the report's root first, agrees with
    chesskit there at the report's depth: an engine whose answer depends on the positions
    it was asked before (rights or an en-passant square kept, a hash table keyed without
    them) fails only in the run. None when that could not be asked (time, a failure, Ctrl-C,
    an engine object that cannot be restarted)."""
    if (deadline.bounded and deadline.left() <= 0) or not callable(getattr(engine, "close", None)):
        return None
    restart(engine)
    try:
        board = _board(report.position_fen, report.chess960, variant)
        return differs(engine, report.position_fen, report.chess960, report.depth, None, board, deadline) is None
    except (EngineError, OutOfTime, KeyboardInterrupt):
        return None


def crash_error(run: FuzzRun, chess960: bool | None = None) -> EngineError:
    """The error that sums up the positions the engine failed on (exit 3): how many, and
    the first one's seed, position, FEN and reason."""
    first = run.crashes[0]
    reason, fen = first.failure.reason, first.shown(first.start.fen)
    about_960 = first.start.chess960 and chess960 is None and CANNOT_PLAY_960 in reason
    hint = "; --no-chess960 leaves Chess960 positions out" if about_960 else ""
    if run.chess960_dropped_at is not None:
        hint = f"; only standard positions were tried after position {run.chess960_dropped_at}{hint}"
    where = unless_quoted(reason, fen, f": {fen}")
    many = f"the engine failed on {len(run.crashes)} of {run.positions} positions; first: " if len(run.crashes) > 1 else ""
    shrunk = next((crash for crash in run.crashes if crash.shrunk is not None), None)  # after a hang: a later one
    if shrunk is not None and shrunk.shrunk.fen != shrunk.start.fen:
        which = "" if shrunk is first else f"position {shrunk.index} "
        where += f"; {which}shrunk: {shrunk.shown(shrunk.shrunk.fen)}"
    return EngineError(f"{many}{reason} (fuzz seed {run.seed}, position {first.index}{where}{hint})")


def run_json(run: FuzzRun) -> dict:
    """compare's JSON object of the shown report, plus the fuzzer's keys."""
    finding = run.finding
    if finding is not None:
        data = finding.report.to_json()
    else:
        data = Report("", False, run.depth, "").to_json()
        data["fen"] = data["engine_fen"] = data["chesskit_fen"] = None  # no node, no position: null, not ""
    # compare's key for why a position cannot arise: fuzz only generates reachable ones
    data["position_notes"] = (
        list(parse_fen(finding.report.position_fen, finding.report.chess960, variant=finding.report.variant).notes)
        if finding
        else []
    )
    data.update(
        {
            "seed": run.seed,
            "depth": run.depth,
            "positions": run.positions,
            "nodes": run.nodes,
            "seconds": round(run.seconds, 6),
            "start_fen": finding.shown(finding.start.fen) if finding else None,
            "shrunk": bool(finding and finding.was_shrunk),
            # beyond the schema: where the position came from and how it was shrunk
            "source": finding.start.source if finding else None,
            "position_fen": finding.shown(finding.position_fen) if finding else None,
            # the smallest position whose divides differ, and at which depth: position_fen,
            # or where Ctrl-C stopped shrinking (not descended from; --save keeps it)
            "shrunk_fen": finding.shown(finding.smallest_fen) if finding else None,
            "shrunk_depth": finding.smallest_depth if finding else None,
            "first_path": list(finding.first.path) if finding else [],
            "first_fen": finding.first.fen if finding else None,
            "fresh_engine_agrees": finding.fresh_agrees if finding else None,
            "shrink_tried": finding.shrunk.tried if finding else 0,
            "shrink_error": finding.shrunk.error if finding else None,
            "engine_errors": [crash.to_json() for crash in run.crashes],
            "chess960_dropped_at": run.chess960_dropped_at,
            "castling_spelling": run.castling_spelling,
        }
    )
    if run.variant != "chess":  # as compare's object, with or without a finding
        data["variant"] = run.variant
    return data
