#!/usr/bin/env python3
"""Bug (horde, first-rank double push): white's pawns on the first rank push one square only.

Trigger: 4k3/8/8/8/8/8/8/P3P2P w - - 0 1 (horde), depth 1: a1a3, e1e3 and h1h3 are missing.
"""

import chess

import vpchelper


class Adapter(vpchelper.Adapter):
    def generate(self):
        board = self.board
        return [
            m for m in super().generate()
            if not (board.piece_type_at(m.from_square) == chess.PAWN and m.from_square < 8 and m.to_square - m.from_square == 16)
        ]


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
