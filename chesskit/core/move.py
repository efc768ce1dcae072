"""Packed moves: one int64 per move.

    bit  18   17   16   15   14..12      11..6   5..0
        +----+----+----+----+-----------+-------+------+
        | CA | EP | DP | CP | promotion |  to   | from |
        +----+----+----+----+-----------+-------+------+

    from, to   squares 0..63 (a1 = 0). Castling is encoded as the king taking its own
               rook: from = king square, to = rook square; that is the Chess960 UCI form,
               and standard chess prints it as the king's two-square step.
    promotion  piece type promoted to (KNIGHT..QUEEN), 0 for none
    CP capture (en passant included), DP double pawn push, EP en passant, CA castling
"""

from numba import njit

CAPTURE = 1 << 15
DOUBLE = 1 << 16
EN_PASSANT = 1 << 17
CASTLING = 1 << 18
PROMO_SHIFT = 12


@njit(cache=True)
def from_sq(move):
    return move & 63


@njit(cache=True)
def to_sq(move):
    return (move >> 6) & 63


@njit(cache=True)
def promotion(move):
    return (move >> PROMO_SHIFT) & 7


@njit(cache=True)
def castle_squares(us, king_sq, rook_sq):
    """Where king and rook of colour ``us`` (0 white, 1 black) land when castling: g/f
    files for the rook east of the king, else c/d (standard chess and Chess960 alike)."""
    back = 56 * us
    if rook_sq > king_sq:
        return back + 6, back + 5
    return back + 2, back + 3


def encode(frm: int, to: int, promo: int = 0, flags: int = 0) -> int:
    return frm | (to << 6) | (promo << PROMO_SHIFT) | flags
