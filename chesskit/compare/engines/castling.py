"""Castling written as the king taking its own rook (`e1h1`) in standard chess.

chessops, lichess and some engines write castling that way in standard chess too, as
Chess960 has to. In standard chess a king moves at most one square otherwise, so `e1h1`,
`e1a1`, `e8h8` and `e8a8` by the king of the side to move can only mean castling:
chesskit reads them as `e1g1`, `e1c1`, `e8g8` and `e8c8` (its own spelling), so the
counts compare pairwise and no castle is reported missing and extra at once. A legal
castle or not, it is read the same way: an engine that castles where it may not is then
shown castling where it may not. Every back end's divide passes through ``read_castling``
(``base.Engine`` sees to it), and the engine remembers that it spelled castling so
(``Engine.castling_spelling``) for the report to say once.
"""

from __future__ import annotations

from chesskit.vocab import KING, parse_square

KING_TAKES_ROOK = "king-takes-rook"
# king takes rook -> the king's two-square step, in standard chess
_TWO_SQUARES = {"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}


def read_castling(divide: dict[str, int], board_factory, chess960: bool) -> tuple[dict[str, int], bool]:
    """``divide`` with king-takes-rook castles renamed to chesskit's spelling, and whether
    any was; ``board_factory()`` builds the node (only when a candidate move shows up)."""
    if chess960 or not any(move in _TWO_SQUARES for move in divide):
        return divide, False
    board = board_factory()
    if board.chess960:
        return divide, False
    renamed: dict[str, int] = {}
    spelled = False
    for move, count in divide.items():
        two = _TWO_SQUARES.get(move)
        if two is not None and two not in divide and _our_king_on(board, move[:2]):
            renamed[two] = count
            spelled = True
        else:  # not the king's move, or both spellings listed: left for the comparison to show
            renamed[move] = count
    return renamed, spelled


def _our_king_on(board, square: str) -> bool:
    piece = board.piece_at(parse_square(square))
    return bool(piece) and piece & 7 == KING and piece >> 3 == board.turn
