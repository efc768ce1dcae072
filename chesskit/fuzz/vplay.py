"""Positions of a variant for ``fuzz --variant``: seeded random play in the variant.

The standard sources (placements, special cases, mutations of the bundled suites) build
standard positions; a variant's positions come from playing it: a game starts from the
variant's start position (for a 960 form, a Chess960 start array with the variant's
other fields), plays one to six random legal moves per position (a move that captures,
drops or promotes, in racing kings a king's step up the board, is preferred now and then,
so that the variant's special cases come up), and starts again when its game is over or long. Each position is given
once.
"""

from __future__ import annotations

import random
from typing import Iterator

from chesskit.board.board import Board
from chesskit.fuzz.sources import STANDARD_BACK_RANK, Generated, start_position
from chesskit.variants import get
from chesskit.vocab import KING, parse_square

MAX_PLIES = 160
SPECIAL_SHARE = 0.4


def variant_start(variant: str, rng: random.Random, chess960: bool) -> str:
    """The variant's start FEN; for a 960 form, a random Chess960 array in place of each
    side's standard back rank (both sides' in atomic, crazyhouse, ...; black's alone in
    horde, whose white side is its pawns), with that side's castling rights."""
    start = get(variant).start_fen
    if not chess960:
        return start
    placement, side, castling, *rest = start.split(" ")
    array, _, shuffled_castling, *_ = start_position(rng, True).fen().split(" ")
    board, bracket, pockets = placement.partition("[")
    ranks, shuffled = board.split("/"), array.split("/")
    sides = ""
    for at, standard, rights in ((0, STANDARD_BACK_RANK.lower(), str.islower), (7, STANDARD_BACK_RANK, str.isupper)):
        if ranks[at] == standard:
            ranks[at] = shuffled[at]
            sides += "".join(c for c in shuffled_castling if rights(c))
    castling = "".join(sorted(sides, key=str.islower)) or "-"  # white's first, as FEN writes them
    return " ".join(["/".join(ranks) + bracket + pockets, side, castling, *rest])


def _lively(game: Board, moves: list[str], variant: str) -> list[str]:
    """The moves that make the variant's special cases come up: captures, drops and
    promotions; in racing kings, king steps up the board (toward the finish)."""
    occupied = game.setup().board
    if variant == "racingkings":
        return [m for m in moves if occupied[parse_square(m[:2])] & 7 == KING and m[3] > m[1]]
    return [m for m in moves if "@" in m or len(m) == 5 or occupied[parse_square(m[2:4])]]


class VariantStream:
    """An endless, reproducible stream of ``Generated`` positions of one variant."""

    def __init__(self, seed: int, variant: str, chess960: bool = False):
        self.rng = random.Random(seed)
        self.variant = variant
        self.chess960 = chess960
        self._game: Board | None = None
        self._seen: set[str] = set()

    def __iter__(self) -> Iterator[Generated]:
        while True:
            yield self.next()

    def next(self) -> Generated:
        while True:
            fen = self._play()
            if fen is None:
                continue
            key = " ".join(fen.split()[:-2])  # without the clocks
            if key in self._seen:
                continue
            self._seen.add(key)
            return Generated(fen, self.chess960, f"play/{self.variant}{'960' if self.chess960 else ''}")

    def _play(self) -> str | None:
        rng, game = self.rng, self._game
        if game is None or len(game.move_stack) > MAX_PLIES:
            fen = variant_start(self.variant, rng, self.chess960)
            game = self._game = Board(fen, chess960=self.chess960 or None, variant=self.variant)
        for _ in range(rng.randint(1, 6)):
            moves = game.legal_moves()
            if not moves:
                self._game = None
                return None
            lively = _lively(game, moves, self.variant)
            game.push(rng.choice(lively if lively and rng.random() < SPECIAL_SHARE else moves))
        if not game.legal_moves():  # the game is over: nothing to compare below it
            self._game = None
            return None
        return game.fen()
