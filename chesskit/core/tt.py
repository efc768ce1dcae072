"""The perft transposition table: a uint64 array of 2 * N words (N a power of two).

A position is stored by two 64-bit words: ``key``, which picks its bucket (its low bits),
and ``check``, which its entry is checked against. Entry i is two words,
``check ^ data`` and ``data = count << 6 | depth``. A probe accepts an entry only when
``word ^ data`` equals ``check`` and the depth matches, so a slot shared by two positions
(or by the same position at another depth) is never mistaken for a hit. Storing the check
XORed with the data also makes the table safe for threads that write without locks: an
entry torn between two writers no longer passes the check (Hyatt's lockless hashing).

The perft walk passes two independent Zobrist keys (``state.py``): key 1 picks the bucket
and key 2 is the check, so a wrong position passes only if it agrees with the probe on
the bucket's index bits of key 1 and on all 64 bits of key 2: a chance of ``WAYS`` in
2^(64 + index bits) per probe (2^-88 with a 4 GiB table), where with key 1 as both
bucket and check it was ``WAYS`` in 2^(64 - index bits), the index bits being known
equal already (about 4% of a wrong count at startpos 10 with 4 GiB: docs/benchmarks.md).
A walk with one key passes it as both (the variant walk, ``vwalk.py``: 64 bits as before).

Entries come in buckets of ``WAYS`` (4 entries of 16 bytes: one 64-byte cache line;
``hashtable.allocate`` aligns the table to it), picked by the key's low bits; a probe reads the one line. A
store overwrites the entry already holding that check and depth, else the bucket's least
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
def probe(tt, key, check, depth):
    """The count stored for (check, depth) in ``key``'s bucket, or -1."""
    words = tt.shape[0]
    if words == 0:
        return np.int64(-1)
    base, ways = _bucket(words, key)
    d = np.uint64(depth)
    for w in range(ways):
        i = base + 2 * w
        data = tt[i + 1]
        if (tt[i] ^ data) == check and (data & _DEPTH_MASK) == d:
            return np.int64(data >> _SIX)
    return np.int64(-1)


@njit(cache=True)
def store(tt, key, check, depth, count):
    """Store (check, depth) -> count in ``key``'s bucket, over the same entry or the
    bucket's least valuable one."""
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
        if (tt[i] ^ old) == check and (old & _DEPTH_MASK) == d:
            victim = i  # already there (another thread stored it): refresh it in place
            break
        value = old >> _SIX  # the count; 0 for an empty entry
        if value < least:
            least = value
            victim = i
    data = (np.uint64(count) << _SIX) | d
    tt[victim] = check ^ data
    tt[victim + 1] = data
