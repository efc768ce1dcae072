#!/usr/bin/env python3
"""Talks nonsense: prints `e2e4 - 20` as a perftree script, or after `go perft` as a UCI engine."""

import sys

GARBAGE = "e2e4 - 20"

if len(sys.argv) > 1:
    print(GARBAGE)
    print()
    print(20)
    sys.exit(0)
for line in sys.stdin:
    command = line.strip()
    if command == "uci":
        print("id name Garbage\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command.startswith("go"):
        print(GARBAGE, flush=True)
    elif command == "quit":
        break
