#!/usr/bin/env python3
"""Bug (crazyhouse, drops in check): while in check, every drop is generated, not only
those that block the check.

Trigger: 4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1 (crazyhouse), depth 1: N@f1, N@e2, ... are extra
(only N@b1, N@c1 and N@d1 answer the rook's check).
"""

import chess

import vpchelper


class Adapter(vpchelper.Adapter):
    def generate(self):
        board = self.board
        moves = super().generate()
        if board.is_check():
            known = set(moves)
            for move in board.generate_pseudo_legal_drops():
                if move not in known:
                    moves.append(move)
        return moves


if __name__ == "__main__":
    vpchelper.perftree_main(Adapter)
