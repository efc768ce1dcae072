#!/usr/bin/env python3
"""Not a bug: a FEN's fullmove number 0 kept as typed, the number counted on from it.

FEN numbers moves from 1; chesskit, Stockfish and python-chess read a 0 as 1.  An engine
that keeps the 0 it was given (many parse the field with atoi and store it) writes every
fullmove number one less than theirs: a reading of an out-of-range field, not a move bug.
"""

import bug_fullmove_not_restored
import pchelper


class Adapter(pchelper.Adapter):
    def set_fen(self, fen, chess960=False):
        super().set_fen(fen, chess960)
        fields = fen.split()
        self.from_zero = len(fields) == 6 and int(fields[5]) == 0

    def fen(self):
        fields = self.board.fen().split()
        fields[5] = str(int(fields[5]) - self.from_zero)
        return " ".join(fields)


class NotRestored(Adapter, bug_fullmove_not_restored.Adapter):
    """The same, with bug_fullmove_not_restored's pop: that bug is still found."""


if __name__ == "__main__":
    pchelper.perftree_main(Adapter)
