"""The unique positions a given number of plies below the root, with multiplicities.

perft(root, depth) = sum over the move paths of length ``split`` of perft(end, depth - split).
Many paths end in the same position (1. e4 e5 2. Nf3 and 1. Nf3 e5 2. e4), so the
positions are merged level by level and each carries its *multiplicity*, the number of
paths that reach it; a position's subtree is then counted once and weighted.

Two positions are the same when the first four FEN fields agree: placement, side to move,
castling rights and en-passant square. The Board only keeps an en-passant square that a
pawn can capture on, so a double push that allows no capture does not split a
transposition. The move clocks are left out: perft does not depend on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chesskit.board.fen import Setup, format_fen

# Estimated nodes per task (``chesskit.cluster.plan`` batches up to it): the core counts
# 150-400 million nodes a second per core.
TASK_NODES = 500_000_000

# Auto split depth: stop at the first level with at least this many unique positions...
MIN_POSITIONS = 256
# ...unless each would still hold far too much work (see ``choose_split_depth``), and
# the next level is expected to stay within this many.
MAX_POSITIONS = 10_000


# The most distinct positions a split may hold (a FEN each, about 200 bytes with its
# multiplicity): past it, --split-depth is refused rather than planning for minutes and
# gigabytes (from the start position, ply 4 has about 72,000 and ply 5 about 822,000).
MAX_SPLIT_POSITIONS = 250_000


class TooManyPositions(Exception):
    """A level would hold more than ``MAX_SPLIT_POSITIONS`` distinct positions."""

    def __init__(self, plies: int, limit: int):
        self.plies, self.limit = plies, limit
        super().__init__(f"more than {limit:,} distinct positions {plies} plies down")


@dataclass
class Level:
    """The unique positions ``plies`` below the root: key -> multiplicity, and the number
    of move paths (the sum of multiplicities, i.e. perft(root, plies)). The keys are kept,
    and each position packed (``setups``: its squares as bytes, side, castling and
    en-passant square); ``board(key)`` makes a position's Board from it when it is needed
    (a Board holds its history stack, about 50 KB), without reading a FEN again."""

    plies: int
    multiplicity: dict[str, int]
    chess960: bool = False
    setups: dict[str, tuple] = field(default_factory=dict, repr=False)

    @property
    def paths(self) -> int:
        return sum(self.multiplicity.values())

    def board(self, key: str):
        from chesskit.board.board import Board

        packed = self.setups.get(key)
        if packed is None:
            return Board(key + " 0 1", chess960=True if self.chess960 else None)
        squares, turn, castling, ep = packed
        return Board.from_setup(Setup(list(squares), turn, list(castling), ep, 0, 1, self.chess960))

    def __len__(self) -> int:
        return len(self.multiplicity)


def position_key(board) -> str:
    """The first four FEN fields: what perft below a position depends on."""
    return _key_and_setup(board)[0]


def _key_and_setup(board) -> tuple[str, tuple]:
    """``position_key`` and the position packed for ``Level.setups``, from one look at it."""
    setup = board.setup()
    key = " ".join(format_fen(setup).split()[:4])
    return key, (bytes(setup.board), setup.turn, tuple(setup.castling), setup.ep)


def root_level(board) -> Level:
    key, packed = _key_and_setup(board)
    return Level(0, {key: 1}, board.chess960, {key: packed})


def expand(level: Level, limit: int = MAX_SPLIT_POSITIONS) -> Level:
    """The next ply: every legal move of every position, transpositions merged.

    A position without moves (mate or stalemate) has no children: its paths end there,
    and they contribute nothing to any perft deeper than the level they ended on.
    Raises ``TooManyPositions`` as soon as the next ply passes ``limit`` positions.
    """
    mult: dict[str, int] = {}
    setups: dict[str, tuple] = {}
    for key, weight in level.multiplicity.items():
        board = level.board(key)
        for _ in board.each_child():
            child, packed = _key_and_setup(board)
            if child in mult:
                mult[child] += weight
            else:
                if len(mult) >= limit:
                    raise TooManyPositions(level.plies + 1, limit)
                mult[child] = weight
                setups[child] = packed
    return Level(level.plies + 1, mult, level.chess960, setups)


def split(board, plies: int, limit: int = MAX_SPLIT_POSITIONS) -> Level:
    """The unique positions ``plies`` below ``board``."""
    level = root_level(board)
    for _ in range(plies):
        level = expand(level, limit)
    return level


def choose_split_depth(board, depth: int) -> Level:
    """Split deep enough for a few hundred to a few thousand unique positions.

    Go one ply further while the level has fewer than ``MIN_POSITIONS`` positions; past
    that, only while each position would still hold more than ``big`` nodes (estimated
    with the level's branching factor) and the next level is expected to stay under
    ``MAX_POSITIONS``. Never split at or below the leaves: at most ``depth - 1``.
    """
    big = 16 * TASK_NODES
    level = root_level(board)
    previous_paths = 1
    while level.plies < depth - 1 and level:
        if len(level) >= MIN_POSITIONS:
            branching = max(level.paths / previous_paths, 1.0)
            per_position = level.paths * branching ** (depth - level.plies) / len(level)
            if per_position <= big or len(level) * branching > MAX_POSITIONS:
                break
        previous_paths = level.paths
        level = expand(level)
    return level
