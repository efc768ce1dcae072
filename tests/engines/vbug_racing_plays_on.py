#!/usr/bin/env python3
"""Bug (racingkings, goal squares): the game goes on after the white king reaches the eighth
rank although the black king cannot follow it there (a draw is no longer possible: white
has won).

Trigger: 8/5K2/1k6/8/8/8/8/8 w - - 0 1 (racingkings), depth 2: after f7e8 (and the other
moves to rank 8) the engine lists black's king moves, none of which reaches the eighth rank.
"""

import chess
import chess.variant

import vpchelper


class Board(chess.variant.RacingKingsBoard):
    def is_variant_end(self) -> bool:
        # the bug: black's last chance is taken for granted; only a king home with white to
        # move, or black's king home, ends the game
        if not self.kings & chess.BB_RANK_8:
            return False
        return self.turn == chess.WHITE or bool(self.kings & self.occupied_co[chess.BLACK] & chess.BB_RANK_8)


class Adapter(vpchelper.Adapter):
    board_classes = {"racingkings": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
