#!/usr/bin/env python3
"""Answers correctly, but first starts a daemon that holds its stdout and stderr open.

The daemon is a sleeping process in a session of its own (out of the engine's process
group, so chesskit cannot kill it with the group); its pid goes to
$CHESSKIT_HANG_PIDFILE so a test can end it. Three ways to use it:

    fail_daemon.py exec CMD ARGS...    (an --engine: start the daemon, then exec CMD)
    fail_daemon.py DEPTH FEN [MOVES]   (a perftree --script: answers, then exits)
    fail_daemon.py:Adapter             (a --python adapter whose constructor starts it)
"""

import os
import subprocess
import sys

from pchelper import Adapter as _Correct
from pchelper import perftree_main

DAEMON_SECONDS = "600"


def start_daemon() -> None:
    daemon = subprocess.Popen(
        [sys.executable, "-c", f"import time; time.sleep({DAEMON_SECONDS})"],
        start_new_session=True,  # out of the engine's process group
        stdin=subprocess.DEVNULL,
        # stdout and stderr inherited: the daemon holds the engine's pipes
    )
    pidfile = os.environ.get("CHESSKIT_HANG_PIDFILE")
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(f"{daemon.pid}\n")


class Adapter(_Correct):
    def __init__(self):
        start_daemon()
        super().__init__()


if __name__ == "__main__":
    start_daemon()
    if sys.argv[1] == "exec":
        os.execvp(sys.argv[2], sys.argv[2:])
    perftree_main(_Correct)
