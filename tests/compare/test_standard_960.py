"""A Chess960 position whose kings and castling rooks stand on standard chess's squares
(the suite line ``c960-518``, Chess960 number 518, is the standard start position) is the
standard game, and an engine is asked it as such: its castling field in ``KQkq`` letters,
no UCI_Chess960. An xboard or console engine, which chesskit cannot set to Chess960, was
refused it ("cannot play Chess960"). The castles of a path go to the engine as standard
chess writes them (``e1g1``) and come back as chesskit's Chess960 divide writes them
(``e1h1``), so no castle is reported missing and extra at once. Expected counts are
python-chess's.
"""

from __future__ import annotations

import json
import sys

import chess
import pytest

from chesskit.compare.engines import open_engine
from helpers import ENGINES, pc_divide, pc_perft

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
CONSOLE = f"{FAKE} --loop console"  # a console dialect: no Chess960 at all
UCI = f"{FAKE} --loop uci --command go-perft --total stockfish"  # offers UCI_Chess960
XBOARD = f"{sys.executable} {ENGINES / 'fake_xboard.py'} --format sjeng"  # xboard: no Chess960
# standard chess's squares, as Chess960 (Shredder-FEN's file letters)
CORNERS = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"
STANDARD = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
WALLED = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1"  # pawns: every castle stays legal
# a king off e1: Chess960 proper, still asked as Chess960
OFF_E1 = "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def divide_960(fen: str, depth: int, moves=()) -> dict[str, int]:
    return pc_divide(fen, depth, moves, chess960=True)


@pytest.mark.parametrize("engine", [CONSOLE, XBOARD], ids=["console", "xboard"])
def test_c960_518_is_asked_of_an_engine_without_chess960(cli, engine):
    result = cli("compare", "c960-518", "2", "--engine", engine, "--json", "--timeout", "20")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    step = report["steps"][0]
    assert report["agree"] is True
    theirs = step["theirs"] or None
    assert (sum(theirs.values()) if theirs else step["theirs_total"]) == pc_perft(chess.Board(), 2) == 400


@pytest.mark.parametrize("engine", [CONSOLE, XBOARD, UCI], ids=["console", "xboard", "uci"])
def test_castles_go_to_the_engine_and_come_back_in_each_spelling(engine):
    """Below white's castle (``e1h1`` in Chess960), black's castles are listed: the engine
    is given ``e1g1`` and its ``e8g8`` is read as ``e8h8``."""
    with open_engine(engine=engine, timeout=20) as eng:
        path = ["e1h1"]
        expected = divide_960(WALLED, 2, path)
        assert {"e8h8", "e8a8"} <= expected.keys()
        assert eng.perft(WALLED, 2, path, chess960=True) == sum(expected.values())
        assert eng.divide(WALLED, 2, path, chess960=True) == expected
        if not eng.total_only:
            assert eng.divide(WALLED, 1, [], chess960=True) == divide_960(WALLED, 1)


def test_the_engine_is_sent_standard_chess(tmp_path, monkeypatch):
    log = tmp_path / "sent"
    monkeypatch.setenv("FAKE_PERFT_LOG", str(log))
    with open_engine(engine=UCI, timeout=20) as eng:
        assert eng.divide(CORNERS, 1, ["e1h1", "e8a8"], chess960=True) == divide_960(CORNERS, 1, ["e1h1", "e8a8"])
        assert eng.divide(OFF_E1, 1, [], chess960=True) == divide_960(OFF_E1, 1)
    sent = log.read_text().splitlines()
    first = sent.index(f"position fen {STANDARD} moves e1g1 e8c8")
    chess960 = [at for at, line in enumerate(sent) if line == "setoption name UCI_Chess960 value true"]
    assert chess960 and min(chess960) > first  # only for the position that needs it


def test_asked_as():
    from chesskit.compare.engines.base import asked_as

    assert asked_as(CORNERS, True) == (STANDARD, False)
    assert asked_as("r3k2r/8/8/8/8/8/8/R3K2R w Hq - 0 1", True) == ("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", False)
    assert asked_as(STANDARD, True) == (STANDARD, False)  # X-FEN given, Chess960 named
    assert asked_as(OFF_E1, True) == (OFF_E1, True)
    # a castling rook off its corner (the right names the g1 rook), or a king off e8
    assert asked_as("r3k1r1/8/8/8/8/8/8/R3K1R1 w GAga - 0 1", True)[1] is True
    assert asked_as("r4kr1/8/8/8/8/8/8/R3K2R w HAg - 0 1", True)[1] is True
    assert asked_as(CORNERS, False) == (CORNERS, False)  # a standard question is left alone
