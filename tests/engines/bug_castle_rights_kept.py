#!/usr/bin/env python3
"""Bug: a castling right is kept when its rook is captured on its home square.

Rights are only dropped when the king moves or a rook moves away from its home
square, so after g2xh1 the engine still thinks white may castle king-side and
generates e1g1 with no rook on h1 (and its fen() still says `K`).

Trigger: 4k3/8/8/8/8/8/6b1/4K2R b K - 0 1, depth 2 (g2h1: 6 instead of 5, the extra one e1g1).
"""

import chess

import pchelper


class Adapter(pchelper.Adapter):
    def push(self, uci):
        board = self.board
        move = chess.Move.from_uci(uci)
        rights = board.castling_rights  # before push, including stale rights
        lost = chess.BB_SQUARES[move.from_square]
        if board.king(board.turn) == move.from_square:
            lost |= chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
        super().push(uci)
        board.castling_rights = rights & ~lost  # the bug: captures on the rook square are ignored


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
