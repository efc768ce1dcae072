#!/usr/bin/env python3
"""Bug (racingkings, goal squares): black gets no last chance; the game ends as soon as the
white king reaches the eighth rank.

Trigger: 8/1k3K2/8/8/8/8/8/8 w - - 0 1 (racingkings), depth 2: after f7f8 (and the other
moves to rank 8) the engine lists no black reply.
"""

import chess

import vpchelper


class Adapter(vpchelper.Adapter):
    def generate(self):
        board = self.board
        if board.turn == chess.BLACK and board.kings & board.occupied_co[chess.WHITE] & chess.BB_RANK_8:
            return []
        return super().generate()


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
