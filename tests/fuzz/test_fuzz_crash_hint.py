"""fuzz's summary of the positions the engine failed on: the --no-chess960 hint follows the
one phrase that means the engine cannot play Chess960 (compare/engines/base.CANNOT_PLAY_960),
never a message that merely holds the digits 960."""

from __future__ import annotations

import pytest

from chesskit.compare.engines.base import CANNOT_PLAY_960
from chesskit.fuzz.run import Crash, FuzzRun, crash_error
from chesskit.fuzz.sources import Generated
from chesskit.suites.guard import EngineFailure

C960 = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1"
HINT = "--no-chess960 leaves Chess960 positions out"


def _error(reason: str, chess960: bool = True, asked: bool | None = None) -> str:
    run = FuzzRun(seed=5, depth=2, positions=3, nodes=100, seconds=0.1)
    run.crashes.append(Crash(3, Generated(C960, chess960, "random/chess960"), EngineFailure(reason, depth=2)))
    return str(crash_error(run, asked))


@pytest.mark.parametrize(
    "reason",
    [
        "engine 'x' answered 'go perft 2' with divide lines summing to 9600 but a total of 9601",
        "engine 'x' exited with code 1; last output: 'hash 960 MB'",
    ],
)
def test_a_message_holding_960_gets_no_chess960_hint(reason):
    assert HINT not in _error(reason)


def test_an_engine_that_cannot_play_chess960_gets_the_hint():
    assert _error(f"engine 'x' {CANNOT_PLAY_960} (it does not offer the UCI_Chess960 option)").endswith(f"; {HINT})")


def test_no_hint_at_a_standard_position_or_when_the_run_was_told():
    reason = f"engine 'x' {CANNOT_PLAY_960}"
    assert HINT not in _error(reason, chess960=False)
    assert HINT not in _error(reason, asked=True)
