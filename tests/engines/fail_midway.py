#!/usr/bin/env python3
"""Fails part-way through a fuzz run: correct until it meets three queens of one colour.

As a perftree script it then prints a message on stderr and exits 1; as a Python
adapter (`Adapter`) its `set_fen` raises.  Positions with three queens of one colour
come up within the first few dozen of most fuzz seeds, after others that it answers.
"""

import os
import sys
import time

import pchelper


def crowded_with_queens(fen: str) -> bool:
    placement = fen.split()[0]
    return placement.count("Q") >= 3 or placement.count("q") >= 3


class Adapter(pchelper.Adapter):
    def set_fen(self, fen: str, chess960: bool = False) -> None:
        if crowded_with_queens(fen):
            raise MemoryError("queen list full")
        super().set_fen(fen, chess960)


class HangsOnce(Adapter):
    """The same, but hangs on the first position it is given while the file that
    ``CHESSKIT_HANG_ONCE`` names does not exist (it makes the file): a hang before the crash."""

    def set_fen(self, fen: str, chess960: bool = False) -> None:
        marker = os.environ.get("CHESSKIT_HANG_ONCE")
        if marker and not os.path.exists(marker):
            open(marker, "w").close()
            time.sleep(60)
        super().set_fen(fen, chess960)


if __name__ == "__main__":
    if len(sys.argv) > 2 and crowded_with_queens(sys.argv[2]):
        print("fail_midway: queen list full", file=sys.stderr)
        sys.exit(1)
    pchelper.perftree_main(Adapter)
