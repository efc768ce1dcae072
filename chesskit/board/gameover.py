"""Why a variant's game is over in a position, by its own rules: a king on the hill, three
checks given, an exploded king, a racing king home, no white piece left in horde (plain
Python over a ``fen.Setup``'s piece codes). ``show`` and the explorer say it
(``describe.py``), and compare names it where an engine plays on (``compare/vclassify.py``).
Checkmate and stalemate, which end every variant's game too, are the legal moves' business:
this module names only the ends a variant adds."""

from __future__ import annotations

from chesskit.geometry import attackers, distance
from chesskit.vocab import BLACK, KING, WHITE, parse_square, piece_code, square_name

_CENTRE = tuple(parse_square(s) for s in ("d4", "e4", "d5", "e5"))
_COLOUR = ("white", "black")


def king_square(board: list[int], color: int) -> int | None:
    """The square of ``color``'s king on a square array of piece codes (None: none)."""
    code = piece_code(color, KING)
    return next((sq for sq in range(64) if board[sq] == code), None)


def game_over(setup, no_moves: bool = False) -> str | None:
    """Why the game is over at ``setup`` by its variant's own rules (None: it is not).
    ``no_moves``: the side to move has no legal move, which ends a racing kings game whose
    white king is home (Black cannot follow) and an antichess game (its side has won)."""
    board, variant = setup.board, setup.variant
    kings = {color: king_square(board, color) for color in (WHITE, BLACK)}
    if variant == "kingofthehill":
        for color, sq in kings.items():
            if sq in _CENTRE:
                return f"the {_COLOUR[color]} king stands on the centre square {square_name(sq)}"
    if variant == "3check" and setup.checks is not None:
        for color in (WHITE, BLACK):
            if setup.checks[color] >= 3:
                return f"{_COLOUR[color]} has given three checks"
    if variant == "atomic":
        for color, sq in kings.items():
            if sq is None:
                return f"the {_COLOUR[color]} king has exploded"
    if variant == "racingkings":
        home = {color: sq is not None and sq >> 3 == 7 for color, sq in kings.items()}
        if home[BLACK] or (home[WHITE] and setup.turn == WHITE):
            return "a king has reached the eighth rank"
        if home[WHITE] and (no_moves or not _black_can_follow(board, kings[BLACK])):
            return "the white king has reached the eighth rank, and the black king cannot follow"
    if variant == "horde" and not any(code and code >> 3 == WHITE for code in board):
        return "white has no piece left"
    if variant in _NO_MOVE_WINS and no_moves:
        side = _COLOUR[setup.turn]
        if not any(code and code >> 3 == setup.turn for code in board):
            return f"{side} has no piece left and wins"
        return f"{side} has no legal move and wins"
    return None


def _black_can_follow(board: list[int], king: int | None) -> bool:
    """Whether Black's king on ``king`` can step onto the eighth rank, White's king being
    there already (racing kings: Black's last move, to draw): onto a square it does not
    hold itself, that White does not attack with the king lifted."""
    if king is None:
        return False
    lifted = list(board)
    lifted[king] = 0
    for sq in range(56, 64):
        if distance(king, sq) == 1 and not (board[sq] and board[sq] >> 3 == BLACK) and not attackers(lifted, sq, WHITE):
            return True
    return False


# the variants where a side with no legal move has won (it lost all its pieces, or is blocked)
_NO_MOVE_WINS = ("antichess", "giveaway")
# what ``without_moves`` calls the two ends a side without a legal move meets in the other
# variants: each names itself (``show`` prints "(checkmate)"), a variant's win is named by its side
CHECKMATE = "checkmate"
STALEMATE = "stalemate"


def without_moves(variant: str, check: bool, side: str) -> str:
    """What it is that ``side`` (to move: "white" or "black") has no legal move, its game not
    over otherwise: ``CHECKMATE``, ``STALEMATE``, or in antichess and giveaway
    ``"black wins"``."""
    if variant in _NO_MOVE_WINS:
        return f"{side} wins"
    return CHECKMATE if check else STALEMATE
