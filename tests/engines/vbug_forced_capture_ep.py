#!/usr/bin/env python3
"""Bug (antichess, forced capture): an en-passant capture does not force a capture; the
other moves stay.

Trigger: 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 (antichess), depth 1: the king moves and e5e6
are extra (e5d6 is forced).
"""

import chess

import vpchelper


class Adapter(vpchelper.Adapter):
    def generate(self):
        board = self.board
        moves = super().generate()
        if moves and all(board.is_en_passant(m) for m in moves):
            return moves + [m for m in chess.Board.generate_legal_moves(board) if not board.is_capture(m)]
        return moves


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
