#!/usr/bin/env python3
"""Bug: a promotion capture that gives double check is not generated (fuzz target).

The engine generates promotion captures in a separate pass and, when the pawn leaving
its square uncovers a check while the new piece gives another, it drops the move (its
check bookkeeping counts one check per move).  The bundled suites never have such a
move within the depths the tests run (scanned with python-chess: 15 quiet promotions
give double check there, no capture does).

Trigger: 1K4nk/7P/8/8/8/7R/8/8 w - - 0 1, depth 1 (h7g8q and h7g8r are missing).
"""

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        board = self.board
        kept = []
        for move in super().generate():
            if move.promotion and board.is_capture(move):
                board.push(move)
                double = len(board.checkers()) == 2
                board.pop()
                if double:
                    continue
            kept.append(move)
        return kept


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
