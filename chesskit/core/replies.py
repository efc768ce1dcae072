"""Reply counts that a quiet move provably leaves as they were.

Two plies above the leaves, perft counts the replies of side T after each move of side S
(to move). Many of S's moves are quiet moves far from T's pieces: after any of them T
has exactly the moves it would have if S passed (T to move in the same position, no
en-passant square). The walk counts those once per node, on the position that
``pass_copy`` writes, with the same count it makes for each move (one inlined copy of the
generator's counting mode: first-run compile time), and each move that provably changes
nothing for T (``same_replies``, with the squares of ``sensitive_squares``) takes that
count instead of a copy-make and a count of its own.

A quiet move of S's piece from ``f`` to ``x`` (no capture, promotion, castling or en
passant, and not a double push that leaves an en-passant square) changes the board only
on ``f`` and ``x``. T's legal moves depend on the board through:

- what T's pieces reach: a slider's ray stops at its first piece, a pawn pushes onto
  empty squares and takes on occupied ones (``reach``: T's slider attacks and pawns'
  push and capture squares). A knight's or the king's targets are every square without
  a T piece, whoever stands there, so they are not in it;
- which squares S attacks around T's king, and on the king's castling paths (the
  king's moves and castling; the king lifted, as the generator tests its moves), and
  checks and pins on T's king (along its lines, T's own pieces seen through). Along a
  line from such a square, S's attack changes only where an S slider sees the square
  (the slider leaving, or a piece arriving in between), where one S piece stands in
  front of a slider that would see it (that piece leaving), or where an S bishop, rook
  or queen arrives on a line of its kind (``_lines``); a knight, pawn or king attacks
  by table, from ``f`` before and ``x`` after;
- castling's empty squares: T's back rank, while T has a castling right;
- and S's king: when S is in check, T "attacks" it in the position where S passes, so
  no move is taken as the same then.

A move of S whose ``f`` and ``x`` lie in none of these (``sensitive``), whose knight,
pawn or king attacks none of the king's squares and whose bishop, rook or queen arrives on
no line of its kind to them leaves T's replies as they are when S passes. On positions a
few plies from the start that is two moves in three (about three in four have the same
number of replies, some by chance); in middlegames about two in five.
Both counts are ``movegen._generate``'s: nothing here writes the rules of moves again.
"""

import numpy as np
from numba import njit

from chesskit.vocab import PROMO_MASK

from .attacks import K_ATT, N_ATT, P_ATT, between, bishop_attacks, rook_attacks
from .bitboard import ONE, RANK_1, RANK_3, RANK_6, RANK_8, ZERO, lsb
from .makemove import ep_kept
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, PROMO_SHIFT, from_sq, to_sq
from .movegen import _open_castlings, attackers_to, pawn_attacks, slider_attacks
from .position import BISHOP, CASTLE, EP, KING, KNIGHT, NO_SQ, OCC, PAWN, QUEEN, ROOK, STM, WHITE, occ_of
from .wordcopy import copy_words

_NOT_QUIET = CAPTURE | CASTLING | EN_PASSANT | (PROMO_MASK << PROMO_SHIFT)


@njit(inline="always", cache=True)
def pass_copy(T, bb, st, nb, nst):
    """At a node two plies above the leaves (S to move): write onto ``nb``/``nst`` the
    position with S passing (the same board, T to move, no en-passant square), for the
    walk's count of T's moves there; False, writing nothing, when S is in check."""
    us = st[STM] & 1
    if attackers_to(T, bb, lsb(bb[(us << 3) | KING]), bb[OCC], us ^ 1):
        return False
    copy_words(nb, bb, CASTLE)
    nb[CASTLE] = bb[CASTLE]
    nst[STM] = us ^ 1
    nst[EP] = NO_SQ
    return True


@njit(inline="always", cache=True)
def _lines(T, sq, occ, ours, diagonal, straight):
    """The lines from ``sq`` (stopped by ``occ``) along which S's attack on ``sq`` can
    change: the squares where an S piece leaving or arriving changes it (from ``sq`` to
    each S slider that sees it; the one S piece in front of a slider that would see it
    once that piece has gone), and every square of the diagonal and straight lines (a
    bishop or queen arriving on the first, a rook or queen on the second, would see
    ``sq``)."""
    d = bishop_attacks(T, sq, occ)
    r = rook_attacks(T, sq, occ)
    live = ZERO
    sliders = (d & diagonal) | (r & straight)
    while sliders:  # each with its line: one leaving or a piece arriving in between
        s = lsb(sliders)
        sliders &= sliders - ONE
        live |= between(T, sq, s) | (ONE << np.uint64(s))
    hidden = (bishop_attacks(T, sq, occ ^ (d & ours)) & ~d & diagonal) | (rook_attacks(T, sq, occ ^ (r & ours)) & ~r & straight)
    while hidden:  # only the S piece in between, leaving, uncovers it
        s = lsb(hidden)
        hidden &= hidden - ONE
        live |= between(T, sq, s) & ours
    return live, d, r


@njit(cache=True)  # a call, once per node: compiled by the first run's second core (prewarm)
def sensitive_squares(T, bb, st):
    """The squares a quiet move of S (to move) must not touch to leave T's replies as they
    are when S passes; the squares around T's king that S's moving knight, pawn or king
    must not attack; and the diagonal and straight lines to those squares that S's
    arriving bishop, rook or queen must not stand on (sensitive, zone, diagonals,
    straights)."""
    us = st[STM] & 1
    them = us ^ 1
    tb = them << 3
    ub = us << 3
    occ = bb[OCC]
    ours = bb[occ_of(us)]
    theirs = bb[occ_of(them)]
    ksq = lsb(bb[tb | KING])
    # what T's sliders and pawns reach
    pawns = bb[tb | PAWN]
    reach = slider_attacks(T, bb, them, occ) | pawn_attacks(pawns, them)
    if them == WHITE:
        push = pawns << np.uint64(8)
        reach |= push | ((push & RANK_3) << np.uint64(8))
    else:
        push = pawns >> np.uint64(8)
        reach |= push | ((push & RANK_6) >> np.uint64(8))
    # the king's squares: its own, those it may move to, its open castlings' paths
    kbit = ONE << np.uint64(ksq)
    zone = kbit | (T[K_ATT + ksq] & ~theirs)
    back = RANK_1 if them == WHITE else RANK_8
    rights = bb[CASTLE] & back
    sensitive = reach | zone
    if rights:
        sensitive |= back
        rights, paths = _open_castlings(T, them, ksq, occ, rights)
        zone |= paths
    diagonal = bb[ub | BISHOP] | bb[ub | QUEEN]
    straight = bb[ub | ROOK] | bb[ub | QUEEN]
    # checks and pins: the king's lines, T's own pieces seen through
    live, diagonals, straights = _lines(T, ksq, ours, ours, diagonal, straight)
    sensitive |= live
    # S's attacks on the squares the king may move to, the king lifted
    occ_noking = occ ^ kbit
    squares = zone & ~kbit
    while squares:
        live, d, r = _lines(T, lsb(squares), occ_noking, ours, diagonal, straight)
        sensitive |= live
        diagonals |= d
        straights |= r
        squares &= squares - ONE
    return sensitive, zone, diagonals, straights


@njit(inline="always", cache=True)
def same_replies(T, bb, board, us, move, squares):
    """Whether S's ``move`` leaves T's replies as they are when S passes (``squares``:
    ``sensitive_squares``)."""
    if move & _NOT_QUIET:
        return False
    frm = from_sq(move)
    to = to_sq(move)
    moved = (ONE << np.uint64(frm)) | (ONE << np.uint64(to))
    if moved & squares[0]:
        return False
    if (move & DOUBLE) and ep_kept(T, bb, (frm + to) >> 1, us):
        return False
    pt = board[frm] & 7
    zone = squares[1]
    if pt == KNIGHT:
        return ((T[N_ATT + frm] | T[N_ATT + to]) & zone) == ZERO
    if pt == PAWN:
        return ((T[P_ATT + us * 64 + frm] | T[P_ATT + us * 64 + to]) & zone) == ZERO
    if pt == KING:
        return ((T[K_ATT + frm] | T[K_ATT + to]) & zone) == ZERO
    there = ONE << np.uint64(to)
    if pt != ROOK and (there & squares[2]):
        return False  # a bishop or queen that would see the king or one of its squares
    return pt == BISHOP or (there & squares[3]) == ZERO
