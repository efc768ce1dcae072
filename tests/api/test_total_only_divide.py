"""``Engine(...).divide(pos, 1)`` of an engine that prints only totals (Ethereal) raised an
EngineError, exit 3, reading "answers perft with a total only: it cannot list its moves (a
divide at depth 1)": it neither said what to do nor that the question, not the engine, was
at fault. It is a ``TotalOnlyDivideError`` now (an EngineError, exit 2) that says a divide
needs depth >= 2 there; at depth 2 the divide is the engine's own counts."""

from __future__ import annotations

import os
import shutil
import sys

import chess
import pytest

import chesskit
from chesskit.errors import EngineError
from helpers import ENGINES, missing, pc_divide

TOTALS = f"{sys.executable} {ENGINES / 'fake_perft.py'} --total-only --total bare"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def check(engine) -> None:
    with chesskit.Engine(engine) as eng:
        assert eng.dialect["total_only"] is True
        with pytest.raises(EngineError) as caught:
            eng.divide("startpos", 1)
        from chesskit.errors import TotalOnlyDivideError

        assert isinstance(caught.value, TotalOnlyDivideError) and caught.value.exit_code == 2
        text = str(caught.value)
        assert "prints only totals" in text and "cannot list its moves" in text and "needs depth >= 2" in text
        assert eng.perft("startpos", 1) == chess.Board().legal_moves.count()
        assert eng.divide("startpos", 2) == dict(sorted(pc_divide(chess.STARTING_FEN, 2).items()))


def test_a_total_only_fake_engine():
    check(TOTALS)


def test_ethereal():
    path = shutil.which("ethereal-chess") or ("/usr/games/ethereal-chess" if os.access("/usr/games/ethereal-chess", os.X_OK) else None)
    if path is None:
        missing("ethereal-chess on PATH or in /usr/games", "Debian: apt-get install ethereal-chess")
    check(path)
