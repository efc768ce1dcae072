"""A dialect named with --dialect is checked for `position fen` as a detected one is
(issue 26 item 5): an engine that ignores it is one clear error, never a false verdict."""

from __future__ import annotations

import sys

import pytest

from chesskit.compare.engines import open_engine
from chesskit.errors import EngineError
from helpers import ENGINES, KIWIPETE, one_line, pc_divide

FAKE = f"{sys.executable} {ENGINES / 'fake_perft.py'}"
IGNORES = r"ignores 'position fen' .*give a one-shot --engine-cmd instead$"

pytestmark = pytest.mark.usefixtures("no_leftover_children")


@pytest.mark.parametrize(
    "dialect, flags",
    [
        ("uci-perft", ""),
        ("uci-perft-total", "--total-only"),
        ("console-divide", "--loop console --command divide"),
    ],
)
def test_a_named_dialect_is_checked_for_position_fen(dialect, flags):
    with pytest.raises(EngineError, match=IGNORES):
        with open_engine(engine=f"{FAKE} --ignore-position {flags}", dialect=dialect, timeout=10) as engine:
            engine.divide(KIWIPETE, 1, [])
    # the same engine following `position fen` passes the check and counts
    with open_engine(engine=f"{FAKE} {flags}", dialect=dialect, timeout=10) as engine:
        assert engine.perft(KIWIPETE, 1, []) == 48


@pytest.mark.parametrize(
    "position", [["kiwipete"], ["startpos", "--moves", "e2e4 e7e5"]], ids=["position", "with --moves"]
)
def test_compare_with_a_named_dialect_reports_the_ignored_position(cli, position):
    engine = ["--engine", f"{FAKE} --ignore-position", "--dialect", "uci-perft"]
    one_line(cli("compare", position[0], "2", *position[1:], *engine), 3, "ignores 'position fen'")


def test_the_check_costs_one_question_and_the_answers_stay_right():
    with open_engine(engine=FAKE, dialect="uci-perft", timeout=10) as engine:
        assert engine.divide(KIWIPETE, 2, ["e1g1"]) == pc_divide(KIWIPETE, 2, ["e1g1"])
