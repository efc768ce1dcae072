"""The variant bug classes: what a missing or extra move says about a variant engine.

``variant_note(setup, uci, side)`` is asked first for a position of a variant (a
``chesskit.board.fen.Setup`` with ``variant`` set); it returns ``(kinds, hint)`` when the
move falls in one of issue 22's variant bug classes, else None (the standard
classification, ``chesskit.compare.classify``, then applies). Pure Python over the setup's piece codes (``chesskit.geometry``), so it
shares nothing with the compiled move generator:

* game end: moves listed where the game is over (a king on the hill, three checks given,
  an exploded king, a racing king home, no white piece left in horde) or none listed
  where it is not (racing kings: black's last chance to equal);
* atomic: a capture that explodes the mover's own king, a king that captures, a king
  step next to the enemy king refused (touching kings), pawns lost to an explosion;
* crazyhouse drops: a pawn dropped on the first or last rank, a drop that does not
  answer a check, a drop from a pocket that lacks (or holds) the piece (a captured
  promoted piece returns as a pawn);
* antichess: a non-capture while a capture is possible (forced capture), a promotion to a
  king missing;
* horde: a first-rank pawn's double push;
* racing kings: a move that gives check.
"""

from __future__ import annotations

from chesskit.board.gameover import game_over, king_square
from chesskit.geometry import attackers, between
from chesskit.vocab import BLACK, KING, PAWN, PIECE_NAMES, WHITE, parse_square, piece_code, square_name

_DROP_LETTERS = {"P": 1, "N": 2, "B": 3, "R": 4, "Q": 5}


def _near(a: int, b: int) -> bool:
    return a != b and max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) == 1


Note = tuple[list[str], str]  # (kinds, hint)


def variant_note(setup, uci: str, side: str, dropping: frozenset = frozenset()) -> Note | None:
    """``(kinds, hint)`` for a move in one of the variant bug classes, or None. ``dropping``:
    the letters of the pieces the engine drops somewhere at this node (``P``, ``N``, ...)."""
    over = game_over(setup)
    if over is not None:
        return ["game end"], f"the game is over here ({over}): the engine plays on"
    if side == "missing" and (chance := last_chance_note(setup)) is not None:
        return ["game end"], f"{chance}: the engine ends the game too early"
    if "@" in uci:
        return ["drop"], _drop_hint(setup, uci, side, dropping)
    frm, to = parse_square(uci[0:2]), parse_square(uci[2:4])
    board, us = setup.board, setup.turn
    piece = board[frm]
    if not piece or piece >> 3 != us:
        return None
    rule = _RULES.get(setup.variant)
    found = None if rule is None else rule(setup, frm, to, piece & 7, side)
    if uci[4:] == "k" and setup.variant in ("antichess", "giveaway"):
        return _king_promotion(setup, to, side, found)
    return found


def _king_promotion(setup, to: int, side: str, found: Note | None) -> Note:
    """Antichess's promotion to a king (standard chess's classes know no such piece): the
    rule's class where one applies (an extra quiet one beside a capture), else its own."""
    if found is not None:
        return [*found[0], "promotion to king"], found[1]
    kinds = ["capture"] * bool(setup.board[to]) + ["promotion to king"]
    if side == "missing":
        return kinds, "promotion to king missing: in antichess a pawn may promote to a king too"
    return kinds, "an illegal promotion to king"


def cannot_arise(notes: list, root_notes: list[str]) -> list:
    """``notes`` (``MoveNote``) of the moves at a start position that cannot arise because its
    game is already over (a ``root_notes`` line says "the game ended"), told so: there the
    oracles disagree (docs/variants.md, "Where the oracles disagree"). chesskit follows
    lichess's rules and lists no move; an engine that plays on, as the current Fairy-Stockfish
    does, counts the position its own way rather than having a bug."""
    ended = [note for note in root_notes if "the game ended" in note]
    if not ended:
        return notes
    for note in notes:
        if "game end" in note.kinds:
            over = note.hint.split(": the engine plays on", 1)[0]
            note.kinds = [*note.kinds, "cannot arise"]
            note.hint = (
                f"{over}, in a start position that cannot arise ({ended[0]}): chesskit follows lichess's "
                "rules and lists no move, an engine that plays on (as Fairy-Stockfish does) counts it "
                "its own way (docs/variants.md, \"Where the oracles disagree\")"
            )
    return notes


def last_chance_note(setup) -> str | None:
    """Why a node where the engine lists no move but the rules give some still goes on."""
    kings = {color: king_square(setup.board, color) for color in (WHITE, BLACK)}
    if setup.variant == "racingkings" and setup.turn == BLACK and kings[WHITE] is not None and kings[WHITE] >> 3 == 7:
        return "black's last chance: white reached the eighth rank first, black may still equal (a draw)"
    return None


def _atomic(setup, frm: int, to: int, ptype: int, side: str):
    board, us = setup.board, setup.turn
    mine, theirs = king_square(board, us), king_square(board, 1 - us)
    capture = bool(board[to]) or (ptype == PAWN and (frm & 7) != (to & 7))
    if side == "extra" and capture and ptype == KING:
        return ["capture", "king move"], "a king may not capture in atomic (it would explode itself)"
    if side == "extra" and capture and mine is not None and _near(to, mine):
        return ["capture"], (
            f"explosion radius: capturing on {square_name(to)} explodes the mover's own king on {square_name(mine)}"
        )
    if side == "missing" and ptype == KING and theirs is not None and _near(to, theirs):
        return ["king move"], "king adjacency: kings may touch in atomic (a king beside the other cannot be checked)"
    if side == "missing" and ptype == PAWN and not (capture and to == setup.ep):
        # (a missing en-passant capture is the standard class: its square, not an explosion)
        return ["pawn move"], "pawn immunity: pawns survive explosions (the engine may have lost this pawn to one)"
    if side == "extra" and capture and theirs is not None and _near(to, theirs):
        return ["capture"], "explosion radius: this capture explodes the enemy king (a win, not a move to refuse)"
    return None


def _antichess(setup, frm: int, to: int, ptype: int, side: str):
    board = setup.board
    quiet = not board[to] and not (ptype == PAWN and (frm & 7) != (to & 7))
    if side == "extra" and quiet and _can_capture(setup):
        return ["quiet move"], "forced capture: a capture is possible here, so no other move is legal (en passant counts)"
    return None


def _can_capture(setup) -> bool:
    """Whether the side to move attacks an enemy piece (or may take en passant)."""
    board, us = setup.board, setup.turn
    if any(board[sq] and board[sq] >> 3 != us and attackers(board, sq, us) for sq in range(64)):
        return True
    ep = setup.ep
    return ep is not None and any(board[sq] == piece_code(us, PAWN) for sq in attackers(board, ep, us))


def _horde(setup, frm: int, to: int, ptype: int, side: str):
    if ptype == PAWN and setup.turn == WHITE and frm >> 3 == 0 and to - frm == 16:
        if side == "missing":
            return ["double push"], "horde: a white pawn on the first rank may push two squares"
        return ["double push"], "horde: the first-rank double push needs both squares empty"
    return None


def _racing(setup, frm: int, to: int, ptype: int, side: str):
    board, us = setup.board, setup.turn
    if side != "extra":
        return None
    after = list(board)
    after[to], after[frm] = after[frm], 0
    theirs, mine = king_square(after, 1 - us), king_square(after, us)
    if theirs is not None and attackers(after, theirs, us):
        return ["check"], "racing kings: no move may give check"
    if mine is not None and attackers(after, mine, 1 - us):
        return ["king in check"], "racing kings: a move may not leave the own king attacked"
    return None


_RULES = {"atomic": _atomic, "antichess": _antichess, "giveaway": _antichess, "horde": _horde, "racingkings": _racing}


def _drop_hint(setup, uci: str, side: str, dropping: frozenset) -> str:
    board, us = setup.board, setup.turn
    ptype, to = _DROP_LETTERS.get(uci[0].upper(), 0), parse_square(uci[2:4])
    held = setup.pockets[us][ptype] if setup.pockets is not None and ptype else 0
    king = king_square(board, us)
    checkers = attackers(board, king, 1 - us) if king is not None else []
    if side == "missing":
        if uci[0].upper() in dropping:  # the pocket holds it for the engine too: the square is the question
            if ptype == PAWN:
                return (
                    f"a pawn drop on rank {to // 8 + 1} missing (the engine drops the pawn elsewhere): "
                    "only ranks 1 and 8 are closed to a dropped pawn"
                )
            where = " that blocks the check" if checkers else ""
            return (
                f"a drop of the {PIECE_NAMES[ptype]} on {square_name(to)} missing (the engine drops it "
                f"elsewhere): it may go to any empty square{where}"
            )
        if ptype == PAWN:
            return "a pawn in the pocket the engine lacks: a captured promoted piece returns as a pawn"
        return f"a drop of a {PIECE_NAMES[ptype]} from the pocket the engine did not generate"
    if ptype == PAWN and to >> 3 in (0, 7):
        return "a pawn may not be dropped on the first or last rank"
    if not held:
        name = PIECE_NAMES[ptype]
        # what the engine's pocket may have kept or gained: a captured promoted piece counts
        # as a pawn, so it explains an extra piece (the more so beside a pawn), never a pawn
        pawns = setup.pockets[us][PAWN] if setup.pockets is not None else 0
        if ptype != PAWN and pawns:
            return (
                f"drops a {name} the pocket does not hold (it holds a pawn): "
                "a captured promoted piece goes to the pocket as a pawn"
            )
        promoted = "" if ptype == PAWN else f", or a captured promoted {name} kept as itself rather than as a pawn"
        return (
            f"drops a {name} the pocket does not hold: the engine's pocket has one the position's lacks "
            f"(a drop that left it there, a capture put in the wrong pocket{promoted})"
        )
    if len(checkers) > 1:
        return "drop into double check: no drop answers two checks"
    if checkers and to not in between(checkers[0], king):
        return f"drop while in check from {square_name(checkers[0])}: it does not block the check"
    return "a drop onto an occupied square" if board[to] else "an illegal drop"
