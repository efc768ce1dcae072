#!/usr/bin/env python3
"""Bug (3check, check counting): the third check does not end the game; play goes on.

Trigger: 4k3/8/8/8/8/8/8/R3K2R w KQ - 1+3 0 1 (3check), depth 2: after a1a8 (the third
check) the engine lists black's replies.
"""

import chess.variant

import vpchelper


class Board(chess.variant.ThreeCheckBoard):
    def is_variant_end(self) -> bool:
        return False  # the bug: three checks never end the game


class Adapter(vpchelper.Adapter):
    board_classes = {"3check": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
