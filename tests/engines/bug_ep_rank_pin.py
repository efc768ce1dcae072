#!/usr/bin/env python3
"""Bug: en passant through a rank pin is allowed.

The engine checks only whether the capturing pawn itself is pinned.  When king,
both pawns and an enemy rook or queen share a rank, neither pawn is pinned
alone, but capturing en passant removes both and exposes the king.

Trigger: 8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2, depth 1 (b5c6 is illegal).
"""

import chess

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        moves = super().generate()
        board = self.board
        king = board.king(board.turn)
        if board.ep_square is None or king is None or board.is_check():
            return moves
        for move in board.generate_pseudo_legal_ep():
            if (
                move not in moves
                and chess.square_rank(move.from_square) == chess.square_rank(king)
                and not board.is_pinned(board.turn, move.from_square)
            ):
                moves.append(move)
        return moves


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
