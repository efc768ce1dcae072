#!/usr/bin/env python3
"""Hangs: as a perftree script at once, as a UCI engine on `go perft`.

Before hanging it starts a sleeping helper process and writes both pids to
$CHESSKIT_HANG_PIDFILE, so a test can check that the whole group was killed.
"""

import os
import subprocess
import sys
import time


def hang() -> None:
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    pidfile = os.environ.get("CHESSKIT_HANG_PIDFILE")
    if pidfile:
        with open(pidfile, "w") as f:
            f.write(f"{os.getpid()} {helper.pid}\n")
    time.sleep(120)


if len(sys.argv) > 1:
    hang()
for line in sys.stdin:
    command = line.strip()
    if command == "uci":
        print("id name Hang\nuciok", flush=True)
    elif command == "isready":
        print("readyok", flush=True)
    elif command.startswith("go"):
        hang()
    elif command == "quit":
        break
