"""A deliberately simple move generator, kept only as an oracle for the checker.

It shares nothing with ``movegen.py`` but the packed move format and make/unmake:

* pieces are found by scanning the square array, not the bitboards;
* moves come from stepping along (file, rank) direction pairs with bounds checks, not
  from attack tables, and "is this square attacked?" scans outward from the square;
* legality is make-and-test: every pseudo-legal move is made, and kept when the
  mover's king is not attacked afterwards.

Castling follows the rule as written: the king is not in check, every square the king
and rook pass over or land on is empty apart from the two of them, no square the king
crosses is attacked, and the king is not attacked where it lands (the make-and-test
covers the landing square, with the rook already on its new square).

Slow on purpose (it is never used to count), so simple enough to trust.
"""

import numpy as np
from numba import njit

from .bitboard import ONE
from .makemove import make, unmake
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, encode
from .position import (
    BISHOP,
    CASTLE,
    EP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    STM,
    WHITE,
)

_KNIGHT_STEPS = np.array(
    [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]], dtype=np.int64
)
_KING_STEPS = np.array(
    [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]], dtype=np.int64
)
_STRAIGHT = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]], dtype=np.int64)
_DIAGONAL = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]], dtype=np.int64)


@njit(cache=True)
def _on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


@njit(cache=True)
def _slider_hits(board, sq, dirs, by, kind):
    """True when the first piece along one of ``dirs`` from ``sq`` is ``by``'s ``kind`` or queen."""
    f0, r0 = sq & 7, sq >> 3
    for i in range(dirs.shape[0]):
        f, r = f0 + dirs[i, 0], r0 + dirs[i, 1]
        while _on_board(f, r):
            pc = board[r * 8 + f]
            if pc != 0:
                if (pc >> 3) == by and ((pc & 7) == kind or (pc & 7) == QUEEN):
                    return True
                break
            f += dirs[i, 0]
            r += dirs[i, 1]
    return False


@njit(cache=True)
def _stepper_hits(board, sq, steps, piece):
    f0, r0 = sq & 7, sq >> 3
    for i in range(steps.shape[0]):
        f, r = f0 + steps[i, 0], r0 + steps[i, 1]
        if _on_board(f, r) and board[r * 8 + f] == piece:
            return True
    return False


@njit(cache=True)
def square_attacked(board, sq, by):
    """Does a piece of colour ``by`` attack ``sq``? (What stands on ``sq`` does not matter.)"""
    f0, r0 = sq & 7, sq >> 3
    # a pawn of ``by`` attacks from one rank behind ``sq`` as seen from ``by``'s side
    r = r0 - 1 if by == WHITE else r0 + 1
    for df in (-1, 1):
        if _on_board(f0 + df, r) and board[r * 8 + f0 + df] == (PAWN | (by << 3)):
            return True
    if _stepper_hits(board, sq, _KNIGHT_STEPS, KNIGHT | (by << 3)):
        return True
    if _stepper_hits(board, sq, _KING_STEPS, KING | (by << 3)):
        return True
    return _slider_hits(board, sq, _STRAIGHT, by, ROOK) or _slider_hits(board, sq, _DIAGONAL, by, BISHOP)


@njit(cache=True)
def _king_square(board, color):
    for sq in range(64):
        if board[sq] == (KING | (color << 3)):
            return sq
    return -1


@njit(cache=True)
def _add_pawn_move(out, n, frm, to, flags):
    """One pawn move, or its four promotions when it reaches the last rank."""
    if (to >> 3) == 0 or (to >> 3) == 7:
        for promo in (KNIGHT, BISHOP, ROOK, QUEEN):
            out[n] = encode(frm, to, promo, flags)
            n += 1
    else:
        out[n] = encode(frm, to, 0, flags)
        n += 1
    return n


@njit(cache=True)
def _pawn_moves(board, st, frm, us, out, n):
    f, r = frm & 7, frm >> 3
    forward = 1 if us == WHITE else -1
    start_rank = 1 if us == WHITE else 6
    one = frm + 8 * forward
    if 0 <= one < 64 and board[one] == 0:
        n = _add_pawn_move(out, n, frm, one, 0)
        two = one + 8 * forward
        if r == start_rank and board[two] == 0:
            out[n] = encode(frm, two, 0, DOUBLE)
            n += 1
    for df in (-1, 1):
        if not _on_board(f + df, r + forward):
            continue
        to = (r + forward) * 8 + f + df
        pc = board[to]
        if pc != 0 and (pc >> 3) != us and (pc & 7) != KING:
            n = _add_pawn_move(out, n, frm, to, CAPTURE)
        elif to == st[EP]:
            out[n] = encode(frm, to, 0, CAPTURE | EN_PASSANT)
            n += 1
    return n


@njit(cache=True)
def _step_moves(board, frm, us, steps, slide, out, n):
    f0, r0 = frm & 7, frm >> 3
    for i in range(steps.shape[0]):
        f, r = f0 + steps[i, 0], r0 + steps[i, 1]
        while _on_board(f, r):
            to = r * 8 + f
            pc = board[to]
            if pc == 0:
                out[n] = encode(frm, to)
                n += 1
            else:
                if (pc >> 3) != us and (pc & 7) != KING:
                    out[n] = encode(frm, to, 0, CAPTURE)
                    n += 1
                break
            if not slide:
                break
            f += steps[i, 0]
            r += steps[i, 1]
    return n


@njit(cache=True)
def _castling_moves(board, bb, st, us, out, n):
    them = us ^ 1
    back = 0 if us == WHITE else 56
    ksq = _king_square(board, us)
    if ksq < 0 or (ksq >> 3) != (back >> 3) or square_attacked(board, ksq, them):
        return n
    for rook in range(back, back + 8):
        if not ((bb[CASTLE] >> np.uint64(rook)) & ONE) or board[rook] != (ROOK | (us << 3)):
            continue
        kto = back + (6 if rook > ksq else 2)
        rto = back + (5 if rook > ksq else 3)
        ok = True
        lo = min(ksq, kto, rook, rto)
        hi = max(ksq, kto, rook, rto)
        for sq in range(lo, hi + 1):
            passed = (min(ksq, kto) <= sq <= max(ksq, kto)) or (min(rook, rto) <= sq <= max(rook, rto))
            if passed and sq != ksq and sq != rook and board[sq] != 0:
                ok = False
        for sq in range(min(ksq, kto) + 1, max(ksq, kto)):
            if square_attacked(board, sq, them):
                ok = False
        if ok:
            out[n] = encode(ksq, rook, 0, CASTLING)
            n += 1
    return n


@njit(cache=True)
def pseudo_legal(bb, board, st, out):
    """Every pseudo-legal move of the side to move, written to ``out``; returns how many."""
    us = st[STM]
    n = 0
    for frm in range(64):
        pc = board[frm]
        if pc == 0 or (pc >> 3) != us:
            continue
        pt = pc & 7
        if pt == PAWN:
            n = _pawn_moves(board, st, frm, us, out, n)
        elif pt == KNIGHT:
            n = _step_moves(board, frm, us, _KNIGHT_STEPS, False, out, n)
        elif pt == KING:
            n = _step_moves(board, frm, us, _KING_STEPS, False, out, n)
        else:
            if pt != ROOK:
                n = _step_moves(board, frm, us, _DIAGONAL, True, out, n)
            if pt != BISHOP:
                n = _step_moves(board, frm, us, _STRAIGHT, True, out, n)
    return _castling_moves(board, bb, st, us, out, n)


@njit(cache=True)
def leaves_king_attacked(T, bb, board, st, hist, hkeys, move):
    """Make ``move``, ask whether the mover's king is attacked, unmake."""
    us = st[STM]
    make(T, bb, board, st, hist, hkeys, move)
    attacked = square_attacked(board, _king_square(board, us), us ^ 1)
    unmake(bb, board, st, hist, hkeys)
    return attacked


@njit(cache=True)
def oracle_moves(T, bb, board, st, hist, hkeys, out, scratch):
    """The legal moves by make-and-test over ``pseudo_legal``; returns how many (in ``out``)."""
    m = pseudo_legal(bb, board, st, scratch)
    n = 0
    for i in range(m):
        if not leaves_king_attacked(T, bb, board, st, hist, hkeys, scratch[i]):
            out[n] = scratch[i]
            n += 1
    return n
