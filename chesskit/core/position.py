"""The compiled helpers on the position's state arrays (``state.py`` draws the arrays and
holds the constants and Zobrist keys; they are re-exported here for the compiled core)."""

from numba import njit

from chesskit.vocab import BISHOP, BLACK, KING, KNIGHT, MAX_MOVES, MAX_PLY, PAWN, QUEEN, ROOK, WHITE  # noqa: F401

from .bitboard import ONE, ZERO, lsb
from .state import (  # noqa: F401 (re-exported)
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
    NO_SQ,
    OCC,
    PLY,
    ST_SIZE,
    STM,
    Z2_CASTLE,
    Z2_EP,
    Z2_PIECE,
    Z2_SIDE,
    Z_CASTLE,
    Z_EP,
    Z_PIECE,
    Z_SIDE,
    new_state,
)


@njit(cache=True)
def occ_of(color):
    """Index in ``bb`` of the colour's occupancy."""
    return 7 + 8 * color


# A key's terms by the key's number ``w`` (``state.py``: 0 the state's key, 1 the walk's
# second key). Inlined: ``w`` is a constant where they are called, and the choice folds away.


@njit(inline="always", cache=True)
def piece_term(w, pc, sq):
    return Z_PIECE[pc * 64 + sq] if w == 0 else Z2_PIECE[pc * 64 + sq]


@njit(inline="always", cache=True)
def side_term(w):
    return Z_SIDE if w == 0 else Z2_SIDE


@njit(inline="always", cache=True)
def ep_term(w, ep):
    """The term of the en-passant square ``ep`` (its file)."""
    return Z_EP[ep & 7] if w == 0 else Z2_EP[ep & 7]


@njit(inline="always", cache=True)
def castle_terms(w, rights):
    """The terms of a set of castling rooks."""
    k = ZERO
    while rights:
        sq = lsb(rights)
        k ^= Z_CASTLE[sq] if w == 0 else Z2_CASTLE[sq]
        rights &= rights - ONE
    return k


@njit(cache=True)
def z_piece(pc, sq):
    return piece_term(0, pc, sq)


@njit(cache=True)
def z_castle(rights):
    """The Zobrist contribution of a set of castling rooks (key 1)."""
    return castle_terms(0, rights)


@njit(inline="always", cache=True)
def key_of(w, bb, board, st):
    """Key ``w`` computed from scratch."""
    k = ZERO
    for sq in range(64):
        if board[sq] != 0:
            k ^= piece_term(w, board[sq], sq)
    if st[STM] == BLACK:
        k ^= side_term(w)
    k ^= castle_terms(w, bb[CASTLE])
    if st[EP] != NO_SQ:
        k ^= ep_term(w, st[EP])
    return k


@njit(cache=True)
def compute_key(bb, board, st):
    """The Zobrist key computed from scratch (the checker compares it with bb[KEY])."""
    return key_of(0, bb, board, st)


@njit(cache=True)
def compute_key2(bb, board, st):
    """The second key computed from scratch (the perft walk's, at the top of its table's
    part of the tree; ``makemove.child_keys`` carries it down from there)."""
    return key_of(1, bb, board, st)
