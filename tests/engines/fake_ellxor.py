#!/usr/bin/env python3
"""A stand-in for ellxor/perft's command line (tests only): `fake_ellxor.py FEN DEPTH`
prints its banner, `Result:`, `Time taken:` and `Nodes per second:` lines, the count
from python-chess. With $FAKE_ELLXOR_OFF_BY_ONE set it counts one node too many; with
$FAKE_ELLXOR_CRASH it dies with exit 134 as an assert would; with $FAKE_ELLXOR_ZERO_TIME
its time is 0 (a count below its timer's millisecond); $FAKE_ELLXOR_CPUS appends
the cores it may run on to that file."""

import os
import sys
import time

import pchelper

fen, depth = sys.argv[1], int(sys.argv[2])
if os.environ.get("FAKE_ELLXOR_CPUS"):
    with open(os.environ["FAKE_ELLXOR_CPUS"], "a") as log:
        log.write(" ".join(map(str, sorted(os.sched_getaffinity(0)))) + "\n")
if os.environ.get("FAKE_ELLXOR_CRASH"):
    print("perft: src/perft.cc:180: Assertion `ok' failed.", file=sys.stderr)
    sys.exit(134)
start = time.perf_counter()
adapter = pchelper.Adapter()
adapter.set_fen(fen)
nodes = pchelper.perft(adapter, depth) + (1 if os.environ.get("FAKE_ELLXOR_OFF_BY_ONE") else 0)
seconds = 0.0 if os.environ.get("FAKE_ELLXOR_ZERO_TIME") else time.perf_counter() - start
if depth >= 3:
    print("Running multi-threaded perft on 2 threads.\n")
print(f"Result:            {nodes}")
print(f"Time taken:        {seconds:.6f} seconds.")  # ellxor prints 3 decimals
print(f"Nodes per second:  {nodes / max(seconds, 1e-9) / 1e6:.0f} million.")
