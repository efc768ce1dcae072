"""Crazyhouse in the compiled core: drops, pockets and promoted flags.

The rules, as python-chess and Fairy-Stockfish agree on them (docs/variants.md):

* the moves on the board are chess moves (standard generation runs unchanged);
* a captured piece goes to the capturer's pocket as a piece of the capturer's colour, a
  promoted one (marked '~' in a FEN, ``bb[PROMOTED]``) as a pawn; a promoted piece keeps
  its mark when it moves;
* the side to move may drop a piece of its pocket on any empty square, a pawn never on
  the first or last rank; a drop may give check or mate; in check, a drop must block a
  slider's check (no drop helps against a contact or double check);
* a drop resets the halfmove clock (Fairy-Stockfish; python-chess counts it as one more
  halfmove: docs/variants.md, "Where the oracles disagree").

Pocket counts are ``st[POCKET + colour * 8 + ptype]``; their key terms and the promoted
squares' are ``vstate.py``'s. Nothing here is compiled into the standard walk.
"""

import numpy as np
from numba import njit

from .attacks import between
from .bitboard import ONE, RANK_1, RANK_8, ZERO, lsb, popcount
from .makemove import put_piece, turn_terms
from .move import CAPTURE, CASTLING, DROP, EN_PASSANT, castle_squares, encode, from_sq, promotion, to_sq
from .movegen import attackers_to
from .position import CASTLE, EP, FULL, HALF, KEY, KING, NO_SQ, OCC, PAWN, QUEEN, STM, occ_of, z_piece
from .vstate import POCKET, POCKET_MAX, PROMOTED, Z_POCKET, Z_PROMOTED

_DROP = np.int64(DROP)
_BACK_RANKS = RANK_1 | RANK_8


@njit(inline="always", cache=True)
def pocket_term(colour, ptype, n):
    """The key term of ``n`` pieces of ``ptype`` in ``colour``'s pocket (none for 0)."""
    if n <= 0:
        return ZERO
    return Z_POCKET[(colour * 8 + ptype) * POCKET_MAX + (n if n < POCKET_MAX else POCKET_MAX - 1)]


@njit(inline="always", cache=True)
def _pocket_add(bb, st, colour, ptype, delta):
    i = POCKET + colour * 8 + ptype
    n = st[i]
    st[i] = n + delta
    bb[KEY] ^= pocket_term(colour, ptype, n) ^ pocket_term(colour, ptype, n + delta)


@njit(inline="always", cache=True)
def drop_squares(T, bb, st):
    """The squares the side to move may drop on (pawns: less the back ranks): every empty
    square, those between king and checker in a slider's single check, none in a contact
    or double check."""
    us = st[STM] & 1
    empty = ~bb[OCC]
    kings = bb[(us << 3) | KING]
    if kings == ZERO:
        return empty
    ksq = lsb(kings)
    checkers = attackers_to(T, bb, ksq, bb[OCC], us ^ 1)
    if checkers == ZERO:
        return empty
    if checkers & (checkers - ONE):
        return ZERO
    return between(T, ksq, lsb(checkers)) & empty


@njit(inline="always", cache=True)
def drops(T, bb, st, out, n, count_only):
    """The legal drops of the side to move after the ``n`` moves already in ``out``."""
    us = st[STM] & 1
    base = POCKET + us * 8
    if st[base + 1] | st[base + 2] | st[base + 3] | st[base + 4] | st[base + QUEEN] == 0:
        return n
    squares = drop_squares(T, bb, st)
    for pt in range(PAWN, QUEEN + 1):
        if st[base + pt] > 0:
            t = squares & ~_BACK_RANKS if pt == PAWN else squares
            if count_only:
                n += popcount(t)
            else:
                while t:
                    to = lsb(t)
                    t &= t - ONE
                    out[n] = encode(to, to, pt, _DROP)
                    n += 1
    return n


@njit(inline="always", cache=True)
def make_drop(bb, board, st, move):
    """Drop in full (square array, pocket, key, clocks); the variant walk's copy-make."""
    us = st[STM] & 1
    to = to_sq(move)
    pt = promotion(move)
    pc = pt | (us << 3)
    key = turn_terms(bb[KEY], st[EP], 0)
    st[EP] = NO_SQ
    put_piece(bb, board, to, pc)
    bb[KEY] = key ^ z_piece(pc, to)
    _pocket_add(bb, st, us, pt, -1)
    st[HALF] = 0
    st[FULL] += us
    st[STM] = us ^ 1


@njit(inline="always", cache=True)
def before_move(bb, board, move):
    """What the pocket and the promoted flags need from the position before a move on
    the board: (the captured piece's type as it goes to the pocket, 0 for none; whether
    the moving piece is promoted)."""
    prom = bb[PROMOTED]
    frm = from_sq(move)
    to = to_sq(move)
    gained = 0
    if move & CAPTURE and not move & CASTLING:
        if move & EN_PASSANT:
            gained = PAWN
        elif (prom >> np.uint64(to)) & ONE:
            gained = PAWN
        else:
            gained = board[to] & 7
    return gained, (prom >> np.uint64(frm)) & ONE


@njit(inline="always", cache=True)
def after_move(bb, st, move, us, gained, moving_promoted):
    """After the standard move of side ``us``: the captured piece into its pocket, the
    promoted flags moved (a promotion marks its square, a capture clears it), keyed."""
    if gained:
        _pocket_add(bb, st, us, gained, 1)
    frm = from_sq(move)
    to = to_sq(move)
    prom = bb[PROMOTED]
    new = prom
    if move & CASTLING:
        if (prom >> np.uint64(to)) & ONE:  # a promoted castling rook (only from a FEN)
            new ^= (ONE << np.uint64(to)) | (ONE << np.uint64(castle_squares(frm, to)[1]))
    else:
        new &= ~((ONE << np.uint64(frm)) | (ONE << np.uint64(to)))
        if moving_promoted or promotion(move):
            new |= ONE << np.uint64(to)
    if new != prom:
        key = bb[KEY]
        diff = prom ^ new
        while diff:
            key ^= Z_PROMOTED[lsb(diff)]
            diff &= diff - ONE
        bb[KEY] = key
        bb[PROMOTED] = new


@njit(inline="always", cache=True)
def drop_for_count(bb, st, move, nb, nst):
    """The last ply's copy-make of a drop: only what move generation reads (the
    bitboards, castling rooks, side to move, en-passant square and the pockets)."""
    for i in range(CASTLE + 1):
        nb[i] = bb[i]
    us = st[STM] & 1
    b = ONE << np.uint64(to_sq(move))
    nb[promotion(move) | (us << 3)] |= b
    nb[occ_of(us)] |= b
    nb[OCC] |= b
    nst[STM] = us ^ 1
    nst[EP] = NO_SQ
    copy_pockets(st, nst)


@njit(inline="always", cache=True)
def copy_pockets(st, nst):
    for i in range(POCKET, POCKET + 16):
        nst[i] = st[i]

