"""Zero-count divide rows: when a move listed with 0 and a move not listed are one claim.

A divide row says how many leaves lie below a move at the depth asked.  Some engines
list every move they generate, legal or not, and give the illegal ones 0 (Sjaak II:
`Ke8-d8  0`); some leave out a legal move below which nothing is left (a move into
stalemate at depth 2).  Either way the move adds nothing to the total, so:

    depth 1   a row with 0 is a move the engine does not count: the same as no row
    depth >1  a row with 0 for a move the other side does not list is dropped, on
              either side; a move both list keeps its counts (0 against 5 is a
              real disagreement, chased below that move)

so a disagreement is only ever reported where the counts differ.
"""

from __future__ import annotations


# from this depth on chesskit's side of a descent counts as ``chesskit divide`` does, on
# every core with its default table: one thread without a table took 76 s of compare's
# startpos 8 against divide's 9.7 s, before the engine was asked
FAST_FROM = 5


def our_divide(board, depth: int) -> dict[str, int]:
    """chesskit's divide of ``board`` at ``depth`` for a descent (generation order)."""
    if depth < FAST_FROM:
        return board.divide(depth)
    from chesskit.board import tablesize
    from chesskit.board.threads import usable_cores

    return board.divide(depth, hash_mb=tablesize.board_default_mb(board, depth), threads=usable_cores())


def settle_zero_rows(ours: dict[str, int], theirs: dict[str, int], depth: int) -> tuple[dict[str, int], dict[str, int]]:
    """``(ours, theirs)`` with the zero-count rows that claim nothing left out (see the module doc)."""
    theirs = {m: n for m, n in theirs.items() if n or (depth > 1 and m in ours)}
    ours = {m: n for m, n in ours.items() if n or m in theirs}
    return ours, theirs
