"""Python adapters that talk while they work (issue 26 item 8): what they print, write to
sys.stderr or write to fd 1 from C level must reach chesskit's stderr."""

import os
import sys

import pchelper


class Talks(pchelper.Adapter):
    """Correct; says something on stdout, stderr and fd 1 when a position is set."""

    def set_fen(self, fen, chess960=False):
        print(f"debug: print set_fen {fen}")
        sys.stderr.write("debug: stderr hello\n")
        os.write(1, b"debug: raw fd 1\n")
        super().set_fen(fen, chess960)


class TalksThenFails(pchelper.Adapter):
    """Prints its move count, then raises in legal_moves."""

    def legal_moves(self):
        print(f"debug: about to fail with {len(super().legal_moves())} moves")
        raise RuntimeError("broken generator")
