"""What a Dask worker runs: one batch of positions, each to the same remaining depth.

Workers import this module by name, so chesskit must be installed on every worker
machine (the same version as the driver's). The function is pure: the same batch always
gives the same count, so Dask may run it again on another worker after a loss.
"""

from __future__ import annotations

# Below this remaining depth a subtree is too small to repay allocating a hash table.
HASH_MIN_DEPTH = 5


def table_mb(remaining: int, hash_mb: float) -> float:
    """The hash table for one subtree: 8 MiB at 5 plies, 4x per further ply, at most
    ``hash_mb``. Board.perft allocates a fresh table for every position, and a table far
    bigger than the subtree costs more in page faults than it saves (measured: a 256 MiB
    table made 5-ply subtrees 4x slower than an 8 MiB one)."""
    if remaining < HASH_MIN_DEPTH:
        return 0
    return min(hash_mb, 8 << 2 * (remaining - HASH_MIN_DEPTH))


def run_batch(positions: list[tuple[str, int]], remaining: int, chess960: bool, hash_mb: float) -> int:
    """sum(multiplicity * perft(position, remaining)) over the batch, on one thread."""
    from chesskit.board import Board

    size = table_mb(remaining, hash_mb)
    total = 0
    for fen, multiplicity in positions:
        board = Board(fen, chess960=True if chess960 else None)
        total += multiplicity * board.perft(remaining, hash_mb=size, threads=1)
    return total
