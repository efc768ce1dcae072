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


@njit(cache=True)
def z_piece(pc, sq):
    return Z_PIECE[pc * 64 + sq]


@njit(cache=True)
def z_castle(rights):
    """The Zobrist contribution of a set of castling rooks."""
    k = ZERO
    while rights:
        k ^= Z_CASTLE[lsb(rights)]
        rights &= rights - ONE
    return k


@njit(cache=True)
def compute_key(bb, board, st):
    """The Zobrist key computed from scratch (the checker compares it with bb[KEY])."""
    k = ZERO
    for sq in range(64):
        if board[sq] != 0:
            k ^= z_piece(board[sq], sq)
    if st[STM] == BLACK:
        k ^= Z_SIDE
    k ^= z_castle(bb[CASTLE])
    if st[EP] != NO_SQ:
        k ^= Z_EP[st[EP] & 7]
    return k
