"""Perft counters (``--stats``): the columns of the chessprogramming wiki's Perft Results.

Over the leaf moves (the legal moves made at the last ply) we count captures (en passant
included), en-passant captures, castles, promotions, checks (the side to move is in check
after the move), discovered checks (exactly one checker and it is not the piece that
moved; for castling that piece is the rook; double checks are not also counted here),
double checks (two checkers) and checkmates (checks that leave no legal reply). The
counting runs in the compiled core (``chesskit/core/stats.py``); this module turns its
rows into dicts and reads and checks the ``S<n> "captures=.. checks=.."`` suite opcodes.
"""

from __future__ import annotations

import numpy as np

from chesskit.board import vcounters
from chesskit.board.counternames import COUNTERS, names_of, parse_stat_opcode  # noqa: F401 (parse_stat_opcode re-exported)
from chesskit.vocab import MAX_MOVES

# the eight leaf-move counters, as in the JSON "stats" object
STAT_NAMES = COUNTERS[1:]
# short column headings for tables
HEADINGS = {
    "nodes": "nodes",
    "captures": "captures",
    "en_passant": "e.p.",
    "castles": "castles",
    "promotions": "promotions",
    "checks": "checks",
    "discovery_checks": "disc. checks",
    "double_checks": "double checks",
    "checkmates": "checkmates",
}


def counter_names(board) -> tuple[str, ...]:
    """"nodes" and the counters of ``board``'s variant (standard chess: ``COUNTERS``)."""
    return names_of(board.variant)


def headings() -> dict[str, str]:
    """The short column heading of every counter, the variants' too."""
    return {**HEADINGS, **vcounters.HEADINGS}


def _row_dict(row) -> dict[str, int]:
    return {name: int(value) for name, value in zip(COUNTERS, row)}


def _empty(nodes: int = 0) -> dict[str, int]:
    return {name: (nodes if name == "nodes" else 0) for name in COUNTERS}


def stats_by_depth(board, depth: int) -> list[dict[str, int]]:
    """The counters for every depth 1..``depth`` (one tree walk); ``[]`` for depth 0."""
    from chesskit.core import stats as core_stats
    from chesskit.core.api import announce, table

    depth = board._check_depth(depth, 0)
    if depth == 0:
        return []
    if board.variant != "chess":
        return vcounters.stats_by_depth(board, depth)
    board._reserve(depth, margin=1)
    rows = np.zeros((depth, core_stats.N_COUNTERS), dtype=np.int64)
    T = table()
    announce(core_stats.stats_walk, "the leaf counters (--stats)")
    core_stats.stats_walk(T, *board._state(), depth, rows)
    return [_row_dict(row) for row in rows]


def perft_stats(board, depth: int) -> dict[str, int]:
    """``{"nodes": perft(depth), "captures": .., ..., "checkmates": ..}``; at depth 0 the
    root alone (one node, no moves, so every counter 0)."""
    rows = stats_by_depth(board, depth)
    if not rows:
        return _empty(1) if board.variant == "chess" else vcounters.empty(board.variant, 1)
    return rows[-1]


def divide_stats(board, depth: int) -> dict[str, dict[str, int]]:
    """For each legal root move (generation order), the counters of the leaf moves below it."""
    from chesskit.core import stats as core_stats
    from chesskit.core.api import announce, table

    depth = board._check_depth(depth, 1)
    if board.variant != "chess":
        return vcounters.divide_stats(board, depth)
    board._reserve(depth, margin=1)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    out = np.zeros((MAX_MOVES, core_stats.N_COUNTERS), dtype=np.int64)
    T = table()
    announce(core_stats.divide_stats, "the leaf counters (--stats)")
    n = core_stats.divide_stats(T, *board._state(), depth, moves, out)
    return {board.uci(int(moves[i])): _row_dict(out[i]) for i in range(n)}


def total(rows: dict[str, dict[str, int]] | list[dict[str, int]], names: tuple[str, ...] = COUNTERS) -> dict[str, int]:
    """The sum of several counter dicts (a divide's rows give the perft's): ``names``,
    the counters of the rows' variant (``counter_names``)."""
    values = rows.values() if isinstance(rows, dict) else rows
    summed = {name: 0 for name in names}
    for row in values:
        for name in summed:
            summed[name] += row.get(name, 0)
    return summed


def only_stats(row: dict[str, int]) -> dict[str, int]:
    """The counters without "nodes" (standard chess's eight): the JSON ``"stats"`` object."""
    return {name: value for name, value in row.items() if name != "nodes"}


# --------------------------------------------------------------------------- suite opcodes


def compare(expected: dict[str, int], actual: dict[str, int]) -> dict[str, tuple[int, int]]:
    """The counters that differ: ``{name: (expected, actual)}`` (only names in ``expected``)."""
    return {name: (want, actual[name]) for name, want in expected.items() if actual.get(name) != want}
