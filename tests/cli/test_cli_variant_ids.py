"""`chesskit perft ID --variant NAME` for the ids of the bundled positions/variants/ suites:
read with the line's variant, refused (exit 2, one line) under another."""

from __future__ import annotations

import pytest

from chesskit.suites.positions import resolve_position
from helpers import one_line


def test_a_variant_id_resolves_under_its_variant():
    fen, ident = resolve_position("koth-one-step", variant="kingofthehill")
    assert (fen.split()[:2], ident) == (["8/8/8/8/8/3K4/8/k7", "w"], "koth-one-step")
    fen, _ = resolve_position("3check-one-left", variant="3check")
    assert " 1+3 " in fen  # its check counters are kept


@pytest.mark.parametrize(
    "args, words",
    [
        (["koth-one-step", "3"], ["kingofthehill position", "--variant kingofthehill", "variants/kingofthehill.epd"]),
        # under other rules the same wording (it said "EPD operation variant ... contradicts")
        (["koth-one-step", "3", "--variant", "atomic"], ["kingofthehill position", "--variant kingofthehill", "kingofthehill.epd"]),
        (["kiwipete-nope", "1", "--variant", "atomic"], ["unknown position"]),
    ],
)
def test_a_variant_id_under_other_rules_is_refused(cli, args, words):
    one_line(cli("perft", *args), 2, *words)


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant", ["kingofthehill"])
def test_perft_of_a_variant_id(cli, variant):
    result = cli("perft", "koth-one-step", "3", "--variant", variant)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Nodes searched: 105"  # the suite's D3, from both oracles
