#!/usr/bin/env python3
"""Bug: pop() leaves the en-passant square of the position it undoes.

After an en-passant chance is popped back over, the capture is lost (or a
stale one appears), so the state differs at once and perft counts deeper.

Trigger: rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3: push a2a3, pop;
fen() has lost f6, and the divide at depth 3 differs.
"""

import pchelper


class Adapter(pchelper.Adapter):
    def pop(self):
        ep_square = self.board.ep_square
        self.board.pop()
        self.board.ep_square = ep_square


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
