"""What kind of move an engine missed or invented, and the bug that most likely caused it.

``classify_moves(board, missing, extra)`` looks at each move in our position (a
``chesskit.board.board.Board`` at the failing node) and returns a ``MoveNote``: the kinds
of the move (capture, en passant, castle, promotion to which piece, double push,
king move, pinned piece, evasion) and a one-line hint.

Missing moves are legal, so their shape is known; the hint says which rule the
engine most likely applied too strictly.  Extra moves are illegal and may not even
have a legal shape, so they are played on a copy of the board here (pure Python,
no legality assumed) to see what they break: a king left in check along a rank
after en passant, a castling king crossing an attacked square, a castling rook
that is no longer there.  The geometry (``chesskit.geometry``) is plain Python and
separate from the compiled move generator, so it cannot share that generator's bugs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chesskit.geometry import attackers, between
from chesskit.vocab import (
    BISHOP,
    BISHOP_DIRS,
    KING,
    KNIGHT,
    PAWN,
    PIECE_NAMES,
    PROMOTIONS,
    QUEEN,
    ROOK,
    ROOK_DIRS,
    WHITE,
    castle_squares,
    direction,
    offset,
    parse_square,
    piece_code,
    square_name,
)



@dataclass
class MoveNote:
    """One missing or extra move: its kinds and the likely cause."""

    move: str
    side: str  # "missing" (legal, not generated) or "extra" (generated, not legal)
    kinds: list[str] = field(default_factory=list)
    hint: str = ""

    def to_json(self) -> dict:
        return {"move": self.move, "side": self.side, "kinds": list(self.kinds), "hint": self.hint}

    @property
    def shown(self) -> str:
        """The move as a line shows it beside its kinds: a row listed twice (``e5f7 (listed
        twice)``) by its move alone, since its kind says it (the words came twice)."""
        return shown_move(self.move)


def shown_move(row: str) -> str:
    """``MoveNote.shown`` of a divide row (a JSON note's ``move``)."""
    from chesskit.compare.engines.base import TWICE

    return row[: -len(TWICE)] if row.endswith(TWICE) else row


# ------------------------------------------------------------------ geometry


def _name(board: list[int], sq: int) -> str:
    code = board[sq]
    return (
        f"the {PIECE_NAMES[code & 7]} on {square_name(sq)}" if code else f"the empty square {square_name(sq)}"
    )


def king_square(board: list[int], color: int) -> int | None:
    code = piece_code(color, KING)
    return next((sq for sq in range(64) if board[sq] == code), None)


def pins(board: list[int], color: int) -> dict[int, int]:
    """``{pinned square: pinner square}`` for ``color``'s pieces pinned to their king."""
    king = king_square(board, color)
    if king is None:
        return {}
    them = (1 - color) << 3
    found = {}
    for dirs, slider in ((ROOK_DIRS, ROOK), (BISHOP_DIRS, BISHOP)):
        for d in dirs:
            s, own = offset(king, *d), None
            while s is not None:
                if board[s]:
                    if own is None and board[s] >> 3 == color:
                        own = s
                    else:
                        if own is not None and board[s] in (slider | them, QUEEN | them):
                            found[own] = s
                        break
                s = offset(s, *d)
    return found


# ------------------------------------------------------------------ moves on a plain board


@dataclass
class _Move:
    """A UCI move read in a position: its squares and what it does there."""

    uci: str
    frm: int
    to: int
    promo: int
    piece: int
    us: int
    castle_rook: int | None = None  # the castling rook's square
    en_passant: bool = False
    captured_sq: int | None = None

    @property
    def ptype(self) -> int:
        return self.piece & 7


def _parse(uci: str, setup) -> _Move:
    frm, to = parse_square(uci[0:2]), parse_square(uci[2:4])
    board, us = setup.board, setup.turn
    move = _Move(uci, frm, to, PROMOTIONS.get(uci[4:5], 0), board[frm], us)
    if move.ptype == KING and board[frm] >> 3 == us:
        if board[to] == piece_code(us, ROOK):  # king takes own rook: Chess960 notation
            move.castle_rook = to
        elif not setup.chess960 and frm >> 3 == to >> 3 and abs(to - frm) == 2:
            corner = (frm & 56) + (7 if to > frm else 0)
            move.castle_rook = corner
    behind = to - 8 if us == WHITE else to + 8
    if (
        move.ptype == PAWN
        and abs((frm & 7) - (to & 7)) == 1
        and not board[to]
        and to >> 3 == (5 if us == WHITE else 2)
        and board[behind] == piece_code(1 - us, PAWN)
    ):
        move.en_passant = True  # a diagonal step onto the empty square behind an enemy pawn
        move.captured_sq = behind
    elif board[to] and move.castle_rook is None:
        move.captured_sq = to
    return move


def _apply(move: _Move, board: list[int]) -> list[int]:
    """The board after ``move`` (whatever its legality)."""
    after = list(board)
    if move.castle_rook is not None:
        kto, rto = castle_squares(move.frm, move.castle_rook)
        rook = after[move.castle_rook] if after[move.castle_rook] == piece_code(move.us, ROOK) else 0
        after[move.frm] = 0
        if rook:
            after[move.castle_rook] = 0
            after[rto] = rook
        after[kto] = move.piece
        return after
    if move.captured_sq is not None:
        after[move.captured_sq] = 0
    after[move.frm] = 0
    after[move.to] = piece_code(move.us, move.promo) if move.promo else move.piece
    return after


def _shape_ok(move: _Move, setup) -> bool:
    """Could this piece make this move by its own rules (ignoring checks and pins)?"""
    board, us = setup.board, move.us
    frm, to, ptype = move.frm, move.to, move.ptype
    df, dr = (to & 7) - (frm & 7), (to >> 3) - (frm >> 3)
    if ptype == PAWN:
        fwd = 1 if us == WHITE else -1
        last = 7 if us == WHITE else 0
        if (to >> 3 == last) != bool(move.promo):
            return False
        if df == 0 and dr == fwd:
            return not board[to]
        if df == 0 and dr == 2 * fwd:
            return frm >> 3 == (1 if us == WHITE else 6) and not board[to] and not board[frm + 8 * fwd]
        return abs(df) == 1 and dr == fwd and (board[to] or move.en_passant)
    if move.promo:
        return False
    if ptype == KNIGHT:
        return (abs(df), abs(dr)) in ((1, 2), (2, 1))
    if ptype == KING:
        return move.castle_rook is not None or max(abs(df), abs(dr)) == 1
    line = direction(frm, to)
    if line is None or (ptype == ROOK and 0 not in line) or (ptype == BISHOP and 0 in line):
        return False
    return not any(board[s] for s in between(frm, to))


def king_exposing_moves(setup) -> int:
    """How many moves the side to move's pieces could make by their own rules
    (``_shape_ok``; no castling, en passant only onto the en-passant square) leave its king
    attacked: what a count of pseudo-legal moves adds to the legal ones."""
    return len(king_exposing(setup))


def king_exposing(setup) -> list[str]:
    """The moves (UCI) ``king_exposing_moves`` counts, in square order."""
    board, us = setup.board, setup.turn
    king = king_square(board, us)
    if king is None:
        return []
    exposing = []
    for frm in range(64):
        if not board[frm] or board[frm] >> 3 != us:
            continue
        for to in range(64):
            if to == frm or (board[to] and board[to] >> 3 == us):
                continue
            last_rank = board[frm] & 7 == PAWN and to >> 3 in (0, 7)
            for promo in PROMOTIONS if last_rank else ("",):
                move = _parse(square_name(frm) + square_name(to) + promo, setup)
                if move.castle_rook is not None or not _shape_ok(move, setup):
                    continue
                if move.en_passant and setup.ep != to:
                    continue
                if attackers(_apply(move, board), to if move.ptype == KING else king, 1 - us):
                    exposing.append(square_name(frm) + square_name(to) + promo)
    return exposing


# how a hint for an engine counting another depth than asked begins (``depth_shift_hint``)
DEPTH_SHIFT = "the engine's divide at depth "


def depth_shift_hint(asked: int, counted: int) -> str:
    """The hint for an engine whose divide at depth ``asked`` is chesskit's at ``counted``."""
    fewer = asked - counted
    return (
        f"{DEPTH_SHIFT}{asked} is chesskit's at depth {counted}, move by move: it counts {fewer} "
        f"{'ply' if fewer == 1 else 'plies'} fewer than asked (the depth parsed or applied off by one, or "
        "ignored), not a make/unmake fault"
    )


def pseudo_legal_hint(setup, legal: int, reached: int) -> str:
    """The hint for a node whose perft 1 the engine gives as ``reached`` from its parent
    but as ``legal`` (chesskit's count) asked directly, when ``reached`` is its count of
    pseudo-legal moves; else ""."""
    exposing = king_exposing_moves(setup)
    if not exposing or reached != legal + exposing:
        return ""
    return (
        f"{reached} is the number of pseudo-legal moves here ({legal} legal and {exposing} that leave the king "
        "in check): the engine's count at the last ply (a bulk count of the moves below a move) does not test "
        "that its king is safe, while its divide of this node does"
    )


# ------------------------------------------------------------------ classification


def classify_moves(board, missing: list[str], extra: list[str]) -> list[MoveNote]:
    """Notes for the moves an engine missed and the illegal ones it generated, in that order.
    In a variant, its own bug classes come first (``chesskit.compare.vclassify``)."""
    setup = board.setup()
    if getattr(setup, "variant", "chess") != "chess":
        from chesskit.compare.vclassify import variant_note

        # the pieces the engine drops somewhere here (a missing drop of one of them is a
        # question of the square, not of the pocket)
        missed = set(missing)
        dropping = frozenset(m[0] for m in board.legal_moves() if "@" in m and m not in missed)

        def note(uci: str, side: str) -> MoveNote:
            found = variant_note(setup, uci, side, dropping)
            return MoveNote(uci, side, *found) if found is not None else _classify(setup, uci, side)
    else:

        def note(uci: str, side: str) -> MoveNote:
            return _classify(setup, uci, side)

    return _promotions_together([note(uci, "missing") for uci in missing]) + [note(uci, "extra") for uci in extra]


def _promotions_together(notes: list[MoveNote]) -> list[MoveNote]:
    """One hint for the promotions of one pawn move missing together: all four ("promotion
    missing, to every piece"), or the three underpromotions ("only the queen is
    generated"). Each said apart, a capture's four read "underpromotion to rook missing"
    first, pointing at another bug (QA 42b)."""
    missing = {note.move for note in notes}
    for note in notes:
        if len(note.move) != 5 or not note.hint.startswith(("promotion to ", "underpromotion to ")):
            continue
        pieces = {piece for piece in "qrbn" if note.move[:4] + piece in missing}
        capture = " (a capturing promotion)" if note.hint.endswith("(a capturing promotion)") else ""
        if pieces == set("qrbn"):
            note.hint = f"promotion missing, to every piece{capture}"
        elif pieces == set("rbn"):
            note.hint = f"underpromotions missing: only the promotion to a queen is generated{capture}"
    return notes


def listing_note(row: str) -> MoveNote | None:
    """The note of a divide row that is no move of its own: a null move (``0000``) or a
    move listed a second time (``e2e4 (listed twice)``, ``base.add_divide_entry``); None
    for any other row."""
    from chesskit.compare.engines.base import NULL_MOVE, TWICE

    if row == NULL_MOVE:
        hint = "a null move: the engine's move generation yields a move that moves no piece (UCI 0000)"
        return MoveNote(row, "extra", [NULL_MOVE_KIND], hint)
    if row.endswith(TWICE):
        move = row[: -len(TWICE)]
        hint = f"the engine generates {move} twice here (its move list holds it twice, and perft counts both)"
        return MoveNote(row, "extra", [LISTED_TWICE_KIND], hint)
    return None


# the kinds of an extra row that is no move of its own (``listing_note``)
NULL_MOVE_KIND, LISTED_TWICE_KIND = "null move", "listed twice"
LISTING_KINDS = frozenset({NULL_MOVE_KIND, LISTED_TWICE_KIND})


def _kinds(move: _Move, setup, in_check: bool, pinned: dict[int, int]) -> list[str]:
    kinds = []
    if move.castle_rook is not None:
        kinds.append("castle")
    if move.en_passant:
        kinds += ["capture", "en passant"]
    elif move.captured_sq is not None:
        kinds.append("capture")
    if move.promo:
        kinds.append(f"promotion to {PIECE_NAMES[move.promo]}")
    if move.ptype == PAWN and abs(move.to - move.frm) == 16:
        kinds.append("double push")
    if move.ptype == KING and move.castle_rook is None:
        kinds.append("king move")
    if move.frm in pinned:
        kinds.append("pinned piece")
    if in_check:
        kinds.append("evasion")
    return kinds


def _classify(setup, uci: str, side: str) -> MoveNote:
    board, us = setup.board, setup.turn
    them = 1 - us
    king = king_square(board, us)
    checkers = attackers(board, king, them) if king is not None else []
    pinned = pins(board, us)
    move = _parse(uci, setup)
    note = MoveNote(uci, side)
    if not move.piece or move.piece >> 3 != us:
        what = "an empty square" if not move.piece else f"the opponent's {PIECE_NAMES[move.ptype]}"
        note.hint = f"moves from {what} on {square_name(move.frm)}: the engine's board is out of sync"
        return note
    note.kinds = _kinds(move, setup, bool(checkers), pinned)
    if side == "missing":
        note.hint = _missing_hint(move, setup, checkers, pinned)
    else:
        note.hint = _extra_hint(move, setup, checkers, pinned)
    return note


def _missing_hint(move: _Move, setup, checkers: list[int], pinned: dict[int, int]) -> str:
    board, us = setup.board, move.us
    king = king_square(board, us)
    if move.castle_rook is not None:
        return _missing_castle_hint(move, setup)
    if move.en_passant:
        pushed = move.captured_sq
        if pushed in checkers:
            return "en passant capturing the pawn that gives check is missing (an evasion by en passant)"
        if king is not None and king >> 3 == move.frm >> 3:
            rank = [
                s
                for s in range(king & 56, (king & 56) + 8)
                if board[s] & 7 in (ROOK, QUEEN) and board[s] >> 3 != us
            ]
            if rank:
                return "en passant wrongly rejected as exposing the king along the rank (another piece still shields it)"
        if move.frm in pinned:
            return "en passant along a pin line wrongly rejected"
        return "en-passant capture not generated: the double push did not set the en-passant square, or it is ignored"
    if move.promo:
        if move.promo != QUEEN:
            what = f"underpromotion to {PIECE_NAMES[move.promo]} missing"
        else:
            what = "promotion to queen missing"
        return what + (" (a capturing promotion)" if move.captured_sq is not None else "")
    if move.frm in pinned:
        return (
            f"move of a pinned piece along its pin line missing (pinned by {_name(board, pinned[move.frm])})"
        )
    if move.ptype == KING:
        if move.captured_sq is not None:
            return f"king capture on {square_name(move.to)} missing: the captured piece was thought defended"
        return f"king move to {square_name(move.to)} missing: the square was wrongly thought attacked"
    if checkers:
        if move.captured_sq in checkers:
            return f"capture of the checking piece ({_name(board, move.captured_sq)}) missing"
        if any(move.to in between(king, c) for c in checkers):
            what = "double push" if abs(move.to - move.frm) == 16 and move.ptype == PAWN else "move"
            return f"interposing {what} to {square_name(move.to)} missing (blocks the check)"
        return "check evasion missing"
    if move.ptype == PAWN and abs(move.to - move.frm) == 16:
        return "double pawn push missing"
    if move.captured_sq is not None:
        return f"capture of {_name(board, move.captured_sq)} missing"
    return f"legal {PIECE_NAMES[move.ptype]} move not generated"


def _missing_castle_hint(move: _Move, setup) -> str:
    board, us = setup.board, move.us
    them = 1 - us
    kto, rto = castle_squares(move.frm, move.castle_rook)
    rook_path = [rto, *between(move.castle_rook, rto)]
    king_path = {move.frm, kto, *between(move.frm, kto)}
    rook_only = [s for s in rook_path if s not in king_path and s != move.castle_rook]
    attacked = [s for s in rook_only if attackers(board, s, them)]
    stays = setup.chess960 and (kto == move.frm or rto == move.castle_rook)
    if attacked:
        # both causes fit where a piece stays too: both said (QA 42b D3)
        also = "; or: a king or rook that already stands on its destination square" if stays else ""
        return (
            f"castling rejected because {square_name(attacked[0])} is attacked: only the king's squares "
            f"must be safe, the rook may cross attacked ones{also}"
        )
    if setup.chess960:
        if stays:
            return "Chess960 castling missing where the king or rook already stands on its destination square"
        if kto == move.castle_rook or rto == move.frm:
            return "Chess960 castling missing where the king lands on the rook's square (or the rook on the king's): the squares test must ignore both"
        return "Chess960 castling missing: the empty-squares test must ignore the castling king and rook"
    return (
        "castling missing: the castling right was lost (or not restored by unmake), or the path test is wrong"
    )


def _extra_hint(move: _Move, setup, checkers: list[int], pinned: dict[int, int]) -> str:
    board, us = setup.board, move.us
    them = 1 - us
    king = king_square(board, us)
    if move.castle_rook is not None:
        return _extra_castle_hint(move, setup, checkers)
    if board[move.to] and board[move.to] >> 3 == us:
        return f"captures its own {PIECE_NAMES[board[move.to] & 7]} on {square_name(move.to)}"
    if not _shape_ok(move, setup):
        if move.ptype == PAWN and move.promo and move.to >> 3 not in (0, 7):
            return "promotion before the last rank"
        if move.ptype == PAWN and not move.promo and move.to >> 3 in (0, 7):
            return "pawn reaches the last rank without promoting"
        if move.ptype == PAWN and abs(move.to - move.frm) == 16:
            return "double push from the wrong rank or over a piece"
        return f"not a move the {PIECE_NAMES[move.ptype]} on {square_name(move.frm)} can make"
    after = _apply(move, board)
    new_king = move.to if move.ptype == KING else king
    exposed = attackers(after, new_king, them) if new_king is not None else []
    if move.en_passant:
        if setup.ep != move.to:
            return "en-passant capture without a fresh double push: a stale en-passant square was not cleared"
        if exposed:
            sq = exposed[0]
            line = direction(new_king, sq)
            if line is not None and line[1] == 0 and move.captured_sq >> 3 == new_king >> 3:
                return "en-passant capture that exposes the king along the rank (both pawns leave it)"
            if move.frm in pinned:
                return f"en-passant capture by a pinned pawn (pinned by {_name(board, pinned[move.frm])})"
            if checkers:
                return "en passant that does not answer the check"
            return f"en-passant capture that exposes the king to {_name(board, sq)} (the captured pawn was shielding it)"
    if move.ptype == KING:
        enemy_king = king_square(board, them)
        if (
            enemy_king is not None
            and max(abs((move.to & 7) - (enemy_king & 7)), abs((move.to >> 3) - (enemy_king >> 3))) == 1
        ):
            return "king moves next to the enemy king"
        if exposed:
            before = attackers(board, move.to, them)
            if not before or (
                board[move.to]
                and move.to not in before
                and not attackers(_without(board, move.to), move.to, them)
            ):
                return (
                    f"king steps back along the line of {_name(board, exposed[0])}: "
                    "remove the king from the occupancy when testing its destination"
                )
            return f"king moves into check from {_name(board, exposed[0])}"
    if exposed:
        if len(checkers) > 1:
            return "a non-king move in double check: only the king may move"
        if checkers and move.frm in pinned and (move.captured_sq in checkers or move.to in between(king, checkers[0])):
            checker = _name(board, checkers[0]).removeprefix("the ")
            answer = "captures the checking" if move.captured_sq in checkers else "blocks the check from the"
            return (
                f"pinned piece (pinned by {_name(board, pinned[move.frm])}) {answer} {checker}: "
                "a pinned piece may not answer a check"
            )
        if checkers and move.captured_sq not in checkers:
            return f"move ignores the check from {_name(board, checkers[0])}"
        if move.frm in pinned:
            return f"pinned piece moves off its pin line (pinned by {_name(board, pinned[move.frm])})"
        return f"move leaves the king in check from {_name(board, exposed[0])}"
    if move.ptype == PAWN and move.promo and move.to >> 3 in (0, 7):
        return "promotion not legal here"
    return "move is not legal here"


def _without(board: list[int], sq: int) -> list[int]:
    out = list(board)
    out[sq] = 0
    return out


def _extra_castle_hint(move: _Move, setup, checkers: list[int]) -> str:
    board, us = setup.board, move.us
    them = 1 - us
    rook_sq = move.castle_rook
    side = "king" if rook_sq > move.frm else "queen"
    if board[rook_sq] != piece_code(us, ROOK):
        if board[rook_sq] and board[rook_sq] >> 3 == them:
            return (
                f"castling after the rook was captured on {square_name(rook_sq)}: "
                "rights not cleared when a rook is captured on its home square"
            )
        return f"castling with no rook on {square_name(rook_sq)}: castling rights not cleared"
    if rook_sq not in setup.castling:
        return f"{side}-side castling without the right: rights not cleared after the king or rook moved"
    if checkers:
        return "castling out of check"
    kto, rto = castle_squares(move.frm, move.castle_rook)
    lo = min(move.frm, rook_sq, kto, rto)
    hi = max(move.frm, rook_sq, kto, rto)
    blocked = [s for s in range(lo, hi + 1) if board[s] and s not in (move.frm, rook_sq)]
    if blocked:
        return f"castling through an occupied square ({square_name(blocked[0])})"
    crossed = between(move.frm, kto)
    hit = [s for s in crossed if attackers(board, s, them)]
    if hit:
        return f"castling through an attacked square ({square_name(hit[0])})"
    after = _apply(move, board)
    if attackers(after, kto, them):
        if attackers(board, kto, them):
            return f"castling into check ({square_name(kto)} is attacked)"
        return f"castling into check: {square_name(kto)} is attacked once the castling rook leaves {square_name(rook_sq)}"
    return "castling is not legal here"


# ------------------------------------------------------------------ state mismatches


FIELD_LABELS = {
    "placement": "piece placement",
    "turn": "side to move",
    "castling": "castling rights",
    "ep": "en-passant square",
    "halfmove": "halfmove clock",
    "fullmove": "fullmove number",
}


def state_hint(mismatch) -> str:
    """A one-line likely cause for a ``chesskit.compare.descent.StateMismatch``."""
    field, op, move = mismatch.field, mismatch.op, mismatch.move
    ours, theirs = mismatch.ours, mismatch.theirs
    label = FIELD_LABELS.get(field, field)
    if field == "walk":
        return (
            f"the engine counts this node right when asked directly ({ours}) but gets {theirs} when it "
            "reaches it by make/unmake from the parent: an unmake that does not restore the state, or "
            "state kept between questions (a hash table keyed without castling rights or the en-passant square)"
        )
    if op == "pop":
        return f"unmake (pop {move}) does not restore the {label}"
    if op == "set_fen":
        return f"set_fen() then fen() does not give back the {label}"
    if field == "castling":
        if _more_rights(theirs, ours):
            return f"castling right kept after {move}: moving or capturing a king or rook must clear it"
        return f"castling right dropped by {move}, which neither moves nor captures that rook or king"
    if field == "ep":
        if ours and not theirs:
            return (
                f"the double push {move} does not set the en-passant square (en passant to {ours} is legal)"
            )
        if theirs and not ours:
            return (
                f"en-passant square {theirs} set after {move}, where no en-passant capture onto it is legal"
            )
        return f"wrong en-passant square after {move}"
    if field == "halfmove":
        return f"halfmove clock wrong after {move}: reset on pawn moves and captures, else +1"
    if field == "fullmove":
        return f"fullmove number wrong after {move}: +1 after each black move only"
    if field == "turn":
        return f"side to move not switched by {move}"
    if field == "placement":
        return f"make ({move}) puts the pieces in the wrong place"
    return f"{label} differs after {op} {move}"


def _more_rights(theirs, ours) -> bool:
    return len(str(theirs).strip("-")) > len(str(ours).strip("-"))
