"""Where the fuzzer's positions come from: several sources mixed by one seeded ``random.Random``.

- ``play``: random legal play from the start position or a Chess960 start array, one game
  continued a few plies per position (special moves preferred now and then);
- ``placement`` (``chesskit.fuzz.placing``): kings and pieces dropped on the board, with
  unusual material on purpose: three or more queens, many knights, bishops on one square
  colour, sparse and crowded boards, kings and rooks at home with castling rights, an
  en-passant square;
- ``special`` (``chesskit.fuzz.special``): positions steered to the cases move generators
  get wrong: en passant available, illegal by a rank or diagonal pin, or the only
  evasion; castling with attacked or blocked squares or out of check; Chess960 king and
  rook adjacent, already on their destinations or swapping squares; promotions with
  captures and checks; double check; a piece of every kind pinned;
- ``mutation``: a position of the bundled suites with a few changes (a piece removed,
  moved or added, the colours or files flipped, the other side to move, random moves).

Every yielded position passes ``Pos.valid()``: chesskit reads it and it looks reachable in
a game.  The same seed and options give the same positions in the same order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator

from chesskit.board.board import Board
from chesskit.board.fen import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, parse_square
from chesskit.errors import InputError
from chesskit.suites.runner import load_suites
from chesskit.fuzz.placing import decorate, placement
from chesskit.fuzz.position import Pos, file_of, flip_files, mirror, piece
from chesskit.fuzz.special import special

STANDARD_BACK_RANK = "RNBQKBNR"

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
    try:
        return [(record.fen, record.chess960) for record in load_suites()]
    except InputError:
        return []


def _is_special(board, uci: str) -> bool:
    """A capture, castle, en passant or promotion in ``board`` (a chesskit Board)."""
    frm, to = parse_square(uci[0:2]), parse_square(uci[2:4])
    mover, target = board.piece_at(frm), board.piece_at(to)
    if len(uci) == 5 or target:
        return True
    if mover & 7 == KING and abs(file_of(frm) - file_of(to)) > 1:
        return True
    return mover & 7 == PAWN and file_of(frm) != file_of(to)


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
