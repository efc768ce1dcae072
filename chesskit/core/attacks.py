"""Attack tables, built once into one uint64 array ``T`` that jitted code takes as an argument.

Sliders look their attacks up by the occupancy of the squares that can block them
(``mask``, board edges excluded), in one table slice of ``2**bits`` entries per square.
Where PEXT is fast (``cpu.py``) it packs those ``bits`` occupancy bits into the index;
elsewhere fancy magic bitboards do: the masked occupancy times a magic number, whose top
``bits`` bits are the index. The magic numbers were found once by
``tools/find_magics.py`` (a seeded random search); searching at start-up would cost
~0.6 s on every run.

Layout of ``T`` (offsets are module constants):
  N_ATT[sq], K_ATT[sq], P_ATT[color*64+sq]      knight, king, pawn captures
  BETWEEN[a*64+b]   squares strictly between a and b on a line, else 0
  LINE[a*64+b]      the whole line through a and b (edge to edge), else 0
  R_MASK/R_MAGIC/R_SHIFT/R_BASE[sq], B_* alike,
  R_EMPTY/B_EMPTY[sq]  rook and bishop attacks on an empty board,
  CASTLE_SPAN/PATH/BEYOND[color*64 + king_file*8 + rook_file]  castling with king and
      rook on those files of the back rank: the squares that must be empty (king and
      rook excepted), the king's path that must be unattacked (landing square included),
      and the back rank beyond the rook,
  then the slider attack slices.
"""

import os
from pathlib import Path

import numpy as np
from numba import njit

from . import SLIDERS
from .bitboard import ONE, ZERO, pext
from .magics import BISHOP_MAGICS, ROOK_MAGICS
from .move import castle_squares

PEXT = SLIDERS == "pext"

N_ATT = 0
K_ATT = 64
P_ATT = 128
BETWEEN = 256
LINE = BETWEEN + 4096
R_MASK = LINE + 4096
R_MAGIC = R_MASK + 64
R_SHIFT = R_MAGIC + 64
R_BASE = R_SHIFT + 64
B_MASK = R_BASE + 64
B_MAGIC = B_MASK + 64
B_SHIFT = B_MAGIC + 64
B_BASE = B_SHIFT + 64
R_EMPTY = B_BASE + 64
B_EMPTY = R_EMPTY + 64
CASTLE_SPAN = B_EMPTY + 64
CASTLE_PATH = CASTLE_SPAN + 128
CASTLE_BEYOND = CASTLE_PATH + 128
SLIDE = CASTLE_BEYOND + 128

ROOK_DIRS = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]], dtype=np.int64)
BISHOP_DIRS = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]], dtype=np.int64)
KNIGHT_STEPS = np.array(
    [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]], dtype=np.int64
)
KING_STEPS = np.array(
    [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]], dtype=np.int64
)


@njit(cache=True)
def ray_attacks(sq, occ, dirs):
    """Slider attacks by walking rays (slow; used only to build the tables)."""
    result = ZERO
    f0, r0 = sq & 7, sq >> 3
    for i in range(dirs.shape[0]):
        f, r = f0 + dirs[i, 0], r0 + dirs[i, 1]
        while 0 <= f < 8 and 0 <= r < 8:
            b = ONE << np.uint64(r * 8 + f)
            result |= b
            if occ & b:
                break
            f += dirs[i, 0]
            r += dirs[i, 1]
    return result


@njit(cache=True)
def relevant_mask(sq, dirs):
    """Squares whose occupancy can change the slider's attacks: rays minus their last square."""
    result = ZERO
    f0, r0 = sq & 7, sq >> 3
    for i in range(dirs.shape[0]):
        f, r = f0 + dirs[i, 0], r0 + dirs[i, 1]
        while 0 <= f + dirs[i, 0] < 8 and 0 <= r + dirs[i, 1] < 8:
            result |= ONE << np.uint64(r * 8 + f)
            f += dirs[i, 0]
            r += dirs[i, 1]
    return result


@njit(cache=True)
def step_attacks(sq, steps):
    result = ZERO
    f0, r0 = sq & 7, sq >> 3
    for i in range(steps.shape[0]):
        f, r = f0 + steps[i, 0], r0 + steps[i, 1]
        if 0 <= f < 8 and 0 <= r < 8:
            result |= ONE << np.uint64(r * 8 + f)
    return result


@njit(cache=True)
def _fill_sliders(T, mask_off, magic_off, shift_off, base_off, start, dirs, magics, use_pext):
    """Fill one slider's magic slices from ``start``; return the next free index."""
    base = start
    for sq in range(64):
        mask = relevant_mask(sq, dirs)
        bits = 0
        m = mask
        while m:
            bits += 1
            m &= m - ONE
        T[mask_off + sq] = mask
        T[magic_off + sq] = magics[sq]
        T[shift_off + sq] = np.uint64(64 - bits)
        T[base_off + sq] = np.uint64(base)
        # enumerate every subset of mask (carry-rippler) and store its attack set; the
        # subsets come in the order of their packed bits, so the k-th is PEXT's index k
        sub = ZERO
        k = 0
        while True:
            if use_pext:
                idx = k
            else:
                idx = np.int64((sub * magics[sq]) >> np.uint64(64 - bits))
            T[base + idx] = ray_attacks(sq, sub, dirs)
            sub = (sub - mask) & mask
            k += 1
            if sub == ZERO:
                break
        base += 1 << bits
    return base


@njit(cache=True)
def _fill_castling(T):
    """The castling masks, for every king file and rook file of either back rank (the
    king lands on g/c and the rook on f/d, as in standard chess and Chess960)."""
    for color in range(2):
        back = 56 * color
        rank = np.uint64(0xFF) << np.uint64(back)
        for kf in range(8):
            for rf in range(8):
                if kf == rf:
                    continue
                ksq, r = back + kf, back + rf
                k_bb, r_bb = ONE << np.uint64(ksq), ONE << np.uint64(r)
                kto, rto = castle_squares(ksq, r)
                if rf > kf:
                    beyond = rank & ~(r_bb | (r_bb - ONE))
                else:
                    beyond = rank & (r_bb - ONE)
                path = T[BETWEEN + ksq * 64 + kto] | (ONE << np.uint64(kto))
                span = path | T[BETWEEN + r * 64 + rto] | (ONE << np.uint64(rto))
                i = color * 64 + kf * 8 + rf
                T[CASTLE_SPAN + i] = span & ~(k_bb | r_bb)
                T[CASTLE_PATH + i] = path
                T[CASTLE_BEYOND + i] = beyond


@njit(cache=True)
def _build(T, rook_magics, bishop_magics, use_pext):
    for sq in range(64):
        T[N_ATT + sq] = step_attacks(sq, KNIGHT_STEPS)
        T[K_ATT + sq] = step_attacks(sq, KING_STEPS)
        f, r = sq & 7, sq >> 3
        w = ZERO
        b = ZERO
        if r < 7:
            if f > 0:
                w |= ONE << np.uint64(sq + 7)
            if f < 7:
                w |= ONE << np.uint64(sq + 9)
        if r > 0:
            if f > 0:
                b |= ONE << np.uint64(sq - 9)
            if f < 7:
                b |= ONE << np.uint64(sq - 7)
        T[P_ATT + sq] = w
        T[P_ATT + 64 + sq] = b
        T[R_EMPTY + sq] = ray_attacks(sq, ZERO, ROOK_DIRS)
        T[B_EMPTY + sq] = ray_attacks(sq, ZERO, BISHOP_DIRS)
    for a in range(64):
        a_bb = ONE << np.uint64(a)
        for b in range(64):
            if a == b:
                continue
            b_bb = ONE << np.uint64(b)
            for dirs in (ROOK_DIRS, BISHOP_DIRS):
                if ray_attacks(a, ZERO, dirs) & b_bb:
                    T[LINE + a * 64 + b] = (
                        (ray_attacks(a, ZERO, dirs) & ray_attacks(b, ZERO, dirs)) | a_bb | b_bb
                    )
                    T[BETWEEN + a * 64 + b] = ray_attacks(a, b_bb, dirs) & ray_attacks(b, a_bb, dirs)
    _fill_castling(T)
    end = _fill_sliders(T, R_MASK, R_MAGIC, R_SHIFT, R_BASE, SLIDE, ROOK_DIRS, rook_magics, use_pext)
    end = _fill_sliders(T, B_MASK, B_MAGIC, B_SHIFT, B_BASE, end, BISHOP_DIRS, bishop_magics, use_pext)
    return end


def table_size(rook_magics=ROOK_MAGICS, bishop_magics=BISHOP_MAGICS) -> int:
    size = SLIDE
    for dirs in (ROOK_DIRS, BISHOP_DIRS):
        for sq in range(64):
            size += 1 << bin(int(relevant_mask(sq, dirs))).count("1")
    return size


_TABLES = None


def tables() -> np.ndarray:
    """The attack table ``T``: built once, saved beside the compiled code (the cache
    folder is keyed by the core's source, so a saved table always matches it), then
    loaded from there, which spares each start the table build."""
    global _TABLES
    if _TABLES is None:
        saved = Path(os.environ.get("NUMBA_CACHE_DIR", ".")) / "attack-table.npy"
        try:
            _TABLES = np.load(saved)
        except (OSError, ValueError):
            T = np.zeros(table_size(), dtype=np.uint64)
            _build(T, ROOK_MAGICS, BISHOP_MAGICS, PEXT)
            _TABLES = T
            try:
                saved.parent.mkdir(parents=True, exist_ok=True)
                tmp = saved.with_suffix(f".{os.getpid()}.tmp.npy")
                np.save(tmp, T)
                os.replace(tmp, saved)
            except OSError:
                pass  # a read-only cache only costs the build next time
    return _TABLES


if PEXT:

    @njit(cache=True)
    def rook_attacks(T, sq, occ):
        return T[np.int64(T[R_BASE + sq] + pext(occ, T[R_MASK + sq]))]

    @njit(cache=True)
    def bishop_attacks(T, sq, occ):
        return T[np.int64(T[B_BASE + sq] + pext(occ, T[B_MASK + sq]))]

else:

    @njit(cache=True)
    def rook_attacks(T, sq, occ):
        idx = ((occ & T[R_MASK + sq]) * T[R_MAGIC + sq]) >> T[R_SHIFT + sq]
        return T[np.int64(T[R_BASE + sq] + idx)]

    @njit(cache=True)
    def bishop_attacks(T, sq, occ):
        idx = ((occ & T[B_MASK + sq]) * T[B_MAGIC + sq]) >> T[B_SHIFT + sq]
        return T[np.int64(T[B_BASE + sq] + idx)]


@njit(cache=True)
def between(T, a, b):
    return T[BETWEEN + a * 64 + b]


@njit(cache=True)
def line(T, a, b):
    return T[LINE + a * 64 + b]
