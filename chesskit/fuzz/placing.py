"""Putting pieces on a ``Pos`` without making it unreachable, and the ``placement`` source.

``put`` keeps every placement quiet (the side not to move never in check, the side to
move checked by at most one piece unless a generator wants two) and the material
possible (no more promoted pieces than missing pawns).  ``placement`` drops kings and
pieces at random with the material of one of ``PROFILES``: sparse and crowded boards,
three or more queens, many knights, bishops on one square colour, kings and rooks at
home with castling rights; sometimes an en-passant square.
"""

from __future__ import annotations

import random

from chesskit.board.fen import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
from chesskit.fuzz.position import Pos, attackers, distance, file_of, piece, rank_of, step

def material_ok(board: list[int], color: int) -> bool:
    """At most 8 pawns and 16 pieces, and no more promoted pieces than missing pawns."""
    count = [board.count(piece(t, color)) for t in range(7)]
    light = sum(1 for sq in range(64) if board[sq] == piece(BISHOP, color) and (sq + (sq >> 3)) % 2)
    dark = count[BISHOP] - light
    promoted = (max(0, count[QUEEN] - 1) + max(0, count[ROOK] - 2) + max(0, count[KNIGHT] - 2)
                + max(0, light - 1) + max(0, dark - 1))
    return count[PAWN] <= 8 and sum(count[PAWN:]) <= 16 and promoted <= 8 - count[PAWN]


def _checkers(pos: Pos) -> list[int]:
    king = pos.king(pos.turn)
    return attackers(pos.board, king, 1 - pos.turn) if king is not None else []


def _quiet(pos: Pos, max_checkers: int) -> bool:
    """The side not to move is not in check and the side to move has at most ``max_checkers``."""
    them = pos.king(1 - pos.turn)
    if them is not None and attackers(pos.board, them, pos.turn):
        return False
    return len(_checkers(pos)) <= max_checkers


def put(pos: Pos, sq: int, code: int, max_checkers: int = 1) -> bool:
    """Place ``code`` on the empty ``sq`` if the position stays quiet and the material possible."""
    if pos.board[sq] or (code & 7 == PAWN and rank_of(sq) in (0, 7)):
        return False
    pos.board[sq] = code
    if _quiet(pos, max_checkers) and material_ok(pos.board, code >> 3):
        return True
    pos.board[sq] = 0
    return False


def put_somewhere(pos: Pos, rng: random.Random, code: int, avoid=(), squares=None, tries: int = 12) -> int | None:
    """Place ``code`` on a random allowed square; the square, or None after ``tries`` misses."""
    keep = max(1, len(_checkers(pos)))
    choices = [sq for sq in (range(64) if squares is None else squares) if sq not in avoid and not pos.board[sq]]
    for _ in range(tries):
        if not choices:
            return None
        sq = rng.choice(choices)
        if put(pos, sq, code, keep):
            return sq
        choices.remove(sq)
    return None


def decorate(pos: Pos, rng: random.Random, count: int, avoid=()) -> None:
    """Add up to ``count`` random pieces of both colours away from the ``avoid`` squares."""
    for _ in range(count):
        ptype = rng.choices((PAWN, KNIGHT, BISHOP, ROOK, QUEEN), (5, 2, 2, 2, 1))[0]
        put_somewhere(pos, rng, piece(ptype, rng.randrange(2)), avoid, tries=4)


def place_kings(pos: Pos, rng: random.Random, home: bool = False) -> None:
    """Both kings on random squares apart (on their back ranks when ``home``)."""
    while True:
        if home:
            files = (rng.randrange(1, 7), rng.randrange(1, 7)) if pos.chess960 else (4, 4)
            w, b = files[0], 56 + files[1]
        else:
            w, b = rng.randrange(64), rng.randrange(64)
        if distance(w, b) > 1:
            pos.board[w], pos.board[b] = piece(KING, WHITE), piece(KING, BLACK)
            return


def add_castling(pos: Pos, rng: random.Random, share: float = 0.8) -> None:
    """Give castling rights to rooks that can have them (each with probability ``share``)."""
    for color in (WHITE, BLACK):
        king = pos.king(color)
        back = 0 if color == WHITE else 56
        if king is None or rank_of(king) != rank_of(back):
            continue
        rook = piece(ROOK, color)
        for side in (range(back, king), range(king + 1, back + 8)):
            rooks = [sq for sq in side if pos.board[sq] == rook]
            if not pos.chess960:
                rooks = [sq for sq in rooks if file_of(sq) in (0, 7) and file_of(king) == 4]
            if rooks and rng.random() < share:
                pos.castling.append(rng.choice(rooks))
    pos.tidy()


def add_ep(pos: Pos, rng: random.Random, capturer: float = 0.7) -> bool:
    """Set an en-passant square behind a pawn of the side not to move that could have just
    double-pushed; often also put a capturing pawn beside it."""
    them, us = 1 - pos.turn, pos.turn
    rank = 4 if them == BLACK else 3
    back = 8 if them == BLACK else -8  # from the pushed pawn towards the square it came from
    pawns = [
        sq for sq in range(rank * 8, rank * 8 + 8)
        if pos.board[sq] == piece(PAWN, them) and not pos.board[sq + back] and not pos.board[sq + 2 * back]
    ]
    if not pawns:  # put one there: a pawn that has just made its double step
        free = [
            sq for sq in range(rank * 8, rank * 8 + 8)
            if not pos.board[sq] and not pos.board[sq + back] and not pos.board[sq + 2 * back]
        ]
        rng.shuffle(free)
        pawns = next(([sq] for sq in free[:4] if put(pos, sq, piece(PAWN, them))), [])
        if not pawns:
            return False
    sq = rng.choice(pawns)
    pos.ep = sq + back
    if rng.random() < capturer:
        beside = [s for s in (step(sq, -1, 0), step(sq, 1, 0)) if s is not None and not pos.board[s]]
        if beside:
            put(pos, rng.choice(beside), piece(PAWN, us))
    return True


# ------------------------------------------------------------------ placement


PROFILES = ("sparse", "crowded", "queens", "knights", "bishops", "mixed", "castling")


def placement(rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
    """Kings and pieces dropped at random, with the material of one of ``PROFILES``."""
    profile = rng.choice(PROFILES)
    pos = Pos.empty(c960)
    pos.turn = rng.randrange(2)
    place_kings(pos, rng, home=profile == "castling" or rng.random() < 0.15)
    side = rng.randrange(2)
    if profile == "queens":
        for _ in range(rng.randint(3, 5)):
            put_somewhere(pos, rng, piece(QUEEN, side))
        extra = rng.randint(0, 8)
    elif profile == "knights":
        for _ in range(rng.randint(3, 6)):
            put_somewhere(pos, rng, piece(KNIGHT, side))
        extra = rng.randint(0, 8)
    elif profile == "bishops":
        parity = rng.randrange(2)
        same = [sq for sq in range(64) if (sq + (sq >> 3)) % 2 == parity]
        for _ in range(rng.randint(2, 3)):
            put_somewhere(pos, rng, piece(BISHOP, side), squares=same)
        extra = rng.randint(0, 8)
    elif profile == "castling":
        for color in (WHITE, BLACK):
            king, back = pos.king(color), 0 if color == WHITE else 56
            if pos.chess960:
                west = list(range(back, king))
                east = list(range(king + 1, back + 8))
                targets = ([rng.choice(west)] if west else []) + ([rng.choice(east)] if east else [])
            else:
                targets = [back, back + 7]
            for sq in targets:
                if rng.random() < 0.85:
                    put(pos, sq, piece(ROOK, color))
        extra = rng.randint(0, 12)
    elif profile == "sparse":
        extra = rng.randint(0, 4)
    elif profile == "crowded":
        extra = rng.randint(18, 28)
    else:
        extra = rng.randint(4, 16)
    decorate(pos, rng, extra)
    add_castling(pos, rng, 0.8 if profile == "castling" else 0.5)
    if rng.random() < 0.35:
        add_ep(pos, rng)
    return pos.tidy(), "placement/" + profile
