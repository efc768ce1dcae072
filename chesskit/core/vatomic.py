"""Atomic chess in the compiled core: legal moves (``generate``) and the explosion
(``explode`` after the standard move; ``explode_bits`` on the last ply's copy).

The rules, as python-chess and Fairy-Stockfish agree on them (docs/variants.md):

* a capture explodes: the capturing piece, the captured one and every piece other than a
  pawn on the eight squares around the capture square (around the square the capturing
  pawn lands on for en passant) leave the board; a square's castling right goes with its
  rook;
* a king never captures, and a move whose explosion reaches its own king is illegal
  (also when it would take the enemy king with it);
* a move that explodes the enemy king is legal whatever it leaves standing: the game is
  over (``game_over``: a side without a king; the node has no children);
* kings may stand side by side, and while they touch neither is in check (a king can
  only be taken by a capture that blows up both): every move that keeps them touching is
  legal, a king may step next to the enemy king onto an attacked square, and castling may
  pass over (or land on) attacked squares next to the enemy king, or start while the king
  is attacked but touching;
* otherwise "check" is the standard one: the side to move may not leave its king
  attacked by an enemy piece (pieces an explosion removes attack nothing).

Quiet moves use the standard check and pin masks (touching kings: none); a capture is
tested on the occupancy its explosion leaves, unless sets decide it (``_moves``). One
function lists and counts (``_moves``): the move list above the last ply is one call a
node (``list_moves``), the last ply's count is inlined into the walk (``count_moves``);
counting stays exact (bulk counting). Nothing here is compiled into the standard walk.
"""

import numpy as np
from numba import njit

from .attacks import B_EMPTY, CASTLE_PATH, CASTLE_SPAN, K_ATT, N_ATT, P_ATT, R_EMPTY, between, bishop_attacks, line, rook_attacks
from .bitboard import ALL, NOT_FILE_A, NOT_FILE_H, ONE, RANK_1, RANK_3, RANK_6, RANK_8, ZERO, lsb, popcount
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, castle_squares, encode, to_sq
from .movegen import _emit, _emit_pawns, attackers_to
from .position import BISHOP, CASTLE, EP, KEY, KING, KNIGHT, NO_SQ, OCC, PAWN, QUEEN, ROOK, STM, WHITE, occ_of, z_castle, z_piece

_NIL = np.int64(0)
_CAPTURE = np.int64(CAPTURE)
_DOUBLE = np.int64(DOUBLE)
_EN_PASSANT = np.int64(CAPTURE | EN_PASSANT)
_CASTLING = np.int64(CASTLING)


@njit(inline="always", cache=True)
def blast(T, bb, to):
    """The squares a capture on ``to`` clears: ``to`` and the pieces around it but pawns."""
    return (T[K_ATT + to] & bb[OCC] & ~(bb[PAWN] | bb[8 | PAWN])) | (ONE << np.uint64(to))


@njit(inline="always", cache=True)
def kings_touch(T, ksq, ekings):
    """Whether the king on ``ksq`` stands next to the enemy king (``ekings``, its bitboard):
    then neither is in check. The generator's test, and ``vrules.checkers``'s."""
    return (T[K_ATT + ksq] & ekings) != ZERO


@njit(cache=True)
def _capture_ok(T, bb, us, ksq, ekings, touching, frm, to, victim):
    """Whether the capture from ``frm`` on ``to`` (taking the piece on ``victim``: ``to``,
    or the en-passant pawn) is legal."""
    if T[K_ATT + ksq] & (ONE << np.uint64(to)):
        return False  # the explosion reaches our king
    gone = blast(T, bb, to)
    if gone & ekings or touching:
        return True  # the enemy king explodes, or the kings keep touching
    gone |= (ONE << np.uint64(frm)) | (ONE << np.uint64(victim))
    occ2 = bb[OCC] & ~gone
    tb = (us ^ 1) << 3
    att = (T[N_ATT + ksq] & bb[tb | KNIGHT]) | (T[P_ATT + us * 64 + ksq] & bb[tb | PAWN])
    att |= bishop_attacks(T, ksq, occ2) & (bb[tb | BISHOP] | bb[tb | QUEEN])
    att |= rook_attacks(T, ksq, occ2) & (bb[tb | ROOK] | bb[tb | QUEEN])
    return att & ~gone == ZERO


@njit(cache=True)
def _en_passant(T, bb, out, n, us, ksq, ekings, touching, ep, count_only):
    victim = ep - 8 if us == WHITE else ep + 8
    cands = T[P_ATT + (us ^ 1) * 64 + ep] & bb[(us << 3) | PAWN]
    while cands:
        frm = lsb(cands)
        cands &= cands - ONE
        if _capture_ok(T, bb, us, ksq, ekings, touching, frm, ep, victim):
            if not count_only:
                out[n] = encode(frm, ep, _NIL, _EN_PASSANT)
            n += 1
    return n


@njit(cache=True)
def generate(T, bb, st, out, count_only):
    """The legal atomic moves of the side to move (none where a king is missing: the game
    is over), written to ``out`` or only counted; returns how many. A call (one a node of
    the walk above the last ply): the last ply inlines ``count_moves`` itself."""
    if count_only:
        return count_moves(T, bb, st, out)
    return list_moves(T, bb, st, out)


@njit(inline="always", cache=True)
def _exposed(T, bb, them, ksq, occ, gone):
    """Whether our king on ``ksq`` is attacked once the squares ``gone`` are cleared."""
    tb = them << 3
    occ2 = occ & ~gone
    att = (T[N_ATT + ksq] & bb[tb | KNIGHT]) | (T[P_ATT + (them ^ 1) * 64 + ksq] & bb[tb | PAWN])
    att |= bishop_attacks(T, ksq, occ2) & (bb[tb | BISHOP] | bb[tb | QUEEN])
    att |= rook_attacks(T, ksq, occ2) & (bb[tb | ROOK] | bb[tb | QUEEN])
    return att & ~gone != ZERO


@njit(inline="always", cache=True)
def _legal_captures(T, bb, them, ksq, occ, frm, caps, danger):
    """How many captures from ``frm`` onto ``caps`` (none next to our king, none whose
    explosion reaches the enemy king: ``count_moves``) leave our king unattacked: without a
    test where the explosion clears nothing on a line from our king to an enemy slider
    (``danger``; all of the board when in check)."""
    fb = ONE << np.uint64(frm)
    n = 0
    while caps:
        to = lsb(caps)
        caps &= caps - ONE
        gone = blast(T, bb, to) | fb
        if gone & danger == ZERO or not _exposed(T, bb, them, ksq, occ, gone):
            n += 1
    return n


@njit(inline="always", cache=True)
def _around(x):
    """The squares of ``x`` and every square next to one of them."""
    row = x | ((x << np.uint64(1)) & NOT_FILE_A) | ((x >> np.uint64(1)) & NOT_FILE_H)
    return row | (row << np.uint64(8)) | (row >> np.uint64(8))


@njit(inline="always", cache=True)
def _unattacked(T, bb, them, occ, squares):
    """The squares of ``squares`` that no piece of ``them`` but its king attacks when the
    occupancy is ``occ``: pawns set-wise, knights by table, and only the sliders that
    stand on a line through one of the squares looked up (the king's steps: two or three
    squares, where a whole map of the enemy's attacks looked up every slider)."""
    tb = them << 3
    pawns = bb[tb | PAWN]
    if them == WHITE:
        att = ((pawns & NOT_FILE_A) << np.uint64(7)) | ((pawns & NOT_FILE_H) << np.uint64(9))
    else:
        att = ((pawns & NOT_FILE_A) >> np.uint64(9)) | ((pawns & NOT_FILE_H) >> np.uint64(7))
    pcs = bb[tb | KNIGHT]
    while pcs:
        att |= T[N_ATT + lsb(pcs)]
        pcs &= pcs - ONE
    straight = ZERO
    diagonal = ZERO
    s = squares & ~att
    while s:
        sq = lsb(s)
        s &= s - ONE
        straight |= T[R_EMPTY + sq]
        diagonal |= T[B_EMPTY + sq]
    pcs = (bb[tb | BISHOP] | bb[tb | QUEEN]) & diagonal
    while pcs:
        att |= bishop_attacks(T, lsb(pcs), occ)
        pcs &= pcs - ONE
    pcs = (bb[tb | ROOK] | bb[tb | QUEEN]) & straight
    while pcs:
        att |= rook_attacks(T, lsb(pcs), occ)
        pcs &= pcs - ONE
    return squares & ~att


@njit(inline="always", cache=True)
def _moves(T, bb, st, out, count_only):
    """The legal atomic moves of the side to move (none where a king is missing: the game
    is over), written to ``out`` in the order king, knights, bishops, rooks, queens (each
    piece's captures that sets decide, then its quiet moves), the pieces' captures that
    needed a test, pawns (captures, the same way; pushes), en passant, castling; or only
    counted, in bulk where the rules allow: quiet moves by popcount of their targets (the
    check and pin masks of standard chess, none while the kings touch), king steps against
    the enemy's attacks on those squares, captures by sets (none next to our king: it
    would explode; all whose explosion reaches the enemy king, or while the kings touch,
    are legal; so is every one, from a square off the lines from our king to the enemy
    sliders, whose blast misses those lines) and one by one only where the explosion may
    clear a square between our king and an enemy slider, or we are in check. ``out``
    counting: scratch for en passant (a call)."""
    us = st[STM] & 1
    them = us ^ 1
    ub = us << 3
    tb = them << 3
    kings = bb[ub | KING]
    ekings = bb[tb | KING]
    if kings == ZERO or ekings == ZERO:
        return 0
    ksq = lsb(kings)
    eksq = lsb(ekings)
    occ = bb[OCC]
    empty = ~occ
    near = T[K_ATT + ksq]
    enear = T[K_ATT + eksq]
    touching = kings_touch(T, ksq, ekings)
    capturable = bb[occ_of(them)] & ~near
    sure = ALL if touching else enear | ekings
    pinned = ZERO
    checkers = ZERO
    danger = ZERO
    quiet_to = empty
    if not touching:
        snipers = (T[R_EMPTY + ksq] & (bb[tb | ROOK] | bb[tb | QUEEN])) | (
            T[B_EMPTY + ksq] & (bb[tb | BISHOP] | bb[tb | QUEEN])
        )
        while snipers:
            sq = lsb(snipers)
            snipers &= snipers - ONE
            b = between(T, ksq, sq)
            danger |= b
            b &= occ
            if b == ZERO:
                checkers |= ONE << np.uint64(sq)
            elif (b & (b - ONE)) == ZERO:
                pinned |= b
        pinned &= bb[occ_of(us)]
        checkers |= (T[P_ATT + us * 64 + ksq] & bb[tb | PAWN]) | (T[N_ATT + ksq] & bb[tb | KNIGHT])
        if checkers:
            danger = ALL
            if checkers & (checkers - ONE):
                quiet_to = ZERO
            else:
                quiet_to = between(T, ksq, lsb(checkers)) & empty
    # captures legal without a test: ``sure``, and (never in check: ``danger`` is then the
    # whole board) those whose blast misses every square of ``danger``, from a square off it
    free = sure | ~_around(danger)
    # the king: quiet steps only, next to the enemy king or onto a square it is not attacked on
    kt = near & empty
    rest = kt & ~enear
    if rest:
        rest = _unattacked(T, bb, them, occ ^ kings, rest)
    steps = (kt & enear) | rest
    if count_only:
        n = popcount(steps)
    else:
        n = _emit(out, _NIL, ksq, steps, _NIL)
    # knights, bishops, rooks, queens: each piece's captures that the sets decide, then its
    # quiet moves; a piece with captures to test is only noted, and its tested captures
    # follow all the pieces' moves (a test inside this loop, even as a call, made the count
    # twice as slow and the list three times, in a micro benchmark)
    tested = ZERO
    for pt in (KNIGHT, BISHOP, ROOK, QUEEN):
        pcs = bb[ub | pt]
        while pcs:
            frm = lsb(pcs)
            pcs &= pcs - ONE
            if pt == KNIGHT:
                t = T[N_ATT + frm]
            else:
                t = ZERO
                if pt != ROOK:
                    t |= bishop_attacks(T, frm, occ)
                if pt != BISHOP:
                    t |= rook_attacks(T, frm, occ)
            fb = ONE << np.uint64(frm)
            q = t & quiet_to
            if pinned & fb:
                q &= line(T, ksq, frm)
            caps = t & capturable
            ok = sure if danger & fb else free
            if count_only:
                n += popcount(q) + popcount(caps & ok)
            else:
                n = _emit(out, n, frm, caps & ok, _CAPTURE)
                n = _emit(out, n, frm, q, _NIL)
            if caps & ~ok:
                tested |= fb
    while tested:
        frm = lsb(tested)
        tested &= tested - ONE
        fb = ONE << np.uint64(frm)
        t = T[N_ATT + frm] if bb[ub | KNIGHT] & fb else ZERO
        if (bb[ub | BISHOP] | bb[ub | QUEEN]) & fb:
            t |= bishop_attacks(T, frm, occ)
        if (bb[ub | ROOK] | bb[ub | QUEEN]) & fb:
            t |= rook_attacks(T, frm, occ)
        caps = t & capturable & ~(sure if danger & fb else free)
        while caps:
            to = lsb(caps)
            caps &= caps - ONE
            if _legal_captures(T, bb, them, ksq, occ, frm, ONE << np.uint64(to), danger):
                if not count_only:
                    out[n] = encode(frm, to, _NIL, _CAPTURE)
                n += 1
    pawns = bb[ub | PAWN]
    if pawns:
        if us == WHITE:
            capw = ((pawns & NOT_FILE_A) << np.uint64(7)) & capturable
            cape = ((pawns & NOT_FILE_H) << np.uint64(9)) & capturable
            push1 = (pawns << np.uint64(8)) & empty
            push2 = ((push1 & RANK_3) << np.uint64(8)) & empty
            dw, de, d1, d2, promo_rank, double_from = 7, 9, 8, 16, RANK_8, RANK_3
        else:
            capw = ((pawns & NOT_FILE_A) >> np.uint64(9)) & capturable
            cape = ((pawns & NOT_FILE_H) >> np.uint64(7)) & capturable
            push1 = (pawns >> np.uint64(8)) & empty
            push2 = ((push1 & RANK_6) >> np.uint64(8)) & empty
            dw, de, d1, d2, promo_rank, double_from = -9, -7, -8, -16, RANK_1, RANK_6
        # captures: four each onto the last rank; ``free`` decides for a pawn on a line
        # from our king too, as its target is next to its square
        okw = capw & free
        oke = cape & free
        if count_only:
            n += popcount(okw) + popcount(oke) + 3 * (popcount(okw & promo_rank) + popcount(oke & promo_rank))
        else:
            n = _emit_pawns(out, n, okw, dw, _CAPTURE, promo_rank)
            n = _emit_pawns(out, n, oke, de, _CAPTURE, promo_rank)
        capw &= ~okw
        cape &= ~oke
        for caps, d in ((capw, dw), (cape, de)):
            while caps:
                to = lsb(caps)
                caps &= caps - ONE
                tbit = ONE << np.uint64(to)
                if _legal_captures(T, bb, them, ksq, occ, to - d, tbit, danger):
                    if count_only:
                        n += 4 if tbit & promo_rank else 1
                    else:
                        n = _emit_pawns(out, n, tbit, d, _CAPTURE, promo_rank)
        # pushes: the unpinned ones set-wise, a pinned one along its pin line
        pp = pawns & pinned
        p1 = push1
        p2 = push2
        if pp:
            p1 = push1 & ~((pp << np.uint64(8)) if us == WHITE else (pp >> np.uint64(8)))
            p2 = push2 & ~((pp << np.uint64(16)) if us == WHITE else (pp >> np.uint64(16)))
        p1 &= quiet_to
        p2 &= quiet_to
        if count_only:
            n += popcount(p1) + popcount(p2) + 3 * popcount(p1 & promo_rank)
        else:
            n = _emit_pawns(out, n, p1, d1, _NIL, promo_rank)
            n = _emit_pawns(out, n, p2, d2, _DOUBLE, promo_rank)
        while pp:
            frm = lsb(pp)
            pp &= pp - ONE
            ray = line(T, ksq, frm) & quiet_to
            one = ONE << np.uint64(frm + d1)
            if one & push1 & ray:
                if count_only:
                    n += 4 if one & promo_rank else 1
                else:
                    n = _emit_pawns(out, n, one, d1, _NIL, promo_rank)
            if one & push1 & double_from:
                two = ONE << np.uint64(frm + d2)
                if two & push2 & ray:
                    if count_only:
                        n += 1
                    else:
                        n = _emit_pawns(out, n, two, d2, _DOUBLE, promo_rank)
    if st[EP] != NO_SQ:
        n = _en_passant(T, bb, out, n, us, ksq, ekings, touching, st[EP], count_only)
    if checkers == ZERO:
        # castling (Chess960 too) as python-chess tests it, less the king's squares next
        # to the enemy king, which need not be safe: the squares the king passes, with the
        # king lifted and the rook in place, and its landing square with the rook moved
        rights = bb[CASTLE] & (RANK_1 if us == WHITE else RANK_8)
        occ_noking = occ ^ kings
        while rights:
            r = lsb(rights)
            rights &= rights - ONE
            ci = us * 64 + ((ksq & 7) << 3) + (r & 7)
            if occ & T[CASTLE_SPAN + ci]:
                continue
            kto, rto = castle_squares(ksq, r)
            kb = ONE << np.uint64(kto)
            passed = T[CASTLE_PATH + ci] & ~kb & ~enear
            hits = ZERO
            while passed:
                hits |= attackers_to(T, bb, lsb(passed), occ_noking, them)
                passed &= passed - ONE
            if hits == ZERO and not kb & enear:
                landed = (occ_noking ^ (ONE << np.uint64(r))) | (ONE << np.uint64(rto))
                hits = attackers_to(T, bb, kto, landed, them)
            if hits == ZERO:
                if not count_only:
                    out[n] = encode(ksq, r, _NIL, _CASTLING)
                n += 1
    return n


@njit(inline="always", cache=True)
def count_moves(T, bb, st, out):
    """How many legal moves (``_moves``' count; inlined into the last ply's count)."""
    return _moves(T, bb, st, out, True)


@njit(cache=True)
def list_moves(T, bb, st, out):
    """The legal moves written to ``out`` (``_moves``; one call a node above the last ply)."""
    return _moves(T, bb, st, out, False)


@njit(inline="always", cache=True)
def explode_bits(T, bb, move):
    """The explosion of capture ``move`` (already made by the last ply's copy-make, which
    keeps no square array) on the bitboards ``bb``: every piece word, the occupancies and
    the castling rooks."""
    to = to_sq(move)
    gone = blast(T, bb, to)
    keep = ~gone
    for pc in range(1, 7):
        bb[pc] &= keep
        bb[8 | pc] &= keep
    bb[7] &= keep
    bb[15] &= keep
    bb[OCC] &= keep
    bb[CASTLE] &= keep & _rights_kept(bb)


@njit(inline="always", cache=True)
def _rights_kept(bb):
    """The castling rooks still allowed once the explosion is applied: none on the back
    rank of a side whose king is gone (python-chess's rule)."""
    keep = ALL
    if bb[KING] == ZERO:
        keep &= ~RANK_1
    if bb[8 | KING] == ZERO:
        keep &= ~RANK_8
    return keep


@njit(inline="always", cache=True)
def explode(T, bb, board, st, move):
    """The explosion of capture ``move``, made in full after the standard move (square
    array, key, castling rooks): no-op for a move that captures nothing."""
    if not move & CAPTURE:
        return
    to = to_sq(move)
    gone = blast(T, bb, to)
    key = bb[KEY]
    g = gone
    while g:
        sq = lsb(g)
        g &= g - ONE
        pc = board[sq]
        b = ONE << np.uint64(sq)
        bb[pc] ^= b
        bb[occ_of(pc >> 3)] ^= b
        bb[OCC] ^= b
        board[sq] = 0
        key ^= z_piece(pc, sq)
    rights = bb[CASTLE]
    new = rights & ~gone & _rights_kept(bb)
    if new != rights:
        key ^= z_castle(rights ^ new)
        bb[CASTLE] = new
    bb[KEY] = key


@njit(inline="always", cache=True)
def game_over(bb):
    """A king has exploded."""
    return bb[KING] == ZERO or bb[8 | KING] == ZERO
