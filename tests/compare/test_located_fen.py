"""The FEN that an engine failure names is a Chess960 FEN when the position is one.

A position given in Shredder-FEN (``HBhb``) is counted as Chess960; an engine that cannot
play Chess960 (Sjeng, any console or xboard dialect) fails on it with "cannot play
Chess960", and the failure named the node's FEN in X-FEN: ``KQkq``, which reads as
standard chess, the one game that engine can play, so the line contradicted itself and
its FEN, pasted back, asked another question. It is written in Shredder-FEN now, as
fuzz's saved positions and compare's regression lines are. Expected FENs are
python-chess's.
"""

from __future__ import annotations

import sys

import chess
import pytest

from helpers import ENGINES, one_line

CONSOLE = f"{sys.executable} {ENGINES / 'fake_perft.py'} --loop console"
# the kings on g1/g8, the rooks on b and h: X-FEN writes KQkq, as standard chess (with the
# kings on e1/e8 and the rooks in the corners, HAha is standard chess, asked as such)
OUTER_ROOKS = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"
C960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"  # X-FEN: KQkq too

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def shredder(fen: str, moves: tuple[str, ...] = ()) -> str:
    board = chess.Board(fen, chess960=True)
    for move in moves:
        board.push_uci(move)
    return board.shredder_fen()


@pytest.mark.parametrize("fen, moves", [(OUTER_ROOKS, ()), (C960, ("a3a4",))], ids=["outer-rooks", "after-a-move"])
def test_an_engine_that_cannot_play_chess960_is_shown_the_chess960_fen(cli, fen, moves):
    extra = ["--moves", " ".join(moves)] if moves else []
    result = cli("compare", fen, "2", "--engine", CONSOLE, *extra, "--timeout", "20")
    expected = shredder(fen, moves)
    assert " KQkq " not in expected  # the point: the FEN keeps its Shredder castling letters
    line = one_line(result, 3, "cannot play Chess960", f"(fen {expected})")
    # a capability it lacks, not a finding at a node: "it failed at depth 2 of compare's descent" said otherwise
    assert "compare's descent" not in line and ("asked at the start position" if not moves else "asked after a3a4") in line


IMPOSSIBLE = "4k3/8/8/8/8/8/8/4K3 w K - 0 1"  # a right without its rook: chesskit drops it


@pytest.mark.parametrize("moves, where", [((), "at the start position"), (("e1d1",), f"after e1d1 from {IMPOSSIBLE}")])
def test_an_impossible_position_is_named_as_the_engine_was_given_it(cli, tmp_path, moves, where):
    # Stockfish crashes on this FEN as typed and not on chesskit's reading of it (no right):
    # the failure named the second, which then agreed when pasted back
    crash = tmp_path / "crash.sh"
    crash.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crash.chmod(0o755)
    extra = ["--moves", " ".join(moves)] if moves else []
    result = cli("compare", IMPOSSIBLE, "1", "--script", str(crash), *extra)
    node = chess.Board(IMPOSSIBLE)
    for move in moves:
        node.push_uci(move)
    fen = IMPOSSIBLE if not moves else node.fen()
    assert result.exit_code == 3, result.stderr
    if moves:
        assert f"it failed at depth 1 of compare's descent, {where} (fen {fen})" in result.stderr
    else:  # the script's error quotes the FEN it was given (`on '...'`): the line gives it once
        assert result.stderr.rstrip().endswith(f"it failed at depth 1 of compare's descent, {where}")
        assert f"on {fen!r}" in result.stderr and result.stderr.count(fen) == 1
