#!/usr/bin/env python3
"""Bug: en passant captures are never generated.

Trigger: rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3, depth 1 (e5f6 is missing).
"""

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        return [move for move in super().generate() if not self.board.is_en_passant(move)]


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
