#!/usr/bin/env python3
"""Bug: a queen list sized for two queens per side (fuzz target; the bundled suites pass).

Like a hand-sized piece list that overflows when promotions add pieces, the engine
keeps only the first two queens of the side to move (in square order a1..h8); the
moves of a third or later queen are never generated.  Positions with three queens of
one colour do not occur in the bundled suites of positions that can arise in a game
(standard, special, chess960) within the depths the tests run; only impossible.epd's
24-queen board (too-many-pieces-271-moves) shows it.

Trigger: 4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1, depth 1 (every move of the queen on c1 is missing).
"""

import chess

import pchelper

QUEEN_LIST_SIZE = 2


class Adapter(pchelper.Adapter):
    def generate(self):
        moves = super().generate()
        queens = sorted(self.board.pieces(chess.QUEEN, self.board.turn))
        if len(queens) <= QUEEN_LIST_SIZE:
            return moves
        lost = set(queens[QUEEN_LIST_SIZE:])
        return [move for move in moves if move.from_square not in lost]


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
