#!/usr/bin/env python3
"""Bug: one wrong entry in the knight attack table, on the edge square h5 (fuzz target).

The table the engine uses to see whether a square is attacked lacks f4 in the row of
h5, as a hand-typed table easily does: its king may step onto f4 while an enemy
knight on h5 guards it (when nothing else does).  No king of the bundled suites comes
near f4 with an enemy knight on h5 within the depths the tests run.

Trigger: 8/8/8/7n/8/4K3/8/k7 w - - 0 1, depth 1 (e3f4 is generated, it is not legal).
"""

import chess

import pchelper

FROM, TO = chess.H5, chess.F4


class Adapter(pchelper.Adapter):
    def generate(self):
        moves = super().generate()
        board = self.board
        king = board.king(board.turn)
        if king is None or board.piece_at(FROM) != chess.Piece(chess.KNIGHT, not board.turn):
            return moves
        for move in board.generate_pseudo_legal_moves(chess.BB_SQUARES[king], chess.BB_SQUARES[TO]):
            if move in moves or board.is_castling(move):
                continue
            board.push(move)
            guards = board.attackers(board.turn, TO)
            board.pop()
            if set(guards) == {FROM}:
                moves.append(move)
        return moves


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
