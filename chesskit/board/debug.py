"""``chesskit debug``: the consistency checker, its invariant names and its report.

The compiled walk (``chesskit/core/check.py``) checks every node to the given depth after
every make and unmake. One invariant is checked here in Python, because it runs through
the pure-Python FEN code: ``fen-round-trip``, ``Board.from_setup(parse_fen(fen()))``
reproduces the state. FEN parsing costs ~0.3 ms, so by default it runs at every node
that moves are generated from (every node above the last ply; a second walk after the
compiled one), not at the leaves: ``fen_depth`` changes that.

A violation is reported with the move path from the start position, the FEN before the
move, the move, the invariant's name, and the expected and actual values as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from chesskit.board.fen import format_fen, parse_fen
from chesskit.errors import MismatchError
from chesskit.invariants import FAULTS, FEN_ROUND_TRIP, INVARIANT_NAMES, INVARIANTS  # noqa: F401 (re-exported)
from chesskit.vocab import COLOR_NAMES, PIECE_NAMES, is_piece_code, square_name

_BB_NAMES = {0: "occupancy", 7: "white pieces", 15: "black pieces", 16: "castling rights", 17: "key"}
_STATE_NAMES = {0: "side to move", 1: "en-passant square", 2: "halfmove clock", 3: "fullmove number", 4: "history depth"}


@dataclass
class Violation:
    """The first invariant that failed, and where."""

    check: str  # the invariant's name
    path: list[str]  # UCI moves from the start position to the node
    fen: str  # the FEN before ``move`` (of the node, when there is no move)
    move: str | None  # the move being made / unmade, or the generated move at fault
    expected: str
    actual: str

    def describe(self) -> str:
        """Several lines for a terminal or a pipe."""
        return "\n".join(
            [
                f"violation: {self.check}",
                f"path: {' '.join(self.path) or '(start position)'}",
                f"fen: {self.fen}",
                f"move: {self.move or '-'}",
                f"expected: {self.expected}",
                f"actual: {self.actual}",
            ]
        )


@dataclass
class DebugResult:
    """``nodes``: leaf nodes reached (perft(depth) when ok); ``checks``: invariant checks made."""

    nodes: int
    checks: int
    violation: Violation | None = field(default=None)

    @property
    def ok(self) -> bool:
        return self.violation is None

    def to_json(self) -> dict:
        if self.violation is None:
            return {"ok": True, "nodes": self.nodes, "checks": self.checks}
        v = self.violation
        return {
            "ok": False,
            "path": v.path,
            "fen": v.fen,
            "move": v.move,
            "check": v.check,
            "expected": v.expected,
            "actual": v.actual,
        }

    def raise_for_violation(self) -> "DebugResult":
        if self.violation is not None:
            raise InvariantError(self.violation)
        return self


class InvariantError(MismatchError):
    """A consistency check failed (exit code 1)."""

    def __init__(self, violation: Violation):
        self.violation = violation
        where = f" after {' '.join(violation.path)}" if violation.path else " at the start position"
        by = f" by {violation.move}" if violation.move else ""
        super().__init__(
            f"invariant {violation.check} violated{by}{where}: expected {violation.expected}, "
            f"actual {violation.actual} (fen {violation.fen})"
        )


# --------------------------------------------------------------------------- running


def run_checks(board, depth: int, inject: str | None = None, fen_depth: int | None = None) -> DebugResult:
    """Check every node of ``board``'s tree to ``depth``; the board is left unchanged.

    ``fen_depth``: the deepest ply at which the FEN round trip runs (default ``depth - 1``,
    every node moves are generated from). ``inject`` names a fault of ``FAULTS`` (tests).
    Standard chess and Chess960 only: a variant's tree is ``vdebug.run_checks``'.
    """
    from chesskit.core import check as core_check
    from chesskit.core.api import announce, table

    depth = board._check_depth(depth, 0)
    code = FAULTS[inject] if inject else 0
    work = board.copy()  # a violation leaves the arrays mid-walk
    work._reserve(depth, margin=1)
    path = np.zeros(max(depth, 1), dtype=np.int64)
    info = np.zeros(core_check.INFO_SIZE, dtype=np.int64)
    uvals = np.zeros(2, dtype=np.uint64)
    T = table()
    announce(core_check.check_walk, "the debug checker")
    found = core_check.check_walk(T, *work._state(), depth, code, path, info, uvals)
    nodes, checks = int(info[core_check.I_NODES]), int(info[core_check.I_CHECKS])
    if found:
        return DebugResult(nodes, checks, _violation(board, int(found), path, info, uvals))
    fen_depth = depth - 1 if fen_depth is None else min(fen_depth, depth)
    violation, trips = _fen_round_trips(board.copy(), fen_depth, [])
    return DebugResult(nodes, checks + trips, violation)


def _fen_round_trips(board, depth: int, path: list[str]) -> tuple[Violation | None, int]:
    """Round-trip the FEN of every node to ``depth`` plies below ``board``."""
    if depth < 0:
        return None, 0
    violation = round_trip(board, path)
    if violation is not None or depth == 0:
        return violation, 1
    trips = 1
    for move in board._legal_packed():
        uci = board.uci(int(move))
        board.push(uci)
        violation, n = _fen_round_trips(board, depth - 1, path + [uci])
        board.pop()
        trips += n
        if violation is not None:
            break
    return violation, trips


def _comparable(board) -> list[tuple[str, str]]:
    """Every field of the state but the history, as (name, value as text)."""
    from chesskit.core import state as P

    st = board._st
    fields = [("chess960", str(board.chess960))]
    fields += [(f"square {square_name(sq)}", _piece(int(board._board[sq]))) for sq in range(64)]
    fields += [(_bb_name(i), _squares(int(board._bb[i]))) for i in range(P.KEY)]
    fields += [
        (_STATE_NAMES[P.STM], _side(int(st[P.STM]))),
        (_STATE_NAMES[P.EP], _ep(int(st[P.EP]))),
        (_STATE_NAMES[P.HALF], str(int(st[P.HALF]))),
        (_STATE_NAMES[P.FULL], str(int(st[P.FULL]))),
    ]
    fields += [("key", f"{int(board._bb[P.KEY]):016x}")]  # last: it follows from the rest
    return fields


def round_trip(board, path: list[str]) -> Violation | None:
    """``Board.from_setup(parse_fen(fen()))`` must reproduce every field of the state."""
    fen = format_fen(board.setup())
    try:
        again = type(board).from_setup(parse_fen(fen, chess960=board.chess960))
    except Exception as err:  # noqa: BLE001 - any failure to read our own FEN is the finding
        return Violation(FEN_ROUND_TRIP, path, fen, None, "the FEN parses", f"{type(err).__name__}: {err}")
    for (name, want), (_, got) in zip(_comparable(board), _comparable(again)):
        if want != got:
            return Violation(FEN_ROUND_TRIP, path, fen, None, f"{name} {want}", f"{name} {got}")
    return None


# --------------------------------------------------------------------------- reporting


def _violation(board, code: int, path, info, uvals) -> Violation:
    from chesskit.core import check as C

    replay = board.copy()
    moves: list[str] = []
    for packed in path[: int(info[C.I_LEVEL])]:
        uci = replay.uci(int(packed))
        moves.append(uci)
        replay.push(uci)
    packed_move = int(info[C.I_MOVE])
    move = replay.uci(packed_move) if packed_move >= 0 else None
    expected, actual = _values(code, info, uvals)
    return Violation(INVARIANTS[code], moves, replay.shown_fen(), move, expected, actual)


def _squares(bits: int) -> str:
    names = [square_name(sq) for sq in range(64) if bits >> sq & 1]
    return " ".join(names) if names else "(none)"


def _piece(code: int) -> str:
    if code == 0:
        return "empty"
    if is_piece_code(code):
        return f"{COLOR_NAMES[code >> 3]} {PIECE_NAMES[code & 7]}"
    return f"piece code {code}"


def _bb_name(i: int) -> str:
    if i in _BB_NAMES:
        return _BB_NAMES[i]
    if 1 <= i & 7 <= 6:
        return f"{COLOR_NAMES[i >> 3]} {PIECE_NAMES[i & 7]}s"
    return f"bitboard {i}"


def _values(code: int, info, uvals) -> tuple[str, str]:
    """The expected and actual values of a violation, as text."""
    from chesskit.core import check as C

    detail = int(info[C.I_DETAIL])
    exp, act = int(info[C.I_EXPECTED]), int(info[C.I_ACTUAL])
    uexp, uact = int(uvals[0]), int(uvals[1])
    name = INVARIANTS[code]
    if name == "one-king-each":
        return f"1 {COLOR_NAMES[detail]} king", f"{act} {COLOR_NAMES[detail]} kings"
    if name == "mover-not-in-check":
        if uact:
            return f"king on {square_name(detail)} not attacked", f"attacked from {_squares(uact)}"
        return f"king on {square_name(detail)} not attacked after the move", "attacked"
    if name == "movegen-matches-oracle":
        if detail == C.DETAIL_MISSING:
            return "the move generated (the oracle finds it legal)", "not generated"
        return "no such move (the oracle does not generate it)", "generated"
    if name == "colours-disjoint":
        return "no square in both colours", f"both colours on {_squares(uact)}"
    if name == "bulk-count":
        return f"{exp} (moves in the list)", f"{act} (count-only mode)"
    if name == "zobrist-key":
        return f"key {uexp:016x} (from scratch)", f"key {uact:016x} (incremental)"
    if detail >= C.DETAIL_STATE:
        label = _STATE_NAMES.get(detail - C.DETAIL_STATE, f"state {detail - C.DETAIL_STATE}")
        if detail - C.DETAIL_STATE == 1:
            return f"{label} {_ep(exp)}", f"{label} {_ep(act)}"
        if detail - C.DETAIL_STATE == 0:
            return f"{label} {_side(exp)}", f"{label} {_side(act)}"
        if name in ("halfmove-clock", "fullmove-number") and act < exp == int(name == "fullmove-number"):
            return f"{label} >= {exp}", f"{label} {act}"
        return f"{label} {exp}", f"{label} {act}"
    if detail >= C.DETAIL_SQUARE:
        sq = square_name(detail - C.DETAIL_SQUARE)
        return f"{sq}: {_piece(exp)}", f"{sq}: {_piece(act)}"
    label = _bb_name(detail)
    if detail == 17:
        return f"{label} {uexp:016x}", f"{label} {uact:016x}"
    # each side named by the structure it comes from, and the squares that differ (QA 41c:
    # "expected: white kings: (none)" read as if the bitboard were wrong)
    source, actual = _SOURCES.get(name, ("", ""))
    if not actual:
        return f"{label}: {_squares(uexp)}", f"{label}: {_squares(uact)}"
    return f"{label}: {_squares(uexp)} ({source})", f"{label}: {_squares(uact)} ({actual}){_difference(uexp, uact, actual)}"


# where the two sides of a set-valued invariant come from: (expected, actual)
_SOURCES = {
    "bitboards-match-squares": ("from the square array", "the bitboard"),
    "occupancy-union": ("the union of both colours' bitboards", "the occupancy bitboard"),
}


def _difference(expected: int, actual: int, name: str) -> str:
    """``; only in the bitboard: d1`` (and ``missing from the bitboard: ...``): what the
    two square sets differ by."""
    extra, missing = actual & ~expected, expected & ~actual
    parts = [f"{what} {name}: {_squares(bits)}" for what, bits in (("only in", extra), ("missing from", missing)) if bits]
    return f"; {', '.join(parts)}" if parts else ""


def _ep(sq: int) -> str:
    return "-" if sq < 0 else square_name(sq)


def _side(color: int) -> str:
    return COLOR_NAMES[color] if color in (0, 1) else str(color)
