"""Making a move in a variant position: in place on a copy (the variant walk is copy-make).

``apply_move`` is a standard move (castling, en passant, promotion, to a king too, the
castling rooks, the clocks and the key): the standard walk's ``makemove.make`` with no
history kept, so that the variant walk cannot drift from standard chess;
``MAKE[vid]`` is it plus what the variant adds (3check: a check given is counted, and
keyed; atomic: the explosion; crazyhouse: drops, pockets and promoted flags).
``gives_check`` tells whether a move checks the enemy king, from the bitboards alone (the
last ply's copies have no square array): racing kings forbids such moves, 3check counts
them. Nothing here is compiled into the standard walk.
"""

import numpy as np
from numba import njit

from .attacks import K_ATT, N_ATT, P_ATT, bishop_attacks, rook_attacks
from .bitboard import ONE, ZERO, lsb
from .makemove import ep_victim, make
from .move import CASTLING, EN_PASSANT, castle_squares, from_sq, promotion, to_sq
from .position import BISHOP, KEY, KING, KNIGHT, OCC, PAWN, QUEEN, ROOK, STM
from . import vatomic, vhouse
from .move import DROP
from .vstate import ANTICHESS, ATOMIC, CHECKS, CRAZYHOUSE, HORDE, KINGOFTHEHILL, RACINGKINGS, THREECHECK, Z_CHECKS


@njit(inline="always", cache=True)
def apply_move(T, bb, board, st, move):
    """Make ``move`` on (bb, board, st) in place: the standard move, no history kept
    (``makemove.make`` with no history)."""
    return make(T, bb, board, st, None, None, move)


@njit(inline="always", cache=True)
def piece_type_on(bb, sq, color):
    """The type of ``color``'s piece on ``sq`` from the bitboards (0: none)."""
    b = ONE << np.uint64(sq)
    base = color << 3
    for pt in range(PAWN, KING + 1):
        if bb[base | pt] & b:
            return pt
    return 0


@njit(inline="always", cache=True)
def _attacks_from(T, pt, sq, us, occ):
    """What a ``pt`` of side ``us`` on ``sq`` attacks (the piece lookup is written out in
    ``vgen._piece_targets`` and ``vatomic._moves`` too: one inlined owner cost antichess's
    walk a third of its speed, docs/benchmarks.md "atomic, third pass")."""
    if pt == PAWN:
        return T[P_ATT + us * 64 + sq]
    if pt == KNIGHT:
        return T[N_ATT + sq]
    if pt == KING:
        return T[K_ATT + sq]
    t = ZERO
    if pt != ROOK:
        t |= bishop_attacks(T, sq, occ)
    if pt != BISHOP:
        t |= rook_attacks(T, sq, occ)
    return t


@njit(inline="always", cache=True)
def gives_check(T, bb, st, move):
    """Whether ``move`` (legal, of the side to move) leaves the enemy king attacked; False
    where the enemy has no king. From the bitboards only."""
    us = st[STM] & 1
    them = us ^ 1
    kings = bb[(them << 3) | KING]
    if kings == ZERO:
        return False
    eksq = lsb(kings)
    ek = ONE << np.uint64(eksq)
    frm = from_sq(move)
    to = to_sq(move)
    fb = ONE << np.uint64(frm)
    tb = ONE << np.uint64(to)
    ub = us << 3
    occ = bb[OCC]
    if move & CASTLING:
        kto, rto = castle_squares(frm, to)
        occ2 = (occ ^ fb ^ tb) | (ONE << np.uint64(kto)) | (ONE << np.uint64(rto))
        if rook_attacks(T, rto, occ2) & ek:
            return True
        moved = fb | tb
    else:
        occ2 = (occ ^ fb) | tb
        if move & EN_PASSANT:
            occ2 ^= ONE << np.uint64(ep_victim(to, us))
        pt = promotion(move)
        if pt == 0:
            pt = piece_type_on(bb, frm, us)
        if _attacks_from(T, pt, to, us, occ2) & ek:
            return True
        moved = fb
    diagonal = (bb[ub | BISHOP] | bb[ub | QUEEN]) & ~moved
    straight = (bb[ub | ROOK] | bb[ub | QUEEN]) & ~moved
    return ((bishop_attacks(T, eksq, occ2) & diagonal) | (rook_attacks(T, eksq, occ2) & straight)) != ZERO


@njit(inline="always", cache=True)
def count_check(bb, st, us):
    """3check: side ``us`` has given one more check (counter and key)."""
    n = st[CHECKS + us]
    key = bb[KEY]
    if n > 0:
        key ^= Z_CHECKS[us * 4 + (n if n < 3 else 3)]
    n += 1
    st[CHECKS + us] = n
    bb[KEY] = key ^ Z_CHECKS[us * 4 + (n if n < 3 else 3)]


@njit(inline="always", cache=True)
def threecheck_make(T, bb, board, st, move):
    """3check: the move, and a check given is counted."""
    check = gives_check(T, bb, st, move)
    us = st[STM] & 1
    apply_move(T, bb, board, st, move)
    if check:
        count_check(bb, st, us)


@njit(inline="always", cache=True)
def atomic_make(T, bb, board, st, move):
    """Atomic: the move, then its explosion."""
    apply_move(T, bb, board, st, move)
    vatomic.explode(T, bb, board, st, move)


@njit(inline="always", cache=True)
def crazyhouse_make(T, bb, board, st, move):
    """Crazyhouse: a drop, or the move with its pockets and promoted flags."""
    if move & DROP:
        vhouse.make_drop(bb, board, st, move)
        return
    us = st[STM] & 1
    gained, moving_promoted = vhouse.before_move(bb, board, move)
    apply_move(T, bb, board, st, move)
    vhouse.after_move(bb, st, move, us, gained, moving_promoted)


# Making a move in place in a position of each rule set: ``MAKE[vid](T, bb, board, st,
# move)``; chosen in Python like ``vgen.GENERATE`` (one rule set's code compiled per walk).
MAKE = {
    ATOMIC: atomic_make,
    CRAZYHOUSE: crazyhouse_make,
    KINGOFTHEHILL: apply_move,
    THREECHECK: threecheck_make,
    ANTICHESS: apply_move,
    HORDE: apply_move,
    RACINGKINGS: apply_move,
}
