#!/usr/bin/env python3
"""A UCI engine with no perft yet: it ignores the commands it does not know, as UCI asks
(`go perft 1`, `perft 1`, `divide 1` get nothing). With the argument `garbage` it answers
`go perft 1` with one line chesskit cannot read, and then nothing."""

import sys

for line in sys.stdin:
    word = line.strip()
    if word == "uci":
        print("id name silent", "uciok", sep="\n", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go perft 1" and sys.argv[1:] == ["garbage"]:
        print("hello world?", flush=True)
    elif word == "quit":
        break
