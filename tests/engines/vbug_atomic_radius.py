#!/usr/bin/env python3
"""Bug (atomic, explosion radius): the explosion spares the diagonal neighbours of the
capture square (only the four orthogonal ones are destroyed).

Trigger: 8/8/8/2k5/1b6/8/8/1R2K3 w - - 0 1 (atomic), depth 2: b1b4 does not explode the
king on c5 (diagonal to b4), so the engine's game goes on after it.
"""

import chess
import chess.variant

import vpchelper

ORTHOGONAL = [chess.BB_EMPTY] * 64
for _sq in chess.SQUARES:
    for _other in chess.SQUARES:
        if chess.square_distance(_sq, _other) == 1 and chess.square_manhattan_distance(_sq, _other) == 1:
            ORTHOGONAL[_sq] |= chess.BB_SQUARES[_other]


class Board(chess.variant.AtomicBoard):
    def _push_capture(self, move, capture_square, piece_type, was_promoted):
        saved = chess.BB_KING_ATTACKS
        chess.BB_KING_ATTACKS = ORTHOGONAL
        try:
            super()._push_capture(move, capture_square, piece_type, was_promoted)
        finally:
            chess.BB_KING_ATTACKS = saved


class Adapter(vpchelper.Adapter):
    board_classes = {"atomic": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
