#!/usr/bin/env python3
"""Bug (atomic, pawn immunity): the explosion destroys pawns beside the capture square too.

Trigger: 4k3/8/8/8/3ppp2/4n3/4P3/4K2Q w - - 0 1 (atomic), depth 2: after h1e4 the pawns on
d4 and f4 are gone in the engine's board, so black's pawn moves from them are missing.
"""

import chess
import chess.variant

import vpchelper


class Board(chess.variant.AtomicBoard):
    def _push_capture(self, move, capture_square, piece_type, was_promoted):
        super()._push_capture(move, capture_square, piece_type, was_promoted)
        for square in chess.scan_forward(chess.BB_KING_ATTACKS[move.to_square] & self.pawns):
            self._remove_piece_at(square)


class Adapter(vpchelper.Adapter):
    board_classes = {"atomic": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
