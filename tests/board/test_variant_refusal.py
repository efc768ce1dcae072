"""A variant whose moves the core does not generate is refused, never counted with standard
chess's moves (a rule set the core does not know would be counted with standard chess's).

Every variant chesskit names is counted today (core/vstate.COUNTED), so the guard is shown
refusing with atomic taken out of COUNTED, as a variant added to the registry before its
core would be."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from chesskit.board.board import Board
from chesskit.cli.main import main
from chesskit.core import vstate
from chesskit.errors import InputError


def test_every_named_variant_is_counted():
    assert {vstate.RULES[vid] for vid in range(1, len(vstate.NAMES))} <= vstate.COUNTED


@pytest.fixture
def without_atomic(monkeypatch):
    monkeypatch.setattr(vstate, "COUNTED", vstate.COUNTED - {vstate.ATOMIC})


@pytest.mark.parametrize("name", ["atomic", "atomic960"])
def test_a_variant_the_core_does_not_count_is_refused(without_atomic, name):
    with pytest.raises(InputError, match=r"does not count it yet \(it counts crazyhouse, kingofthehill"):
        Board(variant=name)


def test_the_cli_refuses_it_in_one_line(without_atomic):
    result = CliRunner().invoke(main, ["perft", "startpos", "1", "--variant", "atomic"], prog_name="chesskit")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "chesskit: variant atomic: chesskit's core does not count it yet "
        "(it counts crazyhouse, kingofthehill, 3check, antichess, giveaway, horde, racingkings)"
    ]
