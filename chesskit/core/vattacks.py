"""The squares one piece attacks, for the variant core: the one owner of the piece loop's
lookup that ``vatomic`` (its moves), ``vgen`` (antichess's and horde's free moves) and
``vmake`` (``gives_check``) share. Below them: it imports only the attack table's lookups.

``piece_attacks(T, pt, sq, us, occ)``: the targets of a piece of type ``pt`` (of side ``us``:
a pawn's captures depend on it) on ``sq`` with occupancy ``occ``; a queen's are a bishop's and
a rook's. Inlined: where ``pt`` is a constant (a literal tuple's item, a module constant),
numba and LLVM keep that type's lookup only.
"""

from numba import njit

from .attacks import K_ATT, N_ATT, P_ATT, bishop_attacks, rook_attacks
from .bitboard import ZERO
from .position import BISHOP, KING, KNIGHT, PAWN, ROOK


@njit(inline="always", cache=True)
def piece_attacks(T, pt, sq, us, occ):
    """What a ``pt`` of side ``us`` on ``sq`` attacks when the occupancy is ``occ``."""
    if pt == KNIGHT:
        return T[N_ATT + sq]
    if pt == KING:
        return T[K_ATT + sq]
    if pt == PAWN:
        return T[P_ATT + us * 64 + sq]
    t = ZERO
    if pt != ROOK:
        t |= bishop_attacks(T, sq, occ)
    if pt != BISHOP:
        t |= rook_attacks(T, sq, occ)
    return t
