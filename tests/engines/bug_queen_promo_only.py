#!/usr/bin/env python3
"""Bug: pawns only promote to a queen (no underpromotions).

Trigger: 8/P7/8/8/8/8/8/k6K w - - 0 1, depth 1 (a7a8r, a7a8b, a7a8n are missing).
"""

import chess

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        return [move for move in super().generate() if move.promotion in (None, chess.QUEEN)]


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
