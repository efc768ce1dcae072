"""FEN, X-FEN, Shredder-FEN and EPD: parsing, validation and formatting.

Pure Python: the rest of chesskit trusts a ``Setup`` only after ``parse_fen``
has validated it, so every rule about what a position may hold lives here.

Two kinds of fault, told apart here and nowhere else:

* refused (a ``FenError`` naming the field and saying what is wrong): text that is not
  a FEN, and positions whose move tree is not defined: a side without exactly one king,
  the side not to move in check (its king could be taken), a pawn on the first or last
  rank (engines disagree on what it may do);
* noted: positions that cannot arise in a game but whose tree is defined (impossible
  checks, too much material, an en-passant square or castling right no history
  explains). They are counted as Stockfish and python-chess count them, and each reason
  is one line in ``Setup.notes``; ``strict=True`` refuses them instead, with the
  ``FenError`` the note's text comes from. A castling right whose rook or king is not
  where castling needs it is dropped, and an en-passant square with no pawn that just
  pushed past it (or on the wrong rank, or occupied, or with the pawn's origin occupied)
  is ignored, as Stockfish ignores it.

Variants (``parse_fen(..., variant=NAME)``, names from ``chesskit.variants``): their own
fields and dialects are read in ``fen_variants`` (crazyhouse's pockets and ``~`` marks,
three-check's counters), and their own rules decide what is refused and what is noted:
atomic's kings may touch and its side to move may have lost its king, antichess has any
number of kings and no check, horde's white has no king, racing kings has no pawns and no
check, a game a variant ended before the position is noted (see ``_variant_checks``).

Conventions: squares 0..63 (a1 = 0, h8 = 63), WHITE = 0, BLACK = 1,
piece code = ptype | (color << 3) with PAWN = 1 .. KING = 6, 0 = empty.
Castling rights are the squares of the rooks that may still castle.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field

from chesskit import variants
from chesskit.board import fen_variants
from chesskit.errors import FenError, InputError
from chesskit.geometry import START_FEN, attackers, distance  # noqa: F401 (attackers: re-exported)
from chesskit.vocab import (  # noqa: F401 (square_name, parse_square, the names: re-exported)
    BISHOP,
    BLACK,
    COLOR_NAMES,
    FILE_NAMES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_LETTERS,
    PIECE_NAMES,
    QUEEN,
    ROOK,
    WHITE,
    direction,
    is_piece_code,
    parse_square,
    square_name,
)

STARTING_FEN = START_FEN


# ---------------------------------------------------------------- helpers


def piece_symbol(code: int) -> str:
    """FEN letter of a piece code: ``1 -> "P"``, ``10 -> "n"``."""
    if not is_piece_code(code):
        raise ValueError(f"{code} is not a piece code")
    letter = PIECE_LETTERS[code & 7]
    return letter.upper() if code >> 3 == WHITE else letter


def piece_from_symbol(symbol: str) -> int:
    """Piece code of a FEN letter: ``"P" -> 1``, ``"n" -> 10``."""
    if len(symbol) == 1 and symbol.lower() in "pnbrqk":
        ptype = PIECE_LETTERS.index(symbol.lower())
        return ptype | ((WHITE if symbol.isupper() else BLACK) << 3)
    raise InputError(f"unknown piece letter {symbol!r}")


def _describe(board: list[int], sq: int) -> str:
    """``"the white rook on e1"``."""
    code = board[sq]
    return f"the {COLOR_NAMES[code >> 3]} {PIECE_NAMES[code & 7]} on {square_name(sq)}"


# ---------------------------------------------------------------- data


@dataclass
class Setup:
    """A validated position, as read from or written to a FEN."""

    board: list[int]  # 64 piece codes, index = square
    turn: int  # 0 white, 1 black
    castling: list[int]  # sorted squares of rooks with castling rights
    ep: int | None  # en-passant target square as given (validated)
    halfmove: int
    fullmove: int
    chess960: bool
    # why the position cannot arise in a game, one line per reason ("field: why"),
    # empty for a reachable-looking position; see the module docstring
    notes: list[str] = field(default_factory=list)
    # the variant's canonical name (chesskit.variants); the fields below stay at their
    # defaults in a variant without them, so a standard position is what it always was
    variant: str = "chess"
    # crazyhouse: per colour (white, black) 7 counts indexed by piece type (index 0
    # unused, PAWN..QUEEN, KING always 0); None in a variant without pockets
    pockets: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    # crazyhouse: sorted squares of the promoted pieces (``~`` in the FEN)
    promoted: list[int] = field(default_factory=list)
    # 3check: checks GIVEN so far by (white, black), 0..3; None in other variants
    checks: tuple[int, int] | None = None


class _Notes:
    """The reasons a position cannot arise; with ``strict`` the first is a FenError."""

    def __init__(self, strict: bool):
        self.strict = strict
        self.lines: list[str] = []

    def add(self, fen_field: str, message: str, effect: str = "") -> None:
        if self.strict:
            raise FenError(fen_field, message)
        self.lines.append(f"{fen_field}: {message}" + (f" ({effect})" if effect else ""))


@dataclass
class EpdRecord:
    """One EPD line: the position, its 6-field FEN, and the operations."""

    setup: Setup
    fen: str
    ops: dict[str, str] = field(default_factory=dict)
    # the FEN fields as the line gives them (``fen`` is the formatted, validated one:
    # it has lost a dropped castling right or ignored en-passant square, and with
    # them the notes that re-reading the position should repeat)
    given: str = ""
    # every operation in order (``ops`` keeps the last of a repeatable one, ``perft``)
    operations: tuple[tuple[str, str], ...] = ()


# ---------------------------------------------------------------- parse_fen


def parse_fen(text: str, chess960: bool | None = None, strict: bool = False, variant: str = "chess") -> Setup:
    """Parse and validate a 6-field (or 4-field, clocks 0 and 1) FEN.

    ``chess960=None`` detects Chess960 from the castling field: Shredder file
    letters, or a right whose king or rook is off e1/e8 and the corners.
    Raises ``FenError(field, message)`` for anything invalid or without a defined
    move tree; a position that only cannot arise in a game gets ``notes`` (see the
    module docstring), or with ``strict=True`` raises for the first reason.
    ``variant`` is any name ``chesskit.variants.find`` reads (a 960 form sets
    ``chess960`` when it is None); ``"startpos"`` is that variant's start position.
    Its pockets and check counters are read in every dialect (see fen_variants).
    """
    rules, named960 = variants.find(variant)
    if named960 and chess960 is None:
        chess960 = True
    if text.strip() == "startpos":
        text = rules.start_fen
    notes = _Notes(strict)
    fields = text.split()
    if not fields:
        raise FenError("fen", "the FEN is empty")
    fields, checks = fen_variants.split_checks(fields, rules)
    if len(fields) not in (4, 6):
        raise FenError(
            "fen",
            f"expected 6 space-separated fields (or 4 without the clocks), found {len(fields)}"
            + _field_count_hint(fields, rules),
        )
    placement, pocket_text = fen_variants.split_pockets(fields[0], rules)
    board, promoted = _parse_placement(placement, marks=rules.pockets)
    pockets = fen_variants.parse_pockets(pocket_text) if rules.pockets else None
    turn = _parse_turn(fields[1])
    if rules is variants.CHESS:
        _check_material(board, notes)
    else:
        _check_variant_material(rules, board, turn, pockets, promoted, notes)
    castling, chess960 = _parse_castling(_castling_field(fields[2], rules, notes), board, chess960, notes)
    ep = _parse_ep(fields[3], board, turn, notes)
    halfmove, fullmove = 0, 1
    if len(fields) == 6:
        halfmove = _parse_count(fields[4], "halfmove clock")
        fullmove = max(1, _parse_count(fields[5], "fullmove number"))  # 0 is read as 1, like python-chess
    setup = Setup(board, turn, castling, ep, halfmove, fullmove, chess960)
    setup.variant, setup.pockets, setup.promoted, setup.checks = rules.name, pockets, promoted, checks
    if rules is variants.CHESS:
        _check_checks(setup, notes)
    else:
        _variant_checks(setup, rules, notes)
    setup.notes = notes.lines
    return setup


def _field_count_hint(fields: list[str], rules: variants.Variant) -> str:
    """Where a variant's own field stands where no field is read: a pocket after a space, a
    three-check counter in the remaining checks' form after the clocks."""
    if rules.pockets and len(fields) > 1 and fields[1].startswith("["):
        return f": the pocket {fields[1]!r} belongs to the placement, written without a space ({fields[0]}{fields[1]})"
    late = [field for field in fields[6:] if "+" in field]
    if rules.checks and late:
        return (
            f": {late[0]!r} after the clocks; three-check's counters go after the en-passant square as the "
            "remaining checks 'W+B', or after the clocks as the checks given '+W+B'"
        )
    return ""


def _check_variant_material(rules, board, turn, pockets, promoted, notes) -> None:
    fen_variants.count_kings(rules, board, turn)
    fen_variants.check_pawns(rules, board)
    fen_variants.check_promoted(board, promoted)
    fen_variants.note_material(rules, board, pockets, promoted, notes)


def _castling_field(text: str, rules: variants.Variant, notes: _Notes) -> str:
    """A variant without castling drops every right (noted); a field that names no rights
    is bad input there as everywhere."""
    if rules.castles or text == "-":
        return text
    _castling_characters(text)
    notes.add("castling", f"castling rights {text!r} in {rules.name}, which has no castling", "the rights are dropped")
    return "-"


def _parse_placement(text: str, marks: bool = False) -> tuple[list[int], list[int]]:
    """The board and the squares of the pieces marked promoted (``~``, where ``marks``)."""
    promoted: list[int] = []
    ranks = text.split("/")
    if len(ranks) != 8:
        raise FenError("piece placement", f"expected 8 ranks separated by '/', found {len(ranks)}")
    board: list[int] = []
    for index, row in enumerate(ranks):
        found = None if marks else _RANKS.get(row)
        if found is None:
            found = _parse_rank(row, 7 - index, marks, promoted)
        board[:0] = found  # the FEN lists rank 8 first
    return board, sorted(promoted)


# rank text -> its 8 piece codes, for the ranks read without error and without ``~``
# marks: suites repeat the same few hundred ranks ("8", "pppppppp", "4k3") thousands of
# times. What is cached is what ``_parse_rank`` returned for the text, which does not
# depend on the rank's number; a text that fails is read (and refused) each time.
_RANKS: dict[str, list[int]] = {}
_RANKS_KEPT = 1 << 14


def _parse_rank(row: str, rank: int, marks: bool, promoted: list[int]) -> list[int]:
    """The 8 piece codes of one rank's text (``rank`` 0..7, for the messages and the
    squares of ``~`` marks, added to ``promoted``)."""
    codes = [0] * 8
    file = 0
    previous_digit = ""
    for ch in row:
        if ch in "0123456789":
            if previous_digit:
                raise FenError(
                    "piece placement",
                    f"two digits in a row ('{previous_digit}{ch}') on rank {rank + 1}",
                )
            if ch == "0":
                raise FenError("piece placement", f"empty-square count '0' on rank {rank + 1}")
            file += int(ch)
            previous_digit = ch
            continue
        previous_digit = ""
        if ch == "~" and marks:
            if not 0 < file <= 8 or not codes[file - 1]:
                raise FenError("piece placement", f"'~' (promoted) follows no piece on rank {rank + 1}")
            if rank * 8 + file - 1 in promoted:
                raise FenError("piece placement", f"two '~' marks in a row on rank {rank + 1}")
            promoted.append(rank * 8 + file - 1)
            continue
        if ch == "~":
            raise FenError("piece placement", f"a promoted mark '~' on rank {rank + 1}: {fen_variants.ONLY_HOUSE.format('promoted marks')}")
        if ch.lower() not in "pnbrqk":
            raise FenError("piece placement", f"unknown piece letter {ch!r} on rank {rank + 1}")
        if file < 8:
            codes[file] = piece_from_symbol(ch)
        file += 1
    if file != 8:
        raise FenError("piece placement", f"rank {rank + 1} has {file} squares, expected 8")
    if not marks:
        if len(_RANKS) >= _RANKS_KEPT:
            _RANKS.clear()
        _RANKS[row] = codes
    return codes


def _check_material(board: list[int], notes: _Notes) -> None:
    """One king each and no pawn on rank 1 or 8 (refused); no more material than
    promotions allow (noted)."""
    tally = Counter(board)  # one pass over the board, not one per piece kind
    for color in (WHITE, BLACK):
        name = COLOR_NAMES[color]
        kings = tally[KING | color << 3]
        if kings == 0:
            raise FenError("piece placement", f"{name} has no king")
        if kings > 1:
            raise FenError("piece placement", f"{name} has {kings} kings")
    back_ranks = board[:8] + board[56:]
    for sq in [*range(8), *range(56, 64)] if PAWN in back_ranks or PAWN | 8 in back_ranks else ():
        if board[sq] & 7 == PAWN:
            raise FenError(
                "piece placement",
                f"{COLOR_NAMES[board[sq] >> 3]} pawn on rank {(sq >> 3) + 1} ({square_name(sq)}): "
                "pawns never stand on the first or last rank",
            )
    for color in (WHITE, BLACK):
        name = COLOR_NAMES[color]
        count = [tally[ptype | color << 3] for ptype in range(7)]
        pieces = sum(count[PAWN:])
        if pieces > 16:
            notes.add("piece placement", f"{name} has {pieces} pieces, at most 16 are possible")
        if count[PAWN] > 8:
            notes.add("piece placement", f"{name} has {count[PAWN]} pawns, at most 8 are possible")
        # Each side starts with 1 queen, 2 rooks, 2 knights and one bishop per square
        # colour; anything beyond that was promoted from a pawn that is now gone.
        promoted = fen_variants.promotions_needed(board, color, count=count)
        if promoted > max(0, 8 - count[PAWN]):
            notes.add(
                "piece placement",
                f"{name} has at least {promoted} promoted pieces but only "
                f"{max(0, 8 - count[PAWN])} missing pawns that could have promoted",
            )


def _parse_turn(text: str) -> int:
    if text == "w":
        return WHITE
    if text == "b":
        return BLACK
    raise FenError("side to move", f"{text!r} is neither 'w' nor 'b'")


# The largest clock accepted. The board keeps clocks in 64-bit integers; half of their
# range is left as room for moves, and Board refuses a move or a tree walk that would take
# a clock past this, so every FEN chesskit writes reads back (see Board._reserve).
MAX_CLOCK = 2**62


def _parse_count(text: str, name: str) -> int:
    """The clock field ``name`` (its error names it once: ``FenError`` puts it in front)."""
    if not re.fullmatch(r"[0-9]+", text, flags=re.ASCII):
        raise FenError(name, f"{_shown(text)} is not a non-negative integer")
    if len(text.lstrip("0")) > len(str(MAX_CLOCK)) or int(text) > MAX_CLOCK:
        raise FenError(name, f"{_shown(text)} is too large (at most {MAX_CLOCK})")
    return int(text)


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted, cut short when it is long (a clock of thousands of digits)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _king_square(board: list[int], color: int) -> int:
    return board.index(KING | color << 3)


# ---------------------------------------------------------------- castling


def _castling_characters(text: str) -> None:
    """A FenError for a castling field (not '-') with a character that names no rook."""
    for ch in text:
        if ch not in "KQkqABCDEFGHabcdefgh":
            raise FenError(
                "castling",
                f"unknown castling character {ch!r}; expected '-' alone or K, Q, k, q, A-H, a-h",
            )


def _parse_castling(
    text: str, board: list[int], chess960: bool | None, notes: _Notes
) -> tuple[list[int], bool]:
    """Resolve the castling field to rook squares and settle the variant.

    Each character names one rook.  ``K``/``Q`` (``k``/``q``) follow X-FEN:
    the outermost rook of that colour on the king's east (h-file) or west
    (a-file) side of its back rank; in standard chess that must be the corner
    rook with the king on e1/e8.  ``A``-``H`` (``a``-``h``) are Shredder-FEN
    file letters naming the rook's file.  Each colour castles at most once per
    side, so two rights on one side of the king are rejected.  A right whose
    king is off its back rank (off e1/e8 in standard chess) or whose rook is not
    there is noted and dropped, as python-chess drops it.
    """
    if text == "-":
        return [], bool(chess960)
    rights: dict[int, str] = {}  # rook square -> the character that named it
    _castling_characters(text)
    for ch in text:
        try:
            rook_sq = _castling_rook(ch, board, chess960)
        except FenError as err:  # no king or rook where this right needs them
            notes.add(err.field, err.reason, "the right is dropped")
            continue
        color = BLACK if rook_sq >= 56 else WHITE
        name, king = COLOR_NAMES[color], _king_square(board, color)
        if rook_sq in rights:
            other = rights[rook_sq]
            if other == ch:
                raise FenError("castling", f"castling right {ch!r} is given twice")
            raise FenError(
                "castling",
                f"castling rights {other!r} and {ch!r} both name the {name} rook on {square_name(rook_sq)}",
            )
        east = rook_sq > king
        for other_sq, other in rights.items():
            if other_sq >> 3 == rook_sq >> 3 and (other_sq > king) == east:
                raise FenError(
                    "castling",
                    f"castling rights {other!r} and {ch!r} both give {name} a right "
                    f"{'east' if east else 'west'} of the king; at most one per side is possible",
                )
        rights[rook_sq] = ch
    uses_files = any(ch not in "KQkq" for ch in text)

    def standard(rook_sq: int) -> bool:  # a corner rook, its king on e1/e8
        back = rook_sq & 56
        return board[back + 4] == board[rook_sq] + KING - ROOK and rook_sq & 7 in (0, 7)

    if chess960 is None:
        chess960 = uses_files or not all(standard(sq) for sq in rights)
    elif not chess960:
        for rook_sq, ch in list(rights.items()):
            if not standard(rook_sq):
                name = COLOR_NAMES[BLACK if rook_sq >= 56 else WHITE]
                notes.add(
                    "castling",
                    f"castling right {ch!r} needs the {name} king on {square_name((rook_sq & 56) + 4)} and a rook "
                    f"on the a- or h-file in standard chess; is this a Chess960 position?",
                    "the right is dropped",
                )
                del rights[rook_sq]
    return sorted(rights), chess960


def _castling_rook(ch: str, board: list[int], chess960: bool | None) -> int:
    """The square of the rook one castling character names (see _parse_castling);
    a FenError when that king or rook is not where the right needs it."""
    color = WHITE if ch.isupper() else BLACK
    name = COLOR_NAMES[color]
    back = 0 if color == WHITE else 56
    rook = ROOK | color << 3
    kings = board.count(KING | color << 3)
    if kings != 1:  # horde's white, antichess's kings: no king to castle with
        raise FenError("castling", f"castling right {ch!r} but {name} has {f'{kings} kings' if kings else 'no king'}")
    king = _king_square(board, color)
    if king >> 3 != back >> 3:
        raise FenError(
            "castling",
            f"castling right {ch!r} but the {name} king is on {square_name(king)}, not on rank {back // 8 + 1}",
        )
    if ch not in "KQkq":
        rook_sq = back + FILE_NAMES.index(ch.lower())
        where = f"on {square_name(rook_sq)}"
    elif chess960 is False:
        if king != back + 4:
            raise FenError(
                "castling",
                f"castling right {ch!r} needs the {name} king on {square_name(back + 4)} in standard "
                f"chess, but it is on {square_name(king)}; is this a Chess960 position?",
            )
        rook_sq = back + (7 if ch in "Kk" else 0)
        where = f"on {square_name(rook_sq)}"
    else:
        east = ch in "Kk"
        side = range(king + 1, back + 8) if east else range(back, king)
        found = [sq for sq in side if board[sq] == rook]
        rook_sq = (found[-1] if east else found[0]) if found else king  # the king square: "none"
        where = f"{'east' if east else 'west'} of the king on rank {back // 8 + 1}"
    if board[rook_sq] != rook:
        raise FenError("castling", f"castling right {ch!r} but there is no {name} rook {where}")
    return rook_sq


def _format_castling(setup: Setup) -> str:
    """X-FEN castling: K/Q for the outermost rook on a side, else the file letter.

    White before black, the east (king-side) rook before the west one; the
    same output as python-chess's ``Board.fen()``.  Standard chess always
    gives ``KQkq`` because its castling rooks stand in the corners.
    """
    letters = []
    for color in (WHITE, BLACK):
        rook = ROOK | color << 3
        mine = sorted((sq for sq in setup.castling if sq >> 3 == 7 * color), reverse=True)
        if not mine:
            continue
        king = setup.board.index(KING | color << 3) if KING | color << 3 in setup.board else -1
        for rook_sq in mine:
            back = rook_sq & 56
            east = rook_sq > king
            beyond = range(rook_sq + 1, back + 8) if east else range(back, rook_sq)
            if king < 0 or any(setup.board[sq] == rook for sq in beyond):
                letter = FILE_NAMES[rook_sq & 7]
            else:
                letter = "k" if east else "q"
            letters.append(letter.upper() if color == WHITE else letter)
    return "".join(letters) or "-"


# ---------------------------------------------------------------- en passant


def _parse_ep(text: str, board: list[int], turn: int, notes: _Notes) -> int | None:
    """The en-passant square must be one a double push just made.

    With white to move, black's last move was a pawn from rank 7 to rank 5:
    the target square on rank 6 and the origin on rank 7 are empty, and the
    black pawn stands in front of the target on rank 5 (mirrored for black).
    A square that fails this is noted and ignored, as Stockfish ignores it
    (python-chess would let a pawn take "en passant" whatever stands in front).
    """
    if text == "-":
        return None
    if not re.fullmatch(r"[a-h][1-8]", text):
        raise FenError("en passant", f"en-passant square {text!r} is not '-' or a square name like 'e3'")
    sq = parse_square(text)
    mover, them = COLOR_NAMES[turn], COLOR_NAMES[1 - turn]
    want_rank = 6 if turn == WHITE else 3
    ignored = "the en-passant square is ignored"
    if (sq >> 3) + 1 != want_rank:
        notes.add(
            "en passant",
            f"{text} cannot be an en-passant square with {mover} to move: expected rank {want_rank}",
            ignored,
        )
        return None
    forward = 8 if turn == WHITE else -8  # from the target towards the pushed pawn's origin
    pawn_sq, origin = sq - forward, sq + forward
    if board[sq]:
        notes.add("en passant", f"en-passant square {text} is occupied by {_describe(board, sq)}", ignored)
        return None
    if board[origin]:
        notes.add(
            "en passant",
            f"en-passant square {text} needs {square_name(origin)} empty (the pushed pawn came from there), "
            f"but it holds {_describe(board, origin)}",
            ignored,
        )
        return None
    if board[pawn_sq] != PAWN | (1 - turn) << 3:
        notes.add(
            "en passant",
            f"en-passant square {text} needs a {them} pawn on {square_name(pawn_sq)} "
            f"that just moved two squares, but there is none",
            ignored,
        )
        return None
    return sq


# ---------------------------------------------------------------- checks


def _check_checks(setup: Setup, notes: _Notes) -> None:
    """Refuse a position whose side not to move is in check (its king could be
    taken: the tree is not defined); note check configurations no legal last move
    can produce (the tree is defined: those are counted):

    - The side not to move must not be in check (that includes touching kings).
    - At most two pieces give check: one that moved and one it uncovered (an
      en-passant capture may uncover two lines, but then the capturing pawn
      cannot also give check).
    - A double check always includes a discovered check, so one checker is a
      bishop, rook or queen with a vacated square between it and the king.
      The moved piece cannot land on that same line beyond the king: it would
      have had to pass through the king (a knight never lands on a line through
      its origin, a castling rook never crosses the enemy king).  So two
      checkers on opposite sides of the king along one line are impossible.
    - With an en-passant square, the last move was that double push: it gives
      at most one check, and the king was not already in check before it.
    """
    _refuse_opposite_check(setup.board, setup.turn, TOUCHING_KINGS_HINT)
    _note_checkers(setup, notes)


# In standard chess, where touching kings most often mean a file of atomic chess (python-chess's
# atomic.perft) read without its variant: the way out, as fen_variants.ONLY_HOUSE gives one
TOUCHING_KINGS_HINT = " (atomic and antichess allow that: give --variant atomic or --variant antichess)"


def _refuse_opposite_check(board: list[int], us: int, touching_hint: str = "") -> None:
    """The side not to move in check (touching kings included, with ``touching_hint``
    after their squares): refused."""
    them = 1 - us
    their_king = _king_square(board, them)
    if KING | us << 3 in board and distance(_king_square(board, us), their_king) == 1:
        king = _king_square(board, us)
        raise FenError(
            "position",
            f"the kings stand next to each other on {square_name(king)} and {square_name(their_king)}{touching_hint}",
        )
    wrong = attackers(board, their_king, us)
    if wrong:
        raise FenError(
            "position", f"{COLOR_NAMES[them]} (not to move) is in check from {_describe(board, wrong[0])}"
        )


def _note_checkers(setup: Setup, notes: _Notes, counts: bool = True) -> None:
    """Note checks no legal last move gives (see _check_checks); ``counts=False`` keeps
    only the notes about the en-passant square's double push (atomic: an explosion
    uncovers any number of lines)."""
    board, us = setup.board, setup.turn
    them = 1 - us
    king = _king_square(board, us)
    checkers = attackers(board, king, them)
    name = COLOR_NAMES[us]
    listed = ", ".join(square_name(sq) for sq in checkers)
    if counts and len(checkers) > 2:
        notes.add("position", f"{name} is in check from {len(checkers)} pieces ({listed}); at most 2 are possible")
    if counts and len(checkers) == 2:
        a, b = checkers
        da, db = direction(king, a), direction(king, b)
        if da is not None and db is not None and da == (-db[0], -db[1]):
            notes.add(
                "position",
                f"{name} is in check from {_describe(board, a)} and {_describe(board, b)} on opposite sides "
                "along one line; no single move gives such a double check",
            )
        elif not any(board[sq] & 7 in (BISHOP, ROOK, QUEEN) and distance(sq, king) > 1 for sq in checkers):
            notes.add(
                "position",
                f"{name} is in double check from {_describe(board, a)} and {_describe(board, b)}, but a double "
                "check needs a bishop, rook or queen whose line was just uncovered",
            )
    if setup.ep is not None and checkers:
        forward = 8 if us == WHITE else -8
        pawn_sq, origin = setup.ep - forward, setup.ep + forward
        push = f"{COLOR_NAMES[them]}'s double pawn push {square_name(origin)}{square_name(pawn_sq)}"
        if len(checkers) >= 2:
            notes.add(
                "position",
                f"{name} is in {'double' if len(checkers) == 2 else 'multiple'} check, but the en-passant square "
                f"{square_name(setup.ep)} says the last "
                f"move was {push}, which gives at most one check",
            )
            return
        before = list(board)
        before[pawn_sq], before[origin] = 0, board[pawn_sq]
        if attackers(before, king, them):
            notes.add(
                "position",
                f"{name} would already have been in check before {push}, which the en-passant square "
                f"{square_name(setup.ep)} says was the last move",
            )


def _variant_checks(setup: Setup, rules: variants.Variant, notes: _Notes) -> None:
    """_check_checks as each variant's rules have it, and the variant's own "cannot
    arise" notes (a game that ended before this position)."""
    board, us, name = setup.board, setup.turn, rules.rules
    has_king = [KING | color << 3 in board for color in (WHITE, BLACK)]
    if name in ("antichess", "horde"):  # horde: white, without a king, loses with its last piece
        _note_mover_material(board, us, notes)
    if name == "antichess":
        return  # no check in antichess
    if name == "atomic" and not has_king[us]:
        return  # a side without a king in atomic has lost
    if name == "atomic" and distance(_king_square(board, us), _king_square(board, 1 - us)) == 1:
        return  # touching kings: neither is in check (a capture next to one explodes both)
    if has_king[1 - us]:  # horde: white has no king to be in check
        _refuse_opposite_check(board, us)
    if has_king[us]:
        _note_checkers(setup, notes, counts=name != "atomic")
    if name == "racingkings":
        checkers = attackers(board, _king_square(board, us), 1 - us)
        if checkers:
            raise FenError(
                "position",
                f"{COLOR_NAMES[us]} is in check from {_describe(board, checkers[0])}: no move gives check in racing kings",
            )
        if us == BLACK and _king_square(board, BLACK) >= 56:
            notes.add("position", "black to move with its king on rank 8: the game ended when it arrived")
    elif name == "kingofthehill" and _king_square(board, us) in fen_variants.CENTRE:
        king = square_name(_king_square(board, us))
        notes.add("position", f"{COLOR_NAMES[us]} to move with its king on {king}: the game ended when it arrived")
    elif name == "3check":
        _note_check_counters(setup, notes)


def _note_mover_material(board: list[int], us: int, notes: _Notes) -> None:
    """Antichess and horde: the side not to move made the last move, with a piece that is
    still on the board (a mover never loses its own piece), so it cannot be without pieces
    (in horde only white can be: black's king stays)."""
    them = 1 - us
    if not any(code and code >> 3 == them for code in board):
        both = "" if any(board) else " (the board is empty)"
        notes.add(
            "piece placement",
            f"{COLOR_NAMES[them]} has no pieces with {COLOR_NAMES[us]} to move{both}: "
            f"the game ended when {COLOR_NAMES[them]} lost its last one",
        )


def _note_check_counters(setup: Setup, notes: _Notes) -> None:
    """Three-check: counters that no game reaches."""
    assert setup.checks is not None
    us, them = setup.turn, 1 - setup.turn
    if setup.checks[us] == 3:
        notes.add("checks", f"{COLOR_NAMES[us]} (to move) has given 3 checks: the game ended at the third")
    elif setup.checks[them] == 0 and attackers(setup.board, _king_square(setup.board, us), them):
        notes.add("checks", f"{COLOR_NAMES[us]} is in check but {COLOR_NAMES[them]} has given no checks")
    elif setup.checks[them] == 3 and not attackers(setup.board, _king_square(setup.board, us), them):
        # the third check was the last move: it leaves the side to move in check
        notes.add(
            "checks",
            f"{COLOR_NAMES[them]} has given 3 checks but {COLOR_NAMES[us]} (to move) is not in check: the third ended the game",
        )


# ---------------------------------------------------------------- format_fen


FEN_DIALECTS = ("python-chess", "fairy")


# a rank's 8 piece codes -> its text, for the ranks without promoted pieces (see _RANKS)
_RANK_TEXT: dict[tuple[int, ...], str] = {}


def _format_rank(codes: tuple[int, ...], promoted: list[int]) -> str:
    """One rank's FEN text; ``promoted``: the files of its pieces marked ``~``."""
    row, empty = "", 0
    for file, code in enumerate(codes):
        if code:
            row += (str(empty) if empty else "") + piece_symbol(code)
            row += "~" if file in promoted else ""
            empty = 0
        else:
            empty += 1
    row += str(empty) if empty else ""
    if not promoted:
        if len(_RANK_TEXT) >= _RANKS_KEPT:
            _RANK_TEXT.clear()
        _RANK_TEXT[codes] = row
    return row


def format_fen(setup: Setup, dialect: str = "python-chess", shredder: bool = False) -> str:
    """The 6-field FEN of a setup (X-FEN castling in Chess960, ep as stored).

    A variant's fields as python-chess writes them: crazyhouse's pockets ``[Qn]`` after the
    placement and ``~`` after a promoted piece, three-check's remaining checks ``3+3``
    after the en-passant square. ``dialect="fairy"`` writes what Fairy-Stockfish reads and
    writes (its 11.1 engine and pyffish 0.0.90 write the same text as python-chess).
    ``shredder=True`` writes the castling field in Shredder-FEN (``shredder_castling``).
    """
    if dialect not in FEN_DIALECTS:
        raise ValueError(f"unknown FEN dialect {dialect!r}; expected one of {FEN_DIALECTS}")
    rows = []
    for rank in range(7, -1, -1):
        codes = tuple(setup.board[rank * 8 : rank * 8 + 8])
        row = None if setup.promoted else _RANK_TEXT.get(codes)
        if row is None:
            row = _format_rank(codes, [sq - rank * 8 for sq in setup.promoted if sq >> 3 == rank])
        rows.append(row)
    ep = square_name(setup.ep) if setup.ep is not None else "-"
    turn = "w" if setup.turn == WHITE else "b"
    placement = "/".join(rows) + (fen_variants.format_pockets(setup.pockets) if setup.pockets is not None else "")
    checks = f" {fen_variants.format_checks(setup.checks)}" if setup.checks is not None else ""
    castling = shredder_castling(setup) if shredder else _format_castling(setup)
    return f"{placement} {turn} {castling} {ep}{checks} {setup.halfmove} {setup.fullmove}"


# ---------------------------------------------------------------- Shredder-FEN
#
# The one Shredder-FEN writer. A Chess960 position is shown to the user in Shredder-FEN
# wherever a FEN is printed, written to JSON or drawn (``shown_fen``): X-FEN's ``KQkq``
# reads as standard chess, so such a FEN, pasted back, asks another question. An engine
# asked in Chess960 is sent Shredder-FEN too (a UCI engine with UCI_Chess960, a perftree
# script, a one-shot template), so the FEN shown is the one it read.


def shredder_castling(setup: Setup) -> str:
    """Shredder-FEN's castling field: the files of the castling rooks, white's upper-case,
    each side's king-side (east) rook first (``HAha``, ``GEge``), as python-chess's
    ``Board.shredder_fen()`` writes it; ``-`` without rights."""
    letters = ""
    for color in (WHITE, BLACK):
        rooks = sorted((sq for sq in setup.castling if sq >> 3 == 7 * color), reverse=True)
        files = "".join(FILE_NAMES[sq & 7] for sq in rooks)
        letters += files.upper() if color == WHITE else files
    return letters or "-"


@functools.lru_cache(maxsize=4096)  # a suite shows one record's FEN at each of its depths
def shredder_fen(fen: str, variant: str = "chess") -> str:
    """``fen`` with its castling field in Shredder-FEN (read as Chess960), its other fields
    as written. Kept for the FENs last asked: the text is read again each time (64 us), and
    ``suite --json`` asks once per result."""
    fields = fen.split()
    if len(fields) < 3 or fields[2] == "-":
        return fen
    fields[2] = shredder_castling(parse_fen(fen, chess960=True, variant=variant))
    return " ".join(fields)


def shown_fen(fen: str, chess960: bool, variant: str = "chess") -> str:
    """The FEN to show the user: a Chess960 position's in Shredder-FEN, any other as is."""
    return shredder_fen(fen, variant) if chess960 else fen


# ---------------------------------------------------------------- EPD
#
# The one EPD reader: ``perft kiwipete`` (suites/positions) and ``chesskit suite``
# (suites/formats, which reads the D<n>, perft, S<n> and id operations it returns) read
# a line the same way. tests/test_architecture.py refuses a second one.

_OPCODE = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*")
_FIELD = re.compile(r"\s*([^\s;]+)")
_SIGNED = re.compile(r"[-+]?\d+")  # a Unicode digit is a clock, refused by parse_fen
_CHECKS = re.compile(r"\+?[0-9]+\+[0-9]+", re.ASCII)  # three-check's counters: 3+3 or +0+0
# opcodes that may repeat: each ``perft DEPTH COUNT`` names its own depth
REPEATABLE_OPCODES = frozenset({"perft"})


def parse_epd(line: str, chess960: bool | None = None, strict: bool = False, variant: str = "chess") -> EpdRecord:
    """Parse an EPD line: 4 or 6 FEN fields, then ``opcode operand;`` operations.

    Both ``<4 fields> id "kiwipete"; D1 48; D2 2039;`` and the perft-suite style
    ``<6 fields> ;D1 20 ;D2 400`` work.  Quoted operands lose their quotes;
    ``hmvc`` and ``fmvn`` set the clocks.  An opcode given twice is an error (the EPD
    standard allows each once), but for ``perft DEPTH COUNT``.  A bad FEN part raises
    ``FenError``, malformed operations raise ``InputError``; ``strict`` and ``variant``
    as for ``parse_fen`` (three-check's counters may follow the en-passant field or the
    clocks); a ``variant NAME`` operation names the line's variant.
    """
    fields, checks, rest = _split_head(line)
    operations = _split_ops(rest)
    ops = dict(operations)
    if len(fields) == 6:
        for opcode, index in (("hmvc", 4), ("fmvn", 5)):
            if opcode in ops and ops[opcode] != fields[index]:
                raise InputError(
                    f"EPD operation {opcode} {_shown(ops[opcode])} contradicts the FEN's clock field {fields[index]!r}"
                )
    elif "hmvc" in ops or "fmvn" in ops:
        fields = [*fields, ops.get("hmvc", "0"), ops.get("fmvn", "1")]
    given = " ".join([*fields[:4], *checks, *fields[4:]])
    setup = parse_fen(given, chess960, strict, _epd_variant(variant, ops))
    return EpdRecord(setup, format_fen(setup), ops, given, tuple(operations))


def _epd_variant(variant: str, ops: dict[str, str]) -> str:
    """The line's ``variant`` operation, unless it contradicts a variant the caller gave."""
    named = ops.get("variant")
    if named is None:
        return variant
    mine = variants.find(named)
    if variant != "chess" and variants.find(variant) != mine:
        raise InputError(f"EPD operation variant {_shown(named)} contradicts the variant {variant!r} given")
    return named


def _split_head(text: str) -> tuple[list[str], list[str], str]:
    """The FEN fields (4, or 6 with the clocks), three-check's counters (a list of none or
    one) and the text of the operations after them."""
    rest = text
    fields: list[str] = []
    checks: list[str] = []
    while True:
        match = _FIELD.match(rest)
        if match is None:
            break
        word = match.group(1)
        if len(fields) in (4, 6) and not checks and _CHECKS.fullmatch(word):
            checks.append(word)
        elif len(fields) >= 6 or (len(fields) >= 4 and not _SIGNED.fullmatch(word)):
            break  # an operation's opcode, not a clock
        else:
            fields.append(word)
        rest = rest[match.end() :]
    if len(fields) < 4:
        raise FenError("fen", f"an EPD line starts with 4 FEN fields, found {len(fields)}")
    if len(fields) == 5:
        after = _FIELD.match(rest)
        if after is not None and after.group(1)[0] in "0123456789":  # '0 1,3,8902': counts run into the clock
            raise FenError(
                "fen",
                f"fullmove number {_shown(after.group(1))} is not a number (an EPD line's counts are "
                "operations after the FEN, separated from it by a space: '... 0 1 ;D3 8902')",
            )
        raise FenError("fen", "found a halfmove clock but no fullmove number after the 4 FEN fields")
    return fields, checks, rest


def _split_ops(text: str) -> list[tuple[str, str]]:
    """``opcode operand...;`` operations in order, honouring quoted strings; an opcode
    given twice raises (but for REPEATABLE_OPCODES)."""
    chunks, current, quoted, escaped = [], [], False, False
    for ch in text:
        if escaped:
            current.append(ch)
            escaped = False
        elif quoted and ch == "\\":
            current.append(ch)
            escaped = True
        elif ch == '"':
            current.append(ch)
            quoted = not quoted
        elif ch == ";" and not quoted:
            chunks.append("".join(current))
            current = []
        else:
            current.append(ch)
    if quoted:
        raise InputError("unterminated quoted string in the EPD operations")
    chunks.append("".join(current))
    ops: list[tuple[str, str]] = []
    seen: set[str] = set()
    for chunk in chunks:
        chunk = chunk.strip()
        if not chunk:
            continue
        opcode, operand = (chunk.split(None, 1) + [""])[:2]
        if not _OPCODE.fullmatch(opcode):
            raise InputError(
                f"malformed EPD operation {_shown(chunk)}: opcode {_shown(opcode, 20)} must start with a letter"
            )
        if opcode in seen and opcode not in REPEATABLE_OPCODES:
            raise InputError(f"EPD operation {_shown(opcode, 20)} appears twice")
        seen.add(opcode)
        ops.append((opcode, unquote_operand(operand.strip(), opcode)))
    return ops


def unquote_operand(operand: str, shown: str) -> str:
    """An EPD operand as written, or the text of a quoted ``"string"`` with its ``\\``
    escapes undone; ``shown`` names the operation in the error."""
    if '"' not in operand:
        return operand
    match = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', operand, re.DOTALL)
    if not match:
        raise InputError(f"malformed EPD operation {shown}: a quoted operand must be one whole \"string\"")
    return re.sub(r"\\(.)", r"\1", match.group(1))
