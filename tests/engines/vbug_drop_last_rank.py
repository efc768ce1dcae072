#!/usr/bin/env python3
"""Bug (crazyhouse, drops): pawns may be dropped on the first and last ranks.

Trigger: 4k3/8/8/8/8/8/8/4K3[P] w - - 0 1 (crazyhouse), depth 1: P@a1 ... P@h8 are extra.
"""

import chess

import vpchelper


class Adapter(vpchelper.Adapter):
    def generate(self):
        board = self.board
        moves = super().generate()
        if board.pockets[board.turn].count(chess.PAWN) and not board.is_check():
            for square in chess.SquareSet((chess.BB_RANK_1 | chess.BB_RANK_8) & ~board.occupied):
                moves.append(chess.Move(square, square, drop=chess.PAWN))
        return moves


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
