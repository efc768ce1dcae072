"""Reply counts that a quiet move provably leaves as they were.

Two plies above the leaves, perft counts the replies of side T after each move of side S
(to move). Many of S's moves are quiet moves far from T's pieces: after any of them T
has exactly the moves it would have if S passed (T to move in the same position, no
en-passant square). The walk counts those once per node, on the position that ``pass_copy`` writes, with
the same count it makes for each move (one inlined copy of the generator's counting mode:
first-run compile time), and each move that provably changes nothing for T
(``same_replies``, with the squares of ``sensitive_squares``) takes that count instead of
a copy-make and a count of its own.

A quiet move of S's piece from ``f`` to ``x`` (no capture, promotion, castling or en
passant, and not a double push that leaves an en-passant square) changes the board only
on ``f`` and ``x``. T's legal moves depend on the board through:

- what T's pieces reach: a slider's ray stops at its first piece, a pawn pushes onto
  empty squares and takes on occupied ones (``reach``: T's slider attacks and pawns'
  push and capture squares). A knight's or the king's targets are every square without
  a T piece, whoever stands there, so they are not in it;
- which squares S attacks around T's king, and on the king's castling paths (the
  king's moves and castling): an S piece leaving ``f`` or arriving on ``x`` changes
  them only if ``f`` or ``x`` lies on a clear line from such a square (``lines``, with
  T's king lifted as the generator tests its moves), or if the piece itself is a knight,
  pawn or king that attacks one of them from ``f`` or ``x`` (a slider that does is
  on such a line);
- checks and pins on T's king: along the king's lines up to the first S piece, T's own
  pieces seen through (``pins``);
- castling's empty squares: T's back rank, while T has a castling right;
- and S's king: when S is in check, T "attacks" it in the position where S passes, so
  no move is taken as the same then.

A move of S whose ``f`` and ``x`` lie in none of these (``sensitive``) and whose piece
attacks none of the king's squares leaves T's replies as they are when S passes.
Both counts are ``movegen._generate``'s: nothing here writes the rules of moves again.
"""

import numpy as np
from numba import njit

from .attacks import K_ATT, N_ATT, P_ATT, bishop_attacks, rook_attacks
from .bitboard import NOT_FILE_A, NOT_FILE_H, ONE, RANK_1, RANK_3, RANK_6, RANK_8, ZERO, lsb
from .makemove import ep_kept
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, PROMO_SHIFT, from_sq, to_sq
from .movegen import _open_castlings, attackers_to
from .position import BISHOP, CASTLE, EP, KING, KNIGHT, NO_SQ, OCC, PAWN, QUEEN, ROOK, STM, WHITE, occ_of
from .wordcopy import copy_words

_NOT_QUIET = CAPTURE | CASTLING | EN_PASSANT | (7 << PROMO_SHIFT)


@njit(inline="always", cache=True)
def _queen_rays(T, sq, occ):
    return bishop_attacks(T, sq, occ) | rook_attacks(T, sq, occ)


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


@njit(cache=True)  # a call, once per node: compiled by the first run's second core (prewarm)
def sensitive_squares(T, bb, st):
    """The squares a quiet move of S (to move) must not touch to leave T's replies as they
    are when S passes, and the squares around T's king that S's moving piece must not
    attack (sensitive, zone)."""
    us = st[STM] & 1
    them = us ^ 1
    tb = them << 3
    occ = bb[OCC]
    ours = bb[occ_of(us)]
    theirs = bb[occ_of(them)]
    ksq = lsb(bb[tb | KING])
    # what T's sliders and pawns reach
    reach = ZERO
    pcs = bb[tb | BISHOP] | bb[tb | QUEEN]
    while pcs:
        reach |= bishop_attacks(T, lsb(pcs), occ)
        pcs &= pcs - ONE
    pcs = bb[tb | ROOK] | bb[tb | QUEEN]
    while pcs:
        reach |= rook_attacks(T, lsb(pcs), occ)
        pcs &= pcs - ONE
    pawns = bb[tb | PAWN]
    if them == WHITE:
        push = pawns << np.uint64(8)
        reach |= push | ((push & RANK_3) << np.uint64(8))
        reach |= ((pawns & NOT_FILE_A) << np.uint64(7)) | ((pawns & NOT_FILE_H) << np.uint64(9))
    else:
        push = pawns >> np.uint64(8)
        reach |= push | ((push & RANK_6) >> np.uint64(8))
        reach |= ((pawns & NOT_FILE_A) >> np.uint64(9)) | ((pawns & NOT_FILE_H) >> np.uint64(7))
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
    # checks and pins: the king's lines up to the first S piece
    sensitive |= _queen_rays(T, ksq, ours)
    # S's attacks on the king's squares: their clear lines, T's king lifted
    occ_noking = occ ^ kbit
    squares = zone & ~kbit
    while squares:
        sensitive |= _queen_rays(T, lsb(squares), occ_noking)
        squares &= squares - ONE
    return sensitive, zone


@njit(inline="always", cache=True)
def same_replies(T, bb, board, us, move, sensitive, zone):
    """Whether S's ``move`` leaves T's replies as they are when S passes (``sensitive``
    and ``zone`` from ``sensitive_squares``)."""
    if move & _NOT_QUIET:
        return False
    frm = from_sq(move)
    to = to_sq(move)
    moved = (ONE << np.uint64(frm)) | (ONE << np.uint64(to))
    if moved & sensitive:
        return False
    if (move & DOUBLE) and ep_kept(T, bb, (frm + to) >> 1, us):
        return False
    pt = board[frm] & 7
    if pt == KNIGHT:
        return ((T[N_ATT + frm] | T[N_ATT + to]) & zone) == ZERO
    if pt == PAWN:
        return ((T[P_ATT + us * 64 + frm] | T[P_ATT + us * 64 + to]) & zone) == ZERO
    if pt == KING:
        return ((T[K_ATT + frm] | T[K_ATT + to]) & zone) == ZERO
    return True
