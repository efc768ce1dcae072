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

from dataclasses import dataclass, field
from typing import Callable, Protocol

from chesskit.compare.classify import MoveNote, classify_moves, state_hint
from chesskit.errors import EngineError


class Divider(Protocol):
    def divide(self, fen: str, depth: int, moves: list[str], chess960: bool = False) -> dict[str, int]: ...


@dataclass
class Step:
    """One node of the descent: both divides of ``path`` at ``depth``."""

    path: list[str]
    depth: int
    ours: dict[str, int]
    theirs: dict[str, int]

    def differing(self) -> list[str]:
        """Moves whose counts differ or that one side lacks: ours in our order, then theirs."""
        moves = [m for m in self.ours if self.ours[m] != self.theirs.get(m)]
        return moves + [m for m in self.theirs if m not in self.ours]

    def to_json(self) -> dict:
        return {
            "path": list(self.path),
            "depth": self.depth,
            "ours": dict(self.ours),
            "theirs": dict(self.theirs),
        }


@dataclass
class StateMismatch:
    """The engine's state differs from ours after ``op`` (``push``/``pop``/``set_fen``/``walk``) of ``move``."""

    path: list[str]  # moves from POSITION to the node whose state is compared
    fen: str  # our FEN of that node
    op: str
    move: str | None
    field: str  # placement, turn, castling, ep, halfmove, fullmove, or walk
    ours: object
    theirs: object
    hint: str = ""


@dataclass
class Report:
    """The outcome of a comparison; ``kind`` None means the engine agrees."""

    position_fen: str  # POSITION as given to the engine
    chess960: bool
    depth: int
    engine: str
    steps: list[Step] = field(default_factory=list)
    kind: str | None = None  # None, "moves" or "state"
    path: list[str] = field(default_factory=list)
    fen: str = ""
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    notes: list[MoveNote] = field(default_factory=list)
    state: StateMismatch | None = None
    state_checked: int = 0  # pushes whose full state was compared

    @property
    def agree(self) -> bool:
        return self.kind is None

    def to_json(self) -> dict:
        state = self.state
        return {
            "agree": self.agree,
            "kind": self.kind,
            "path": list(self.path),
            "fen": self.fen,
            "missing": list(self.missing),
            "extra": list(self.extra),
            "field": state.field if state else None,
            "ours": state.ours if state else None,
            "theirs": state.theirs if state else None,
            "steps": [step.to_json() for step in self.steps],
            # beyond the schema: how the state mismatch arose, and the classification
            "op": state.op if state else None,
            "move": state.move if state else None,
            "hint": state.hint if state else None,
            "notes": [note.to_json() for note in self.notes],
        }

    def summary(self) -> str:
        """One line: what was found where."""
        where = " ".join(self.path) or "(start)"
        if self.agree:
            return f"{self.engine} agrees with chesskit at depth {self.depth}"
        if self.kind == "moves":
            parts = []
            if self.missing:
                parts.append(f"misses {' '.join(self.missing)}")
            if self.extra:
                parts.append(f"generates illegal {' '.join(self.extra)}")
            return f"{self.engine} {' and '.join(parts)} after {where} ({self.fen})"
        state = self.state
        if state.field == "walk":
            return f"{self.engine} counts {where} differently when reached by make/unmake ({self.fen})"
        after = f" after {state.op} {state.move}" if state.move else f" after {state.op}"
        return (
            f"{self.engine} state differs{after} at {where}: {state.field} "
            f"ours {shown_value(state.ours)}, theirs {shown_value(state.theirs)}"
        )


def shown_value(value: object) -> str:
    """A state field's value as the FEN writes it: ``-`` for none (no Python reprs)."""
    return "-" if value is None else str(value)


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
    board = board.copy()
    prefix = list(prefix)
    chess960 = bool(board.chess960)
    report = Report(position_fen, chess960, depth, engine_name, fen=board.fen(), path=list(prefix))

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
        ours = board.divide(d)
        theirs = engine.divide(position_fen, d, prefix + path, chess960)
        step = Step(prefix + path, d, ours, theirs)
        report.steps.append(step)
        if on_step is not None:
            on_step(step)
        here = prefix + path
        if ours.keys() != theirs.keys():
            report.kind = "moves"
            report.path, report.fen = here, board.fen()
            report.missing = [m for m in ours if m not in theirs]
            report.extra = sorted(m for m in theirs if m not in ours)
            report.notes = classify_moves(board, report.missing, report.extra)
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
            return _walk_report(report, board, here, ours, expected)
        # descend into the differing move with the smallest subtree: cheapest to chase
        move = min(differing, key=lambda m: ours[m])
        expected = theirs[move]
        board.push(move)
        path.append(move)
        d -= 1


def _state_report(report: Report, mismatch: StateMismatch) -> Report:
    report.kind = "state"
    report.state = mismatch
    report.path, report.fen = list(mismatch.path), mismatch.fen
    if not mismatch.hint:
        mismatch.hint = state_hint(mismatch)
    return report


def _walk_report(report: Report, board, here: list[str], ours: dict[str, int], expected: int) -> Report:
    """The engine's own numbers disagree: its parent's divide vs. its divide of this node."""
    total = sum(ours.values())
    report.state = StateMismatch(
        path=here,
        fen=board.fen(),
        op="walk",
        move=here[-1] if here else None,
        field="walk",
        ours=total,
        theirs=expected,
    )
    return _state_report(report, report.state)
