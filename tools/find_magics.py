"""Find magic numbers for the rook and bishop tables and print chesskit/core/magics.py.

Run once: ``python tools/find_magics.py > chesskit/core/magics.py``. Seeded, so it prints
the same numbers every time. A magic for a square maps every subset of that square's
blocker mask to a slot in a table of 2**bits entries without two subsets with different
attack sets sharing a slot.
"""

import numpy as np
from numba import njit

from chesskit.core.tables import rays_of_many, relevant_mask, subsets_of
from chesskit.core.bitboard import ONE
from chesskit.vocab import BISHOP_DIRS, ROOK_DIRS


@njit(cache=True)
def _try_magic(magic, subsets, attacks, n, bits, used, slot_att, stamp):
    shift = np.uint64(64 - bits)
    for i in range(n):
        idx = np.int64((subsets[i] * magic) >> shift)
        if used[idx] != stamp:
            used[idx] = stamp
            slot_att[idx] = attacks[i]
        elif slot_att[idx] != attacks[i]:
            return False
    return True


def find_magic(sq, dirs, seed):
    mask = relevant_mask(sq, dirs)
    subsets = subsets_of(mask)
    return _search(mask, subsets, rays_of_many(sq, subsets, dirs), seed)


@njit(cache=True)
def _search(mask, subsets, attacks, seed):
    np.random.seed(seed)
    n = subsets.shape[0]
    bits = 0
    while (1 << bits) < n:
        bits += 1
    used = np.zeros(4096, dtype=np.int64)
    slot_att = np.zeros(4096, dtype=np.uint64)
    stamp = 0
    while True:
        # sparse random candidates (the AND of three randoms) work best
        magic = _rand64() & _rand64() & _rand64()
        if bin_count_top(mask * magic) < 6:
            continue
        stamp += 1
        if _try_magic(magic, subsets, attacks, n, bits, used, slot_att, stamp):
            return magic


@njit(cache=True)
def _rand64():
    hi = np.uint64(np.random.randint(0, 1 << 32))
    lo = np.uint64(np.random.randint(0, 1 << 32))
    return (hi << np.uint64(32)) | lo


@njit(cache=True)
def bin_count_top(x):
    top = x >> np.uint64(56)
    c = 0
    while top:
        c += 1
        top &= top - ONE
    return c


def main():
    print('"""Magic numbers for the slider tables, found by tools/find_magics.py (seeded search)."""')
    print()
    print("import numpy as np")
    for name, dirs in (("ROOK_MAGICS", ROOK_DIRS), ("BISHOP_MAGICS", BISHOP_DIRS)):
        magics = [int(find_magic(sq, dirs, 1000 + sq)) for sq in range(64)]
        print()
        print(f"{name} = np.array(")
        print("    [")
        for i in range(0, 64, 4):
            print("        " + " ".join(f"0x{m:016X}," for m in magics[i : i + 4]))
        print("    ],")
        print("    dtype=np.uint64,")
        print(")")


if __name__ == "__main__":
    main()
