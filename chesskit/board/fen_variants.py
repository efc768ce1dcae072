"""The variant parts of a FEN: crazyhouse pockets and promoted marks, three-check counters,
and what each variant lets a position hold (kings, pawns, material).

Pure Python, used by ``chesskit/board/fen.py`` (which owns the FEN as a whole). The dialects
read, as python-chess 1.11, lichess and Fairy-Stockfish write or read them:

* pockets: ``...RNBQKBNR[Qn]`` or as a ninth rank ``.../RNBQKBNR/Qn``; white's letters upper
  case. Written as ``[..]``, each colour's pieces queen first (python-chess's order).
* promoted pieces: ``Q~`` (crazyhouse: a captured promoted piece goes to the pocket as a pawn).
* three-check: the REMAINING checks ``3+3`` (white's, black's) as the field after the
  en-passant square (python-chess, lichess and Fairy-Stockfish write this), or the checks
  GIVEN ``+0+0`` as a field after the clocks (lichess's older FENs; both oracles read it).

Positions keep checks GIVEN (``Setup.checks``); a FEN writes the remaining ones.
"""

from __future__ import annotations

import re

from chesskit.errors import FenError
from chesskit.variants import Variant, a_position
from chesskit.vocab import BISHOP, BLACK, COLOR_NAMES, KING, KNIGHT, PAWN, PIECE_LETTERS, PIECE_NAMES, QUEEN, ROOK, WHITE, square_name

CENTRE = (27, 28, 35, 36)  # d4 e4 d5 e5: king of the hill's goal
HORDE_PAWNS = 36  # white's pawns in horde's start position

_REMAINING = re.compile(r"([0-9]+)\+([0-9]+)", re.ASCII)
_GIVEN = re.compile(r"\+([0-9]+)\+([0-9]+)", re.ASCII)


# ---------------------------------------------------------------- pockets


def split_pockets(placement: str, variant: Variant) -> tuple[str, str | None]:
    """``(the 8 ranks, the pocket text or None)`` of a placement field."""
    if "[" in placement or placement.endswith("]"):
        match = re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]", placement)
        if match is None:
            raise FenError("pockets", f"malformed pockets in {placement!r}: expected '[...]' after the 8 ranks")
        ranks, pocket = match.groups()
    elif placement.count("/") == 8 and (variant.pockets or re.fullmatch(r"[PNBRQpnbrq]+", placement.rsplit("/", 1)[1])):
        # Fairy-Stockfish's ninth rank; outside crazyhouse only one that reads as pockets
        # (pieces, no digit, no king) is taken for them, so that a pasted crazyhouse FEN
        # gets the hint below rather than "found 9 ranks"
        ranks, pocket = placement.rsplit("/", 1)
    else:
        return placement, None
    if not variant.pockets:
        raise FenError("pockets", f"pockets {pocket!r} in {a_position(variant.name)}: {ONLY_HOUSE.format('pockets')}")
    return ranks, pocket


# the refusal of crazyhouse's notation in another variant, with the way out
ONLY_HOUSE = "only crazyhouse has {} (give --variant crazyhouse)"


def parse_pockets(text: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Counts per colour indexed by piece type (``"Qn"`` -> white 1 queen, black 1 knight)."""
    counts = [[0] * 7, [0] * 7]
    for ch in text or "":
        if ch.lower() not in "pnbrq":
            what = "a king cannot be in a pocket" if ch.lower() == "k" else "expected P, N, B, R, Q or lower case"
            raise FenError("pockets", f"unknown pocket piece {ch!r}: {what}")
        counts[WHITE if ch.isupper() else BLACK][PIECE_LETTERS.index(ch.lower())] += 1
    return tuple(counts[WHITE]), tuple(counts[BLACK])


def format_pockets(pockets: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    """``[QRPn]``: white's pieces, then black's, queen first."""
    text = ""
    for color in (WHITE, BLACK):
        for ptype in range(QUEEN, PAWN - 1, -1):
            letter = PIECE_LETTERS[ptype]
            text += (letter.upper() if color == WHITE else letter) * pockets[color][ptype]
    return f"[{text}]"


# ---------------------------------------------------------------- three-check


def split_checks(fields: list[str], variant: Variant) -> tuple[list[str], tuple[int, int] | None]:
    """The FEN fields without the check counters, and the checks GIVEN (white, black)
    (``(0, 0)`` when a three-check FEN has no counters; None in other variants)."""
    found = None
    if len(fields) >= 5 and "+" in fields[4]:
        found = 4
    elif len(fields) >= 7 and fields[6].startswith("+"):
        found = 6
    if found is None:
        return fields, (0, 0) if variant.checks else None
    text = fields[found]
    if not variant.checks:
        raise FenError("checks", f"check counters {text!r} in {a_position(variant.name)}: {ONLY_THREE_CHECK}")
    twice = [field for index, field in enumerate(fields[4:], start=4) if index != found and "+" in field]
    if twice:
        raise FenError(
            "checks",
            f"check counters given twice ({text!r} and {twice[0]!r}): give either the remaining checks 'W+B' "
            "after the en-passant square or the checks given '+W+B' after the clocks",
        )
    given = _GIVEN.fullmatch(text)
    remaining = _REMAINING.fullmatch(text)
    if given:
        counts = int(given[1]), int(given[2])
    elif remaining:
        counts = 3 - int(remaining[1]), 3 - int(remaining[2])
    else:
        raise FenError(
            "checks",
            f"check counters {text!r}: expected the remaining checks 'W+B' (like '3+3') or the checks given '+W+B'",
        )
    for color, done in zip((WHITE, BLACK), counts):
        if not 0 <= done <= 3:
            kind = "given" if given else "remaining"
            shown = done if given else 3 - done
            raise FenError("checks", f"{text!r} gives {COLOR_NAMES[color]} {shown} checks {kind}; expected 0 to 3")
    return fields[:found] + fields[found + 1 :], counts


# the refusal of three-check's counters in another variant, with the way out (as ONLY_HOUSE)
ONLY_THREE_CHECK = "only 3check counts checks (give --variant 3check)"


def format_checks(checks: tuple[int, int]) -> str:
    """The remaining checks: ``(1, 0) -> "2+3"``."""
    return f"{3 - checks[WHITE]}+{3 - checks[BLACK]}"


# ---------------------------------------------------------------- material


def count_kings(variant: Variant, board: list[int], turn: int) -> None:
    """Refuse king counts the variant's tree is not defined for."""
    for color in (WHITE, BLACK):
        name = COLOR_NAMES[color]
        kings = board.count(KING | color << 3)
        if not variant.kings:
            continue  # antichess: the king is a piece like any other
        if variant.name == "horde" and color == WHITE:
            if kings:
                raise FenError("piece placement", f"white has {kings} king{'s' * (kings > 1)}: the horde has no king")
            continue
        if kings > 1:
            raise FenError("piece placement", f"{name} has {kings} kings")
        if kings == 0 and not (variant.name == "atomic" and color == turn):
            if variant.name == "atomic":
                raise FenError(
                    "piece placement", f"{name} has no king (in atomic only the side to move may have lost it)"
                )
            raise FenError("piece placement", f"{name} has no king")


def check_pawns(variant: Variant, board: list[int]) -> None:
    """Refuse pawns where the variant's tree is not defined."""
    if variant.name == "racingkings":
        for sq, code in enumerate(board):
            if code & 7 == PAWN:
                raise FenError(
                    "piece placement", f"{COLOR_NAMES[code >> 3]} pawn on {square_name(sq)}: racing kings has no pawns"
                )
    for sq in [*range(8), *range(56, 64)]:
        code = board[sq]
        if code & 7 == PAWN and not (variant.name == "horde" and code == PAWN and sq < 8):
            raise FenError(
                "piece placement",
                f"{COLOR_NAMES[code >> 3]} pawn on rank {(sq >> 3) + 1} ({square_name(sq)}): "
                "pawns never stand on the first or last rank"
                + (" (but white's on the first in horde)" if variant.name == "horde" else ""),
            )


_LIGHT_SQUARES = tuple(sq for sq in range(64) if (sq + (sq >> 3)) % 2)


def promotions_needed(board: list[int], color: int, kings_allowed: int = 1, count: list[int] | None = None) -> int:
    """How many of ``color``'s pieces must have been promoted pawns: beyond one queen, two
    rooks, two knights, one bishop per square colour (and ``kings_allowed`` kings).
    ``count``: the caller's count of each of ``color``'s piece types (index 0 unused)."""
    if count is None:
        count = [board.count(ptype | color << 3) for ptype in range(7)]
    # with at most one bishop neither square colour has a spare one: no scan of the board
    light = [board[sq] for sq in _LIGHT_SQUARES].count(BISHOP | color << 3) if count[BISHOP] > 1 else 0
    dark = count[BISHOP] - light
    return (
        max(0, count[QUEEN] - 1)
        + max(0, count[ROOK] - 2)
        + max(0, count[KNIGHT] - 2)
        + max(0, light - 1)
        + max(0, dark - 1)
        + max(0, count[KING] - kings_allowed)
    )


def note_material(variant: Variant, board: list[int], pockets, promoted: list[int], notes) -> None:
    """Note material no game of the variant can reach (the tree is defined: counted)."""
    if variant.pockets:
        _note_house_material(board, pockets, promoted, notes)
        return
    for color in (WHITE, BLACK):
        name = COLOR_NAMES[color]
        pawns = board.count(PAWN | color << 3)
        pieces = sum(1 for code in board if code and code >> 3 == color)
        start_pawns = HORDE_PAWNS if variant.name == "horde" and color == WHITE else 8
        start_pieces = start_pawns if start_pawns == HORDE_PAWNS else 16
        if variant.name == "racingkings":
            start_pawns, start_pieces = 0, 8
        if pieces > start_pieces:
            notes.add("piece placement", f"{name} has {pieces} pieces, at most {start_pieces} are possible")
        if pawns > start_pawns:
            notes.add("piece placement", f"{name} has {pawns} pawns, at most {start_pawns} are possible")
        if start_pieces == HORDE_PAWNS:  # every piece of the horde is a promoted pawn
            needed = pieces - pawns
        elif variant.name == "racingkings":
            _note_race_material(board, color, notes)
            continue
        else:
            needed = promotions_needed(board, color)
        if needed > max(0, start_pawns - pawns):
            notes.add(
                "piece placement",
                f"{name} has at least {needed} promoted pieces but only "
                f"{max(0, start_pawns - pawns)} missing pawns that could have promoted",
            )


def _note_race_material(board: list[int], color: int, notes) -> None:
    for ptype, most in ((QUEEN, 1), (ROOK, 2), (BISHOP, 2), (KNIGHT, 2)):
        have = board.count(ptype | color << 3)
        if have > most:
            notes.add(
                "piece placement",
                f"{COLOR_NAMES[color]} has {have} {PIECE_NAMES[ptype]}s; racing kings starts with "
                f"{most} and has no pawns to promote",
            )


def _note_house_material(board: list[int], pockets, promoted: list[int], notes) -> None:
    """Crazyhouse: pieces change sides, so the limits hold for both colours together,
    pockets included; a promoted (``~``) piece came from a pawn."""
    total_pawns = board.count(PAWN) + board.count(PAWN | BLACK << 3) + pockets[WHITE][PAWN] + pockets[BLACK][PAWN]
    total = sum(1 for code in board if code) + sum(pockets[WHITE]) + sum(pockets[BLACK])
    if total > 32:
        notes.add("piece placement", f"the board and the pockets hold {total} pieces, at most 32 are possible")
    if total_pawns > 16:
        notes.add("piece placement", f"the board and the pockets hold {total_pawns} pawns, at most 16 are possible")
    extra = 0
    for ptype, most in ((QUEEN, 2), (ROOK, 4), (BISHOP, 4), (KNIGHT, 4)):
        have = sum(1 for sq, code in enumerate(board) if code & 7 == ptype and sq not in promoted)
        extra += max(0, have + pockets[WHITE][ptype] + pockets[BLACK][ptype] - most)
    needed = extra + len(promoted)
    if needed > max(0, 16 - total_pawns):
        notes.add(
            "piece placement",
            f"at least {needed} {'pieces are promoted pawns' if needed != 1 else 'piece is a promoted pawn'} "
            f"but only {max(0, 16 - total_pawns)} {'pawn is' if 16 - total_pawns == 1 else 'pawns are'} missing",
        )


def check_promoted(board: list[int], promoted: list[int]) -> None:
    """A ``~`` mark on a pawn or a king means nothing: refused."""
    for sq in promoted:
        if board[sq] & 7 in (PAWN, KING):
            piece = "pawn" if board[sq] & 7 == PAWN else "king"
            raise FenError("piece placement", f"the {piece} on {square_name(sq)} is marked promoted ('~')")
