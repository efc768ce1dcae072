#!/usr/bin/env python3
"""Bug: one wrong entry in the knight attack table, on the edge square a5 (fuzz target).

The table row for a5 lacks b3, as a hand-typed table easily does: a knight on a5
never moves to b3 (either colour).  No position of the bundled suites has a knight
on a5 with b3 open within the depths the tests run.

Trigger: 4k3/8/8/N7/8/8/8/4K3 w - - 0 1, depth 1 (a5b3 is missing).
"""

import chess

import pchelper


class Adapter(pchelper.Adapter):
    def generate(self):
        return [
            move
            for move in super().generate()
            if not (
                move.from_square == chess.A5
                and move.to_square == chess.B3
                and self.board.piece_type_at(chess.A5) == chess.KNIGHT
            )
        ]


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
