"""What a Dask worker runs: one batch of positions, each to the same remaining depth.

Workers import this module by name, so chesskit must be installed on every worker
machine (the same version as the driver's). The function is pure: the same batch always
gives the same count, so Dask may run it again on another worker after a loss.
"""

from __future__ import annotations

# Below this remaining depth a subtree is too small for a hash table to pay.
HASH_MIN_DEPTH = 3


def table_mb(remaining: int, hash_mb: float) -> float:
    """The worker's hash table for subtrees of ``remaining`` plies: ``hash_mb`` (the
    ``--hash`` of the run) from 3 plies on. It is allocated once per worker process and
    kept across batches, so its page faults are paid once (a fresh table per position
    made 5-ply subtrees 4x slower with 256 MiB than with 8 MiB)."""
    if remaining < HASH_MIN_DEPTH:
        return 0
    return hash_mb


# One table per worker process, kept across batches: positions of one run share most of
# their subtrees, so what one batch stores serves the next. Keyed by size and variant,
# since Zobrist keys do not tell standard chess from Chess960 castling.
_TABLES: dict[tuple[float, bool], object] = {}


def worker_table(size_mb: float, chess960: bool):
    from chesskit.core.hashtable import allocate

    key = (size_mb, chess960)
    if key not in _TABLES:
        _TABLES.clear()  # a new run's sizes: drop the old table rather than hold both
        _TABLES[key] = allocate(size_mb)
    return _TABLES[key]


def run_batch(positions: list[tuple[str, int]], remaining: int, chess960: bool, hash_mb: float) -> int:
    """sum(multiplicity * perft(position, remaining)) over the batch, on one thread."""
    from chesskit.board.board import Board

    table = worker_table(table_mb(remaining, hash_mb), chess960)
    total = 0
    for fen, multiplicity in positions:
        board = Board(fen, chess960=True if chess960 else None)
        total += multiplicity * board.perft(remaining, threads=1, table=table)
    return total
