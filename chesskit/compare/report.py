"""What a descent finds: its steps, a state mismatch, and the report that holds them
(``chesskit.compare.descent`` fills it from divides, ``chesskit.compare.totals`` from an
engine's totals); the JSON and one-line texts of each."""

from __future__ import annotations

from dataclasses import dataclass, field

from chesskit.compare.classify import DEPTH_SHIFT, MoveNote, state_hint


@dataclass
class Step:
    """One node of the descent: both divides of ``path`` at ``depth``."""

    path: list[str]
    depth: int
    ours: dict[str, int]
    theirs: dict[str, int]
    # a total-only engine: its own total here (``theirs`` then holds its direct
    # answers below each of our moves, or nothing at depth 1 and at the start)
    theirs_total: int | None = None

    def engine_total(self) -> int:
        return sum(self.theirs.values()) if self.theirs_total is None else self.theirs_total

    def differing(self) -> list[str]:
        """Moves whose counts differ or that one side lacks: ours in our order, then theirs."""
        if self.theirs_total is not None and not self.theirs:
            return []  # a total only: no move to point at
        moves = [m for m in self.ours if self.ours[m] != self.theirs.get(m)]
        return moves + [m for m in self.theirs if m not in self.ours]

    def to_json(self) -> dict:
        return {
            "path": list(self.path),
            "depth": self.depth,
            "ours": dict(sorted(self.ours.items())),  # by move, as every divide chesskit prints
            "theirs": dict(sorted(self.theirs.items())),
            **({} if self.theirs_total is None else {"theirs_total": self.theirs_total}),
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
    # a total-only engine (see chesskit.compare.totals): what its counts tell about the move lists
    total_only: bool = False
    move_counts: dict | None = None  # {"chesskit": n, "engine": m} where the lists differ
    inferred: bool = False  # the missing moves were inferred from its counts
    unnamed_missing: int = 0  # moves it misses that its counts cannot name
    unnamed_extra: int = 0  # illegal moves it generates (totals never name them)
    # the moves that leave the king in check here, when they are just as many: the likely ones
    likely_extra: list[str] = field(default_factory=list)
    # POSITION as chesskit counted it, where that differs from what the engine was given
    # (a FEN that cannot arise in a game, sent as typed: see ``compare --engine-fen``)
    chesskit_fen: str = ""
    variant: str = "chess"  # the rules compared (a canonical name of chesskit.variants)
    # the step whose node, given to the engine as a FEN alone, still fails (its regression
    # line's: ``descent.reproducing_step``); None: not looked for (the deepest differing step)
    regression_step: int | None = None
    # 1 where that step's move lists differ and depth 1 there still fails for the engine
    # (``descent.reproducing_depth``); None: the step's own depth
    regression_depth: int | None = None
    # the engine failed (crashed, hung, printed nonsense) at ``failed_depth`` of the node where
    # this report's descent starts, and this difference was found asking shallower depths
    # there (``descent._shallower``): the failure, as the error said it
    engine_failure: str | None = None
    failed_depth: int | None = None

    @property
    def counted_fen(self) -> str:
        """POSITION as chesskit counted it (before --moves)."""
        return self.chesskit_fen or self.position_fen

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
            # which FEN of POSITION each side counted (they differ for a FEN given as typed
            # that chesskit reads otherwise: an impossible en-passant square or castling right)
            "engine_fen": self.position_fen,
            "chesskit_fen": self.counted_fen,
            "engine_failure": self.engine_failure,
            **(self._totals_json() if self.total_only else {}),
            # the rules compared, for a variant only (standard chess's object is unchanged)
            **({"variant": self.variant} if self.variant != "chess" else {}),
        }

    def _totals_json(self) -> dict:
        return {
            "total_only": True,
            "move_counts": self.move_counts,
            "inferred": self.inferred,
            "unnamed_missing": self.unnamed_missing,
            "unnamed_extra": self.unnamed_extra,
            "likely_extra": list(self.likely_extra),
        }

    def summary(self) -> str:
        """One line: what was found where."""
        found = self._found()
        if self.failed_depth is not None:
            found += f" (found at depth {self.depth}: at depth {self.failed_depth} the engine failed)"
        return found

    def _found(self) -> str:
        where = " ".join(self.path) or "(start)"
        if self.agree:
            return f"{self.engine} agrees with chesskit at depth {self.depth}"
        if self.kind == "moves":
            parts = []
            if self.missing:
                parts.append(f"misses {' '.join(self.missing)}")
            if self.extra:
                parts += _extra_words(self.extra)
            if self.inferred:
                parts[-1] += " (inferred from its totals)"
            if self.unnamed_missing:
                parts.append(f"misses {_moves(self.unnamed_missing)} its totals cannot name")
            if self.unnamed_extra:
                parts.append(f"generates {_moves(self.unnamed_extra, 'illegal ')} its totals cannot name")
            text = f"{self.engine} {' and '.join(parts)} after {where} ({self.fen})"
            if any("cannot arise" in note.kinds for note in self.notes):  # vclassify.cannot_arise
                text += ": a start position that cannot arise, where the oracles disagree (docs/variants.md)"
            return text
        state = self.state
        if state.field == "walk" and state.hint.startswith(DEPTH_SHIFT):
            said = state.hint[len("the engine's ") :].split(",")[0]
            return f"{self.engine} counts fewer plies than asked: its {said}"
        if state.field == "walk":
            return f"{self.engine} counts {where} differently when reached by make/unmake ({self.fen})"
        after = f" after {state.op} {state.move}" if state.move else f" after {state.op}"
        return (
            f"{self.engine} state differs{after} at {where}: {state.field} "
            f"ours {shown_value(state.ours)}, theirs {shown_value(state.theirs)}"
        )


def _extra_words(extra: list[str]) -> list[str]:
    """``generates illegal e1e2``, ``generates e2e4 twice``, ``generates a null move (0000)``."""
    from chesskit.compare.engines.base import NULL_MOVE, TWICE

    illegal = [m for m in extra if m != NULL_MOVE and not m.endswith(TWICE)]
    words = [f"generates illegal {' '.join(illegal)}"] if illegal else []
    words += [f"generates {m[: -len(TWICE)]} twice" for m in extra if m.endswith(TWICE)]
    return words + (["generates a null move (0000)"] if NULL_MOVE in extra else [])


def _moves(n: int, kind: str = "") -> str:
    return f"{n} {kind}move{'' if n == 1 else 's'}"


def shown_value(value: object) -> str:
    """A state field's value as the FEN writes it: ``-`` for none (no Python reprs)."""
    return "-" if value is None else str(value)


def _state_report(report: Report, mismatch: StateMismatch) -> Report:
    report.kind = "state"
    report.state = mismatch
    report.path, report.fen = list(mismatch.path), mismatch.fen
    if not mismatch.hint:
        mismatch.hint = state_hint(mismatch)
    return report
