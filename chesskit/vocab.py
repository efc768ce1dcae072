"""The vocabulary every layer of chesskit speaks: colours, pieces, squares, moves, limits.

Pure Python with no imports beyond ``chesskit.errors``, so the CLI, the FEN code and the
compare machinery can use it without loading numba. The compiled core uses the very same
functions: ``chesskit/core/move.py`` compiles the move encoders and decoders below with
numba, so each is written once (``chesskit/core/__init__.py`` hashes this file into the
compile cache's name, so an edit here recompiles the core).

Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63. A piece code is
``ptype | colour << 3``: white 1..6, black 9..14, 0 an empty square.

A move is one int::

    bit  19   18   17   16   15   14..12      11..6   5..0
        +----+----+----+----+----+-----------+-------+------+
        | DR | CA | EP | DP | CP | promotion |  to   | from |
        +----+----+----+----+----+-----------+-------+------+

    from, to   squares. Castling is encoded as the king taking its own rook: from = king
               square, to = rook square; that is the Chess960 UCI form, and standard chess
               prints it as the king's two-square step.
    promotion  piece type promoted to (KNIGHT..QUEEN), 0 for none
    CP capture (en passant included), DP double pawn push, EP en passant, CA castling
    DR a drop (crazyhouse): ``encode(to, to, ptype, DROP)``, from = to = the square dropped
               on, the piece type dropped in the promotion field (UCI ``P@e4``)
"""

from __future__ import annotations

from chesskit.errors import InputError

# ---------------------------------------------------------------- colours and pieces

WHITE, BLACK = 0, 1
COLOR_NAMES = ("white", "black")

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
PIECE_LETTERS = " pnbrqk"  # index = piece type; FEN upper-cases White's
PROMOTION_LETTERS = {KNIGHT: "n", BISHOP: "b", ROOK: "r", QUEEN: "q"}
PROMOTIONS = {letter: ptype for ptype, letter in PROMOTION_LETTERS.items()}


def piece_code(color: int, ptype: int) -> int:
    """``ptype | color << 3``: ``piece_code(BLACK, KNIGHT) == 10``."""
    return ptype | color << 3


def is_piece_code(code: int) -> bool:
    return PAWN <= code & 7 <= KING and code >> 3 in (WHITE, BLACK)


# ---------------------------------------------------------------- squares

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"


def square(file: int, rank: int) -> int:
    return rank * 8 + file


def square_name(sq: int) -> str:
    """``28 -> "e4"``."""
    if not 0 <= sq < 64:
        raise ValueError(f"square {sq} is outside 0..63")
    return FILE_NAMES[sq & 7] + RANK_NAMES[sq >> 3]


def parse_square(name: str) -> int:
    """``"e4" -> 28``; raises InputError for anything that is not a square."""
    if len(name) == 2 and name[0] in FILE_NAMES and name[1] in RANK_NAMES:
        return square(FILE_NAMES.index(name[0]), RANK_NAMES.index(name[1]))
    raise InputError(f"{name!r} is not a square name like 'e4'")


# (file, rank) steps of the pieces
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))
BISHOP_DIRS = ((1, 1), (-1, 1), (-1, -1), (1, -1))


def offset(sq: int, df: int, dr: int) -> int | None:
    """The square ``df`` files and ``dr`` ranks from ``sq``, None off the board."""
    f, r = (sq & 7) + df, (sq >> 3) + dr
    return r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else None


def direction(a: int, b: int) -> tuple[int, int] | None:
    """Unit (file, rank) step from ``a`` towards ``b`` if they share a rank, file or
    diagonal, else None."""
    df, dr = (b & 7) - (a & 7), (b >> 3) - (a >> 3)
    if (df, dr) == (0, 0) or (df and dr and abs(df) != abs(dr)):
        return None
    return ((df > 0) - (df < 0), (dr > 0) - (dr < 0))


def castle_squares(king_sq, rook_sq):
    """Where king and rook land when the king on ``king_sq`` castles with the rook on
    ``rook_sq``: on the king's rank, the g/f files for a rook east of the king, else c/d
    (standard chess and Chess960 alike). Compiled for the core too."""
    back = king_sq & 56
    if rook_sq > king_sq:
        return back + 6, back + 5
    return back + 2, back + 3


# ---------------------------------------------------------------- moves

SQ_MASK = 63
TO_SHIFT = 6
PROMO_SHIFT = 12
PROMO_MASK = 7
CAPTURE = 1 << 15
DOUBLE = 1 << 16
EN_PASSANT = 1 << 17
CASTLING = 1 << 18
DROP = 1 << 19


def encode(frm, to, promo=0, flags=0):
    """The move from ``frm`` to ``to`` promoting to ``promo`` (0: none) with ``flags``."""
    return frm | (to << TO_SHIFT) | (promo << PROMO_SHIFT) | flags


def from_sq(move):
    return move & SQ_MASK


def to_sq(move):
    return (move >> TO_SHIFT) & SQ_MASK


def promotion(move):
    """The piece type promoted to, 0 for none."""
    return (move >> PROMO_SHIFT) & PROMO_MASK


def is_castling(move):
    return (move & CASTLING) != 0


def is_drop(move):
    return (move & DROP) != 0


def drop_piece(move):
    """The piece type a drop puts on the board (its promotion field), 0 for no drop."""
    return (move >> PROMO_SHIFT) & PROMO_MASK if move & DROP else 0


# ---------------------------------------------------------------- limits

# The size of every move buffer: more moves than any position with one king per side
# can have, legal or pseudo-legal (reachable positions have at most 218; impossible ones
# go further: positions/impossible.epd has one with 271). Count moves by the square they
# land on. A piece reaches a square either along one of the 8 lines through it, and is
# then the nearest piece on that line (king steps, pawn pushes and captures included; a
# double push passes over an empty square), or by a knight's jump from one of 8 squares:
# at most 16 moves land on one square. They land on at most 62 squares: never on the
# mover's own pieces (its king is one) nor on the enemy king (never attacked when the
# move tree is defined). A pawn move to the last rank is 4 moves, one per promotion
# piece, and at most 3 pawns reach each of its 8 squares: 8 * 3 * 3 more. Castling, the
# king taking its own rook, adds at most 2.
MAX_MOVES = 62 * 16 + 8 * 3 * 3 + 2  # 1066
MAX_PLY = 1024  # history rows a fresh position reserves (Board grows them on demand)
# The deepest DEPTH argument accepted. Far beyond any tree that can be counted (perft 15
# of the start position is about 2e21 nodes), and small enough that the move stacks
# sized by the depth always fit in memory.
MAX_DEPTH = 100
