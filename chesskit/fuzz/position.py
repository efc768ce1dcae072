"""A mutable position for the generators and the shrinker, and the test it must pass.

``Pos`` is a FEN in pieces: 64 piece codes (``chesskit.board.fen`` conventions), the side
to move, the squares of the castling rooks, the en-passant square and the variant.
``Pos.fen()`` writes it; ``Pos.valid()`` says whether chesskit accepts it (``parse_fen``)
*and* it looks reachable in a game (``reachable``).  The second test is the fuzzer's own
policy: chesskit may count positions no game can reach, but a finding in one would be
argued about, so the fuzzer only generates positions that could arise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chesskit.board.fen import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    Setup,
    format_fen,
    parse_fen,
)
from chesskit.errors import InputError
from chesskit.geometry import (  # noqa: F401 (re-exported to the generators)
    attackers,
    direction,
    distance,
    file_of,
    flip_rank,
    rank_of,
    ray,
)
from chesskit.geometry import offset as step  # noqa: F401

SLIDERS = (BISHOP, ROOK, QUEEN)


def piece(ptype: int, color: int) -> int:
    return ptype | color << 3


@dataclass
class Pos:
    board: list[int]
    turn: int = WHITE
    castling: list[int] = field(default_factory=list)  # rook squares
    ep: int | None = None
    chess960: bool = False
    halfmove: int = 0
    fullmove: int = 1
    checked: str | None = field(default=None, repr=False, compare=False)  # the FEN last found valid

    @classmethod
    def empty(cls, chess960: bool = False) -> "Pos":
        return cls([0] * 64, chess960=chess960)

    @classmethod
    def from_fen(cls, fen: str, chess960: bool | None = None) -> "Pos":
        setup = parse_fen(fen, chess960)
        return cls(list(setup.board), setup.turn, list(setup.castling), setup.ep, setup.chess960,
                   setup.halfmove, setup.fullmove)

    def copy(self) -> "Pos":
        return Pos(list(self.board), self.turn, list(self.castling), self.ep, self.chess960,
                   self.halfmove, self.fullmove)

    def king(self, color: int) -> int | None:
        code = piece(KING, color)
        return self.board.index(code) if code in self.board else None

    def pieces(self) -> list[int]:
        """Squares of every piece but the kings."""
        return [sq for sq in range(64) if self.board[sq] and self.board[sq] & 7 != KING]

    def fen(self) -> str:
        setup = Setup(list(self.board), self.turn, sorted(self.castling), self.ep,
                      self.halfmove, self.fullmove, self.chess960)
        return format_fen(setup)

    def tidy(self) -> "Pos":
        """Drop castling rights and the en-passant square that the placement no longer supports."""
        rights = []
        for rook_sq in self.castling:
            color = WHITE if rank_of(rook_sq) == 0 else BLACK
            king = self.king(color)
            if self.board[rook_sq] == piece(ROOK, color) and king is not None and rank_of(king) == rank_of(rook_sq):
                rights.append(rook_sq)
        # one right per side of each king
        seen = set()
        self.castling = []
        for rook_sq in sorted(rights):
            color = WHITE if rank_of(rook_sq) == 0 else BLACK
            key = (color, rook_sq > self.king(color))
            if key not in seen:
                seen.add(key)
                self.castling.append(rook_sq)
        if not self.chess960:
            self.castling = [sq for sq in self.castling if _standard_right(self, sq)]
        if self.ep is not None and not _ep_ok(self):
            self.ep = None
        return self

    def valid(self) -> bool:
        """chesskit accepts the FEN, and the position looks reachable in a game."""
        fen = self.fen()
        if self.checked == fen:
            return True
        try:
            setup = parse_fen(fen, self.chess960, strict=True)
        except InputError:
            return False
        if not reachable(setup):
            return False
        self.checked = fen
        return True


def _standard_right(pos: Pos, rook_sq: int) -> bool:
    back = rook_sq & 56
    return file_of(rook_sq) in (0, 7) and pos.board[back + 4] == pos.board[rook_sq] + KING - ROOK


def _ep_ok(pos: Pos) -> bool:
    ep, us = pos.ep, pos.turn
    if rank_of(ep) != (5 if us == WHITE else 2):
        return False
    forward = 8 if us == WHITE else -8
    return (
        not pos.board[ep]
        and not pos.board[ep + forward]
        and pos.board[ep - forward] == piece(PAWN, 1 - us)
    )


def reachable(setup: Setup) -> bool:
    """True when nothing says the position cannot arise in a game.

    The checks ``parse_fen`` made when this module was written, kept here so the
    fuzzer's policy does not change when chesskit learns to count impossible positions:
    kings apart, the side not to move not in check, at most two checkers (one of them a
    distant bishop, rook or queen, not on opposite sides of the king), an en-passant
    square only where the double push explains the checks, pawns off the back ranks, and
    no more promoted pieces than missing pawns.
    """
    board, us = setup.board, setup.turn
    them = 1 - us
    kings = [board.count(piece(KING, c)) for c in (WHITE, BLACK)]
    if kings != [1, 1]:
        return False
    king, their_king = board.index(piece(KING, us)), board.index(piece(KING, them))
    if distance(king, their_king) == 1 or attackers(board, their_king, us):
        return False
    if any(board[sq] & 7 == PAWN for sq in [*range(8), *range(56, 64)]):
        return False
    for color in (WHITE, BLACK):
        count = [board.count(piece(t, color)) for t in range(7)]
        if sum(count[PAWN:]) > 16 or count[PAWN] > 8:
            return False
        light = sum(1 for sq in range(64) if board[sq] == piece(BISHOP, color) and (sq + (sq >> 3)) % 2)
        dark = count[BISHOP] - light
        promoted = (max(0, count[QUEEN] - 1) + max(0, count[ROOK] - 2) + max(0, count[KNIGHT] - 2)
                    + max(0, light - 1) + max(0, dark - 1))
        if promoted > 8 - count[PAWN]:
            return False
    checkers = attackers(board, king, them)
    if len(checkers) > 2:
        return False
    if len(checkers) == 2:
        da, db = direction(king, checkers[0]), direction(king, checkers[1])
        if da is not None and db is not None and da == (-db[0], -db[1]):
            return False
        if not any(board[sq] & 7 in SLIDERS and distance(sq, king) > 1 for sq in checkers):
            return False
    if setup.ep is not None and checkers:
        if len(checkers) == 2:
            return False
        forward = 8 if us == WHITE else -8
        before = list(board)
        before[setup.ep - forward], before[setup.ep + forward] = 0, board[setup.ep - forward]
        if attackers(before, king, them):
            return False
    return True


def mirror(pos: Pos) -> Pos:
    """Colours swapped and ranks flipped: the same move tree for the other side."""
    out = Pos.empty(pos.chess960)
    for sq, code in enumerate(pos.board):
        if code:
            out.board[flip_rank(sq)] = code ^ 8
    out.turn = 1 - pos.turn
    out.castling = sorted(flip_rank(sq) for sq in pos.castling)
    out.ep = None if pos.ep is None else flip_rank(pos.ep)
    out.halfmove, out.fullmove = pos.halfmove, pos.fullmove
    return out


def flip_files(pos: Pos) -> Pos:
    """Files reversed (a <-> h).  Standard chess loses its castling rights (the king
    leaves e1); Chess960 keeps them (a right is a rook square, wherever the king is)."""
    out = pos.copy()
    out.board = [pos.board[sq ^ 7] for sq in range(64)]
    out.castling = sorted(sq ^ 7 for sq in pos.castling) if pos.chess960 else []
    out.ep = None if pos.ep is None else pos.ep ^ 7
    return out
