#!/usr/bin/env python3
"""Not a bug: king of the hill as the current Fairy-Stockfish plays it. The game ends when
the side that just moved has its king on a centre square; a position whose side to move
already stands there (which cannot arise) is played on, where chesskit, following lichess,
lists no move (docs/variants.md, "Where the oracles disagree").

Trigger: 8/8/7k/8/4K3/8/8/8 w - - 20 10 (kingofthehill), depth 1: the king's moves.
"""

import chess
import chess.variant

import vpchelper


class Board(chess.variant.KingOfTheHillBoard):
    def is_variant_end(self) -> bool:
        return bool(self.kings & self.occupied_co[not self.turn] & chess.BB_CENTER)


class Adapter(vpchelper.Adapter):
    board_classes = {"kingofthehill": Board}


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
