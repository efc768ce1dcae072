#!/usr/bin/env python3
"""Bug: the king may castle through an attacked square (f1/d1 are not tested).

Castling still needs the rights, empty squares, a king not in check and a safe
destination square.  Standard chess only.

Trigger: 4k3/8/b7/8/8/8/8/4K2R w K - 0 1, depth 1 (e1g1 crosses f1, attacked by the a6 bishop).
"""

import chess

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        board = self.board
        if board.chess960:
            return super().generate()
        moves = [move for move in super().generate() if not board.is_castling(move)]
        rank = 0 if board.turn == chess.WHITE else 7
        king = chess.square(4, rank)
        if board.king(board.turn) != king or board.is_check():
            return moves
        for rook_file, king_file, must_be_empty in ((7, 6, (5, 6)), (0, 2, (1, 2, 3))):
            if not board.clean_castling_rights() & chess.BB_SQUARES[chess.square(rook_file, rank)]:
                continue
            if any(board.piece_at(chess.square(f, rank)) for f in must_be_empty):
                continue
            target = chess.square(king_file, rank)
            if not board.is_attacked_by(not board.turn, target):
                moves.append(chess.Move(king, target))
        return moves


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
