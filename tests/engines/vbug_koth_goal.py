#!/usr/bin/env python3
"""Bug (kingofthehill, goal squares): d5 is not taken for a centre square (only d4, e4, e5
win), so the game goes on after a king reaches it.

Trigger: 8/8/8/8/2K5/8/8/k7 w - - 0 1 (kingofthehill), depth 2: after c4d5 the engine lists
black's replies.
"""

import chess
import chess.variant

import vpchelper

GOAL = chess.BB_D4 | chess.BB_E4 | chess.BB_E5  # the bug: d5 is missing


class Board(chess.variant.KingOfTheHillBoard):
    def is_variant_end(self) -> bool:
        return bool(self.kings & GOAL)


class Adapter(vpchelper.Adapter):
    board_classes = {"kingofthehill": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
