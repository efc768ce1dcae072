"""The read loop of the fake engines (``fake_uci.py``, ``fake_perft.py``, ``fake_xboard.py``):
each command chesskit sends on stdin, logged where a test asks for it.

The engines run as files, so this module is found as ``pchelper`` is: in their own folder,
the first entry of their ``sys.path``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator


def commands(log_variable: str, prompt: str | None = None) -> Iterator[str]:
    """Each line read from stdin, until it is closed, appended first to the file that the
    environment variable ``log_variable`` names when it is set; ``prompt`` is printed
    (without a line end) before each read."""
    log = os.environ.get(log_variable)
    while True:
        if prompt:
            sys.stdout.write(prompt)
            sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return
        if log:
            with open(log, "a") as f:
                f.write(line)
        yield line
