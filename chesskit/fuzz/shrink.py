"""Shrinking a failing position to the smallest one that still shows the disagreement.

A state is a root FEN and a depth at which the engine's divide of that root differs
from chesskit's.  The candidates, cheapest and biggest cuts first:

1. the root moved down the descent's path (the failing node itself, then its parents):
   the move path from the generated position to the failing node shortens to nothing;
2. pieces removed (a king never): halves of them at once, then quarters, ... then one by
   one, as delta debugging does; a removed rook takes its castling right along and a
   removed double-pushed pawn its en-passant square;
3. castling rights dropped one at a time; 4. the en-passant square dropped.

A candidate is kept when it is valid (chesskit reads it and it looks reachable, see
``chesskit.fuzz.position``) and the divides still differ at some depth up to the
current one; then the candidates start over from the new state, until none is kept.
Any difference counts, not only the first one's moves: a shrunk position shows *a*
bug of the engine, and the report that follows names it exactly.

Shrinking stops, keeping the smallest failing position so far, when the engine fails,
when ``--time`` runs out (``chesskit.fuzz.deadline``: no candidate is started that would
not leave time for the final descent) or on Ctrl-C.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from chesskit.board.board import Board
from chesskit.compare.engines.base import answers_by_totals
from chesskit.compare.rows import settle_zero_rows
from chesskit.errors import EngineError, InputError
from chesskit.fuzz.deadline import DESCENT_SHARE, Deadline, OutOfTime
from chesskit.fuzz.position import Pos

# the most candidates shrinking asks the engine about (each costs one divide per depth)
MAX_CANDIDATES = 600


@dataclass
class Shrunk:
    fen: str  # the shrunk root
    depth: int  # the depth at which its divides differ
    chess960: bool
    tried: int  # candidates tried
    kept: int  # candidates kept
    error: str | None = None  # why shrinking stopped early: the engine failed, time ran out, Ctrl-C
    interrupted: bool = False  # Ctrl-C (SIGTERM, SIGHUP) stopped it


def differs(
    engine,
    fen: str,
    chess960: bool,
    depth: int,
    count: Callable[[int], None] | None = None,
    board: Board | None = None,
    deadline: Deadline | None = None,
    keep: float = 0.0,
) -> int | None:
    """The first depth in 1..``depth`` at which the engine's counts of ``fen`` differ from chesskit's:
    the divides, or for an engine that answers with a total only (``engine.total_only``), the totals.
    ``count(nodes)`` is told chesskit's count at each depth compared.

    With a ``deadline``, a depth is only started when its estimated cost and that of the
    descent a difference there needs, plus ``keep`` seconds, fit in the time left; else
    ``OutOfTime``. ``deadline.spent`` is left at the time the last depth compared took."""
    board = Board(fen, chess960=chess960) if board is None else board
    deadline = Deadline() if deadline is None else deadline
    total_only = answers_by_totals(engine, fen, chess960)
    nodes_before, nodes_last = 1, 1  # perft 0 is 1
    first = spent = 0.0  # depth 1's time is taken as the cost of a call; the rest grows with the nodes
    for d in range(1, depth + 1):
        growth = max(nodes_last / max(nodes_before, 1), 1.0)
        estimate = first + max(spent - first, 0.0) * growth
        deadline.check(estimate * (1 + DESCENT_SHARE) + keep)
        began = deadline.clock()
        if total_only:
            ours_total = board.perft(d)
            same = ours_total == engine.perft(fen, d, [], chess960)
        else:
            ours, theirs = settle_zero_rows(board.divide(d), engine.divide(fen, d, [], chess960), d)
            ours_total = sum(ours.values())
            same = ours == theirs
        spent = deadline.spent = deadline.clock() - began
        if d == 1:
            first = spent
        nodes_before, nodes_last = nodes_last, ours_total
        if count is not None:
            count(ours_total)
        if not same:
            return d
    return None


def shrink(
    engine,
    fen: str,
    chess960: bool,
    depth: int,
    path: list[str] = (),
    on_try=None,
    deadline: Deadline | None = None,
    test: Callable[..., int | None] | None = None,
    variant: str = "chess",
) -> Shrunk:
    """Shrink the failing root ``fen`` (divides differ at ``depth``); ``path`` is the
    descent's path from it to the failing node. With a ``deadline``, the time of the
    descent from the smallest position so far (estimated by ``deadline.spent`` when
    called, then by the depth that kept each candidate) is kept free for it. ``test``
    (called as ``differs`` is; None: ``differs``) says whether a candidate still fails, and at which depth:
    ``chesskit.fuzz.run`` shrinks a position that crashes the engine with its own. A
    ``variant``'s position is shrunk by rerooting only (the piece cuts build standard
    positions)."""
    state = Shrunk(fen, depth, chess960, 0, 0)
    deadline = Deadline() if deadline is None else deadline
    descent = deadline.spent * DESCENT_SHARE  # the final descent, from the current state

    def attempt(candidate: Pos | str, max_depth: int) -> bool:
        nonlocal descent
        if state.tried >= MAX_CANDIDATES or not (isinstance(candidate, str) or candidate.valid()):
            return False
        deadline.check(descent)
        state.tried += 1
        if on_try is not None:
            on_try(state)
        text = candidate if isinstance(candidate, str) else candidate.fen()
        extra = {} if variant == "chess" else {"board": Board(text, chess960=chess960 or None, variant=variant)}
        found = (test or differs)(engine, text, chess960, max_depth, deadline=deadline, keep=descent, **extra)
        if found is None:
            return False
        state.fen, state.depth = text, found
        state.kept += 1
        descent = deadline.spent * DESCENT_SHARE
        return True

    try:
        _reroot(state, path, attempt, variant)
        changed = variant == "chess"
        while changed and state.tried < MAX_CANDIDATES:
            changed = False
            for cut in (_remove_pieces, _drop_rights, _drop_ep):
                if cut(state, attempt):
                    changed = True
    except EngineError as err:  # keep what was shrunk so far; the report says why it stopped
        state.error = str(err)
    except OutOfTime:
        state.error = f"{deadline.describe()} after {state.tried} candidates"
    except KeyboardInterrupt:  # the smallest position so far is reported and saved, then exit 130
        state.error = f"interrupted after {state.tried} candidates"
        state.interrupted = True
    return state


def _reroot(state: Shrunk, path: list[str], attempt, variant: str = "chess") -> None:
    """Try the nodes along the descent's path as roots, the deepest (the failing node) first."""
    if variant == "chess":
        board = Board(state.fen, chess960=state.chess960)
    else:
        board = Board(state.fen, chess960=state.chess960 or None, variant=variant)
    nodes = []
    for move in path:
        try:
            board.push(move)
        except InputError:
            break
        nodes.append(board.fen())
    for plies in range(len(nodes), 0, -1):
        remaining = state.depth - plies
        candidate = nodes[plies - 1] if variant != "chess" else Pos.from_fen(nodes[plies - 1], state.chess960)
        if remaining >= 1 and attempt(candidate, remaining):
            return


def _remove_pieces(state: Shrunk, attempt) -> bool:
    """Delta debugging over the non-king pieces: chunks of half, a quarter, ..., one."""
    changed = False
    pos = Pos.from_fen(state.fen, state.chess960)
    chunk = max(1, len(pos.pieces()) // 2)
    while True:
        squares = pos.pieces()
        i = 0
        while i < len(squares):
            part = squares[i : i + chunk]
            candidate = pos.copy()
            for sq in part:
                candidate.board[sq] = 0
            candidate.tidy()
            if attempt(candidate, state.depth):
                pos = Pos.from_fen(state.fen, state.chess960)
                squares = pos.pieces()
                changed = True
            else:
                i += chunk
        if chunk == 1:
            return changed
        chunk = max(1, chunk // 2)


def _drop_rights(state: Shrunk, attempt) -> bool:
    changed = False
    pos = Pos.from_fen(state.fen, state.chess960)
    for rook in list(pos.castling):
        candidate = pos.copy()
        candidate.castling.remove(rook)
        if attempt(candidate, state.depth):
            pos, changed = candidate, True
    return changed


def _drop_ep(state: Shrunk, attempt) -> bool:
    pos = Pos.from_fen(state.fen, state.chess960)
    if pos.ep is None:
        return False
    candidate = pos.copy()
    candidate.ep = None
    return attempt(candidate, state.depth)
