"""Strictly legal move generation with check and pin masks.

Per node we find the checkers of our king and our pinned pieces once:

* double check: only king moves;
* single check: every non-king move must land on the checker or between it and the king
  (``target``), and a pinned piece can never help;
* a pinned piece moves only along the line through the king and itself (``line``);
* king moves are tested with the king taken off the board, so a slider checking along
  the line still "sees through" the king's old square: square by square when the king
  and castling need one square tested, else on a map of every square the enemy attacks
  (drawn once for both);
* en passant is tested by making it on the occupancy: removing both pawns at once can
  expose the king along the rank (the en-passant rank pin: ``8/8/8/KPp4r/...``), which no
  pin mask sees, and it must also resolve any check;
* castling (Chess960 too): the squares the king and rook pass over and land on must be
  empty apart from themselves, and the king's path, its landing square included, must be
  unattacked with both castling pieces taken off (a castling rook can shield the king
  from an attacker on the back rank); the masks come from tables by king and rook file.

``_generate`` is the steps in order: the check and pin masks (evasions), the castlings
whose squares are empty (their paths decide how the king's squares are tested), king
moves, the other pieces, pawns (set-wise; pinned ones one by one through the same code
with their pin line as the target), en passant, castling. Moves are written in the
order king, pieces, pawns, en passant, castling (divide lists them so). It runs in
two modes: writing moves to a buffer, or only counting them by popcount of target sets
(bulk counting for perft's last ply). Both modes share the code. Writing, it can leave
out the quiet moves that masks by piece type name (``_generate_lumped``: where they may
leave from and land on) and only count them, a lump: perft's node two plies above the
leaves lumps the moves after which the replies are those with its side passing. The
steps every node runs are inlined into ``_generate``, and it into its callers, by numba
(``inline="always"``), so the flag is a constant in each caller (left to LLVM, the
bigger ones stayed calls: ~5% more instructions on position 3 of the perft suite).
Castling is inlined too: as a call it cost startpos 6 about 16% and Kiwipete 5 about 10%
of their nodes/second (every node of those trees has a castling right, and each call
pays numba's reference counting of its array arguments). The rare steps, en passant and
pinned pawns, stay calls, compiled once for both modes.

First-run compile time (docs/benchmarks.md): each inlined copy of ``_generate`` is typed
and lowered again, so perft's walk inlines only the counting mode, at one call site, and
calls ``generate`` for its move lists (compiled meanwhile by ``prewarm``'s child); and each
distinct literal argument makes numba compile a helper once more, so helpers get int64 flags (``_NIL``,
``_CAPTURE``, ...) and the rare steps a plain bool mode.

Indices: numba checks every signed array index for a negative value (Python's
wraparound) and never an unsigned one, so the hot indices are kept provably
non-negative (the side to move as ``st[STM] & 1``, slider slices by a uint64 sum): the
checks were about 13% of the instructions of Kiwipete's perft.
"""

import numpy as np
from numba import carray, njit

from .attacks import (
    B_EMPTY,
    CASTLE_BEYOND,
    CASTLE_PATH,
    CASTLE_SPAN,
    K_ATT,
    N_ATT,
    P_ATT,
    R_EMPTY,
    between,
    bishop_attacks,
    line,
    rook_attacks,
)
from .bitboard import (
    ALL,
    NOT_FILE_A,
    NOT_FILE_H,
    ONE,
    RANK_1,
    RANK_3,
    RANK_6,
    RANK_8,
    ZERO,
    lsb,
    popcount,
)
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, encode
from .position import (
    BB_SIZE,
    BISHOP,
    CASTLE,
    EP,
    KING,
    KNIGHT,
    MAX_MOVES,
    NO_SQ,
    OCC,
    PAWN,
    QUEEN,
    ROOK,
    ST_SIZE,
    STM,
    WHITE,
    occ_of,
)


# The flags and the empty promotion as int64 values, not literals: numba compiles a helper
# once per distinct literal argument, and once for all with these (first-run compile time).
_NIL = np.int64(0)
_CAPTURE = np.int64(CAPTURE)
_DOUBLE = np.int64(DOUBLE)
_EN_PASSANT = np.int64(CAPTURE | EN_PASSANT)
_CASTLING = np.int64(CASTLING)

# The lump masks (``generate_at``, written by ``replies.sensitive_squares``), by their place in
# their row: for each piece type ``pt`` (1 to 6) the squares a quiet move may land on
# (``LAND + pt``) and leave (``LEAVE + pt``) to be counted in the lump; ``PASS``: the squares
# a double push may pass over
LAND = 0
LEAVE = 8
PASS = 0
LUMPS = 16
# ``generate_at`` returns the moves lumped above this bit, those written below it
LUMP_SHIFT = 16
WRITTEN = (1 << LUMP_SHIFT) - 1
# ``generate_at``'s ``lstart`` for no lump masks: an int64, not a literal (numba would
# compile ``generate_at`` once more for a literal argument)
NO_LUMPS = np.int64(-1)


@njit(cache=True)
def attackers_to(T, bb, sq, occ, by):
    """Pieces of colour ``by`` attacking ``sq`` when the board's occupancy is ``occ``."""
    base = by << 3
    return (
        (T[P_ATT + (by ^ 1) * 64 + sq] & bb[base | PAWN])
        | (T[N_ATT + sq] & bb[base | KNIGHT])
        | (T[K_ATT + sq] & bb[base | KING])
        | (bishop_attacks(T, sq, occ) & (bb[base | BISHOP] | bb[base | QUEEN]))
        | (rook_attacks(T, sq, occ) & (bb[base | ROOK] | bb[base | QUEEN]))
    )


@njit(inline="always", cache=True)
def pawn_attacks(pawns, by):
    """Every square the pawns ``pawns`` of colour ``by`` attack."""
    if by == WHITE:
        return ((pawns & NOT_FILE_A) << np.uint64(7)) | ((pawns & NOT_FILE_H) << np.uint64(9))
    return ((pawns & NOT_FILE_A) >> np.uint64(9)) | ((pawns & NOT_FILE_H) >> np.uint64(7))


@njit(inline="always", cache=True)
def slider_attacks(T, diagonal, straight, occ):
    """Every square that the sliders on ``diagonal`` (bishops and queens) attack along
    diagonals, and every square those on ``straight`` (rooks and queens) attack along
    ranks and files, with occupancy ``occ``."""
    d = ZERO
    pcs = diagonal
    while pcs:
        d |= bishop_attacks(T, lsb(pcs), occ)
        pcs &= pcs - ONE
    r = ZERO
    pcs = straight
    while pcs:
        r |= rook_attacks(T, lsb(pcs), occ)
        pcs &= pcs - ONE
    return d, r


@njit(cache=True)
def attacked_by(T, bb, by, occ):
    """Every square that pieces of colour ``by`` attack, with occupancy ``occ``."""
    base = by << 3
    att = pawn_attacks(bb[base | PAWN], by) | T[K_ATT + lsb(bb[base | KING])]
    pcs = bb[base | KNIGHT]
    while pcs:
        att |= T[N_ATT + lsb(pcs)]
        pcs &= pcs - ONE
    d, r = slider_attacks(T, bb[base | BISHOP] | bb[base | QUEEN], bb[base | ROOK] | bb[base | QUEEN], occ)
    return att | d | r


@njit(cache=True)
def checkers_of(T, bb, st):
    """Enemy pieces giving check to the side to move."""
    us = st[STM]
    ksq = lsb(bb[(us << 3) | KING])
    return attackers_to(T, bb, ksq, bb[OCC], us ^ 1)


@njit(cache=True)
def king_lines(T, bb, ksq, by):
    """For the king on ``ksq`` and the bishops, rooks and queens of colour ``by`` on its
    lines: those with nothing in between (they give check), and the pieces of either
    colour that stand alone in between (pinned, or ready to give discovered check)."""
    base = by << 3
    occ = bb[OCC]
    snipers = (T[R_EMPTY + ksq] & (bb[base | ROOK] | bb[base | QUEEN])) | (
        T[B_EMPTY + ksq] & (bb[base | BISHOP] | bb[base | QUEEN])
    )
    checking = ZERO
    blockers = ZERO
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - ONE
        b = between(T, ksq, s) & occ
        if b == ZERO:
            checking |= ONE << np.uint64(s)
        elif (b & (b - ONE)) == ZERO:
            blockers |= b
    return checking, blockers


@njit(cache=True)
def _emit(out, n, frm, targets, flags):
    """Moves from ``frm`` to each square of ``targets``."""
    while targets:
        to = lsb(targets)
        targets &= targets - ONE
        out[n] = encode(frm, to, _NIL, flags)
        n += 1
    return n


@njit(cache=True)
def _emit_split(out, n, frm, targets, opp, count_only):
    """Moves from ``frm`` to ``targets``, the captures first (or just how many)."""
    if count_only:
        return n + popcount(targets)
    n = _emit(out, n, frm, targets & opp, _CAPTURE)
    return _emit(out, n, frm, targets & ~opp, _NIL)


# what a pawn promotes to, in the order the moves are listed (antichess adds a king: ``vgen``)
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)


@njit(inline="always", cache=True)
def _emit_pawns_as(out, n, targets, delta, flags, promo_rank, pieces):
    """Pawn moves to ``targets`` from ``to - delta``; on ``promo_rank`` one promotion to
    each of ``pieces`` (a constant tuple)."""
    plain = targets & ~promo_rank
    while plain:
        to = lsb(plain)
        plain &= plain - ONE
        out[n] = encode(to - delta, to, _NIL, flags)
        n += 1
    promos = targets & promo_rank
    while promos:
        to = lsb(promos)
        promos &= promos - ONE
        for p in pieces:
            out[n] = encode(to - delta, to, p, flags)
            n += 1
    return n


@njit(cache=True)
def _emit_pawns(out, n, targets, delta, flags, promo_rank):
    """Pawn moves to ``targets`` from ``to - delta``; four promotions on the last rank."""
    return _emit_pawns_as(out, n, targets, delta, flags, promo_rank, PROMOTIONS)


@njit(inline="always", cache=True)
def _king_moves(T, bb, out, n, ksq, own, opp, occ_noking, them, paths, count_only, lump):
    """The king's moves, with the king lifted off the board so a checking slider still
    sees through its square. The squares to test are the king's targets and the castling
    paths (``paths``): one is tested alone, with two or more it is cheaper to draw every
    square the enemy attacks once (measured: fewer instructions on all six bench
    positions than a threshold of one, three or four). Listing, its quiet moves to
    ``lump`` are counted, not written. Returns the moves written (or counted), those
    counted in the lump, and what castling can reuse: which squares were tested
    (``tested``) and which of those are attacked (``unsafe``)."""
    kt = T[K_ATT + ksq] & ~own
    tested = kt
    few = kt | paths
    if few & (few - ONE):
        unsafe = attacked_by(T, bb, them, occ_noking)
        safe = kt & ~unsafe
        lumped = ZERO if count_only else safe & ~opp & lump
        n = _emit_split(out, n, ksq, safe & ~lumped, opp, count_only)
        return n, popcount(lumped), unsafe, ALL
    unsafe = ZERO
    lumped = 0
    while kt:
        to = lsb(kt)
        to_bb = ONE << np.uint64(to)
        kt &= kt - ONE
        if attackers_to(T, bb, to, occ_noking, them) == ZERO:
            if count_only:
                n += 1
            elif to_bb & ~opp & lump:
                lumped += 1
            else:
                out[n] = encode(ksq, to, _NIL, _CAPTURE if opp & to_bb else _NIL)
                n += 1
        else:
            unsafe |= to_bb
    return n, lumped, unsafe, tested


@njit(inline="always", cache=True)
def _evasion_target(T, bb, ksq, us, them):
    """Checkers and pinned pieces of the side to move, and the squares its pieces other
    than the king may move to: all of them out of check, the checker and the squares
    between it and the king in single check, none in double check. One pass over the
    enemy sliders on the king's lines finds both the sliders that give check and our
    pinned pieces; pawns and knights check by table."""
    tb = them << 3
    slider_checks, blockers = king_lines(T, bb, ksq, them)
    checkers = slider_checks | (T[P_ATT + us * 64 + ksq] & bb[tb | PAWN]) | (T[N_ATT + ksq] & bb[tb | KNIGHT])
    pinned = blockers & bb[occ_of(us)]
    if checkers & (checkers - ONE):
        target = ZERO
    elif checkers:
        target = between(T, ksq, lsb(checkers)) | checkers
    else:
        target = ALL
    return checkers, pinned, target


@njit(inline="always", cache=True)
def _lump_to(lumps, gate, pt, frm):
    """The squares a quiet move of the piece type ``pt`` from ``frm`` lands on to be counted
    in the lump (``lumps``: ``LAND`` and ``LEAVE`` by piece type; ``gate``: ALL to use them,
    ZERO for none)."""
    if (lumps[LEAVE + pt] >> np.uint64(frm)) & ONE:
        return lumps[LAND + pt] & gate
    return ZERO


@njit(inline="always", cache=True)
def _piece_moves(T, bb, out, n, ub, ksq, occ, opp, pinned, movable, count_only, lumps, gate):
    """Knights, bishops, rooks and queens: a pinned knight never moves, a pinned slider
    keeps to the line through its king and itself. Listing, the quiet moves ``_lump_to``
    names are counted, not written: returns the moves written (or counted) and those."""
    lumped = 0
    pcs = bb[ub | KNIGHT] & ~pinned
    while pcs:
        frm = lsb(pcs)
        pcs &= pcs - ONE
        t = T[N_ATT + frm] & movable
        if not count_only:
            lump = t & ~opp & _lump_to(lumps, gate, KNIGHT, frm)
            lumped += popcount(lump)
            t &= ~lump
        n = _emit_split(out, n, frm, t, opp, count_only)
    # counting, the pinned sliders are counted after the others, so the others need no
    # pin test each (about 5% of the instructions of Kiwipete and pos5); the list keeps
    # the order by piece type and square, which divide shows
    free = ~pinned if count_only else ALL
    for pt in (BISHOP, ROOK, QUEEN):
        pcs = bb[ub | pt] & free
        while pcs:
            frm = lsb(pcs)
            pcs &= pcs - ONE
            t = ZERO
            if pt != ROOK:
                t |= bishop_attacks(T, frm, occ)
            if pt != BISHOP:
                t |= rook_attacks(T, frm, occ)
            t &= movable
            if not count_only:
                if (pinned >> np.uint64(frm)) & ONE:
                    t &= line(T, ksq, frm)
                lump = t & ~opp & _lump_to(lumps, gate, pt, frm)
                lumped += popcount(lump)
                t &= ~lump
            n = _emit_split(out, n, frm, t, opp, count_only)
    if count_only:
        diagonal = bb[ub | BISHOP] | bb[ub | QUEEN]
        straight = bb[ub | ROOK] | bb[ub | QUEEN]
        pcs = (diagonal | straight) & pinned
        while pcs:
            frm = lsb(pcs)
            pcs &= pcs - ONE
            t = ZERO
            if (diagonal >> np.uint64(frm)) & ONE:
                t |= bishop_attacks(T, frm, occ)
            if (straight >> np.uint64(frm)) & ONE:
                t |= rook_attacks(T, frm, occ)
            n += popcount(t & movable & line(T, ksq, frm))
    return n, lumped


@njit(inline="always", cache=True)
def _pawn_moves(out, n, us, pawns, empty, opp, allowed, count_only, lump1, lump2):
    """Pushes, double pushes and captures (not en passant) of the set ``pawns``, set-wise,
    landing only on ``allowed``: the check target for the unpinned pawns, the pin line
    for a pinned one. Listing, the pushes to ``lump1`` and double pushes to ``lump2`` are
    counted, not written: returns the moves written (or counted) and those."""
    if us == WHITE:
        push1 = (pawns << np.uint64(8)) & empty
        push2 = ((push1 & RANK_3) << np.uint64(8)) & empty & allowed
        capw = ((pawns & NOT_FILE_A) << np.uint64(7)) & opp & allowed
        cape = ((pawns & NOT_FILE_H) << np.uint64(9)) & opp & allowed
        d1, d2, dw, de = 8, 16, 7, 9
        promo_rank = RANK_8
    else:
        push1 = (pawns >> np.uint64(8)) & empty
        push2 = ((push1 & RANK_6) >> np.uint64(8)) & empty & allowed
        capw = ((pawns & NOT_FILE_A) >> np.uint64(9)) & opp & allowed
        cape = ((pawns & NOT_FILE_H) >> np.uint64(7)) & opp & allowed
        d1, d2, dw, de = -8, -16, -9, -7
        promo_rank = RANK_1
    push1 &= allowed
    if count_only:
        n += popcount(push1) + popcount(push2) + popcount(capw) + popcount(cape)
        if (push1 | capw | cape) & promo_rank:
            # three more for each promotion (a capture on either side is a move each)
            promos = popcount(push1 & promo_rank) + popcount(capw & promo_rank)
            n += 3 * (promos + popcount(cape & promo_rank))
        return n, 0
    lumped1 = push1 & lump1
    lumped2 = push2 & lump2
    n = _emit_pawns(out, n, capw, dw, _CAPTURE, promo_rank)
    n = _emit_pawns(out, n, cape, de, _CAPTURE, promo_rank)
    n = _emit_pawns(out, n, push1 ^ lumped1, d1, _NIL, promo_rank)
    return _emit_pawns(out, n, push2 ^ lumped2, d2, _DOUBLE, promo_rank), popcount(lumped1) + popcount(lumped2)


@njit(inline="always", cache=True)
def _pawn_lumps(us, lumps, gate):
    """The squares a pawn's push (``lump1``) and double push (``lump2``) land on to be
    counted in the lump: from a ``LEAVE`` square to a ``LAND`` square, no promotion, and a
    double push only where the square it passes is a ``PASS`` square."""
    land = lumps[LAND + PAWN] & gate
    leave = lumps[LEAVE + PAWN]
    passing = lumps[PASS]
    if us == WHITE:
        return land & (leave << np.uint64(8)) & ~RANK_8, land & (leave << np.uint64(16)) & (passing << np.uint64(8))
    return land & (leave >> np.uint64(8)) & ~RANK_1, land & (leave >> np.uint64(16)) & (passing >> np.uint64(8))


@njit(cache=True)
def _pinned_pawn(out, n, us, pawn, empty, opp, pin_line, count_only):
    """One pinned pawn: the pawn step along its pin line (a call, not inlined: rare)."""
    return _pawn_moves(out, n, us, pawn, empty, opp, pin_line, count_only, ZERO, ZERO)[0]


@njit(cache=True)
def _en_passant(T, bb, out, n, ep, us, them, ksq, occ, pawns, count_only):
    """En passant, made on the occupancy and tested for any attack on the king."""
    capsq = ep - 8 if us == WHITE else ep + 8
    cap_bb = ONE << np.uint64(capsq)
    ep_bb = ONE << np.uint64(ep)
    cands = T[P_ATT + them * 64 + ep] & pawns
    while cands:
        frm = lsb(cands)
        cands &= cands - ONE
        occ2 = occ ^ (ONE << np.uint64(frm)) ^ cap_bb ^ ep_bb
        if (attackers_to(T, bb, ksq, occ2, them) & ~cap_bb) == ZERO:
            if not count_only:
                out[n] = encode(frm, ep, _NIL, _EN_PASSANT)
            n += 1
    return n


@njit(inline="always", cache=True)
def _open_castlings(T, us, ksq, occ, rights):
    """The rooks of ``rights`` whose castling has every square it needs empty, and the
    king's paths of those castlings (landing squares included): the squares castling
    will test for attacks."""
    open_rights = ZERO
    paths = ZERO
    while rights:
        r = lsb(rights)
        rights &= rights - ONE
        ci = us * 64 + ((ksq & 7) << 3) + (r & 7)
        if (occ & T[CASTLE_SPAN + ci]) == ZERO:
            open_rights |= ONE << np.uint64(r)
            paths |= T[CASTLE_PATH + ci]
    return open_rights, paths


@njit(inline="always", cache=True)
def _castling(T, bb, out, n, us, them, ksq, occ_noking, unsafe, tested, rights, count_only):
    """Castling with the rooks of ``rights`` (not out of check, every square it needs
    empty: ``_open_castlings``): the king's path must be unattacked. The squares are
    tabled by the files of king and rook."""
    tb = them << 3
    while rights:
        r = lsb(rights)
        rights &= rights - ONE
        ci = us * 64 + ((ksq & 7) << 3) + (r & 7)
        kpath = T[CASTLE_PATH + ci]
        if T[CASTLE_BEYOND + ci] & (bb[tb | ROOK] | bb[tb | QUEEN]):
            # a rook or queen behind the castling rook on the back rank sees along it
            # once the rook moves: test the path with king and rook lifted
            occ2 = occ_noking ^ (ONE << np.uint64(r))
        else:
            # the rook shields nothing that reaches the path, so what the king's moves
            # found holds; test only the rest of the path
            if kpath & unsafe:
                continue
            kpath &= ~tested
            occ2 = occ_noking
        hits = ZERO
        while kpath:
            hits |= attackers_to(T, bb, lsb(kpath), occ2, them)
            kpath &= kpath - ONE
        if hits:
            continue
        if not count_only:
            out[n] = encode(ksq, r, _NIL, _CASTLING)
        n += 1
    return n


@njit(inline="always", cache=True)
def _generate_lumped(T, bb, board, st, out, count_only, lumps, gate):
    """The legal moves: written to ``out`` (or only counted, ``count_only``), but for the
    quiet moves that ``lumps`` names (``gate`` ALL; ZERO: none), which are only counted.
    Returns how many were written (or counted) and how many were lumped."""
    # ``& 1``: the compiler then knows the side is 0 or 1, so no table or bitboard index
    # built from it pays numba's negative-index wraparound (about 4% on Kiwipete)
    us = st[STM] & 1
    them = us ^ 1
    ub = us << 3
    occ = bb[OCC]
    own = bb[occ_of(us)]
    opp = bb[occ_of(them)]
    ksq = lsb(bb[ub | KING])
    occ_noking = occ ^ (ONE << np.uint64(ksq))

    checkers, pinned, target = _evasion_target(T, bb, ksq, us, them)
    rights = bb[CASTLE] & (RANK_1 if us == WHITE else RANK_8)
    if checkers:
        rights = ZERO  # never out of check
    paths = ZERO
    if rights:
        rights, paths = _open_castlings(T, us, ksq, occ, rights)
    king_lump = ZERO if count_only else _lump_to(lumps, gate, KING, ksq)
    n, lumped, unsafe, tested = _king_moves(T, bb, out, _NIL, ksq, own, opp, occ_noking, them, paths, count_only, king_lump)
    if target == ZERO:
        return n, lumped  # double check: only the king may move
    n, more = _piece_moves(T, bb, out, n, ub, ksq, occ, opp, pinned, ~own & target, count_only, lumps, gate)
    lumped += more
    pawns = bb[ub | PAWN]
    empty = ~occ
    lump1, lump2 = (ZERO, ZERO) if count_only else _pawn_lumps(us, lumps, gate)
    n, more = _pawn_moves(out, n, us, pawns & ~pinned, empty, opp, target, count_only, lump1, lump2)
    lumped += more
    if not checkers:
        # pinned pawns (never when in check): one by one, along their pin line (``!= False``
        # makes the mode a plain bool: a literal would compile the rare step twice)
        pp = pawns & pinned
        while pp:
            frm = lsb(pp)
            pp &= pp - ONE
            n = _pinned_pawn(out, n, us, ONE << np.uint64(frm), empty, opp, line(T, ksq, frm), count_only != False)
    if st[EP] != NO_SQ:
        n = _en_passant(T, bb, out, n, st[EP], us, them, ksq, occ, pawns, count_only != False)
    if rights:
        n = _castling(T, bb, out, n, us, them, ksq, occ_noking, unsafe, tested, rights, count_only)
    return n, lumped


@njit(inline="always", cache=True)
def _generate(T, bb, board, st, out, count_only):
    """The legal moves, written to ``out`` (or only counted); returns how many."""
    return _generate_lumped(T, bb, board, st, out, count_only, bb, ZERO)[0]


@njit(cache=True)
def generate(T, bb, board, st, out):
    """Write the legal moves into ``out``; return how many."""
    return _generate(T, bb, board, st, out, False)


@njit(cache=True)
def count_legal(T, bb, board, st, scratch):
    """The number of legal moves, without writing them (bulk counting)."""
    return _generate(T, bb, board, st, scratch, True)


@njit(cache=True)
def generate_at(T_, nT, bb_, board_, st_, out_, start, lumps_, lstart):
    """``generate`` into the buffer at address ``out_`` from word ``start`` on, of the
    state arrays at addresses ``T_`` (``nT`` words), ``bb_``, ``board_``, ``st_``: the
    walk's call, which passes no array (an array argument costs numba's reference counting
    and seven words). With ``lstart`` >= 0 the quiet moves named by the lump masks at
    ``lumps_`` from word ``lstart`` on (``LUMPS`` words) are counted, not written (the
    walk's node two plies above the leaves, ``replies.sensitive_squares``): returns
    ``written + (lumped << LUMP_SHIFT)``."""
    T, bb, board, st = carray(T_, (nT,)), carray(bb_, (BB_SIZE,)), carray(board_, (64,)), carray(st_, (ST_SIZE,))
    at = max(lstart, 0)
    lumps = carray(lumps_, (at + LUMPS,))[at:]
    n, lumped = _generate_lumped(T, bb, board, st, carray(out_, (start + MAX_MOVES,))[start:], False, lumps, ALL if lstart >= 0 else ZERO)
    return n + (lumped << LUMP_SHIFT)
