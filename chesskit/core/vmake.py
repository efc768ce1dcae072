"""Making a move in a variant position: in place on a copy (the variant walk is copy-make).

``apply_move`` is a standard move (castling, en passant, promotion, to a king too, the
castling rooks, the clocks and the key), built from ``makemove``'s small rules so that the
variant walk cannot drift from standard chess; ``MAKE[vid]`` is it plus what the variant
adds (3check: a check given is counted, and keyed; atomic: the explosion; crazyhouse: drops,
pockets and promoted flags). ``gives_check`` tells whether a move
checks the enemy king, from the bitboards alone (the last ply's copies have no square
array): racing kings forbids such moves, 3check counts them. Nothing here is compiled
into the standard walk.
"""

import numpy as np
from numba import njit

from .attacks import K_ATT, N_ATT, P_ATT, bishop_attacks, rook_attacks
from .bitboard import ONE, ZERO, lsb
from .makemove import castling_terms, ep_after_push, ep_victim, landing, move_terms, put_piece, remove_piece, rights_after, turn_terms
from .move import CASTLING, DOUBLE, EN_PASSANT, castle_squares, from_sq, promotion, to_sq
from .movegen import attackers_to
from .position import BISHOP, CASTLE, EP, FULL, HALF, KEY, KING, KNIGHT, NO_SQ, OCC, PAWN, QUEEN, ROOK, STM, Z_EP, z_castle, z_piece
from . import vatomic, vhouse
from .move import DROP
from .vstate import ANTICHESS, ATOMIC, CHECKS, CRAZYHOUSE, HORDE, KINGOFTHEHILL, RACINGKINGS, THREECHECK, Z_CHECKS


@njit(inline="always", cache=True)
def apply_move(T, bb, board, st, move):
    """Make ``move`` on (bb, board, st) in place: the standard move, no history kept."""
    us = st[STM] & 1
    frm = from_sq(move)
    to = to_sq(move)
    key = turn_terms(bb[KEY], st[EP], 0)
    st[EP] = NO_SQ
    pc = board[frm]
    captured = 0
    if move & CASTLING:
        rook = board[to]
        kto, rto = castle_squares(frm, to)
        remove_piece(bb, board, frm, pc)
        remove_piece(bb, board, to, rook)
        put_piece(bb, board, kto, pc)
        put_piece(bb, board, rto, rook)
        key ^= castling_terms(pc, rook, frm, to, kto, rto, 0)
        st[HALF] += 1
    else:
        if move & EN_PASSANT:
            capsq = ep_victim(to, us)
            captured = board[capsq]
            remove_piece(bb, board, capsq, captured)
            key ^= z_piece(captured, capsq)
        elif board[to] != 0:
            captured = board[to]
            remove_piece(bb, board, to, captured)
            key ^= z_piece(captured, to)
        remove_piece(bb, board, frm, pc)
        placed = landing(pc, move, us)
        key = move_terms(key, pc, frm, placed, to, 0)
        put_piece(bb, board, to, placed)
        if (pc & 7) == PAWN or captured != 0:
            st[HALF] = 0
        else:
            st[HALF] += 1
        if move & DOUBLE:
            ep = ep_after_push(T, bb, frm, to, us)
            if ep != NO_SQ:
                st[EP] = ep
                key ^= Z_EP[ep & 7]
    rights = bb[CASTLE]
    if rights:
        new = rights_after(rights, pc, frm, to, us)
        if new != rights:
            key ^= z_castle(rights ^ new)
            bb[CASTLE] = new
    st[FULL] += us
    st[STM] = us ^ 1
    bb[KEY] = key
    return captured


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


@njit(cache=True)
def attacked(T, bb, sq, by):
    """Whether colour ``by`` attacks ``sq`` (for ``Board.is_check``)."""
    return attackers_to(T, bb, sq, bb[OCC], by) != ZERO
