"""--variant through the commands to the core, checked against python-chess's variant boards
(the oracle): each variant's start position by name, FENs in every dialect, show's variant
fields. Each variant compiles its own walk on first use (minutes on a busy machine), so
these are slow tests; tests/cli/test_cli_variant_option.py has the quick ones."""

from __future__ import annotations

import json

import chess
import chess.variant
import pytest

from chesskit import variants
from helpers import pc_perft

# compiles variant walks: slow, one xdist group per variant (tests/conftest.py)
pytestmark = pytest.mark.variant_walk

START = chess.STARTING_BOARD_FEN


def oracle(variant: str, fen: str | None = None):
    cls = chess.variant.find_variant(variants.get(variant).pychess)
    return cls() if fen is None else cls(fen)


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.name)
def test_startpos_by_name(cli, variant):
    result = cli("perft", "startpos", "2", "--variant", variant.name)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"Nodes searched: {pc_perft(oracle(variant.name), 2)}"
    shown = json.loads(cli("show", "startpos", "--variant", variant.name, "--json").stdout)
    assert shown["fen"] == variant.start_fen
    assert shown.get("variant", "chess") == variant.name  # standard chess's show has no variant key
    assert shown["legal_moves"] == sorted(m.uci() for m in oracle(variant.name).legal_moves)


@pytest.mark.parametrize(
    "variant, fen",
    [
        # three-check: the checks-given dialect after the clocks, one check left for white
        ("3check", "rnbqkb1r/pppp1ppp/5n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 +2+0"),
        # crazyhouse: pockets as a ninth rank, a promoted queen
        ("crazyhouse", "4k3/8/8/8/8/8/8/R3K2Q~/Pn w Q - 0 1"),
        ("koth", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ],
)
def test_dialects_count_as_python_chess(cli, variant, fen):
    result = cli("divide", fen, "2", "--variant", variant)
    assert result.exit_code == 0, result.stderr
    board = oracle(variant, fen)
    assert f"Nodes searched: {pc_perft(board, 2)}" in result.stdout.splitlines()


def test_show_prints_pockets_and_checks(cli):
    out = cli("show", f"{START}[Qn] w KQkq - 0 1", "--variant", "zh").stdout
    assert "variant: crazyhouse" in out and "pockets: Qn" in out
    out = cli("show", f"{START} w KQkq - 2+3 0 1", "--variant", "3check").stdout
    assert "checks given: white 1, black 0" in out


@pytest.mark.parametrize(
    "variant, fen",
    [
        ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"),  # white's king exploded
        ("kingofthehill", "rnbq1bnr/pppppppp/8/3k4/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),  # black's king on d5
        ("racingkings", "1k6/8/8/8/8/8/8/6K1 w - - 0 1"),  # black's king home
        ("horde", "8/8/8/8/8/8/8/k7 w - - 0 1"),  # white has nothing left
        ("3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+3"),  # black gave three checks
        ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),  # not over
        ("kingofthehill", "8/8/8/2k5/8/8/8/4K3 w - - 0 1"),  # next to the hill: not over
    ],
)
def test_show_names_a_variants_own_end_of_the_game(cli, variant, fen):
    over = oracle(variant, fen).is_variant_end()
    shown = json.loads(cli("show", fen, "--variant", variant, "--json").stdout)
    assert (shown["game_over"] is not None) == over
    line = next(line for line in cli("show", fen, "--variant", variant).stdout.splitlines() if line.startswith("side to move"))
    assert ("(the game is over: " + str(shown["game_over"]) + ")" in line) == over, line


@pytest.mark.parametrize("variant", ["antichess", "giveaway"])
def test_show_says_antichess_without_a_move_has_won(cli, variant):
    fen = "8/8/8/7p/7P/8/8/8 b - - 0 1"  # black's pawn is blocked: no legal move, and it wins
    board = oracle(variant, fen)
    assert not any(board.legal_moves) and board.is_variant_win()
    out = cli("show", fen, "--variant", variant).stdout
    assert "side to move: black (the game is over: black has no legal move and wins)" in out
    shown = json.loads(cli("show", fen, "--variant", variant, "--json").stdout)
    assert shown["game_over"] == "black has no legal move and wins"
    result = cli("perft", fen, "1", "--variant", variant, "--moves", "h5h4")
    assert "legal moves: (none: the game is over: black has no legal move and wins)" in result.stderr
    # no piece left at all: it has won too (python-chess: a variant win)
    bare = "8/8/8/8/8/8/8/7K b - - 0 1"
    assert oracle(variant, bare).is_variant_win()
    shown = json.loads(cli("show", bare, "--variant", variant, "--json").stdout)
    assert shown["game_over"] == "black has no piece left and wins"


def test_show_says_a_racing_king_home_that_black_cannot_follow_ends_the_game(cli):
    # White's king reached g8; Black's on a6 cannot reach the eighth rank: White has won
    fen = "6K1/8/k7/8/8/8/8/8 b - - 1 1"
    assert oracle("racingkings", fen).is_variant_end()
    shown = json.loads(cli("show", fen, "--variant", "racingkings", "--json").stdout)
    assert shown["game_over"] == "the white king has reached the eighth rank, and the black king cannot follow"
    # one that can follow plays on (its last chance)
    follow = "6K1/k7/8/8/8/8/8/8 b - - 1 1"
    assert not oracle("racingkings", follow).is_variant_end()
    assert json.loads(cli("show", follow, "--variant", "racingkings", "--json").stdout)["game_over"] is None


def test_a_move_after_a_variants_own_end_says_the_game_is_over(cli):
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"  # white's king exploded
    assert oracle("atomic", fen).is_variant_end()
    result = cli("perft", fen, "1", "--variant", "atomic", "--moves", "e2e4")
    assert result.exit_code == 2
    assert "legal moves: (none: the game is over: the white king has exploded)" in result.stderr
