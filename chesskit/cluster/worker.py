"""What a Dask worker runs: one batch of positions, each to the same remaining depth.

Workers import this module by name, so chesskit must be installed on every worker
machine (the same version as the driver's). The function is pure: the same batch always
gives the same count, so Dask may run it again on another worker after a loss.
"""

from __future__ import annotations

# Below this remaining depth a subtree is too small to repay allocating a hash table.
HASH_MIN_DEPTH = 5


def run_batch(positions: list[tuple[str, int]], remaining: int, chess960: bool, hash_mb: float) -> int:
    """sum(multiplicity * perft(position, remaining)) over the batch, on one thread."""
    from chesskit.board import Board

    table_mb = hash_mb if remaining >= HASH_MIN_DEPTH else 0
    total = 0
    for fen, multiplicity in positions:
        board = Board(fen, chess960=True if chess960 else None)
        total += multiplicity * board.perft(remaining, hash_mb=table_mb, threads=1)
    return total
