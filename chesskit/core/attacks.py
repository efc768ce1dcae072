"""The compiled lookups in the attack table ``T`` (``tables.py`` lays it out and builds it;
its offsets are re-exported here for the compiled core)."""

from numba import njit

from .bitboard import pext
from .tables import (  # noqa: F401 (re-exported)
    B_BASE,
    B_EMPTY,
    B_MAGIC,
    B_MASK,
    B_SHIFT,
    BETWEEN,
    CASTLE_BEYOND,
    CASTLE_PATH,
    CASTLE_SPAN,
    K_ATT,
    LINE,
    N_ATT,
    P_ATT,
    PEXT,
    R_BASE,
    R_EMPTY,
    R_MAGIC,
    R_MASK,
    R_SHIFT,
    SLIDE,
    BISHOP_DIRS,
    ROOK_DIRS,
    ray_attacks,
    relevant_mask,
    tables,
)


# The slices are indexed by the uint64 sum itself: numba checks a signed index for a
# negative value (wraparound) on every lookup, an unsigned one never (about 9% of the
# instructions of Kiwipete's perft).

# The magic lookups as plain Python: compiled here where PEXT is not used, and always by
# the GPU (``chesskit/gpu/rules.py``: PEXT is an x86 instruction), on a table laid out
# for them (``tables.magic_table``).


def rook_attacks_magic(T, sq, occ):
    idx = ((occ & T[R_MASK + sq]) * T[R_MAGIC + sq]) >> T[R_SHIFT + sq]
    return T[T[R_BASE + sq] + idx]


def bishop_attacks_magic(T, sq, occ):
    idx = ((occ & T[B_MASK + sq]) * T[B_MAGIC + sq]) >> T[B_SHIFT + sq]
    return T[T[B_BASE + sq] + idx]


if PEXT:

    @njit(cache=True)
    def rook_attacks(T, sq, occ):
        return T[T[R_BASE + sq] + pext(occ, T[R_MASK + sq])]

    @njit(cache=True)
    def bishop_attacks(T, sq, occ):
        return T[T[B_BASE + sq] + pext(occ, T[B_MASK + sq])]

else:
    rook_attacks = njit(cache=True)(rook_attacks_magic)
    bishop_attacks = njit(cache=True)(bishop_attacks_magic)


@njit(cache=True)
def between(T, a, b):
    return T[BETWEEN + a * 64 + b]


@njit(cache=True)
def line(T, a, b):
    return T[LINE + a * 64 + b]
