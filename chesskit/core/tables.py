"""Attack tables, built once into one uint64 array ``T`` that jitted code takes as an argument
(plain Python and numpy, no numba: ``attacks.py`` has the compiled lookups).

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

import io
import os
from pathlib import Path

import numpy as np

from chesskit.outpath import write_atomic
from chesskit.vocab import BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS, castle_squares

from . import SLIDERS
from .magics import BISHOP_MAGICS, ROOK_MAGICS

ONE = np.uint64(1)
ZERO = np.uint64(0)

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



def _on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def ray_attacks(sq, occ, dirs):
    """Slider attacks by walking rays (slow, plain Python: the tables' and tests' oracle)."""
    occ = int(occ)
    result = 0
    for df, dr in dirs:
        f, r = (sq & 7) + df, (sq >> 3) + dr
        while _on_board(f, r):
            result |= 1 << (r * 8 + f)
            if occ >> (r * 8 + f) & 1:
                break
            f, r = f + df, r + dr
    return np.uint64(result)


def relevant_mask(sq, dirs):
    """Squares whose occupancy can change the slider's attacks: rays minus their last square."""
    result = 0
    for df, dr in dirs:
        f, r = (sq & 7) + df, (sq >> 3) + dr
        while _on_board(f + df, r + dr):
            result |= 1 << (r * 8 + f)
            f, r = f + df, r + dr
    return np.uint64(result)


def step_attacks(sq, steps):
    f0, r0 = sq & 7, sq >> 3
    return np.uint64(sum(1 << ((r0 + dr) * 8 + f0 + df) for df, dr in steps if _on_board(f0 + df, r0 + dr)))


def subsets_of(mask):
    """Every subset of ``mask``, in the order of their packed bits (the k-th is PEXT's
    index k)."""
    bits = [b for b in range(64) if int(mask) >> b & 1]
    k = np.arange(1 << len(bits), dtype=np.uint64)
    occ = np.zeros(k.shape[0], dtype=np.uint64)
    for j, b in enumerate(bits):
        occ |= ((k >> np.uint64(j)) & ONE) << np.uint64(b)
    return occ


def rays_of_many(sq, occs, dirs):
    """``ray_attacks`` for an array of occupancies at once (numpy)."""
    result = np.zeros(occs.shape[0], dtype=np.uint64)
    for df, dr in dirs:
        going = np.ones(occs.shape[0], dtype=bool)
        f, r = (sq & 7) + df, (sq >> 3) + dr
        while _on_board(f, r):
            b = np.uint64(1 << (r * 8 + f))
            result[going] |= b
            going &= (occs & b) == ZERO
            f, r = f + df, r + dr
    return result


def _fill_sliders(T, offsets, start, dirs, magics, use_pext):
    """Fill one slider's magic slices from ``start``; return the next free index."""
    mask_off, magic_off, shift_off, base_off = offsets
    base = start
    for sq in range(64):
        mask = relevant_mask(sq, dirs)
        bits = bin(int(mask)).count("1")
        T[mask_off + sq] = mask
        T[magic_off + sq] = magics[sq]
        T[shift_off + sq] = 64 - bits
        T[base_off + sq] = base
        occs = subsets_of(mask)
        if use_pext:
            idx = np.arange(occs.shape[0])
        else:
            idx = ((occs * magics[sq]) >> np.uint64(64 - bits)).astype(np.int64)
        T[base + idx] = rays_of_many(sq, occs, dirs)
        base += 1 << bits
    return base


def _fill_castling(T):
    """The castling masks, for every king file and rook file of either back rank (the
    king lands on g/c and the rook on f/d, as in standard chess and Chess960)."""
    for color in range(2):
        back = 56 * color
        rank = 0xFF << back
        for kf in range(8):
            for rf in range(8):
                if kf == rf:
                    continue
                ksq, r = back + kf, back + rf
                k_bb, r_bb = 1 << ksq, 1 << r
                kto, rto = castle_squares(ksq, r)
                beyond = rank & ~(r_bb | (r_bb - 1)) if rf > kf else rank & (r_bb - 1)
                path = int(T[BETWEEN + ksq * 64 + kto]) | (1 << kto)
                span = path | int(T[BETWEEN + r * 64 + rto]) | (1 << rto)
                i = color * 64 + kf * 8 + rf
                T[CASTLE_SPAN + i] = span & ~(k_bb | r_bb)
                T[CASTLE_PATH + i] = path
                T[CASTLE_BEYOND + i] = beyond


def _build(T, rook_magics, bishop_magics, use_pext):
    """Fill ``T`` (plain Python and numpy: about 0.1 s once per cache folder, where
    compiling a builder would cost seconds on the first run)."""
    for sq in range(64):
        T[N_ATT + sq] = step_attacks(sq, KNIGHT_STEPS)
        T[K_ATT + sq] = step_attacks(sq, KING_STEPS)
        T[P_ATT + sq] = step_attacks(sq, ((-1, 1), (1, 1)))
        T[P_ATT + 64 + sq] = step_attacks(sq, ((-1, -1), (1, -1)))
        T[R_EMPTY + sq] = ray_attacks(sq, 0, ROOK_DIRS)
        T[B_EMPTY + sq] = ray_attacks(sq, 0, BISHOP_DIRS)
    for a in range(64):
        for b in range(64):
            for dirs in (ROOK_DIRS, BISHOP_DIRS):
                if a != b and int(T[(R_EMPTY if dirs is ROOK_DIRS else B_EMPTY) + a]) >> b & 1:
                    both = int(ray_attacks(a, 0, dirs)) & int(ray_attacks(b, 0, dirs))
                    T[LINE + a * 64 + b] = both | (1 << a) | (1 << b)
                    T[BETWEEN + a * 64 + b] = int(ray_attacks(a, 1 << b, dirs)) & int(ray_attacks(b, 1 << a, dirs))
    _fill_castling(T)
    end = _fill_sliders(T, (R_MASK, R_MAGIC, R_SHIFT, R_BASE), SLIDE, ROOK_DIRS, rook_magics, use_pext)
    return _fill_sliders(T, (B_MASK, B_MAGIC, B_SHIFT, B_BASE), end, BISHOP_DIRS, bishop_magics, use_pext)


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
                data = io.BytesIO()
                np.save(data, T)
                write_atomic(saved, data.getvalue())
            except OSError:
                pass  # a read-only cache only costs the build next time
    return _TABLES
