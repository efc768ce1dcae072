"""Board geometry in plain Python, written once for every layer above the core: files and
ranks, distances, steps, rays, the squares between two others, who attacks a square, and
the start position.

It imports nothing but ``chesskit.vocab`` (which keeps the piece steps, since the compiled
core builds its tables from them), so the FEN reader, compare, the fuzzer and the engines
share one copy without loading numba. Unlike vocab it is not hashed into the compile
cache's name: an edit here does not recompile the core.

Squares are vocab's (a1 = 0 ... h8 = 63); a board is a list of 64 piece codes
(``ptype | colour << 3``, 0 empty).
"""

from __future__ import annotations

from chesskit.vocab import (
    BISHOP,
    BISHOP_DIRS,
    KING,
    KING_STEPS,
    KNIGHT,
    KNIGHT_STEPS,
    PAWN,
    QUEEN,
    ROOK,
    ROOK_DIRS,
    WHITE,
    direction,
    offset,
)

__all__ = [
    "BISHOP_DIRS",
    "KING_STEPS",
    "KNIGHT_STEPS",
    "ROOK_DIRS",
    "START_FEN",
    "attackers",
    "between",
    "direction",
    "distance",
    "file_of",
    "flip_rank",
    "offset",
    "pawn_attack_steps",
    "rank_of",
    "ray",
]

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def file_of(sq: int) -> int:
    return sq & 7


def rank_of(sq: int) -> int:
    return sq >> 3


def flip_rank(sq: int) -> int:
    """The square on the same file and the mirrored rank (a1 <-> a8). Also the index of a
    square in a FEN placement, which lists rank 8 first, and back."""
    return sq ^ 56


def distance(a: int, b: int) -> int:
    """King steps from ``a`` to ``b`` (Chebyshev distance)."""
    return max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)))


def ray(sq: int, df: int, dr: int) -> list[int]:
    """The squares from ``sq`` (excluded) to the edge along ``(df, dr)``, nearest first."""
    out, s = [], offset(sq, df, dr)
    while s is not None:
        out.append(s)
        s = offset(s, df, dr)
    return out


def between(a: int, b: int) -> list[int]:
    """Squares strictly between ``a`` and ``b`` on a rank, file or diagonal (empty when not on one)."""
    d = direction(a, b)
    if d is None:
        return []
    out, s = [], offset(a, *d)
    while s is not None and s != b:
        out.append(s)
        s = offset(s, *d)
    return out


def pawn_attack_steps(color: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (file, rank) steps of ``color``'s pawn captures."""
    dr = 1 if color == WHITE else -1
    return ((-1, dr), (1, dr))


def _targets(steps) -> list[list[int]]:
    return [[t for t in (offset(sq, df, dr) for df, dr in steps) if t is not None] for sq in range(64)]


# per square, precomputed: the attackers' test runs thousands of times a second in the fuzzer
_KNIGHT = _targets(KNIGHT_STEPS)
_KING = _targets(KING_STEPS)
# where a white (black) pawn attacking the square stands: one step back along a black (white) capture
_PAWN_FROM = (_targets(pawn_attack_steps(1 - WHITE)), _targets(pawn_attack_steps(WHITE)))
_ROOK_RAYS = [[ray(sq, *d) for d in ROOK_DIRS] for sq in range(64)]
_BISHOP_RAYS = [[ray(sq, *d) for d in BISHOP_DIRS] for sq in range(64)]


def attackers(board: list[int], sq: int, color: int) -> list[int]:
    """Sorted squares of ``color``'s pieces that attack ``sq`` on ``board``."""
    side = color << 3
    found = [s for s in _PAWN_FROM[color][sq] if board[s] == PAWN | side]
    found += [s for s in _KNIGHT[sq] if board[s] == KNIGHT | side]
    found += [s for s in _KING[sq] if board[s] == KING | side]
    for rays, slider in ((_ROOK_RAYS, ROOK | side), (_BISHOP_RAYS, BISHOP | side)):
        for line in rays[sq]:
            for s in line:
                code = board[s]
                if code:
                    if code == slider or code == QUEEN | side:
                        found.append(s)
                    break
    return sorted(found)
