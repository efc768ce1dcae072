"""The perft transposition table: a uint64 array (a power of two words, or from 8 MiB on
any whole number of 2 MiB pages: ``hashtable.allocate``) in two sections, one for the
nodes two plies above the leaves (depth 2: the most numerous by far, ten times the next
depth's at startpos 10) and one for the deeper nodes.

A position is stored by two 64-bit words: ``key``, which picks its bucket, and
``check``, which its entry is checked against. The perft walk passes two independent
Zobrist keys (``state.py``): key 1 picks the bucket and key 2 is the check. A walk with
one key passes it as both (the variant walk, ``vwalk.py``). An entry holds all 64 bits of
the check, and a probe compares it with every entry of one bucket, each the entry of a
position whose key 1 put it there. With two keys a wrong position passes with a chance of
(the bucket's entries) / 2^64 per probe, whatever the number of buckets (about 1e-9 over
the few 10^9 probes of startpos 10: docs/benchmarks.md). With one key as both, the bits
that picked the bucket (24 to 26 of them in a 4 GiB table) are the same for every entry
compared, so only the other 64 - b protect: (entries) / 2^(64 - b) per probe, the variant
walk's known limit.

**Deep section** (the first words, every depth but 2: the largest power of two within
``1 / DEEP_PART`` of the table, so that a mask picks its buckets; the whole table, every
depth, when it has fewer than ``SPLIT_FROM`` words): entry i is two words,
``check ^ data`` and ``data = count << 6 | depth``. A probe accepts an entry only when
``word ^ data`` equals ``check`` and the depth matches, so a slot shared by two positions
(or by the same position at another depth) is never mistaken for a hit. Storing the
check XORed with the data also makes the entries safe for threads that write without
locks: an entry torn between two writers no longer passes the check (Hyatt's lockless
hashing). Buckets of ``WAYS`` (4 entries: one 64-byte line), picked by key 1's low bits.
A store overwrites the entry already holding that check and depth, else the bucket's
least valuable entry: an empty one, or the one with the smallest count (a hit on it saves
the least work), so the deepest entries stay.

**Depth-2 section** (the rest of the words): a node two plies above the leaves has at
most 218 * 218 = 47,524 leaves (no chess position has more than 218 legal moves), so its
count fits in 16 bits, and the section's depth is implied, not stored. A line of 8 words
holds ``SMALL_WAYS`` (6) entries: words 0-5 their checks, words 6 and 7 their fields
(16 bits each, four to a word: count + 1, 0 for an empty entry); entry w's word is
``check ^ field * MIX`` (MIX odd, so two fields never give the same share), so a check
word and a field that two threads left from two stores no longer pass (Hyatt's rule
again). A count over 65,534 (a variant's, an odd position's) is not stored. Six entries
of 10 bytes a line where the deep section has four of 16. Lines are picked by key 1's
upper 32 bits (``(key >> 32) * lines >> 32``: the section's lines are any number). A
line keeps its newest entries: a new one goes first and the oldest leaves (as many hits
as keeping the largest counts at startpos 9 with 512 MiB, more with a table far too
small: docs/benchmarks.md).

An empty array disables the table.

``fetch_at`` asks for the bucket of a key at a depth ahead of its probe (``prefetch.py``):
the walk fetches a child's bucket ``perft.AHEAD`` children before it probes it.
"""

import numpy as np
from numba import carray, njit

from .hashtable import allocate  # noqa: F401 (re-exported)
from .prefetch import prefetch

WAYS = 4
# depth-2 entries a line: six 64-bit checks and six 16-bit counts
SMALL_WAYS = 6
# the depth held by the depth-2 section
SMALL_DEPTH = 2
# the deep section is at most this share of a split table (the largest power of two within it)
DEEP_PART = 4
# tables of fewer words are one deep section (a tiny table keeps every depth exact)
SPLIT_FROM = 1024
_DEPTH_MASK = np.uint64(63)
_SIX = np.uint64(6)
_COUNT_BITS = np.uint64(58)  # a deep entry's count: the data word but its 6 depth bits
_FIELD_BITS = np.uint64(16)
_FIELD = np.uint64(0xFFFF)
_HALF = np.uint64(32)
_LINE = 8  # words
_LARGEST = 0xFFFF - 1  # the largest count the depth-2 section holds (a field holds count + 1)
# a field's share of its check word: odd, so that two fields never give the same share
_MIX = np.uint64(0x9E3779B97F4A7C15)
_ZERO = np.uint64(0)


@njit(cache=True)
def _deep_words(words):
    """The deep section's words: all of them in a table too small to split, else the
    largest power of two within ``1 / DEEP_PART`` of the table (its buckets are picked by
    a mask; a table of any number of lines has one)."""
    if words < SPLIT_FROM:
        return words
    part = words // DEEP_PART
    if part & (part - 1) == 0:
        return part  # a power of two already (every table but a --hash of other sizes)
    # the highest set bit of part, alone: every bit below it set, then the top one kept
    part |= part >> 1
    part |= part >> 2
    part |= part >> 4
    part |= part >> 8
    part |= part >> 16
    part |= part >> 32
    return part - (part >> 1)


@njit(cache=True)
def _bucket(words, key):
    """The first word of ``key``'s bucket in a deep section of ``words`` words, and its entries."""
    entries = words >> 1
    ways = WAYS if entries >= WAYS else entries
    mask = np.uint64(entries // ways - 1)
    return 2 * ways * np.int64(key & mask), ways


@njit(cache=True)
def _small_bucket(words, key):
    """The first word of ``key``'s line in the depth-2 section of a split table of
    ``words`` words."""
    start = _deep_words(words)
    lines = np.uint64((words - start) // _LINE)
    return start + _LINE * np.int64(((key >> _HALF) * lines) >> _HALF)


@njit(inline="always", cache=True)
def _field(tt, base, w):
    """Entry ``w``'s 16-bit field (count + 1; 0: empty) in the line at ``base``."""
    shift = np.uint64(16 * (w % 4))
    return (tt[base + SMALL_WAYS + w // 4] >> shift) & _FIELD


@njit(inline="always", cache=True)
def _small_slot(tt, base, check):
    """The entry of the line at ``base`` that holds ``check``, and its field; (-1, 0) if none."""
    for w in range(SMALL_WAYS):
        field = _field(tt, base, w)
        if field != _ZERO and (tt[base + w] ^ (field * _MIX)) == check:
            return w, field
    return -1, _ZERO


@njit(inline="always", cache=True)
def _fetch(tt, key, depth):
    """Start loading the bucket of ``key`` at ``depth`` into the cache (a hint: no value changes)."""
    words = tt.shape[0]
    if words >= SPLIT_FROM and depth == SMALL_DEPTH:
        prefetch(tt, _small_bucket(words, key))
    elif words != 0:
        prefetch(tt, _bucket(_deep_words(words), key)[0])


@njit(inline="always", cache=True)
def _probe(tt, key, check, depth):
    """The count stored for (check, depth) in ``key``'s bucket, or -1."""
    words = tt.shape[0]
    if words >= SPLIT_FROM and depth == SMALL_DEPTH:
        w, field = _small_slot(tt, _small_bucket(words, key), check)
        return np.int64(field) - 1  # -1: none
    if words == 0:
        return np.int64(-1)
    base, ways = _bucket(_deep_words(words), key)
    d = np.uint64(depth)
    for w in range(ways):
        i = base + 2 * w
        data = tt[i + 1]
        if (tt[i] ^ data) == check and (data & _DEPTH_MASK) == d:
            return np.int64(data >> _SIX)
    return np.int64(-1)


@njit(inline="always", cache=True)
def _store(tt, key, check, depth, count):
    """Store (check, depth) -> count in ``key``'s bucket: at depth 2 of a split table
    first in its bucket, the oldest leaving; else over the same entry or the bucket's
    least valuable one."""
    words = tt.shape[0]
    if words >= SPLIT_FROM and depth == SMALL_DEPTH:
        if count > _LARGEST:
            return  # never for a chess position (at most 47,524): not stored
        base = _small_bucket(words, key)
        if _small_slot(tt, base, check)[0] >= 0:
            return  # already there (another thread stored it)
        # the oldest goes, the newest comes first: checks one word on, fields 16 bits on
        for w in range(SMALL_WAYS - 1, 0, -1):
            tt[base + w] = tt[base + w - 1]
        low, high = tt[base + SMALL_WAYS], tt[base + SMALL_WAYS + 1]
        field = np.uint64(count) + np.uint64(1)
        tt[base + SMALL_WAYS + 1] = ((high << _FIELD_BITS) | (low >> np.uint64(48))) & np.uint64(0xFFFFFFFF)
        tt[base + SMALL_WAYS] = (low << _FIELD_BITS) | field
        tt[base] = check ^ (field * _MIX)
        return
    if words == 0 or np.uint64(count) >> _COUNT_BITS:
        return  # no table, or a count its entry's 58 bits cannot hold (a tree of 2^58 leaves)
    base, ways = _bucket(_deep_words(words), key)
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


# The table's functions, as calls. ``probe`` and ``store`` take the table as an array (the
# variant walk, tests); the perft walk calls ``fetch_at``, ``probe_at`` and ``store_at``
# with its address and length, which it holds as plain numbers: an array passed to a call
# that is not inlined costs numba's reference counting and seven words of arguments each
# time (``perft.py``).
@njit(cache=True)
def probe(tt, key, check, depth):
    """The count stored for (check, depth) in ``key``'s bucket, or -1."""
    return _probe(tt, key, check, depth)


@njit(cache=True)
def store(tt, key, check, depth, count):
    """Store (check, depth) -> count in ``key``'s bucket (``_store``)."""
    _store(tt, key, check, depth, count)


@njit(cache=True)
def fetch_at(tt_, words, key, depth):
    """``_fetch`` on the table of ``words`` words at address ``tt_``: start loading the
    bucket of ``key`` at ``depth`` into the cache (a hint: no value changes)."""
    _fetch(carray(tt_, (words,)), key, depth)


@njit(cache=True)
def probe_at(tt_, words, key, check, depth):
    """``probe`` on the table of ``words`` words at address ``tt_``."""
    return _probe(carray(tt_, (words,)), key, check, depth)


@njit(cache=True)
def store_at(tt_, words, key, check, depth, count):
    """``store`` on the table of ``words`` words at address ``tt_``."""
    _store(carray(tt_, (words,)), key, check, depth, count)
