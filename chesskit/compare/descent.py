"""The automatic descent: from two disagreeing perft counts to the node where the move lists differ.

Given our ``Board`` and an external engine (anything with
``divide(fen, depth, moves, chess960)``, see ``chesskit.compare.engines``), ``descend`` asks
both for the divide of the same node::

    depth D   at the start node: take a root move whose counts differ
              (or that only one side lists: the move lists differ right here)
    depth D-1 one move deeper: the same again ...

until the move lists themselves differ.  At depth 1 a divide *is* the move list,
so a descent always ends by depth 1: either the lists differ somewhere on the way
(kind ``"moves"``: the engine misses legal moves or generates illegal ones), or
every list agrees all the way down although the counts above did not.  The latter
means the engine counts a node differently when it reaches it by make/unmake
from its parent than when it is asked about it directly: its unmake does not
restore the state (kind ``"state"``, field ``"walk"``).

For a Python adapter with ``fen()`` a ``StateChecker`` (``chesskit.compare.statecmp``)
also compares the full state after every push and pop: first in a bounded sweep
from the start node, then along every node the descent visits.  A state mismatch
is the likelier root cause, so it ends the descent.

Paths are UCI moves from POSITION: the ``--moves`` prefix comes first, so playing
``path`` from POSITION always gives ``fen``.  Pure logic: no click, no rich.
"""

from __future__ import annotations

import time
from typing import Callable, Protocol

from chesskit.compare.classify import classify_moves, depth_shift_hint, listing_note, pseudo_legal_hint
from chesskit.compare.engines.base import CANNOT_PLAY_960, UCI_MOVE, answers_by_totals, unless_quoted
from chesskit.compare.rows import our_divide, settle_zero_rows
from chesskit.compare.report import Report, StateMismatch, Step, _state_report, shown_value  # noqa: F401 (re-exported)
from chesskit.compare.totals import descend_totals
from chesskit.errors import EngineError, EngineNotStarted


class Divider(Protocol):
    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]: ...


def descend(
    board,
    engine: Divider,
    depth: int,
    position_fen: str,
    prefix: list[str] = (),
    checker=None,
    engine_name: str = "engine",
    on_step: Callable[[Step], None] | None = None,
) -> Report:
    """Walk down from ``board`` (POSITION + ``prefix``) to the first node where the move lists differ.

    ``engine.divide`` is always called as ``(position_fen, d, prefix + path, chess960)``.
    ``checker`` (a ``chesskit.compare.statecmp.StateChecker``) adds the full-state comparison.
    ``board`` is left as it was given.
    """
    if depth < 1:
        raise ValueError(f"descend needs depth >= 1, got {depth!r}")
    asked = _Asked(engine)
    try:
        try:
            report = _descend(board, asked, depth, position_fen, prefix, checker, engine_name, on_step)
        except EngineError as err:
            report = _shallower(board, asked, position_fen, prefix, engine_name, on_step, err)
        if not report.agree:
            report.regression_step = reproducing_step(report, asked)
            report.regression_depth = reproducing_depth(report, asked)
        return report
    except EngineError as err:
        raise located(err, asked.node, position_fen, bool(board.chess960), board.variant) from None
    except KeyboardInterrupt as err:  # Ctrl-C, a CI job's SIGTERM: where the descent had got to
        if (asked.last is not None or checker is not None) and not getattr(err, "__notes__", None):
            err.add_note(_stopped_at(asked, position_fen, board))
        err.compare_report = asked.partial  # its steps so far (``compare --json`` prints them)
        raise


def _shallower(board, asked: "_Asked", position_fen: str, prefix, engine_name: str, on_step, err: EngineError) -> Report:
    """The engine failed (``err``) at depth D of a node: ask it that node at depths 1 to D - 1,
    started afresh, and report the first that differs. An engine with a move generation bug
    (a king stepping next to the other) often crashes deep in perft, where the illegal move
    shows a ply or two down: the failure alone said nothing of it. A failure at a shallower
    depth is raised instead (the shallowest found); agreeing at every one, ``err`` is raised,
    saying so."""
    node = asked.node
    if node is None or node[1] < 2 or err.path is not None or isinstance(err, EngineNotStarted) or CANNOT_PLAY_960 in str(err):
        raise err
    moves, failed_depth = node
    failed = located(err, node, position_fen, bool(board.chess960), board.variant)
    above = asked.partial.steps if asked.partial is not None else []
    asked.failed = (failed_depth, err)
    asked.engine.close()  # its process ended: the next question starts it afresh
    here = board.copy()
    for move in moves[len(prefix) :]:
        here.push(move)
    for depth in range(1, failed_depth):
        try:
            report = _descend(here, asked, depth, position_fen, moves, None, engine_name, on_step)
        except EngineError as shallow:  # the shallowest failure is the one to reproduce
            raise _also(located(shallow, asked.node, position_fen, bool(board.chess960), board.variant), f"asked after it failed at depth {failed_depth} there") from None
        if not report.agree:
            report.engine_failure, report.failed_depth = str(failed), failed_depth
            report.steps[:0] = above  # how the descent reached the failing node (QA 42c)
            return report
    shallower = "depth 1" if failed_depth == 2 else f"depths 1-{failed_depth - 1}"
    raise _also(failed, f"it agrees with chesskit at {shallower} there{_differed_above(above, moves)}")


def _differed_above(steps, moves: list[str]) -> str:
    """What the descent had found above a failing node it went down to: its parent's count
    of the move that leads there differed (the node's shallower depths agreeing does not
    make the engine right: QA 42c)."""
    if not steps or len(steps[-1].path) >= len(moves):
        return ""
    step = steps[-1]
    move = moves[len(step.path)]
    where = f"after {' '.join(step.path)}" if step.path else "at the start position"
    return (
        f", but its divide at depth {step.depth} {where} had counted {move} {step.theirs.get(move)} "
        f"where chesskit counts {step.ours.get(move)}"
    )


def _also(err: EngineError, said: str) -> EngineError:
    """``err`` (its class and where it happened kept) with ``; said`` after its words."""
    err.args = (f"{err}; {said}",)
    return err


def _stopped_at(asked: "_Asked", position_fen: str, board) -> str:
    """Where an interrupted descent was: the node of its last question, and who was counting."""
    if asked.last is None:  # the state check comes first (``checker.sweep``)
        return "compare stopped in its state check (the engine's position after pushes and pops), before any count"
    moves, depth = asked.last
    if moves:
        where, fen = node_named(moves, position_fen, bool(board.chess960), board.variant)
        where = f"compare's descent stopped at depth {depth} {where} (fen {fen}), where the counts differ"
    else:
        where = f"compare stopped at the start position's depth {depth}"
    if asked.failed is not None:  # asking the shallower depths of a failure (QA 42c)
        where += f", asked there after the engine failed at depth {asked.failed[0]} ({asked.failed[1]})"
    if asked.node is None:
        return f"{where}, while chesskit counted"
    return f"{where}, while the engine counted ({time.monotonic() - asked.since:.1f} s)"


def reproducing_step(report: Report, engine) -> int | None:
    """The deepest step whose counts differ and whose node, given to the engine as a FEN
    with no moves (as its regression line and test give it), still gets a count other than
    chesskit's; None when no count differs. A bug that needs the moves played to the node
    (a castling right kept after its rook was taken: a fresh FEN has no such right) passes
    at that node's FEN, so the line goes up to the first node that still fails, at worst
    the position itself, which the engine was given as a FEN."""
    from chesskit.compare.engines.base import node_board

    for index in reversed(range(len(report.steps))):
        step = report.steps[index]
        ours = sum(step.ours.values())
        if ours == step.engine_total():
            continue
        if not step.path:
            return index
        node = node_board(report.position_fen, step.path, report.chess960, report.variant)
        try:
            if _fresh_count(engine, node.fen(), step.depth, report.chess960) != ours:
                return index
        except EngineError:  # it fails there too, by an error: the line fails as well
            return index
    return None


def reproducing_depth(report: Report, engine) -> int | None:
    """1 when the regression's step (``regression_step``) is a node whose move lists differ,
    deeper than 1, and the engine given that node's FEN alone counts its moves otherwise than
    chesskit: a missing or extra move shows at depth 1 there, in a line and a test as short
    as they get (the full depth of a root whose lists differ gave a line of thousands of
    nodes); else None (the step's own depth). One more question, of depth 1."""
    from chesskit.compare.engines.base import node_board

    if report.regression_step is None:
        return None
    step = report.steps[report.regression_step]
    if step.depth <= 1 or step.theirs_total is not None or set(step.ours) == set(step.theirs):
        return None
    node = node_board(report.position_fen, step.path, report.chess960, report.variant)
    try:
        if _fresh_count(engine, node.fen(), 1, report.chess960) == len(step.ours):
            return None  # its move count is right when asked alone: the full depth shows it
    except EngineError:
        return None  # a failure at depth 1 is no count to assert: the step's own line stays
    return 1


def _fresh_count(engine, fen: str, depth: int, chess960: bool) -> int:
    """The engine's count of ``fen`` given alone: its perft, or its divide's sum for an
    engine with a divide only (``Divider``)."""
    if hasattr(getattr(engine, "engine", engine), "perft"):
        return engine.perft(fen, depth, [], chess960)
    return sum(engine.divide(fen, depth, [], chess960).values())


class _Asked:
    """The engine, remembering the node of the question it was last asked (``node``:
    ``(moves, depth)``), so that a failure can say where it happened."""

    def __init__(self, engine):
        self.engine = engine
        self.node: tuple[list[str], int] | None = None
        self.last: tuple[list[str], int] | None = None  # the node of the last question, answered or not
        self.since = 0.0  # when the question in hand was asked
        self.partial: Report | None = None  # the report being made, its steps so far
        self.failed: tuple[int, EngineError] | None = None  # a failure whose shallower depths are being asked

    def __getattr__(self, name: str):
        return getattr(self.engine, name)

    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]:
        self._asking(moves, depth)
        answer = self.engine.divide(fen, depth, moves, chess960)
        self.node = None
        return answer

    def perft(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> int:
        self._asking(moves, depth)
        answer = self.engine.perft(fen, depth, moves, chess960)
        self.node = None
        return answer

    def _asking(self, moves: list[str], depth: int) -> None:
        self.node = self.last = (list(moves), depth)
        self.since = time.monotonic()


def node_named(moves: list[str], position_fen: str, chess960: bool, variant: str) -> tuple[str, str]:
    """How a node of the descent is named, ``after e2e4 e7e5`` or ``at the start position``,
    and its FEN as the engine was given it."""
    from chesskit.board.board import Board

    board = Board(position_fen, chess960=True if chess960 else None, variant=variant)
    # a position that cannot arise reaches the engine as given, not as chesskit reads it
    # (without a castling right whose rook is missing, say): the FEN quoted is the one that
    # failed, and a node below it is named from it
    as_given = bool(board.notes)
    for move in moves:
        board.push(move)
    where = f"after {' '.join(moves)}" if moves else "at the start position"
    if moves and as_given:
        where += f" from {position_fen}"
    # a Chess960 node in Shredder-FEN: X-FEN's KQkq would read as standard chess (all that
    # an engine failing with "cannot play Chess960" can play), and so ask another question
    return where, position_fen if as_given and not moves else board.shown_fen()


def located(
    err: EngineError, node: tuple[list[str], int] | None, position_fen: str, chess960: bool, variant: str = "chess"
) -> EngineError:
    """``err`` saying at which node (``(moves, depth)``) of the descent the engine failed:
    ``...; it failed at depth 2 after e2e4 e7e5 (fen ...)``. Unchanged when the node is
    not known (it failed outside a question of the descent) or ``err`` already says it, or
    when the engine could not be started at all (no node is at fault)."""
    if node is None or err.path is not None or isinstance(err, EngineNotStarted):
        return err
    moves, depth = node
    where, fen = node_named(moves, position_fen, chess960, variant)
    named = unless_quoted(str(err), fen, f" (fen {fen})")
    # the error's own class kept (a suite's PositionTimeout is its JSON's ``timed_out``)
    if CANNOT_PLAY_960 in str(err):  # a capability it lacks, refused before any count: no finding at a depth
        found = type(err)(f"{err}; asked {where}{named}")
    else:
        found = type(err)(f"{err}; it failed at depth {depth} of compare's descent, {where}{named}")
    found.path, found.depth, found.fen = list(moves), depth, fen
    return found


def _descend(board, engine, depth, position_fen, prefix, checker, engine_name, on_step) -> Report:
    board = board.copy()
    prefix = list(prefix)
    chess960 = bool(board.chess960)
    report = Report(position_fen, chess960, depth, engine_name, fen=board.shown_fen(), path=list(prefix))
    report.variant = getattr(board, "variant", "chess")
    if isinstance(engine, _Asked):  # the steps so far, for a failure to name (``_shallower``)
        engine.partial = report
    if answers_by_totals(engine, position_fen, chess960):  # known before the first question
        return descend_totals(board, engine, depth, position_fen, prefix, report, on_step)

    if checker is not None:
        mismatch = checker.sweep(max_depth=depth)
        report.state_checked = checker.pushes
        if mismatch is not None:
            return _state_report(report, mismatch)

    path: list[str] = []
    expected: int | None = None  # the engine's count for this node, as its parent's divide gave it
    d = depth
    while True:
        if checker is not None and path:
            mismatch = checker.check_node(path)
            report.state_checked = checker.pushes
            if mismatch is not None:
                return _state_report(report, mismatch)
        ours, theirs = settle_zero_rows(our_divide(board, d), engine.divide(position_fen, d, prefix + path, chess960), d)
        step = Step(prefix + path, d, ours, theirs)
        report.steps.append(step)
        if on_step is not None:
            on_step(step)
        here = prefix + path
        if ours.keys() != theirs.keys():
            report.kind = "moves"
            report.path, report.fen = here, board.shown_fen()
            report.missing = [m for m in ours if m not in theirs]
            report.extra = sorted(m for m in theirs if m not in ours)
            # an extra move in SAN that no legal move matches stays as the engine wrote it;
            # a null move or a move listed twice is noted as such
            report.notes = classify_moves(board, report.missing, [m for m in report.extra if UCI_MOVE.fullmatch(m)])
            report.notes += [note for note in map(listing_note, report.extra) if note is not None]
            if not here and report.variant != "chess":  # a start position whose game is over
                from chesskit.compare.vclassify import cannot_arise

                report.notes = cannot_arise(report.notes, board.notes)
            return report
        if d == 1:
            odd = {m: n for m, n in theirs.items() if n != 1}
            if odd:
                shown = ", ".join(f"{m}: {n}" for m, n in list(odd.items())[:3])
                raise EngineError(
                    f"engine {engine_name!r} answered a depth-1 divide with counts other than 1 ({shown})"
                )
        differing = step.differing()
        if not differing:
            if expected is None:  # the start node: they agree
                return report
            return _walk_report(report, board, here, ours, expected, d)
        # descend into the differing move with the smallest subtree: cheapest to chase
        move = min(differing, key=lambda m: ours[m])
        expected = theirs[move]
        board.push(move)
        path.append(move)
        d -= 1


def _walk_report(report: Report, board, here: list[str], ours: dict[str, int], expected: int, depth: int) -> Report:
    """The engine's own numbers disagree: its parent's divide vs. its divide of this node
    (``depth`` plies of it). At depth 1 the parent's count may be the node's pseudo-legal
    moves, a bulk count that tests no legality: the hint says so (``classify``)."""
    total = sum(ours.values())
    hint = _depth_shift_hint(report, board)
    if not hint and depth == 1 and board.variant == "chess":
        hint = pseudo_legal_hint(board.setup(), total, expected)
    report.state = StateMismatch(
        path=here,
        fen=board.shown_fen(),
        op="walk",
        move=here[-1] if here else None,
        field="walk",
        ours=total,
        theirs=expected,
        hint=hint,
    )
    return _state_report(report, report.state)


def _depth_shift_hint(report: Report, board) -> str:
    """The hint for an engine that counts another depth than it is asked (``go perft N``
    parsed or applied off by one, or N ignored): its divide of the start node at depth D is
    chesskit's at a shallower depth, move by move. Its divides then agree at depth 1 below
    a node it counted wrong from its parent, which reads as an unmake that does not restore
    the state; else ""."""
    first = report.steps[0]
    if first.depth < 2 or len(first.theirs) < 2:  # one move's count says too little
        return ""
    root = board.copy()
    for _ in range(len(report.steps) - 1):
        root.pop()
    for depth in range(first.depth - 1, 0, -1):
        if root.divide(depth) == first.theirs:
            return depth_shift_hint(first.depth, depth)
    return ""
