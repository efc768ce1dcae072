"""chesskit debug for the variants (chesskit/board/vdebug.py): a clean tree passes with
python-chess's node count, and each invariant the variants add fires on its injected
fault (chesskit/board/vinject.py), as the standard checker's tests do for theirs.

The checker walks the variant's compiled moves (its walk compiles on first use), so these
tests are marked ``variant_walk``; the faults table is checked in the default run."""

from __future__ import annotations

import json

import pytest

from chesskit.board.board import Board
from chesskit.board.vdebug import VARIANT_INVARIANTS, VFAULTS
from helpers import one_line
from variant_oracles import python_chess_perft

CLEAN = [
    ("kingofthehill", "r3k2r/8/8/3Pp3/8/2K5/1p6/R3B2R w kq e6 0 1", 2),
    ("3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 1+2 0 1", 3),
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", 2),
    ("horde", "4k3/8/8/8/8/8/3p4/P3P2P w - - 0 1", 3),
    ("antichess", "8/1P6/8/8/3pP3/8/8/8 b - e3 0 1", 3),
    ("giveaway", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2),
    ("atomic", "4k3/8/8/8/8/2nb4/8/3RK3 w - - 0 1", 2),
    ("crazyhouse", "3rk3/8/8/8/8/8/8/3Q~K3[Pp] b - - 0 1", 2),
]

# fault -> (variant, FEN, depth) where it fires
FAULT_CASES = {
    "pocket-overflow": ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1", 1),
    "pocket-grows": ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1", 1),
    "pocket-wrong-piece": ("crazyhouse", "4k3/8/8/8/8/8/3n4/4K3[] w - - 0 1", 1),
    "pocket-unkeyed": ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1", 1),
    "promoted-pawn": ("crazyhouse", "4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1", 1),
    "promoted-lost": ("crazyhouse", "4k3/8/8/8/8/8/8/3Q~K3[] w - - 0 1", 1),
    "checks-overflow": ("3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 3+3 0 1", 1),
    "check-not-counted": ("3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 3+3 0 1", 1),
    "explosion-spares": ("atomic", "4k3/8/8/8/8/2nb4/8/3RK3 w - - 0 1", 1),
    "pop-keeps-pocket": ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1", 1),
    "pop-keeps-checks": ("3check", "4k3/8/8/8/8/8/8/R3K2R w KQ - 3+3 0 1", 1),
    "pop-keeps-promoted": ("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1", 1),
}


def test_every_variant_invariant_has_a_fault():
    assert set(VFAULTS) == set(FAULT_CASES)
    assert set(VARIANT_INVARIANTS) <= set(VFAULTS.values())


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant,fen,depth", CLEAN, ids=[c[0] for c in CLEAN])
def test_a_clean_tree_passes_with_the_oracles_count(variant, fen, depth):
    result = Board(fen, variant=variant).debug(depth)
    assert result.ok, result.violation and result.violation.describe()
    assert result.nodes == python_chess_perft(variant, fen, depth)
    assert result.checks > result.nodes


@pytest.mark.variant_walk
@pytest.mark.parametrize("fault", sorted(FAULT_CASES), ids=[f"{FAULT_CASES[f][0]}-{f}" for f in sorted(FAULT_CASES)])
def test_each_injected_fault_is_caught_by_its_invariant(fault):
    from chesskit.board.vdebug import run_checks

    variant, fen, depth = FAULT_CASES[fault]
    board = Board(fen, variant=variant)
    assert run_checks(board, depth).ok  # the position is clean without the fault
    result = run_checks(board, depth, inject=fault)
    assert not result.ok
    assert result.violation.check == VFAULTS[fault], result.violation.describe()
    assert result.violation.move is not None
    assert board.fen() == Board(fen, variant=variant).fen()  # the board is left as it was


@pytest.mark.variant_walk
@pytest.mark.parametrize("variant", ["3check"])
def test_cli_debug_exit_codes(cli, variant):
    fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 3+3 0 1"
    clean = cli("debug", fen, "2", "--variant", variant, "--json")
    assert clean.exit_code == 0, clean.output
    assert json.loads(clean.stdout)["ok"] is True
    found = cli("debug", fen, "2", "--variant", variant, "--inject", "check-not-counted")
    assert found.exit_code == 1, found.output
    assert "violation: check-count-update" in found.stdout
    one_line(found, 1, "check-count-update")


def test_a_fault_of_the_other_checker_is_refused(cli):
    one_line(cli("debug", "startpos", "1", "--inject", "pocket-grows"), 2, "pocket-grows", "standard chess")


@pytest.mark.variant_walk
def test_more_than_32_in_hand_is_a_note_not_an_invariant_violation(cli):
    # the FEN reader counts 33 queens in hand (a "cannot arise" note); debug said
    # "violation: pocket-counts ... 0..32" and exit 1, as if chesskit's own board were wrong
    fen = "4k3/8/8/8/8/8/8/4K3[" + "Q" * 33 + "] w - - 0 1"
    result = cli("debug", fen, "2", "--variant", "crazyhouse", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert any("35 pieces" in note for note in report["notes"]), report
    strict = cli("debug", fen, "1", "--variant", "crazyhouse", "--strict")
    one_line(strict, 2, "35 pieces")
