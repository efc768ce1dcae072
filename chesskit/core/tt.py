"""The perft transposition table: a uint64 array of 2 * N words (N a power of two).

Entry i is two words, ``check = key ^ data`` and ``data = count << 6 | depth``. A probe
accepts an entry only when ``check ^ data`` equals the full 64-bit Zobrist key and the
depth matches, so a slot shared by two positions (or by the same position at another
depth) is never mistaken for a hit. Storing the key XORed with the data also makes the
table safe for threads that write without locks: an entry torn between two writers no
longer passes the check (Hyatt's lockless hashing).

Entries come in buckets of ``WAYS`` (4 entries of 16 bytes: one 64-byte cache line;
``hashtable.allocate`` aligns the table to it), picked by the key's low bits; a probe reads the one line. A
store overwrites the entry already holding that key and depth, else the bucket's least
valuable entry: an empty one, or the one with the smallest count (a hit on it saves the
least work). So a new entry always gets in, and the deep entries that save the most work
stay while the many entries just above the leaves churn beside them. A table of fewer
than ``WAYS`` entries is one bucket of all of them.

An empty array (``N = 0``) disables the table.

``fetch`` asks for a key's bucket ahead of its probe (``prefetch.py``): the walk fetches
the buckets of all a node's children before it probes the first.
"""

import numpy as np
from numba import njit

from .hashtable import allocate  # noqa: F401 (re-exported)
from .prefetch import prefetch

WAYS = 4
_DEPTH_MASK = np.uint64(63)
_SIX = np.uint64(6)


@njit(cache=True)
def _bucket(words, key):
    """The first word of ``key``'s bucket in a table of ``words`` words, and its entries."""
    entries = words >> 1
    ways = WAYS if entries >= WAYS else entries
    mask = np.uint64(entries // ways - 1)
    return 2 * ways * np.int64(key & mask), ways


@njit(cache=True)
def fetch(tt, key):
    """Start loading ``key``'s bucket into the cache (a hint: no value changes)."""
    words = tt.shape[0]
    if words != 0:
        prefetch(tt, _bucket(words, key)[0])


@njit(cache=True)
def probe(tt, key, depth):
    """The stored count of (key, depth), or -1."""
    words = tt.shape[0]
    if words == 0:
        return np.int64(-1)
    base, ways = _bucket(words, key)
    d = np.uint64(depth)
    for w in range(ways):
        i = base + 2 * w
        data = tt[i + 1]
        if (tt[i] ^ data) == key and (data & _DEPTH_MASK) == d:
            return np.int64(data >> _SIX)
    return np.int64(-1)


@njit(cache=True)
def store(tt, key, depth, count):
    """Store (key, depth) -> count over the same entry or the bucket's least valuable one."""
    words = tt.shape[0]
    if words == 0:
        return
    base, ways = _bucket(words, key)
    d = np.uint64(depth)
    victim = base
    least = np.uint64(0xFFFFFFFFFFFFFFFF)
    for w in range(ways):
        i = base + 2 * w
        old = tt[i + 1]
        if (tt[i] ^ old) == key and (old & _DEPTH_MASK) == d:
            victim = i  # already there (another thread stored it): refresh it in place
            break
        value = old >> _SIX  # the count; 0 for an empty entry
        if value < least:
            least = value
            victim = i
    data = (np.uint64(count) << _SIX) | d
    tt[victim] = key ^ data
    tt[victim + 1] = data
