"""The default transposition table size of a perft: by its depth and the machine's memory.

A perft of depth d stores about one entry per distinct position two or more plies above
the leaves; from the start position there are 72 thousand of them at depth 6, 0.8 million
at depth 7, 9.4 million at depth 8 and 96 million at depth 9 (16 bytes each), and the
table pays for each page it touches (zeroing, and on a virtual machine often the host
backing it), so the size grows with the depth: ×4 per ply from 1 MiB at depth 4 and
below to 256 MiB at depth 8, then ×8 per ply (the distinct positions grow about tenfold a
ply there): 2 GiB at depth 9, which ran faster than 1 GiB and no slower than 4 GiB
(docs/benchmarks.md has the measurements behind it). It never takes more than a quarter of the memory available
(``MemAvailable`` in /proc/meminfo, else the free physical pages), and at most 1 GiB where
neither can be read.
"""

from __future__ import annotations

import os

# the table of a depth-4 perft and shallower; each further ply multiplies it by GROWTH,
# and from depth DEEP_FROM on by DEEP_GROWTH
SMALLEST_MB = 1
GROWTH = 4
DEEP_FROM = 8
DEEP_GROWTH = 8
# at most this share of the available memory
MEMORY_SHARE = 4
# the cap where the available memory cannot be read
UNKNOWN_MEMORY_CAP_MB = 1024


def default_table_mb(depth: int, available_mb: int | None = None) -> int:
    """The table size in MiB for a perft of ``depth`` (a power of two, at least 1 MiB)
    with ``available_mb`` MiB of memory available (None: read it from the system)."""
    want = SMALLEST_MB * GROWTH ** max(0, min(depth, DEEP_FROM) - 4) * DEEP_GROWTH ** max(0, depth - DEEP_FROM)
    if available_mb is None:
        available_mb = memory_available_mb()
    cap = UNKNOWN_MEMORY_CAP_MB if available_mb is None else available_mb // MEMORY_SHARE
    size = min(want, max(cap, SMALLEST_MB))
    return 1 << (size.bit_length() - 1)  # round down to a power of two


def memory_available_mb() -> int | None:
    """The memory available for new allocations in MiB, or None where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024  # the figure is in kB
    except (OSError, ValueError, IndexError):
        pass
    try:  # other Unix systems: the free physical pages
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (AttributeError, OSError, ValueError):
        return None
