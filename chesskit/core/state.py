"""The position's state arrays, the history stack, and Zobrist keys (plain numpy: the
Python side reads and writes them without loading numba; ``position.py`` adds the
compiled helpers).

A position is four preallocated numpy arrays that jitted code changes in place:

  bb    uint64[18]  bitboards: bb[code] per piece code (white 1..6, black 9..14),
                    bb[OCC] all pieces, bb[7] / bb[15] white / black pieces (``occ_of``),
                    bb[CASTLE] the squares of rooks that may still castle,
                    bb[KEY] the Zobrist key, updated incrementally by make.
  board int64[64]   the piece code on each square (0 = empty).
  st    int64[8]    STM side to move, EP en-passant square (-1 = none), HALF halfmove
                    clock, FULL fullmove number, PLY depth of the history stack.
  hist  int64[MAX_PLY, 4]   the history stack, one saved game state per move made: the
  hkeys uint64[MAX_PLY, 2]  move, the captured piece, EP and HALF before the move (hist),
                    and CASTLE and KEY before the move (hkeys). Make pushes a row, unmake
                    pops it and reverses only the pieces (the scheme of Rustic's History).

The en-passant square is kept (and hashed) only when a pawn of the side to move attacks
it, as in Stockfish; FEN input is normalised the same way. The rule is written once, below
(``ep_victim``, ``ep_kept``): plain Python that ``Board`` runs on a FEN's square and that
numba compiles into make, the last-ply copy-make and ``child_key`` (``makemove.py``).
"""

import numpy as np

from chesskit.vocab import BISHOP, BLACK, KING, KNIGHT, MAX_MOVES, MAX_PLY, PAWN, QUEEN, ROOK, WHITE  # noqa: F401

from .tables import P_ATT

OCC = 0
CASTLE = 16
KEY = 17
BB_SIZE = 18

STM, EP, HALF, FULL, PLY = 0, 1, 2, 3, 4
ST_SIZE = 8

H_MOVE, H_CAPTURED, H_EP, H_HALF = 0, 1, 2, 3
H_CASTLE, H_KEY = 0, 1

NO_SQ = -1
_ZERO = np.uint64(0)


_MASK64 = (1 << 64) - 1


def random_words(seed: int, n: int) -> np.ndarray:
    """``n`` pseudo-random 64-bit words from ``seed`` (SplitMix64: a 64-bit counter
    stepped by the golden ratio, each value mixed by two multiply-xorshift rounds). Plain
    Python on purpose: numpy's generators would cost every start the import of
    ``numpy.random`` (about 6 ms of a warm ``perft startpos 1``). The Zobrist keys here and
    in ``vstate.py`` are drawn with it."""
    words = []
    x = seed & _MASK64
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) & _MASK64
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        words.append(z ^ (z >> 31))
    return np.array(words, dtype=np.uint64)


def _zobrist_keys(seed):
    keys = random_words(seed, 16 * 64 + 1 + 64 + 8)
    return keys[: 16 * 64].copy(), keys[16 * 64], keys[16 * 64 + 1 : 16 * 64 + 65].copy(), keys[-8:].copy()


# Two independent Zobrist keys of a position, each the XOR of one term per piece on its
# square, the side to move (black), each castling rook and the en-passant file. Key 1 is
# the state's (bb[KEY]); key 2 exists only in the perft walk, carried from parent to child
# beside key 1 (``makemove.child_keys``), so that its table checks an entry against 64 bits
# of key 2 on top of the bits of key 1 that picked its bucket (``tt.py``). ``position.py``
# picks a key's terms by its number (``piece_term`` ...): 0 for key 1, 1 for key 2.
Z_PIECE, Z_SIDE, Z_CASTLE, Z_EP = _zobrist_keys(0xC4E55)
Z2_PIECE, Z2_SIDE, Z2_CASTLE, Z2_EP = _zobrist_keys(0x2B0B157)


def aligned(n, dtype):
    """A zeroed array of ``n`` items whose first starts a 64-byte cache line. The walk's
    copy-make copies the bitboards in 64-byte blocks (``wordcopy``): a block that straddles
    two lines costs a split load and a split store per move counted (pos3 7 about 5%
    slower on an AMD EPYC, Zen 5: docs/benchmarks.md, session 40)."""
    size = np.dtype(dtype).itemsize
    raw = np.zeros(n * size + 64, dtype=np.uint8)
    skip = -raw.ctypes.data % 64
    return raw[skip: skip + n * size].view(dtype)


def aligned_copy(words):
    """A copy of the one-dimensional array ``words`` that starts a cache line (``aligned``)."""
    out = aligned(words.shape[0], words.dtype)
    out[:] = words
    return out


def new_state():
    """Fresh, empty state arrays: (bb, board, st, hist, hkeys); the bitboards start a
    cache line (``aligned``)."""
    return (
        aligned(BB_SIZE, np.uint64),
        np.zeros(64, dtype=np.int64),
        np.zeros(ST_SIZE, dtype=np.int64),
        np.zeros((MAX_PLY, 4), dtype=np.int64),
        np.zeros((MAX_PLY, 2), dtype=np.uint64),
    )


# ------------------------------------------------------------------ the en-passant rule
# Plain Python on ints and numpy uint64s, compiled by numba as they are (``makemove.py``):
# one source for the compiled make and for a FEN's normalisation (``Board._load``).


def ep_victim(ep, us):
    """The square of the pawn that side ``us`` takes by capturing en passant on ``ep``:
    the pawn that has just moved two squares past ``ep``."""
    return ep - 8 if us == WHITE else ep + 8


def ep_kept(T, bb, ep, mover):
    """Whether the square ``ep`` that a pawn of side ``mover`` has just passed in a
    double push is kept as the en-passant square (in ``st[EP]``, and hashed): only if an
    enemy pawn attacks it, as in Stockfish. The enemy pawns (``bb``'s) that attack
    ``ep`` stand where a ``mover`` pawn on ``ep`` would attack: the attack table ``T``'s
    pawn captures (``tables.py``)."""
    return T[P_ATT + mover * 64 + ep] & bb[((mover ^ 1) << 3) | PAWN] != _ZERO
