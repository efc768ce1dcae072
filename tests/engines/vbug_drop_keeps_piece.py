#!/usr/bin/env python3
"""Bug (crazyhouse, pockets): a drop leaves its piece in the pocket as well (the pocket
drifts: fen() shows one piece too many after every drop).

Trigger: 4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 (crazyhouse), depth 1: after N@a1 the engine's
fen() still shows the knight in White's pocket.
"""

import chess
import chess.variant

import vpchelper


class Board(chess.variant.CrazyhouseBoard):
    def push(self, move):
        super().push(move)
        if move.drop:
            self.pockets[not self.turn].add(move.drop)


class Adapter(vpchelper.Adapter):
    board_classes = {"crazyhouse": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
