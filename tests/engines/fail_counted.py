#!/usr/bin/env python3
"""Fails for what it was asked before, not for the position: correct until its
``FAIL_AFTER``-th position since it started (default 8), where ``set_fen`` raises, as an
engine whose history array overflows or whose table is corrupted by earlier positions
would. Started afresh it answers that position. As a Python adapter (`Adapter`).
"""

import os

import pchelper


class Adapter(pchelper.Adapter):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.asked = 0

    def set_fen(self, fen: str, chess960: bool = False) -> None:
        self.asked += 1
        if self.asked == int(os.environ.get("FAIL_AFTER", "8")):
            raise MemoryError("history full")
        super().set_fen(fen, chess960)
