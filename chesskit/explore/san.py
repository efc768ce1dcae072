"""Standard algebraic notation (SAN) of a legal UCI move, for the explorer's breadcrumb and rows.

    piece letter (none for a pawn), the from-file and/or rank only where another piece
    of that kind reaches the same square, ``x`` for a capture (a pawn names its file:
    ``exd6``, en passant too), the target square, ``=Q`` for a promotion, and ``+`` /
    ``#`` for check / mate; castling is ``O-O`` / ``O-O-O`` in both notations (``e1g1``
    and Chess960's king-takes-rook ``e1h1``). A crazyhouse drop is ``N@f3``, a pawn's
    ``@e4`` (as python-chess writes them; ``P@e4`` is read too).

Works through ``Board``'s public API only (``piece_at``, ``legal_moves``, ``push``/``pop``,
``is_check``) on a copy, so the board given is left as it was.
"""

from __future__ import annotations

import re

from chesskit.vocab import KING, PAWN, PIECE_LETTERS, parse_square


def is_drop(uci: str) -> bool:
    """A crazyhouse drop, ``N@f3``."""
    return uci[1:2] == "@"


def is_castle(board, uci: str) -> bool:
    """A king move onto its own rook (Chess960 UCI) or two files sideways (standard UCI)."""
    if is_drop(uci):
        return False
    frm, to = parse_square(uci[:2]), parse_square(uci[2:4])
    piece = board.piece_at(frm)
    if piece & 7 != KING:
        return False
    target = board.piece_at(to)
    onto_own_rook = target and target >> 3 == piece >> 3
    return bool(onto_own_rook) or abs((to & 7) - (frm & 7)) == 2


def san(board, uci: str, legal: list[str] | None = None) -> str:
    """The SAN of the legal move ``uci`` on ``board`` (``legal``: its legal moves, if known)."""
    legal = board.legal_moves() if legal is None else legal
    if is_drop(uci):
        return ("" if uci[0].upper() == "P" else uci[0].upper()) + uci[1:] + _check_mark(board, uci)
    frm, to = parse_square(uci[:2]), parse_square(uci[2:4])
    piece = board.piece_at(frm)
    ptype = piece & 7
    if is_castle(board, uci):
        text = "O-O" if (to & 7) > (frm & 7) else "O-O-O"
    elif ptype == PAWN:
        capture = (to & 7) != (frm & 7)  # a pawn changes file only by capturing (en passant too)
        text = (f"{uci[0]}x" if capture else "") + uci[2:4]
        if len(uci) == 5:
            text += "=" + uci[4].upper()
    else:
        capture = board.piece_at(to) != 0
        text = PIECE_LETTERS[ptype].upper() + _disambiguation(board, uci, legal)
        text += ("x" if capture else "") + uci[2:4]
    return text + _check_mark(board, uci)


def _disambiguation(board, uci: str, legal: list[str]) -> str:
    """The from-file, else the from-rank, else both, when another piece of the same kind
    can also move to the target square."""
    frm = parse_square(uci[:2])
    piece = board.piece_at(frm)
    rivals = [
        m[:2]
        for m in legal
        if m[2:4] == uci[2:4] and m[:2] != uci[:2] and not is_drop(m) and board.piece_at(parse_square(m[:2])) == piece
        and not is_castle(board, m)
    ]
    if not rivals:
        return ""
    if all(r[0] != uci[0] for r in rivals):
        return uci[0]
    if all(r[1] != uci[1] for r in rivals):
        return uci[1]
    return uci[:2]


def _check_mark(board, uci: str) -> str:
    child = board.copy()
    child.push(uci)
    if not child.is_check():
        return ""
    return "+" if child.legal_moves() else "#"


def move_label(board, uci: str) -> str:
    """``12. Nf3`` or ``12... Nf6``: the move number from the FEN, then the SAN."""
    fields = board.fen().split()
    number, white = fields[5], fields[1] == "w"
    return f"{number}{'.' if white else '...'} {san(board, uci)}"


def path_labels(board, path: list[str]) -> list[tuple[str, str]]:
    """``(numbered SAN, UCI)`` for each move of ``path`` played from ``board`` (left as it was)."""
    walk = board.copy()
    labels = []
    for uci in path:
        labels.append((move_label(walk, uci), uci))
        walk.push(uci)
    return labels



def find_move(board, text: str, legal: list[str] | None = None) -> str | None:
    """The legal UCI move that ``text`` names, in UCI (either castling notation), SAN or long algebraic
    (check marks and ``0-0`` accepted); None when no legal move matches. A drop's lower-case
    letter of the other side's piece is an IllegalMoveError (``Board.drop_uci``)."""
    legal = board.legal_moves() if legal is None else legal
    text = text.strip()
    if text.lower() in legal and not (text[:1].isupper() and text[:1] in "NBRQK"):  # B1a3 is a bishop's, not b1a3
        return text.lower()
    if "@" in text:  # a drop: N@f3, P@e4 or @e4, n@f5 with black to move (check marks accepted)
        drop = text.rstrip("+#!?")
        drop = "P" + drop if drop.startswith("@") else board.drop_uci(drop[:1] + drop[1:].lower())
        return drop if drop in legal else None
    if len(text) == 4 and text[:2] in {m[:2] for m in legal}:
        for move in legal:  # a castle in the other UCI notation (e1g1 / e1h1)
            if move[:2] == text[:2] and is_castle(board, move) and _castle_targets(board, move) & {text[2:4]}:
                return move
    wanted = text.rstrip("+#!?").replace("0", "O")
    long = _LONG.fullmatch(wanted)
    if long:  # long algebraic, as engines print it: e2-e4, Ng1-f3, e7xd8=Q
        return _long_move(board, long, legal)
    for move in legal:
        if move[2:4] not in wanted and not wanted.startswith("O-O"):
            continue  # SAN names the target square (all but castles): only those are written out
        if san(board, move, legal).rstrip("+#") == wanted:
            return move
    named = loose_moves(board, text, legal)
    return named[0] if len(named) == 1 else None


# SAN as PGNs and engine logs also write it: more of the from square than needed (``Nge2``,
# ``N1e2``, ``Ng1e2``), a promotion without ``=`` (``a8Q``, as the FIDE Laws write it)
_LOOSE = re.compile(r"(?P<piece>[NBRQK])?(?P<file>[a-h])?(?P<rank>[1-8])?[x:]?(?P<to>[a-h][1-8])(?:=?(?P<promo>[NBRQnbrq]))?")


def loose_moves(board, text: str, legal: list[str]) -> list[str]:
    """The legal moves that ``text`` read as loose SAN names (its piece, the part of its
    from square given, its target and promotion): one for a move ``find_move`` reads,
    two or more for an ambiguous one (``R8d8`` with rooks on b8 and e8)."""
    found = _LOOSE.fullmatch(text.strip().rstrip("+#!?"))
    if found is None:
        return []
    promo = (found["promo"] or "").lower()
    named = []
    for move in legal:
        if move[2:4] != found["to"] or move[4:] != promo:
            continue
        if found["file"] and move[0] != found["file"] or found["rank"] and move[1] != found["rank"]:
            continue
        piece = _piece_letter(board, move, legal)
        if piece == (found["piece"] or "") and (piece or move[0] == move[2] or found["file"]):
            named.append(move)  # a pawn's capture names its file: ``d5`` is a push, never ``exd5``
    return named


# long algebraic: the from square written whole, then `-`, `x` or `:` (``Ng1-f3``, ``e7xd8=Q``)
_LONG = re.compile(r"(?P<piece>[NBRQK])?(?P<frm>[a-h][1-8])[-x:](?P<to>[a-h][1-8])(?:=?(?P<promo>[NBRQnbrq]))?")


def _long_move(board, found: re.Match, legal: list[str]) -> str | None:
    """The legal move a long algebraic match names, its piece letter (none for a pawn)
    the piece on its from square; None otherwise."""
    move = found["frm"] + found["to"] + (found["promo"] or "").lower()
    if move not in legal:
        return None
    return move if (found["piece"] or "") == _piece_letter(board, move, legal) else None


def _piece_letter(board, move: str, legal: list[str]) -> str:
    """The SAN letter of the piece that makes the legal ``move``: ``K`` for a castle, ``""``
    for a pawn."""
    written = san(board, move, legal)
    return "K" if written.startswith("O") else written[0] if written[0] in "NBRQK" else ""


def _castle_targets(board, uci: str) -> set[str]:
    """The squares a castle may be written to: the king's (g- or c-file) and its rook's."""
    rank, kingside = uci[1], uci[2] > uci[0]
    if board.chess960:  # the move takes the rook; the king lands on the g- or c-file
        return {uci[2:4], ("g" if kingside else "c") + rank}
    return {uci[2:4], ("h" if kingside else "a") + rank}  # standard chess: the corner rooks
