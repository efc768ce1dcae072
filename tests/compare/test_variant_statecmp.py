"""compare's state check (chesskit/compare/statecmp.py) in a variant: crazyhouse's pockets
and promoted marks and 3check's check counters are compared with a Python adapter's
fen() too, where it writes them (python-chess's variant boards do)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chesskit.board.board import Board
from chesskit.compare.statecmp import diff_state

ENGINES = Path(__file__).resolve().parents[1] / "engines"


def test_pockets_are_compared():
    board = Board("4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1", variant="crazyhouse")
    assert diff_state(board, "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1") is None
    assert diff_state(board, "4k3/8/8/8/8/8/8/4K3/nP w - - 0 1") is None  # the ninth-rank dialect
    assert diff_state(board, "4k3/8/8/8/8/8/8/4K3[PPn] w - - 0 1") == ("pockets", "[Pn]", "[PPn]")
    assert diff_state(board, "4k3/8/8/8/8/8/8/4K3 w - - 0 1") is None  # no pockets written: not compared


def test_promoted_marks_are_compared():
    board = Board("4k3/8/8/8/8/8/8/3Q~K3[] w - - 0 1", variant="crazyhouse")
    assert diff_state(board, "4k3/8/8/8/8/8/8/3Q~K3[] w - - 0 1") is None
    assert diff_state(board, "4k3/8/8/8/8/8/8/3QK3[] w - - 0 1") == ("promoted", "d1", "-")


def test_check_counters_are_compared_in_both_dialects():
    board = Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 2+3 0 1", variant="3check")
    assert diff_state(board, "4k3/8/8/8/8/8/8/R3K2R w KQ - 2+3 0 1") is None
    assert diff_state(board, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 +1+0") is None
    assert diff_state(board, "4k3/8/8/8/8/8/8/R3K2R w KQ - 3+3 0 1") == ("checks", "2+3", "3+3")
    assert diff_state(board, "4k3/8/8/8/8/8/8/R3K2R w KQ - 2+3 5 1") == ("halfmove", 0, 5)


@pytest.mark.variant_walk  # Board.push compiles crazyhouse's walk: 20 s of CPU on a cold cache
def test_crazyhouse_clocks_after_a_drop_follow_either_oracle():
    """A drop resets the halfmove clock in Fairy-Stockfish (and chesskit), python-chess
    counts it on: python-chess's variant board after N@a2 is not a state mismatch (the
    drop adapters' compare found this first, before their bug)."""
    import chess.variant

    fen = "4k3/8/8/8/8/8/8/4K3[N] w - - 3 1"
    theirs = chess.variant.CrazyhouseBoard(fen)
    theirs.push_uci("N@a2")
    board = Board(fen, variant="crazyhouse")
    board.push("N@a2")
    assert board.fen().split()[4] == "0" and theirs.fen().split()[4] == "4"
    assert diff_state(board, theirs.fen()) is None
    assert diff_state(board, theirs.fen().replace(" 4 1", " 4 2")) == ("fullmove", 1, 2)


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant", ["crazyhouse"])
def test_compare_finds_an_adapter_whose_pocket_drifts(cli, variant):
    fen = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"
    spec = f"{ENGINES / 'vbug_drop_keeps_piece.py'}:Adapter"
    result = cli("compare", fen, "2", "--variant", variant, "--python", spec, "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    text = json.dumps(report)
    assert "pockets" in text
    assert report["kind"] == "state", text


def test_the_variant_fields_have_their_own_hints():
    from chesskit.compare.statecmp import _explosion_hint, _variant_hint

    assert "promoted piece goes to the pocket as a pawn" in _variant_hint("pockets", "push", "d8d1", "[p]", "[q]")
    assert "does not restore the check counters" in _variant_hint("checks", "pop", "a1a8", "3+3", "2+3")
    # atomic: b1b4 blows up the king on c5; an engine that keeps it is told about the radius
    ours, theirs = "8/8/8/8/8/8/8/4K3", "8/8/8/2k5/8/8/8/4K3"
    assert "exploded" in _explosion_hint("b1b4", ours, theirs)
    kept, lost = "4k3/8/8/8/3pBp2/8/8/4K3", "4k3/8/8/8/4B3/8/8/4K3"
    assert "pawn immunity" in _explosion_hint("h1e4", kept, lost)


def test_json_md_lists_every_state_field_a_variant_adds():
    # docs/json.md named the standard fields only, while a crazyhouse engine's drift
    # comes back as "field": "pockets" (and "promoted", "checks")
    import re

    from chesskit.compare.statecmp import VARIANT_LABELS
    from helpers import REPO

    text = (REPO / "docs" / "json.md").read_text(encoding="utf-8")
    sentence = re.search(r"for a state mismatch `field` is (.*?)`op` is", text).group(1)
    for field in VARIANT_LABELS:
        assert f"`{field}`" in sentence, field
