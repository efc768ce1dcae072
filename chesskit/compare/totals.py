"""The descent for an engine that answers perft with a total only (Ethereal's `perft N`).

Such an engine cannot list its moves, so chesskit asks it for the count below each
of chesskit's own legal moves (``position ... moves PATH m`` and perft depth-1)::

    T(P, d)           the engine's total at node P (its own make/unmake walk)
    T(P+m, d-1)       its total below move m, asked directly, for each legal m

and follows a move whose count differs, as the divide descent does.  Where the
engine's walk of P does not add up to its direct answers about P's moves,

    - its move count at P (`T(P, 1)`) differs from chesskit's: the move lists differ
      at P (kind ``"moves"``); the missing moves are named when exactly one set of
      chesskit's moves accounts for the missing count and nodes, otherwise only
      how many moves are missing or extra is known;
    - the move counts agree: the engine counts P differently when it walks it than
      when it is asked about each move: an unmake bug (kind ``"state"``, ``walk``).

At depth 1 a total is a move count: when it differs, chesskit asks for depth 2 at
that node to infer which moves are missing.  Pure logic: no click, no rich.
"""

from __future__ import annotations

from itertools import combinations

from chesskit.compare.classify import classify_moves, king_exposing
from chesskit.compare.report import StateMismatch, Step, _state_report
from chesskit.compare.rows import our_divide
from chesskit.vocab import KING, parse_square

MAX_GUESSES = 50_000  # subsets tried when inferring the missing moves


def descend_totals(board, engine, depth: int, position_fen: str, prefix: list[str], report, on_step=None):
    """Fill ``report`` (a ``descent.Report``) by asking ``engine.perft``; ``board`` is a copy at POSITION+prefix."""
    chess960 = report.chess960
    report.total_only = True

    def total(path: list[str], d: int) -> int:
        return engine.perft(position_fen, d, prefix + path, chess960)

    path: list[str] = []
    d = depth
    expected = total(path, d)
    ours = our_divide(board, d)
    if expected == sum(ours.values()):
        step = Step(list(prefix), d, ours, {}, theirs_total=expected)
        report.steps.append(step)
        if on_step is not None:
            on_step(step)
        return report
    while True:
        here = prefix + path
        if path:
            ours = our_divide(board, d)
        if d == 1:
            step = Step(here, d, ours, {}, theirs_total=expected)
            report.steps.append(step)
            if on_step is not None:
                on_step(step)
            return _count_report(report, board, engine, here, total, path, ours, expected)
        theirs = {m: total(path + [m], d - 1) for m in ours}
        step = Step(here, d, ours, theirs, theirs_total=expected)
        report.steps.append(step)
        if on_step is not None:
            on_step(step)
        if sum(theirs.values()) != expected:
            moves_here = total(path, 1)
            if moves_here != len(ours):
                return _lists_differ(report, board, here, ours, theirs, expected, moves_here)
            report.state = StateMismatch(
                path=here,
                fen=board.shown_fen(),
                op="walk",
                move=None,
                field="walk",
                ours=sum(theirs.values()),
                theirs=expected,
                hint=(
                    f"asked about each move directly the engine's counts add up to {sum(theirs.values())}, "
                    f"but its own perft of this node gives {expected}, and it counts the same {len(ours)} moves "
                    "here as chesskit: an unmake that does not restore the state (or one missing and one "
                    "extra move)"
                ),
            )
            return _state_report(report, report.state)
        differing = [m for m in ours if ours[m] != theirs[m]]
        move = min(differing, key=lambda m: ours[m])
        expected = theirs[move]
        board.push(move)
        path.append(move)
        d -= 1


def _count_report(report, board, engine, here, total, path, ours, moves_here):
    """Depth 1: the engine's move count differs; ask depth 2 here to infer which moves."""
    below = {m: total(path + [m], 1) for m in ours}
    walked = total(path, 2)
    return _lists_differ(report, board, here, ours, below, walked, moves_here)


def _lists_differ(report, board, here, ours, theirs, expected, moves_here):
    """The engine's move list at ``here`` has ``moves_here`` moves, chesskit's ``len(ours)``.

    ``theirs`` are the engine's direct counts below chesskit's moves and ``expected``
    its own walk of the node: the moves it lacks account for the difference.
    """
    report.kind = "moves"
    report.path, report.fen = list(here), board.shown_fen()
    short = len(ours) - moves_here
    report.move_counts = {"chesskit": len(ours), "engine": moves_here}
    if short > 0:
        gap = sum(theirs.values()) - expected
        found = _subsets(theirs, short, gap)
        if len(found) == 1:
            report.missing = list(found[0])
            report.inferred = True
            report.notes = classify_moves(board, report.missing, [])
        else:
            report.unnamed_missing = short
    else:
        report.unnamed_extra = -short
        setup = board.setup()
        if setup.variant == "chess":
            # totals name no move; where the moves that leave the king in check number just
            # as many as the engine has too many, they are the likely ones (Sjeng's e.p.)
            exposing = king_exposing(setup)
            # the king's own steps first left out: an engine that tests no pin or en passant
            # mostly still tests where its king goes (Sjeng: d4xc3 e.p., never Kb3 into check)
            others = [m for m in exposing if setup.board[parse_square(m[:2])] & 7 != KING]
            report.likely_extra = next((found for found in (others, exposing) if len(found) == -short), [])
    return report


def _subsets(counts: dict[str, int], size: int, target: int) -> list[tuple[str, ...]]:
    """The sets of `size` moves whose counts add up to `target` (at most two: one is enough to know)."""
    moves = list(counts)
    found: list[tuple[str, ...]] = []
    for tried, combo in enumerate(combinations(moves, size)):
        if tried >= MAX_GUESSES:
            return []
        if sum(counts[m] for m in combo) == target:
            found.append(combo)
            if len(found) > 1:
                break
    return found
