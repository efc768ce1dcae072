"""The ``special`` source: positions steered to the cases move generators get wrong.

En passant available, illegal by a rank or diagonal pin, or evading a pawn's check (the
only evasion when the king's squares are taken); castling with attacked or blocked
squares, out of check, or with pieces beside the castling pair; Chess960 king and rook
adjacent, already on their destinations or swapping squares; promotions with captures
and checks, double checks among them; double check; a piece of every kind pinned along
ranks, files and diagonals.  Each case is built for white, checked for its feature (``FEATURES``, with chesskit's
Board), then mirrored to black half of the time (files flipped now and then).
"""

from __future__ import annotations

import random
from typing import Callable

from chesskit.board.board import Board
from chesskit.board.fen import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, square_name
from chesskit.compare.classify import pins
from chesskit.fuzz.placing import _checkers, add_ep, decorate, put, put_somewhere
from chesskit.fuzz.position import Pos, attackers, direction, distance, file_of, flip_files, mirror, piece, rank_of, ray, step
from chesskit.geometry import BISHOP_DIRS, ROOK_DIRS

def special(rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
    """One of the steered cases, for white, then mirrored half of the time."""
    name = rng.choices(list(SPECIALS), [SPECIAL_WEIGHTS[n] for n in SPECIALS])[0]
    made = SPECIALS[name](rng, c960)
    if made is None:
        return None
    pos, label = made
    if not pos.valid() or not FEATURES.get(label, lambda p: True)(pos):
        return None
    if rng.random() < 0.5:
        pos = mirror(pos)
    if rng.random() < 0.3 and not pos.castling:  # (flipping files would move the castling targets)
        flipped = flip_files(pos)
        if flipped.valid() and FEATURES.get(label, lambda p: True)(flipped):
            pos = flipped
    return pos, "special/" + label


def _sq(file: int, rank: int) -> int:
    return rank * 8 + file


def _ep_case(rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
    """White to move, black has just played f7-f5 (some file) beside a white pawn."""
    variant = rng.choice(("available", "rank-pin", "diag-pin", "evasion"))
    pos = Pos.empty(c960)
    f = rng.randrange(8)
    pushed, target, origin = _sq(f, 4), _sq(f, 5), _sq(f, 6)
    files = [x for x in (f - 1, f + 1) if 0 <= x < 8]
    capturers = [_sq(x, 4) for x in rng.sample(files, rng.randint(1, len(files)))]
    pos.board[pushed] = piece(PAWN, BLACK)
    for sq in capturers:
        pos.board[sq] = piece(PAWN, WHITE)
    pos.ep = target
    keep = {pushed, target, origin, *capturers}
    if variant == "rank-pin":
        row = [s for s in range(32, 40) if s not in keep]
        west = [s for s in row if s < min(pushed, *capturers)]
        east = [s for s in row if s > max(pushed, *capturers)]
        if not west or not east:
            return None
        king_side, pin_side = (west, east) if rng.random() < 0.5 else (east, west)
        king, pinner = rng.choice(king_side), rng.choice(pin_side)
        pos.board[king] = piece(KING, WHITE)
        pos.board[pinner] = piece(rng.choice((ROOK, QUEEN)), BLACK)
        keep |= set(range(min(king, pinner), max(king, pinner) + 1))
    elif variant == "diag-pin":
        through = rng.choice([pushed, *capturers])
        d = rng.choice(BISHOP_DIRS)
        behind = ray(through, -d[0], -d[1])
        ahead = ray(through, *d)
        if not behind or not ahead:
            return None
        king, pinner = rng.choice(behind), rng.choice(ahead)
        if target in (king, pinner) or pos.board[king] or pos.board[pinner]:
            return None
        pos.board[king] = piece(KING, WHITE)
        pos.board[pinner] = piece(rng.choice((BISHOP, QUEEN)), BLACK)
        line = [s for s in ray(king, *d) if distance(s, king) < distance(pinner, king)]
        if any(pos.board[s] for s in line if s != through):
            return None
        keep |= {king, pinner, *line}
    elif variant == "evasion":
        spots = [s for s in (_sq(f - 1, 3), _sq(f + 1, 3)) if 0 <= file_of(s) < 8 and abs(file_of(s) - f) == 1]
        spots = [s for s in spots if not pos.board[s]]
        if not spots:
            return None
        king = rng.choice(spots)
        pos.board[king] = piece(KING, WHITE)
        keep.add(king)
        if rng.random() < 0.6:  # take the king's squares away and guard the pawn: en passant is the only evasion
            if put_somewhere(pos, rng, piece(KING, BLACK), keep | _around(king), tries=30) is None:
                return None
            for s in sorted(_around(king) - {king}):
                if not pos.board[s]:
                    _attack(pos, rng, s, BLACK)
            _attack(pos, rng, pushed, BLACK)
            keep |= {s for s in range(64) if pos.board[s]}
    if pos.king(WHITE) is None:
        put_somewhere(pos, rng, piece(KING, WHITE), keep, tries=30)
    if pos.king(BLACK) is None:
        sq = put_somewhere(pos, rng, piece(KING, BLACK), keep | _around(pos.king(WHITE)), tries=30)
        if sq is None:
            return None
    decorate(pos, rng, rng.randint(0, 10), keep)
    return pos.tidy(), "ep-" + variant


def _around(sq: int | None) -> set[int]:
    if sq is None:
        return set()
    return {s for s in (step(sq, df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1)) if s is not None}


def _castle_case(rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
    """White king and rooks at home with rights; squares attacked or blocked, or check."""
    pos = Pos.empty(c960)
    if c960:
        variant = rng.choice(("adjacent", "king-home", "rook-home", "swap", "random"))
        king, rooks = _c960_arrangement(rng, variant)
    else:
        variant = "standard"
        king, rooks = 4, [sq for sq in (0, 7) if rng.random() < 0.8] or [rng.choice((0, 7))]
    pos.board[king] = piece(KING, WHITE)
    for sq in rooks:
        pos.board[sq] = piece(ROOK, WHITE)
    pos.castling = list(rooks)
    if rng.random() < 0.6:  # black at home too: the same array mirrored, with rights
        pos.board[king ^ 56] = piece(KING, BLACK)
        for sq in rooks:
            pos.board[sq ^ 56] = piece(ROOK, BLACK)
            if rng.random() < 0.7:
                pos.castling.append(sq ^ 56)
    else:
        put_somewhere(pos, rng, piece(KING, BLACK), _around(king) | set(range(8)), tries=30)
    needed = set()  # squares the king and rooks pass or land on
    for rook in rooks:
        king_to, rook_to = (6, 5) if rook > king else (2, 3)
        for a, b in ((king, king_to), (rook, rook_to)):
            needed |= set(range(min(a, b), max(a, b) + 1))
    needed -= {king, *rooks}
    outside = [s for s in range(8) if s not in needed and s != king and s not in rooks]
    trouble = rng.choice(("attacked", "blocked", "check", "beside", "none"))
    if trouble == "attacked":
        _attack(pos, rng, rng.choice(sorted(needed | {king})), BLACK)
    elif trouble == "blocked" and needed:
        put(pos, rng.choice(sorted(needed)), piece(rng.choice((KNIGHT, BISHOP, QUEEN)), rng.randrange(2)))
    elif trouble == "check":
        _attack(pos, rng, king, BLACK)
    elif trouble == "beside" and outside:  # on the back rank but out of the way: must not matter
        for sq in rng.sample(outside, rng.randint(1, len(outside))):
            put(pos, sq, piece(rng.choice((KNIGHT, BISHOP, QUEEN)), BLACK if rng.random() < 0.6 else WHITE))
    keep = {king, *rooks, *needed}
    keep |= {s ^ 56 for s in keep}
    decorate(pos, rng, rng.randint(0, 10), keep)
    return pos.tidy(), ("c960-castle-" if c960 else "castle-") + (variant + "-" if c960 else "") + trouble


def _c960_arrangement(rng: random.Random, variant: str) -> tuple[int, list[int]]:
    """White king file and castling rook files for a Chess960 castling case."""
    while True:
        king = rng.randrange(1, 7)
        west, east = rng.randrange(0, king), rng.randrange(king + 1, 8)
        if variant == "adjacent":
            if rng.random() < 0.5:
                west = king - 1
            else:
                east = king + 1
        elif variant == "king-home":
            king = rng.choice((2, 6))
            west, east = rng.randrange(0, king), rng.randrange(king + 1, 8)
        elif variant == "rook-home":
            if rng.random() < 0.5 and king < 5:
                east = 5
            elif king > 3:
                west = 3
        elif variant == "swap":  # the rook stands where the king goes, the king where the rook goes
            if rng.random() < 0.5:
                king, east, west = 5, 6, rng.randrange(0, 5)
            else:
                king, west, east = 3, 2, rng.randrange(4, 8)
        if 0 <= west < king < east < 8:
            rooks = [west, east]
            if rng.random() < 0.3:  # one right only (keeping the rook the variant is about)
                if variant == "adjacent":
                    rooks = [r for r in rooks if abs(r - king) == 1][:1]
                else:
                    rooks.remove(rng.choice(rooks))
            return king, rooks


def _attack(pos: Pos, rng: random.Random, target: int, color: int) -> bool:
    """Put a piece of ``color`` somewhere it attacks ``target``."""
    for _ in range(20):
        ptype = rng.choice((KNIGHT, BISHOP, ROOK, QUEEN, PAWN))
        sq = rng.randrange(64)
        if pos.board[sq] or sq == target:
            continue
        pos.board[sq] = piece(ptype, color)
        hits = sq in attackers(pos.board, target, color)
        pos.board[sq] = 0
        if hits and put(pos, sq, piece(ptype, color), 1):
            return True
    return False


def _promotion_case(rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
    """White pawns on the 7th with black pieces to take on the 8th, the black king nearby."""
    variant = rng.choice(("capture-check", "check", "capture", "double-check"))
    pos = Pos.empty(c960)
    files = rng.sample(range(8), rng.randint(1, 3))
    for f in files:
        pos.board[_sq(f, 6)] = piece(PAWN, WHITE)
    keep = {_sq(f, 6) for f in files}
    if variant == "double-check":
        if not _promotion_double_check(pos, rng, files[0], keep):
            return None
    if variant in ("capture-check", "capture"):
        for f in files:
            for x in (f - 1, f + 1):
                if 0 <= x < 8 and rng.random() < 0.6:
                    pos.board[_sq(x, 7)] = piece(rng.choice((KNIGHT, BISHOP, ROOK, QUEEN)), BLACK)
                    keep.add(_sq(x, 7))
    if variant in ("capture-check", "check"):
        # the black king where a piece promoted on an 8th-rank square would check it
        spots = [s for s in range(64) if not pos.board[s] and rank_of(s) >= 4 and s not in _pawn_fronts(files)]
        rng.shuffle(spots)
        for s in spots[:20]:
            if put(pos, s, piece(KING, BLACK)):
                break
    if pos.king(BLACK) is None:
        put_somewhere(pos, rng, piece(KING, BLACK), keep, tries=30)
    if pos.king(BLACK) is None or put_somewhere(pos, rng, piece(KING, WHITE), keep | _around(pos.king(BLACK)), tries=30) is None:
        return None
    decorate(pos, rng, rng.randint(0, 8), keep)
    return pos.tidy(), "promo-" + variant


def _promotion_double_check(pos: Pos, rng: random.Random, f: int, keep: set[int]) -> bool:
    """Set up a promotion capture from the f-file that checks the black king twice: the new
    piece on the 8th rank, and a white slider behind the pawn whose line the pawn leaves."""
    pawn = _sq(f, 6)
    for _ in range(30):
        x = f + rng.choice((-1, 1))
        if not 0 <= x < 8:
            continue
        target, king = _sq(x, 7), rng.randrange(32, 64)
        d = direction(king, pawn)
        if d is None or pos.board[king] or king == target or distance(king, target) < 1:
            continue
        before = [sq for sq in ray(king, *d) if distance(sq, king) < distance(pawn, king)]
        behind = ray(pawn, *d)
        if not behind or target in before or any(pos.board[sq] for sq in before):
            continue
        slider_sq = rng.choice(behind)
        if any(pos.board[sq] for sq in behind if distance(sq, pawn) < distance(slider_sq, pawn)) or pos.board[slider_sq]:
            continue
        slider = rng.choice((ROOK, QUEEN) if 0 in d else (BISHOP, QUEEN))
        trial = pos.copy()
        trial.board[target] = piece(rng.choice((KNIGHT, BISHOP, ROOK, QUEEN)), BLACK)
        trial.board[king] = piece(KING, BLACK)
        trial.board[slider_sq] = piece(slider, WHITE)
        if attackers(trial.board, king, WHITE):
            continue
        for promo in (QUEEN, ROOK, BISHOP, KNIGHT):
            after = list(trial.board)
            after[pawn], after[target] = 0, piece(promo, WHITE)
            if len(attackers(after, king, WHITE)) == 2:
                pos.board[:] = trial.board
                keep |= {pawn, target, king, slider_sq, *before, *behind}
                return True
    return False


def _promotion_double_checks(pos: Pos) -> bool:
    """A legal promotion capture gives double check (counted on a copy, with ``attackers``)."""
    board = _board(pos)
    king = pos.king(1 - pos.turn)
    for move in board.legal_moves():
        frm, to = _index(move[0:2]), _index(move[2:4])
        if len(move) == 5 and pos.board[to]:
            after = list(pos.board)
            after[frm], after[to] = 0, piece(" pnbrq".index(move[4]), pos.turn)
            if len(attackers(after, king, pos.turn)) == 2:
                return True
    return False


def _pawn_fronts(files) -> set[int]:
    return {_sq(f, 7) for f in files}


def _double_check_case(rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
    """White to move in double check: a distant slider and a second piece give check."""
    pos = Pos.empty(c960)
    king = rng.randrange(64)
    pos.board[king] = piece(KING, WHITE)
    dirs = ROOK_DIRS + BISHOP_DIRS
    d = rng.choice(dirs)
    line = ray(king, *d)
    if len(line) < 2:
        return None
    slider_sq = rng.choice(line[1:])
    slider = rng.choice((ROOK, QUEEN) if d in ROOK_DIRS else (BISHOP, QUEEN))
    pos.board[slider_sq] = piece(slider, BLACK)
    keep = {king, slider_sq, *[s for s in line if distance(s, king) < distance(slider_sq, king)]}
    second = rng.choice((KNIGHT, PAWN, BISHOP, ROOK))
    for _ in range(30):
        sq = rng.randrange(64)
        if pos.board[sq] or sq in keep:
            continue
        pos.board[sq] = piece(second, BLACK)
        checkers = attackers(pos.board, king, BLACK)
        if len(checkers) == 2 and rank_of(sq) not in (0, 7) or (second != PAWN and len(checkers) == 2):
            da, db = direction(king, slider_sq), direction(king, sq)
            if not (db is not None and da == (-db[0], -db[1])):
                keep.add(sq)
                break
        pos.board[sq] = 0
    else:
        return None
    if put_somewhere(pos, rng, piece(KING, BLACK), keep | _around(king), tries=30) is None:
        return None
    _decorate_keeping_checks(pos, rng, rng.randint(0, 10), keep)
    return pos.tidy(), "double-check"


def _decorate_keeping_checks(pos: Pos, rng: random.Random, count: int, keep: set[int]) -> None:
    for _ in range(count):
        ptype = rng.choices((PAWN, KNIGHT, BISHOP, ROOK, QUEEN), (5, 2, 2, 2, 1))[0]
        sq = put_somewhere(pos, rng, piece(ptype, rng.randrange(2)), keep, tries=4)
        if sq is not None and len(_checkers(pos)) < 2:
            pos.board[sq] = 0


PIN_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN)


def _pin_case(rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
    """White pieces pinned to the white king along ranks, files and diagonals."""
    pos = Pos.empty(c960)
    king = rng.randrange(64)
    pos.board[king] = piece(KING, WHITE)
    keep = {king}
    pinned_type = rng.choice(PIN_TYPES)
    first = None
    for d in rng.sample(ROOK_DIRS + BISHOP_DIRS, rng.randint(1, 3)):
        line = ray(king, *d)
        if len(line) < 2:
            continue
        i = rng.randrange(0, len(line) - 1)
        j = rng.randrange(i + 1, len(line))
        pinned_sq, pinner_sq = line[i], line[j]
        ptype = pinned_type if first is None else rng.choice(PIN_TYPES)
        if ptype == PAWN and rank_of(pinned_sq) in (0, 7):
            continue
        pos.board[pinned_sq] = piece(ptype, WHITE)
        pos.board[pinner_sq] = piece(rng.choice((ROOK, QUEEN) if d in ROOK_DIRS else (BISHOP, QUEEN)), BLACK)
        keep |= set(line[: j + 1])
        first = first or ptype
    if first is None:
        return None
    if put_somewhere(pos, rng, piece(KING, BLACK), keep | _around(king), tries=30) is None:
        return None
    decorate(pos, rng, rng.randint(0, 10), keep)
    if rng.random() < 0.3:
        add_ep(pos, rng)
    return pos.tidy(), "pin-" + "-pnbrq"[first]


SPECIAL_WEIGHTS = {"ep": 2, "castle": 2, "promotion": 1, "double-check": 1, "pin": 1}
SPECIALS: dict[str, Callable[[random.Random, bool], tuple[Pos, str] | None]] = {
    "ep": _ep_case,
    "castle": _castle_case,
    "promotion": _promotion_case,
    "double-check": _double_check_case,
    "pin": _pin_case,
}


# ------------------------------------------------------------------ features (checked with chesskit's Board)


def _board(pos: Pos):
    return Board(pos.fen(), chess960=pos.chess960)


def _ep_moves(pos: Pos) -> tuple[list[str], bool]:
    """(the en-passant captures chesskit lists, whether a pawn stands ready to take)."""
    if pos.ep is None:
        return [], False
    board = _board(pos)
    target = square_name(pos.ep)
    ep_moves = [m for m in board.legal_moves() if m[2:4] == target and board.piece_at(_index(m[0:2])) & 7 == PAWN]
    return ep_moves, True


def _index(name: str) -> int:
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def _has_ep(pos: Pos) -> bool:
    return bool(_ep_moves(pos)[0])


def _ep_illegal(pos: Pos) -> bool:
    moves, ready = _ep_moves(pos)
    return ready and not moves


def _ep_evades(pos: Pos) -> bool:
    return bool(_checkers(pos)) and _has_ep(pos)


def _double_check(pos: Pos) -> bool:
    return len(_checkers(pos)) == 2


def _has_pin(pos: Pos) -> bool:
    return bool(pins(pos.board, pos.turn))


def _promotes(pos: Pos) -> bool:
    return any(len(m) == 5 for m in _board(pos).legal_moves())


FEATURES: dict[str, Callable[[Pos], bool]] = {
    "ep-available": _has_ep,
    "ep-rank-pin": _ep_illegal,
    "ep-diag-pin": _ep_illegal,
    "ep-evasion": _ep_evades,
    "double-check": _double_check,
    "promo-capture-check": _promotes,
    "promo-check": _promotes,
    "promo-capture": _promotes,
    "promo-double-check": _promotion_double_checks,
}
for _name in ("pin-p", "pin-n", "pin-b", "pin-r", "pin-q"):
    FEATURES[_name] = _has_pin
