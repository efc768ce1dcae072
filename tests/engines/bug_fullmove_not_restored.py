#!/usr/bin/env python3
"""Bug: pop() does not restore the fullmove number (perft counts are unaffected).

Trigger: set_fen of any position with black to move, push a move, pop: the number is one too high.
"""

import pchelper


class Adapter(pchelper.Adapter):
    def pop(self):
        number = self.board.fullmove_number
        self.board.pop()
        self.board.fullmove_number = number


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
