"""make / unmake with the history stack.

``make`` pushes one saved state (move, captured piece, en-passant square, halfmove clock,
castling rights, Zobrist key) onto ``hist``/``hkeys`` at ``st[PLY]`` and updates every
field incrementally. ``unmake`` pops it, restores those fields as saved and moves only the
pieces back. Neither allocates. ``child_key`` is the key ``make`` would give, computed
without making the move (the perft walk probes its table with it first).
"""

import numpy as np
from numba import njit

from .attacks import P_ATT
from .bitboard import ONE, RANK_1, RANK_8
from .move import CASTLING, DOUBLE, EN_PASSANT, castle_squares, from_sq, promotion, to_sq
from .position import (
    CASTLE,
    EP,
    FULL,
    H_CAPTURED,
    H_CASTLE,
    H_EP,
    H_HALF,
    H_KEY,
    H_MOVE,
    HALF,
    KEY,
    KING,
    NO_SQ,
    OCC,
    PAWN,
    PLY,
    STM,
    WHITE,
    Z_EP,
    Z_SIDE,
    occ_of,
    z_castle,
    z_piece,
)
from .wordcopy import copy_words


@njit(cache=True)
def put_piece(bb, board, sq, pc):
    b = ONE << np.uint64(sq)
    bb[pc] |= b
    bb[occ_of(pc >> 3)] |= b
    bb[OCC] |= b
    board[sq] = pc


@njit(cache=True)
def remove_piece(bb, board, sq, pc):
    b = ONE << np.uint64(sq)
    bb[pc] ^= b
    bb[occ_of(pc >> 3)] ^= b
    bb[OCC] ^= b
    board[sq] = 0


@njit(inline="always", cache=True)
def rights_after(rights, pc, frm, to, us):
    """The castling rooks of ``rights`` left after piece ``pc`` of side ``us`` moves from
    ``frm`` to ``to``: a rook that moves or is taken loses its right, and a king move loses
    both of its side's (make, the last-ply copy-make and ``child_key`` all use this rule)."""
    new = rights & ~((ONE << np.uint64(frm)) | (ONE << np.uint64(to)))
    if (pc & 7) == KING:
        new &= ~(RANK_1 if us == WHITE else RANK_8)
    return new


@njit(cache=True)
def child_key(T, bb, board, st, move):
    """The Zobrist key of the position after ``move``, from the move and the squares it
    touches, without making it: the perft walk looks a child up in the table before (and
    instead of) making its move. The same terms as ``make``'s incremental key (the tests
    check both against the key of the position loaded fresh). A function of its own, not
    inlined into the walk: compiled once, and the walk's no-table loops keep their code
    (inlined, it cost position 6 about 9% of its nodes/second without a table)."""
    us = st[STM]
    frm = from_sq(move)
    to = to_sq(move)
    key = bb[KEY] ^ Z_SIDE
    if st[EP] != NO_SQ:
        key ^= Z_EP[st[EP] & 7]
    pc = board[frm]
    if move & CASTLING:
        rook = board[to]
        kto, rto = castle_squares(frm, to)
        key ^= z_piece(pc, frm) ^ z_piece(rook, to) ^ z_piece(pc, kto) ^ z_piece(rook, rto)
    else:
        if move & EN_PASSANT:
            capsq = to - 8 if us == WHITE else to + 8
            key ^= z_piece(board[capsq], capsq)
        elif board[to] != 0:
            key ^= z_piece(board[to], to)
        promo = promotion(move)
        placed = pc if promo == 0 else (promo | (us << 3))
        key ^= z_piece(pc, frm) ^ z_piece(placed, to)
        if move & DOUBLE:
            ep = (frm + to) >> 1
            # the square counts only if an enemy pawn could take en passant (as in make)
            if T[P_ATT + us * 64 + ep] & bb[((us ^ 1) << 3) | PAWN]:
                key ^= Z_EP[ep & 7]
    rights = bb[CASTLE]
    if rights:
        key ^= z_castle(rights ^ rights_after(rights, pc, frm, to, us))
    return key


@njit(inline="always", cache=True)
def make(T, bb, board, st, hist, hkeys, move):
    ply = st[PLY]
    us = st[STM]
    them = us ^ 1
    frm = from_sq(move)
    to = to_sq(move)
    hist[ply, H_MOVE] = move
    hist[ply, H_EP] = st[EP]
    hist[ply, H_HALF] = st[HALF]
    hkeys[ply, H_CASTLE] = bb[CASTLE]
    hkeys[ply, H_KEY] = bb[KEY]

    key = bb[KEY] ^ Z_SIDE
    if st[EP] != NO_SQ:
        key ^= Z_EP[st[EP] & 7]
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
        key ^= z_piece(pc, frm) ^ z_piece(rook, to) ^ z_piece(pc, kto) ^ z_piece(rook, rto)
        st[HALF] += 1
    else:
        if move & EN_PASSANT:
            capsq = to - 8 if us == WHITE else to + 8
            captured = board[capsq]
            remove_piece(bb, board, capsq, captured)
            key ^= z_piece(captured, capsq)
        elif board[to] != 0:
            captured = board[to]
            remove_piece(bb, board, to, captured)
            key ^= z_piece(captured, to)
        remove_piece(bb, board, frm, pc)
        key ^= z_piece(pc, frm)
        promo = promotion(move)
        placed = pc if promo == 0 else (promo | (us << 3))
        put_piece(bb, board, to, placed)
        key ^= z_piece(placed, to)
        if (pc & 7) == PAWN or captured != 0:
            st[HALF] = 0
        else:
            st[HALF] += 1
        if move & DOUBLE:
            ep = (frm + to) >> 1
            # keep the square only if an enemy pawn could take en passant (as Stockfish)
            if T[P_ATT + us * 64 + ep] & bb[(them << 3) | PAWN]:
                st[EP] = ep
                key ^= Z_EP[ep & 7]

    rights = bb[CASTLE]
    if rights:
        new = rights_after(rights, pc, frm, to, us)
        if new != rights:
            key ^= z_castle(rights ^ new)
            bb[CASTLE] = new

    hist[ply, H_CAPTURED] = captured
    st[FULL] += us
    st[STM] = them
    st[PLY] = ply + 1
    bb[KEY] = key


@njit(inline="always", cache=True)
def unmake(bb, board, st, hist, hkeys):
    ply = st[PLY] - 1
    st[PLY] = ply
    move = hist[ply, H_MOVE]
    captured = hist[ply, H_CAPTURED]
    us = st[STM] ^ 1
    st[STM] = us
    st[FULL] -= us
    st[EP] = hist[ply, H_EP]
    st[HALF] = hist[ply, H_HALF]
    bb[CASTLE] = hkeys[ply, H_CASTLE]
    bb[KEY] = hkeys[ply, H_KEY]
    frm = from_sq(move)
    to = to_sq(move)
    if move & CASTLING:
        kto, rto = castle_squares(frm, to)
        king = board[kto]
        rook = board[rto]
        remove_piece(bb, board, kto, king)
        remove_piece(bb, board, rto, rook)
        put_piece(bb, board, frm, king)
        put_piece(bb, board, to, rook)
        return
    pc = board[to]
    remove_piece(bb, board, to, pc)
    if promotion(move):
        pc = PAWN | (us << 3)
    put_piece(bb, board, frm, pc)
    if captured != 0:
        if move & EN_PASSANT:
            put_piece(bb, board, to - 8 if us == WHITE else to + 8, captured)
        else:
            put_piece(bb, board, to, captured)


@njit(inline="always", cache=True)
def make_for_count(T, bb, board, st, move, nb, nst):
    """Copy-make for the last ply of perft: write into ``nb``/``nst`` only what move
    generation reads after ``move`` (bitboards, castling rooks, side to move, en-passant
    square). No square array, key, clocks or history: the copy is thrown away, so there is
    nothing to unmake. Bulk counting then counts the replies on the copy.

    The bitboards are copied as one block (``copy_words``: vector loads and stores), then
    each word the move changes is written once, computed from ``bb`` rather than read back
    from the copy: on an Intel Xeon (Rocket Lake) the two together took Kiwipete 5 from
    about 1780 to 1900 M nodes/second and startpos 6 from 1150 to 1200 (docs/benchmarks.md)."""
    copy_words(nb, bb, CASTLE)
    # ``& 1``, ``& 15``: known non-negative, the indices below skip numba's wraparound
    us = st[STM] & 1
    them = us ^ 1
    frm = from_sq(move)
    to = to_sq(move)
    pc = board[frm] & 15
    there = board[to] & 15  # the captured piece, or the castling rook
    fb = ONE << np.uint64(frm)
    tb = ONE << np.uint64(to)
    nst[STM] = them
    nst[EP] = NO_SQ
    # each changed word is written once, from ``bb`` (not read back from the copy)
    ou, ot = occ_of(us), occ_of(them)
    if move & CASTLING:
        kto, rto = castle_squares(frm, to)
        kb = ONE << np.uint64(kto)
        rb = ONE << np.uint64(rto)
        nb[pc] = bb[pc] ^ fb ^ kb
        nb[there] = bb[there] ^ tb ^ rb
        mine = bb[ou] ^ fb ^ tb ^ kb ^ rb
        theirs = bb[ot]
    else:
        theirs = bb[ot]
        if move & EN_PASSANT:
            cb = ONE << np.uint64(to - 8 if us == WHITE else to + 8)
            nb[(them << 3) | PAWN] = bb[(them << 3) | PAWN] ^ cb
            theirs ^= cb
        elif there != 0:
            nb[there] = bb[there] ^ tb
            theirs ^= tb
        promo = promotion(move)
        if promo == 0:
            nb[pc] = bb[pc] ^ fb ^ tb
        else:
            nb[pc] = bb[pc] ^ fb
            placed = (promo | (us << 3)) & 15
            nb[placed] = bb[placed] ^ tb
        mine = bb[ou] ^ fb ^ tb
        if move & DOUBLE:
            ep = (frm + to) >> 1
            if T[P_ATT + us * 64 + ep] & bb[(them << 3) | PAWN]:
                nst[EP] = ep
    nb[ou] = mine
    nb[ot] = theirs
    nb[OCC] = mine | theirs
    rights = bb[CASTLE]
    nb[CASTLE] = rights_after(rights, pc, frm, to, us) if rights else rights


@njit(cache=True)
def make_move(T, bb, board, st, hist, hkeys, move):
    """make, compiled once for every caller outside the perft loop (which inlines it)."""
    make(T, bb, board, st, hist, hkeys, move)


@njit(cache=True)
def unmake_move(bb, board, st, hist, hkeys):
    """unmake, compiled once for every caller outside the perft loop."""
    unmake(bb, board, st, hist, hkeys)
