"""Perft counters (``--stats``) of a variant position: which counters each variant has,
and its compiled walk's rows (``chesskit/core/vstats.py``) as dicts.

Each variant shows the standard counters that mean something in it and its own (their
exact definitions: docs/variants.md, "Counters"); a dict lists "nodes" first, then the
variant's counters in the order of ``counternames.VARIANT_COUNTERS``. Standard chess never comes here
(``counters.py``).
"""

from __future__ import annotations

import numpy as np

from chesskit.board.counternames import COUNTERS, names_of as names

# every counter of the compiled rows (chesskit/core/vstats.py), in its order: standard
# chess's, then the variants' own
ROW = (
    *COUNTERS,
    "drops",
    "drop_checks",
    "promoted_captures",
    "exploded_pieces",
    "king_explosions",
    "third_checks",
    "goal_reached",
    "king_promotions",
    "no_pieces",
    "no_moves",
)
# short column headings of the variants' own counters (counters.HEADINGS has the rest)
HEADINGS = {
    "drops": "drops",
    "drop_checks": "drop checks",
    "promoted_captures": "promoted capt.",
    "exploded_pieces": "exploded",
    "king_explosions": "king expl.",
    "third_checks": "third checks",
    "goal_reached": "goal",
    "king_promotions": "king promo.",
    "no_pieces": "no pieces",
    "no_moves": "no moves",
}


def _row_dict(variant: str, row) -> dict[str, int]:
    return {name: int(row[ROW.index(name)]) for name in names(variant)}


def empty(variant: str, nodes: int = 0) -> dict[str, int]:
    return {name: (nodes if name == "nodes" else 0) for name in names(variant)}


def _run(board, depth: int, only: int):
    from chesskit.core import vstats
    from chesskit.core.api import announce, table

    bbs, boards, sts, moves, nmoves, index, scratch = vstats.buffers(board._bb, board._board, board._st, depth)
    rows = np.zeros((max(depth, 1), vstats.N_VCOUNTERS), dtype=np.int64)
    walk, T = vstats.entry(board._vid), table()
    announce(walk, f"the {board.variant} leaf counters (--stats)")
    roots = walk(T, bbs, boards, sts, depth, only, rows, moves, nmoves, index, scratch)
    return int(roots), moves[0, : int(roots)].copy(), rows


def stats_by_depth(board, depth: int) -> list[dict[str, int]]:
    """The counters for every depth 1..``depth`` (one walk; ``depth`` >= 1)."""
    _, _, rows = _run(board, depth, -1)
    return [_row_dict(board.variant, row) for row in rows[:depth]]


def divide_stats(board, depth: int) -> dict[str, dict[str, int]]:
    """For each legal root move (generation order), the counters of the moves at ply
    ``depth`` below it (``depth`` >= 1)."""
    roots, moves, _ = _run(board, 0, -1)
    out = {}
    for i in range(roots):
        _, _, rows = _run(board, depth, i)
        out[board.uci(int(moves[i]))] = _row_dict(board.variant, rows[depth - 1])
    return out
