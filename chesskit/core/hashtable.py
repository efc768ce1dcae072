"""Allocating the perft transposition table (numpy and mmap only: a perft that loads no
numba allocates it too; ``tt.py`` describes the entries and has the compiled probe and store)."""

import mmap

import numpy as np

_LINE = 64
# from this size on the table is mapped with transparent huge pages where the system
# offers them: far cheaper to fill (on a 2-core VM 4 KiB pages filled at 0.4 GiB/s, huge
# pages several times faster: docs/benchmarks.md) and fewer TLB misses to probe it
_HUGE_FROM = 8 << 20
# from _HUGE_FROM on the size is a whole number of these (a huge page), not a power of two
_HUGE_PAGE = 2 << 20


def allocate(megabytes: float) -> np.ndarray:
    """A zeroed table of at most ``megabytes`` MiB, aligned to a cache line (a bucket of
    ``tt.WAYS`` entries): from 8 MiB on a whole number of 2 MiB (``tt.py`` splits any
    such size), below it a power of two entries. Raises MemoryError when the system
    cannot map it."""
    nbytes = int(megabytes * 1024 * 1024)
    if nbytes >= _HUGE_FROM:
        nbytes -= nbytes % _HUGE_PAGE
    elif nbytes >= 16:
        nbytes = 16 << ((nbytes // 16).bit_length() - 1)
    else:
        return np.zeros(0, dtype=np.uint64)
    if nbytes >= _HUGE_FROM and hasattr(mmap, "MAP_ANONYMOUS"):  # not on Windows: np.zeros below
        try:
            # an anonymous map is zero-filled on first touch, page by page, and page aligned
            area = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        except OSError as err:
            raise MemoryError(str(err)) from None
        if hasattr(area, "madvise") and hasattr(mmap, "MADV_HUGEPAGE"):
            try:
                area.madvise(mmap.MADV_HUGEPAGE)
            except OSError:  # no transparent huge pages here: normal pages serve
                pass
        return np.frombuffer(area, dtype=np.uint64)  # the array holds the map open
    words = nbytes // 8
    raw = np.zeros(words + _LINE // 8, dtype=np.uint64)
    skip = (-raw.ctypes.data % _LINE) // 8
    return raw[skip : skip + words]
