#!/usr/bin/env python3
"""Bug: pop() does not restore the halfmove clock (perft counts are unaffected).

Trigger: set_fen(r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20), push e1e2, pop: the clock reads 6, not 5.
"""

import pchelper


class Adapter(pchelper.Adapter):
    def pop(self):
        clock = self.board.halfmove_clock
        self.board.pop()
        self.board.halfmove_clock = clock


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
