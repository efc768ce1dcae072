"""The explorer's state, shared by the full-screen app and the line-mode REPL: where it stands
(a path of moves from the root, a depth), the divides there, and how they differ.

    root        POSITION (+ --moves, the ``prefix``), as a Board; the engine is always
                asked about ``position_fen`` + ``prefix`` + ``path``, as ``compare`` asks
    path        moves played from the root; ``child`` appends one, ``parent`` takes it back
    depth       the divide's depth at this node; ``child`` lowers it by one (never below 1),
                ``parent`` gives back the depth that node had
    divide      chesskit's count per move and, with an engine, the engine's; each ``Row`` says
                whether the two agree, differ, or only one side has the move (``missing``:
                the engine lacks a legal move; ``extra``: the engine has one chesskit lacks)

Counting (``divide``, ``counters``, ``descend``) takes a ``Node`` and never changes where
the explorer stands, so the app can run it on a worker thread while the user moves on; a
``threading.Event`` passed as ``cancel`` stops it at the next progress report (``Cancelled``),
and ``abort_engine`` ends an engine's answer at once. An engine that fails is closed and
opened afresh for the next question, so one crash never ends the session. No UI here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import Callable

from chesskit.compare.engines.base import UCI_MOVE, answers_by_totals
from chesskit.compare.rows import settle_zero_rows
from chesskit.errors import EngineError, InputError
from chesskit.explore.san import find_move, loose_moves, path_labels, san

from chesskit.compare.statecmp import SWEEP_PUSHES

# from this depth chesskit's divide is counted in parts, with progress reports
PARTS_DEPTH = 4


class Cancelled(Exception):
    """A count was cancelled (Esc in the app)."""


@dataclass(frozen=True)
class Node:
    """A place in the tree: the moves from the root and the divide's depth there."""

    path: tuple[str, ...]
    depth: int


@dataclass(frozen=True)
class Row:
    """One move of a divide: chesskit's count, the engine's (None: not known), and how they compare."""

    move: str
    san: str
    ours: int | None
    theirs: int | None
    # None (no engine answer to compare with), "same", "differs", "missing" (the engine
    # lacks this legal move) or "extra" (the engine lists a move chesskit does not)
    status: str | None

    @property
    def marked(self) -> bool:
        return self.status not in (None, "same")


@dataclass
class Divide:
    """The divides at one node. ``theirs`` is None without an engine answer; a total-only
    engine gives ``theirs_total`` and, below depth 1, its direct count below each move."""

    node: Node
    fen: str
    ours: dict[str, int]
    sans: dict[str, str] = field(default_factory=dict)
    theirs: dict[str, int] | None = None
    theirs_total: int | None = None
    engine_error: str | None = None

    @property
    def by_move(self) -> bool:
        """Whether the engine's counts are per move (a total-only engine at depth 1 has only a total)."""
        return self.theirs is not None and not (self.theirs_total is not None and not self.theirs)

    def rows(self) -> list[Row]:
        """Every move either side lists, in UCI order."""
        theirs = self.theirs if self.by_move else {}
        rows = []
        for move in sorted(set(self.ours) | set(theirs)):
            ours, other = self.ours.get(move), theirs.get(move)
            rows.append(Row(move, self.sans.get(move, ""), ours, other, self._status(ours, other)))
        return rows

    def _status(self, ours: int | None, theirs: int | None) -> str | None:
        if not self.by_move:
            return None
        if theirs is None:
            # a total-only engine is only asked about chesskit's moves: none is missing
            return None if self.theirs_total is not None else "missing"
        if ours is None:
            return "extra"
        return "same" if ours == theirs else "differs"

    @property
    def total(self) -> int:
        return sum(self.ours.values())

    @property
    def engine_total(self) -> int | None:
        if self.theirs_total is not None:
            return self.theirs_total
        return None if self.theirs is None else sum(self.theirs.values())

    @property
    def agree(self) -> bool | None:
        """None without an engine answer."""
        if self.theirs is None:
            return None
        return self.engine_total == self.total and not any(row.marked for row in self.rows())

    def missing(self) -> list[str]:
        return [row.move for row in self.rows() if row.status == "missing"]

    def extra(self) -> list[str]:
        return [row.move for row in self.rows() if row.status == "extra"]


class Explorer:
    """Where the explorer stands and what it has counted (see the module docstring)."""

    def __init__(
        self,
        board,
        depth: int,
        position_fen: str | None = None,
        open_engine: Callable[[], object] | None = None,
        threads: int = 1,
        state_pushes: int = SWEEP_PUSHES,
    ):
        self._open_engine = open_engine
        self._engine = None
        self._lock = threading.Lock()  # guards self._engine
        self._asking = threading.Lock()  # one question to the engine at a time
        self.engine_name: str | None = None
        self.threads = threads
        self.state_pushes = state_pushes  # for a Python adapter with fen(), as compare's --state-pushes
        self.set_root(board, position_fen, depth)

    # ------------------------------------------------------------ where it stands

    def set_root(self, board, position_fen: str | None = None, depth: int | None = None) -> None:
        """Start again from ``board`` (its move stack is the prefix the engine is given)."""
        self.root = board.copy()
        self.prefix = list(board.move_stack)
        self.position_fen = position_fen or board.fen()
        self.notes = list(board.notes)
        self.path: list[str] = []
        self.depth = self.depth if depth is None else _depth(depth)
        self._depths: list[int] = []  # the depth at each node above this one
        self._divides: dict[Node, Divide] = {}
        self._counters: dict[Node, dict] = {}

    @property
    def node(self) -> Node:
        return Node(tuple(self.path), self.depth)

    def board(self, node: Node | None = None):
        """A copy of chesskit's Board at ``node`` (default: here)."""
        path = self.path if node is None else node.path
        board = self.root.copy()
        for move in path:
            board.push(move)
        return board

    def fen(self) -> str:
        """The FEN here as shown and copied (Shredder-FEN in Chess960: ``Board.shown_fen``)."""
        return self.board().shown_fen()

    def resolve(self, text: str) -> str:
        """The legal move ``text`` names here (UCI, SAN or long algebraic); InputError otherwise."""
        board = self.board()
        legal = board.legal_moves()
        move = find_move(board, text, legal)
        if move is None:
            raise _not_legal(text, board, legal)
        return move

    def child(self, text: str) -> str:
        """Play the move ``text`` names (UCI or SAN) and stand below it, one ply shallower."""
        move = self.resolve(text)
        self._depths.append(self.depth)
        self.path.append(move)
        self.depth = max(1, self.depth - 1)
        return move

    def parent(self) -> str | None:
        """Take the last move back (None at the root) and restore the depth it had."""
        if not self.path:
            return None
        self.depth = self._depths.pop()
        return self.path.pop()

    def set_path(self, moves: list[str]) -> None:
        """Stand after ``moves`` (UCI or SAN, each legal) from the root, at the same depth."""
        board = self.root.copy()
        path = []
        for text in moves:
            legal = board.legal_moves()
            move = find_move(board, text, legal)
            if move is None:
                raise _not_legal(text, board, legal)
            board.push(move)
            path.append(move)
        self.path, self._depths = path, [self.depth] * len(path)

    def set_depth(self, depth: int) -> None:
        self.depth = _depth(depth)

    def breadcrumb(self) -> list[tuple[str, str]]:
        """``(numbered SAN, UCI)`` for each move from the root (after the prefix)."""
        return path_labels(self.root, self.path)

    def cached(self, node: Node | None = None) -> Divide | None:
        return self._divides.get(node or self.node)

    def cached_counters(self, node: Node | None = None) -> dict | None:
        return self._counters.get(node or self.node)

    # ------------------------------------------------------------ engine

    @property
    def has_engine(self) -> bool:
        return self._open_engine is not None

    def engine(self):
        """The engine, opened on first use (and again after a failure)."""
        with self._lock:
            if self._engine is None:
                self._engine = self._open_engine()
                self.engine_name = getattr(self._engine, "name", "engine")
            return self._engine

    def _drop_engine(self, engine) -> None:
        """Close ``engine`` and forget it, so that the next question opens a fresh one."""
        with self._lock:
            if self._engine is engine:
                self._engine = None
        engine.close()

    def abort_engine(self) -> None:
        """Stop the engine now (its running answer ends in an EngineError); the next question reopens it."""
        with self._lock:
            engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()

    def close(self) -> None:
        self.abort_engine()

    def _ask(self, question: Callable, cancel: threading.Event | None):
        """``question(engine)``; an engine failure closes it (EngineError, or Cancelled if cancelled)."""
        with self._asking:  # a cancelled question still running on another thread ends first
            _check(cancel)
            engine = self.engine()
            try:
                return question(engine)
            except EngineError:
                self._drop_engine(engine)
                if cancel is not None and cancel.is_set():
                    raise Cancelled() from None
                raise

    # ------------------------------------------------------------ counting

    def divide(
        self,
        node: Node | None = None,
        progress: Callable[[str, int, int | None], None] | None = None,
        cancel: threading.Event | None = None,
        engine: bool = True,
    ) -> Divide:
        """chesskit's divide at ``node`` and, with an engine, the engine's (cached once both are known).

        ``progress(what, done, total)`` reports chesskit's parts done and then the engine's
        question (total None). An engine failure is kept in ``engine_error``, chesskit's
        counts still stand."""
        node = node or self.node
        known = self._divides.get(node)
        if known is not None and (known.theirs is not None or not (engine and self.has_engine)):
            return known
        if known is None:
            board = self.board(node)
            known = Divide(node, board.shown_fen(), self._count(board, node.depth, progress, cancel))
            legal = list(known.ours)
            known.sans = {move: san(board, move, legal) for move in legal}
            self._divides[node] = known  # chesskit's counts stand at once; the engine's follow
        if not (engine and self.has_engine):
            return known
        _check(cancel)
        if progress:
            progress("engine", 0, None)
        answered = replace(known, engine_error=None)  # the cached one may be on screen: a copy
        try:
            self._ask(lambda eng: self._engine_divide(eng, node, answered), cancel)
        except EngineError as err:
            answered.engine_error = str(err)
        self._divides[node] = answered
        return answered

    def _count(self, board, depth: int, progress, cancel) -> dict[str, int]:
        """chesskit's divide; from PARTS_DEPTH on in parts (on a pool of threads), so that it
        reports its progress and a cancel stops it at the next part."""
        _check(cancel)
        if depth < PARTS_DEPTH:  # a small tree: parts would cost more than they show
            return board.divide(depth)
        shown = [-1]

        def report(done: int, total: int, nodes: int) -> None:
            _check(cancel)
            percent = 100 * done // total
            if progress and percent != shown[0]:  # at most a hundred reports
                shown[0] = percent
                progress("chesskit", done, total)

        return board.divide(depth, threads=self.threads, progress=report)

    def _engine_divide(self, eng, node: Node, known: Divide) -> None:
        fen, moves, chess960 = self.position_fen, self.prefix + list(node.path), bool(self.root.chess960)
        if answers_by_totals(eng, fen, chess960):
            # as compare asks a total-only engine: its total, and its count below each of our moves
            known.theirs_total = eng.perft(fen, node.depth, moves, chess960)
            below = {}
            if node.depth > 1:
                below = {m: eng.perft(fen, node.depth - 1, moves + [m], chess960) for m in known.ours}
            known.theirs = below
        else:
            # zero-count rows that claim nothing set aside, as compare's descent does (Sjaak II
            # lists its illegal moves with 0: they were shown as extra moves, the totals equal)
            known.ours, known.theirs = settle_zero_rows(known.ours, eng.divide(fen, node.depth, moves, chess960), node.depth)

    def counters(self, node: Node | None = None, cancel: threading.Event | None = None) -> dict[str, dict[str, int]]:
        """chesskit's CPW counters (captures, e.p., castles, ...) below each move at ``node``."""
        node = node or self.node
        if node not in self._counters:
            _check(cancel)
            self._counters[node] = self.board(node).divide_stats(node.depth)
        return self._counters[node]

    def descend(self, node: Node | None = None, on_step=None, cancel: threading.Event | None = None):
        """compare's automatic descent from ``node``: a ``chesskit.compare.report.Report``
        whose path runs from POSITION (the prefix first). Needs an engine."""
        from chesskit.compare.descent import descend
        from chesskit.compare.statecmp import state_checker

        if not self.has_engine:
            raise InputError("no engine to compare with: start explore with --engine, --script, --python or --engine-cmd")
        node = node or self.node
        board = self.board(node)
        prefix = self.prefix + list(node.path)

        def step(s) -> None:
            _check(cancel)
            if on_step:
                on_step(s)

        def run(eng):
            checker = state_checker(eng, self.position_fen, prefix, board.chess960, self.state_pushes)
            return descend(board, eng, node.depth, self.position_fen, prefix, checker, eng.name, step)

        return self._ask(run, cancel)

    def land(self, report) -> Node:
        """Stand where ``report`` (``descend`` from here) ended, its last divides this node's."""
        here = self.prefix + self.path
        if list(report.path[: len(here)]) != here:
            raise ValueError("the report is not from a descent below this node")
        for move in report.path[len(here) :]:
            self._depths.append(self.depth)
            self.path.append(move)
            self.depth = max(1, self.depth - 1)
        last = report.steps[-1] if report.steps else None
        if last is not None and list(last.path) == list(report.path) and last.depth == self.depth:
            board = self.board()
            divide = Divide(self.node, board.shown_fen(), dict(last.ours), theirs=dict(last.theirs), theirs_total=last.theirs_total)
            legal = list(last.ours)
            divide.sans = {move: san(board, move, legal) for move in legal}
            self._divides.setdefault(self.node, divide)
        return self.node


def _depth(depth: int) -> int:
    from chesskit.vocab import MAX_DEPTH

    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise InputError(f"bad depth {depth!r}: an integer from 1 to {MAX_DEPTH}")
    return depth


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled()


def extra_is_move(move: str) -> bool:
    """Whether an engine's extra move is shaped like UCI (so its squares can be shown)."""
    return bool(UCI_MOVE.fullmatch(move))


def _not_legal(text: str, board, legal: list[str]) -> InputError:
    """``child`` and ``moves`` name a move that is not legal here: the line every command
    gives for a move written as UCI (``Board.push``'s, with its reasons: a drop's piece of
    the other side, a variant's rule, a promotion without its piece), and for anything
    else the two forms explore reads."""
    from chesskit.errors import IllegalMoveError

    typed = text.strip()
    try:
        board.copy().push(typed)
    except IllegalMoveError as err:
        if err.uci_shaped:
            return err
    named = loose_moves(board, typed, legal)
    if len(named) > 1:
        return IllegalMoveError(typed, board.shown_fen(), legal, why=f"ambiguous: it names {', '.join(named)}")
    return IllegalMoveError(typed, board.shown_fen(), legal, why="not a legal move in UCI (g1f3) or SAN (Nf3)")
