"""Leaf-move counters for ``perft --stats``: the columns of the CPW "Perft Results" tables.

A row of counters (int64[N_COUNTERS], indices below) describes the moves made at one ply:

  NODES       how many (perft at that depth)
  CAPTURES    captures, en passant included          EN_PASSANTS  en-passant captures
  CASTLES     castling moves                         PROMOTIONS   promotions (each piece)
  CHECKS      moves after which the side to move is in check
  DISCOVERY   exactly one checker, and it is not the piece that moved (for castling the
              rook is the piece that moved); double checks are not also counted here
  DOUBLE      two checkers                           MATES  checks with no legal reply

Captures, en passant, castles and promotions are read from the move's flags. Checks need
the position after the move, but making every leaf move would cost ~10x a bulk-counted
perft, so at the last ply a move is made only when it *might* give check (the test
Stockfish's ``gives_check`` starts from): it lands on a square from which its piece
attacks the enemy king, or it leaves a line between one of our sliders and that king, or
it is a promotion, en passant or castling. Every other move cannot give check.
"""

import numpy as np
from numba import njit

from .attacks import N_ATT, P_ATT, bishop_attacks, rook_attacks
from .bitboard import ONE, ZERO, lsb
from .makemove import make, make_move, unmake, unmake_move
from chesskit.vocab import MAX_MOVES, PROMO_MASK, PROMO_SHIFT

from .move import CAPTURE, CASTLING, EN_PASSANT, castle_squares, from_sq, promotion, to_sq
from .movegen import _generate, checkers_of, count_legal, generate, king_lines
from .noref import borrow
from .position import BISHOP, KING, KNIGHT, OCC, PAWN, QUEEN, ROOK, STM, occ_of

NODES, CAPTURES, EN_PASSANTS, CASTLES, PROMOTIONS, CHECKS, DISCOVERY, DOUBLE, MATES = range(9)
N_COUNTERS = 9

# moves that are always made at the last ply: their effect on checks is not a simple lookup
_SPECIAL = CASTLING | EN_PASSANT | (PROMO_MASK << PROMO_SHIFT)


@njit(cache=True)
def _count_flags(move, rows, ply):
    rows[ply, NODES] += 1
    if move & CAPTURE:
        rows[ply, CAPTURES] += 1
    if move & EN_PASSANT:
        rows[ply, EN_PASSANTS] += 1
    if move & CASTLING:
        rows[ply, CASTLES] += 1
    if promotion(move):
        rows[ply, PROMOTIONS] += 1


@njit(cache=True)
def _count_checks(T, bb, board, st, move, rows, ply, scratch):
    """The check counters of ``move``, which has just been made."""
    checkers = checkers_of(T, bb, st)
    if checkers == ZERO:
        return
    rows[ply, CHECKS] += 1
    if checkers & (checkers - ONE):
        rows[ply, DOUBLE] += 1
    else:
        landed = to_sq(move)
        if move & CASTLING:
            landed = castle_squares(from_sq(move), landed)[1]  # the rook's square
        if lsb(checkers) != landed:
            rows[ply, DISCOVERY] += 1
    if count_legal(T, bb, board, st, scratch) == 0:
        rows[ply, MATES] += 1


@njit(cache=True)
def _check_squares(T, bb, us, out):
    """``out[pt]``: squares from which our piece of type pt attacks the enemy king;
    ``out[0]``: our pieces that alone block a line from one of our sliders to that king."""
    them = us ^ 1
    eksq = lsb(bb[(them << 3) | KING])
    occ = bb[OCC]
    diag = bishop_attacks(T, eksq, occ)
    straight = rook_attacks(T, eksq, occ)
    out[PAWN] = T[P_ATT + them * 64 + eksq]
    out[KNIGHT] = T[N_ATT + eksq]
    out[BISHOP] = diag
    out[ROOK] = straight
    out[QUEEN] = diag | straight
    out[KING] = ZERO
    out[0] = king_lines(T, bb, eksq, us)[1] & bb[occ_of(us)]


@njit(inline="always", cache=True)
def _count_last_ply(T, bb, board, st, hist, hkeys, moves, n, rows, ply, squares, scratch):
    """Count the ``n`` moves of the last ply, making only those that might give check."""
    _check_squares(T, bb, st[STM], squares)
    for i in range(n):
        move = moves[i]
        _count_flags(move, rows, ply)
        frm = from_sq(move)
        to = to_sq(move)
        if (
            (move & _SPECIAL) != 0
            or (squares[board[frm] & 7] >> np.uint64(to)) & ONE != ZERO
            or (squares[0] >> np.uint64(frm)) & ONE != ZERO
        ):
            make(T, bb, board, st, hist, hkeys, move)
            _count_checks(T, bb, board, st, move, rows, ply, scratch)
            unmake(bb, board, st, hist, hkeys)


@njit(cache=True, nogil=True)  # Ctrl-C: the CLI's watchdog thread must be able to run
def stats_walk(T, bb, board, st, hist, hkeys, depth, rows):
    """Add the counters of the moves made at ply k (1..depth) to ``rows[k - 1]`` (depth >= 1).

    One walk fills every ply, so ``rows[depth - 1]`` is ``perft depth --stats`` and the
    earlier rows are the shallower depths. An explicit stack, like perft's ``_walk``.
    """
    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    nmoves = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    scratch = np.empty(MAX_MOVES, dtype=np.int64)
    squares = np.empty(8, dtype=np.uint64)
    _stats_walk(T, bb, board, st, hist, hkeys, depth, rows, moves, nmoves, index, scratch, squares)


@njit(cache=True)
def _stats_walk(T, bb, board, st, hist, hkeys, depth, rows, moves, nmoves, index, scratch, squares):
    """stats_walk with its buffers, every array borrowed (see ``noref``)."""
    T = borrow(T)
    bb = borrow(bb)
    board = borrow(board)
    st = borrow(st)
    hist = borrow(hist)
    hkeys = borrow(hkeys)
    rows = borrow(rows)
    moves = borrow(moves)
    nmoves = borrow(nmoves)
    index = borrow(index)
    scratch = borrow(scratch)
    squares = borrow(squares)
    last = depth - 1
    nmoves[0] = generate(T, bb, board, st, moves[0])
    level = 0
    while level >= 0:
        if level == last:
            _count_last_ply(
                T, bb, board, st, hist, hkeys, moves[level], nmoves[level], rows, level, squares, scratch
            )
            level -= 1
            if level >= 0:
                unmake(bb, board, st, hist, hkeys)
            continue
        i = index[level]
        if i < nmoves[level]:
            index[level] = i + 1
            move = moves[level, i]
            _count_flags(move, rows, level)
            make(T, bb, board, st, hist, hkeys, move)
            _count_checks(T, bb, board, st, move, rows, level, scratch)
            level += 1
            nmoves[level] = _generate(T, bb, board, st, moves[level], False)
            index[level] = 0
        else:
            level -= 1
            if level >= 0:
                unmake(bb, board, st, hist, hkeys)


@njit(cache=True, nogil=True)  # Ctrl-C: the CLI's watchdog thread must be able to run
def divide_stats(T, bb, board, st, hist, hkeys, depth, root_moves, out):
    """Write the root moves, and in ``out[i]`` the counters of the leaf moves (ply ``depth``)
    below root move i; return how many root moves (depth >= 1)."""
    n = generate(T, bb, board, st, root_moves)
    scratch = np.empty(MAX_MOVES, dtype=np.int64)
    rows = np.zeros((max(depth - 1, 1), N_COUNTERS), dtype=np.int64)
    for i in range(n):
        move = root_moves[i]
        out[i, :] = 0
        make_move(T, bb, board, st, hist, hkeys, move)
        if depth == 1:  # the root move is itself the leaf
            _count_flags(move, out, i)
            _count_checks(T, bb, board, st, move, out, i, scratch)
        else:
            rows[:, :] = 0
            stats_walk(T, bb, board, st, hist, hkeys, depth - 1, rows)
            out[i, :] = rows[depth - 2, :]
        unmake_move(bb, board, st, hist, hkeys)
    return n
