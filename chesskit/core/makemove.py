"""make / unmake with the history stack.

``make`` pushes one saved state (move, captured piece, en-passant square, halfmove clock,
castling rights, Zobrist key) onto ``hist``/``hkeys`` at ``st[PLY]`` and updates every
field incrementally. ``unmake`` pops it, restores those fields as saved and moves only the
pieces back. Neither allocates. ``child_key`` is the key ``make`` would give, computed
without making the move (the perft walk probes its table with it first).

What a move does is written once, in the small rules below (``landing``, ``ep_victim``,
``ep_after_push``, ``move_terms``, ``castling_terms``, ``turn_terms``, ``rights_after``;
the en-passant rule itself is ``state.py``'s, shared with ``Board``): ``make`` (also the
variant walk's copy-make, with no history), the last-ply copy-make ``make_for_count``,
``child_key`` and ``unmake`` each call them rather than spelling the rule out, so the key
a table is probed with cannot drift from the key ``make`` gives. Each is inlined
(``inline="always"``) and computes what the callers computed when each spelled it out: the
perft walk's machine code is the same instructions as before but for where make computes a
quiet move's two key terms (``tools/walk_asm.py``; docs/benchmarks.md, 2026-11-25).
"""

import numpy as np
from numba import carray, njit

from .bitboard import ONE, RANK_1, RANK_8
from .move import CASTLING, DOUBLE, EN_PASSANT, castle_squares, from_sq, promotion, to_sq
from .position import (
    BB_SIZE,
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
    ST_SIZE,
    STM,
    WHITE,
    castle_terms,
    ep_term,
    occ_of,
    piece_term,
    side_term,
    z_castle,
)
from .state import ep_kept as _ep_kept
from .state import ep_victim as _ep_victim
from .wordcopy import copy_words

_rule = njit(inline="always", cache=True)

# the en-passant rule, one plain-Python source (``state.py``) for this and ``Board``
ep_victim = _rule(_ep_victim)
ep_kept = _rule(_ep_kept)


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


@njit(inline="always", cache=True)
def ep_after_push(T, bb, frm, to, us):
    """The en-passant square a double push of side ``us`` from ``frm`` to ``to`` leaves:
    the square it passed, kept only if an enemy pawn could take en passant there
    (``state.ep_kept``, as Stockfish), else ``NO_SQ``."""
    ep = (frm + to) >> 1
    if ep_kept(T, bb, ep, us):
        return ep
    return NO_SQ


@njit(inline="always", cache=True)
def landing(pc, move, us):
    """The piece a non-castling move of ``pc`` (side ``us``) puts on its target square:
    itself, or what it promotes to."""
    promo = promotion(move)
    return pc if promo == 0 else (promo | (us << 3))


# The key terms take the key's number ``w`` (0 the state's key, 1 the perft walk's second
# key: ``position.piece_term``); each caller passes a constant.


@njit(inline="always", cache=True)
def turn_terms(key, ep, w):
    """``key`` with the side to move flipped and the en-passant square ``ep`` (if any)
    taken out: the key terms every move changes before its pieces."""
    key ^= side_term(w)
    if ep != NO_SQ:
        key ^= ep_term(w, ep)
    return key


@njit(inline="always", cache=True)
def move_terms(key, pc, frm, placed, to, w):
    """``key`` with the terms of piece ``pc`` leaving ``frm`` and ``placed`` (``landing``)
    arriving on ``to`` (a capture's piece is one more ``piece_term``)."""
    return key ^ piece_term(w, pc, frm) ^ piece_term(w, placed, to)


@njit(inline="always", cache=True)
def castling_terms(king, rook, frm, to, kto, rto, w):
    """The key terms of a castling: the king from ``frm`` to ``kto``, the rook from ``to``
    to ``rto`` (``castle_squares``)."""
    return piece_term(w, king, frm) ^ piece_term(w, rook, to) ^ piece_term(w, king, kto) ^ piece_term(w, rook, rto)


@njit(inline="always", cache=True)
def key_change(T, bb, board, st, move):
    """What ``move`` changes in a position's keys, found without making it: the pieces it
    takes off and puts on squares, as four (piece, square) pairs (piece 0: none; a
    castling's king and rook each leave one square and reach another, any other move's
    piece leaves ``frm`` and ``landing`` reaches ``to``, and a capture's piece leaves its
    square), the en-passant square the move leaves (``NO_SQ``: none) and the castling
    rooks whose rights it ends. The same rules as ``make``'s incremental key; found once
    for both keys of a child (``child_keys``), each key's terms then taken by ``key_with``."""
    us = st[STM]
    frm = from_sq(move)
    to = to_sq(move)
    pc = board[frm]
    ep = NO_SQ
    if move & CASTLING:
        kto, rto = castle_squares(frm, to)
        rook = board[to]
        gone_pc, gone_sq, put_pc, put_sq = rook, to, rook, rto
        placed = pc
        reach = kto
    else:
        gone_pc, gone_sq, put_pc, put_sq = board[to], to, 0, to
        if move & EN_PASSANT:
            gone_sq = ep_victim(to, us)
            gone_pc = board[gone_sq]
        placed = landing(pc, move, us)
        reach = to
        if move & DOUBLE:
            ep = ep_after_push(T, bb, frm, to, us)
    rights = bb[CASTLE]
    ended = rights ^ rights_after(rights, pc, frm, to, us) if rights else rights
    return pc, frm, placed, reach, gone_pc, gone_sq, put_pc, put_sq, ep, ended


@njit(inline="always", cache=True)
def key_with(key, st, change, w):
    """Key ``w`` (its value ``key`` now) after the move whose ``key_change`` is ``change``."""
    pc, frm, placed, reach, gone_pc, gone_sq, put_pc, put_sq, ep, ended = change
    key = turn_terms(key, st[EP], w)
    key = move_terms(key, pc, frm, placed, reach, w)
    if gone_pc != 0:
        key ^= piece_term(w, gone_pc, gone_sq)
    if put_pc != 0:
        key ^= piece_term(w, put_pc, put_sq)
    if ep != NO_SQ:
        key ^= ep_term(w, ep)
    if ended:
        key ^= castle_terms(w, ended)
    return key


@njit(inline="always", cache=True)
def key_after(T, bb, board, st, move, key, w):
    """Key ``w`` (its value ``key`` now) of the position after ``move``, from the move and
    the squares it touches, without making it. The same terms as ``make``'s incremental
    key, from the same rules (the tests check both against the keys of the position loaded
    fresh)."""
    return key_with(key, st, key_change(T, bb, board, st, move), w)


@njit(cache=True)
def child_key(T, bb, board, st, move):
    """The Zobrist key (bb[KEY]) of the position after ``move``, without making it (the
    GPU walk's table and deduplication)."""
    return key_after(T, bb, board, st, move, bb[KEY], 0)


@njit(inline="always", cache=True)
def _child_keys(T, bb, board, st, key2, move):
    change = key_change(T, bb, board, st, move)  # found once, its terms taken for each key
    return key_with(bb[KEY], st, change, 0), key_with(key2, st, change, 1)


@njit(cache=True)
def child_keys(T, bb, board, st, key2, move):
    """Both keys of the position after ``move``, without making it: the perft walk looks
    a child up in its table before (and instead of) making its move; ``key2`` is this
    position's second key (``state.py``). The walk calls ``child_keys_at``, the same body;
    neither is inlined into the walk: compiled once, and the walk's no-table loops keep
    their code (inlined, the one-key version cost position 6 about 9% of its nodes/second
    without a table)."""
    return _child_keys(T, bb, board, st, key2, move)


@njit(cache=True)
def child_keys_at(T_, nT, bb_, board_, st_, key2, move):
    """``child_keys`` of the state arrays at addresses ``T_`` (``nT`` words), ``bb_``,
    ``board_`` and ``st_``: the walk's call, which passes no array (an array argument of a
    call costs numba's reference counting and seven words: docs/benchmarks.md)."""
    T, bb = carray(T_, (nT,)), carray(bb_, (BB_SIZE,))
    return _child_keys(T, bb, carray(board_, (64,)), carray(st_, (ST_SIZE,)), key2, move)


@njit(inline="always", cache=True)
def make(T, bb, board, st, hist, hkeys, move):
    """Make ``move`` in place and push what ``unmake`` restores onto ``hist``/``hkeys`` at
    ``st[PLY]``; returns the piece it takes (0: none). With ``hist`` and ``hkeys`` None it
    keeps no history and leaves ``st[PLY]`` alone: the variant walk's copy-make
    (``vmake.apply_move``), numba pruning the history's branches there. One function for
    both rather than a history-free helper that ``make`` wraps: with the helper the
    standard walk's registers were allocated differently, with this its instructions are
    the same (docs/benchmarks.md, 2026-11-27 late afternoon, dup31)."""
    ply = st[PLY]
    us = st[STM]
    them = us ^ 1
    frm = from_sq(move)
    to = to_sq(move)
    if hist is not None:
        hist[ply, H_MOVE] = move
        hist[ply, H_EP] = st[EP]
        hist[ply, H_HALF] = st[HALF]
        hkeys[ply, H_CASTLE] = bb[CASTLE]
        hkeys[ply, H_KEY] = bb[KEY]

    key = turn_terms(bb[KEY], st[EP], 0)
    if st[EP] != NO_SQ:
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
            key ^= piece_term(0, captured, capsq)
        elif board[to] != 0:
            captured = board[to]
            remove_piece(bb, board, to, captured)
            key ^= piece_term(0, captured, to)
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
                key ^= ep_term(0, ep)

    rights = bb[CASTLE]
    if rights:
        new = rights_after(rights, pc, frm, to, us)
        if new != rights:
            key ^= z_castle(rights ^ new)
            bb[CASTLE] = new

    if hist is not None:
        hist[ply, H_CAPTURED] = captured
    st[FULL] += us
    st[STM] = them
    if hist is not None:
        st[PLY] = ply + 1
    bb[KEY] = key
    return captured


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
            put_piece(bb, board, ep_victim(to, us), captured)
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
            cb = ONE << np.uint64(ep_victim(to, us))
            nb[(them << 3) | PAWN] = bb[(them << 3) | PAWN] ^ cb
            theirs ^= cb
        elif there != 0:
            nb[there] = bb[there] ^ tb
            theirs ^= tb
        if promotion(move) == 0:
            nb[pc] = bb[pc] ^ fb ^ tb
        else:
            nb[pc] = bb[pc] ^ fb
            placed = landing(pc, move, us) & 15
            nb[placed] = bb[placed] ^ tb
        mine = bb[ou] ^ fb ^ tb
        if move & DOUBLE:
            ep = ep_after_push(T, bb, frm, to, us)
            if ep != NO_SQ:
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
