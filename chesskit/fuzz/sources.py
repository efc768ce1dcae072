"""Where the fuzzer's positions come from: several sources mixed by one seeded ``random.Random``.

- ``play``: random legal play from the start position or a Chess960 start array, one game
  continued a few plies per position (special moves preferred now and then);
- ``placement``: kings and pieces dropped on the board, with unusual material on purpose:
  three or more queens, many knights, bishops on one square colour, sparse and crowded
  boards, kings and rooks at home with castling rights, an en-passant square;
- ``special``: positions steered to the cases move generators get wrong: en passant
  available, illegal by a rank or diagonal pin, or evading a pawn's check; castling with
  attacked or blocked squares or out of check; Chess960 king and rook adjacent, already on
  their destinations or swapping squares; promotions with captures and checks; double
  check; a piece of every kind pinned along ranks, files and diagonals;
- ``mutation``: a position of the bundled suites with a few changes (a piece removed,
  moved or added, the colours or files flipped, the other side to move, random moves).

Every yielded position passes ``Pos.valid()``: chesskit reads it and it looks reachable in
a game.  The same seed and options give the same positions in the same order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator

from chesskit.board.fen import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
from chesskit.errors import InputError
from chesskit.fuzz.position import (
    Pos,
    attackers,
    direction,
    distance,
    file_of,
    flip_files,
    mirror,
    piece,
    rank_of,
    ray,
    step,
)

STANDARD_BACK_RANK = "RNBQKBNR"
ROOK_DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))
BISHOP_DIRS = ((1, 1), (-1, 1), (-1, -1), (1, -1))

# how often each source is picked (the special cases are where the bugs are)
WEIGHTS = {"play": 3, "placement": 3, "special": 4, "mutation": 2}
CHESS960_SHARE = 0.3  # of the positions when both variants are in the mix
MAX_TRIES = 200  # attempts per position before a source gives up and another is drawn


@dataclass(frozen=True)
class Generated:
    """One position to try: the FEN, the variant, and which source made it (``special/ep-pin``)."""

    fen: str
    chess960: bool
    source: str


def chess960_back_rank(number: int) -> str:
    """The back rank of Chess960 start array ``number`` (Scharnagl numbering, 0..959); 518 is RNBQKBNR."""
    if not 0 <= number < 960:
        raise ValueError(f"start array {number} is outside 0..959")
    rank: list[str | None] = [None] * 8
    number, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    number, dark = divmod(number, 4)
    rank[2 * dark] = "B"
    number, queen = divmod(number, 6)
    _nth_empty(rank, queen, "Q")
    first, second = _KNIGHT_PAIRS[number]
    _nth_empty(rank, second, "N")  # the second first, so the first index is unchanged
    _nth_empty(rank, first, "N")
    for letter in "RKR":
        _nth_empty(rank, 0, letter)
    return "".join(rank)


_KNIGHT_PAIRS = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]


def _nth_empty(rank: list, n: int, letter: str) -> None:
    empties = [i for i, x in enumerate(rank) if x is None]
    rank[empties[n]] = letter


def start_position(rng: random.Random, chess960: bool) -> Pos:
    """The start position, or a random Chess960 start array with every castling right."""
    back = chess960_back_rank(rng.randrange(960)) if chess960 else STANDARD_BACK_RANK
    pos = Pos.empty(chess960)
    codes = {"R": ROOK, "N": KNIGHT, "B": BISHOP, "Q": QUEEN, "K": KING}
    for f, letter in enumerate(back):
        pos.board[f] = piece(codes[letter], WHITE)
        pos.board[56 + f] = piece(codes[letter], BLACK)
        pos.board[8 + f] = piece(PAWN, WHITE)
        pos.board[48 + f] = piece(PAWN, BLACK)
    pos.castling = [f for f, x in enumerate(back) if x == "R"] + [56 + f for f, x in enumerate(back) if x == "R"]
    return pos


# ------------------------------------------------------------------ the mix


class PositionStream:
    """An endless, reproducible stream of ``Generated`` positions.

    ``chess960``: None mixes standard chess and Chess960, True gives only Chess960
    positions, False only standard ones.  ``suite_fens`` (``[(fen, chess960)]``) are the
    positions the mutation source starts from (default: the bundled suites).
    """

    def __init__(self, seed: int, chess960: bool | None = None, suite_fens: list[tuple[str, bool]] | None = None):
        self.rng = random.Random(seed)
        self.chess960 = chess960
        self._suite = suite_fens
        self._games: dict[bool, object] = {}
        self._seen: set[str] = set()
        self._sources: dict[str, Callable[[random.Random, bool], tuple[Pos, str] | None]] = {
            "play": self._play,
            "placement": placement,
            "special": special,
            "mutation": self._mutation,
        }

    def __iter__(self) -> Iterator[Generated]:
        while True:
            yield self.next()

    def next(self) -> Generated:
        rng = self.rng
        names, weights = list(WEIGHTS), list(WEIGHTS.values())
        while True:
            name = rng.choices(names, weights)[0]
            c960 = self.chess960 if self.chess960 is not None else rng.random() < CHESS960_SHARE
            made = None
            for _ in range(MAX_TRIES):
                made = self._sources[name](rng, c960)
                if made is not None and made[0].valid():
                    break
                made = None
            if made is None:
                continue
            pos, label = made
            fen = pos.fen()
            key = " ".join(fen.split()[:4]) + (" 960" if pos.chess960 else "")
            if key in self._seen:
                continue
            self._seen.add(key)
            return Generated(fen, pos.chess960, label)

    # -- random play -----------------------------------------------------------

    def _play(self, rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
        from chesskit.board.board import Board

        game = self._games.get(c960)
        if game is None or len(game.move_stack) > 160:
            game = self._games[c960] = Board(start_position(rng, c960).fen(), chess960=c960)
        for _ in range(rng.randint(1, 6)):
            moves = game.legal_moves()
            if not moves:
                self._games.pop(c960)
                return None
            special_moves = [m for m in moves if _is_special(game, m)]
            pick = special_moves if special_moves and rng.random() < 0.4 else moves
            game.push(rng.choice(pick))
        return Pos.from_fen(game.fen(), chess960=c960), "play960" if c960 else "play"

    # -- mutations of suite positions --------------------------------------------

    def _mutation(self, rng: random.Random, c960: bool) -> tuple[Pos, str] | None:
        if self._suite is None:
            self._suite = bundled_suite_fens()
        pool = [fen for fen, is960 in self._suite if is960 == c960] or [fen for fen, _ in self._suite]
        if not pool:
            return None
        pos = Pos.from_fen(rng.choice(pool), chess960=c960)
        pos.chess960 = c960
        done = []
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(list(MUTATIONS))
            MUTATIONS[name](pos, rng)
            done.append(name)
        pos.tidy()
        return pos, "mutation/" + "+".join(done)


def bundled_suite_fens() -> list[tuple[str, bool]]:
    """``(fen, chess960)`` of every position in the bundled suites (empty if they cannot be read)."""
    from chesskit.suites.runner import load_suites

    try:
        return [(record.fen, record.chess960) for record in load_suites()]
    except InputError:
        return []


def _is_special(board, uci: str) -> bool:
    """A capture, castle, en passant or promotion in ``board`` (a chesskit Board)."""
    from chesskit.board.fen import parse_square

    frm, to = parse_square(uci[0:2]), parse_square(uci[2:4])
    mover, target = board.piece_at(frm), board.piece_at(to)
    if len(uci) == 5 or target:
        return True
    if mover & 7 == KING and abs(file_of(frm) - file_of(to)) > 1:
        return True
    return mover & 7 == PAWN and file_of(frm) != file_of(to)


# ------------------------------------------------------------------ placing pieces


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


# ------------------------------------------------------------------ special cases


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
    variant = rng.choice(("capture-check", "check", "capture"))
    pos = Pos.empty(c960)
    files = rng.sample(range(8), rng.randint(1, 3))
    for f in files:
        pos.board[_sq(f, 6)] = piece(PAWN, WHITE)
    keep = {_sq(f, 6) for f in files}
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
    from chesskit.board.board import Board

    return Board(pos.fen(), chess960=pos.chess960)


def _ep_moves(pos: Pos) -> tuple[list[str], bool]:
    """(the en-passant captures chesskit lists, whether a pawn stands ready to take)."""
    if pos.ep is None:
        return [], False
    from chesskit.board.fen import square_name

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
    from chesskit.compare.classify import pins

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
}
for _name in ("pin-p", "pin-n", "pin-b", "pin-r", "pin-q"):
    FEATURES[_name] = _has_pin


# ------------------------------------------------------------------ mutations


def _remove(pos: Pos, rng: random.Random) -> None:
    squares = pos.pieces()
    if squares:
        pos.board[rng.choice(squares)] = 0


def _move(pos: Pos, rng: random.Random) -> None:
    squares = [sq for sq in range(64) if pos.board[sq]]
    frm = rng.choice(squares)
    empty = [sq for sq in range(64) if not pos.board[sq]]
    to = rng.choice(empty)
    pos.board[to], pos.board[frm] = pos.board[frm], 0


def _add(pos: Pos, rng: random.Random) -> None:
    decorate(pos, rng, 1)


def _other_side(pos: Pos, rng: random.Random) -> None:
    pos.turn = 1 - pos.turn
    pos.ep = None


def _mirror(pos: Pos, rng: random.Random) -> None:
    flipped = mirror(pos)
    pos.__dict__.update(flipped.__dict__)


def _flip(pos: Pos, rng: random.Random) -> None:
    flipped = flip_files(pos)
    pos.__dict__.update(flipped.__dict__)


def _drop_right(pos: Pos, rng: random.Random) -> None:
    if pos.castling:
        pos.castling.remove(rng.choice(pos.castling))


def _play_moves(pos: Pos, rng: random.Random) -> None:
    from chesskit.board.board import Board

    pos.tidy()
    if not pos.valid():
        return
    board = Board(pos.fen(), chess960=pos.chess960)
    for _ in range(rng.randint(1, 4)):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
    played = Pos.from_fen(board.fen(), chess960=pos.chess960)
    pos.__dict__.update(played.__dict__)


MUTATIONS: dict[str, Callable[[Pos, random.Random], None]] = {
    "remove": _remove,
    "move": _move,
    "add": _add,
    "side": _other_side,
    "mirror": _mirror,
    "flip": _flip,
    "rights": _drop_right,
    "play": _play_moves,
}
