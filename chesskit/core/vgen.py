"""Move generation for the variants (``GENERATE``: one function per rule set), on the variant state (``vstate.py``).

Each variant is standard generation (``movegen._generate``, compiled into the variant's
walk, never the other way round) where its moves are chess moves, plus what it changes:

* kingofthehill, 3check: chess moves (the game's end is ``vrules.game_over``);
* racingkings: chess moves that give no check (``_racing_masks``: the squares a piece
  checks from, and the pieces that would uncover a check), and when White's
  king has reached the eighth rank with Black to move, Black's last chance: the game is
  over unless Black has a king move onto the eighth rank;
* horde: White has no king, so every pseudo-legal move is legal (``_free_moves``) and its
  first-rank pawns may step two squares (no en-passant square follows: both oracles); Black's
  moves are chess moves, generated with a phantom White king four or more squares from
  Black's king (standard generation looks up the enemy king's attacks; this one attacks
  nothing Black's king could step on or castle through);
* antichess (and giveaway): the king is an ordinary piece, nothing is in check, a capture
  is forced when there is one, pawns also promote to a king (``_free_moves``); castling
  (giveaway) needs only its squares empty.

``count_only`` counts without writing (bulk counting).
"""

import numpy as np
from numba import njit

from .attacks import CASTLE_SPAN, K_ATT, N_ATT, bishop_attacks, line, rook_attacks
from .bitboard import NOT_FILE_A, NOT_FILE_H, ONE, RANK_1, RANK_3, RANK_6, RANK_8, ZERO, lsb, popcount
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, encode, from_sq, to_sq
from .movegen import PROMOTIONS, _emit, _emit_pawns_as, _generate, attacked_by, king_lines
from .position import BISHOP, CASTLE, EP, KING, KNIGHT, NO_SQ, OCC, PAWN, QUEEN, ROOK, STM, WHITE, occ_of
from .tables import P_ATT
from . import vatomic, vhouse
from .vstate import ANTICHESS, ATOMIC, CRAZYHOUSE, HORDE, KINGOFTHEHILL, RACINGKINGS, THREECHECK

RANK_2 = np.uint64(0xFF00)
_NIL = np.int64(0)
_CAPTURE = np.int64(CAPTURE)
_DOUBLE = np.int64(DOUBLE)
_EN_PASSANT = np.int64(CAPTURE | EN_PASSANT)
_CASTLING = np.int64(CASTLING)


_WITH_KING = PROMOTIONS + (KING,)


@njit(cache=True)
def _emit_pawns(out, n, targets, delta, flags, promo_rank, king_too):
    """Pawn moves to ``targets`` from ``to - delta`` (``movegen._emit_pawns_as``);
    promotions on ``promo_rank``, to a king too where ``king_too``."""
    if king_too:
        return _emit_pawns_as(out, n, targets, delta, flags, promo_rank, _WITH_KING)
    return _emit_pawns_as(out, n, targets, delta, flags, promo_rank, PROMOTIONS)


@njit(inline="always", cache=True)
def _piece_targets(T, bb, ub, occ, out, n, mask, flags, count_only):
    """Kings, knights, bishops, rooks and queens of ``ub`` onto ``mask``, none pinned."""
    for pt in (KING, KNIGHT, BISHOP, ROOK, QUEEN):
        pcs = bb[ub | pt]
        while pcs:
            frm = lsb(pcs)
            pcs &= pcs - ONE
            if pt == KING:
                t = T[K_ATT + frm]
            elif pt == KNIGHT:
                t = T[N_ATT + frm]
            else:
                t = ZERO
                if pt != ROOK:
                    t |= bishop_attacks(T, frm, occ)
                if pt != BISHOP:
                    t |= rook_attacks(T, frm, occ)
            t &= mask
            if count_only:
                n += popcount(t)
            else:
                n = _emit(out, n, frm, t, flags)
    return n


@njit(inline="always", cache=True)
def _pawn_captures(T, bb, us, out, n, opp, ep, promo_rank, king_too, count_only):
    pawns = bb[(us << 3) | PAWN]
    if us == WHITE:
        capw = ((pawns & NOT_FILE_A) << np.uint64(7)) & opp
        cape = ((pawns & NOT_FILE_H) << np.uint64(9)) & opp
        dw, de = 7, 9
    else:
        capw = ((pawns & NOT_FILE_A) >> np.uint64(9)) & opp
        cape = ((pawns & NOT_FILE_H) >> np.uint64(7)) & opp
        dw, de = -9, -7
    if count_only:
        extra = 4 if king_too else 3
        n += popcount(capw) + popcount(cape) + extra * (popcount(capw & promo_rank) + popcount(cape & promo_rank))
    else:
        n = _emit_pawns(out, n, capw, dw, _CAPTURE, promo_rank, king_too)
        n = _emit_pawns(out, n, cape, de, _CAPTURE, promo_rank, king_too)
    if ep != NO_SQ:
        cands = T[P_ATT + (us ^ 1) * 64 + ep] & pawns
        while cands:
            frm = lsb(cands)
            cands &= cands - ONE
            if not count_only:
                out[n] = encode(frm, ep, _NIL, _EN_PASSANT)
            n += 1
    return n


@njit(inline="always", cache=True)
def _pawn_pushes(bb, us, out, n, empty, promo_rank, king_too, first_rank, count_only):
    """Pushes and double pushes; ``first_rank``: White's first-rank pawns step two too
    (horde), with no en-passant square after."""
    pawns = bb[(us << 3) | PAWN]
    if us == WHITE:
        push1 = (pawns << np.uint64(8)) & empty
        push2 = ((push1 & RANK_3) << np.uint64(8)) & empty
        push0 = ((push1 & RANK_2) << np.uint64(8)) & empty if first_rank else ZERO
        d1, d2 = 8, 16
    else:
        push1 = (pawns >> np.uint64(8)) & empty
        push2 = ((push1 & RANK_6) >> np.uint64(8)) & empty
        push0 = ZERO
        d1, d2 = -8, -16
    if count_only:
        extra = 4 if king_too else 3
        return n + popcount(push1) + popcount(push2) + popcount(push0) + extra * popcount(push1 & promo_rank)
    n = _emit_pawns(out, n, push1, d1, _NIL, promo_rank, king_too)
    n = _emit_pawns(out, n, push2, d2, _DOUBLE, promo_rank, king_too)
    return _emit_pawns(out, n, push0, d2, _NIL, promo_rank, king_too)


@njit(inline="always", cache=True)
def _free_castling(T, bb, us, out, n, occ, count_only):
    """Castling where nothing is in check (giveaway): its squares empty but for king and rook."""
    back = RANK_1 if us == WHITE else RANK_8
    rights = bb[CASTLE] & back
    kings = bb[(us << 3) | KING] & back
    if rights == ZERO or kings == ZERO:
        return n
    ksq = lsb(kings)
    while rights:
        r = lsb(rights)
        rights &= rights - ONE
        if (occ & T[CASTLE_SPAN + us * 64 + ((ksq & 7) << 3) + (r & 7)]) == ZERO:
            if not count_only:
                out[n] = encode(ksq, r, _NIL, _CASTLING)
            n += 1
    return n


def _free_moves(forced_capture, king_too, first_rank):
    """``free_moves(T, bb, st, out, count_only)``: every pseudo-legal move of the side to
    move, all legal (no king to keep safe); only captures when ``forced_capture`` and there
    is one (antichess); pawns promote to a king too where ``king_too``; White's first-rank
    pawns step two where ``first_rank`` (horde). The flags are constants of the closure:
    numba prunes the branch they rule out before it inlines what that branch calls."""

    @njit(inline="always")
    def free_moves(T, bb, st, out, count_only):
        us = st[STM] & 1
        ub = us << 3
        occ = bb[OCC]
        opp = bb[occ_of(us ^ 1)]
        promo_rank = RANK_8 if us == WHITE else RANK_1
        if forced_capture:
            n = _piece_targets(T, bb, ub, occ, out, _NIL, opp, _CAPTURE, count_only)
            n = _pawn_captures(T, bb, us, out, n, opp, st[EP], promo_rank, king_too, count_only)
            if n:
                return n
            n = _piece_targets(T, bb, ub, occ, out, n, ~occ, _NIL, count_only)
        else:
            n = _piece_targets(T, bb, ub, occ, out, _NIL, opp, _CAPTURE, count_only)
            n = _piece_targets(T, bb, ub, occ, out, n, ~occ, _NIL, count_only)
            n = _pawn_captures(T, bb, us, out, n, opp, st[EP], promo_rank, king_too, count_only)
        n = _pawn_pushes(bb, us, out, n, ~occ, promo_rank, king_too, first_rank, count_only)
        return _free_castling(T, bb, us, out, n, occ, count_only)

    return free_moves


_antichess_free = _free_moves(True, True, False)
_horde_free = _free_moves(False, False, True)


@njit(inline="always", cache=True)
def _phantom_king(bb, us):
    """A square four or more from ``us``'s king: the enemy king standard generation looks up."""
    ksq = lsb(bb[(us << 3) | KING])
    return np.uint64(1) if ksq >= 32 else np.uint64(1) << np.uint64(56)


@njit(inline="always", cache=True)
def _racing_masks(T, bb, us):
    """What makes a move of ``us`` give check in racing kings (no pawns there): the squares
    from which a knight, a bishop or a rook checks the enemy king (a queen: both), and our
    pieces that stand alone between one of our sliders and that king (moving off the
    line between them uncovers a check). From the position before the move: a slider's
    ray to the king through its own square would already be a check, which no racing
    kings position has."""
    eksq = lsb(bb[((us ^ 1) << 3) | KING])
    occ = bb[OCC]
    _, blockers = king_lines(T, bb, eksq, us)
    return eksq, T[N_ATT + eksq], bishop_attacks(T, eksq, occ), rook_attacks(T, eksq, occ), blockers & bb[occ_of(us)]


@njit(inline="always", cache=True)
def _racing_checks(T, pt, frm, eksq, ncheck, bcheck, rcheck, discover):
    """The targets from which our piece of type ``pt`` on ``frm`` would give check
    (``_racing_masks``): its own checks, and every square off the line to the enemy king
    when it uncovers one."""
    if pt == KNIGHT:
        checks = ncheck
    elif pt == BISHOP:
        checks = bcheck
    elif pt == ROOK:
        checks = rcheck
    elif pt == QUEEN:
        checks = bcheck | rcheck
    else:
        checks = ZERO
    if (discover >> np.uint64(frm)) & ONE:
        checks |= ~line(T, eksq, frm)
    return checks


@njit(inline="always", cache=True)
def _racing_filter(T, bb, board, st, out, n):
    """Racing kings: drop the moves that give check (``_racing_masks``: a table lookup a
    move), then Black's last chance."""
    us = st[STM] & 1
    eksq, ncheck, bcheck, rcheck, discover = _racing_masks(T, bb, us)
    k = 0
    for j in range(n):
        m = out[j]
        frm = from_sq(m)
        checks = _racing_checks(T, board[frm] & 7, frm, eksq, ncheck, bcheck, rcheck, discover)
        if not (checks >> np.uint64(to_sq(m))) & ONE:
            out[k] = m
            k += 1
    if us == WHITE or (bb[KING] & RANK_8) == ZERO:
        return k
    kings = bb[8 | KING]
    for j in range(k):  # White is home, Black to move: a king move home keeps the game on
        m = out[j]
        if (ONE << np.uint64(from_sq(m))) & kings and (ONE << np.uint64(to_sq(m))) & RANK_8:
            return k
    return 0


@njit(inline="always", cache=True)
def racing_count(T, bb, st):
    """Racing kings' legal moves counted by popcount, none listed (bulk counting): the
    chess moves of a position with no pawns, no castling and nobody in check, less those
    that give check (``_racing_masks``); then Black's last chance (a king move home)."""
    us = st[STM] & 1
    ub = us << 3
    occ = bb[OCC]
    own = bb[occ_of(us)]
    ksq = lsb(bb[ub | KING])
    kb = ONE << np.uint64(ksq)
    _, blockers = king_lines(T, bb, ksq, us ^ 1)
    pinned = blockers & own
    eksq, ncheck, bcheck, rcheck, discover = _racing_masks(T, bb, us)
    kt = T[K_ATT + ksq] & ~own & ~attacked_by(T, bb, us ^ 1, occ ^ kb)
    if discover & kb:
        kt &= line(T, eksq, ksq)
    if us != WHITE and bb[KING] & RANK_8 and not kt & RANK_8:
        return 0  # White is home and Black cannot follow: the game is over
    n = popcount(kt)
    pcs = bb[ub | KNIGHT] & ~pinned & ~discover  # a knight's move always leaves a line
    while pcs:
        frm = lsb(pcs)
        pcs &= pcs - ONE
        n += popcount(T[N_ATT + frm] & ~own & ~ncheck)
    for pt in (BISHOP, ROOK, QUEEN):
        pcs = bb[ub | pt]
        while pcs:
            frm = lsb(pcs)
            pcs &= pcs - ONE
            t = ZERO
            if pt != ROOK:
                t |= bishop_attacks(T, frm, occ) & ~bcheck
            if pt != BISHOP:
                t |= rook_attacks(T, frm, occ)
            t &= ~own
            if pt == ROOK:
                t &= ~rcheck
            elif pt == QUEEN:
                t &= ~(bcheck | rcheck)
            fb = ONE << np.uint64(frm)
            if pinned & fb:
                t &= line(T, ksq, frm)
            if discover & fb:
                t &= line(T, eksq, frm)
            n += popcount(t)
    return n


@njit(inline="always", cache=True)
def chess_moves(T, bb, board, st, out, count_only):
    """kingofthehill, 3check: the chess moves."""
    return _generate(T, bb, board, st, out, count_only)


@njit(inline="always", cache=True)
def antichess_moves(T, bb, board, st, out, count_only):
    return _antichess_free(T, bb, st, out, count_only)


@njit(inline="always", cache=True)
def horde_moves(T, bb, board, st, out, count_only):
    if (st[STM] & 1) == WHITE:
        return _horde_free(T, bb, st, out, count_only)
    bb[KING] = _phantom_king(bb, 1)
    n = _generate(T, bb, board, st, out, count_only)
    bb[KING] = ZERO
    return n


@njit(inline="always", cache=True)
def racing_moves(T, bb, board, st, out, count_only):
    if count_only:
        return racing_count(T, bb, st)
    n = _generate(T, bb, board, st, out, False)
    return _racing_filter(T, bb, board, st, out, n)


@njit(inline="always", cache=True)
def atomic_moves(T, bb, board, st, out, count_only):
    """Inlined whole: the walk's move list above the last ply makes no call (it was a call
    to ``vatomic.generate``, then one to ``list_moves``; the compile time is the same)."""
    return vatomic._moves(T, bb, st, out, count_only)


@njit(inline="always", cache=True)
def crazyhouse_moves(T, bb, board, st, out, count_only):
    n = _generate(T, bb, board, st, out, count_only)
    return vhouse.drops(T, bb, st, out, n, count_only)


# The legal moves of a position of each rule set (``vstate.RULES``' values):
# ``GENERATE[vid](T, bb, board, st, out, count_only)`` writes them to ``out``, or only
# counts them, and returns how many. Chosen in Python, by the walk's factory: a function
# that chose with ``if vid == ...`` would be compiled with every variant's generator
# inlined into it (numba inlines before it prunes the branches of an argument's value,
# and again at every call site), which cost a variant's walk 100 s of compile.
GENERATE = {
    ATOMIC: atomic_moves,
    CRAZYHOUSE: crazyhouse_moves,
    KINGOFTHEHILL: chess_moves,
    THREECHECK: chess_moves,
    ANTICHESS: antichess_moves,
    HORDE: horde_moves,
    RACINGKINGS: racing_moves,
}
