"""Castling written as the king taking its own rook (`e1h1`) in standard chess, and as
the king's destination square (`g1c1`) in Chess960.

chessops, lichess and some engines write castling that way in standard chess too, as
Chess960 has to. In standard chess a king moves at most one square otherwise, so `e1h1`,
`e1a1`, `e8h8` and `e8a8` by the king of the side to move can only mean castling:
chesskit reads them as `e1g1`, `e1c1`, `e8g8` and `e8c8` (its own spelling), so the
counts compare pairwise and no castle is reported missing and extra at once. A legal
castle or not, it is read the same way: an engine that castles where it may not is then
shown castling where it may not. Every back end's divide passes through ``read_castling``
(``base.Engine`` sees to it), and the engine remembers that it spelled castling so
(``Engine.castling_spelling``) for the report to say once.

In Chess960 it is the other way round: UCI_Chess960 asks for the king taking its rook
(chesskit's spelling there), and an engine may still write a castle as the king's move to
its destination (`g1c1` for the king on g1 castling with the rook on b1; `g1g1` where the
king stays). Such a move is read as the castle where it can be nothing else: the castle is
legal, the engine does not also list it as king takes rook, and the king cannot step there
(a king on f1 castling to g1 and stepping to g1 writes `f1g1` twice: both lines are left
as they are, and the spelling is still named, so the report's "listed twice" is explained).

A Chess960 position whose kings and castling rooks stand where standard chess has them
(kings on e1/e8, rooks in the corners: Chess960 number 518 and every position reached from
one) is the standard game, and an engine is asked it as such (``base.asked_as``): the path
to the node goes to it with standard castles (``standard_path``: `e1h1` as `e1g1`), and its
answer comes back with Chess960's (``chess960_divide``: `e1g1` as `e1h1`), as chesskit's own
Chess960 divide writes them.
"""

from __future__ import annotations

from chesskit.vocab import BLACK, KING, ROOK, WHITE, castle_squares, parse_square, piece_code, square_name

KING_TAKES_ROOK = "king-takes-rook"
KING_TO_SQUARE = "king-to-square"
# what a report says of each (compare's stderr line)
SAID = {
    KING_TAKES_ROOK: "engine writes castling as the king taking its rook (e1h1, as in Chess960); "
    "chesskit reads that as castling (e1g1) in standard chess",
    KING_TO_SQUARE: "engine writes Chess960 castling as the king's move to its destination (g1c1); "
    "UCI_Chess960 asks for the king taking its rook (g1b1), and chesskit reads the first as the "
    "second where the king cannot also step there",
}
# king takes rook -> the king's two-square step, in standard chess
_TWO_SQUARES = {"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}
_TAKES_ROOK = {two: takes for takes, two in _TWO_SQUARES.items()}
# a castling rook's square in standard chess -> its X-FEN letter, in X-FEN's order
_STANDARD_ROOKS = {7: "K", 0: "Q", 63: "k", 56: "q"}
_KING_SQUARE = {7: 4, 0: 4, 63: 60, 56: 60}  # e1, e8


def standard_letters(board: list[int], castling: list[int]) -> str | None:
    """The X-FEN castling field (``KQkq``, the rights present) of a Chess960 position whose
    castling is the standard game's: each castling rook in its corner and its king on e1 or
    e8; None when any right is another's."""
    for rook in castling:
        king = _KING_SQUARE.get(rook)
        if king is None or board[king] != piece_code(WHITE if rook < 8 else BLACK, KING):
            return None
    return "".join(letter for rook, letter in _STANDARD_ROOKS.items() if rook in castling) or "-"


def standard_path(moves: list[str], board_factory) -> list[str]:
    """A Chess960 path with its castles (the king taking its rook, `e1h1`) written as
    standard chess writes them (`e1g1`); ``board_factory()`` builds its root in Chess960
    (only when a candidate move shows up: a rook on e1 may go to h1 too)."""
    if not any(move in _TWO_SQUARES for move in moves):
        return list(moves)
    board = board_factory()
    written = []
    for move in moves:
        two = _TWO_SQUARES.get(move)
        written.append(two if two is not None and _our_king_on(board, move[:2]) else move)
        board.push(move)
    return written


def chess960_divide(divide: dict[str, int], board_factory) -> dict[str, int]:
    """A standard chess divide (read by ``read_castling``) with its castles written as
    Chess960 writes them (`e1g1` as `e1h1`); ``board_factory()`` builds the node in
    standard chess (only when a candidate move shows up). A castle listed in both spellings
    is left as it is, for the comparison to show, and so is one without its rook (a right
    the engine kept after its rook was taken: Chess960 has no spelling for it)."""
    if not any(move in _TAKES_ROOK for move in divide):
        return divide
    board = board_factory()
    renamed: dict[str, int] = {}
    for move, count in divide.items():
        takes = _TAKES_ROOK.get(move)
        if takes is not None and takes not in divide and _our_king_on(board, move[:2]) and _our_rook_on(board, takes[2:]):
            renamed[takes] = count
        else:
            renamed[move] = count
    return renamed


def read_castling(divide: dict[str, int], board_factory, chess960: bool) -> tuple[dict[str, int], str | None]:
    """``divide`` with castles renamed to chesskit's spelling, and the spelling found
    (``KING_TAKES_ROOK`` in standard chess, ``KING_TO_SQUARE`` in Chess960) or None;
    ``board_factory()`` builds the node (only when a candidate move shows up)."""
    if chess960:
        return _read_960(divide, board_factory)
    if not any(move in _TWO_SQUARES for move in divide):
        return divide, None
    board = board_factory()
    if board.chess960:
        return divide, None
    renamed: dict[str, int] = {}
    spelled = False
    for move, count in divide.items():
        two = _TWO_SQUARES.get(move)
        if two is not None and two not in divide and _our_king_on(board, move[:2]):
            renamed[two] = count
            spelled = True
        else:  # not the king's move, or both spellings listed: left for the comparison to show
            renamed[move] = count
    return renamed, KING_TAKES_ROOK if spelled else None


def _read_960(divide: dict[str, int], board_factory) -> tuple[dict[str, int], str | None]:
    """Chess960: castles written as the king's destination renamed to king takes rook."""
    if not any(len(move) >= 4 and move[1] == move[3] and move[1] in "18" and move[2] in "cg" for move in divide):
        return divide, None
    board = board_factory()
    legal = board.legal_moves()
    renamed = dict(divide)
    spelled = False
    for castle in legal:
        if "@" in castle or not _our_king_on(board, castle[:2]):  # a drop (crazyhouse), or no king move
            continue
        king, rook = parse_square(castle[:2]), parse_square(castle[2:4])
        if board.piece_at(rook) != piece_code(board.turn, ROOK):
            continue  # not onto its own rook: no castle
        written = castle[:2] + square_name(castle_squares(king, rook)[0])
        if castle in divide or written not in divide:
            continue
        if written in legal and written != castle:
            # also a step of the king, listed once: the step itself, or the castle with the
            # step missing; which is not known, and an engine without Chess960 castling
            # lists just the step (no claim about its spelling then)
            continue
        spelled = True
        renamed[castle] = renamed.pop(written)
    if not spelled:
        return divide, None
    return renamed, KING_TO_SQUARE


def _our_king_on(board, square: str) -> bool:
    piece = board.piece_at(parse_square(square))
    return bool(piece) and piece & 7 == KING and piece >> 3 == board.turn


def _our_rook_on(board, square: str) -> bool:
    return board.piece_at(parse_square(square)) == piece_code(board.turn, ROOK)
