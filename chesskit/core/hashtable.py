"""Allocating the perft transposition table (numpy only: a perft that loads no numba
allocates it too; ``tt.py`` describes the entries and has the compiled probe and store)."""

import numpy as np


def allocate(megabytes: float) -> np.ndarray:
    """A table of at most ``megabytes`` MiB (rounded down to a power of two entries)."""
    entries = int(megabytes * 1024 * 1024) // 16
    if entries < 1:
        return np.zeros(0, dtype=np.uint64)
    n = 1 << (entries.bit_length() - 1)
    return np.zeros(2 * n, dtype=np.uint64)
