#!/usr/bin/env python3
"""Floods chesskit with output (issue 14: memory must stay bounded).

    fail_flood.py long|endless          a UCI engine: on `go perft` one 2 GiB line without
                                        a newline (`long`), or info lines for ever (`endless`)
    fail_flood.py DEPTH FEN MOVES       a perftree script: the same, chosen by
                                        $CHESSKIT_FLOOD (`long` or `endless`, default `long`)

And `replay`: a perftree script that prints the lines of the file $CHESSKIT_REPLAY as its
answer (the property test's garbage engine output).
"""

import os
import sys


def flood(mode: str) -> None:
    if mode == "long":  # 2 GiB without a newline, written a MiB at a time
        chunk = "1" * (1 << 20)
        sys.stdout.write("e2e4 ")
        for _ in range(2048):
            sys.stdout.write(chunk)
        sys.stdout.flush()
        return
    line = "info string " + "y" * 1000 + "\n"
    while True:
        sys.stdout.write(line)


def uci(mode: str) -> None:
    for line in sys.stdin:
        command = line.strip()
        if command == "uci":
            print("id name flood\nuciok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command.startswith("go perft"):
            flood(mode)
        elif command == "quit":
            return


if __name__ == "__main__":
    if len(sys.argv) == 2:
        uci(sys.argv[1])
    elif os.environ.get("CHESSKIT_REPLAY"):
        with open(os.environ["CHESSKIT_REPLAY"], "rb") as f:
            sys.stdout.buffer.write(f.read())
    else:
        flood(os.environ.get("CHESSKIT_FLOOD", "long"))
