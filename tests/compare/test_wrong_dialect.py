"""A --dialect the engine does not speak, answered plainly in another: a bare total where a
divide was asked (Ethereal's `perft N`), a search where `go perft` was (Ethereal's `go`).
Before, chesskit waited out the whole --timeout and then said the engine "did not answer";
now it fails at once (exit 3), saying what the engine printed and which dialect reads it.

The stand-in is tests/engines/fake_perft.py with --ethereal; the start position's 20
moves come from python-chess.
"""

from __future__ import annotations

import sys
import time

import pytest

from chesskit.compare.engines import open_engine
from chesskit.errors import EngineError
from helpers import ENGINES, STARTPOS, finishes, pc_divide

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
ETHEREAL = f"{FAKE} --command perft --total-only --total bare --ethereal"
TIMEOUT = 60  # what a run that waits the answer out would take; the answer comes in milliseconds

pytestmark = pytest.mark.usefixtures("no_leftover_children")


def _fails_fast(engine: str, dialect: str) -> str:
    """The EngineError's message from the first question in `dialect`, which must come well
    before --timeout."""
    start = time.monotonic()
    with pytest.raises(EngineError) as caught:
        with open_engine(engine=engine, dialect=dialect, timeout=TIMEOUT) as opened:
            finishes(lambda: opened.divide(STARTPOS, 2, []), timeout=TIMEOUT * 3)
    elapsed = time.monotonic() - start
    assert elapsed < TIMEOUT / 2, f"took {elapsed:.1f} s: it waited out the timeout"
    return str(caught.value)


@pytest.mark.parametrize(
    "engine, dialect, total, question",
    [
        (ETHEREAL, "uci-perft", "uci-perft-total", "'perft 1'"),
        (f"{FAKE} --command go-perft --total-only --total bare", "uci-go-perft", "uci-go-perft-total", "'go perft 1'"),
        # a console confirms nothing: the bare total alone ends the answer after a short grace
        (f"{FAKE} --loop console --command perft --total-only --total bare", "console-perft", "console-perft-total", "'perft 1'"),
    ],
    ids=["ethereal-perft", "go-perft-total-only", "console-perft"],
)
def test_a_bare_total_where_a_divide_was_asked_names_the_total_only_dialect(engine, dialect, total, question):
    message = _fails_fast(engine, dialect)
    moves = len(pc_divide(STARTPOS, 1))
    assert f"with a total of {moves} and no divide lines" in message
    assert f"name the dialect {total}" in message
    assert question in message and "fake_perft.py" in message  # the question and the engine


def test_a_search_where_go_perft_was_asked_says_so_at_once():
    message = _fails_fast(ETHEREAL, "uci-go-perft")
    assert "started a search" in message and "'go perft 1'" in message
    assert "'bestmove g1f3'" in message  # what it printed
    assert "without --dialect uci-go-perft chesskit detects" in message


def test_a_total_only_dialect_given_a_search_says_so_at_once():
    message = _fails_fast(ETHEREAL, "uci-go-perft-total")
    assert "started a search" in message and "'bestmove g1f3'" in message


def test_a_named_uci_dialect_refused_at_uci_fails_at_once():
    """An xboard engine answers `uci` with `Error (unknown command): uci` (Fair-Max, Sjeng:
    `Illegal move: uci`): named uci-go-perft, the run waited out --timeout for `uciok`."""
    start = time.monotonic()
    with pytest.raises(EngineError) as caught:
        with open_engine(engine=f"{sys.executable} {ENGINES / 'fake_xboard.py'}", dialect="uci-go-perft", timeout=TIMEOUT) as e:
            e.divide(STARTPOS, 1, [])
    assert time.monotonic() - start < TIMEOUT / 2
    assert "does not speak UCI (dialect uci-go-perft): it answered 'uci' with" in str(caught.value)
