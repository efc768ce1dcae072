#!/usr/bin/env python3
"""Bug (crazyhouse, promoted pieces): a captured promoted piece goes to the pocket as
itself, not as a pawn.

Trigger: 3rk3/8/8/8/8/8/8/3Q~K3[] b - - 0 1 (crazyhouse), depth 2: after d8d1 black may
drop a queen (Q@...) instead of a pawn.
"""

import chess
import chess.variant

import vpchelper


class Board(chess.variant.CrazyhouseBoard):
    def _push_capture(self, move, capture_square, piece_type, was_promoted):
        self.pockets[self.turn].add(piece_type)


class Adapter(vpchelper.Adapter):
    board_classes = {"crazyhouse": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
