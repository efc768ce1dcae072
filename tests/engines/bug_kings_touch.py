#!/usr/bin/env python3
"""Bug: the king may step next to the enemy king (its attack test leaves kings out), and
the engine then crashes deep in perft, as engines with this bug do: the other king takes
it, and the next move list, of a side with no king, raises.

Trigger: 8/2b5/8/1pP5/K7/1r6/k7/8 w - - 0 1: a4b3 (takes the rook beside the black king) is
generated at depth 1; perft 3 raises (a4b3 a2b3, then white has no king).
"""

import chess

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        board = self.board
        king = board.king(board.turn)
        if king is None:
            raise RuntimeError("king square lookup failed: no king on the board")
        return [m for m in board.pseudo_legal_moves if board.is_legal(m) or self._beside_king_only(m)]

    def _beside_king_only(self, move) -> bool:
        """A king step whose only attacker of its square is the enemy king."""
        board = self.board
        if move.from_square != board.king(board.turn) or board.is_castling(move):
            return False
        board.push(move)
        attackers = board.attackers(board.turn, move.to_square)
        board.pop()
        return bool(attackers) and all(board.piece_type_at(sq) == chess.KING for sq in attackers)


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
