"""The labelled consistency checker (winglet's ``debugMoves``, made thorough).

``check_walk`` walks every node of the legal move tree to ``depth`` and verifies, each
invariant with a number here and a name in ``chesskit/invariants.py``:

at every node it generates moves from (the root and every inner node)
  MOVEGEN_MATCHES_ORACLE  the legal moves equal those of ``pseudo.oracle_moves`` (a
                          simple pseudo-legal + make-and-test generator), both ways; an
                          extra move that leaves the mover's king attacked is reported
                          as MOVER_NOT_IN_CHECK instead
  BULK_COUNT              the count-only mode perft uses agrees with the move list
after every make (and, for the position rules, at the root)
  HISTORY_DEPTH           the history stack grew by one row
  SIDE_TO_MOVE            the side to move flipped
  ONE_KING_EACH, COLOURS_DISJOINT, OCCUPANCY_UNION, BITBOARDS_MATCH_SQUARES
                          the bitboards agree with each other and with the square array
  ZOBRIST_KEY             the incremental key equals ``compute_key`` from scratch
  MOVE_APPLIED            the square array is the one before, with the move applied
                          (worked out here, independently of make)
  CASTLING_RIGHTS_PLACEMENT  each right's rook stands on it, and that side's king on
                          the square it stood on at the root
  CASTLING_RIGHTS_UPDATE  rights lost exactly for the squares moved from / to and for
                          a king move, and never gained
  EP_SQUARE               set exactly after a double push that an enemy pawn can take,
                          on the right rank, with the pushed pawn in front of it
  HALFMOVE_CLOCK          0 after a pawn move or capture, else one more
  FULLMOVE_NUMBER         one more after Black's move, else the same
  MOVER_NOT_IN_CHECK      the side that just moved is not in check
after every unmake
  HISTORY_DEPTH           the history stack is back to its depth before the make
  UNMAKE_RESTORES_STATE   every bitboard, square, and state field equals its value
                          before the make

On the first violation the walk stops, leaving the failing state in the arrays (so
callers pass copies), and reports in ``info``/``uvals``/``path`` (layout below).

``inject`` (0 = none; the ``F_*`` constants) corrupts the state right after the real
make or unmake, or the generated move list, so tests can prove that each invariant
fires. It lives only in this walk: ``perft`` never pays for it.
"""

import numpy as np
from numba import njit

from chesskit.invariants import (
    BITBOARDS_MATCH_SQUARES,
    BULK_COUNT,
    CASTLING_RIGHTS_PLACEMENT,
    CASTLING_RIGHTS_UPDATE,
    COLOURS_DISJOINT,
    EP_SQUARE,
    FULLMOVE_NUMBER,
    F_BULK,
    F_COLOUR_OVERLAP,
    F_DROP_MOVE,
    F_DROP_SQUARE,
    F_EP_PAWN_STAYS,
    F_EXTRA_KING,
    F_FULLMOVE,
    F_HALFMOVE,
    F_ILLEGAL_MOVE,
    F_KEEP_CASTLING,
    F_KEEP_EP,
    F_KEY,
    F_LOSE_CASTLING,
    F_OCC_EXTRA,
    F_PLY,
    F_SIDE,
    F_UNMAKE_CLOCK,
    HALFMOVE_CLOCK,
    HISTORY_DEPTH,
    MOVEGEN_MATCHES_ORACLE,
    MOVER_NOT_IN_CHECK,
    MOVE_APPLIED,
    OCCUPANCY_UNION,
    OK,
    ONE_KING_EACH,
    SIDE_TO_MOVE,
    UNMAKE_RESTORES_STATE,
    ZOBRIST_KEY,
)

from .attacks import P_ATT
from .bitboard import ONE, RANK_1, RANK_8, ZERO, lsb, popcount
from .makemove import make_move, unmake_move
from .move import CAPTURE, CASTLING, DOUBLE, EN_PASSANT, castle_squares, from_sq, promotion, to_sq
from .movegen import attackers_to, count_legal, generate
from .position import (
    BLACK,
    CASTLE,
    EP,
    FULL,
    HALF,
    KEY,
    KING,
    MAX_MOVES,
    NO_SQ,
    OCC,
    PAWN,
    PLY,
    ROOK,
    STM,
    WHITE,
    Z_EP,
    Z_SIDE,
    compute_key,
    occ_of,
    z_castle,
    z_piece,
)
from .pseudo import leaves_king_attacked, oracle_moves, pseudo_legal


# info[]: what the walk reports
I_CODE = 0  # the violated invariant, OK when none
I_LEVEL = 1  # how many moves of ``path`` lead to the node where it happened
I_MOVE = 2  # the move being made / unmade / found wrong there, -1 for none
I_EXPECTED = 3  # integer-valued invariants: expected and actual value
I_ACTUAL = 4
I_DETAIL = 5  # which bitboard, square or field (see chesskit/board/debug.py)
I_NODES = 6  # leaf nodes reached (perft(depth) when no violation)
I_CHECKS = 7  # invariant evaluations made
INFO_SIZE = 8
# uvals[0], uvals[1]: expected and actual value of bitboard- and key-valued invariants

# details: a bitboard index 0..17, or one of these plus a square / state index
DETAIL_SQUARE = 100
DETAIL_STATE = 200
DETAIL_MISSING = 1  # MOVEGEN_MATCHES_ORACLE: the oracle has a move the generator lacks
DETAIL_EXTRA = 2  # ... the generator has a move the oracle lacks

@njit(cache=True)
def _fail(info, code, detail, expected, actual):
    info[I_CODE] = code
    info[I_DETAIL] = detail
    info[I_EXPECTED] = expected
    info[I_ACTUAL] = actual
    return code


@njit(cache=True)
def _king_after(bb, board, st, move):
    """The square of the mover's king once ``move`` is made: where a king move or a castle
    puts it (the message of an illegal king move names the square it is attacked on, not
    the one it left), else where it stands."""
    frm = from_sq(move)
    if move & CASTLING:
        return castle_squares(frm, to_sq(move))[0]
    if board[frm] & 7 == KING:
        return to_sq(move)
    return lsb(bb[(st[STM] << 3) | KING])


@njit(cache=True)
def _fail_bb(info, uvals, code, detail, expected, actual):
    info[I_CODE] = code
    info[I_DETAIL] = detail
    uvals[0] = expected
    uvals[1] = actual
    return code


@njit(cache=True)
def _back_rank(color):
    return RANK_1 if color == WHITE else RANK_8


# ---------------------------------------------------------------- position rules


@njit(cache=True)
def _check_structure(bb, board, st, info, uvals, expect):
    """Kings, colour sets, occupancy, bitboards against squares, Zobrist key."""
    for color in (WHITE, BLACK):
        info[I_CHECKS] += 1
        kings = popcount(bb[(color << 3) | KING])
        if kings != 1:
            return _fail(info, ONE_KING_EACH, color, 1, kings)
    info[I_CHECKS] += 1
    overlap = bb[occ_of(WHITE)] & bb[occ_of(BLACK)]
    if overlap != ZERO:
        return _fail_bb(info, uvals, COLOURS_DISJOINT, 0, ZERO, overlap)
    info[I_CHECKS] += 1
    union = bb[occ_of(WHITE)] | bb[occ_of(BLACK)]
    if union != bb[OCC]:
        return _fail_bb(info, uvals, OCCUPANCY_UNION, OCC, union, bb[OCC])
    info[I_CHECKS] += 1
    for i in range(16):
        expect[i] = ZERO
    for sq in range(64):
        pc = board[sq]
        if pc == 0:
            continue
        if (pc & 7) < PAWN or (pc & 7) > KING or (pc >> 3) > 1:
            return _fail(info, BITBOARDS_MATCH_SQUARES, DETAIL_SQUARE + sq, 0, pc)
        b = ONE << np.uint64(sq)
        expect[pc] |= b
        expect[occ_of(pc >> 3)] |= b
        expect[OCC] |= b
    for j in range(16):
        i = (j + 1) & 15  # the piece bitboards first, the occupancy (0) last
        if expect[i] != bb[i]:
            return _fail_bb(info, uvals, BITBOARDS_MATCH_SQUARES, i, expect[i], bb[i])
    info[I_CHECKS] += 1
    key = compute_key(bb, board, st)
    if key != bb[KEY]:
        return _fail_bb(info, uvals, ZOBRIST_KEY, KEY, key, bb[KEY])
    return OK


@njit(cache=True)
def _valid_rights(bb, board, homes):
    """The castling rights whose rook stands on its square, its king on its root square."""
    rights = bb[CASTLE]
    valid = ZERO
    while rights:
        r = lsb(rights)
        rights &= rights - ONE
        color = WHITE if r < 8 else (BLACK if r >= 56 else -1)
        if color < 0 or board[r] != ((color << 3) | ROOK):
            continue
        home = homes[color]
        if home < 0 or (home >> 3) != (r >> 3) or board[home] != ((color << 3) | KING):
            continue
        valid |= ONE << np.uint64(r)
    return valid


@njit(cache=True)
def _ep_plausible(T, bb, board, st):
    """Is the en-passant square where a double push just left it, and takeable?"""
    ep = st[EP]
    us = st[STM]
    if ep < 0 or ep > 63:
        return False
    if us == WHITE:  # Black just pushed from ep + 8 to ep - 8
        rank, pushed, origin = 5, ep - 8, ep + 8
    else:
        rank, pushed, origin = 2, ep + 8, ep - 8
    if (ep >> 3) != rank or board[ep] != 0 or board[origin] != 0:
        return False
    if board[pushed] != (((us ^ 1) << 3) | PAWN):
        return False
    # kept only when a pawn of the side to move attacks it (position.py)
    return (T[P_ATT + (us ^ 1) * 64 + ep] & bb[(us << 3) | PAWN]) != ZERO


@njit(cache=True)
def _check_mover_safe(T, bb, mover, info, uvals):
    """The side that just moved (``mover``) is not left in check."""
    info[I_CHECKS] += 1
    ksq = lsb(bb[(mover << 3) | KING])
    attackers = attackers_to(T, bb, ksq, bb[OCC], mover ^ 1)
    if attackers != ZERO:
        return _fail_bb(info, uvals, MOVER_NOT_IN_CHECK, ksq, ZERO, attackers)
    return OK


@njit(cache=True)
def _check_rules(T, bb, board, st, homes, info, uvals):
    """The side to move, castling rights placement, the en-passant square, the clocks, the
    side not to move not in check."""
    info[I_CHECKS] += 1
    if st[STM] != WHITE and st[STM] != BLACK:
        return _fail(info, SIDE_TO_MOVE, DETAIL_STATE + STM, WHITE, st[STM])
    info[I_CHECKS] += 1
    valid = _valid_rights(bb, board, homes)
    if valid != bb[CASTLE]:
        return _fail_bb(info, uvals, CASTLING_RIGHTS_PLACEMENT, CASTLE, valid, bb[CASTLE])
    info[I_CHECKS] += 1
    if st[EP] != NO_SQ and not _ep_plausible(T, bb, board, st):
        return _fail(info, EP_SQUARE, DETAIL_STATE + EP, NO_SQ, st[EP])
    info[I_CHECKS] += 1
    if st[HALF] < 0:
        return _fail(info, HALFMOVE_CLOCK, DETAIL_STATE + HALF, 0, st[HALF])
    info[I_CHECKS] += 1
    if st[FULL] < 1:
        return _fail(info, FULLMOVE_NUMBER, DETAIL_STATE + FULL, 1, st[FULL])
    return _check_mover_safe(T, bb, st[STM] ^ 1, info, uvals)


# ---------------------------------------------------------------- after make / unmake


@njit(cache=True)
def _check_made(T, bb, board, st, move, sv_bb, sv_board, sv_st, homes, info, uvals, expect, squares):
    """Every invariant after ``move`` was made from the saved state ``sv_*``."""
    us = sv_st[STM]
    frm = from_sq(move)
    to = to_sq(move)
    pc = sv_board[frm]

    info[I_CHECKS] += 1
    if st[PLY] != sv_st[PLY] + 1:
        return _fail(info, HISTORY_DEPTH, DETAIL_STATE + PLY, sv_st[PLY] + 1, st[PLY])
    info[I_CHECKS] += 1
    if st[STM] != (us ^ 1):
        return _fail(info, SIDE_TO_MOVE, DETAIL_STATE + STM, us ^ 1, st[STM])

    code = _check_structure(bb, board, st, info, uvals, expect)
    if code != OK:
        return code

    # the square array, worked out from the one before
    info[I_CHECKS] += 1
    for sq in range(64):
        squares[sq] = sv_board[sq]
    captured = False
    if move & CASTLING:
        kto, rto = castle_squares(frm, to)
        rook = sv_board[to]
        squares[frm] = 0
        squares[to] = 0
        squares[kto] = pc
        squares[rto] = rook
    else:
        if move & EN_PASSANT:
            squares[to - 8 if us == WHITE else to + 8] = 0
            captured = True
        elif sv_board[to] != 0:
            captured = True
        promo = promotion(move)
        squares[frm] = 0
        squares[to] = pc if promo == 0 else (promo | (us << 3))
    for sq in range(64):
        if squares[sq] != board[sq]:
            return _fail(info, MOVE_APPLIED, DETAIL_SQUARE + sq, squares[sq], board[sq])

    info[I_CHECKS] += 1
    valid = _valid_rights(bb, board, homes)
    if valid != bb[CASTLE]:
        return _fail_bb(info, uvals, CASTLING_RIGHTS_PLACEMENT, CASTLE, valid, bb[CASTLE])
    info[I_CHECKS] += 1
    rights = sv_bb[CASTLE] & ~((ONE << np.uint64(frm)) | (ONE << np.uint64(to)))
    if (pc & 7) == KING:
        rights &= ~_back_rank(us)
    if rights != bb[CASTLE]:
        return _fail_bb(info, uvals, CASTLING_RIGHTS_UPDATE, CASTLE, rights, bb[CASTLE])

    info[I_CHECKS] += 1
    ep = NO_SQ
    if move & DOUBLE:
        mid = (frm + to) >> 1
        if T[P_ATT + us * 64 + mid] & bb[((us ^ 1) << 3) | PAWN]:
            ep = mid
    if st[EP] != ep or (ep != NO_SQ and not _ep_plausible(T, bb, board, st)):
        return _fail(info, EP_SQUARE, DETAIL_STATE + EP, ep, st[EP])

    info[I_CHECKS] += 1
    half = 0 if (pc & 7) == PAWN or captured else sv_st[HALF] + 1
    if st[HALF] != half:
        return _fail(info, HALFMOVE_CLOCK, DETAIL_STATE + HALF, half, st[HALF])
    info[I_CHECKS] += 1
    if st[FULL] != sv_st[FULL] + us:
        return _fail(info, FULLMOVE_NUMBER, DETAIL_STATE + FULL, sv_st[FULL] + us, st[FULL])

    return _check_mover_safe(T, bb, us, info, uvals)


@njit(cache=True)
def _check_unmade(bb, board, st, sv_bb, sv_board, sv_st, info, uvals):
    """After unmake: the history depth, then every field as saved before the make."""
    info[I_CHECKS] += 1
    if st[PLY] != sv_st[PLY]:
        return _fail(info, HISTORY_DEPTH, DETAIL_STATE + PLY, sv_st[PLY], st[PLY])
    info[I_CHECKS] += 1
    for i in range(bb.shape[0]):
        if bb[i] != sv_bb[i]:
            return _fail_bb(info, uvals, UNMAKE_RESTORES_STATE, i, sv_bb[i], bb[i])
    for sq in range(64):
        if board[sq] != sv_board[sq]:
            return _fail(info, UNMAKE_RESTORES_STATE, DETAIL_SQUARE + sq, sv_board[sq], board[sq])
    for i in range(st.shape[0]):
        if st[i] != sv_st[i]:
            return _fail(info, UNMAKE_RESTORES_STATE, DETAIL_STATE + i, sv_st[i], st[i])
    return OK


# ---------------------------------------------------------------- node: move generation


@njit(cache=True)
def _check_node(T, bb, board, st, hist, hkeys, moves, level, nmoves, inject, info, uvals, buf, buf2):
    """Generate the moves of the node into ``moves[level]`` and check them."""
    out = moves[level]
    n = generate(T, bb, board, st, out)
    if inject == F_DROP_MOVE and n > 0:
        n -= 1
    elif inject == F_ILLEGAL_MOVE:
        m = pseudo_legal(bb, board, st, buf)
        for i in range(m):
            if leaves_king_attacked(T, bb, board, st, hist, hkeys, buf[i]):
                out[n] = buf[i]
                n += 1
                break
    nmoves[level] = n

    info[I_CHECKS] += 1
    m = oracle_moves(T, bb, board, st, hist, hkeys, buf, buf2)
    ours = np.sort(out[:n])
    theirs = np.sort(buf[:m])
    i = 0
    j = 0
    while i < n or j < m:
        if i < n and j < m and ours[i] == theirs[j]:
            i += 1
            j += 1
        elif j >= m or (i < n and ours[i] < theirs[j]):
            move = ours[i]
            info[I_MOVE] = move
            if leaves_king_attacked(T, bb, board, st, hist, hkeys, move):
                return _fail(info, MOVER_NOT_IN_CHECK, _king_after(bb, board, st, move), 0, 1)
            return _fail(info, MOVEGEN_MATCHES_ORACLE, DETAIL_EXTRA, 0, 1)
        else:
            info[I_MOVE] = theirs[j]
            return _fail(info, MOVEGEN_MATCHES_ORACLE, DETAIL_MISSING, 1, 0)

    info[I_CHECKS] += 1
    bulk = count_legal(T, bb, board, st, buf2)
    if inject == F_BULK:
        bulk += 1
    if bulk != n:
        return _fail(info, BULK_COUNT, 0, n, bulk)
    return OK


# ---------------------------------------------------------------- injected faults


@njit(cache=True)
def _move_piece_bits(bb, pc, sq):
    b = ONE << np.uint64(sq)
    bb[pc] ^= b
    bb[occ_of(pc >> 3)] ^= b
    bb[OCC] ^= b


@njit(cache=True)
def _inject_after_make(inject, T, bb, board, st, move, sv_bb, sv_board, sv_st):
    us = sv_st[STM]
    frm = from_sq(move)
    to = to_sq(move)
    plain = (move & CASTLING) == 0
    if inject == F_DROP_SQUARE and plain:
        board[to] = 0
    elif inject == F_COLOUR_OVERLAP and plain:
        bb[occ_of(us ^ 1)] |= ONE << np.uint64(to)
    elif inject == F_OCC_EXTRA and plain:
        bb[OCC] |= ONE << np.uint64(frm)
    elif inject == F_EXTRA_KING and plain:
        bb[(us << 3) | KING] |= ONE << np.uint64(frm)
    elif inject == F_KEY:
        bb[KEY] ^= ONE
    elif inject == F_KEEP_CASTLING:
        old = sv_bb[CASTLE]
        if old != bb[CASTLE]:
            bb[KEY] ^= z_castle(old ^ bb[CASTLE])
            bb[CASTLE] = old
    elif inject == F_LOSE_CASTLING:
        bb[KEY] ^= z_castle(bb[CASTLE])
        bb[CASTLE] = ZERO
    elif inject == F_KEEP_EP:
        if st[EP] == NO_SQ and sv_st[EP] != NO_SQ:
            st[EP] = sv_st[EP]
            bb[KEY] ^= Z_EP[st[EP] & 7]
    elif inject == F_HALFMOVE:
        if (sv_board[frm] & 7) == PAWN or (move & CAPTURE):
            st[HALF] = sv_st[HALF] + 1
    elif inject == F_FULLMOVE:
        st[FULL] -= us
    elif inject == F_SIDE:
        st[STM] = us
        bb[KEY] ^= Z_SIDE
    elif inject == F_EP_PAWN_STAYS and (move & EN_PASSANT):
        capsq = to - 8 if us == WHITE else to + 8
        pawn = ((us ^ 1) << 3) | PAWN
        board[capsq] = pawn
        _move_piece_bits(bb, pawn, capsq)
        bb[KEY] ^= z_piece(pawn, capsq)


@njit(cache=True)
def _inject_after_unmake(inject, st, half_after_make):
    if inject == F_PLY:
        st[PLY] += 1
    elif inject == F_UNMAKE_CLOCK:
        st[HALF] = half_after_make


# ---------------------------------------------------------------- the walk


@njit(cache=True)
def _record(path, moves, index, level, info):
    for i in range(level):
        path[i] = moves[i, index[i] - 1]
    info[I_LEVEL] = level


@njit(cache=True, nogil=True)  # Ctrl-C: the CLI's watchdog thread must be able to run
def check_walk(T, bb, board, st, hist, hkeys, depth, inject, path, info, uvals):
    """Check every node to ``depth``; return the first violated invariant's code, or OK.

    ``path`` (int64[depth]) receives the moves leading to the failing node; ``info``
    (int64[INFO_SIZE]) and ``uvals`` (uint64[2]) the details. The arrays are left as
    they were at the violation: pass copies.
    """
    info[:] = 0
    info[I_MOVE] = -1
    uvals[:] = ZERO
    expect = np.zeros(16, dtype=np.uint64)
    squares = np.zeros(64, dtype=np.int64)
    buf = np.empty(MAX_MOVES, dtype=np.int64)
    buf2 = np.empty(MAX_MOVES, dtype=np.int64)
    # the squares the kings castle from: where they stand at the root, if they may castle
    homes = np.empty(2, dtype=np.int64)
    homes[:] = -1
    for color in (WHITE, BLACK):
        if bb[CASTLE] & _back_rank(color):
            homes[color] = lsb(bb[(color << 3) | KING])

    info[I_CHECKS] += 1
    code = _check_structure(bb, board, st, info, uvals, expect)
    if code == OK:
        code = _check_rules(T, bb, board, st, homes, info, uvals)
    if code != OK or depth == 0:
        info[I_NODES] = 1 if code == OK else 0
        return code

    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    nmoves = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    sv_bb = np.empty((depth, bb.shape[0]), dtype=np.uint64)
    sv_board = np.empty((depth, 64), dtype=np.int64)
    sv_st = np.empty((depth, st.shape[0]), dtype=np.int64)

    code = _check_node(T, bb, board, st, hist, hkeys, moves, 0, nmoves, inject, info, uvals, buf, buf2)
    if code != OK:
        return code
    level = 0
    while level >= 0:
        i = index[level]
        if i < nmoves[level]:
            index[level] = i + 1
            move = moves[level, i]
            sv_bb[level, :] = bb
            sv_board[level, :] = board
            sv_st[level, :] = st
            make_move(T, bb, board, st, hist, hkeys, move)
            _inject_after_make(inject, T, bb, board, st, move, sv_bb[level], sv_board[level], sv_st[level])
            code = _check_made(
                T, bb, board, st, move, sv_bb[level], sv_board[level], sv_st[level], homes, info, uvals,
                expect, squares,
            )
            if code != OK:
                info[I_MOVE] = move
                _record(path, moves, index, level, info)
                return code
            if level < depth - 1:
                level += 1
                index[level] = 0
                code = _check_node(
                    T, bb, board, st, hist, hkeys, moves, level, nmoves, inject, info, uvals, buf, buf2
                )
                if code != OK:
                    _record(path, moves, index, level, info)
                    return code
                continue
            info[I_NODES] += 1
        else:
            level -= 1
            if level < 0:
                break
            move = moves[level, index[level] - 1]
        # unmake the move at ``level``: a leaf just checked, or a node whose moves are done
        half_after = st[HALF]
        unmake_move(bb, board, st, hist, hkeys)
        _inject_after_unmake(inject, st, half_after)
        code = _check_unmade(bb, board, st, sv_bb[level], sv_board[level], sv_st[level], info, uvals)
        if code != OK:
            info[I_MOVE] = move
            _record(path, moves, index, level, info)
            return code
    return OK
