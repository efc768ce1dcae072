"""The perft transposition table: a uint64 array of 2 * N words (N a power of two).

Entry i is two words, ``check = key ^ data`` and ``data = count << 6 | depth``. A probe
accepts an entry only when ``check ^ data`` equals the full 64-bit Zobrist key and the
depth matches, so a slot shared by two positions (or by the same position at another
depth) is never mistaken for a hit. Storing the key XORed with the data also makes the
table safe for threads that write without locks: an entry torn between two writers no
longer passes the check (Hyatt's lockless hashing). Entries are always replaced.

An empty array (``N = 0``) disables the table.
"""

import numpy as np
from numba import njit

from .hashtable import allocate  # noqa: F401 (re-exported)

_DEPTH_MIX = np.uint64(0x9E3779B97F4A7C15)
_DEPTH_MASK = np.uint64(63)
_SIX = np.uint64(6)


@njit(cache=True)
def _slot(tt, key, depth):
    mask = np.uint64((tt.shape[0] >> 1) - 1)
    return 2 * np.int64((key ^ (np.uint64(depth) * _DEPTH_MIX)) & mask)


@njit(cache=True)
def probe(tt, key, depth):
    """The stored count of (key, depth), or -1."""
    if tt.shape[0] == 0:
        return np.int64(-1)
    i = _slot(tt, key, depth)
    data = tt[i + 1]
    if (tt[i] ^ data) == key and (data & _DEPTH_MASK) == np.uint64(depth):
        return np.int64(data >> _SIX)
    return np.int64(-1)


@njit(cache=True)
def store(tt, key, depth, count):
    if tt.shape[0] == 0:
        return
    i = _slot(tt, key, depth)
    data = (np.uint64(count) << _SIX) | np.uint64(depth)
    tt[i] = key ^ data
    tt[i + 1] = data
