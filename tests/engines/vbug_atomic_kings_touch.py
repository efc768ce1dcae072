#!/usr/bin/env python3
"""Bug (atomic, king adjacency): a king may not step next to the enemy king, as in
standard chess (in atomic it may: touching kings cannot be captured or checked).

Trigger: 8/8/8/3k4/8/4K3/8/8 w - - 0 1 (atomic), depth 1: e3d4 and e3e4 are missing.
"""

import chess

import vpchelper


class Adapter(vpchelper.Adapter):
    def generate(self):
        board = self.board
        enemy = board.king(not board.turn)
        moves = super().generate()
        if enemy is None:
            return moves
        return [
            m for m in moves
            if not (board.piece_type_at(m.from_square) == chess.KING and chess.square_distance(m.to_square, enemy) == 1)
        ]


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
