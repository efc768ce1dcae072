"""A variant whose moves the core does not generate is refused, never counted with standard
chess's moves (vgen.vgenerate's default branch would count it as standard chess)."""

from __future__ import annotations

import pytest

from chesskit.board.board import Board
from chesskit.errors import InputError


@pytest.mark.parametrize("name", ["atomic", "crazyhouse", "atomic960"])
def test_a_variant_the_core_does_not_count_is_refused(name):
    with pytest.raises(InputError, match=r"does not count it yet \(it counts kingofthehill, 3check"):
        Board(variant=name)


def test_the_cli_refuses_it_in_one_line(run_module):
    result = run_module("perft", "startpos", "1", "--variant", "atomic")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "chesskit: variant atomic: chesskit's core does not count it yet "
        "(it counts kingofthehill, 3check, antichess, giveaway, horde, racingkings)"
    ]
