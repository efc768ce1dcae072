#!/usr/bin/env python3
"""Bug: Chess960 castling with king and rook adjacent looks one square too far (fuzz target).

When king and rook stand side by side, the engine scans one square too far and refuses
the castle when an enemy piece stands just past the rook (away from the king).  That
square matters only where it lies outside both the king's and the rook's paths: king
f1, rook g1, an enemy piece on h1; king d1, rook c1, one on b1; king c1, rook b1, one on
a1 (and the same on rank 8).  The bundled Chess960 suite never castles in such a setup
within the depths the tests run.

Trigger: 4k3/8/8/8/8/8/8/5KRn w G - 0 1 (Chess960), depth 1 (f1g1 is missing).
"""

import chess

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        board = self.board
        moves = super().generate()
        if not board.chess960:
            return moves
        kept = []
        for move in moves:
            if board.is_castling(move):
                king, rook = move.from_square, move.to_square
                step = 1 if rook > king else -1
                beyond = rook + step
                if (
                    abs(rook - king) == 1
                    and chess.square_rank(beyond) == chess.square_rank(rook)
                    and board.color_at(beyond) == (not board.turn)
                ):
                    continue
            kept.append(move)
        return kept


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
