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

import numpy as np

from chesskit.vocab import BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS, castle_squares

from . import CACHE, KEY, SLIDERS, cachefs
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


SAVED = "attack-table.npy"
SAVED_MANIFEST = "attack-table.json"
MANIFEST = {"sha256": str, "length": int}  # the manifest's fields and their types

_TABLES = None
_DIGEST = None


def tables() -> np.ndarray:
    """The attack table ``T``: built once, saved in this build's cache folder with a
    sealed manifest (``cachefs.seal``: its digest and length), then loaded from there,
    which spares each start the table build. A saved table is used only when it is this
    build's, intact (digest, dtype, shape) and looks right (``_looks_right``); any doubt
    builds it again: the walk reads the table without bounds checks."""
    global _TABLES, _DIGEST
    if _TABLES is None:
        T = _load()
        if T is None:
            T = np.zeros(table_size(), dtype=np.uint64)
            _build(T, ROOK_MAGICS, BISHOP_MAGICS, PEXT)
            _DIGEST = _digest(T)
            _save(T)
        _TABLES = T
    return _TABLES


def magic_table() -> np.ndarray:
    """``T`` laid out for the magic lookups whatever this processor's choice: the GPU's
    (``chesskit/gpu``), where PEXT does not exist. This build's own table where it uses
    the magics already; else built afresh (about 0.1 s), never saved."""
    if not PEXT:
        return tables()
    T = np.zeros(table_size(), dtype=np.uint64)
    _build(T, ROOK_MAGICS, BISHOP_MAGICS, False)
    return T


def digest() -> str:
    """The SHA-256 of the table's words (the saved walk's manifest records it)."""
    tables()
    return _DIGEST


def _digest(T: np.ndarray) -> str:
    return cachefs.digest(memoryview(T).cast("B"))


def _load() -> np.ndarray | None:
    global _DIGEST
    if CACHE is None:
        return None
    meta = cachefs.unseal(cachefs.read(CACHE, SAVED_MANIFEST, 1 << 16), KEY, MANIFEST)
    size = table_size()
    if meta is None or meta["length"] != size:
        return None
    data = cachefs.read(CACHE, SAVED, size * 8 + (1 << 16))
    if data is None:
        return None
    try:
        T = np.load(io.BytesIO(data), allow_pickle=False)
    except Exception:  # noqa: BLE001 - whatever numpy makes of a damaged file: a miss
        return None
    if T.dtype != np.dtype(np.uint64) or T.shape != (size,) or not T.flags.c_contiguous:
        return None
    found = _digest(T)
    if found != meta["sha256"] or not _looks_right(T):
        return None
    _DIGEST = found
    return T


def _looks_right(T: np.ndarray) -> bool:
    """Cheap checks of a table whose digest matched: the step attacks and empty-board
    rays against their plain-Python definitions, and every slider slice (its shift and
    base) inside the table, so that no lookup can read past its end."""
    for sq in range(64):
        if (T[N_ATT + sq], T[K_ATT + sq]) != (step_attacks(sq, KNIGHT_STEPS), step_attacks(sq, KING_STEPS)):
            return False
    for empty, base, shift, mask, dirs in ((R_EMPTY, R_BASE, R_SHIFT, R_MASK, ROOK_DIRS), (B_EMPTY, B_BASE, B_SHIFT, B_MASK, BISHOP_DIRS)):
        shifts = T[shift : shift + 64].astype(np.int64)
        bases = T[base : base + 64]
        bits = np.unpackbits(T[mask : mask + 64].view(np.uint8)).reshape(64, 64).sum(axis=1)
        if shifts.min() < 52 or shifts.max() > 63 or bases.min() < SLIDE or (bits != 64 - shifts).any():
            return False
        if (bases + (np.uint64(1) << (np.uint64(64) - shifts.astype(np.uint64)))).max() > T.shape[0]:
            return False
        for sq in (0, 27, 63):
            if T[empty + sq] != ray_attacks(sq, 0, dirs) or T[mask + sq] != relevant_mask(sq, dirs):
                return False
            if T[int(T[base + sq])] != T[empty + sq]:  # the empty occupancy's entry
                return False
    return True


def _save(T: np.ndarray) -> None:
    """The table, then its manifest (best effort: a full disk only costs the build next time)."""
    if CACHE is None:
        return
    data = io.BytesIO()
    np.save(data, T)
    if cachefs.write(CACHE, SAVED, data.getvalue()):
        cachefs.write(CACHE, SAVED_MANIFEST, cachefs.seal(KEY, {"sha256": _DIGEST, "length": int(T.shape[0])}))
