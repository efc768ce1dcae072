#!/usr/bin/env python3
"""Fails at once, as a UCI engine or a script: one line on stderr, exit code 1."""

import sys

print("fail_exit: cannot open network file nn-0000.nnue", file=sys.stderr)
sys.exit(1)
